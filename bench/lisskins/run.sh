#!/usr/bin/env bash
# bench/lisskins/run.sh: the lisskins plugin's streaming parse of a generated export,
# RUNS times per document (one process per run), median of seconds, MB/s and peak RSS.
# See bench/README.md, "lisskins/run.sh".
#
#   bench/lisskins/run.sh [--build DIR] [--runs N] [--dir DIR]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
runs=5
dir=$(mktemp -d)
keep_dir=""

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --dir) rmdir "$dir"; dir=$2; keep_dir=1; shift 2 ;;
    -h|--help) sed -n 2,7p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -n "$keep_dir" ]] || trap 'rm -rf "$dir"' EXIT

bin="$build/bin/bench_lisskins"
[[ -x "$bin" ]] || { echo "run.sh: build bench_lisskins first ($bin)" >&2; exit 1; }

# 2.3 M listings of the full shape (116 B each), and 1.49 M listings, the real file's 173 MB.
for spec in "2300000" "1490000"; do
  file="$dir/export-$spec.json"
  [[ -f "$file" ]] || "$bin" generate "$file" "$spec"
  for ((i = 0; i < runs; i++)); do "$bin" parse "$file"; done | python3 -c '
import json, statistics, sys
rows = [json.loads(line) for line in sys.stdin]
def med(key):
    return statistics.median(r[key] for r in rows)
r = rows[0]
print("listings %9d  items %6d  document %7.1f MB  parse %6.2f s  %6.1f MB/s  "
      "peak RSS %5.1f MiB (before the parse %4.1f MiB)  runs %d  all ok %s" % (
          r["listings"], r["items"], r["bytes"] / 1e6, med("seconds"), med("mb_per_s"),
          med("vmhwm_after_kb") / 1024, med("vmhwm_before_kb") / 1024, len(rows),
          all(x["ok"] for x in rows)))
'
done
