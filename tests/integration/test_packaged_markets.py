"""A fresh install's markets, end to end: every market source the package enables
(etc/skinpulse/conf.d/, read as shipped) is started at once in the real daemon, with only
its address pointed at a local fake of its shape and its interval shortened. Each must
store prices in cents, of the kind its drop-in says, with listings where the market gives
them; the Redline must land in a plausible range everywhere (a unit off by x10, x100 or
x1000 in a shipped mapping fails here); and at least eight distinct real markets must
answer without a key (issue 17: "a fresh install polls at least eight real markets").

The fakes: tests/integration/fakes/list_markets.py (csfloat, market_csgo, waxpeer,
bitskins, csdeals), fakes/paced_markets.py (dmarket), fakes/lisskins_export.py
(lisskins), and the small one below for Skinport, Steam's priceoverview, White.market and
the csgo-trader mirror files (shapes per docs/upstreams.md)."""
import configparser
import glob
import http.server
import json
import os
import time
import unittest
import urllib.parse

import test_sources_paced as paced
from fakes.background_server import BackgroundServer
from fakes.lisskins_export import ListingBlock, LisskinsExport
from fakes.list_markets import FakeListMarkets
from fakes.paced_markets import PacedMarkets
from harness import SOURCE_DIR, Daemon, DaemonTestCase, wait_until

AK = paced.AK
NAMES = [name for name, *_ in paced.CATALOGUE]
# The Redline's plausible range in cents (it traded at $30-$50 in 2024-2026).
PLAUSIBLE = range(1000, 6001)
# Distinct markets behind the shipped instances (the csgo-trader mirror serves two).
MARKET_OF = {"buff163-ask-via-csgotrader": "buff163", "buff163-bid-via-csgotrader": "buff163",
             "youpin-via-csgotrader": "youpin", "white_market": "white.market"}


def cents_of(index):
    """Every fake's price of catalogue item `index`: the AK ($31.00 + step) in range."""
    return 3100 + 37 * index


class SmallFeeds(BackgroundServer):
    """Skinport /v1/items, Steam priceoverview, White.market's export and the csgo-trader
    mirror's buff163.json and youpin.json, each pricing every catalogue name."""

    def __init__(self):
        self.step = 0
        self.listen(self._handler())

    def url(self, path):
        return "http://127.0.0.1:%d/%s" % (self.port, path)

    def body(self, path, query):
        self.step += 1
        now = int(time.time())
        rows = [(name, (cents_of(i) + self.step) / 100) for i, name in enumerate(NAMES)]
        if path == "/skinport/v1/items":
            return [{"market_hash_name": n, "currency": "USD", "suggested_price": p,
                     "min_price": p, "max_price": p * 2, "mean_price": p, "quantity": 11,
                     "created_at": 1667040400, "updated_at": now - 5} for n, p in rows]
        if path == "/steam/market/priceoverview/":
            name = query.get("market_hash_name", [""])[0]
            price = dict(rows).get(name)
            if price is None:
                return {"success": False}
            return {"success": True, "lowest_price": "$%.2f" % price, "volume": "1,247",
                    "median_price": "$%.2f" % price}
        if path == "/white/export/v1/prices/730.json":
            return [{"market_hash_name": n, "price": "%.2f" % p,
                     "market_product_link": "https://white.market/item/x"} for n, p in rows]
        if path == "/csgotrader/latest/buff163.json":
            return {n: {"starting_at": {"price": p}, "highest_order": {"price": round(p * 0.9, 2)}}
                    for n, p in rows}
        if path == "/csgotrader/latest/youpin.json":
            return {n: p for n, p in rows}
        return None

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                parts = urllib.parse.urlsplit(self.path)
                value = fake.body(parts.path, urllib.parse.parse_qs(parts.query))
                status = 404 if value is None else 200
                data = json.dumps(value, ensure_ascii=False).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


def shipped_sources():
    """[source.NAME] sections of the packaged drop-ins that are enabled, as dicts."""
    sections = {}
    for path in sorted(glob.glob(os.path.join(SOURCE_DIR, "etc/skinpulse/conf.d/*.ini"))):
        parser = configparser.ConfigParser(inline_comment_prefixes=(";",),
                                           comment_prefixes=(";", "#"), interpolation=None)
        parser.optionxform = str
        parser.read(path, encoding="utf-8")
        for section in parser.sections():
            keys = dict(parser[section])
            if section.startswith("source.") and keys.get("enabled", "true") == "true":
                sections[section[len("source."):]] = keys
    return sections


class PackagedMarketsTest(DaemonTestCase):
    def history(self, daemon, item_id, source):
        return daemon.get("/api/v1/items/%d/history?source=%s" % (item_id, source)).json()

    def address(self, name, keys, fakes):
        """The fake that stands in for the shipped `url` of instance `name`."""
        small, lists, pacer, export = fakes
        plugin, url = keys["plugin"], keys.get("url", "")
        if plugin in ("csfloat", "market_csgo", "waxpeer", "bitskins", "csdeals"):
            return lists.url(plugin)
        if plugin == "dmarket":
            return pacer.url("dmarket")
        if plugin == "lisskins":
            return export.url("export.json")
        if plugin == "skinport":
            return small.url("skinport")
        if plugin == "steam_market":
            return small.url("steam")
        if plugin == "json_http":
            path = urllib.parse.urlsplit(url).path
            prefix = "csgotrader" if "csgotrader" in url else "white"
            return small.url(prefix + path)
        self.fail("a shipped source of plugin %s has no fake here: add one" % plugin)

    def test_every_shipped_market_stores_plausible_prices(self):
        sources = shipped_sources()
        self.assertNotIn("simulated", sources, "fake prices must never ship enabled")
        block = ListingBlock(NAMES, 5, lambda name, i: cents_of(i) / 100)
        dmarket = {n: (cents_of(i) - 150, 4, cents_of(i), 9) for i, n in enumerate(NAMES)}
        with SmallFeeds() as small, FakeListMarkets(NAMES) as lists, \
                PacedMarkets(dmarket, [], window_requests=50, dmarket_429_at=10 ** 6) as pacer, \
                LisskinsExport(block, repeat=1) as export:
            export.release.set()
            ini = ["[catalog]\nfile = %s\n" % paced.PacedSourcesTest.write_catalogue(self)]
            for name, keys in sources.items():
                keys = dict(keys, url=self.address(name, keys, (small, lists, pacer, export)),
                            interval_seconds="2")
                ini.append("[source.%s]\n%s\n" % (name, "\n".join(
                    "%s = %s" % item for item in keys.items())))
            with Daemon(self.workdir, ini="\n".join(ini)) as daemon:
                items = daemon.get("/api/v1/items?limit=500").json()
                ak = next(i["id"] for i in items if i["market_hash_name"] == AK)

                def latest():
                    detail = daemon.get("/api/v1/items/%d" % ak).json()
                    return {p["source"]: p for p in detail["latest_prices"]}

                stored = wait_until(lambda: (lambda l: l if set(sources) <= set(l) else None)(
                    latest()), timeout=40, every=0.5) or latest()
                self.assertEqual(sorted(set(sources) - set(stored)), [],
                                 "shipped sources without a price:\n" + daemon.stderr()[-4000:])
                for name, keys in sources.items():
                    point = stored[name]
                    self.assertIn(point["price"], PLAUSIBLE, (name, point))
                    self.assertEqual(point["kind"], keys.get("kind", "ask"), (name, point))
                    if name != "steam_market":  # the only feed with traded volume
                        self.assertEqual(point["volume"], 0, (name, point))
                # Listings where the market gives them.
                for name in ("skinport", "csfloat", "market_csgo", "waxpeer", "bitskins",
                             "dmarket", "lisskins"):
                    if name in sources:
                        self.assertGreater(stored[name]["listings"] or 0, 0, stored[name])
                # Feeds with bids and asks keep them apart, under NAME-bid.
                if "dmarket" in sources:
                    self.assertEqual(stored["dmarket-bid"]["kind"], "bid")
                    self.assertIn(stored["dmarket-bid"]["price"], PLAUSIBLE)
                markets = {MARKET_OF.get(name, name) for name, keys in sources.items()
                           if not any(k in keys for k in ("api_key", "secret_key"))}
                self.assertGreaterEqual(len(markets), 8, sorted(markets))
                print("\npackaged markets: %d instances, %d distinct keyless markets: %s" %
                      (len(sources), len(markets), ", ".join(sorted(markets))))


if __name__ == "__main__":
    unittest.main()
