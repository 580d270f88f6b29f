"""GET /api/v1/items/:id/volatility and /api/v1/rankings/volatile (docs/api.md §3.1-3.2).

A known history is backfilled with `skinpulsectl backfill` before the daemon starts; the
daemon rebuilds its windows from the store, and every number it serves is checked
against a plain re-implementation of the formulas below. A third-party metric plugin
(tests/plugins/metric_range.cpp), enabled only through configuration, must show up as
an extra field.
"""
import glob
import json
import math
import os
import shutil
import tempfile
import time
import urllib.parse

from harness import BIN_DIR, TEST_PLUGIN_DIR, Daemon, DaemonTestCase, iso, run_tool

WINDOWS = {"1h": (3600, 60), "24h": (86400, 300), "7d": (7 * 86400, 3600)}

AK = "AK-47 | Redline (Field-Tested)"
AWP = "AWP | Asiimov (Field-Tested)"
SINGLE = "Desert Eagle | Blaze (Factory New)"
FLAT_1 = "M4A1-S | Hyper Beast (Field-Tested)"
FLAT_2 = "Desert Eagle | Blaze (Minimal Wear)"


def parse_iso(text):
    return int(time.mktime(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")) - time.timezone)


def reference(points, now, window):
    """The formulas of docs/api.md §3.2 on raw (time, price) points, the window's old
    edge on the bucket boundary the daemon documents (the bucket holding now - W)."""
    seconds, bucket = WINDOWS[window]
    start = (now - seconds) // bucket * bucket
    inside = sorted((t, p) for t, p in points if start <= t <= now)
    before = [(t, p) for t, p in points if t < start]
    n = len(inside)
    mean = math.fsum(p for _, p in inside) / n
    tmean = math.fsum(t for t, _ in inside) / n
    var = math.fsum((p - mean) ** 2 for _, p in inside) / n
    tvar = math.fsum((t - tmean) ** 2 for t, _ in inside)
    cov = math.fsum((t - tmean) * (p - mean) for t, p in inside)
    sigma = math.sqrt(var)
    p_ref = max(before)[1] if before else inside[0][1]
    return {
        "samples": n,
        "rolling_stddev": sigma,
        "percent_change": (inside[-1][1] - p_ref) / p_ref * 100 if p_ref else 0.0,
        "bollinger": {"upper": mean + 2 * sigma, "middle": mean, "lower": mean - 2 * sigma},
        "coefficient_of_variation": sigma / mean if mean else 0.0,
        "trend_score": cov / tvar * 3600 if tvar else 0.0,
        "price_range": {"absolute": float(max(p for _, p in inside) - min(p for _, p in inside)),
                        "relative": (max(p for _, p in inside) - min(p for _, p in inside)) / mean
                        if mean else 0.0},
        "has_before": bool(before),
    }


class MetricsTest(DaemonTestCase):
    @classmethod
    def setUpClass(cls):
        cls._classtmp = tempfile.mkdtemp(prefix="skinpulse-metrics-")
        now = int(time.time())
        # market-b is listed first in reference_sources; market-a is the fallback.
        cls.series = {
            (AK, "market-b"): [(now - 17 - 900 * i, 4000 + round(300 * math.sin(i / 7)) + i % 5 * 3)
                               for i in range(8 * 96)],
            (AK, "market-a"): [(now - 5 - 1200 * i, 2000 + i % 11) for i in range(2 * 72)],
            (AWP, "market-a"): [(now - 40 - 600 * i, 10000 + (2000 if i % 3 == 0 else -500) + i)
                                for i in range(2 * 144)],
            (SINGLE, "market-b"): [(now - 100, 123456)],
            (FLAT_1, "market-a"): [(now - 2000, 700), (now - 1000, 700)],
            (FLAT_2, "market-b"): [(now - 2500, 900), (now - 500, 900)],
        }
        lines = []
        for (name, source), points in cls.series.items():
            for t, p in points:
                lines.append({"market_hash_name": name, "source": source, "time": iso(t),
                              "price": p, "volume": 1})
        backfill = os.path.join(cls._classtmp, "history.jsonl")
        with open(backfill, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")

        # The built plugins plus the third-party test metric, in one plugin directory.
        plugins = os.path.join(cls._classtmp, "plugins")
        os.mkdir(plugins)
        built = os.path.join(BIN_DIR, "..", "lib", "skinpulse", "plugins")
        for path in glob.glob(os.path.join(built, "*.so")) + [
                os.path.join(TEST_PLUGIN_DIR, "metric_range.so")]:
            os.symlink(os.path.abspath(path), os.path.join(plugins, os.path.basename(path)))
        ini = ("[daemon]\nplugin_dir = %s\n"
               "[metrics]\nreference_sources = market-b, market-a\n"
               "[metric.range]\nplugin = range\n" % plugins)
        cls.daemon = Daemon(cls._classtmp, ini=ini)
        result = run_tool("skinpulsectl", "backfill", "--config", cls.daemon.config,
                          "--file", backfill, env=cls.daemon.env)
        assert result.returncode == 0, result.stderr + result.stdout
        assert "%d stored" % len(lines) in result.stdout, result.stdout
        cls.daemon.start()
        cls.ids = {name: cls.find_id(name) for name in (AK, AWP, SINGLE, FLAT_1, FLAT_2)}

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        shutil.rmtree(cls._classtmp, ignore_errors=True)

    @classmethod
    def find_id(cls, name):
        response = cls.daemon.get("/api/v1/items?limit=500&q=" + urllib.parse.quote(name))
        for item in response.json():
            if item["market_hash_name"] == name:
                return item["id"]
        raise AssertionError("not in catalogue: " + name)

    def volatility(self, name, window=None):
        path = "/api/v1/items/%d/volatility" % self.ids[name]
        response = self.daemon.get(path + ("?window=" + window if window else ""))
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual(response.header("content-type"), "application/json; charset=utf-8")
        self.assertSecurityHeaders(response)
        return response.json()

    def assertClose(self, expected, actual, what):
        self.assertLessEqual(abs(expected - actual), 1e-9 * max(abs(expected), 1.0),
                             "%s: expected %r, got %r" % (what, expected, actual))

    def assertMatches(self, body, expected, what):
        for key in ("rolling_stddev", "percent_change", "coefficient_of_variation",
                    "trend_score"):
            self.assertClose(expected[key], body[key], what + " " + key)
        for group in ("bollinger", "price_range"):
            self.assertEqual(set(body[group]), set(expected[group]), what + " " + group)
            for key, value in expected[group].items():
                self.assertClose(value, body[group][key], "%s %s.%s" % (what, group, key))

    def test_every_window_matches_the_formulas(self):
        for window in ("1h", "24h", "7d"):
            body = self.volatility(AK, window)
            now = parse_iso(body["computed_at"])
            self.assertLess(abs(now - time.time()), 120)
            expected = reference(self.series[(AK, "market-b")], now, window)
            self.assertEqual(body["item_id"], self.ids[AK])
            self.assertEqual(body["window"], window)
            self.assertEqual(body["source"], "market-b")  # never mixed with market-a
            self.assertEqual(body["samples"], expected["samples"])
            self.assertTrue(expected["has_before"], window)  # p_ref before the window
            self.assertMatches(body, expected, "AK " + window)

    def test_object_has_the_interface_fields_and_the_third_party_one(self):
        body = self.volatility(AK)
        self.assertEqual(body["window"], "24h")  # the default
        self.assertEqual(set(body), {"item_id", "window", "source", "samples", "rolling_stddev",
                                     "percent_change", "bollinger", "coefficient_of_variation",
                                     "trend_score", "price_range", "computed_at"})
        self.assertRegex(body["computed_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

    def test_fallback_source_and_percent_change_without_a_point_before(self):
        # AWP has only market-a, two days of it: no point before the 7d window.
        body = self.volatility(AWP, "7d")
        expected = reference(self.series[(AWP, "market-a")], parse_iso(body["computed_at"]), "7d")
        self.assertFalse(expected["has_before"])
        self.assertEqual(body["source"], "market-a")
        self.assertMatches(body, expected, "AWP 7d")
        body = self.volatility(AWP, "24h")
        expected = reference(self.series[(AWP, "market-a")], parse_iso(body["computed_at"]), "24h")
        self.assertTrue(expected["has_before"])
        self.assertMatches(body, expected, "AWP 24h")

    def test_fewer_than_two_points_and_no_points(self):
        body = self.volatility(SINGLE)
        self.assertEqual(body["samples"], 1)
        self.assertEqual(body["source"], "market-b")
        for key in ("rolling_stddev", "percent_change", "coefficient_of_variation", "trend_score"):
            self.assertEqual(body[key], 0)
        self.assertEqual(body["bollinger"], {"upper": 0, "middle": 0, "lower": 0})
        none = self.daemon.get("/api/v1/items/1/volatility?window=1h").json()
        self.assertEqual((none["item_id"], none["samples"], none["source"]), (1, 0, None))
        self.assertEqual(none["trend_score"], 0)
        self.assertEqual(none["window"], "1h")

    def test_rankings(self):
        response = self.daemon.get("/api/v1/rankings/volatile")
        self.assertEqual(response.status, 200)
        self.assertSecurityHeaders(response)
        ranking = response.json()
        # Only items with a reference source (>= 2 points of one source) in 24h.
        expected_ids = [self.ids[AWP], self.ids[AK]] + sorted([self.ids[FLAT_1], self.ids[FLAT_2]])
        self.assertEqual([e["item_id"] for e in ranking], expected_ids)
        for entry in ranking:
            self.assertTrue({"item_id", "market_hash_name", "volatility_score", "percent_change",
                             "current_price"} <= set(entry))
        by_id = {e["item_id"]: e for e in ranking}
        ak = by_id[self.ids[AK]]
        self.assertEqual(ak["market_hash_name"], AK)
        self.assertEqual(ak["source"], "market-b")
        self.assertEqual(ak["current_price"], max(self.series[(AK, "market-b")])[1])
        detail = self.volatility(AK)
        self.assertClose(detail["coefficient_of_variation"] * 100, ak["volatility_score"], "score")
        self.assertClose(detail["percent_change"], ak["percent_change"], "percent_change")
        awp = by_id[self.ids[AWP]]
        self.assertEqual(awp["current_price"], max(self.series[(AWP, "market-a")])[1])
        self.assertEqual(by_id[self.ids[FLAT_1]]["volatility_score"], 0)
        # limit and window
        self.assertEqual([e["item_id"] for e in
                          self.daemon.get("/api/v1/rankings/volatile?limit=1").json()],
                         [self.ids[AWP]])
        week = self.daemon.get("/api/v1/rankings/volatile?limit=100&window=7d").json()
        self.assertEqual(len(week), 4)
        hour = self.daemon.get("/api/v1/rankings/volatile?window=1h").json()
        self.assertNotIn(self.ids[SINGLE], [e["item_id"] for e in hour])

    def test_parameter_errors(self):
        ak = self.ids[AK]
        for path, code, status, name in [
                ("/api/v1/items/abc/volatility", "invalid_parameter", 400, "id"),
                ("/api/v1/items/0/volatility", "invalid_parameter", 400, "id"),
                ("/api/v1/items/999999999/volatility", "item_not_found", 404, None),
                ("/api/v1/items/%d/volatility?window=2h" % ak, "invalid_parameter", 400, "window"),
                ("/api/v1/items/%d/volatility?window=" % ak, "invalid_parameter", 400, "window"),
                ("/api/v1/rankings/volatile?limit=0", "invalid_parameter", 400, "limit"),
                ("/api/v1/rankings/volatile?limit=101", "invalid_parameter", 400, "limit"),
                ("/api/v1/rankings/volatile?limit=ten", "invalid_parameter", 400, "limit"),
                ("/api/v1/rankings/volatile?window=30d", "invalid_parameter", 400, "window")]:
            problem = self.assertProblem(self.daemon.get(path), status, code)
            if name:
                self.assertIn(name, problem["detail"], path)
        response = self.daemon.request("POST", "/api/v1/rankings/volatile")
        self.assertProblem(response, 405, "method_not_allowed")
        self.assertIn("GET", response.header("allow"))


if __name__ == "__main__":
    import unittest
    unittest.main()
