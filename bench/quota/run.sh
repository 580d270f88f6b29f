#!/bin/sh
# bench/quota/run.sh [BUILD_DIR] [RUNS]: what the read budget costs (docs/adr/0028).
#  1. bench_quota: nanoseconds per QuotaGuard::admit, budgets off beside on (one JSON line).
#  2. wrk -t2 -c64 -d10s against GET /api/v1/items/1 (an inline, cached read) of two
#     daemons on one SQLite file, one without [api] (the built-in default: no budget) and
#     one with requests_per_minute = 1000000000 (counted, never refused in a 10 s run),
#     alternated RUNS times. Prints req/s and p99 per run; bench/README.md, "quota".
set -eu
build=${1:-build}
runs=${2:-3}
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM
echo "load: $(cat /proc/loadavg)"
"$build/bin/bench_quota" 2000000 5

start() {  # NAME PORT ADMIN_PORT INI_TEXT
  printf '%s' "$4" > "$work/$1.ini"
  SESSION_SECRET=bench-secret-0123456789abcdef-0123456789 LISTEN="127.0.0.1:$2" \
    ADMIN_LISTEN="127.0.0.1:$3" DATABASE_URL="sqlite://$work/bench.db" REDIS_URL= \
    "$build/bin/skinpulsed" --config "$work/$1.ini" > "$work/$1.log" 2>&1 &
  echo $! > "$work/$1.pid"
  i=0
  until curl -fs "http://127.0.0.1:$2/healthz" > /dev/null; do
    i=$((i + 1)); [ "$i" -lt 100 ] || { cat "$work/$1.log"; exit 1; }; sleep 0.2
  done
}
start off 18581 18591 ''
start on 18582 18592 '[api]
requests_per_minute = 1000000000
'
for url in http://127.0.0.1:18581 http://127.0.0.1:18582; do
  wrk -t2 -c64 -d2s "$url/api/v1/items/1" > /dev/null  # warm-up
done
i=0
while [ "$i" -lt "$runs" ]; do
  for pair in off:18581 on:18582; do
    name=${pair%%:*}; port=${pair#*:}
    out=$(wrk -t2 -c64 -d10s --latency "http://127.0.0.1:$port/api/v1/items/1")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
    echo "{\"run\":$i,\"budget\":\"$name\",\"req_per_s\":$rps,\"p99\":\"$p99\",\"non_2xx\":${non2xx:-0}}"
  done
  i=$((i + 1))
done
echo "load: $(cat /proc/loadavg)"
