#!/usr/bin/env bash
# bench/ingest/run.sh: the ingest cycle and the history query against a raw bulk insert
# of the same rows, on SQLite (a temp file) and, when SKINPULSE_BENCH_POSTGRES_URL is
# set, on PostgreSQL (a fresh schema in that database, dropped afterwards).
# See bench/README.md, "ingest/run.sh".
#
#   bench/ingest/run.sh [--build DIR] [--runs N] [--items N] [--sources N] [--out FILE.jsonl]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
runs=5
items=25000
sources=4
out=""

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --items) items=$2; shift 2 ;;
    --sources) sources=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n 2,7p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

bin="$build/bin/bench_ingest"
if [[ ! -x "$bin" ]]; then
  echo "run.sh: $bin not found; build it first:" >&2
  echo "  cmake -S $root -B $build -DCMAKE_BUILD_TYPE=Release -DSKINPULSE_BUILD_TESTS=OFF" >&2
  echo "  cmake --build $build -j2 --target bench_ingest" >&2
  exit 1
fi

load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
  echo "run.sh: warning: load average $load; run on an otherwise idle box" >&2
fi

json_args=()
if [[ -n "$out" ]]; then
  mkdir -p "$(dirname "$out")"
  json_args=(--json "$out")
  printf '{"bench":"ingest","meta":true,"time":"%s","host":"%s","nproc":%s,"cpu":"%s","kernel":"%s","sqlite":"%s","postgres":"%s","git_head":"%s","binary":"%s","load":"%s"}\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(hostname)" "$(nproc)" \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(uname -r)" \
    "$(dpkg-query -W -f='${Version}' libsqlite3-0 2>/dev/null || echo '?')" \
    "$(dpkg-query -W -f='${Version}' postgresql-15 2>/dev/null || echo '?')" \
    "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" "$bin" "$load" >>"$out"
fi

common=(--share "$root/share" --items "$items" --sources "$sources" --runs "$runs" "${json_args[@]}")

echo "== SQLite (temp file)" >&2
"$bin" --database sqlite "${common[@]}"

if [[ -n "${SKINPULSE_BENCH_POSTGRES_URL:-}" ]]; then
  echo "== PostgreSQL (fresh schema in \$SKINPULSE_BENCH_POSTGRES_URL)" >&2
  "$bin" --database "$SKINPULSE_BENCH_POSTGRES_URL" "${common[@]}"
else
  echo "run.sh: SKINPULSE_BENCH_POSTGRES_URL not set, PostgreSQL skipped" >&2
fi
