#!/usr/bin/env python3
"""1,000 slow clients (slowloris): do they starve everyone else? /healthz latency while
many connections trickle their request headers a byte at a time.

  bench/http/slow_clients.py [--build DIR] [--baseline-build DIR] [--clients 1000]
                             [--addresses 8] [--duration 20] [--runs 3] [--out FILE]

Per run and daemon (a fresh process each time, default settings, fresh SQLite database):
1. GET /healthz, each on a new connection from 127.0.0.1, back to back for 3 s: the idle
   latency;
2. --clients connections from --addresses loopback source addresses (127.0.0.2, .3, ...;
   a per-address limit must not be what stops them), each sending `GET /healthz
   HTTP/1.1\\r\\n` and then one more header byte every --interval seconds, never finishing
   the request;
3. for --duration seconds while they trickle: GET /healthz back to back from 127.0.0.1,
   each given 2 s (a miss counts as failed, not as a latency); p50, p99, failures, and
   how many slow clients the server closed; the daemon's threads and RSS.
Prints the median of the runs per daemon; --out appends one JSON line per run. Not a test.
"""
import argparse
import errno
import os
import selectors
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchd  # noqa: E402

HEAD = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n"
TRICKLE = b"X-Slow: " + b"a" * 4000  # sent a byte at a time; never ends the headers


class Measurer(threading.Thread):
    def __init__(self, port, seconds, timeout=2.0):
        super().__init__(daemon=True)
        self.port, self.seconds, self.timeout = port, seconds, timeout
        self.latencies, self.failed = [], 0

    def run(self):
        end = time.time() + self.seconds
        while time.time() < end:
            ms = benchd.healthz_once(self.port, timeout=self.timeout)
            if ms is None:
                self.failed += 1
            else:
                self.latencies.append(ms)


def trickle(port, clients, addresses, interval, seconds, pid, stats):
    """Opens the slow clients and trickles until `seconds` have passed. Returns how many
    connected and how many the server closed."""
    sel = selectors.DefaultSelector()
    state = {}
    connected = 0
    for i in range(clients):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.%d" % (2 + i % addresses), 0))
        s.setblocking(False)
        if s.connect_ex(("127.0.0.1", port)) not in (0, errno.EINPROGRESS):
            s.close()
            continue
        sel.register(s, selectors.EVENT_WRITE)
        # Spread the clients' byte times over the interval.
        state[s] = {"sent": -1, "next": time.time() + interval * i / clients}
    closed = 0
    end = time.time() + seconds
    while time.time() < end and state:
        for key, events in sel.select(timeout=0.05):
            s = key.fileobj
            if events & selectors.EVENT_WRITE and state[s]["sent"] < 0:
                try:
                    s.send(HEAD)
                    state[s]["sent"] = 0
                    connected += 1
                    sel.modify(s, selectors.EVENT_READ)
                except OSError:
                    closed += 1
                    sel.unregister(s)
                    s.close()
                    del state[s]
            elif events & selectors.EVENT_READ:
                try:
                    data = s.recv(65536)
                except OSError:
                    data = b""
                if not data:  # closed (or answered 408 and closed) by the server
                    closed += 1
                    sel.unregister(s)
                    s.close()
                    del state[s]
        now = time.time()
        for s, st in list(state.items()):
            if st["sent"] >= 0 and now >= st["next"] and st["sent"] < len(TRICKLE):
                try:
                    s.send(TRICKLE[st["sent"]:st["sent"] + 1])
                    st["sent"] += 1
                except OSError:
                    closed += 1
                    sel.unregister(s)
                    s.close()
                    del state[s]
                    continue
                st["next"] = now + interval
        t, r = benchd.proc_stats(pid)
        stats["threads"], stats["rss"] = max(stats["threads"], t), max(stats["rss"], r)
    for s in state:
        s.close()
    sel.close()
    return connected, closed


def run_once(build, name, args, workdir):
    row = {"server": name}
    with benchd.Daemon(build, workdir, name) as daemon:
        time.sleep(1)
        row["threads_idle"], row["rss_idle_kib"] = benchd.proc_stats(daemon.pid)
        idle = Measurer(daemon.port, 3)
        idle.run()
        row["idle_p50_ms"] = round(benchd.percentile(idle.latencies, 50), 3)
        row["idle_p99_ms"] = round(benchd.percentile(idle.latencies, 99), 3)
        stats = {"threads": 0, "rss": 0}
        measurer = Measurer(daemon.port, args.duration)
        slow = {}

        def slow_clients():
            slow["connected"], slow["closed"] = trickle(daemon.port, args.clients,
                                                        args.addresses, args.interval,
                                                        args.duration + 2, daemon.pid, stats)

        trickler = threading.Thread(target=slow_clients, daemon=True)
        trickler.start()
        time.sleep(2)  # let the slow clients connect first
        measurer.start()
        measurer.join()
        trickler.join()
        row["slow_connected"] = slow.get("connected", 0)
        row["slow_closed_by_server"] = slow.get("closed", 0)
        row["healthz_ok"] = len(measurer.latencies)
        row["healthz_failed"] = measurer.failed
        row["healthz_p50_ms"] = round(benchd.percentile(measurer.latencies, 50), 3)
        row["healthz_p99_ms"] = round(benchd.percentile(measurer.latencies, 99), 3)
        row["threads_loaded"], row["rss_loaded_kib"] = stats["threads"], stats["rss"]
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(benchd.REPO, "build"))
    parser.add_argument("--baseline-build")
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--addresses", type=int, default=8)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out")
    args = parser.parse_args()
    if not 1 <= args.addresses <= 250:
        raise SystemExit("--addresses must be 1..250")
    limit = benchd.raise_nofile(args.clients + 1024)
    if limit < args.clients + 64:
        raise SystemExit("open-files limit is %d; run as root or raise the hard limit" % limit)
    keys = ["idle_p50_ms", "idle_p99_ms", "healthz_p50_ms", "healthz_p99_ms", "healthz_ok",
            "healthz_failed", "slow_connected", "slow_closed_by_server", "threads_idle",
            "threads_loaded", "rss_idle_kib", "rss_loaded_kib"]
    title = "%d slow clients from %d addresses, %g s, median of %d run(s), %d CPUs" % (
        args.clients, args.addresses, args.duration, args.runs, os.cpu_count())
    benchd.run_scenario(
        args, run_once, "skinpulse-slow-", {"clients": args.clients, "addresses": args.addresses},
        keys, title, lambda key, v: "%.3f" % v if key.endswith("_ms") else "%.0f" % v)

if __name__ == "__main__":
    main()
