"""The history cache (docs/architecture.md, "History cache"): /history and /candles bodies
come from memory, yet a cycle's or a backfill's points are in them as soon as item detail
shows them: the cycle drops the item's cached bodies before it updates the latest prices,
and a reload from the store (a backfill) drops them all before it reloads those."""
import gzip
import json
import os
import time
import urllib.parse

from harness import Daemon, DaemonTestCase, iso, run_tool, wait_until

NAME = "AK-47 | Redline (Field-Tested)"
OTHER = "AWP | Asiimov (Field-Tested)"


class HistoryCacheTest(DaemonTestCase):
    def find_id(self, daemon, name):
        found = daemon.get("/api/v1/items?q=" + urllib.parse.quote(name)).json()
        return next(i["id"] for i in found if i["market_hash_name"] == name)

    def get_json(self, daemon, path):
        response = daemon.get(path)
        self.assertEqual(response.status, 200, response.body)
        return response.json()

    def one_item_market_every_second(self):
        """A daemon whose simulated source `sim` moves the one item NAME every second."""
        seed = os.path.join(self.workdir, "seed.tsv")
        with open(seed, "w", encoding="utf-8") as f:
            f.write("%s\t5000\t0.05\n" % NAME)
        ini = ("[source.sim]\nplugin = simulated\ninterval_seconds = 1\nseed_file = %s\n"
               "fraction = 1\n" % seed)
        return Daemon(self.workdir, ini=ini)

    def newest(self, detail, source):
        times = [p["time"] for p in detail["latest_prices"] if p["source"] == source]
        return times[0] if times else None

    def test_a_cycle_reaches_the_cached_history_at_once(self):
        with self.one_item_market_every_second() as daemon:
            item = self.find_id(daemon, NAME)
            history = "/api/v1/items/%d/history?source=sim" % item
            candles = "/api/v1/items/%d/candles?window=1h&source=sim" % item
            self.assertTrue(wait_until(lambda: self.get_json(daemon, history)), daemon.stderr())
            # For several cycles: read item detail first, then history and candles, as fast
            # as possible. Whatever point detail shows is already in the (cached) bodies.
            checked = set()
            deadline = time.time() + 6
            requests = 0
            while time.time() < deadline:
                shown = self.newest(self.get_json(daemon, "/api/v1/items/%d" % item), "sim")
                points = self.get_json(daemon, history)
                self.assertGreaterEqual(points[-1]["time"], shown, points[-3:])
                self.assertEqual(len(points), len({p["time"] for p in points}))
                # Candles are read after history: a cycle in between may add a point.
                bars = self.get_json(daemon, candles)["candles"]
                self.assertGreaterEqual(sum(b["samples"] for b in bars), len(points))
                checked.add(shown)
                requests += 1
            self.assertGreaterEqual(len(checked), 3, "fewer than 3 cycles seen")
            self.assertGreater(requests, 3 * len(checked))

    def test_encoded_bodies_are_the_identity_body_and_follow_each_cycle(self):
        """The prepared gzip body decompresses to exactly the identity body, each coding
        has its own ETag and 304, HEAD has no body, q=0 is honoured, and after a cycle
        every representation shows the new point (never a stale prepared body)."""
        with self.one_item_market_every_second() as daemon:
            item = self.find_id(daemon, NAME)
            history = "/api/v1/items/%d/history?source=sim" % item
            # Enough points that the body is compressed (prepared bodies from 1 KiB on).
            self.assertTrue(wait_until(lambda: len(daemon.get(history).body) > 2048,
                                       timeout=60), daemon.stderr())
            # Candles of 1 s buckets do not exist: a week of 1 h bars is one bar here, a
            # body under 1 KiB, sent as identity whatever the client takes.
            for path in (history, "/api/v1/items/%d/candles?window=1h&source=sim" % item):
                compressed = len(daemon.get(path).body) >= 1024
                seen = set()
                deadline = time.time() + 6
                while time.time() < deadline:
                    plain = daemon.get(path)
                    zipped = daemon.get(path, headers={"Accept-Encoding": "gzip"})
                    self.assertEqual(zipped.header("Vary"), "Accept-Encoding")
                    if not compressed:
                        self.assertIsNone(zipped.header("Content-Encoding"))
                        # The same representation has the same bytes; a cycle between the
                        # two requests (a loaded box) changes the tag and the body.
                        if zipped.header("ETag") == plain.header("ETag"):
                            self.assertEqual(zipped.body, plain.body)
                            seen.add(plain.header("ETag"))
                        again = daemon.get(path, headers={"If-None-Match": plain.header("ETag")})
                        self.assertIn(again.status, (200, 304))
                        if again.status == 304:
                            self.assertEqual(again.body, b"")
                        time.sleep(0.1)
                        continue
                    self.assertEqual(zipped.header("Content-Encoding"), "gzip")
                    self.assertEqual(zipped.header("Vary"), "Accept-Encoding")
                    self.assertNotEqual(zipped.header("ETag"), plain.header("ETag"))
                    unzipped = gzip.decompress(zipped.body)
                    if plain.header("ETag") == zipped.header("ETag").replace("-gz", ""):
                        # The same prepared body (no cycle in between): the same bytes.
                        self.assertEqual(unzipped, plain.body)
                    elif "history" in path:
                        # A cycle in between: the gzip body, read after, is the newer one.
                        self.assertGreaterEqual(json.loads(unzipped)[-1]["time"],
                                                plain.json()[-1]["time"])
                    seen.add(plain.header("ETag"))
                    # Revalidation: the tag of the representation held.
                    again = daemon.get(path, headers={"Accept-Encoding": "gzip",
                                                      "If-None-Match": zipped.header("ETag")})
                    if again.status == 200:  # a cycle stored a point in between
                        self.assertNotEqual(again.header("ETag"), zipped.header("ETag"))
                    else:
                        self.assertEqual(again.status, 304)
                        self.assertEqual(again.body, b"")
                    # q=0 refuses a coding; br when taken.
                    refused = daemon.get(path, headers={"Accept-Encoding": "gzip;q=0, br;q=0"})
                    self.assertIsNone(refused.header("Content-Encoding"))
                    json.loads(refused.body)
                    br = daemon.get(path, headers={"Accept-Encoding": "br, gzip"})
                    self.assertEqual(br.header("Content-Encoding"), "br")
                    head = daemon.request("HEAD", path, headers={"Accept-Encoding": "gzip"})
                    self.assertEqual(head.status, 200)
                    self.assertEqual(head.body, b"")
                    self.assertEqual(head.header("Content-Encoding"), "gzip")
                    time.sleep(0.1)
                if not compressed:
                    self.assertTrue(seen, "never two reads of one representation: " + path)
                    continue
                # Several cycles, each seen as a new body in every representation.
                self.assertGreaterEqual(len(seen), 3, path)
                # After the newest cycle: the gzip body holds the newest point item detail shows.
                shown = self.newest(self.get_json(daemon, "/api/v1/items/%d" % item), "sim")
                newest = json.loads(gzip.decompress(
                    daemon.get(path, headers={"Accept-Encoding": "gzip"}).body))
                if isinstance(newest, dict):
                    self.assertTrue(newest["candles"])
                else:
                    self.assertGreaterEqual(newest[-1]["time"], shown)

    def test_a_backfill_reaches_the_cached_history_at_once(self):
        now = int(time.time())
        with Daemon(self.workdir) as daemon:
            item = self.find_id(daemon, NAME)
            other = self.find_id(daemon, OTHER)
            paths = ["/api/v1/items/%d/history" % item,
                     "/api/v1/items/%d/history?window=7d" % item,
                     "/api/v1/items/%d/history?source=archive" % item]
            # Cache the empty bodies (twice: the second is a hit).
            for _ in range(2):
                for path in paths:
                    self.assertEqual(self.get_json(daemon, path), [])
            self.assertEqual(self.get_json(daemon, "/api/v1/items/%d/history" % other), [])

            lines = [{"market_hash_name": NAME, "source": "archive", "time": iso(now - 7200 - i),
                      "price": 9000 + i, "volume": 1} for i in range(3)]
            lines.append({"market_hash_name": NAME, "source": "archive", "time": iso(now - 600),
                          "price": 9100, "volume": 2})
            path = os.path.join(self.workdir, "backfill.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                f.write("".join(json.dumps(line) + "\n" for line in lines))
            result = run_tool("skinpulsectl", "backfill", "--config", daemon.config, "--file",
                              path, env=daemon.env)
            self.assertEqual(result.returncode, 0, result.stderr + result.stdout)

            # Once item detail shows the backfill (the daemon reloaded), history does too,
            # with no further wait.
            self.assertTrue(wait_until(lambda: self.get_json(
                daemon, "/api/v1/items/%d" % item)["current_price"] == 9100, timeout=20))
            for path in paths:
                points = self.get_json(daemon, path)
                self.assertEqual([p["price"] for p in points], [9002, 9001, 9000, 9100], path)
            candles = self.get_json(daemon, "/api/v1/items/%d/candles?window=24h" % item)
            self.assertEqual(candles["source"], "archive")
            self.assertEqual(sum(b["samples"] for b in candles["candles"]), 4)
