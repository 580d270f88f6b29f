#!/usr/bin/env bash
# bench/sources/run.sh: the list plugins' parse path on generated 30,000-item feeds of every
# shape, beside a raw simdjson parse and a Poco::JSON parse of the same bytes
# (bench/README.md, "sources/run.sh"; docs/adr/0012-fast-feed-parsing.md).
#   BUILD=build bench/sources/run.sh [--items N] [--runs N]   (arguments go to bench_sources)
# Needs a built tree with benches (SKINPULSE_BUILD_BENCH, the default): bench_sources.
set -euo pipefail
build=${BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bin/bench_sources" "$@"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
