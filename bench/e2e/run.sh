#!/usr/bin/env bash
# bench/e2e/run.sh: end-to-end latency of a poll, from the moment a (fake, local) market
# finished sending a 25,000-item Skinport answer (~8.6 MB) to the moment each WebSocket
# client holds its prices frame, through the real skinpulsed (SQLite, in-process bus), with
# the daemon's stage breakdown of the same cycles (debug log). See bench/README.md,
# "e2e/run.sh".
#
#   bench/e2e/run.sh [--build DIR] [--clients 10000] [--ids 10] [--items 25000]
#                    [--cycles 5] [--interval 3] [--no-reference] [--keep]
# Afterwards, in the same run (skip with --no-reference): the raw parse of the same answer
# body (simdjson on-demand) and the raw insert of the same rows into a copy of the
# daemon's database (bench_e2e_reference), then bench/ws/run.sh with the same clients and
# ids (publish → frame of the live-update stack alone), and the ratios of the daemon's
# figures to those references.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
clients=10000
ids=10
items=25000
cycles=5
interval=3
reference=1
keep=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --ids) ids=$2; shift 2 ;;
    --items) items=$2; shift 2 ;;
    --cycles) cycles=$2; shift 2 ;;
    --interval) interval=$2; shift 2 ;;
    --reference) reference=1; shift ;;  # the default; kept for old command lines
    --no-reference) reference=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bins=(skinpulsed bench_ws_client)
(( reference )) && bins+=(bench_ws_server bench_e2e_reference)
for bin in "${bins[@]}"; do
  if [[ ! -x "$build/bin/$bin" ]]; then
    echo "run.sh: $build/bin/$bin not found; build it first:" >&2
    echo "  cmake --build $build -j2 --target skinpulsed plugin_source_skinport bench_ws_client bench_ws_server bench_e2e_reference" >&2
    exit 1
  fi
done
if (( $(ulimit -Hn) < clients + 64 )); then
  echo "run.sh: hard open-file limit $(ulimit -Hn) < $clients clients" >&2
  exit 1
fi

work=$(mktemp -d)
market_pid=
daemon_pid=
cleanup() {
  [[ -n "$daemon_pid" ]] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  [[ -n "$market_pid" ]] && kill "$market_pid" 2>/dev/null
  if (( keep )); then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

python3 "$here/fake_market.py" --catalog "$root/share/catalog/items.jsonl" --items "$items" \
  --log "$work/publish.log" --ready-file "$work/ready" --cycles "$cycles" \
  --body-file "$work/body.json" > "$work/market.out" 2> "$work/market.err" &
market_pid=$!
for _ in $(seq 300); do grep -q '^port ' "$work/market.out" 2>/dev/null && break; sleep 0.1; done
market_port=$(awk '/^port /{print $2}' "$work/market.out")
[[ -n "$market_port" ]] || { echo "run.sh: the fake market did not start" >&2; cat "$work/market.err" >&2; exit 1; }

daemon_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/skinpulsed.ini" <<INI
[log]
level = debug
access = false

[http]
max_connections = $((clients + 100))
max_connections_per_ip = $((clients + 100))
max_websockets_per_client = $((clients + 100))

[source.skinport]
plugin = skinport
url = http://127.0.0.1:$market_port
interval_seconds = $interval
INI
SESSION_SECRET=bench-e2e-secret-0123456789abcdef0123 LISTEN="127.0.0.1:$daemon_port" \
  BASE_URL="http://127.0.0.1:$daemon_port" DATABASE_URL="sqlite://$work/skinpulse.db" \
  "$build/bin/skinpulsed" --config "$work/skinpulsed.ini" 2> "$work/daemon.err" > /dev/null &
daemon_pid=$!
for _ in $(seq 600); do grep -q 'listening on' "$work/daemon.err" 2>/dev/null && break; sleep 0.1; done
grep -q 'listening on' "$work/daemon.err" || { echo "run.sh: skinpulsed did not start" >&2; tail "$work/daemon.err" >&2; exit 1; }

echo "daemon pid $daemon_pid, load before: $(cat /proc/loadavg)"
"$build/bin/bench_ws_client" --port "$daemon_port" --publish-log "$work/publish.log" \
  --clients "$clients" --ids "$ids" --items "$items" --cycles "$cycles" --volatility 0 \
  --ready-file "$work/ready" 2> "$work/client.err" | sed 's/^/e2e /' | tee "$work/e2e.out"
echo "load after: $(cat /proc/loadavg)"
echo "cycles measured: $(grep -c '^publish' "$work/publish.log") ($(awk '/^publish/{print $4; exit}' "$work/publish.log"))"

# The daemon's stage breakdown of the measured cycles: poll k of the fake market is the
# daemon's k-th cycle (every poll of this run is stored), and its k-th fan-out.
python3 - "$work/daemon.err" "$work/publish.log" "$work/stages.out" <<'PY'
import re, statistics, sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
polls = [int(m.group(1)) for m in re.finditer(r"poll=(\d+)", open(sys.argv[2]).read())]
cycles = [l for l in lines if "cycle of" in l and "point(s):" in l]
fanouts = [l for l in lines if "fanout=" in l and "cycle volatility of" not in l]
stages = {}
for k in polls:
    if k <= len(cycles):
        for name, ms in re.findall(r"(\w+)=([\d.]+) ms", cycles[k - 1]):
            stages.setdefault(name, []).append(float(ms))
    if k <= len(fanouts):
        stages.setdefault("fanout", []).append(
            float(re.search(r"fanout=([\d.]+) ms", fanouts[k - 1]).group(1)))
print("stages, median ms of polls %s: %s" % (",".join(map(str, polls)), " ".join(
    "%s=%.1f" % (k, statistics.median(v)) for k, v in stages.items())))
print("stage sum after the answer (normalise..fanout): %.1f ms" % sum(
    statistics.median(v) for k, v in stages.items() if k not in ("fetch", "parse")) )
with open(sys.argv[3], "w") as out:
    for k, v in stages.items():
        out.write("%s %.3f\n" % (k, statistics.median(v)))
PY
if [[ -s "$work/client.err" ]]; then
  echo "client messages (first 5 of $(wc -l < "$work/client.err")):"; head -5 "$work/client.err"
fi
kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null || true; daemon_pid=

if (( reference )); then
  # The floors of parse and store, on the same body and rows: the daemon's database as it
  # stands after the run (its schema, indexes and the cycles it stored), copied.
  sqlite3 "$work/skinpulse.db" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null 2>&1 || true
  cp "$work/skinpulse.db" "$work/reference.db"
  "$build/bin/bench_e2e_reference" --body "$work/body.json" --db "$work/reference.db" --runs 5 \
    | tee "$work/raw.out" | sed 's/^/reference /'
  "$root/bench/ws/run.sh" --build "$build" --clients "$clients" --ids "$ids" --items "$items" \
    --cycles "$cycles" --no-volatility > "$work/ws.out" 2>&1 || true
  grep -E '^(first|last) frame' "$work/ws.out" | sed 's/^/reference ws (publish→frame) /'
  echo "load at the end: $(cat /proc/loadavg)"
  python3 - "$work/e2e.out" "$work/stages.out" "$work/raw.out" "$work/ws.out" <<'PY'
import re, sys
def grab(path, pattern):
    m = re.search(pattern, open(path, encoding="utf-8", errors="replace").read())
    return tuple(float(x) for x in m.groups()) if m else None
e2e = grab(sys.argv[1], r"first frame ms: p50=([\d.]+) p99=([\d.]+)")
stages = dict(l.split() for l in open(sys.argv[2]) if l.strip())
stages = {k: float(v) for k, v in stages.items()}
parse = grab(sys.argv[3], r"raw parse median=([\d.]+)")
insert = grab(sys.argv[3], r"raw insert median=([\d.]+)")
ws = grab(sys.argv[4], r"first frame ms: p50=([\d.]+) p99=([\d.]+)")
if not (e2e and parse and insert and ws):
    print("ratios: a figure is missing (e2e %s, raw parse %s, raw insert %s, ws %s)" % (e2e, parse, insert, ws))
    sys.exit(0)
inside = [k for k in stages if k != "fetch"]
stage_sum = sum(stages[k] for k in inside)
ref_median = parse[0] + insert[0] + ws[0]
ref_p99 = parse[0] + insert[0] + ws[1]
print("summary: e2e p50=%.1f p99=%.1f ms | references: raw parse %.1f + raw insert %.1f + ws "
      "publish->frame p50 %.1f / p99 %.1f ms" % (e2e[0], e2e[1], parse[0], insert[0], ws[0], ws[1]))
print("summary: stage sum (%s) = %.1f ms; / (raw parse + raw insert + ws p50 = %.1f ms) = %.2f"
      % ("+".join(inside), stage_sum, ref_median, stage_sum / ref_median))
print("summary: e2e p99 / (raw parse + raw insert + ws p99 = %.1f ms) = %.2f; parse %.2fx raw, "
      "store %.2fx raw insert, fanout %.2fx ws p50" % (ref_p99, e2e[1] / ref_p99,
      stages.get("parse", 0) / parse[0], stages.get("store", 0) / insert[0],
      stages.get("fanout", 0) / ws[0]))
PY
fi
