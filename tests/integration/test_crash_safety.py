"""Crash safety (issue 16, item 9): the daemon or skinpulsectl is killed with SIGKILL in
the middle of a cycle, a backfill and an import, then restarted, and the database must
show that

  * nothing partial is visible: a cycle (one transaction for every source polled in it)
    and a backfill (one transaction for the whole file) are there entirely or not at all;
  * nothing committed is lost: once the daemon has logged a cycle as stored, a kill at
    once keeps every point of it;
  * the import lock of a killed import is not stuck: it carries the TTL of the lock
    (50 pages x inventory_timeout_seconds + 60 s) and an import goes through once that
    has passed;
  * holdings written by an earlier import are intact.

The SQLite file is read directly (sqlite3) after each kill, before anything reopens it
through the daemon, so what is checked is what a restart would find on disk.

Where a kill lands is made deterministic where it matters: "inside the store
transaction" is detected from the process's own write counter (/proc/PID/io wchar):
after the fake has sent every body, the only large writes the daemon (or the tool) makes
are the pages of that one transaction. The assertions hold wherever a kill lands, so a
kill that lands a little early or late cannot make a test flake; the test only loses
strength, and it prints where each kill landed.
"""
import contextlib
import http.server
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
import unittest

from fake_inventory import FakeInventory
from fakes.background_server import BackgroundServer
from harness import BIN_DIR, SOURCE_DIR, Daemon, DaemonTestCase, wait_until
from portfolio_fixture import INI as PORTFOLIO_INI
from portfolio_fixture import UNLIMITED, make_daemon, next_platform_id, sign_in

CATALOG = os.path.join(SOURCE_DIR, "share", "catalog", "items.jsonl")
SOURCES = ("a", "b", "c")  # three json_http instances: one cycle = 3 x the catalogue
ITEM_A = "AK-47 | Redline (Field-Tested)"
ITEM_B = "Recoil Case"
ITEM_C = "★ Karambit | Doppler (Factory New)"


def catalogue_names():
    """The base items' names (a variant line repeats its base's name)."""
    with open(CATALOG, encoding="utf-8") as f:
        entries = [json.loads(line) for line in f if line.strip()]
    return [e["market_hash_name"] for e in entries if "variant" not in e]


def wchar(pid):
    """Bytes the process has passed to write(2) so far, or None once it is gone."""
    try:
        with open("/proc/%d/io" % pid, encoding="ascii") as f:
            for line in f:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return None


def wait_for_writes(pid, baseline, threshold, timeout):
    """Polls wchar every millisecond until it exceeds baseline + threshold; True if so."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = wchar(pid)
        if now is None:
            return False
        if now - baseline > threshold:
            return True
        time.sleep(0.001)
    return False


def kill9(proc):
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    return proc.returncode


def query(workdir, sql, *args):
    path = os.path.join(workdir, "skinpulse.db")
    with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
        return db.execute(sql, args).fetchall()


class CatalogueFeed(BackgroundServer):
    """json_http rows for every catalogue name at /feed/<source>. Each answer has its own
    `time` (a sequence number past a base), so every stored (source, time) group is one
    answer and must hold exactly one row per name. A source in `stall` gets nine tenths
    of its body and then nothing until `release` is set (a slow source holding the
    cycle open); `sent[source]` is when its last body was fully written."""

    def __init__(self, names):
        self.names = names
        self.lock = threading.Lock()
        self.base = int(time.time()) - 3600
        self.seq = 0
        self.sent = {}
        self.generation = 0
        self.stall = set()
        self.release = threading.Event()
        self.stalled = set()  # sources whose answer is waiting for `release`
        self.listen(self._handler())

    def url(self, source):
        return "http://127.0.0.1:%d/feed/%s" % (self.port, source)

    def reset(self):
        """Forgets earlier answers: one still being written (to a killed daemon) no longer
        counts as sent."""
        with self.lock:
            self.generation += 1
            self.sent.clear()
            self.stalled.clear()

    def stop(self):
        self.release.set()
        super().stop()

    def all_sent(self, sources=SOURCES):
        with self.lock:
            return all(s in self.sent for s in sources)

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                source = self.path.rsplit("/", 1)[-1]
                with fake.lock:
                    fake.seq += 1
                    seq = fake.seq
                    stall = source in fake.stall
                    generation = fake.generation
                rows = [{"market_hash_name": name, "price": 100 + (i * 7 + seq) % 90000,
                         "volume": 1, "time": fake.base + seq}
                        for i, name in enumerate(fake.names)]
                body = json.dumps(rows, ensure_ascii=False).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    if stall:
                        cut = len(body) * 9 // 10
                        self.wfile.write(body[:cut])
                        self.wfile.flush()
                        with fake.lock:
                            fake.stalled.add(source)
                        fake.release.wait(120)
                        body = body[cut:]
                    self.wfile.write(body)
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    return  # the daemon was killed while reading
                with fake.lock:
                    if generation == fake.generation:
                        fake.sent[source] = time.monotonic()

        return Handler


class CycleCrashTest(DaemonTestCase):
    """Kills during the cycle of three full-catalogue sources (~103,500 points in one
    transaction)."""

    @classmethod
    def setUpClass(cls):
        cls.names = catalogue_names()

    def setUp(self):
        super().setUp()
        self.feed = CatalogueFeed(self.names).start()
        self.daemons = []

    def tearDown(self):
        for daemon in self.daemons:
            daemon.stop()
        self.feed.stop()
        super().tearDown()

    def ini(self):
        return "".join(
            "[source.%s]\nplugin = json_http\ninterval_seconds = 3600\ntimeout_seconds = 120\n"
            "url = %s\n\n" % (s, self.feed.url(s)) for s in SOURCES)

    def start(self):
        self.feed.reset()
        daemon = Daemon(self.workdir, ini=self.ini())
        self.daemons.append(daemon)
        return daemon.start(timeout=120)

    def stored_line(self, daemon):
        """The report of the stored cycle: one line per source, written one after another
        once the cycle's transaction committed (waiting for the first alone raced the
        kill against the other two lines)."""
        lines = list(daemon.stderr_lines)
        found = [next((line for line in lines
                       if "source '%s':" % source in line and "observation(s)" in line), None)
                 for source in SOURCES]
        return found[-1] if all(found) else None

    def groups(self):
        """{source: [rows of each stored answer]} straight from the file."""
        found = {s: [] for s in SOURCES}
        for source, _, count in query(self.workdir,
                                      "SELECT source, time, COUNT(*) FROM price_points "
                                      "GROUP BY source, time ORDER BY source, time"):
            found[source].append(count)
        return found

    def assertWholeCycles(self, per_answer, context):
        """Every stored answer complete, every source in as many cycles: returns cycles."""
        groups = self.groups()
        cycles = len(groups["a"])
        for source in SOURCES:
            self.assertEqual(groups[source], [per_answer] * cycles,
                             "partial cycle visible after %s: %s" % (context, groups))
        return cycles

    def accepted(self, daemon):
        """The accepted count each source logged for its stored cycle."""
        counts = {}
        for source in SOURCES:
            line = next(line for line in daemon.stderr_lines
                        if "source '%s':" % source in line and "observation(s)" in line)
            counts[source] = int(line.split("observation(s), ")[1].split(" accepted")[0])
        return counts

    def test_a_stored_cycle_survives_kill_9_at_once(self):
        daemon = self.start()
        started = time.monotonic()
        self.assertTrue(wait_until(lambda: self.stored_line(daemon), timeout=90, every=0.002),
                        daemon.stderr())
        kill9(daemon.proc)  # the moment the cycle is reported stored
        seen = time.monotonic()
        daemon.stop()
        sent = max(self.feed.sent.values())
        print("\ncycle: fetch %.2f s, parse+store %.2f s after the last body"
              % (sent - started, seen - sent))
        accepted = self.accepted(daemon)
        self.assertEqual(set(accepted.values()), {len(self.names)}, accepted)
        self.assertEqual(self.assertWholeCycles(len(self.names), "kill after the store"), 1)
        self.assertEqual(query(self.workdir, "SELECT COUNT(*) FROM price_points")[0][0],
                         3 * len(self.names))

        # Restarted, the daemon serves what was stored (its caches are rebuilt from the
        # file) and polls again: a second whole cycle, both in the item's history.
        daemon = self.start()
        item = next(i for i in daemon.get("/api/v1/items?q=Recoil%20Case").json()
                    if i["market_hash_name"] == ITEM_B)
        self.assertIsNotNone(daemon.get("/api/v1/items/%d" % item["id"]).json()
                             ["current_price"])
        self.assertTrue(wait_until(lambda: self.stored_line(daemon), timeout=90))
        for source in SOURCES:
            history = daemon.get("/api/v1/items/%d/history?source=%s"
                                 % (item["id"], source)).json()
            self.assertEqual(len(history), 2, history)
        daemon.stop()
        self.assertEqual(self.assertWholeCycles(len(self.names), "a clean restart"), 2)

    def test_kill_9_inside_a_cycle_leaves_all_or_nothing(self):
        full = len(self.names)
        outcomes = []

        # 1. Sources a and b are in, c has sent most of its body and stalls: the cycle is
        # open and nothing of a or b may be in the database (one transaction per cycle,
        # not per source).
        self.feed.stall.add("c")
        daemon = self.start()
        self.assertTrue(wait_until(lambda: self.feed.all_sent(("a", "b"))
                                   and "c" in self.feed.stalled, timeout=90, every=0.01),
                        daemon.stderr())
        time.sleep(0.5)  # a and b parsed, waiting for c
        kill9(daemon.proc)
        daemon.stop()
        self.assertIsNone(self.stored_line(daemon))
        self.assertEqual(self.assertWholeCycles(full, "a kill while c stalled"), 0)
        self.feed.stall.clear()
        self.feed.release.set()

        # 2. Every body sent; killed when the daemon has written the first megabyte of the
        # cycle's pages, then a little later each time (delays after that point).
        before = 0
        for delay in (0.0, 0.0, 0.0, 0.05, 0.15, 0.3, 0.6):
            daemon = self.start()
            self.assertTrue(wait_until(self.feed.all_sent, timeout=90, every=0.002),
                            daemon.stderr())
            baseline = wchar(daemon.proc.pid)
            writing = wait_for_writes(daemon.proc.pid, baseline, 1 << 20, timeout=60)
            time.sleep(delay)
            kill9(daemon.proc)
            daemon.stop()
            stored = self.stored_line(daemon) is not None
            cycles = self.assertWholeCycles(full, "a kill %.2f s into the store" % delay)
            outcomes.append((delay, writing, stored, cycles))
            # Earlier cycles are all still there; this one is in or out, and in for sure
            # if the daemon got as far as logging it.
            self.assertIn(cycles, (before + 1,) if stored else (before, before + 1), outcomes)
            before = cycles
        print("\nkills (delay after the first MiB written, writes seen, logged as stored, "
              "whole cycles on disk):", outcomes)

        # The kills at the first megabyte land inside the transaction: at least one of
        # them left the database without its cycle (else this test proved little).
        self.assertTrue(all(writing for _, writing, _, _ in outcomes), outcomes)
        self.assertLess(before, len(outcomes), outcomes)

        # 3. A clean restart stores the next cycle whole and serves it.
        daemon = self.start()
        self.assertTrue(wait_until(lambda: self.stored_line(daemon), timeout=90),
                        daemon.stderr())
        self.assertEqual(self.assertWholeCycles(full, "the final cycle"), before + 1)
        item = next(i for i in daemon.get("/api/v1/items?q=Recoil%20Case").json()
                    if i["market_hash_name"] == ITEM_B)
        history = daemon.get("/api/v1/items/%d/history?source=b" % item["id"]).json()
        self.assertEqual(len(history), before + 1, history)


class BackfillCrashTest(DaemonTestCase):
    """skinpulsectl backfill of 100,000 lines, killed inside its one transaction."""

    LINES = 100_000

    def write_file(self, names):
        path = os.path.join(self.workdir, "history.jsonl")
        base = int(time.time()) - 30 * 86400
        with open(path, "w", encoding="utf-8") as f:
            for i in range(self.LINES):
                f.write(json.dumps({
                    "market_hash_name": names[i % len(names)], "source": "archive",
                    "time": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                          time.gmtime(base + (i // len(names)) * 3600)),
                    "price": 100 + i % 5000, "volume": 1}, ensure_ascii=False) + "\n")
        return path

    def backfill(self, daemon, path):
        return subprocess.Popen(
            [os.path.join(BIN_DIR, "skinpulsectl"), "backfill", "--config", daemon.config,
             "--file", path], env=daemon.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)

    def points(self):
        return query(self.workdir, "SELECT COUNT(*) FROM price_points")[0][0]

    def revision(self):
        rows = query(self.workdir, "SELECT value FROM kv WHERE key = 'prices.backfill_revision'")
        return rows[0][0] if rows else None

    def test_killed_backfill_is_all_or_nothing_and_a_rerun_completes(self):
        names = catalogue_names()
        path = self.write_file(names)
        with Daemon(self.workdir) as daemon:
            item = next(i for i in daemon.get("/api/v1/items?q=Recoil%20Case").json()
                        if i["market_hash_name"] == ITEM_B)
            outcomes = []
            for delay in (0.0, 0.0, 0.1, 0.3):
                tool = self.backfill(daemon, path)
                baseline = wchar(tool.pid) or 0
                writing = wait_for_writes(tool.pid, baseline, 1 << 20, timeout=60)
                time.sleep(delay)
                code = kill9(tool)
                tool.communicate()
                count = self.points()
                outcomes.append((delay, writing, code, count))
                # All or nothing, and the revision the daemon watches moves with the
                # points: never points without it, never it without points.
                self.assertIn(count, (0, self.LINES), outcomes)
                if code == 0:  # it finished before the kill: then everything is in
                    self.assertEqual(count, self.LINES, outcomes)
                self.assertEqual(self.revision() is not None, count > 0, outcomes)
                if count:
                    break
            print("\nbackfill kills (delay after the first MiB written, writes seen, "
                  "exit code, points on disk):", outcomes)
            self.assertEqual(outcomes[0][3], 0, "the first kill lands inside the "
                             "transaction: %s" % outcomes)
            self.assertEqual(outcomes[0][2], -signal.SIGKILL)
            if not outcomes[-1][3]:
                # The daemon, running all along, has nothing of the killed runs.
                self.assertIsNone(daemon.get("/api/v1/items/%d" % item["id"]).json()
                                  ["current_price"])

            # Re-run to the end: every line is in exactly once, and the daemon picks it up.
            tool = self.backfill(daemon, path)
            out, err = tool.communicate(timeout=120)
            self.assertEqual(tool.returncode, 0, out + err)
            self.assertEqual(self.points(), self.LINES)
            newest = max(i for i in range(self.LINES) if names[i % len(names)] == ITEM_B)
            self.assertTrue(wait_until(
                lambda: daemon.get("/api/v1/items/%d" % item["id"]).json()["current_price"]
                == 100 + newest % 5000, timeout=30), daemon.stderr())
            self.assertEqual(daemon.proc.poll(), None)


class ImportCrashTest(DaemonTestCase):
    """The daemon killed while an import holds the user's lock."""

    TIMEOUT = 2  # inventory_timeout_seconds: the lock is held 50 x 2 + 60 = 160 s
    HOLD_MS = (50 * TIMEOUT + 60) * 1000

    def setUp(self):
        super().setUp()
        self.fake = FakeInventory().start()
        self.daemons = []

    def tearDown(self):
        for daemon in self.daemons:
            daemon.stop()
        self.fake.stop()
        super().tearDown()

    def start(self):
        # test_portfolio's daemon: scripted sign-in, unlimited platform budget and
        # inventory_timeout_seconds = 2 (TIMEOUT); here with a 1 s cooldown.
        self.assertIn("inventory_timeout_seconds = %d\n" % self.TIMEOUT, PORTFOLIO_INI)
        daemon = make_daemon(self.workdir, self.fake, budget=UNLIMITED,
                             IMPORT_COOLDOWN_SECONDS="1", INVENTORY_MAX_BYTES=str(4 << 20))
        self.daemons.append(daemon)
        return daemon.start()

    def holdings(self):
        return query(self.workdir, "SELECT user_id, item_id, quantity, imported_at "
                                   "FROM holdings ORDER BY user_id, item_id")

    def lock_rows(self, user_id, platform_id):
        # One lock per linked account of a user (docs/api.md §23.2).
        return query(self.workdir, "SELECT key, value, expires_at FROM kv WHERE key = ?",
                     "portfolio:import:%s:%s" % (user_id, platform_id))

    def test_kill_9_while_an_import_holds_the_lock(self):
        daemon = self.start()
        user = sign_in(daemon, platform_id=next_platform_id())
        other = sign_in(daemon, platform_id=next_platform_id())
        for who in (user, other):
            self.fake.pages(who.platform_id, [[(ITEM_A, 1), (ITEM_B, 4)], [(ITEM_C, 1)]])
            self.assertEqual(who.import_().json()["imported_assets"], 6)
        before = self.holdings()
        self.assertEqual(len(before), 6)
        shown = user.portfolio().json()
        user_id = shown["user_id"]
        time.sleep(1.2)  # the 1 s cooldown passes: the next import takes the lock

        # The second import stalls on its first page; killed while it waits.
        self.fake.slow(user.platform_id, 30)
        asked = len(self.fake.requests_for(user.platform_id))

        def doomed():
            with contextlib.suppress(Exception):  # the connection dies with the daemon
                user.import_()

        pending = threading.Thread(target=doomed)
        pending.start()
        self.assertTrue(wait_until(lambda: len(self.fake.requests_for(user.platform_id))
                                   > asked, timeout=10, every=0.005))
        killed_ms = int(time.time() * 1000)
        kill9(daemon.proc)
        daemon.stop()
        pending.join(10)

        # On disk: holdings untouched; the lock still held, with the lock's TTL.
        self.assertEqual(self.holdings(), before)
        locks = self.lock_rows(user_id, user.platform_id)
        self.assertEqual(len(locks), 1, locks)
        key, value, expires_at = locks[0]
        self.assertTrue(value.startswith("running:"), value)
        self.assertIsNotNone(expires_at, "a lock without expiry would be stuck for good")
        self.assertLessEqual(abs(expires_at - (killed_ms + self.HOLD_MS)), 5000,
                             (expires_at, killed_ms))

        # Restarted: the portfolio reads as before; an import at once is refused (the
        # dead import's lock still stands, it is not silently dropped either).
        daemon = self.start()
        user.daemon = other.daemon = daemon
        self.assertEqual(user.portfolio().json(), shown)
        self.assertEqual(len(other.portfolio().json()["holdings"]), 3)
        self.fake.pages(user.platform_id, [[(ITEM_B, 9)]], first_assetid=100)
        refused = user.import_()
        self.assertEqual(refused.status, 429, refused.body)
        self.assertEqual(refused.json()["code"], "import_cooldown")
        self.assertIsNotNone(refused.header("retry-after"))
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), asked + 1)
        self.assertEqual(self.holdings(), before)

        # The TTL passes. Waiting 160 s (the shortest hold the configuration allows is
        # 50 x 1 + 60 = 110 s) would dominate the suite, so the test moves the lock's
        # expiry instead: to 3 s from now, where the import is still refused (the daemon
        # keeps to the stored expiry), then to just past, the state the clock reaches by
        # itself at expires_at. SKINPULSE_CRASH_REAL_TTL=1 waits for the real expiry.
        def expire_in(ms):
            with contextlib.closing(sqlite3.connect(os.path.join(self.workdir, "skinpulse.db"),
                                                    timeout=30)) as db:
                with db:
                    db.execute("UPDATE kv SET expires_at = ? WHERE key = ?",
                               (int(time.time() * 1000) + ms, key))

        if os.environ.get("SKINPULSE_CRASH_REAL_TTL") == "1":
            time.sleep(max(0, expires_at / 1000 - time.time()) + 1)
        else:
            expire_in(3000)
            self.assertEqual(user.import_().status, 429)
            expire_in(-1)
        done = user.import_()
        self.assertEqual(done.status, 200, done.body)
        self.assertEqual(done.json()["imported_assets"], 9)
        self.assertEqual([(h["market_hash_name"], h["quantity"])
                          for h in user.portfolio().json()["holdings"]], [(ITEM_B, 9)])
        # The other user's holdings never moved.
        self.assertEqual([r for r in self.holdings() if r[0] != user_id],
                         [r for r in before if r[0] != user_id])
        self.assertEqual(daemon.proc.poll(), None)

    def test_kill_9_inside_the_holdings_write(self):
        """30,000 holdings replaced by 30,000 others (4,500 deleted, 25,500 updated): killed
        once the daemon writes that transaction, the user holds the old set or the new
        one, never a mix, and the lock is the dead import's, with its TTL."""
        names = catalogue_names()
        old = [(name, 1) for name in names[:30000]]
        new = [(name, 2) for name in names[4500:34500]]
        pages = lambda stacks: [stacks[i:i + 1000] for i in range(0, len(stacks), 1000)]
        daemon = self.start()
        user = sign_in(daemon, platform_id=next_platform_id())
        self.fake.pages(user.platform_id, pages(old))
        first = user.import_()
        self.assertEqual(first.status, 200, first.body)
        self.assertEqual(first.json()["imported_assets"], 30000)
        user_id = user.portfolio().json()["user_id"]
        old_rows = self.holdings()
        old_meta = query(self.workdir, "SELECT * FROM import_metadata")
        self.assertEqual(len(old_rows), 30000)
        time.sleep(1.2)  # past the 1 s cooldown

        self.fake.pages(user.platform_id, pages(new), first_assetid=100000)
        asked = len(self.fake.requests_for(user.platform_id))

        def doomed():
            with contextlib.suppress(Exception):
                user.import_()

        pending = threading.Thread(target=doomed)
        pending.start()
        self.assertTrue(wait_until(lambda: len(self.fake.requests_for(user.platform_id))
                                   >= asked + 30, timeout=30, every=0.002))
        baseline = wchar(daemon.proc.pid)
        writing = wait_for_writes(daemon.proc.pid, baseline, 64 << 10, timeout=30)
        killed_ms = int(time.time() * 1000)
        kill9(daemon.proc)
        daemon.stop()
        pending.join(10)

        rows = self.holdings()
        quantities = sorted({q for _, _, q, _ in rows})
        print("\nholdings after a kill in the write (writes seen %s): %d rows, quantities %s"
              % (writing, len(rows), quantities))
        if quantities == [1]:
            self.assertEqual(rows, old_rows)
            self.assertEqual(query(self.workdir, "SELECT * FROM import_metadata"), old_meta)
            _, value, expires_at = self.lock_rows(user_id, user.platform_id)[0]
            self.assertTrue(value.startswith("running:"), value)
            self.assertLessEqual(expires_at, killed_ms + self.HOLD_MS)
        else:
            self.assertEqual(quantities, [2], "a mix of the old and new holdings")
            self.assertEqual(sorted(r[1] for r in rows),
                             sorted(self.item_ids(names[4500:34500])))
            self.assertEqual(len({r[3] for r in rows}), 1, "one imported_at for all")
        self.assertTrue(writing, "the kill was meant to land in the write")

        daemon = self.start()
        user.daemon = daemon
        body = user.portfolio().json()
        self.assertEqual(body["item_count"], len(rows))
        self.assertEqual({h["quantity"] for h in body["holdings"]}, set(quantities))
        self.assertEqual(daemon.proc.poll(), None)

    def item_ids(self, names):
        wanted = set(names)
        return [i for i, n in query(self.workdir, "SELECT id, market_hash_name FROM items")
                if n in wanted]


if __name__ == "__main__":
    unittest.main()
