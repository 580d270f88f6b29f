#!/usr/bin/env bash
# bench/snapshots/run.sh: the hourly pass of portfolio value snapshots for USERS users ×
# HOLDINGS holdings beside a raw SQL reference, through the daemon's own classes on a temp
# SQLite database. See bench/README.md, "snapshots/run.sh".
#
#   bench/snapshots/run.sh [--build DIR] [--passes N] [--runs N] [--users N] [--holdings N]
#                          [--out FILE.jsonl]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
passes=3
runs=5
users=10000
holdings=200
out=""

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --passes) passes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --users) users=$2; shift 2 ;;
    --holdings) holdings=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n 2,8p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

bin="$build/bin/bench_snapshots"
if [[ ! -x "$bin" ]]; then
  echo "run.sh: $bin not found; build it first:" >&2
  echo "  cmake -S $root -B $build -DCMAKE_BUILD_TYPE=Release" >&2
  echo "  cmake --build $build -j2 --target bench_snapshots" >&2
  exit 1
fi

# Each pass is a fresh process and database; the program reports medians of its runs,
# and the load average before it started.
for ((pass = 1; pass <= passes; ++pass)); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  args=(--share "$root/share" --users "$users" --holdings "$holdings" --runs "$runs")
  [[ -n "$out" ]] && args+=(--json "$out")
  line=$("$bin" "${args[@]}" 2>/dev/null)
  echo "${line%\}},\"load_before\":$load}"
done
