"""The five keyless list markets at once (csfloat's price list, market_csgo, waxpeer,
bitskins, csdeals): the real daemon polls a local fake of each every second
(fakes/list_markets.py), stores every price in cents with its kind and listing count, and
keeps storing while one market rate-limits (its Retry-After honoured) and the others fail
with 500, garbage and an oversize body (docs/api.md §4)."""
import json
import os
import re
import time
import unittest
import urllib.parse

from fakes.list_markets import (BID_SPREAD, LISTINGS_BASE, MARKETS, PRICE_BASE,
                                FakeListMarkets)
from harness import SOURCE_DIR, Daemon, DaemonTestCase, wait_until

REDLINE = "AK-47 | Redline (Field-Tested)"
ITEMS = 2000  # per market and cycle; market_csgo prices each twice (ask and bid)
RETRY_AFTER = 6


def catalogue_names(count):
    """REDLINE first, then `count - 1` other catalogue skins, spread over the catalogue."""
    with open(os.path.join(SOURCE_DIR, "share/catalog/items.jsonl"), encoding="utf-8") as f:
        # Base items only: a variant line repeats its base's name.
        names = [e["market_hash_name"] for e in map(json.loads, f) if "variant" not in e]
    names = [n for n in names if n != REDLINE and not n.startswith("#")]
    stride = max(1, len(names) // count)
    return [REDLINE] + names[::stride][:count - 1]


class SourcesListsTest(DaemonTestCase):
    def sources(self, daemon):
        return {s["name"]: s for s in daemon.admin_get("/readyz").json()["sources"]}

    def history(self, daemon, item_id, source):
        return daemon.get("/api/v1/items/%d/history?window=1h&source=%s" % (item_id, source)).json()

    def item_id(self, daemon, name):
        items = daemon.get("/api/v1/items?limit=500&q=" + urllib.parse.quote(name)).json()
        return next(i["id"] for i in items if i["market_hash_name"] == name)

    def test_five_list_markets_at_once(self):
        names = catalogue_names(ITEMS)
        with FakeListMarkets(names) as fake:
            ini = "[log]\nlevel = debug\n\n" + "".join(
                "[source.%s]\nplugin = %s\ninterval_seconds = 1\nurl = %s\n"
                "max_bytes = 4194304\n\n" % (m, m, fake.url(m)) for m in MARKETS)
            with Daemon(self.workdir, ini=ini) as daemon:
                redline = self.item_id(daemon, REDLINE)
                last = self.item_id(daemon, names[-1])

                # Several cycles of every market.
                def cycled():
                    states = self.sources(daemon)
                    return all(states[m]["points_accepted"] >= 2 * ITEMS for m in MARKETS)
                self.assertTrue(wait_until(cycled, timeout=20), self.sources(daemon))
                steps = dict(fake.steps)

                # Stored in cents, with the right kind and listings, from each unit:
                # item i's ask is PRICE_BASE + 100 i + step cents, its listings LISTINGS_BASE + i.
                for market in MARKETS:
                    for item_id, i in ((redline, 0), (last, len(names) - 1)):
                        points = self.history(daemon, item_id, market)
                        asks = [p for p in points if p["kind"] == "ask"]
                        self.assertGreaterEqual(len(asks), 2, (market, points))
                        for p in asks:
                            self.assertIn(p["price"] - PRICE_BASE - 100 * i,
                                          range(1, steps[market] + 2), (market, p))
                            self.assertEqual(p["volume"], 0, (market, p))
                            self.assertEqual(p["listings"],
                                             None if market == "csdeals" else LISTINGS_BASE + i,
                                             (market, p))
                        if market == "market_csgo":
                            # Bids are another kind than the instance's: their own series.
                            bids = self.history(daemon, item_id, "market_csgo-bid")
                            self.assertEqual({p["kind"] for p in bids}, {"bid"}, bids)
                            self.assertGreaterEqual(len(bids), 2, points)
                            for p in bids:  # the better of the two class_instance entries
                                self.assertIn(p["price"] + BID_SPREAD - PRICE_BASE - 100 * i,
                                              range(1, steps[market] + 2), p)
                                self.assertIsNone(p["listings"], p)
                        self.assertEqual(len(asks), len(points), (market, points))
                # The Redline is $10-$60 everywhere: no unit slipped by x10 or x100.
                detail = daemon.get("/api/v1/items/%d" % redline).json()
                for p in detail["latest_prices"]:
                    self.assertTrue(1000 <= p["price"] <= 6000, p)

                # Now one market rate-limits and three fail; market_csgo keeps going.
                before = {m: len(self.history(daemon, redline, m)) for m in MARKETS}
                changed_at = time.time()
                fake.set_mode("csfloat", "429", retry_after=RETRY_AFTER)
                fake.set_mode("waxpeer", "500")
                fake.set_mode("bitskins", "garbage")
                fake.set_mode("csdeals", "oversize")
                self.assertTrue(wait_until(
                    lambda: self.sources(daemon)["csfloat"]["consecutive_failures"] >= 1,
                    timeout=5))
                first_429 = min(t for t in fake.request_times("csfloat") if t >= changed_at)
                accepted = self.sources(daemon)["market_csgo"]["points_accepted"]
                time.sleep(max(0.0, first_429 + RETRY_AFTER - 1.0 - time.time()))
                states = self.sources(daemon)

                # The 429's Retry-After is honoured: no csfloat request until it has passed.
                self.assertIn("rate", states["csfloat"]["last_error"])
                self.assertEqual(states["csfloat"]["consecutive_failures"], 1, states["csfloat"])
                later = [t - first_429 for t in fake.request_times("csfloat") if t > first_429]
                self.assertEqual(later, [], "csfloat polled again before its Retry-After")
                next_poll = time.mktime(time.strptime(states["csfloat"]["next_poll"][:19],
                                                      "%Y-%m-%dT%H:%M:%S")) - time.timezone
                self.assertGreaterEqual(next_poll, first_429 + RETRY_AFTER - 1.5, states["csfloat"])
                for market, word in (("waxpeer", "unavailable"), ("bitskins", "malformed"),
                                     ("csdeals", "max_bytes")):
                    self.assertGreaterEqual(states[market]["consecutive_failures"], 1,
                                            states[market])
                    self.assertIn(word, states[market]["last_error"].lower(), states[market])
                    self.assertIsNotNone(states[market]["last_success"])
                # The healthy market kept storing, and nobody lost what was stored.
                self.assertGreater(states["market_csgo"]["points_accepted"], accepted)
                self.assertEqual(states["market_csgo"]["last_error"], "")
                for market in MARKETS:
                    self.assertGreaterEqual(len(self.history(daemon, redline, market)),
                                            before[market], market)

                # The report's figures: items priced per cycle and the plugin's parse time.
                parse = {}
                for line in daemon.stderr_lines:
                    match = re.search(r"(\w+) (/\S+): (\d+) items, (\d+) quotes.*parsed in "
                                      r"([\d.]+) ms", line)
                    if match:
                        parse.setdefault((match.group(1), match.group(2)), []).append(
                            (int(match.group(4)), float(match.group(5))))
                for (market, path), runs in sorted(parse.items()):
                    print("fake cycle: %-12s %-40s %5d items priced, parse %.1f ms (median of %d)"
                          % (market, path, runs[-1][0],
                             sorted(r[1] for r in runs)[len(runs) // 2], len(runs)))


if __name__ == "__main__":
    unittest.main()
