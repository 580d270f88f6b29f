"""The paced sources end to end: the real daemon polls a local fake of DMarket's
aggregated prices (batches of titles, rate-limit headers, a 429 with Retry-After) and of
Steam's search/render pages (one throttled empty page) for several cycles, and stores
DMarket's bid and ask as two kinds with listings, Steam's asks with listings, and the
Steam pictures of catalogue items that had none (plugins/sources/dmarket/README.md,
plugins/sources/steam_market/README.md)."""
import json
import os
import time
import unittest
import urllib.parse

from fakes.paced_markets import ICON_BASE, PacedMarkets
from harness import Daemon, DaemonTestCase, wait_until

AK = "AK-47 | Redline (Field-Tested)"
# A small catalogue: the daemon's own is 34,500 names, which a test cannot wait for.
CATALOGUE = [
    (AK, "AK-47", "Redline", "https://community.akamai.steamstatic.com/economy/image/ak"),
    ("AWP | Asiimov (Field-Tested)", "AWP", "Asiimov", ""),
    ("Dreams & Nightmares Case", "Container", "Dreams & Nightmares Case", ""),
    ("★ StatTrak™ Karambit | Autotronic (Field-Tested)", "Karambit", "Autotronic", ""),
    ("M4A1-S | Printstream (Field-Tested)", "M4A1-S", "Printstream", ""),
    ("Glock-18 | Water Elemental (Minimal Wear)", "Glock-18", "Water Elemental", ""),
    ("USP-S | Kill Confirmed (Field-Tested)", "USP-S", "Kill Confirmed", ""),
    ("Desert Eagle | Blaze (Factory New)", "Desert Eagle", "Blaze", ""),
    ("AK-47 | Vulcan (Field-Tested)", "AK-47", "Vulcan", ""),
    ("Revolution Case", "Container", "Revolution Case", ""),
    ("Sticker | syrsoN (Glitter) | Rio 2022", "Sticker", "syrsoN (Glitter) | Rio 2022", ""),
    ("Operation Breakout Weapon Case", "Container", "Operation Breakout Weapon Case", ""),
]
# The fake answers every other row in the live service's shape (object prices, string
# counts) and the rest in the older one (plain strings): every item must be priced.
DMARKET = {name: (1000 + 97 * i, 3 + i, 1100 + 101 * i, 10 + i)
           for i, (name, *_rest) in enumerate(CATALOGUE)}
DMARKET[AK] = (2905, 41, 3188, 236)
STEAM = [{"hash_name": name, "cents": 200 + 13 * i, "listings": 50 + i,
          "icon_url": "fake-icon_%d" % i} for i, (name, *_rest) in enumerate(CATALOGUE)]
STEAM[0]["cents"] = 3412
STEAM += [{"hash_name": "Not In This Catalogue %d" % i, "cents": 99, "listings": 1,
           "icon_url": "x"} for i in range(3)]


class PacedSourcesTest(DaemonTestCase):
    def write_catalogue(self):
        path = os.path.join(self.workdir, "items.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for name, weapon, skin, image in CATALOGUE:
                f.write(json.dumps({"market_hash_name": name, "weapon_type": weapon,
                                    "skin_name": skin, "rarity": "Covert", "stattrak": False,
                                    "image_url": image}, ensure_ascii=False) + "\n")
        return path

    def item(self, daemon, name):
        items = daemon.get("/api/v1/items?limit=500&q=" + urllib.parse.quote(name)).json()
        return next(i for i in items if i["market_hash_name"] == name)

    def history(self, daemon, item_id, source):
        return daemon.get("/api/v1/items/%d/history?source=%s" % (item_id, source)).json()

    def priced(self, daemon, ids, source):
        return {name for name, item_id in ids.items() if self.history(daemon, item_id, source)}

    def test_dmarket_and_steam_search_paced(self):
        # A window of 2 requests per 2 s: the first poll's two batches use it up
        # (RateLimit-Remaining: 0), so the plugin must wait for the reset.
        fake = PacedMarkets(DMARKET, STEAM, window_requests=2, window_seconds=2,
                            dmarket_429_at=3, retry_after=2, steam_throttle_at=2)
        with fake:
            ini = (
                "[catalog]\nfile = %s\n\n"
                # Steam calls share the game-platform budget: its origin is the fake's.
                "[portfolio]\ninventory_url = %s\n\n[gameid]\nrequests_per_minute = 20\n\n"
                "[source.dmarket]\nplugin = dmarket\ninterval_seconds = 2\nurl = %s\n"
                "batch_size = 4\nrequests_per_poll = 2\n\n"
                "[source.steam_search]\nplugin = steam_market\ninterval_seconds = 2\n"
                "url = %s\nmode = search\npage_size = 5\nrequests_per_minute = 2\n"
                "throttle_seconds = 2\n"
            ) % (self.write_catalogue(), fake.url("steam/inventory"), fake.url("dmarket"),
                 fake.url("steam"))
            with Daemon(self.workdir, ini=ini) as daemon:
                ids = {name: self.item(daemon, name)["id"] for name, *_ in CATALOGUE}
                started = time.time()
                everything = set(ids)
                done = wait_until(lambda: self.priced(daemon, ids, "dmarket") == everything and
                                  self.priced(daemon, ids, "steam_search") == everything,
                                  timeout=30, every=0.5)
                elapsed = time.time() - started
                self.assertTrue(done, "dmarket %s, steam %s\n%s" % (
                    sorted(everything - self.priced(daemon, ids, "dmarket")),
                    sorted(everything - self.priced(daemon, ids, "steam_search")),
                    daemon.stderr()[-3000:]))

                # DMarket: the AK's bid and ask, two kinds, each with its count as listings.
                # The asks are the instance's; the bids, another kind, are under dmarket-bid.
                asks = self.history(daemon, ids[AK], "dmarket")
                bids = self.history(daemon, ids[AK], "dmarket-bid")
                points = asks + bids
                self.assertEqual({p["kind"] for p in asks}, {"ask"}, asks)
                self.assertEqual({p["kind"] for p in bids}, {"bid"}, bids)
                self.assertEqual(asks[-1]["time"], bids[-1]["time"])  # one poll, one time
                by_kind = {p["kind"]: p for p in points}
                # The sources list describes the bid series by its instance.
                listed = {s["name"]: s for s in daemon.get("/api/v1/sources").json()}
                self.assertEqual((listed["dmarket-bid"]["plugin"], listed["dmarket-bid"]["kind"],
                                  listed["dmarket-bid"]["enabled"]), ("dmarket", "bid", True),
                                 listed["dmarket-bid"])
                self.assertIsNotNone(listed["dmarket-bid"]["last_success"])
                self.assertEqual(by_kind["bid"]["price"], 2905, points)
                self.assertEqual(by_kind["bid"]["listings"], 41)
                self.assertEqual(by_kind["ask"]["price"], 3188)
                self.assertEqual(by_kind["ask"]["listings"], 236)
                self.assertEqual(by_kind["ask"]["volume"], 0)
                self.assertTrue(1000 <= by_kind["ask"]["price"] <= 6000)

                # Steam search: asks in cents with listings.
                steam = self.history(daemon, ids[AK], "steam_search")
                self.assertEqual(steam[0]["price"], 3412, steam)
                self.assertEqual(steam[0]["kind"], "ask")
                self.assertEqual(steam[0]["listings"], 50)
                # Items without a picture got Steam's; the AK kept its own.
                awp = daemon.get("/api/v1/items/%d" % ids["AWP | Asiimov (Field-Tested)"]).json()
                self.assertEqual(awp["image_url"], ICON_BASE + "fake-icon_1")
                ak = daemon.get("/api/v1/items/%d" % ids[AK]).json()
                self.assertEqual(ak["image_url"], CATALOGUE[0][3])

                # Several cycles: DMarket starts a second pass over the catalogue, Steam's
                # offset wraps past total_count back to 0.
                def steam_wrapped():
                    with fake.lock:
                        starts = [r[1] for r in fake.steam_requests if not r[3]]
                    return 0 in starts[1:]
                self.assertTrue(wait_until(lambda: len(fake.dmarket_requests) >= 6 and
                                           steam_wrapped(), timeout=20, every=0.5))

                # DMarket's limits: batches of at most batch_size titles, well-formed
                # bodies, nothing sent inside a used-up window or a Retry-After.
                with fake.lock:
                    dm = list(fake.dmarket_requests)
                    steam_requests = list(fake.steam_requests)
                self.assertEqual(fake.dmarket_errors, [])
                self.assertTrue(all(1 <= n <= 4 for _, n in dm), dm)
                self.assertEqual(fake.dmarket_violations, [], dm)
                # The first poll's window ended with RateLimit-Remaining: 0: the next request
                # waited for the reset.
                self.assertGreaterEqual(dm[2][0] - dm[0][0], 1.5, dm)
                limited_at = dm[2][0]  # the third request was answered 429, Retry-After 2
                self.assertGreaterEqual(dm[3][0] - limited_at, 1.9, dm)

                # Steam: the throttled empty page was not the end: the next request asks
                # for the same page, after the hold-off; pages resume across polls.
                throttled = next(i for i, r in enumerate(steam_requests) if r[3])
                again = steam_requests[throttled + 1]
                self.assertEqual(again[1], steam_requests[throttled][1])
                self.assertGreaterEqual(again[0] - steam_requests[throttled][0], 1.9)
                starts = [r[1] for r in steam_requests if not r[3]]
                self.assertEqual(starts[:3], [0, 5, 10], steam_requests)
                # The shared budget (20 a minute, a quarter kept for imports): at most the
                # background's 15 at once, then one every 3 s.
                span = steam_requests[-1][0] - steam_requests[0][0]
                self.assertLessEqual(len(steam_requests), 15 + span / 3 + 1)

                # Not-in-catalogue names are counted, not stored; no source is failing now.
                sources = {s["name"]: s for s in daemon.admin_get("/readyz").json()["sources"]}
                self.assertGreaterEqual(
                    sources["steam_search"]["points_rejected"].get("not in catalogue", 0), 1)
                total = time.time() - started
                print("\npaced fake cycle: dmarket priced %d items (%d quotes of AK kinds %s), "
                      "steam search priced %d items, in %.1f s (test ran %.1f s); dmarket %d requests, "
                      "steam %d"
                      % (len(self.priced(daemon, ids, "dmarket")), len(points),
                         sorted(by_kind), len(self.priced(daemon, ids, "steam_search")),
                         elapsed, total, len(dm), len(steam_requests)))


if __name__ == "__main__":
    unittest.main()
