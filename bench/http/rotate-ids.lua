-- wrk script: GET <prefix><id> with id rotating over [lo, hi].
-- Usage: wrk ... -s rotate-ids.lua http://HOST:PORT -- /api/v1/items/ 1 30000
-- Each wrk thread walks the whole range with a prime stride (7919), starting at a
-- different offset, so consecutive requests hit unrelated ids and every id is visited.
-- The same script drives nginx (which answers every id with the one static body), so the
-- client-side Lua cost is identical on both sides.
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("tid", thread_count)
end

function init(args)
  prefix = args[1] or "/api/v1/items/"
  lo = tonumber(args[2]) or 1
  hi = tonumber(args[3]) or 30000
  span = hi - lo + 1
  stride = (span % 7919 == 0) and 1 or 7919
  n = ((tid or 1) - 1) * math.floor(span / 2)
end

function request()
  n = (n + stride) % span
  return wrk.format("GET", prefix .. (lo + n))
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"duration_us":%d,"requests":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,' ..
    '"max_us":%d,"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d}\n',
    summary.duration, summary.requests, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
