#!/usr/bin/env bash
# HTTP throughput/latency of skinpulsed against nginx serving the same bodies, same box,
# same run; with --baseline-build also an older daemon (the main branch's build), so one
# run measures nginx, the baseline and the new daemon. Prints the median of RUNS per
# target and each daemon's req/s as a share of nginx's.
#
#   bench/http/run.sh [--build DIR] [--baseline-build DIR] [--runs N] [--out FILE] [options]
#
# Before measuring, both daemons get the same price history through skinpulsectl
# backfill (seed-history.py): an 8,000-point item over 7 days for the history and candle
# targets, and a week of hourly points for 200 more items for the rankings.
#
# Builds nothing and installs nothing: it needs an already built skinpulsed and
# skinpulsectl and the tools wrk, nginx, curl and python3 (Debian: apt-get install wrk
# nginx-light curl python3). See bench/README.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

build="$here/../../build"
baseline=""
runs=3
out=""
duration=10s
warmup=2s
connections=64
wrk_threads=2
http_threads=96
item_id=17000
id_lo=1
id_hi=30000
keep=0
ready_timeout=300
history_points=8000
only_targets=""

usage() {
  cat <<EOF
usage: $0 [options]
  --build DIR         build tree holding bin/skinpulsed (default: $build)
  --baseline-build DIR  also measure the skinpulsed of this build tree (bin/skinpulsed)
  --targets LIST      comma list of targets to measure (default: all): list, item,
                      item-rotating, volatility, rankings, history-24h, history-7d, candles,
                      and the encoded bodies history-24h-gzip, history-24h-br,
                      history-7d-gzip, history-7d-br, candles-gzip, candles-br
  --history-points N  points of the history item over 7 days (default: $history_points)
  --runs N            measured runs per target, interleaved daemon/nginx (default: $runs)
  --out FILE          also append every measurement as a JSON line to FILE
  --duration D        wrk -d per measurement (default: $duration)
  --warmup D          wrk -d of the one warm-up per target and server (default: $warmup)
  --connections N     wrk -c (default: $connections)
  --wrk-threads N     wrk -t (default: $wrk_threads)
  --http-threads N    daemon [http] threads (default: $http_threads)
  --item-id N         id for the single-item, volatility, history and candle targets
                      (default: $item_id)
  --ids LO-HI         id range for the rotating single-item target (default: $id_lo-$id_hi)
  --keep              keep the temp dir (logs, configs, raw wrk output)
EOF
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --baseline-build) baseline=$2; shift 2 ;;
    --targets) only_targets=$2; shift 2 ;;
    --history-points) history_points=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --wrk-threads) wrk_threads=$2; shift 2 ;;
    --http-threads) http_threads=$2; shift 2 ;;
    --item-id) item_id=$2; shift 2 ;;
    --ids) id_lo=${2%-*}; id_hi=${2#*-}; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "--runs must be a positive integer" >&2; exit 2; }

# --- prerequisites ------------------------------------------------------------------
missing=()
for tool in wrk nginx curl awk python3; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "missing: ${missing[*]}. Install them with: apt-get install wrk nginx-light curl python3" >&2
  exit 1
fi
daemon_bin="$build/bin/skinpulsed"
if [[ ! -x "$daemon_bin" ]]; then
  echo "no daemon at $daemon_bin; build it first, e.g.:" >&2
  echo "  cmake -S $repo -B $build -DCMAKE_BUILD_TYPE=Release -DSKINPULSE_BUILD_TESTS=OFF" >&2
  echo "  cmake --build $build -j\$(nproc) --target skinpulsed" >&2
  exit 1
fi
daemon_bin=$(cd "$(dirname "$daemon_bin")" && pwd)/skinpulsed
ctl_bin="$(dirname "$daemon_bin")/skinpulsectl"
[[ -x "$ctl_bin" ]] || { echo "no skinpulsectl beside $daemon_bin; build the target skinpulsectl" >&2; exit 1; }
baseline_bin=""
if [[ -n "$baseline" ]]; then
  baseline_bin="$baseline/bin/skinpulsed"
  [[ -x "$baseline_bin" ]] || { echo "no daemon at $baseline_bin (--baseline-build)" >&2; exit 1; }
  baseline_bin=$(cd "$(dirname "$baseline_bin")" && pwd)/skinpulsed
fi
if [[ -n "$out" ]]; then
  mkdir -p "$(dirname "$out")"
  out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
fi

# --- temp dir and cleanup -----------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skinpulse-bench.XXXXXX")
chmod 755 "$tmp"  # nginx workers run as an unprivileged user when started as root
daemon_pid=""
baseline_pid=""
nginx_pid=""
wrk_pid=""

# shellcheck disable=SC2317  # stop_pid and cleanup run from the EXIT trap
stop_pid() {  # stop_pid PID: TERM, up to 5 s, then KILL
  local pid=$1 i
  if [[ -z "$pid" ]] || ! kill -0 "$pid" 2>/dev/null; then return 0; fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  wait "$pid" 2>/dev/null || true
}

# shellcheck disable=SC2317

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_pid "$wrk_pid"
  stop_pid "$nginx_pid"
  stop_pid "$daemon_pid"
  stop_pid "$baseline_pid"
  if [[ $keep -eq 1 || ( $rc -ne 0 && $rc -ne 130 && $rc -ne 143 ) ]]; then
    echo "temp dir kept: $tmp" >&2
  else
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

log() { printf '[bench] %s\n' "$*" >&2; }

free_port() {  # a port nobody listens on (racy by nature; startup failures are detected)
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
  else
    local p
    for _ in $(seq 200); do
      p=$((20000 + RANDOM % 40000))
      if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
    done
    return 1
  fi
}

wait_http() {  # wait_http URL PID WHAT SECONDS
  local url=$1 pid=$2 what=$3 limit=$4 i
  for ((i = 0; i < limit * 10; i++)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "$what exited during startup; its log:"
      tail -n 30 "$tmp/$what.log" >&2 || true
      exit 1
    fi
    curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  log "$what not ready after ${limit}s"
  exit 1
}

dport=$(free_port)
nport=$(free_port)
while [[ "$nport" == "$dport" ]]; do nport=$(free_port); done
bport=""
if [[ -n "$baseline_bin" ]]; then
  bport=$(free_port)
  while [[ "$bport" == "$dport" || "$bport" == "$nport" ]]; do bport=$(free_port); done
fi

# --- daemons ------------------------------------------------------------------------
# Access logging is off: one stderr line per request would measure the terminal/pipe,
# not the server (nginx's access_log is off too). Both daemons read this checkout's
# share/ (catalogue) and their own build's metric plugins, so a baseline binary copied out
# of its build tree runs too.
daemon_env() {  # daemon_env NAME PORT: the clean environment of one daemon
  # A clean environment so settings in the caller's shell (SKINPULSE_*, REDIS_URL, ...)
  # cannot change what is measured.
  echo PATH="$PATH" HOME="${HOME:-/tmp}" ${LD_LIBRARY_PATH:+LD_LIBRARY_PATH="$LD_LIBRARY_PATH"} \
    SESSION_SECRET="bench-session-secret-not-a-secret-0123456789" \
    LISTEN="127.0.0.1:$2" BASE_URL="http://127.0.0.1:$2" DATABASE_URL="sqlite://$tmp/$1.db"
}
start_daemon() {  # start_daemon NAME BIN PORT; sets started_pid
  local name=$1 bin=$2 port=$3 plugins
  plugins="$(dirname "$(dirname "$bin")")/lib/skinpulse/plugins"
  {
    echo "[daemon]"
    echo "share_dir = $repo/share"
    [[ -d "$plugins" ]] && echo "plugin_dir = $plugins"
    echo
    echo "[http]"
    echo "threads = $http_threads"
    echo
    # Each daemon its own admin listener: two daemons (--baseline-build) on the default
    # port would refuse to start.
    echo "[admin]"
    echo "listen = 127.0.0.1:$(free_port)"
    echo
    echo "[log]"
    echo "access = false"
    echo "level = warn"
  } >"$tmp/$name.ini"
  log "starting $name ($bin) on 127.0.0.1:$port (first start seeds the catalogue)"
  # shellcheck disable=SC2046  # daemon_env prints NAME=VALUE words on purpose
  env -i $(daemon_env "$name" "$port") "$bin" --config "$tmp/$name.ini" >"$tmp/$name.log" 2>&1 &
  started_pid=$!
}
started_pid=""
start_daemon skinpulsed "$daemon_bin" "$dport"
daemon_pid=$started_pid
if [[ -n "$baseline_bin" ]]; then
  start_daemon baseline "$baseline_bin" "$bport"
  baseline_pid=$started_pid
fi
started=$SECONDS
wait_http "http://127.0.0.1:$dport/healthz" "$daemon_pid" skinpulsed "$ready_timeout"
[[ -n "$baseline_pid" ]] && wait_http "http://127.0.0.1:$bport/healthz" "$baseline_pid" baseline "$ready_timeout"
log "daemons ready after $((SECONDS - started))s"

# --- price history ------------------------------------------------------------------
# The same JSON Lines into every daemon's database, while it runs: it notices the
# backfill within seconds and reloads (latest prices, metrics, history cache).
python3 "$here/seed-history.py" --url "http://127.0.0.1:$dport" --item "$item_id" \
  --points "$history_points" >"$tmp/history.jsonl"
log "backfilling $(wc -l <"$tmp/history.jsonl") points ($history_points for item $item_id)"
backfill_into() {  # backfill_into NAME PORT PID
  # shellcheck disable=SC2046
  env -i $(daemon_env "$1" "$2") "$ctl_bin" backfill --config "$tmp/$1.ini" \
    --file "$tmp/history.jsonl" >"$tmp/backfill-$1.log" 2>&1 ||
    { log "backfill into $1 failed:"; cat "$tmp/backfill-$1.log" >&2; exit 1; }
  local i
  for ((i = 0; i < 600; i++)); do
    kill -0 "$3" 2>/dev/null || { log "$1 exited"; tail -n 30 "$tmp/$1.log" >&2; exit 1; }
    if curl -fsS "http://127.0.0.1:$2/api/v1/items/$item_id" 2>/dev/null | grep -q '"current_price":[0-9]'; then
      return 0
    fi
    sleep 0.2
  done
  log "$1 never showed the backfilled prices"
  exit 1
}
backfill_into skinpulsed "$dport" "$daemon_pid"
[[ -n "$baseline_pid" ]] && backfill_into baseline "$bport" "$baseline_pid"

# --- bodies -------------------------------------------------------------------------
www="$tmp/www"
mkdir -p "$www"
list_path="/api/v1/items?limit=50"
item_path="/api/v1/items/$item_id"
# name | daemon path; nginx serves the daemon's body of each as /<name>.json
bodies=(
  "items|$list_path"
  "item|$item_path"
  "volatility|/api/v1/items/$item_id/volatility"
  "rankings|/api/v1/rankings/volatile?limit=20&window=24h"
  "history-24h|/api/v1/items/$item_id/history?window=24h"
  "history-7d|/api/v1/items/$item_id/history?window=7d"
  "candles|/api/v1/items/$item_id/candles?window=7d&interval=1h"
)
for entry in "${bodies[@]}"; do
  IFS='|' read -r file path <<<"$entry"
  curl -fsS -D "$tmp/$file.headers" -o "$www/$file.json" "http://127.0.0.1:$dport$path"
  if [[ -n "$bport" ]]; then
    # The cache must not change a byte: the baseline reads the store on every request.
    curl -fsS -o "$tmp/baseline-$file.json" "http://127.0.0.1:$bport$path"
    cmp -s "$tmp/baseline-$file.json" "$www/$file.json" ||
      log "warning: $path differs between the daemon and the baseline (bodies that depend on the time, such as metrics, can move between the two reads)"
  fi
done
# The prepared, pre-compressed bodies (docs/architecture.md, "Prepared bodies"): the daemon's
# gzip and br bytes of the big bodies; nginx sends the same bytes, gzip through gzip_static
# (<name>.json.gz beside <name>.json) and br as a file of its own with Content-Encoding: br
# (Debian's nginx has no brotli module).
encoded=(history-24h history-7d candles)
for entry in "${bodies[@]}"; do
  IFS='|' read -r file path <<<"$entry"
  [[ " ${encoded[*]} " == *" $file "* ]] || continue
  curl -fsS -H 'Accept-Encoding: gzip' -D "$tmp/$file.gz.headers" -o "$www/$file.json.gz" \
    "http://127.0.0.1:$dport$path"
  curl -fsS -H 'Accept-Encoding: br' -D "$tmp/$file.br.headers" -o "$www/$file.json.br" \
    "http://127.0.0.1:$dport$path"
  grep -qi '^Content-Encoding: gzip' "$tmp/$file.gz.headers" ||
    { log "the daemon sent $path without gzip when asked for it"; exit 1; }
  grep -qi '^Content-Encoding: br' "$tmp/$file.br.headers" ||
    { log "the daemon sent $path without br when asked for it"; exit 1; }
  # What the client gets back decompressed is the identity body, byte for byte.
  gzip -dc "$www/$file.json.gz" | cmp -s - "$www/$file.json" ||
    { log "gzip body of $path does not decompress to the identity body"; exit 1; }
done
for id in "$id_lo" "$id_hi"; do
  curl -fsS -o /dev/null "http://127.0.0.1:$dport/api/v1/items/$id" ||
    { log "id $id of the rotating range does not answer 200; use --ids"; exit 1; }
done
chmod 755 "$www"
chmod 644 "$www"/*

# --- nginx --------------------------------------------------------------------------
mkdir -p "$tmp/nginx"
cat >"$tmp/nginx/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes auto;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;

events {
  worker_connections 1024;
}

http {
  access_log off;
  types {}
  default_type application/json;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  client_body_temp_path $tmp/nginx/client_body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;

  server {
    listen 127.0.0.1:$nport;
    root $www;
    location ~ ^/[a-z0-9-]+\.json$ { gzip_static on; }
    location ~ ^/[a-z0-9-]+\.json\.br$ {
      add_header Content-Encoding br;
      add_header Vary Accept-Encoding;
    }
    # The rotating target sends /api/v1/items/<id>; every id gets the one static body.
    location /api/v1/items/ { try_files /item.json =404; }
  }
}
EOF
nginx_args=(-p "$tmp/nginx/" -c "$tmp/nginx/nginx.conf" -e "$tmp/nginx/error.log")
nginx -t -q "${nginx_args[@]}" 2>"$tmp/nginx.log" || { cat "$tmp/nginx.log" >&2; exit 1; }
log "starting nginx on 127.0.0.1:$nport"
nginx "${nginx_args[@]}" >>"$tmp/nginx.log" 2>&1 &
nginx_pid=$!
wait_http "http://127.0.0.1:$nport/item.json" "$nginx_pid" nginx 10

# nginx must send exactly the bytes the daemon sent.
checks=("/api/v1/items/$item_id item.json")
for entry in "${bodies[@]}"; do checks+=("/${entry%%|*}.json ${entry%%|*}.json"); done
for check in "${checks[@]}"; do
  read -r path file <<<"$check"
  curl -fsS -o "$tmp/check.body" "http://127.0.0.1:$nport$path"
  cmp -s "$tmp/check.body" "$www/$file" || { log "nginx $path differs from the daemon's body"; exit 1; }
done
for file in "${encoded[@]}"; do
  curl -fsS -H 'Accept-Encoding: gzip' -o "$tmp/check.body" "http://127.0.0.1:$nport/$file.json"
  cmp -s "$tmp/check.body" "$www/$file.json.gz" || { log "nginx gzip of $file differs from the daemon's"; exit 1; }
  curl -fsS -o "$tmp/check.body" "http://127.0.0.1:$nport/$file.json.br"
  cmp -s "$tmp/check.body" "$www/$file.json.br" || { log "nginx br of $file differs from the daemon's"; exit 1; }
done
curl -fsS -o "$tmp/check.body" "http://127.0.0.1:$dport$list_path"
cmp -s "$tmp/check.body" "$www/items.json" || log "warning: the daemon's list body changed between two fetches"

header_bytes() { curl -fsS -o /dev/null -D - "$1" | wc -c; }
list_body=$(wc -c <"$www/items.json")
item_body=$(wc -c <"$www/item.json")
log "bodies: list $list_body B, item $item_body B, history 24h $(wc -c <"$www/history-24h.json") B," \
  "history 7d $(wc -c <"$www/history-7d.json") B, candles $(wc -c <"$www/candles.json") B"
log "response headers: daemon list $(header_bytes "http://127.0.0.1:$dport$list_path") B," \
  "daemon item $(header_bytes "http://127.0.0.1:$dport$item_path") B," \
  "nginx $(header_bytes "http://127.0.0.1:$nport/item.json") B"

# --- targets ------------------------------------------------------------------------
# name | description | nginx URL | daemon URL | wrk script args (after --)
# name | description | nginx URL | daemon path (on either daemon) | wrk script | args
all_targets=(
  "list|GET /api/v1/items?limit=50|http://127.0.0.1:$nport/items.json|$list_path|stats.lua|"
  "item|GET /api/v1/items/$item_id|http://127.0.0.1:$nport/item.json|$item_path|stats.lua|"
  "item-rotating|GET /api/v1/items/{$id_lo..$id_hi}|http://127.0.0.1:$nport||rotate-ids.lua|/api/v1/items/ $id_lo $id_hi"
  "volatility|GET /api/v1/items/$item_id/volatility|http://127.0.0.1:$nport/volatility.json|/api/v1/items/$item_id/volatility|stats.lua|"
  "rankings|GET /api/v1/rankings/volatile?limit=20|http://127.0.0.1:$nport/rankings.json|/api/v1/rankings/volatile?limit=20&window=24h|stats.lua|"
  "history-24h|GET /api/v1/items/$item_id/history (24h)|http://127.0.0.1:$nport/history-24h.json|/api/v1/items/$item_id/history?window=24h|stats.lua|"
  "history-7d|GET /api/v1/items/$item_id/history?window=7d|http://127.0.0.1:$nport/history-7d.json|/api/v1/items/$item_id/history?window=7d|stats.lua|"
  "candles|GET /api/v1/items/$item_id/candles?window=7d|http://127.0.0.1:$nport/candles.json|/api/v1/items/$item_id/candles?window=7d&interval=1h|stats.lua|"
  "history-24h-gzip|GET .../history (24h), gzip|http://127.0.0.1:$nport/history-24h.json|/api/v1/items/$item_id/history?window=24h|stats.lua||Accept-Encoding: gzip"
  "history-24h-br|GET .../history (24h), br|http://127.0.0.1:$nport/history-24h.json.br|/api/v1/items/$item_id/history?window=24h|stats.lua||Accept-Encoding: br"
  "history-7d-gzip|GET .../history?window=7d, gzip|http://127.0.0.1:$nport/history-7d.json|/api/v1/items/$item_id/history?window=7d|stats.lua||Accept-Encoding: gzip"
  "history-7d-br|GET .../history?window=7d, br|http://127.0.0.1:$nport/history-7d.json.br|/api/v1/items/$item_id/history?window=7d|stats.lua||Accept-Encoding: br"
  "candles-gzip|GET .../candles?window=7d, gzip|http://127.0.0.1:$nport/candles.json|/api/v1/items/$item_id/candles?window=7d&interval=1h|stats.lua||Accept-Encoding: gzip"
  "candles-br|GET .../candles?window=7d, br|http://127.0.0.1:$nport/candles.json.br|/api/v1/items/$item_id/candles?window=7d&interval=1h|stats.lua||Accept-Encoding: br"
)
targets=()
for t in "${all_targets[@]}"; do
  if [[ -z "$only_targets" || ",$only_targets," == *",${t%%|*},"* ]]; then targets+=("$t"); fi
done
[[ ${#targets[@]} -gt 0 ]] || { log "no target matches --targets $only_targets"; exit 2; }
servers=(nginx daemon)
[[ -n "$bport" ]] && servers=(nginx baseline daemon)
server_url() {  # server_url SERVER NGINX_URL DAEMON_PATH
  case "$1" in
    nginx) echo "$2" ;;
    daemon) echo "http://127.0.0.1:$dport$3" ;;
    baseline) echo "http://127.0.0.1:$bport$3" ;;
  esac
}

to_ms() {  # "6.50ms" / "812.00us" / "1.02s" -> milliseconds
  awk -v v="$1" 'BEGIN {
    if (v ~ /us$/) { sub(/us$/, "", v); printf "%.3f", v / 1000 }
    else if (v ~ /ms$/) { sub(/ms$/, "", v); printf "%.3f", v }
    else if (v ~ /m$/) { sub(/m$/, "", v); printf "%.3f", v * 60000 }
    else if (v ~ /s$/) { sub(/s$/, "", v); printf "%.3f", v * 1000 }
    else { printf "nan" } }'
}

bench_json() {  # bench_json FILE KEY: a number from the BENCH line of wrk's done()
  sed -n 's/^BENCH //p' "$1" | tr -d '{}' | tr ',' '\n' | awk -F: -v k="\"$2\"" '$1 == k { print $2 }'
}

wrk_header=""  # a request header of the target being measured (Accept-Encoding), or ""
run_wrk() {  # run_wrk DURATION OUTFILE SCRIPT URL [ARGS...]
  local d=$1 file=$2 script=$3 url=$4
  shift 4
  local extra=() header=()
  [[ $# -gt 0 ]] && extra=(-- "$@")
  [[ -n "$wrk_header" ]] && header=(-H "$wrk_header")
  wrk -t"$wrk_threads" -c"$connections" -d"$d" --latency "${header[@]}" -s "$here/$script" "$url" "${extra[@]}" \
    >"$file" 2>&1 &
  wrk_pid=$!
  wait "$wrk_pid" || { log "wrk failed:"; cat "$file" >&2; exit 1; }
  wrk_pid=""
}

load1() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0; }
# Client and server share this box: anything else running skews both sides (the ratio
# less than the absolute numbers). Say so rather than refuse.
load_before=$(load1)
if awk -v l="$load_before" -v n="$(nproc)" 'BEGIN { exit !(l > 0.25 * n) }'; then
  log "warning: load average is $load_before on $(nproc) CPUs before the run; other work will skew the numbers"
fi

results="$tmp/results.tsv"
: >"$results"
machine_cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
git_rev=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$repo" diff --quiet HEAD 2>/dev/null || git_rev="$git_rev+dirty"
stamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)
if [[ -n "$out" ]]; then
  printf '{"type":"meta","time":"%s","git":"%s","nproc":%d,"cpu":"%s","kernel":"%s","debian":"%s","nginx":"%s","wrk":"%s","poco":"%s","wrk_threads":%d,"connections":%d,"duration":"%s","http_threads":%d,"list_body_bytes":%d,"item_body_bytes":%d,"load1_before":%s,"daemon_binary":"%s","daemon_built":"%s","baseline_binary":"%s","history_points":%d}\n' \
    "$stamp" "$git_rev" "$(nproc)" "$machine_cpu" "$(uname -r)" "$(cat /etc/debian_version 2>/dev/null || echo unknown)" \
    "$(nginx -v 2>&1 | sed 's/^nginx version: //')" "$(wrk -v 2>&1 | awk 'NR==1 { print $2 }')" \
    "$(dpkg-query -W -f='${Version}' libpoco-dev 2>/dev/null || echo unknown)" \
    "$wrk_threads" "$connections" "$duration" "$http_threads" "$list_body" "$item_body" "$load_before" "${daemon_bin#"$repo"/}" \
    "$(date -u -r "$daemon_bin" +%Y-%m-%dT%H:%M:%SZ)" "$baseline_bin" "$history_points" >>"$out"
fi

measure() {  # measure RUN TARGET SERVER URL SCRIPT ARGS
  local run=$1 target=$2 server=$3 url=$4 script=$5 args=$6
  local file="$tmp/wrk-$target-$server-$run.txt"
  # shellcheck disable=SC2086  # ARGS is a space-separated list on purpose
  run_wrk "$duration" "$file" "$script" "$url" $args
  local rps p99 p50 requests bytes dur errs non2xx
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$file")
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$file")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$file")")
  requests=$(bench_json "$file" requests)
  bytes=$(bench_json "$file" bytes)
  dur=$(bench_json "$file" duration_us)
  errs=$(( $(bench_json "$file" err_connect) + $(bench_json "$file" err_read) +
           $(bench_json "$file" err_write) + $(bench_json "$file" err_timeout) ))
  non2xx=$(bench_json "$file" err_status)
  local bpr
  bpr=$(awk -v b="$bytes" -v r="$requests" 'BEGIN { printf "%.0f", (r > 0 ? b / r : 0) }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$server" "$run" "$rps" "$p99" "$p50" \
    "$errs" "$non2xx" >>"$results"
  log "$(printf 'run %d %-14s %-6s %10s req/s  p50 %7s ms  p99 %7s ms  %5s B/resp  errors %s  non-2xx %s' \
    "$run" "$target" "$server" "$rps" "$p50" "$p99" "$bpr" "$errs" "$non2xx")"
  if [[ -n "$out" ]]; then
    printf '{"type":"result","time":"%s","git":"%s","run":%d,"target":"%s","server":"%s","url":"%s","script_args":"%s","wrk_threads":%d,"connections":%d,"duration_us":%s,"requests":%s,"rps":%s,"p50_ms":%s,"p99_ms":%s,"p99_us_exact":%s,"bytes_per_response":%s,"socket_errors":%s,"non_2xx":%s,"http_threads":%d,"load1_after":%s}\n' \
      "$stamp" "$git_rev" "$run" "$target" "$server" "$url" "$args" "$wrk_threads" "$connections" \
      "$dur" "$requests" "$rps" "$p50" "$p99" "$(bench_json "$file" p99_us)" "$bpr" "$errs" "$non2xx" \
      "$http_threads" "$(load1)" >>"$out"
  fi
}

# --- warm-up ------------------------------------------------------------------------
log "warm-up: $warmup per target and server"
for t in "${targets[@]}"; do
  IFS='|' read -r name _ nurl dpath script args wrk_header <<<"$t"
  for server in "${servers[@]}"; do
    # shellcheck disable=SC2086
    run_wrk "$warmup" "$tmp/warmup-$name-$server.txt" "$script" "$(server_url "$server" "$nurl" "$dpath")" $args
  done
done

# --- measured runs, interleaved -----------------------------------------------------
log "measuring: $runs run(s) x ${#targets[@]} targets x ${#servers[@]} servers, wrk -t$wrk_threads -c$connections -d$duration --latency"
for ((run = 1; run <= runs; run++)); do
  for t in "${targets[@]}"; do
    IFS='|' read -r name _ nurl dpath script args wrk_header <<<"$t"
    # Rotate who goes first so slow drift (thermal, neighbours) hits every server alike.
    n=${#servers[@]}
    for ((k = 0; k < n; k++)); do
      server=${servers[$(((k + run - 1) % n))]}
      measure "$run" "$name" "$server" "$(server_url "$server" "$nurl" "$dpath")" "$script" "$args"
    done
  done
done

# --- table of medians ---------------------------------------------------------------
median() {  # median TARGET SERVER COLUMN
  awk -F'\t' -v t="$1" -v s="$2" -v c="$3" '$1 == t && $2 == s { print $c }' "$results" |
    sort -g | awk '{ v[NR] = $1 } END {
      if (NR == 0) { print "nan"; exit }
      if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
total() {  # total TARGET SERVER COLUMN
  awk -F'\t' -v t="$1" -v s="$2" -v c="$3" '$1 == t && $2 == s { n += $c } END { print n + 0 }' "$results"
}
ratio() { awk -v d="$1" -v n="$2" 'BEGIN { printf "%.2f%%", (n > 0 ? d / n * 100 : 0) }'; }

echo
echo "skinpulsed vs nginx, median of $runs run(s); wrk -t$wrk_threads -c$connections -d$duration; $(nproc) CPUs; daemon [http] threads = $http_threads"
[[ -n "$bport" ]] && echo "baseline: $baseline_bin"
echo "target: daemon req/s >= 50% of nginx and daemon p99 < 10 ms"
if [[ -n "$bport" ]]; then
  printf '%-44s %11s %9s %11s %9s %7s %11s %9s %7s  %s\n' "endpoint" "nginx req/s" "nginx p99" \
    "base req/s" "base p99" "base %" "daemon req/s" "daemon p99" "ratio" "verdict"
else
  printf '%-44s %11s %9s %12s %10s %7s  %s\n' "endpoint" "nginx req/s" "nginx p99" "daemon req/s" "daemon p99" "ratio" "verdict"
fi
for t in "${targets[@]}"; do
  IFS='|' read -r name desc _ _ _ _ _ <<<"$t"
  n_rps=$(median "$name" nginx 4)
  n_p99=$(median "$name" nginx 5)
  d_rps=$(median "$name" daemon 4)
  d_p99=$(median "$name" daemon 5)
  errors=0
  for server in "${servers[@]}"; do
    errors=$((errors + $(total "$name" "$server" 7) + $(total "$name" "$server" 8)))
  done
  read -r dratio verdict < <(awk -v d="$d_rps" -v nr="$n_rps" -v p="$d_p99" 'BEGIN {
    r = (nr > 0 ? d / nr : 0)
    v = (r >= 0.5 && p < 10) ? "met" : "MISSED"
    if (r < 0.5) v = v "(req/s)"
    if (p >= 10) v = v "(p99)"
    printf "%.2f%% %s\n", r * 100, v }')
  [[ $errors -gt 0 ]] && verdict="$verdict, $errors socket errors/non-2xx!"
  if [[ -n "$bport" ]]; then
    b_rps=$(median "$name" baseline 4)
    b_p99=$(median "$name" baseline 5)
    printf '%-44s %11s %6s ms %11s %6s ms %7s %11s %7s ms %7s  %s\n' "$desc" "$n_rps" "$n_p99" \
      "$b_rps" "$b_p99" "$(ratio "$b_rps" "$n_rps")" "$d_rps" "$d_p99" "$dratio" "$verdict"
  else
    printf '%-44s %11s %8s ms %12s %8s ms %7s  %s\n' "$desc" "$n_rps" "$n_p99" "$d_rps" "$d_p99" "$dratio" "$verdict"
  fi
done
echo "load average (1 min): $load_before before, $(load1) after (the daemon's busy pool threads alone raise it well above nproc)"
if [[ -n "$out" ]]; then echo "raw results appended to $out"; fi
exit 0
