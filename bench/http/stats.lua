-- wrk script: no request()/response() hooks, so wrk keeps its pre-built static request
-- (no per-request Lua cost). done() prints one machine-readable line after wrk's report.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"duration_us":%d,"requests":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,' ..
    '"max_us":%d,"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d}\n',
    summary.duration, summary.requests, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
