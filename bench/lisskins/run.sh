#!/usr/bin/env bash
# bench/lisskins/run.sh: the lisskins plugin's streaming parse of a generated export,
# RUNS times per document and parser (one process per run): medians of the wall and CPU
# time (the CPU time moves far less with the load of a shared box), MB/s and peak RSS;
# then three exports that each hold one value of several MiB. Our StreamJsonParser and,
# when bench_lisskins was built with libyajl-dev, yajl run alternately (ours, yajl, yajl,
# ours, ...) so the box's load hits both alike. See bench/README.md, "lisskins/run.sh".
#
#   bench/lisskins/run.sh [--build DIR] [--runs N] [--piece BYTES] [--dir DIR]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
runs=5
piece=65536
dir=$(mktemp -d)
keep_dir=""

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --piece) piece=$2; shift 2 ;;
    --dir) rmdir "$dir"; dir=$2; keep_dir=1; shift 2 ;;
    -h|--help) sed -n 2,10p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -n "$keep_dir" ]] || trap 'rm -rf "$dir"' EXIT

bin="$build/bin/bench_lisskins"
[[ -x "$bin" ]] || { echo "run.sh: build bench_lisskins first ($bin)" >&2; exit 1; }

read -r -a parsers <<<"$("$bin" parsers)"

report() {
  python3 -c '
import json, statistics, sys
rows = [json.loads(line) for line in sys.stdin]
for parser in dict.fromkeys(r["parser"] for r in rows):
    mine = [r for r in rows if r["parser"] == parser]
    def med(key):
        return statistics.median(r[key] for r in mine)
    r = mine[0]
    print("%-4s listings %9d  items %6d  document %7.1f MB  wall %6.2f s %6.1f MB/s  "
          "CPU %6.2f s %6.1f MB/s  peak RSS %5.1f MiB (before the parse %4.1f MiB)  runs %d  "
          "all ok %s  CPU s %s" % (
              parser, r["listings"], r["items"], r["bytes"] / 1e6, med("seconds"),
              med("mb_per_s"), med("cpu_seconds"), med("cpu_mb_per_s"),
              med("vmhwm_after_kb") / 1024, med("vmhwm_before_kb") / 1024, len(mine),
              all(x["ok"] for x in mine), sorted(x["cpu_seconds"] for x in mine)))
'
}

# RUNS parses of FILE per parser, alternating the order, through report().
measure() {
  local file=$1 n=$2
  for ((i = 0; i < n; i++)); do
    if ((i % 2 == 0)); then order=("${parsers[@]}"); else order=($(printf '%s\n' "${parsers[@]}" | tac)); fi
    for p in "${order[@]}"; do "$bin" parse "$file" "$piece" "$p"; done
  done | report
}

# 2.3 M listings of the full shape (116 B each), and 1.49 M listings, the real file's 173 MB.
for spec in "2300000" "1490000"; do
  file="$dir/export-$spec.json"
  [[ -f "$file" ]] || "$bin" generate "$file" "$spec"
  echo "export of $spec listings, pieces of $piece bytes:"
  measure "$file" "$runs"
done

# One hostile value spanning many pieces (ADR 0013, "Why our own parser"): 3 runs each.
for spec in "string 4" "string 16" "number 4"; do
  read -r kind mib <<<"$spec"
  file="$dir/long-$kind-$mib.json"
  [[ -f "$file" ]] || "$bin" long "$file" "$kind" "$mib"
  echo "one $mib MiB $kind in an export, pieces of $piece bytes:"
  measure "$file" 3
done
