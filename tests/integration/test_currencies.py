"""Currencies end to end (docs/api.md §14, issue 20): skinpulsed with a `fixed` rates
instance and an `ecb` instance polling a local fake of the ECB's daily XML, and two
json_http sources quoting in EUR (converted to USD cents at ingest) and KWD (no rate:
rejected and counted as no_rate). Checks GET /api/v1/currencies, `currency=` on item
detail, history, candles, volatility and rankings, and 400 for an unknown or unrated code."""
import http.server
import json
import os
import unittest
import urllib.parse
from fractions import Fraction

from fakes.background_server import BackgroundServer
from harness import SOURCE_DIR, Daemon, DaemonTestCase, wait_until

AK = "AK-47 | Redline (Field-Tested)"
ECB_XML = open(os.path.join(SOURCE_DIR, "tests", "fixtures", "ecb_eurofxref_daily_shape.xml"),
               "rb").read()


class FakeFeeds(BackgroundServer):
    """/ecb.xml: the ECB document; /eu.json and /kw.json: one-item price feeds."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path == "/ecb.xml":
                    body, kind = ECB_XML, "text/xml"
                elif self.path == "/eu.json":
                    body, kind = json.dumps([{"market_hash_name": AK, "price": 38.0}]).encode(), \
                        "application/json"
                elif self.path == "/kw.json":
                    body, kind = json.dumps([{"market_hash_name": AK, "price": 12.28}]).encode(), \
                        "application/json"
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.listen(Handler)


def find_key(value, key):
    """Every value of `key` anywhere inside a JSON value."""
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                found.append(v)
            found.extend(find_key(v, key))
    elif isinstance(value, list):
        for v in value:
            found.extend(find_key(v, key))
    return found


def half_away(value):
    """A Fraction rounded half away from zero, as the daemon does."""
    sign = -1 if value < 0 else 1
    magnitude = abs(value)
    whole = int(magnitude)
    return sign * (whole + (1 if magnitude - whole >= Fraction(1, 2) else 0))


class CurrenciesTest(DaemonTestCase):
    def setUp(self):
        super().setUp()
        self.feeds = FakeFeeds().start()
        base = "http://127.0.0.1:%d" % self.feeds.port
        ini = f"""
[rates.fixed]
plugin = fixed
rates = EUR:0.95, KWX:1
[rates.ecb]
plugin = ecb
url = {base}/ecb.xml
[source.eu]
plugin = json_http
interval_seconds = 1
url = {base}/eu.json
price_unit = major
currency = EUR
volume_field =
time_field =
[source.kw]
plugin = json_http
interval_seconds = 1
url = {base}/kw.json
price_unit = major
currency = KWD
volume_field =
time_field =
"""
        self.daemon = Daemon(self.workdir, ini).start()

    def tearDown(self):
        self.daemon.stop()
        self.feeds.stop()
        super().tearDown()

    def item_id(self):
        items = self.daemon.get("/api/v1/items?q=" + urllib.parse.quote(AK)).json()
        return next(item["id"] for item in items if item["market_hash_name"] == AK)

    def test_currencies_conversion_and_refusals(self):
        d = self.daemon
        # Both instances polled: EUR from fixed (its time is the start, newer than the ECB's
        # date), JPY from ecb.
        wait_until(lambda: any(c["code"] == "JPY" for c in d.get("/api/v1/currencies").json()))
        currencies = d.get("/api/v1/currencies").json()
        self.assertEqual(currencies[0]["code"], "USD")
        self.assertEqual(currencies[0]["exponent"], 2)
        by_code = {c["code"]: c for c in currencies}
        self.assertEqual(by_code["EUR"]["instance"], "fixed")
        self.assertAlmostEqual(by_code["EUR"]["units_per_usd"], 0.95)
        self.assertEqual(by_code["JPY"]["instance"], "ecb")
        self.assertEqual(by_code["JPY"]["exponent"], 0)
        self.assertEqual(by_code["JPY"]["time"], "2026-11-24T15:00:00Z")
        self.assertNotIn("KWD", by_code)
        self.assertNotIn("KWX", by_code)  # not ISO 4217: skipped with a warning
        jpy = Fraction(by_code["JPY"]["numerator"], by_code["JPY"]["denominator"])
        self.assertEqual(jpy, Fraction(16241, 100) / Fraction(10512, 10000))

        # The EUR source converted at ingest: €38.00 / 0.95 = $40.00.
        item = self.item_id()
        wait_until(lambda: d.get(f"/api/v1/items/{item}").json()["current_price"] is not None)
        detail = d.get(f"/api/v1/items/{item}").json()
        self.assertEqual(detail["current_price"], 4000)
        self.assertNotIn("currency", detail)  # the USD shape is unchanged
        self.assertEqual([p["source"] for p in detail["latest_prices"]], ["eu"])

        # The KWD source: no rate, rejected and counted.
        def no_rate():
            ready = d.get("/readyz").json()
            return sum(find_key(ready, "no_rate")) > 0
        wait_until(no_rate)

        eur = d.get(f"/api/v1/items/{item}?currency=EUR").json()
        self.assertEqual(eur["currency"], "EUR")
        self.assertEqual(eur["current_price"], 3800)
        self.assertEqual(eur["latest_prices"][0]["price"], 3800)
        yen = d.get(f"/api/v1/items/{item}?currency=jpy").json()
        self.assertEqual(yen["currency"], "JPY")
        self.assertEqual(yen["current_price"], half_away(Fraction(4000, 100) * jpy))

        history = d.get(f"/api/v1/items/{item}/history?currency=EUR").json()
        self.assertTrue(history)
        self.assertTrue(all(p["currency"] == "EUR" and p["price"] == 3800 for p in history))
        plain = d.get(f"/api/v1/items/{item}/history").json()
        self.assertTrue(all("currency" not in p and p["price"] == 4000 for p in plain))

        candles = d.get(f"/api/v1/items/{item}/candles?currency=JPY").json()
        self.assertEqual(candles["currency"], "JPY")
        self.assertEqual(candles["candles"][0]["close"], half_away(Fraction(40) * jpy))
        self.assertEqual(d.get(f"/api/v1/items/{item}/candles").json()["currency"], "USD")

        vol = d.get(f"/api/v1/items/{item}/volatility?currency=EUR").json()
        self.assertEqual(vol["currency"], "EUR")
        self.assertNotIn("currency", d.get(f"/api/v1/items/{item}/volatility").json())
        for path in ("/api/v1/rankings/volatile?currency=EUR",
                     "/api/v1/rankings/spread?currency=EUR&min_sources=2"):
            response = d.get(path)
            self.assertEqual(response.status, 200, response.body)
            self.assertTrue(all(row["currency"] == "EUR" for row in response.json()))

        for bad in ("XYZ", "KWD", "EURO", ""):
            for path in (f"/api/v1/items/{item}", f"/api/v1/items/{item}/history",
                         f"/api/v1/items/{item}/candles", f"/api/v1/items/{item}/volatility",
                         "/api/v1/rankings/volatile", "/api/v1/rankings/spread"):
                response = d.get(path + ("&" if "?" in path else "?") + "currency=" + bad)
                self.assertProblem(response, 400, "invalid_parameter")
                self.assertIn("currency", response.json()["detail"])

    def test_rates_survive_a_restart(self):
        d = self.daemon
        wait_until(lambda: any(c["code"] == "JPY" for c in d.get("/api/v1/currencies").json()))
        d.stop()
        self.feeds.stop()  # the ECB is down now: the stored rates must still be there
        self.feeds = FakeFeeds().start()  # (another port: the ecb instance fails to poll)
        restarted = Daemon(self.workdir, open(d.config).read()).start()
        self.daemon = restarted
        codes = {c["code"]: c["instance"] for c in restarted.get("/api/v1/currencies").json()}
        self.assertEqual(codes.get("JPY"), "ecb")


class RatesConfigTest(DaemonTestCase):
    def test_bad_fixed_syntax_stops_the_start(self):
        daemon = Daemon(self.workdir, "[rates.fixed]\nplugin = fixed\nrates = EUR=0.95\n")
        with self.assertRaises(RuntimeError) as raised:
            daemon.start()
        self.assertIn("rates.fixed", str(raised.exception))
        self.assertIn("EUR=0.95", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
