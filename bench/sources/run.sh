#!/usr/bin/env bash
# bench/sources/run.sh: the list plugins' parse path on generated 30,000-item feeds of every
# shape, beside a raw simdjson parse and a Poco::JSON parse of the same bytes
# (bench/README.md, "sources/run.sh"; docs/adr/0012-fast-feed-parsing.md).
#   bench/sources/run.sh [--build DIR] [--items N] [--runs N]
# Needs a built tree with benches (SKINPULSE_BUILD_BENCH, the default): bench_sources.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build="$here/../../build"
items=30000
runs=11
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --items) items=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n 2,6p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bin/bench_sources" --items "$items" --runs "$runs"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
