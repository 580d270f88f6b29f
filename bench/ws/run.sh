#!/usr/bin/env bash
# bench/ws/run.sh: publish→receipt latency of live updates, and the server's RSS and
# threads, with CLIENTS WebSocket clients on loopback. See bench/README.md, "ws/run.sh".
#
#   bench/ws/run.sh [--build DIR] [--clients 10000] [--ids 10] [--items 25000]
#                   [--cycles 5] [--interval-ms 3000] [--no-volatility]
# --ids 0 subscribes every client to "*".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
clients=10000
ids=10
items=25000
cycles=5
interval=3000
volatility=1

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --ids) ids=$2; shift 2 ;;
    --items) items=$2; shift 2 ;;
    --cycles) cycles=$2; shift 2 ;;
    --interval-ms) interval=$2; shift 2 ;;
    --no-volatility) volatility=0; shift ;;
    -h|--help) sed -n 2,7p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

for bin in bench_ws_server bench_ws_client; do
  if [[ ! -x "$build/bin/$bin" ]]; then
    echo "run.sh: $build/bin/$bin not found; build it first:" >&2
    echo "  cmake --build $build -j2 --target bench_ws_server bench_ws_client" >&2
    exit 1
  fi
done
# Both processes hold one descriptor per client (plus the server's listening and
# epoll descriptors); each raises its soft limit to the hard limit itself.
if (( $(ulimit -Hn) < clients + 64 )); then
  echo "run.sh: hard open-file limit $(ulimit -Hn) < $clients clients; raise it (limits.conf, LimitNOFILE=)" >&2
  exit 1
fi

# Box-wide kernel TCP counters (name=value): a segment lost on loopback is only resent
# after a retransmission timeout (200 ms, doubling), so losses show up as late clients.
tcp_counters() {
  awk '$1 == "TcpExt:" || $1 == "Tcp:" {
         if (!($1 in names)) { for (i = 2; i <= NF; i++) names[$1, i] = $i; names[$1] = 1; next }
         for (i = 2; i <= NF; i++) print names[$1, i] "=" $i
       }' /proc/net/netstat /proc/net/snmp |
    grep -E '^(RetransSegs|TCPTimeouts|TCPRcvQDrop|TCPOFODrop|TCPBacklogDrop|TCPMemoryPressures|TCPAbortOnMemory)='
}

work=$(mktemp -d)
sampler_pid=
trap 'kill "$server_pid" $sampler_pid 2>/dev/null || true; rm -rf "$work"' EXIT
tcp_counters | sort > "$work/tcp.before"
# Peak TCP memory of the whole box (pages) while the benchmark runs.
( peak=0; while :; do
    mem=$(awk '$1 == "TCP:" { for (i = 2; i < NF; i++) if ($i == "mem") print $(i + 1) }' /proc/net/sockstat)
    (( mem > peak )) && { peak=$mem; echo "$peak" > "$work/tcp.peak"; }
    sleep 0.2
  done ) &
sampler_pid=$!
server_args=(--port 0 --clients "$clients" --items "$items" --cycles "$cycles"
             --interval-ms "$interval")
(( volatility )) || server_args+=(--no-volatility)
"$build/bin/bench_ws_server" "${server_args[@]}" > "$work/server.out" 2> "$work/server.err" &
server_pid=$!
for _ in $(seq 100); do
  grep -q '^port ' "$work/server.out" 2>/dev/null && break
  sleep 0.1
done
port=$(awk '/^port /{print $2}' "$work/server.out")
"$build/bin/bench_ws_client" --port "$port" --publish-log "$work/server.out" \
  --clients "$clients" --ids "$ids" --items "$items" --cycles "$cycles" \
  --volatility "$volatility" 2> "$work/client.err"
wait "$server_pid"
kill "$sampler_pid" 2>/dev/null || true
grep -E '^(stats|publish|passes)' "$work/server.out"
tcp_counters | sort > "$work/tcp.after"
echo "kernel tcp during the run (whole box): $(join -t= "$work/tcp.before" "$work/tcp.after" 2>/dev/null |
  awk -F= '{ printf "%s+%d ", $1, $3 - $2 }')peak_mem_pages=$(cat "$work/tcp.peak" 2>/dev/null || echo 0) (tcp_mem $(sysctl -n net.ipv4.tcp_mem 2>/dev/null | tr '\t' ' '))"
if [[ -s "$work/client.err" ]]; then
  echo "client messages (first 5 of $(wc -l < "$work/client.err")):"
  head -5 "$work/client.err"
fi
