#!/usr/bin/env bash
# bench/portfolio/run.sh: an inventory import of ASSETS assets (pages of PAGE_SIZE) from a
# local fake platform, and GET /api/v1/portfolio for HOLDINGS holdings, through the
# daemon's own classes on a temp SQLite database. See bench/README.md, "portfolio/run.sh".
#
#   bench/portfolio/run.sh [--build DIR] [--passes N] [--runs N] [--assets N] [--holdings N]
#                          [--out FILE.jsonl]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
passes=3
runs=7
assets=5000
holdings=1000
out=""

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --passes) passes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --assets) assets=$2; shift 2 ;;
    --holdings) holdings=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n 2,8p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

bin="$build/bin/bench_portfolio"
if [[ ! -x "$bin" ]]; then
  echo "run.sh: $bin not found; build it first:" >&2
  echo "  cmake -S $root -B $build -DCMAKE_BUILD_TYPE=Release" >&2
  echo "  cmake --build $build -j2 --target bench_portfolio" >&2
  exit 1
fi

load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
  echo "run.sh: warning: load average $load; run on an otherwise idle box" >&2
fi

# Each pass is a fresh process and database; the program reports medians of its runs.
for ((pass = 1; pass <= passes; ++pass)); do
  args=(--share "$root/share" --assets "$assets" --holdings "$holdings" --runs "$runs")
  [[ -n "$out" ]] && args+=(--json "$out")
  "$bin" "${args[@]}" 2>/dev/null
done
