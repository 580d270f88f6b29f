"""The dashboard's HTTP side against the real daemon (docs/api.md §9 and §10): the app's
paths answer index.html with the CSP, /assets/ serves the files with types, ETags and
304s, nothing outside www/ is served, `[dashboard] enabled = false` turns it all off,
and the candles endpoint folds backfilled points into OHLCV.
"""
import json
import os
import subprocess
import sys
import time

from harness import SOURCE_DIR, Daemon, DaemonTestCase, iso, run_tool, wait_until

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
ITEM = "AK-47 | Redline (Field-Tested)"


class DashboardHttpTest(DaemonTestCase):
    def start(self, ini="", points=()):
        daemon = Daemon(self.workdir, ini=ini)
        if points:
            path = os.path.join(self.workdir, "history.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for p in points:
                    f.write(json.dumps(p) + "\n")
            result = run_tool("skinpulsectl", "backfill", "--config", daemon.config, "--file", path,
                              env=daemon.env)
            self.assertEqual(result.returncode, 0, result.stderr)
        self.addCleanup(daemon.stop)
        return daemon.start()

    def test_pages_assets_and_caching(self):
        daemon = self.start()
        for path in ("/", "/items/1", "/rankings", "/spreads", "/portfolio", "/alerts", "/status"):
            response = daemon.get(path)
            self.assertEqual(response.status, 200, path)
            self.assertEqual(response.header("content-type"), "text/html; charset=utf-8")
            self.assertEqual(response.header("content-security-policy"), CSP)
            self.assertEqual(response.header("cache-control"), "no-cache")
            self.assertTrue(response.header("etag").startswith('"'))
            self.assertIn(b'<script type="module" src="/assets/js/app.js">', response.body)
            self.assertSecurityHeaders(response)
        self.assertIsNone(daemon.get("/").header("strict-transport-security"))
        script = daemon.get("/assets/js/app.js")
        self.assertEqual(script.status, 200)
        self.assertEqual(script.header("content-type"), "text/javascript; charset=utf-8")
        etag = script.header("etag")
        again = daemon.get("/assets/js/app.js", headers={"If-None-Match": etag})
        self.assertEqual(again.status, 304)
        self.assertEqual(again.body, b"")
        self.assertEqual(daemon.get("/assets/css/app.css").header("content-type"),
                         "text/css; charset=utf-8")
        self.assertEqual(daemon.get("/assets/vendor/uplot/LICENSE").status, 200)
        self.assertEqual(daemon.request("HEAD", "/assets/js/app.js").status, 200)
        for bad in ("/assets/../CMakeLists.txt", "/assets/%2e%2e/%2e%2e/README.md", "/assets/nope.js",
                    "/items", "/items/1/x", "/favicon.ico"):
            self.assertProblem(daemon.get(bad), 404, "not_found")

    def test_disabled_dashboard_is_not_found(self):
        daemon = self.start(ini="[dashboard]\nenabled = false\n")
        for path in ("/", "/items/1", "/status", "/assets/js/app.js"):
            self.assertProblem(daemon.get(path), 404, "not_found")
        self.assertEqual(daemon.get("/api/v1/items?limit=1").status, 200)

    def test_candles(self):
        now = int(time.time())
        start = now - now % 3600 - 3 * 3600
        points = [{"market_hash_name": ITEM, "source": "market-a", "time": iso(start + i * 600),
                   "price": 1000 + i, "volume": 2} for i in range(18)]
        points.append({"market_hash_name": ITEM, "source": "market-b", "time": iso(start + 60),
                       "price": 990, "volume": 1})
        daemon = self.start(points=points)
        item = daemon.get("/api/v1/items?q=" + "AK-47%20%7C%20Redline%20(Field-Tested)").json()[0]
        body = daemon.get("/api/v1/items/%d/candles?window=24h&interval=1h" % item["id"]).json()
        self.assertEqual(body["item_id"], item["id"])
        self.assertEqual(body["source"], "market-a")  # the reference source
        self.assertEqual((body["window"], body["interval"]), ("24h", "1h"))
        candles = body["candles"]
        self.assertEqual(len(candles), 3)
        self.assertEqual(candles[0]["time"], iso(start))
        self.assertEqual([c["samples"] for c in candles], [6, 6, 6])
        self.assertEqual(candles[0]["open"], 1000)
        self.assertEqual(candles[0]["close"], 1005)
        self.assertEqual(candles[0]["high"], 1005)
        self.assertEqual(candles[0]["low"], 1000)
        self.assertEqual(candles[0]["volume"], 12)
        body = daemon.get("/api/v1/items/%d/candles?window=7d&source=market-b" % item["id"]).json()
        self.assertEqual(body["interval"], "1h")
        self.assertEqual([c["close"] for c in body["candles"]], [990])
        self.assertEqual(daemon.get("/api/v1/items/%d/candles?window=30d" % item["id"]).json()["interval"], "1d")
        for bad in ("window=2d", "window=7d&interval=5m", "interval=10m", "window=30d&interval=1h"):
            self.assertProblem(daemon.get("/api/v1/items/%d/candles?%s" % (item["id"], bad)), 400,
                               "invalid_parameter")
        self.assertProblem(daemon.get("/api/v1/items/99999999/candles"), 404, "item_not_found")

    def test_dev_history_seeds_a_week_for_1000_items_within_30_s(self):
        """tools/dev-run's first start: tools/dev-history | skinpulsectl backfill."""
        started = time.time()
        path = os.path.join(self.workdir, "dev-history.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "tools", "dev-history"),
                            "--seed-file", os.path.join(SOURCE_DIR, "share/simulated/seed.tsv")],
                           stdout=out, check=True)
        daemon = Daemon(self.workdir)
        result = run_tool("skinpulsectl", "backfill", "--config", daemon.config, "--file", path,
                          env=daemon.env)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.addCleanup(daemon.stop)
        daemon.start()
        ranked = wait_until(lambda: daemon.get("/api/v1/rankings/volatile?limit=100&window=7d").json())
        self.assertLess(time.time() - started, 30)
        self.assertEqual(len(ranked), 100)
        names = set()
        with open(path, encoding="utf-8") as f:
            for line in f:
                names.add(json.loads(line)["market_hash_name"])
        self.assertGreaterEqual(len(names), 1000)
        candles = daemon.get("/api/v1/items/%d/candles?window=7d" % ranked[0]["item_id"]).json()["candles"]
        self.assertGreaterEqual(len(candles), 165)  # hourly for a week
        self.assertLessEqual(len(candles), 170)
        month = daemon.get("/api/v1/items/%d/candles?window=30d" % ranked[0]["item_id"]).json()["candles"]
        self.assertGreaterEqual(len(month), 29)
