"""The history cache (docs/architecture.md, "History cache"): /history and /candles bodies
come from memory, yet a cycle's or a backfill's points are in them as soon as item detail
shows them: the cycle drops the item's cached bodies before it updates the latest prices,
and a reload from the store (a backfill) drops them all before it reloads those."""
import json
import os
import time
import urllib.parse

from harness import Daemon, DaemonTestCase, run_tool, wait_until

NAME = "AK-47 | Redline (Field-Tested)"
OTHER = "AWP | Asiimov (Field-Tested)"


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


class HistoryCacheTest(DaemonTestCase):
    def find_id(self, daemon, name):
        found = daemon.get("/api/v1/items?q=" + urllib.parse.quote(name)).json()
        return next(i["id"] for i in found if i["market_hash_name"] == name)

    def get_json(self, daemon, path):
        response = daemon.get(path)
        self.assertEqual(response.status, 200, response.body)
        return response.json()

    def newest(self, detail, source):
        times = [p["time"] for p in detail["latest_prices"] if p["source"] == source]
        return times[0] if times else None

    def test_a_cycle_reaches_the_cached_history_at_once(self):
        seed = os.path.join(self.workdir, "seed.tsv")
        with open(seed, "w", encoding="utf-8") as f:
            f.write("%s\t5000\t0.05\n" % NAME)
        ini = ("[source.sim]\nplugin = simulated\ninterval_seconds = 1\nseed_file = %s\n"
               "fraction = 1\n" % seed)
        with Daemon(self.workdir, ini=ini) as daemon:
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
