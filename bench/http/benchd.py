"""Shared parts of the HTTP scenario benches (idle_connections.py, slow_clients.py): start
one skinpulsed from a build tree on a free port with a clean environment and a fresh
SQLite database, read its thread count and RSS from /proc, time GET /healthz, and raise
the open-files limit. Not a test: nothing here is run by CTest."""
import http.client
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SECRET = "bench-session-secret-not-a-secret-0123456789"


def raise_nofile(wanted):
    """Raises RLIMIT_NOFILE to `wanted` (the daemon inherits it). Root may raise the hard
    limit; others get at most theirs. Returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(wanted, hard)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_stats(pid):
    """(threads, VmRSS in KiB) of a process."""
    threads = len(os.listdir("/proc/%d/task" % pid))
    rss = 0
    with open("/proc/%d/status" % pid, encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return threads, rss


def healthz_once(port, timeout=5.0, source="127.0.0.1"):
    """Milliseconds of one GET /healthz on a fresh connection; None on error or timeout."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    try:
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            return None
        return (time.perf_counter() - started) * 1000.0
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1)))))
    return ordered[k]


def json_line(row):
    """One JSON line; NaN (no sample) becomes null."""
    return json.dumps({k: (None if isinstance(v, float) and v != v else v)
                       for k, v in row.items()})


def median(values):
    values = [v for v in values if v == v]  # drop NaN
    return statistics.median(values) if values else float("nan")


class Daemon:
    """skinpulsed from `build` (a tree holding bin/skinpulsed) in `workdir`."""

    def __init__(self, build, workdir, name, http_threads=None, extra_ini=""):
        self.bin = os.path.abspath(os.path.join(build, "bin", "skinpulsed"))
        if not os.access(self.bin, os.X_OK):
            raise SystemExit("no daemon at %s" % self.bin)
        self.name = name
        self.port = free_port()
        self.workdir = workdir
        plugins = os.path.abspath(os.path.join(build, "lib", "skinpulse", "plugins"))
        self.config = os.path.join(workdir, name + ".ini")
        with open(self.config, "w", encoding="utf-8") as f:
            f.write("[daemon]\nshare_dir = %s\n" % os.path.join(REPO, "share"))
            if os.path.isdir(plugins):
                f.write("plugin_dir = %s\n" % plugins)
            if http_threads:  # else the daemon's default
                f.write("\n[http]\nthreads = %d\n" % http_threads)
            f.write("\n[log]\naccess = false\nlevel = warn\n%s" % extra_ini)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/tmp"),
            "SESSION_SECRET": SECRET,
            "LISTEN": "127.0.0.1:%d" % self.port,
            "BASE_URL": "http://127.0.0.1:%d" % self.port,
            "DATABASE_URL": "sqlite://" + os.path.join(workdir, name + ".db"),
        }
        self.proc = None
        self.log = None

    def start(self, timeout=300):
        self.log = open(os.path.join(self.workdir, self.name + ".log"), "ab")
        self.proc = subprocess.Popen([self.bin, "--config", self.config], env=self.env,
                                     stdout=self.log, stderr=subprocess.STDOUT,
                                     cwd=self.workdir)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit("%s exited during start-up; see %s.log in %s" %
                                 (self.name, self.name, self.workdir))
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % self.port,
                                            timeout=1) as response:
                    if response.status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.1)
        raise SystemExit("%s not ready after %d s" % (self.name, timeout))

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log:
            self.log.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def run_scenario(args, run_once, prefix, extra, keys, title, fmt):
    """Runs `run_once(build, name, args, workdir)` --runs times for the daemon (and the
    baseline first, when --baseline-build is given), prints each row as a JSON line on
    stderr, appends it to --out, then prints the median of every key per server.
    `extra` is merged into each row; `fmt(key, value)` formats a median."""
    servers = [("daemon", args.build)]
    if args.baseline_build:
        servers.insert(0, ("baseline", args.baseline_build))
    rows = []
    with tempfile.TemporaryDirectory(prefix=prefix) as workdir:
        for run in range(1, args.runs + 1):
            for name, build in servers:
                row = run_once(build, name, args, workdir)
                row.update(extra)
                row.update({"run": run,
                            "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                            "nproc": os.cpu_count(), "build": os.path.abspath(build)})
                line = json_line(row)
                print(line, file=sys.stderr)
                rows.append(row)
                if args.out:
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(line + "\n")
    print(title)
    print("%-28s" % "" + "".join("%14s" % name for name, _ in servers))
    for key in keys:
        values = [median([r[key] for r in rows if r["server"] == name]) for name, _ in servers]
        print("%-28s" % key + "".join("%14s" % fmt(key, v) for v in values))
