#!/usr/bin/env bash
# bench/scale/run.sh: bench_scale on SQLite (files in $TMPDIR) and, when
# SKINPULSE_BENCH_POSTGRES_URL is set, on PostgreSQL (two fresh schemas in that database,
# dropped afterwards). See bench/scale/README.md.
#
#   bench/scale/run.sh [--build DIR] [--quick] [--sqlite-points N] [--postgres-points N]
#                      [--reads N] [--out FILE.jsonl] [--keep]
#   bench/scale/run.sh --smoke [--build DIR]   # the CTest: 60,000 points, PostgreSQL
#                                              # only when SKINPULSE_TEST_POSTGRES_URL is set
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
sqlite_points=""
postgres_points=""
reads=""
out=""
quick=0
smoke=0
keep=0

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --smoke) smoke=1; shift ;;
    --sqlite-points) sqlite_points=$2; shift 2 ;;
    --postgres-points) postgres_points=$2; shift 2 ;;
    --reads) reads=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

bin="$build/bin/bench_scale"
if [[ ! -x "$bin" ]]; then
  echo "run.sh: $bin not found; build it first:" >&2
  echo "  cmake --build $build -j2 --target bench_scale" >&2
  exit 1
fi

postgres_url=${SKINPULSE_BENCH_POSTGRES_URL:-}
common=(--share "$root/share")
if [[ $smoke == 1 ]]; then
  # Small enough for CI (~10 s a backend on an idle 2-CPU box); every check still runs:
  # all points stored, history counts, rollup samples, what retention leaves.
  sqlite_points=${sqlite_points:-60000}
  postgres_points=${postgres_points:-60000}
  common+=(--reads 20)
  postgres_url=${SKINPULSE_TEST_POSTGRES_URL:-}
else
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
    echo "run.sh: warning: load average $load; run on an otherwise idle box" >&2
  fi
fi
[[ $quick == 1 ]] && common+=(--quick)
[[ -n "$reads" ]] && common+=(--reads "$reads")
[[ $keep == 1 ]] && common+=(--keep)

if [[ -n "$out" ]]; then
  mkdir -p "$(dirname "$out")"
  common+=(--json "$out")
  printf '{"bench":"scale","meta":true,"time":"%s","host":"%s","nproc":%s,"mem_kib":%s,"cpu":"%s","kernel":"%s","sqlite":"%s","postgres":"%s","git_head":"%s","load":"%s"}\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(hostname)" "$(nproc)" \
    "$(awk '/MemTotal/ {print $2}' /proc/meminfo)" \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(uname -r)" \
    "$(dpkg-query -W -f='${Version}' libsqlite3-0 2>/dev/null || echo '?')" \
    "$(dpkg-query -W -f='${Version}' postgresql-15 2>/dev/null || echo '?')" \
    "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "$(cut -d' ' -f1 /proc/loadavg)" >>"$out"
fi

sqlite_args=()
[[ -n "$sqlite_points" ]] && sqlite_args=(--points "$sqlite_points")
echo "== SQLite (files in ${TMPDIR:-/tmp})" >&2
"$bin" --database sqlite "${common[@]}" "${sqlite_args[@]}"

if [[ -n "$postgres_url" ]]; then
  postgres_args=()
  [[ -n "$postgres_points" ]] && postgres_args=(--points "$postgres_points")
  echo "== PostgreSQL (two fresh schemas)" >&2
  "$bin" --database "$postgres_url" "${common[@]}" "${postgres_args[@]}"
else
  echo "run.sh: no PostgreSQL URL (SKINPULSE_BENCH_POSTGRES_URL; --smoke: SKINPULSE_TEST_POSTGRES_URL), PostgreSQL skipped" >&2
fi
