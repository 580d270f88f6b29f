#!/bin/sh
# bench/telemetry/run.sh [BUILD_DIR] [RUNS]: a full /metrics scrape rendered by
# daemon/telemetry beside two references in the same run — a naive std::ostringstream
# rendering of the same samples (in bench_telemetry) and python3-prometheus-client's
# generate_latest() over the same families (reference.py). Prints one JSON line per run
# and the load average; bench/README.md, "telemetry".
set -eu
build=${1:-build}
runs=${2:-5}
here=$(dirname "$0")
echo "load: $(cat /proc/loadavg)"
i=0
while [ "$i" -lt "$runs" ]; do
  "$build/bin/bench_telemetry" 2000
  /usr/bin/python3 "$here/reference.py" 200
  i=$((i + 1))
done
echo "load: $(cat /proc/loadavg)"
