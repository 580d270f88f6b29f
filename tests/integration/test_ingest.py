"""Ingestion end to end: the real daemon polls local fakes of the Skinport and Steam
Community Market APIs (and a generic JSON feed) every second, stores what they report,
and keeps going while another source fails (docs/api.md §4)."""
import time
import unittest
import urllib.parse

from fake_markets import FakeMarkets
from harness import Daemon, DaemonTestCase, wait_until, run_tool

KNIFE = "★ StatTrak™ Karambit | Autotronic (Field-Tested)"



class IngestTest(DaemonTestCase):
    def find_id(self, daemon, name):
        items = daemon.get("/api/v1/items?limit=500&q=" + urllib.parse.quote(name)).json()
        return next(i["id"] for i in items if i["market_hash_name"] == name)

    def sources(self, daemon):
        return {s["name"]: s for s in daemon.admin_get("/readyz").json()["sources"]}

    def test_sources_feed_history_while_one_fails(self):
        with FakeMarkets() as fake:
            ini = (
                "[source.skinport]\nplugin = skinport\ninterval_seconds = 1\n"
                "url = %s\n\n"
                "[source.steam]\nplugin = steam_market\ninterval_seconds = 1\n"
                "url = %s\nitems = %s\nrequests_per_minute = 5\n\n"
                "[source.down]\nplugin = skinport\ninterval_seconds = 1\nurl = %s\n\n"
                "[source.feed]\nplugin = json_http\ninterval_seconds = 1\nurl = %s\n"
            ) % (fake.url("skinport"), fake.url("steam"), KNIFE, fake.url("broken"),
                 fake.url("json/prices"))
            with Daemon(self.workdir, ini=ini) as daemon:
                ak = self.find_id(daemon, "AK-47 | Redline (Field-Tested)")
                knife = self.find_id(daemon, KNIFE)

                # Skinport: floats in dollars → cents, updated_at as the time.
                history = wait_until(lambda: [
                    p for p in daemon.get("/api/v1/items/%d/history?source=skinport" % ak).json()])
                self.assertTrue(history, daemon.stderr())
                self.assertTrue(4000 <= history[0]["price"] <= 5000, history)
                # Skinport's `quantity` (17) counts listings, not sales: never volume
                # (docs/adr/0011-sdk-abi-1-2.md); it is stored as listings.
                self.assertEqual(history[0]["volume"], 0)

                # Steam: "$1,234.43"-style strings → cents, volume "1,247" → 1247.
                steam = wait_until(lambda: daemon.get(
                    "/api/v1/items/%d/history?source=steam" % knife).json())
                self.assertTrue(steam, daemon.stderr())
                self.assertTrue(100043 <= steam[0]["price"] <= 199943, steam)
                self.assertTrue(str(steam[0]["price"]).endswith("43"))
                self.assertEqual(steam[0]["volume"], 1247)

                # Several cycles: the knife's price moves and the history grows.
                grown = wait_until(lambda: len(daemon.get(
                    "/api/v1/items/%d/history?source=steam" % knife).json()) >= 3, timeout=40)
                self.assertTrue(grown)

                # The failing source backs off and never stopped the others.
                states = wait_until(lambda: (lambda s: s if s["down"]["consecutive_failures"] >= 1
                                             else None)(self.sources(daemon)))
                self.assertIn("unavailable", states["down"]["last_error"])
                self.assertIsNone(states["down"]["last_success"])
                self.assertIsNotNone(states["skinport"]["last_success"])
                self.assertEqual(states["skinport"]["last_error"], "")
                rejected = states["skinport"]["points_rejected"]
                self.assertGreaterEqual(rejected.get("not in catalogue", 0), 1)
                # min_price null: Skinport's suggested_price (0.08) is used instead, as a
                # reference price, a series of its own beside the instance's asks.
                sticker = self.find_id(daemon, "Sticker | syrsoN (Glitter) | Rio 2022")
                sticker_prices = daemon.get(
                    "/api/v1/items/%d/history?source=skinport-reference" % sticker).json()
                self.assertEqual({(p["price"], p["kind"]) for p in sticker_prices},
                                 {(8, "reference")})
                self.assertEqual(daemon.get(
                    "/api/v1/items/%d/history?source=skinport" % sticker).json(), [])

                # The generic JSON feed: cents as given; a negative price counted, not stored.
                case = self.find_id(daemon, "Dreams & Nightmares Case")
                feed = wait_until(lambda: daemon.get(
                    "/api/v1/items/%d/history?source=feed" % case).json())
                self.assertTrue(feed and all(p["price"] > 100 for p in feed), feed)
                feed_state = self.sources(daemon)["feed"]
                self.assertGreaterEqual(
                    feed_state["points_rejected"].get("price unreadable or not positive", 0), 1)

                # Latest prices and current_price follow ingestion without a restart.
                detail = daemon.get("/api/v1/items/%d" % knife).json()
                self.assertEqual(detail["current_price_source"], "steam")
                self.assertEqual(detail["latest_prices"][0]["source"], "steam")

                # The admin CLI shows the same live state.
                ctl = run_tool("skinpulsectl", "--config", daemon.config, "sources",
                               env=daemon.env)
                self.assertEqual(ctl.returncode, 0, ctl.stderr)
                down_line = next(l for l in ctl.stdout.splitlines() if l.startswith("down "))
                self.assertIn("upstream unavailable", down_line)
                self.assertIn("not in catalogue", ctl.stdout)

                # Backing off: far fewer calls to the broken upstream than to the others.
                time.sleep(3)
                self.assertLess(fake.count("broken"), fake.count("skinport"))


if __name__ == "__main__":
    unittest.main()
