"""skinpulsectl backfill while the daemon runs (issue 3 §6): the backfilled points reach
item detail (latest_prices, current_price) without a restart, within about a second of
the tool's exit (issue 22 §5: the daemon looks at the backfill revision every 250 ms)."""
import json
import os
import time
import urllib.parse

from harness import Daemon, DaemonTestCase, iso, run_tool

NAME = "AWP | Asiimov (Field-Tested)"


class BackfillLiveTest(DaemonTestCase):
    def backfill(self, daemon, lines):
        path = os.path.join(self.workdir, "lines-%d.jsonl" % time.monotonic_ns())
        with open(path, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")
        result = run_tool("skinpulsectl", "backfill", "--config", daemon.config, "--file", path,
                          env=daemon.env)
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)

    def detail(self, daemon, item_id):
        response = daemon.get("/api/v1/items/%d" % item_id)
        self.assertEqual(response.status, 200, response.body)
        return response.json()

    def wait_for_price(self, daemon, item_id, price, timeout=20):
        """The body once current_price is `price`; fails unless that took at most ~1 s."""
        started = time.monotonic()
        deadline = started + timeout
        while time.monotonic() < deadline:
            body = self.detail(daemon, item_id)
            if body["current_price"] == price:
                # 250 ms between looks plus the reload; the bound leaves room for a loaded
                # machine, and is far below the 5 s the periodic refresh would take.
                self.assertLess(time.monotonic() - started, 1.5,
                                "the backfill took more than ~1 s to show")
                return body
            time.sleep(0.05)
        self.fail("current_price never became %d: %s" % (price, body))

    def test_points_backfilled_into_a_running_daemon_reach_item_detail(self):
        now = int(time.time())
        with Daemon(self.workdir) as daemon:
            found = daemon.get("/api/v1/items?q=" + urllib.parse.quote(NAME)).json()
            item_id = next(i["id"] for i in found if i["market_hash_name"] == NAME)
            self.assertIsNone(self.detail(daemon, item_id)["current_price"])

            self.backfill(daemon, [
                {"market_hash_name": NAME, "source": "archive", "time": iso(now - 7200),
                 "price": 9000, "volume": 1},
                {"market_hash_name": NAME, "source": "archive", "time": iso(now - 600),
                 "price": 9100, "volume": 2},
            ])
            body = self.wait_for_price(daemon, item_id, 9100)
            self.assertEqual([(p["source"], p["price"]) for p in body["latest_prices"]],
                             [("archive", 9100)])

            # A second backfill with a newer point moves the price again: the daemon keeps
            # watching, not just once.
            self.backfill(daemon, [{"market_hash_name": NAME, "source": "archive",
                                    "time": iso(now - 60), "price": 9250, "volume": 1}])
            self.wait_for_price(daemon, item_id, 9250)
            self.assertTrue(any("backfilled prices found: caches reloaded" in line
                                for line in daemon.stderr_lines))
