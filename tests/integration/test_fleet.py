"""The fleet under load (docs/operations.md, "Run a fleet"; decisions §8): PostgreSQL,
Redis, haproxy (etc/haproxy.cfg.example, ports substituted) and three skinpulsed against
a fake market polled every 2 s. HTTP load (wrk, else a Python client) and WebSocket
clients run through haproxy for 60 s; at 20 s the polling daemon is killed with SIGKILL.

Asserted: a standby polls within two intervals (plus the standby's lease recheck); no
cycle is lost or stored twice, and never do two daemons poll at once (the fake market's
request log names the daemon); at most 0.1 % of the HTTP requests fail; WebSocket
clients reconnect through haproxy and receive the next cycle. Then a rolling restart of
all three (SIGTERM, wait, start) under load fails no request at all. The figures
(takeover time, failed/total requests, p50/p99 latency) are printed.

CTest label `slow` (tests/integration/CMakeLists.txt): about two minutes. Needs
SKINPULSE_TEST_POSTGRES_URL, redis-server and haproxy; skipped without them.
SKINPULSE_FLEET_SECONDS shortens the loaded run (the kill comes at a third of it).
"""
import http.client
import json
import os
import re
import resource
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
import unittest

import websocket

from fakes.background_server import BackgroundServer
from fakes.redis_server import RedisServer
from harness import Daemon, DaemonTestCase, free_port, wait_until

import http.server

PG_URL = os.environ.get("SKINPULSE_TEST_POSTGRES_URL")
SOURCE_DIR = os.environ.get("SKINPULSE_SOURCE_DIR", ".")
HAPROXY = shutil.which("haproxy") or ("/usr/sbin/haproxy"
                                      if os.path.exists("/usr/sbin/haproxy") else None)
WRK = shutil.which("wrk")
INTERVAL = 2
RUN_SECONDS = int(os.environ.get("SKINPULSE_FLEET_SECONDS", "60"))
KILL_AT = RUN_SECONDS / 3
ITEMS = 20  # the first ITEMS names of the shipped catalogue are on the fake market
# The standby asks for the lease every interval/2 (ingest/Scheduler.cpp); a lease held by a
# killed daemon is free as soon as PostgreSQL sees its connection close (PostgresLease).
TAKEOVER_BOUND = 2 * INTERVAL + INTERVAL / 2
# SIGTERM to a new poller: the drain (5 s, polling on), requests in progress (<= 3 s), the
# stop, then the takeover.
HANDOVER_BOUND = 5 + 3 + 2 + TAKEOVER_BOUND

if 1001 not in websocket._abnf.VALID_CLOSE_STATUS:  # websocket-client 1.2.3 (Debian 12)
    websocket._abnf.VALID_CLOSE_STATUS += (1001,)


def psql(sql, url=None):
    return subprocess.run(["psql", "-qAt", "-v", "ON_ERROR_STOP=1", url or PG_URL, "-c", sql],
                          check=True, capture_output=True, text=True).stdout


class FleetMarket(BackgroundServer):
    """GET /feed/<daemon>: json_http rows of ITEMS names, prices moving on every request,
    the time of the answer as the observation time. Every answer is logged with the
    daemon that asked (each daemon's source url names it)."""

    def __init__(self, names):
        self.names = names
        self.log = []  # (daemon, wall time, observation time)
        self.lock = threading.Lock()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                now = time.time()
                with fake.lock:
                    fake.log.append((self.path.rsplit("/", 1)[-1], now, int(now)))
                    step = len(fake.log)
                rows = [{"market_hash_name": name, "price": 1000 + 10 * i + step % 97,
                         "volume": 1, "time": int(now)} for i, name in enumerate(fake.names)]
                body = json.dumps(rows).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.listen(Handler)

    def url(self, daemon):
        return "http://127.0.0.1:%d/feed/%s" % (self.port, daemon)

    def entries(self):
        with self.lock:
            return list(self.log)


def haproxy_config(front_port, daemon_ports):
    """etc/haproxy.cfg.example with the test's addresses: what operators run, unchanged
    otherwise."""
    with open(os.path.join(SOURCE_DIR, "etc", "haproxy.cfg.example"), encoding="utf-8") as f:
        text = f.read()
    text, binds = re.subn(r"(?m)^(\s*)bind \*:80\s*$", r"\1bind 127.0.0.1:%d" % front_port, text)
    servers = iter(daemon_ports)
    text, count = re.subn(r"(?m)^(\s*server skinpulse-\d+) \S+$",
                          lambda m: "%s 127.0.0.1:%d" % (m.group(1), next(servers)), text)
    # haproxy needs two descriptors per connection and refuses to start when it cannot
    # raise its limit that far (a container's hard limit): the global maxconn shrinks to
    # fit, plenty for the test.
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if limit != resource.RLIM_INFINITY:
        text = re.sub(r"(?m)^(\s*maxconn) (\d+)$",
                      lambda m: "%s %d" % (m.group(1), min(int(m.group(2)), (limit - 200) // 2)),
                      text, count=1)
    if binds != 1 or count != len(daemon_ports):
        raise AssertionError("etc/haproxy.cfg.example: bind or server lines not found")
    return text


class HttpLoad:
    """GET requests through haproxy at a bounded rate (the machine runs everything else
    too): wrk with a pacing script, else Python threads. result() gives the counts and
    latency percentiles in ms."""

    PATHS = ["/api/v1/items/%d", "/api/v1/items?limit=20", "/api/v1/items/%d/history",
             "/healthz"]

    def __init__(self, port, item_ids, workdir, connections=8, pause_ms=10):
        self.port = port
        self.paths = [p % item_ids[i % len(item_ids)] if "%d" in p else p
                      for i, p in enumerate(self.PATHS * 2)]
        self.workdir = workdir
        self.connections = connections
        self.pause_ms = pause_ms
        self.proc = None
        self.threads = []
        self.stopping = threading.Event()
        self.counts = {"total": 0, "failed": 0}
        self.latencies = []
        self.failures = []
        self.lock = threading.Lock()

    def start(self):
        if WRK:
            script = os.path.join(self.workdir, "paths.lua")
            with open(script, "w") as f:
                f.write("local paths = {%s}\nlocal i = 0\n" %
                        ", ".join('"%s"' % p for p in self.paths))
                f.write("request = function()\n  i = i + 1\n"
                        "  return wrk.format('GET', paths[(i %% #paths) + 1])\nend\n"
                        "delay = function() return %d end\n" % self.pause_ms)
                f.write("done = function(summary, latency, requests)\n"
                        "  io.write(string.format('FLEET %d %d %d %d %d %d %d %d\\n', "
                        "summary.requests, summary.errors.connect, summary.errors.read, "
                        "summary.errors.write, summary.errors.status, summary.errors.timeout, "
                        "latency:percentile(50), latency:percentile(99)))\nend\n")
            self.proc = subprocess.Popen(
                [WRK, "-t2", "-c%d" % self.connections, "-d600s", "--timeout", "10s", "-s",
                 script, "http://127.0.0.1:%d" % self.port], stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True)
        else:
            for _ in range(self.connections):
                thread = threading.Thread(target=self._client, daemon=True)
                thread.start()
                self.threads.append(thread)
        return self

    def _client(self):
        conn = None
        i = 0
        while not self.stopping.is_set():
            path = self.paths[i % len(self.paths)]
            i += 1
            started = time.time()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                ok = 200 <= response.status < 400
                if response.getheader("connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as error:
                ok = False
                response = error
                if conn is not None:
                    conn.close()
                conn = None
            with self.lock:
                self.counts["total"] += 1
                self.latencies.append((time.time() - started) * 1000)
                if not ok:
                    self.counts["failed"] += 1
                    self.failures.append((time.time(), path, str(getattr(response, "status",
                                                                        response))))
            time.sleep(self.pause_ms / 1000)

    def result(self):
        """Stops the load; returns {total, failed, p50_ms, p99_ms}."""
        if self.proc:
            self.proc.send_signal(signal.SIGINT)  # wrk prints its summary and exits
            output, _ = self.proc.communicate(timeout=30)
            line = next((l for l in output.splitlines() if l.startswith("FLEET ")), None)
            if line is None:
                raise AssertionError("wrk gave no summary:\n" + output)
            total, connect, read, write, status, timeout, p50, p99 = map(int, line.split()[1:])
            return {"total": total, "failed": connect + read + write + status + timeout,
                    "p50_ms": p50 / 1000, "p99_ms": p99 / 1000, "tool": "wrk",
                    "detail": "connect %d read %d write %d status %d timeout %d" % (
                        connect, read, write, status, timeout)}
        self.stopping.set()
        for thread in self.threads:
            thread.join(15)
        latencies = sorted(self.latencies) or [0]
        return {"total": self.counts["total"], "failed": self.counts["failed"],
                "p50_ms": latencies[len(latencies) // 2],
                "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
                "tool": "python", "detail": str(self.failures[:5])}


class LiveClient(threading.Thread):
    """A WebSocket client through haproxy that subscribes to everything and reconnects
    whenever its connection ends. Records every session: when it connected, how it
    ended (close code or error) and when each prices frame arrived."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.sessions = []
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            session = {"connected": None, "frames": [], "ended": None, "code": None}
            try:
                ws = websocket.create_connection("ws://127.0.0.1:%d/api/v1/ws" % self.port,
                                                 timeout=5)
            except (OSError, websocket.WebSocketException):
                time.sleep(0.1)
                continue
            session["connected"] = time.time()
            self.sessions.append(session)
            try:
                ws.send(json.dumps({"type": "subscribe", "items": "*"}))
                ws.settimeout(1)
                while not self.stopping.is_set():
                    try:
                        opcode, data = ws.recv_data(control_frame=True)
                    except websocket.WebSocketTimeoutException:
                        continue
                    if opcode == websocket.ABNF.OPCODE_CLOSE:
                        session["code"] = struct.unpack("!H", data[:2])[0] if len(data) >= 2 \
                            else None
                        break
                    if opcode == websocket.ABNF.OPCODE_TEXT:
                        message = json.loads(data.decode("utf-8"))
                        if message.get("type") == "prices":
                            session["frames"].append(time.time())
            except (OSError, websocket.WebSocketException, ValueError) as error:
                session["code"] = type(error).__name__
            finally:
                session["ended"] = time.time()
                try:
                    ws.close(timeout=1)
                except (OSError, websocket.WebSocketException):
                    pass

    def stop(self):
        self.stopping.set()
        self.join(10)


class DrainTest(DaemonTestCase):
    """One daemon's stop behind a balancer, quick enough for the default set (CTest
    integration.fleet_drain): SIGTERM turns /readyz into 503 "draining" on both listeners
    while everything else is still served, for [http] drain_seconds; a second SIGTERM
    ends the drain; then the daemon exits 0."""

    def daemon(self, drain_seconds):
        return Daemon(self.workdir, ini="[http]\ndrain_seconds = %d\n" % drain_seconds).start()

    def test_sigterm_drains_then_exits(self):
        daemon = self.daemon(2)
        try:
            ready = daemon.get("/readyz")  # a balancer's probe: there is someone to tell
            self.assertEqual(ready.status, 200)
            self.assertNotIn("state", ready.json())
            signalled = time.time()
            daemon.proc.send_signal(signal.SIGTERM)
            draining = wait_until(lambda: daemon.get("/readyz").status == 503, 1, every=0.05)
            self.assertTrue(draining, "no 503 after SIGTERM")
            public = daemon.get("/readyz").json()
            self.assertEqual((public["status"], public["state"]), ("unavailable", "draining"))
            self.assertEqual(daemon.admin_get("/readyz").json()["state"], "draining")
            # Still serving everything else while the balancer takes it out.
            self.assertEqual(daemon.get("/healthz").status, 200)
            self.assertEqual(daemon.get("/api/v1/items?limit=1").status, 200)
            self.assertEqual(daemon.proc.wait(10), 0, daemon.stderr())
            took = time.time() - signalled
            self.assertGreaterEqual(took, 2)
            self.assertLess(took, 2 + 5)
        finally:
            daemon.stop()

    def test_second_sigterm_ends_the_drain(self):
        daemon = self.daemon(60)
        try:
            self.assertEqual(daemon.get("/readyz").status, 200)
            daemon.proc.send_signal(signal.SIGTERM)
            self.assertTrue(wait_until(lambda: daemon.get("/readyz").status == 503, 1,
                                       every=0.05))
            again = time.time()
            daemon.proc.send_signal(signal.SIGTERM)
            self.assertEqual(daemon.proc.wait(10), 0, daemon.stderr())
            self.assertLess(time.time() - again, 5)
            self.assertIn("drain ended early", daemon.stderr())
        finally:
            daemon.stop()

    def test_no_drain_without_a_readiness_probe(self):
        # Nobody balances on a daemon nobody probes: it keeps the 5 s stop promise.
        daemon = self.daemon(60)
        try:
            self.assertEqual(daemon.get("/healthz").status, 200)
            signalled = time.time()
            daemon.proc.send_signal(signal.SIGTERM)
            self.assertEqual(daemon.proc.wait(10), 0, daemon.stderr())
            self.assertLess(time.time() - signalled, 5)
            self.assertNotIn("draining", daemon.stderr())
        finally:
            daemon.stop()


@unittest.skipUnless(PG_URL and HAPROXY and shutil.which("redis-server"),
                     "needs SKINPULSE_TEST_POSTGRES_URL, haproxy and redis-server")
class FleetTest(DaemonTestCase):
    def setUp(self):
        super().setUp()
        self.schema = "it_fleet_%d" % os.getpid()
        psql("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s" % (self.schema, self.schema))
        separator = "&" if "?" in PG_URL else "?"
        self.url = PG_URL + separator + "options=-csearch_path%3D" + self.schema
        self.cleanups = []

    def tearDown(self):
        for cleanup in reversed(self.cleanups):
            try:
                cleanup()
            except Exception:  # a failing cleanup must not hide the others
                pass
        psql("DROP SCHEMA IF EXISTS %s CASCADE" % self.schema)
        super().tearDown()

    # ---- set-up ----------------------------------------------------------------------

    def write_catalogue(self):
        """The first ITEMS entries of the shipped catalogue (real names): seeding the whole
        one three times would take most of the budget."""
        path = os.path.join(self.workdir, "items.jsonl")
        names = []
        with open(os.path.join(SOURCE_DIR, "share", "catalog", "items.jsonl"),
                  encoding="utf-8") as source, open(path, "w", encoding="utf-8") as out:
            for line in source:
                if len(names) == ITEMS:
                    break
                names.append(json.loads(line)["market_hash_name"])
                out.write(line)
        return path, names

    def start_daemon(self, name, market, catalogue, redis_url):
        workdir = os.path.join(self.workdir, name)
        os.makedirs(workdir, exist_ok=True)
        ini = ("[catalog]\nfile = %s\n\n[source.feed]\nplugin = json_http\n"
               "interval_seconds = %d\nurl = %s\n" % (catalogue, INTERVAL, market.url(name)))
        daemon = Daemon(workdir, ini=ini, env={"DATABASE_URL": self.url, "REDIS_URL": redis_url})
        daemon.name = name
        daemon.start()
        self.cleanups.append(daemon.stop)
        self.assertTrue(wait_until(lambda: self.ready(daemon), 30), daemon.stderr())
        return daemon

    @staticmethod
    def ready(daemon):
        try:
            return daemon.get("/readyz").status == 200
        except OSError:
            return False

    @staticmethod
    def role(daemon):
        try:
            return daemon.get("/readyz").json().get("ingest")
        except (OSError, ValueError):
            return None

    def start_haproxy(self, daemons):
        port = free_port()
        config = os.path.join(self.workdir, "haproxy.cfg")
        with open(config, "w", encoding="utf-8") as f:
            f.write(haproxy_config(port, [d.port for d in daemons]))
        log = open(os.path.join(self.workdir, "haproxy.log"), "w")
        self.cleanups.append(log.close)
        proc = subprocess.Popen([HAPROXY, "-db", "-f", config], stdout=log,
                                stderr=subprocess.STDOUT)

        def stop():
            proc.terminate()
            proc.wait(10)
        self.cleanups.append(stop)

        def all_up():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/readyz")
                return conn.getresponse().status == 200
            except OSError:
                return False
        self.assertTrue(wait_until(all_up, 15), "haproxy did not come up")
        time.sleep(2.5)  # rise 2 x inter 1 s: every daemon in rotation
        return port

    # ---- checks ----------------------------------------------------------------------

    def has_cycle_log(self):
        """Whether the store follows cycles through its log (decisions §20, shared design
        §4): the standbys then keep up incrementally, which is asserted."""
        return psql("SELECT to_regclass('%s.ingest_cycles') IS NOT NULL" %
                    self.schema).strip() == "t"

    def standby_lag(self, daemons, item_id, seconds):
        """How long, at most, the standbys took to show a price the polling daemon showed
        (its current_price of `item_id`, sampled five times a second for `seconds`)."""
        poller = next(d for d in daemons if self.role(d) == "polling")
        standbys = [d for d in daemons if d is not poller]

        def price(daemon):
            return daemon.get("/api/v1/items/%d" % item_id).json().get("current_price")
        samples = []
        deadline = time.time() + seconds
        while time.time() < deadline:
            samples.append((time.time(), price(poller), [price(d) for d in standbys]))
            time.sleep(0.2)
        worst = 0.0
        seen = set()
        for at, shown, _ in samples:
            if shown in seen or at > deadline - INTERVAL * 1.5:
                continue  # a price too late in the window to see the standbys catch up
            seen.add(shown)
            for i in range(len(standbys)):
                caught = next((t for t, _, others in samples if t >= at and
                               others[i] == shown), None)
                # Already there before the poller's sample, or never (a cycle skipped).
                earlier = any(t < at and others[i] == shown for t, _, others in samples)
                worst = max(worst, 0.0 if earlier else (caught - at if caught else
                                                        float("inf")))
        return worst

    def stored_cycles(self):
        """{observation time: points stored} of the fake market's source."""
        rows = psql("SELECT time, count(*) FROM %s.price_points WHERE source = 'feed' "
                    "GROUP BY time ORDER BY time" % self.schema)
        return {int(t): int(n) for t, n in (line.split("|") for line in rows.split())}

    def check_cycles(self, market, stops):
        """Every answer of the fake market stored once, all ITEMS points of it, and one
        poller at a time. `stops`: (daemon, time) of every kill, SIGTERM and exit — the
        answer a stopping daemon fetched but never stored is the only one allowed to be
        missing, and polling passes from one daemon to another only when the one polling
        stopped. Returns (cycles stored, widest gap between polls)."""
        # Stored first, the log after: every stored cycle is in the log; a poll of the
        # last seconds may not be stored yet.
        stored = self.stored_cycles()
        settled = time.time() - INTERVAL - 1
        log = market.entries()
        served = {observed for _, _, observed in log}
        self.assertFalse(set(stored) - served, "stored points nobody served")
        for observed, points in stored.items():
            self.assertEqual(points, ITEMS, "cycle %d stored %d of %d points" %
                             (observed, points, ITEMS))
        for daemon, wall, observed in log:
            if observed in stored or wall > settled:
                continue
            excused = any(name == daemon and 0 <= at - wall <= INTERVAL + 1
                          for name, at in stops)
            self.assertTrue(excused, "cycle fetched by %s at %d never stored" % (daemon,
                                                                                  observed))
        ordered = sorted(log, key=lambda entry: entry[1])
        for (before, at, _), (after, then, _) in zip(ordered, ordered[1:]):
            restarted = any(name == before and at <= when <= then for name, when in stops)
            if before == after and not restarted:
                # A daemon's own polls are an interval apart.
                self.assertGreater(then - at, INTERVAL / 2, "%s polled twice at once" % before)
            else:
                # A handover (to another daemon, or to the same one restarted): the daemon
                # that polled had been stopped shortly before (it polls on while it
                # drains); two daemons polling interleaved fail here.
                self.assertTrue(any(name == before and when <= then <= when + HANDOVER_BOUND
                                    for name, when in stops),
                                "%s polled at %.1f while %s still did (%.1f)" % (
                                    after, then, before, at))
        walls = [wall for _, wall, _ in ordered]
        return len(stored), max(b - a for a, b in zip(walls, walls[1:]))

    # ---- the test --------------------------------------------------------------------

    def test_fleet_survives_a_kill_and_a_rolling_restart(self):
        catalogue, names = self.write_catalogue()
        redis = RedisServer().start()
        self.cleanups.append(redis.kill)
        market = FleetMarket(names).start()
        self.cleanups.append(market.stop)
        first = self.start_daemon("a", market, catalogue, redis.url)
        self.assertTrue(wait_until(lambda: self.role(first) == "polling", 20))
        daemons = [first] + [self.start_daemon(n, market, catalogue, redis.url)
                             for n in ("b", "c")]
        # A daemon reports "polling" until its first lease check (ingest/Scheduler.hpp).
        for daemon in daemons[1:]:
            self.assertTrue(wait_until(lambda: self.role(daemon) == "standby", 10), "\n".join(
                [first.stderr()[-3000:], daemon.stderr()[-3000:]]))
        front = self.start_haproxy(daemons)
        item_ids = sorted(i["id"] for i in first.get("/api/v1/items?limit=100").json())
        self.assertEqual(len(item_ids), ITEMS)

        # Phase 1: load and live clients for RUN_SECONDS; the polling daemon killed.
        clients = [LiveClient(front) for _ in range(6)]
        for client in clients:
            client.start()
        load = HttpLoad(front, item_ids, self.workdir).start()
        started = time.time()
        time.sleep(KILL_AT / 3)
        lag = self.standby_lag(daemons, item_ids[0], KILL_AT / 2)
        time.sleep(max(0, started + KILL_AT - time.time()))
        victim = next(d for d in daemons if self.role(d) == "polling")
        killed_at = time.time()
        victim.proc.kill()
        victim.proc.wait(10)
        stops = [(victim.name, killed_at)]
        takeover = wait_until(lambda: next(
            (wall - killed_at for daemon, wall, _ in market.entries()
             if wall > killed_at and daemon != victim.name), None), 20)
        self.assertIsNotNone(takeover, "no standby took over")
        # Back as a standby, so the rolling restart has three daemons again.
        time.sleep(2)
        victim.start()
        self.assertTrue(wait_until(lambda: self.ready(victim), 30), victim.stderr())
        time.sleep(max(0, started + RUN_SECONDS - time.time()))
        phase1 = load.result()
        for client in clients:
            client.stop()

        if self.has_cycle_log():
            print("\nfleet: standbys trail the polling daemon by %.2f s at most" % lag)
            self.assertLessEqual(lag, INTERVAL, "a standby trails by more than one cycle")
        else:
            print("\nfleet: standby lag %.2f s (no cycle log in this store: standbys reload)"
                  % lag)
        print("fleet: takeover %.2f s after SIGKILL (bound %.1f s)" % (takeover,
                                                                       TAKEOVER_BOUND))
        print("fleet: kill phase (%s, %d s): %d requests, %d failed (%.3f %%), p50 %.1f ms, "
              "p99 %.1f ms" % (phase1["tool"], RUN_SECONDS, phase1["total"], phase1["failed"],
                               100.0 * phase1["failed"] / max(1, phase1["total"]),
                               phase1["p50_ms"], phase1["p99_ms"]))
        self.assertLessEqual(takeover, TAKEOVER_BOUND)
        self.assertGreater(phase1["total"], 1000)
        self.assertLessEqual(phase1["failed"], phase1["total"] * 0.001, phase1["detail"])

        # The live clients: every one saw a cycle after the takeover; every session the
        # kill ended was followed by a new one (through haproxy, on another daemon) that
        # received the next cycle's frame.
        first_new_poll = killed_at + takeover
        cut = 0
        for client in clients:
            self.assertTrue(any(t > first_new_poll for s in client.sessions
                                for t in s["frames"]), "a client missed every cycle after "
                                                       "the takeover")
            for i, session in enumerate(client.sessions):
                if session["ended"] is None or not (killed_at - 1 <= session["ended"] <=
                                                    killed_at + 5):
                    continue
                cut += 1
                later = client.sessions[i + 1:]
                self.assertTrue(later, "a client cut off by the kill never reconnected")
                self.assertLess(later[0]["connected"] - session["ended"], 5)
                self.assertTrue(later[0]["frames"], "a reconnected client got no cycle")
        print("fleet: %d WebSocket session(s) cut by the kill, all reconnected and fed" % cut)

        # Phase 2: a rolling restart under load, no request may fail.
        clients = [LiveClient(front) for _ in range(3)]
        for client in clients:
            client.start()
        load = HttpLoad(front, item_ids, self.workdir).start()
        time.sleep(2)
        restart_started = time.time()
        for daemon in daemons:
            stops.append((daemon.name, time.time()))
            daemon.proc.send_signal(signal.SIGTERM)
            self.assertEqual(daemon.proc.wait(20), 0, daemon.stderr())
            stops.append((daemon.name, time.time()))  # gone: a restart polls anew
            daemon.start()
            self.assertTrue(wait_until(lambda: self.ready(daemon), 30), daemon.stderr())
            time.sleep(3)  # haproxy's rise: 2 checks 1 s apart
        restart_seconds = time.time() - restart_started
        phase2 = load.result()
        # The live clients' last sessions (on whichever daemon) get the next cycle.
        self.assertTrue(wait_until(lambda: all(c.sessions and c.sessions[-1]["frames"]
                                               for c in clients), 15),
                        "a live client got no cycle after the rolling restart")
        for client in clients:
            client.stop()
        print("fleet: rolling restart (%.0f s): %d requests, %d failed, p50 %.1f ms, "
              "p99 %.1f ms" % (restart_seconds, phase2["total"], phase2["failed"],
                               phase2["p50_ms"], phase2["p99_ms"]))
        self.assertGreater(phase2["total"], 500)
        self.assertEqual(phase2["failed"], 0, phase2["detail"])
        codes = [s["code"] for c in clients for s in c.sessions[:-1]]  # the last: ours
        print("fleet: WebSocket sessions ended by the restart: %s" % codes)
        self.assertIn(1001, codes, "no client saw a stopping daemon's close 1001")

        # The cycles of both phases.
        time.sleep(INTERVAL + 1)
        cycles, widest = self.check_cycles(market, stops)
        print("fleet: %d cycles stored, each once; widest gap between polls %.1f s" %
              (cycles, widest))
        self.assertLessEqual(widest, TAKEOVER_BOUND + INTERVAL)


if __name__ == "__main__":
    unittest.main()
