#!/usr/bin/env bash
# bench/metrics/run.sh: the metrics engine at catalogue scale, then its two endpoints
# under wrk next to nginx serving the same bodies (bench/README.md, "metrics/run.sh").
#
#  1. bench_metrics: a cycle touching every one of --items items, folded in and the
#     whole catalogue recomputed for 1h, 24h and 7d (target < 100 ms); then the resident
#     memory of --memory-series series polled every 5 minutes (bytes per series).
#  2. skinpulsed with --http-items items backfilled (24 h, one point per 15 min), then
#     GET /api/v1/rankings/volatile and GET /api/v1/items/:id/volatility against nginx
#     serving the daemon's own bodies as static files, --runs times interleaved
#     (targets: >= 50 % of nginx's req/s, p99 < 10 ms).
#
#   bench/metrics/run.sh [--build DIR] [--runs N] [--items N] [--http-items N]
#                        [--memory-series N] [--duration D] [--connections N]
#                        [--skip-engine] [--skip-http]
#
# Needs a built tree (skinpulsed, skinpulsectl, bench_metrics, the plugins) and wrk,
# nginx, curl, python3 (Debian: apt-get install wrk nginx-light curl python3).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
runs=3
items=25000
http_items=2000
memory_series=100000
duration=10s
connections=64
wrk_threads=2
skip_engine=0
skip_http=0

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --items) items=$2; shift 2 ;;
    --http-items) http_items=$2; shift 2 ;;
    --memory-series) memory_series=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --skip-engine) skip_engine=1; shift ;;
    --skip-http) skip_http=1; shift ;;
    -h|--help) sed -n 2,19p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
if [[ $skip_engine -eq 0 ]]; then
  "$build/bin/bench_metrics" --items "$items" --runs "$((runs * 3))" 2>&1 | grep -v " loaded: "
  if [[ $memory_series -gt 0 ]]; then
    "$build/bin/bench_metrics" --series "$memory_series" --poll-seconds 300 --runs 0 2>&1 |
      grep -v " loaded: "
  fi
fi
[[ $skip_http -eq 1 ]] && exit 0

for tool in wrk nginx curl python3; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool missing" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skinpulse-bench-metrics.XXXXXX")
chmod 755 "$tmp"
daemon_pid=""
nginx_pid=""
cleanup() {
  for pid in $nginx_pid $daemon_pid; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
dport=$(port)
nport=$(port)

printf '[log]\naccess = false\nlevel = warn\n' >"$tmp/skinpulsed.ini"
export SESSION_SECRET="bench-session-secret-not-a-secret-0123456789"
export LISTEN="127.0.0.1:$dport" BASE_URL="http://127.0.0.1:$dport"
export DATABASE_URL="sqlite://$tmp/bench.db"

# History: the first --http-items catalogue names, a random walk each, 24 h at 15 min.
python3 - "$root/share/catalog/items.jsonl" "$http_items" >"$tmp/history.jsonl" <<'PY'
import json, random, sys, time
names = [json.loads(line)["market_hash_name"] for line in open(sys.argv[1], encoding="utf-8")]
now = int(time.time())
random.seed(7)
for name in names[:int(sys.argv[2])]:
    price = random.randint(100, 100000)
    for i in range(96):
        price = max(1, int(price * (1 + random.gauss(0, 0.02))))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 60 - 900 * i))
        print(json.dumps({"market_hash_name": name, "source": "bench", "time": stamp,
                          "price": price, "volume": 1}, ensure_ascii=False))
PY
"$build/bin/skinpulsectl" backfill --config "$tmp/skinpulsed.ini" --file "$tmp/history.jsonl" | tail -1
"$build/bin/skinpulsed" --config "$tmp/skinpulsed.ini" >"$tmp/skinpulsed.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 600); do
  curl -fsS -o /dev/null "http://127.0.0.1:$dport/healthz" 2>/dev/null && break
  sleep 0.1
done

mkdir -p "$tmp/www"
ranking_path="/api/v1/rankings/volatile"
item_id=$(curl -fsS "http://127.0.0.1:$dport$ranking_path?limit=1" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["item_id"])')
item_path="/api/v1/items/$item_id/volatility"
curl -fsS -o "$tmp/www/ranking.json" "http://127.0.0.1:$dport$ranking_path"
curl -fsS -o "$tmp/www/item.json" "http://127.0.0.1:$dport$item_path"
chmod 644 "$tmp/www"/*.json
chmod 755 "$tmp/www"
echo "bodies: ranking $(wc -c <"$tmp/www/ranking.json") B, volatility $(wc -c <"$tmp/www/item.json") B"

mkdir -p "$tmp/nginx"
{
  echo "daemon off; worker_processes auto; pid $tmp/nginx/nginx.pid;"
  echo "error_log $tmp/nginx/error.log warn; events { worker_connections 1024; }"
  echo "http { access_log off; types {} default_type application/json; sendfile on;"
  echo "  tcp_nodelay on; keepalive_requests 1000000;"
  for dir in client_body proxy fastcgi uwsgi scgi; do echo "  ${dir}_temp_path $tmp/nginx/$dir;"; done
  echo "  server { listen 127.0.0.1:$nport; root $tmp/www; } }"
} >"$tmp/nginx/nginx.conf"
nginx -p "$tmp/nginx/" -c "$tmp/nginx/nginx.conf" -e "$tmp/nginx/error.log" >"$tmp/nginx.log" 2>&1 &
nginx_pid=$!
for _ in $(seq 50); do
  curl -fsS -o /dev/null "http://127.0.0.1:$nport/item.json" 2>/dev/null && break
  sleep 0.1
done

measure() {  # measure URL -> "req/s p99_ms"
  wrk -t"$wrk_threads" -c"$connections" -d"$duration" --latency -s "$root/bench/http/stats.lua" "$1" \
    >"$tmp/wrk.txt" 2>&1
  local rps p99
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$tmp/wrk.txt")
  p99=$(sed -n 's/^BENCH //p' "$tmp/wrk.txt" | tr -d '{}' | tr ',' '\n' |
    awk -F: '$1 == "\"p99_us\"" { printf "%.2f", $2 / 1000 }')
  echo "$rps $p99"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

printf '\n%-40s %12s %10s %12s %10s %7s\n' endpoint "nginx req/s" "nginx p99" "daemon req/s" "daemon p99" ratio
for target in "ranking|$ranking_path|/ranking.json" "volatility|$item_path|/item.json"; do
  IFS='|' read -r name dpath npath <<<"$target"
  : >"$tmp/$name.d"
  : >"$tmp/$name.n"
  wrk -t1 -c8 -d2s "http://127.0.0.1:$dport$dpath" >/dev/null 2>&1  # warm-up
  for ((r = 1; r <= runs; r++)); do
    measure "http://127.0.0.1:$nport$npath" >>"$tmp/$name.n"
    measure "http://127.0.0.1:$dport$dpath" >>"$tmp/$name.d"
  done
  n_rps=$(cut -d' ' -f1 "$tmp/$name.n" | median)
  n_p99=$(cut -d' ' -f2 "$tmp/$name.n" | median)
  d_rps=$(cut -d' ' -f1 "$tmp/$name.d" | median)
  d_p99=$(cut -d' ' -f2 "$tmp/$name.d" | median)
  printf '%-40s %12s %10s %12s %10s %6.1f%%\n' "GET $dpath" "$n_rps" "$n_p99" "$d_rps" "$d_p99" \
    "$(awk -v d="$d_rps" -v n="$n_rps" 'BEGIN { print (n > 0 ? d / n * 100 : 0) }')"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
