#!/usr/bin/env bash
# HTTP throughput/latency of skinpulsed against nginx serving the same bodies, same box,
# same run. Prints the median of RUNS per target and the daemon/nginx req/s ratio.
#
#   bench/http/run.sh [--build DIR] [--runs N] [--out FILE] [options]
#
# Builds nothing and installs nothing: it needs an already built skinpulsed and the
# tools wrk, nginx and curl (Debian: apt-get install wrk nginx-light curl).
# See bench/README.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

build="$here/../../build"
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

usage() {
  cat <<EOF
usage: $0 [options]
  --build DIR         build tree holding bin/skinpulsed (default: $build)
  --runs N            measured runs per target, interleaved daemon/nginx (default: $runs)
  --out FILE          also append every measurement as a JSON line to FILE
  --duration D        wrk -d per measurement (default: $duration)
  --warmup D          wrk -d of the one warm-up per target and server (default: $warmup)
  --connections N     wrk -c (default: $connections)
  --wrk-threads N     wrk -t (default: $wrk_threads)
  --http-threads N    daemon [http] threads (default: $http_threads)
  --item-id N         id for the fixed single-item target (default: $item_id)
  --ids LO-HI         id range for the rotating single-item target (default: $id_lo-$id_hi)
  --keep              keep the temp dir (logs, configs, raw wrk output)
EOF
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
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
for tool in wrk nginx curl awk; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "missing: ${missing[*]}. Install them with: apt-get install wrk nginx-light curl" >&2
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
if [[ -n "$out" ]]; then
  mkdir -p "$(dirname "$out")"
  out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
fi

# --- temp dir and cleanup -----------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skinpulse-bench.XXXXXX")
chmod 755 "$tmp"  # nginx workers run as an unprivileged user when started as root
daemon_pid=""
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

# --- daemon -------------------------------------------------------------------------
# Access logging is off: one stderr line per request would measure the terminal/pipe,
# not the server (nginx's access_log is off too).
cat >"$tmp/skinpulsed.ini" <<EOF
[http]
threads = $http_threads

[log]
access = false
level = warn
EOF

log "starting skinpulsed on 127.0.0.1:$dport (first start seeds the catalogue)"
# A clean environment so settings in the caller's shell (SKINPULSE_*, REDIS_URL, ...)
# cannot change what is measured.
env -i PATH="$PATH" HOME="${HOME:-/tmp}" ${LD_LIBRARY_PATH:+LD_LIBRARY_PATH="$LD_LIBRARY_PATH"} \
  SESSION_SECRET="bench-session-secret-not-a-secret-0123456789" \
  LISTEN="127.0.0.1:$dport" BASE_URL="http://127.0.0.1:$dport" \
  DATABASE_URL="sqlite://$tmp/bench.db" \
  "$daemon_bin" --config "$tmp/skinpulsed.ini" >"$tmp/skinpulsed.log" 2>&1 &
daemon_pid=$!
started=$SECONDS
wait_http "http://127.0.0.1:$dport/healthz" "$daemon_pid" skinpulsed "$ready_timeout"
log "skinpulsed ready after $((SECONDS - started))s"

# --- bodies -------------------------------------------------------------------------
www="$tmp/www"
mkdir -p "$www"
list_path="/api/v1/items?limit=50"
item_path="/api/v1/items/$item_id"
curl -fsS -D "$tmp/items.headers" -o "$www/items.json" "http://127.0.0.1:$dport$list_path"
curl -fsS -D "$tmp/item.headers" -o "$www/item.json" "http://127.0.0.1:$dport$item_path"
for id in "$id_lo" "$id_hi"; do
  curl -fsS -o /dev/null "http://127.0.0.1:$dport/api/v1/items/$id" ||
    { log "id $id of the rotating range does not answer 200; use --ids"; exit 1; }
done
chmod 755 "$www"
chmod 644 "$www"/*.json

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
    location = /items.json {}
    location = /item.json {}
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
for check in "/items.json items.json" "/item.json item.json" "/api/v1/items/$item_id item.json"; do
  read -r path file <<<"$check"
  curl -fsS -o "$tmp/check.body" "http://127.0.0.1:$nport$path"
  cmp -s "$tmp/check.body" "$www/$file" || { log "nginx $path differs from the daemon's body"; exit 1; }
done
curl -fsS -o "$tmp/check.body" "http://127.0.0.1:$dport$list_path"
cmp -s "$tmp/check.body" "$www/items.json" || log "warning: the daemon's list body changed between two fetches"

header_bytes() { curl -fsS -o /dev/null -D - "$1" | wc -c; }
list_body=$(wc -c <"$www/items.json")
item_body=$(wc -c <"$www/item.json")
log "bodies: list $list_body B, item $item_body B"
log "response headers: daemon list $(header_bytes "http://127.0.0.1:$dport$list_path") B," \
  "daemon item $(header_bytes "http://127.0.0.1:$dport$item_path") B," \
  "nginx $(header_bytes "http://127.0.0.1:$nport/item.json") B"

# --- targets ------------------------------------------------------------------------
# name | description | nginx URL | daemon URL | wrk script args (after --)
targets=(
  "list|GET /api/v1/items?limit=50|http://127.0.0.1:$nport/items.json|http://127.0.0.1:$dport$list_path|stats.lua|"
  "item|GET /api/v1/items/$item_id|http://127.0.0.1:$nport/item.json|http://127.0.0.1:$dport$item_path|stats.lua|"
  "item-rotating|GET /api/v1/items/{$id_lo..$id_hi}|http://127.0.0.1:$nport|http://127.0.0.1:$dport|rotate-ids.lua|/api/v1/items/ $id_lo $id_hi"
)

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

run_wrk() {  # run_wrk DURATION OUTFILE SCRIPT URL [ARGS...]
  local d=$1 file=$2 script=$3 url=$4
  shift 4
  local extra=()
  [[ $# -gt 0 ]] && extra=(-- "$@")
  wrk -t"$wrk_threads" -c"$connections" -d"$d" --latency -s "$here/$script" "$url" "${extra[@]}" \
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
  printf '{"type":"meta","time":"%s","git":"%s","nproc":%d,"cpu":"%s","kernel":"%s","debian":"%s","nginx":"%s","wrk":"%s","poco":"%s","wrk_threads":%d,"connections":%d,"duration":"%s","http_threads":%d,"list_body_bytes":%d,"item_body_bytes":%d,"load1_before":%s,"daemon_binary":"%s","daemon_built":"%s"}\n' \
    "$stamp" "$git_rev" "$(nproc)" "$machine_cpu" "$(uname -r)" "$(cat /etc/debian_version 2>/dev/null || echo unknown)" \
    "$(nginx -v 2>&1 | sed 's/^nginx version: //')" "$(wrk -v 2>&1 | awk 'NR==1 { print $2 }')" \
    "$(dpkg-query -W -f='${Version}' libpoco-dev 2>/dev/null || echo unknown)" \
    "$wrk_threads" "$connections" "$duration" "$http_threads" "$list_body" "$item_body" "$load_before" "${daemon_bin#"$repo"/}" \
    "$(date -u -r "$daemon_bin" +%Y-%m-%dT%H:%M:%SZ)" >>"$out"
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
  IFS='|' read -r name _ nurl durl script args <<<"$t"
  # shellcheck disable=SC2086
  run_wrk "$warmup" "$tmp/warmup-$name-nginx.txt" "$script" "$nurl" $args
  # shellcheck disable=SC2086
  run_wrk "$warmup" "$tmp/warmup-$name-daemon.txt" "$script" "$durl" $args
done

# --- measured runs, interleaved -----------------------------------------------------
log "measuring: $runs run(s) x ${#targets[@]} targets x 2 servers, wrk -t$wrk_threads -c$connections -d$duration --latency"
for ((run = 1; run <= runs; run++)); do
  for t in "${targets[@]}"; do
    IFS='|' read -r name _ nurl durl script args <<<"$t"
    # Alternate who goes first so slow drift (thermal, neighbours) hits both equally.
    if ((run % 2 == 1)); then
      measure "$run" "$name" nginx "$nurl" "$script" "$args"
      measure "$run" "$name" daemon "$durl" "$script" "$args"
    else
      measure "$run" "$name" daemon "$durl" "$script" "$args"
      measure "$run" "$name" nginx "$nurl" "$script" "$args"
    fi
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

echo
echo "skinpulsed vs nginx, median of $runs run(s); wrk -t$wrk_threads -c$connections -d$duration; $(nproc) CPUs; daemon [http] threads = $http_threads"
echo "target: daemon req/s >= 50% of nginx and daemon p99 < 10 ms"
printf '%-34s %12s %10s %12s %10s %7s  %s\n' "endpoint" "nginx req/s" "nginx p99" "daemon req/s" "daemon p99" "ratio" "verdict"
for t in "${targets[@]}"; do
  IFS='|' read -r name desc _ _ _ _ <<<"$t"
  n_rps=$(median "$name" nginx 4)
  n_p99=$(median "$name" nginx 5)
  d_rps=$(median "$name" daemon 4)
  d_p99=$(median "$name" daemon 5)
  errors=$(( $(total "$name" daemon 7) + $(total "$name" daemon 8) + $(total "$name" nginx 7) + $(total "$name" nginx 8) ))
  read -r ratio verdict < <(awk -v d="$d_rps" -v nr="$n_rps" -v p="$d_p99" 'BEGIN {
    r = (nr > 0 ? d / nr : 0)
    v = (r >= 0.5 && p < 10) ? "met" : "MISSED"
    if (r < 0.5) v = v "(req/s)"
    if (p >= 10) v = v "(p99)"
    printf "%.2f%% %s\n", r * 100, v }')
  [[ $errors -gt 0 ]] && verdict="$verdict, $errors socket errors/non-2xx!"
  printf '%-34s %12s %8s ms %12s %8s ms %7s  %s\n' "$desc" "$n_rps" "$n_p99" "$d_rps" "$d_p99" "$ratio" "$verdict"
done
echo "load average (1 min): $load_before before, $(load1) after (the daemon's busy pool threads alone raise it well above nproc)"
if [[ -n "$out" ]]; then echo "raw results appended to $out"; fi
exit 0
