"""Cross-market truth over HTTP (docs/api.md §13): freshness, consensus and spread in item
detail, GET /api/v1/sources, outliers and the spread ranking. Exact points are set up with
`skinpulsectl backfill` into a running daemon; one polled source (its upstream down, so
only backfilled points of it exist) has a 60 s interval, hence a 180 s freshness limit."""
import json
import os
import time
import urllib.parse

from harness import Daemon, DaemonTestCase, run_tool, wait_until

REDLINE = "AK-47 | Redline (Field-Tested)"
ASIIMOV = "AWP | Asiimov (Field-Tested)"
VULCAN = "AK-47 | Vulcan (Field-Tested)"
CASE = "Dreams & Nightmares Case"
KNIFE = "★ Karambit | Doppler (Factory New)"

INI = (
    "[source.poll]\nplugin = skinport\ninterval_seconds = 60\nurl = http://127.0.0.1:9/\n"
    "fee_percent = 2.5\n\n"
    "[source.off]\nplugin = skinport\nenabled = false\nfee_percent = 12\n\n"
    "[source.dear]\nplugin = skinport\nenabled = false\nfee_percent = 10\n"
)


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def point(name, source, ago, price, kind="ask", now=None):
    return {"market_hash_name": name, "source": source, "time": iso(now - ago), "price": price,
            "volume": 1, "kind": kind}


class QualityTest(DaemonTestCase):
    def backfill(self, daemon, lines):
        path = os.path.join(self.workdir, "lines-%d.jsonl" % time.monotonic_ns())
        with open(path, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")
        result = run_tool("skinpulsectl", "backfill", "--config", daemon.config, "--file", path,
                          env=daemon.env)
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)

    def item_id(self, daemon, name):
        found = daemon.get("/api/v1/items?limit=500&q=" + urllib.parse.quote(name)).json()
        return next(i["id"] for i in found if i["market_hash_name"] == name)

    def detail(self, daemon, item_id):
        response = daemon.get("/api/v1/items/%d" % item_id)
        self.assertEqual(response.status, 200, response.body)
        return response.json()

    def wait_sources(self, daemon, item_id, count):
        body = wait_until(lambda: (lambda b: b if len(b["latest_prices"]) == count else None)(
            self.detail(daemon, item_id)), timeout=20)
        self.assertTrue(body, daemon.stderr())
        return body

    def test_freshness_consensus_spread_and_sources(self):
        now = int(time.time())
        with Daemon(self.workdir, ini=INI) as daemon:
            redline = self.item_id(daemon, REDLINE)
            asiimov = self.item_id(daemon, ASIIMOV)
            case = self.item_id(daemon, CASE)
            vulcan = self.item_id(daemon, VULCAN)
            self.backfill(daemon, [
                # Redline: three fresh asks, a fresh bid, a stale ask (26 h, unpolled).
                point(REDLINE, "poll", 100, 1000, now=now),
                point(REDLINE, "arch1", 3600, 1100, now=now),
                point(REDLINE, "arch2", 600, 1300, now=now),
                point(REDLINE, "arch3", 60, 900, "bid", now=now),
                point(REDLINE, "old", 26 * 3600, 5000, now=now),
                # Asiimov: an even count of asks, the lower middle; poll is stale (> 180 s).
                point(ASIIMOV, "arch1", 60, 9000, now=now),
                point(ASIIMOV, "arch2", 60, 12600, now=now),
                point(ASIIMOV, "poll", 200, 10000, now=now),
                # The case: no ask at all, so every kind counts.
                point(CASE, "arch1", 60, 200, "sale", now=now),
                point(CASE, "arch2", 60, 250, "bid", now=now),
                # Vulcan: only stale prices.
                point(VULCAN, "old", 25 * 3600, 4000, now=now),
            ])
            body = self.wait_sources(daemon, redline, 5)
            self.assertEqual(body["consensus_price"], 1100)
            self.assertEqual(body["spread_percent"], 30.0)
            stale = {p["source"]: p["stale"] for p in body["latest_prices"]}
            self.assertEqual(stale, {"poll": False, "arch1": False, "arch2": False,
                                     "arch3": False, "old": True})
            self.assertTrue(all(p["outlier"] is False for p in body["latest_prices"]))
            # current_price keeps its own rule (§3.1): the newest point of any source here.
            self.assertEqual(body["current_price"], 900)

            body = self.wait_sources(daemon, asiimov, 3)
            self.assertEqual(body["consensus_price"], 9000)
            self.assertEqual(body["spread_percent"], 40.0)
            self.assertTrue(next(p for p in body["latest_prices"] if p["source"] == "poll")["stale"])

            body = self.wait_sources(daemon, case, 2)
            self.assertEqual(body["consensus_price"], 200)
            self.assertEqual(body["spread_percent"], 25.0)

            body = self.wait_sources(daemon, vulcan, 1)
            self.assertIsNone(body["consensus_price"])
            self.assertIsNone(body["spread_percent"])
            self.assertTrue(body["latest_prices"][0]["stale"])

            response = daemon.get("/api/v1/sources")
            self.assertEqual(response.status, 200, response.body)
            self.assertSecurityHeaders(response)
            sources = {s["name"]: s for s in response.json()}
            self.assertEqual([s["name"] for s in response.json()][:3], ["poll", "off", "dear"])
            poll = sources["poll"]
            self.assertEqual((poll["plugin"], poll["kind"], poll["enabled"],
                              poll["interval_seconds"], poll["last_success"]),
                             ("skinport", "ask", True, 60, None))
            self.assertTrue(poll["fresh"])            # its newest point is 100 s old
            self.assertEqual(poll["items_priced"], 1)  # Redline; Asiimov's is stale
            self.assertEqual(poll["fee_percent"], 2.5)
            self.assertEqual(poll["outliers"], 0)
            self.assertFalse(sources["off"]["enabled"])
            self.assertFalse(sources["off"]["fresh"])
            self.assertEqual(sources["off"]["items_priced"], 0)
            self.assertEqual(sources["arch1"]["items_priced"], 3)
            self.assertIsNone(sources["arch1"]["plugin"])
            self.assertIsNone(sources["arch1"]["interval_seconds"])
            self.assertFalse(sources["old"]["fresh"])
            self.assertEqual(sources["old"]["items_priced"], 0)
            for source in response.json():
                self.assertEqual(set(source), {"name", "plugin", "kind", "enabled",
                                               "interval_seconds", "last_success", "fresh",
                                               "items_priced", "outliers", "fee_percent"})
                self.assertNotIn("last_error", source)

            # /readyz says per polled source whether its last success is fresh.
            ready = daemon.get("/readyz").json()
            self.assertEqual([(s["name"], s["fresh"]) for s in ready["sources"]],
                             [("poll", False)])
