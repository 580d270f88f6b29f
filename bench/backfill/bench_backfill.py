#!/usr/bin/env python3
"""bench/backfill: `skinpulsectl backfill` of N points into a fresh SQLite database, beside
Python's sqlite3 `executemany` of the same rows into a WITHOUT ROWID table of the same
columns, in the same run (bench/README.md, "backfill").

  bench/backfill/bench_backfill.py [--build DIR] [--points N ...] [--runs N] [--json FILE]

Per size: a JSON Lines file of N points (catalogue names, 4 sources, 5-minute steps, in
time order as an export would be), then --runs times, interleaved: (a) skinpulsectl
backfill into a copy of a migrated, catalogue-seeded database (wall time of the process,
its peak RSS from /usr/bin/time, and the stage split it reports with --timings); (b) Python
sqlite3: the same rows, already in memory, executemany into a fresh WITHOUT ROWID table
(item_id, source, time, price, volume, kind, listings, outlier) and commit, the insert
alone. Medians are reported with the load average before and after.
"""
import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = ["archive", "bench-a", "bench-b", "bench-c"]


def generate(path, points, names):
    """N points over len(names) items x 4 sources, oldest first, ending an hour ago."""
    random.seed(points)
    series = len(names) * len(SOURCES)
    steps = (points + series - 1) // series
    end = int(time.time()) - 3600
    start = end - 300 * steps
    rows = []
    with open(path, "w", encoding="utf-8") as out:
        written = 0
        for step in range(steps):
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + 300 * step))
            for index, name in enumerate(names):
                for source in SOURCES:
                    if written == points:
                        return rows
                    price = 100 + (index * 7919 + step * 13) % 50000
                    volume = random.randint(0, 9)
                    out.write(json.dumps({"market_hash_name": name, "source": source,
                                          "time": stamp, "price": price, "volume": volume},
                                         ensure_ascii=False) + "\n")
                    rows.append((index + 1, source, start + 300 * step, price, volume, "ask",
                                 None, 0))
                    written += 1
    return rows


def python_insert(rows, db):
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute(
        "CREATE TABLE price_points (item_id INTEGER NOT NULL, source TEXT NOT NULL, "
        "time INTEGER NOT NULL, price INTEGER NOT NULL, volume INTEGER NOT NULL DEFAULT 0, "
        "kind TEXT NOT NULL DEFAULT 'ask', listings INTEGER, outlier INTEGER NOT NULL "
        "DEFAULT 0, PRIMARY KEY (item_id, source, time)) WITHOUT ROWID")
    connection.commit()
    started = time.perf_counter()
    connection.executemany("INSERT INTO price_points VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                           "ON CONFLICT DO NOTHING", rows)
    connection.commit()
    elapsed = time.perf_counter() - started
    connection.close()
    return elapsed


def run_ctl(ctl, config, env, path, timings):
    # Peak RSS through /usr/bin/time: a child forked from this (large) Python process
    # starts with the parent's RSS in its ru_maxrss, which would inflate the figure.
    rss_file = path + ".rss"
    args = ["/usr/bin/time", "-f", "%M", "-o", rss_file, ctl, "backfill", "--config", config,
            "--file", path]
    if timings:
        args.append("--timings")
    started = time.perf_counter()
    result = subprocess.run(args, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit("backfill failed: " + result.stdout + result.stderr)
    with open(rss_file) as f:
        peak_kib = int(f.read().split()[-1])
    stages = {}
    for name, ms in re.findall(r"([a-z ]+?) ([0-9.]+) ms", result.stderr):
        stages[name.strip()] = float(ms)
    return elapsed, peak_kib * 1024, stages, result.stdout.strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--points", type=int, nargs="+", default=[100000, 1000000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--no-timings", action="store_true",
                        help="for a skinpulsectl without --timings (main before issue 22)")
    parser.add_argument("--json", help="append one JSON object of the results to FILE")
    args = parser.parse_args()
    ctl = os.path.join(args.build, "bin", "skinpulsectl")
    # Base items only: a variant line repeats its base's name.
    names = [e["market_hash_name"]
             for e in map(json.loads, open(os.path.join(ROOT, "share", "catalog", "items.jsonl"),
                                           encoding="utf-8"))
             if "variant" not in e][:args.items]
    tmp = tempfile.mkdtemp(prefix="skinpulse-bench-backfill.")
    results = {"load_before": open("/proc/loadavg").read().split()[:3], "sizes": []}
    try:
        config = os.path.join(tmp, "bench.ini")
        with open(config, "w") as f:
            f.write("[log]\nlevel = warn\n")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "SESSION_SECRET": "bench-session-secret-not-a-secret-0123456789"}
        template = os.path.join(tmp, "template.db")
        # A migrated database with the catalogue seeded: each run starts from a copy.
        seed = os.path.join(tmp, "seed.jsonl")
        open(seed, "w").close()
        subprocess.run([ctl, "backfill", "--config", config, "--file", seed],
                       env=dict(env, DATABASE_URL="sqlite://" + template), check=True,
                       stdout=subprocess.DEVNULL)
        print("load average before: %s on %d CPUs" % (" ".join(results["load_before"]),
                                                      os.cpu_count()))
        for points in args.points:
            path = os.path.join(tmp, "points-%d.jsonl" % points)
            rows = generate(path, points, names)
            ctl_times, rss, py_times, stage_runs, summary = [], [], [], [], ""
            for run in range(args.runs):
                db = os.path.join(tmp, "run.db")
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(db + suffix):
                        os.remove(db + suffix)
                shutil.copy(template, db)
                elapsed, peak, stages, summary = run_ctl(
                    ctl, config, dict(env, DATABASE_URL="sqlite://" + db), path,
                    not args.no_timings)
                ctl_times.append(elapsed)
                rss.append(peak)
                stage_runs.append(stages)
                pydb = os.path.join(tmp, "python-%d.db" % run)
                py_times.append(python_insert(rows, pydb))
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(pydb + suffix):
                        os.remove(pydb + suffix)
            ctl_median = statistics.median(ctl_times)
            py_median = statistics.median(py_times)
            stage_median = {}
            for name in stage_runs[0]:
                stage_median[name] = statistics.median(s.get(name, 0) for s in stage_runs)
            size = {"points": points, "skinpulsectl_s": ctl_median, "python_s": py_median,
                    "ratio": py_median / ctl_median, "peak_rss_mib": max(rss) / 2**20,
                    "stages_ms": stage_median, "ctl_runs_s": ctl_times, "python_runs_s": py_times,
                    "summary": summary}
            results["sizes"].append(size)
            print("%9d points: skinpulsectl %.3f s (%.0f points/s), python executemany %.3f s: "
                  "%.0f %% of python; peak RSS %.1f MiB" %
                  (points, ctl_median, points / ctl_median, py_median, 100 * size["ratio"],
                   size["peak_rss_mib"]))
            if stage_median:
                print("           stages (median ms): " +
                      ", ".join("%s %.1f" % kv for kv in stage_median.items()))
            print("           " + summary.splitlines()[0] if summary else "")
        results["load_after"] = open("/proc/loadavg").read().split()[:3]
        print("load average after: %s" % " ".join(results["load_after"]))
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps(results) + "\n")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
