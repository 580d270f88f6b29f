#!/usr/bin/env bash
# bench/quality/run.sh: what freshness, outliers, consensus and spreads add to a cycle of
# 25,000 items from six sources (bench/README.md, "quality/run.sh").
#
#   bench/quality/run.sh [--build DIR] [--runs N] [--items N] [--sources N] [--out FILE.jsonl]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
args=()
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --runs|--items|--sources) args+=("$1" "$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n 2,5p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

bin="$build/bin/bench_quality"
if [[ ! -x "$bin" ]]; then
  echo "run.sh: $bin not found; build it first: cmake --build $build -j2 --target bench_quality" >&2
  exit 1
fi
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
  echo "run.sh: warning: load average $load; run on an otherwise idle box (CPU ms hold up better than wall ms)" >&2
fi
if [[ -n "$out" ]]; then
  mkdir -p "$(dirname "$out")"
  printf '{"bench":"quality","meta":true,"time":"%s","host":"%s","nproc":%s,"cpu":"%s","git_head":"%s","load":"%s"}\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(hostname)" "$(nproc)" \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
    "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" "$load" >>"$out"
  args+=(--json "$out")
fi
"$bin" --share "$root/share" "${args[@]}" 2> >(grep -v ' info ' >&2)
