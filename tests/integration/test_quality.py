"""Cross-market truth over HTTP (docs/api.md §12): freshness, consensus and spread in item
detail, GET /api/v1/sources, outliers and the spread ranking. Exact points are set up with
`skinpulsectl backfill` into a running daemon; one polled source (its upstream down, so
only backfilled points of it exist) has a 60 s interval, hence a 180 s freshness limit."""
import json
import os
import time
import urllib.parse

from harness import Daemon, DaemonTestCase, iso, run_tool, wait_until

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
                                               "items_priced", "outliers", "fee_percent",
                                               "failing", "consecutive_failures"})
                self.assertNotIn("last_error", source)

            # /readyz says per polled source whether its last success is fresh.
            ready = daemon.admin_get("/readyz").json()
            self.assertEqual([(s["name"], s["fresh"]) for s in ready["sources"]],
                             [("poll", False)])


class OutlierTest(DaemonTestCase):
    backfill = QualityTest.backfill
    item_id = QualityTest.item_id
    detail = QualityTest.detail

    def history(self, daemon, item_id, source):
        return daemon.get("/api/v1/items/%d/history?source=%s" % (item_id, source)).json()

    def flags(self, daemon, item_id, source):
        return [(p["price"], p["outlier"]) for p in self.history(daemon, item_id, source)]

    def wait_history(self, daemon, item_id, source, count):
        found = wait_until(lambda: (lambda h: h if len(h) == count else None)(
            self.history(daemon, item_id, source)), timeout=20)
        self.assertTrue(found, daemon.stderr())
        return found

    def test_spikes_are_flagged_kept_and_left_out(self):
        now = int(time.time())
        with Daemon(self.workdir, ini=INI) as daemon:
            redline = self.item_id(daemon, REDLINE)
            asiimov = self.item_id(daemon, ASIIMOV)
            vulcan = self.item_id(daemon, VULCAN)
            self.backfill(daemon, [
                # Two sources: an 18-cent print between steady asks is flagged; the next
                # point (1000) does not confirm it.
                point(REDLINE, "arch1", 3000, 1000, now=now),
                point(REDLINE, "arch1", 2400, 1010, now=now),
                point(REDLINE, "arch1", 1800, 18, now=now),
                point(REDLINE, "arch1", 1200, 1005, now=now),
                point(REDLINE, "arch1", 600, 1000, now=now),
                point(REDLINE, "arch2", 600, 1100, now=now),
                # One source: a jump to 3500, confirmed later by a second backfill.
                point(ASIIMOV, "arch1", 3000, 1000, now=now),
                point(ASIIMOV, "arch1", 2700, 1010, now=now),
                point(ASIIMOV, "arch1", 2400, 3500, now=now),
                # Three fresh sources, one of them with a $50 print on a $10 item.
                point(VULCAN, "arch1", 700, 1000, now=now),
                point(VULCAN, "arch2", 650, 1100, now=now),
                point(VULCAN, "arch3", 600, 5000, now=now),
            ])
            self.wait_history(daemon, redline, "arch1", 5)
            self.assertEqual(self.flags(daemon, redline, "arch1"),
                             [(1000, False), (1010, False), (18, True), (1005, False),
                              (1000, False)])
            self.assertEqual(self.flags(daemon, asiimov, "arch1"),
                             [(1000, False), (1010, False), (3500, True)])
            self.assertEqual(self.flags(daemon, vulcan, "arch3"), [(5000, True)])

            # Left out of the metrics: 4 samples, and a spread that 18 cents would blow up.
            vol = wait_until(lambda: (lambda v: v if v["samples"] else None)(
                daemon.get("/api/v1/items/%d/volatility?window=1h" % redline).json()))
            self.assertEqual((vol["source"], vol["samples"]), ("arch1", 4), vol)
            self.assertLess(vol["rolling_stddev"], 10)
            candles = daemon.get("/api/v1/items/%d/candles?window=1h&source=arch1"
                                 % redline).json()["candles"]
            self.assertEqual(sum(c["samples"] for c in candles), 4)
            self.assertGreaterEqual(min(c["low"] for c in candles), 1000)
            ranked = daemon.get("/api/v1/rankings/volatile?window=1h&limit=100").json()
            row = next(r for r in ranked if r["item_id"] == redline)
            self.assertLess(row["volatility_score"], 1.0)
            # Asiimov's newest point (3500) is flagged: its ranking price is the trusted 1010.
            asiimov_row = next(r for r in ranked if r["item_id"] == asiimov)
            self.assertEqual(asiimov_row["current_price"], 1010)

            # Left out of the consensus; flagged in item detail and counted per source.
            body = QualityTest.wait_sources(self, daemon, vulcan, 3)
            self.assertEqual(body["consensus_price"], 1000)
            self.assertEqual(body["spread_percent"], 10.0)
            self.assertTrue(next(p for p in body["latest_prices"]
                                 if p["source"] == "arch3")["outlier"])
            sources = {s["name"]: s for s in daemon.get("/api/v1/sources").json()}
            self.assertEqual(sources["arch3"]["outliers"], 1)
            self.assertEqual(sources["arch1"]["outliers"], 1)  # Asiimov's 3500, so far

            # The next point confirms the jump: 3500 is a level, not a spike.
            self.backfill(daemon, [point(ASIIMOV, "arch1", 1800, 3400, now=now)])
            self.wait_history(daemon, asiimov, "arch1", 4)
            self.assertEqual(self.flags(daemon, asiimov, "arch1"),
                             [(1000, False), (1010, False), (3500, False), (3400, False)])
            vol = wait_until(lambda: (lambda v: v if v["samples"] == 4 else None)(
                daemon.get("/api/v1/items/%d/volatility?window=1h" % asiimov).json()))
            self.assertTrue(vol)
            before = {name: self.detail(daemon, i) for name, i in
                      (("redline", redline), ("asiimov", asiimov), ("vulcan", vulcan))}
            volatility = daemon.get("/api/v1/items/%d/volatility?window=1h" % redline).json()

        # A rebuild from the store gives the same flags, consensus and metrics.
        with Daemon(self.workdir, ini=INI) as daemon:
            self.assertEqual(self.flags(daemon, redline, "arch1"),
                             [(1000, False), (1010, False), (18, True), (1005, False),
                              (1000, False)])
            self.assertEqual(self.flags(daemon, asiimov, "arch1"),
                             [(1000, False), (1010, False), (3500, False), (3400, False)])
            for name, i in (("redline", redline), ("asiimov", asiimov), ("vulcan", vulcan)):
                after = self.detail(daemon, i)
                self.assertEqual(
                    [(p["source"], p["outlier"]) for p in after["latest_prices"]],
                    [(p["source"], p["outlier"]) for p in before[name]["latest_prices"]])
                self.assertEqual(after["consensus_price"], before[name]["consensus_price"])
            again = daemon.get("/api/v1/items/%d/volatility?window=1h" % redline).json()
            self.assertEqual((again["samples"], again["rolling_stddev"]),
                             (volatility["samples"], volatility["rolling_stddev"]))

    def test_outliers_can_be_kept_in(self):
        now = int(time.time())
        ini = INI + "\n[quality]\nexclude_outliers = false\noutlier_factor = 1.5\n"
        with Daemon(self.workdir, ini=ini) as daemon:
            vulcan = self.item_id(daemon, VULCAN)
            self.backfill(daemon, [
                point(VULCAN, "arch1", 700, 1000, now=now),
                point(VULCAN, "arch2", 650, 1100, now=now),
                point(VULCAN, "arch3", 600, 2000, now=now),  # over 1.5 × 1050
            ])
            self.wait_history(daemon, vulcan, "arch3", 1)
            self.assertEqual(self.flags(daemon, vulcan, "arch3"), [(2000, True)])
            body = QualityTest.wait_sources(self, daemon, vulcan, 3)
            self.assertEqual(body["consensus_price"], 1100)  # flagged, but counted


class SpreadRankingTest(DaemonTestCase):
    backfill = QualityTest.backfill
    item_id = QualityTest.item_id
    wait_sources = QualityTest.wait_sources
    detail = QualityTest.detail

    def test_best_gaps_net_of_fees(self):
        now = int(time.time())
        with Daemon(self.workdir, ini=INI) as daemon:
            ids = {name: self.item_id(daemon, name) for name in (REDLINE, ASIIMOV, VULCAN, CASE)}
            self.backfill(daemon, [
                # Redline: buy at poll's 1000; dear's 1500 nets 1350 after its 10 % fee,
                # arch1's 1400 sale nets 1400: sell at arch1.
                point(REDLINE, "poll", 100, 1000, now=now),
                point(REDLINE, "dear", 90, 1500, now=now),
                point(REDLINE, "arch1", 80, 1400, "sale", now=now),
                # Asiimov: off's 12000 bid nets 10560 after 12 %.
                point(ASIIMOV, "arch1", 100, 9000, now=now),
                point(ASIIMOV, "off", 90, 12000, "bid", now=now),
                point(ASIIMOV, "arch2", 80, 9500, now=now),
                # Vulcan: the cheap ask is stale (25 h): it cannot be bought.
                point(VULCAN, "arch1", 25 * 3600, 2000, now=now),
                point(VULCAN, "arch2", 100, 4100, now=now),
                point(VULCAN, "arch3", 90, 4200, now=now),
                # The case: one market only.
                point(CASE, "arch1", 100, 250, now=now),
            ])
            self.wait_sources(daemon, ids[VULCAN], 3)
            self.wait_sources(daemon, ids[CASE], 1)
            response = daemon.get("/api/v1/rankings/spread")
            self.assertEqual(response.status, 200, response.body)
            ranked = response.json()
            self.assertEqual(ranked, [
                {"item_id": ids[REDLINE], "market_hash_name": REDLINE, "spread_percent": 40.0,
                 "buy_source": "poll", "buy_price": 1000, "sell_source": "arch1",
                 "sell_price": 1400},
                {"item_id": ids[ASIIMOV], "market_hash_name": ASIIMOV, "spread_percent": 17.33,
                 "buy_source": "arch1", "buy_price": 9000, "sell_source": "off",
                 "sell_price": 10560},
                {"item_id": ids[VULCAN], "market_hash_name": VULCAN, "spread_percent": 2.44,
                 "buy_source": "arch2", "buy_price": 4100, "sell_source": "arch3",
                 "sell_price": 4200},
            ])
            three = daemon.get("/api/v1/rankings/spread?min_sources=3").json()
            self.assertEqual([r["item_id"] for r in three], [ids[REDLINE], ids[ASIIMOV]])
            one = daemon.get("/api/v1/rankings/spread?limit=1").json()
            self.assertEqual([r["item_id"] for r in one], [ids[REDLINE]])

            for query, name in (("limit=0", "limit"), ("limit=101", "limit"),
                                ("limit=x", "limit"), ("min_sources=1", "min_sources"),
                                ("min_sources=65", "min_sources"),
                                ("min_sources=two", "min_sources")):
                problem = self.assertProblem(daemon.get("/api/v1/rankings/spread?" + query),
                                             400, "invalid_parameter")
                self.assertIn(name, problem["detail"], query)
            self.assertProblem(daemon.request("POST", "/api/v1/rankings/spread"), 405,
                               "method_not_allowed")
