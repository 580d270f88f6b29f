#!/usr/bin/env python3
"""10,000 idle keep-alive connections: what they cost the daemon, and whether it still
answers while they are open.

  bench/http/idle_connections.py [--build DIR] [--baseline-build DIR] [--connections 10000]
                                 [--runs 3] [--hold 4] [--out FILE]

Per run and daemon (a fresh process each time, default settings, fresh SQLite database):
1. threads (/proc/PID/task) and VmRSS of the idle daemon;
2. open --connections connections as fast as the kernel lets us, 200 per source address
   from 127.0.0.10 upwards (the daemon's per-address cap, [http] max_connections_per_ip,
   is 256: from one address this would measure the cap, not the cost), send one
   `GET /healthz` (keep-alive) on each and read what comes back for up to 10 s: the
   connections are then idle keep-alive connections, or closed by the server;
3. during --hold seconds: the peak thread count and RSS, and 20 GET /healthz from a new
   connection (p50 and the number that failed within 2 s);
4. how many of the connections the server still holds open at the end of the hold, then
   close them all and read threads and RSS once more after 2 s.
The open-files limit is raised (needs root for more than the hard limit). Prints the
median of the runs per daemon; --out appends one JSON line per run. Not a test.
"""
import argparse
import errno
import os
import selectors
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchd  # noqa: E402

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"


def open_connections(port, count):
    """Opens `count` non-blocking connections; returns the sockets and the connect errors."""
    sockets = []
    errors = 0
    for i in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.%d" % (10 + i // 200), 0))
        s.setblocking(False)
        code = s.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS):
            errors += 1
            s.close()
            continue
        sockets.append(s)
    return sockets, errors


def drive(sockets, seconds):
    """Sends the request on every socket once it is writable and reads responses for
    `seconds`. Returns (answered, closed) socket sets."""
    sel = selectors.DefaultSelector()
    for s in sockets:
        sel.register(s, selectors.EVENT_WRITE)
    answered, closed = set(), set()
    deadline = time.time() + seconds
    while time.time() < deadline and len(answered | closed) < len(sockets):
        for key, events in sel.select(timeout=0.2):
            s = key.fileobj
            if events & selectors.EVENT_WRITE:
                try:
                    s.send(REQUEST)
                    sel.modify(s, selectors.EVENT_READ)
                except OSError:
                    closed.add(s)
                    sel.unregister(s)
                continue
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                closed.add(s)
                sel.unregister(s)
            elif b"HTTP/1.1 200" in data:
                answered.add(s)
    sel.close()
    return answered, closed


def still_open(sockets):
    """Sockets the peer has not closed (a readable socket with no data is closed)."""
    sel = selectors.DefaultSelector()
    for s in sockets:
        sel.register(s, selectors.EVENT_READ)
    closed = set()
    for key, _ in sel.select(timeout=0.1):
        try:
            if not key.fileobj.recv(65536, socket.MSG_PEEK):
                closed.add(key.fileobj)
        except OSError:
            closed.add(key.fileobj)
    sel.close()
    return len(sockets) - len(closed)


def run_once(build, name, args, workdir):
    row = {"server": name}
    with benchd.Daemon(build, workdir, name) as daemon:
        time.sleep(1)
        row["threads_idle"], row["rss_idle_kib"] = benchd.proc_stats(daemon.pid)
        started = time.time()
        sockets, row["connect_errors"] = open_connections(daemon.port, args.connections)
        answered, closed = drive(sockets, 10)
        row["open_seconds"] = round(time.time() - started, 2)
        row["answered"] = len(answered)
        row["closed_by_server_at_start"] = len(closed)
        peak_threads, peak_rss = benchd.proc_stats(daemon.pid)
        latencies, failed = [], 0
        hold_end = time.time() + args.hold
        while time.time() < hold_end or len(latencies) + failed < 20:
            if len(latencies) + failed < 20:
                ms = benchd.healthz_once(daemon.port, timeout=2.0)
                if ms is None:
                    failed += 1
                else:
                    latencies.append(ms)
            else:
                time.sleep(0.1)
            t, r = benchd.proc_stats(daemon.pid)
            peak_threads, peak_rss = max(peak_threads, t), max(peak_rss, r)
        row["threads_held"], row["rss_held_kib"] = peak_threads, peak_rss
        row["healthz_p50_ms"] = round(benchd.percentile(latencies, 50), 2)
        row["healthz_max_ms"] = round(max(latencies), 2) if latencies else float("nan")
        row["healthz_failed"] = failed
        row["still_open_after_hold"] = still_open([s for s in sockets if s not in closed])
        for s in sockets:
            s.close()
        time.sleep(2)
        row["threads_after"], row["rss_after_kib"] = benchd.proc_stats(daemon.pid)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(benchd.REPO, "build"))
    parser.add_argument("--baseline-build")
    parser.add_argument("--connections", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hold", type=float, default=4.0)
    parser.add_argument("--out")
    args = parser.parse_args()
    limit = benchd.raise_nofile(args.connections + 1024)
    if limit < args.connections + 64:
        raise SystemExit("open-files limit is %d; run as root or raise the hard limit" % limit)
    keys = ["threads_idle", "threads_held", "threads_after", "rss_idle_kib", "rss_held_kib",
            "rss_after_kib", "answered", "closed_by_server_at_start", "still_open_after_hold",
            "healthz_p50_ms", "healthz_max_ms", "healthz_failed", "open_seconds"]
    title = "%d idle keep-alive connections, median of %d run(s), %d CPUs" % (
        args.connections, args.runs, os.cpu_count())
    benchd.run_scenario(
        args, run_once, "skinpulse-idle-", {"connections": args.connections}, keys, title,
        lambda key, v: "%.0f" % v if key.endswith("kib") or isinstance(v, int) else "%.2f" % v)

if __name__ == "__main__":
    main()
