"""POST /api/v1/portfolio/import and GET /api/v1/portfolio against the real daemon and a
local fake of the platform's inventory endpoint (docs/api.md §6 and §2).

Users sign in the way real ones do, through the daemon's own gameid login flow with the
scripted test identity plugin; the fake inventory, the sign-in, the backfilled prices and
the class's daemon are portfolio_fixture.py's, shared with the other portfolio suites.
"""
import json
import os
import sqlite3
import threading
import time
import unittest

from fake_inventory import FakeInventory
from fakes.redis_server import RedisServer
from harness import BIN_DIR, TEST_PLUGIN_DIR, DaemonTestCase, wait_until
from portfolio_fixture import (ITEM_A, ITEM_B, ITEM_C, UNLIMITED, PortfolioDaemonTest,
                               make_daemon, next_platform_id, sign_in)


def holdings_in_db(workdir):
    with sqlite3.connect(os.path.join(workdir, "skinpulse.db")) as db:
        return db.execute("SELECT user_id, item_id, quantity FROM holdings "
                          "ORDER BY user_id, item_id").fetchall()


class PortfolioTest(PortfolioDaemonTest):
    """One daemon (embedded shared store, 600 s cooldown) for the single-import cases."""

    # Every refusal here is checked as the portfolio routes give it (no-store).
    assertProblem = PortfolioDaemonTest.assertNoStoreProblem

    def assertNothingImported(self, user):
        portfolio = user.portfolio()
        self.assertEqual(portfolio.status, 200, portfolio.body)
        body = portfolio.json()
        self.assertEqual(body["holdings"], [])
        self.assertIsNone(body["last_imported_at"])

    # -- the import ---------------------------------------------------------------------
    def test_two_page_import_then_valuation(self):
        user = self.new_user()
        self.fake.pages(user.platform_id, [
            [(ITEM_A, 1), (ITEM_B, 20), ("Not A Real Item | Anywhere", 1)],
            [(ITEM_A, 1), (ITEM_C, 1), (None, 3), (ITEM_B, 5)],
        ])
        empty = user.portfolio()
        self.assertEqual(empty.status, 200)
        self.assertEqual(empty.json(), {"user_id": empty.json()["user_id"], "total_value": 0,
                                        "cost_total": 0, "unrealised_pl": None,
                                        "change_24h_percent": None,
                                        "item_count": 0, "holdings": [],
                                        "last_imported_at": None,
                                        # docs/api.md §23: the new fields, all neutral
                                        "applied_value": 0, "applied_value_percent": 0,
                                        "accounts": [{"account": user.platform_id,
                                                      "label": "", "item_count": 0,
                                                      "total_value": 0,
                                                      "last_imported_at": None}],
                                        "left_holdings": [], "realised_pl": None})
        response = user.import_()
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual(response.header("cache-control"), "no-store")
        self.assertEqual(response.json(), {"message": "Imported 28 assets",
                                           "imported_assets": 28, "unmatched_assets": 4,
                                           "accounts": [{"account": user.platform_id,
                                                         "status": "imported",
                                                         "imported_assets": 28,
                                                         "unmatched_assets": 4}]})
        requests = self.fake.requests_for(user.platform_id)
        self.assertEqual(len(requests), 2)
        self.assertNotIn("start_assetid", requests[0])
        self.assertEqual(requests[1]["start_assetid"], "3")  # page 1's last_assetid

        portfolio = user.portfolio()
        self.assertEqual(portfolio.status, 200)
        body = portfolio.json()
        self.assertEqual(body["item_count"], 3)
        rows = [(h["market_hash_name"], h["quantity"], h["current_price"], h["total_value"])
                for h in body["holdings"]]
        # By total_value: knife 1 × 150010, AK 2 × 4010 = 8020, case 25 × 65 = 1625.
        self.assertEqual(rows, [(ITEM_C, 1, 150010, 150010), (ITEM_A, 2, 4010, 8020),
                                (ITEM_B, 25, 65, 1625)])
        self.assertEqual(body["total_value"], 150010 + 8020 + 1625)
        self.assertRegex(body["last_imported_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertEqual({h["imported_at"] for h in body["holdings"]}, {body["last_imported_at"]})
        self.assertEqual(set(body["holdings"][0]), {"item_id", "market_hash_name", "variant",
                                                    "quantity",
                                                    "current_price", "total_value",
                                                    "imported_at", "cost_basis", "acquired_at",
                                                    "unrealised_pl", "change_24h_percent",
                                                    # docs/api.md §23.1
                                                    "holding_id", "account", "applied",
                                                    "applied_value"})
        self.assertEqual({(h["account"], json.dumps(h["applied"]), h["applied_value"])
                          for h in body["holdings"]}, {(user.platform_id, "[]", 0)})
        # The shipped catalogue has a picture for the AK and the case, none for the knife:
        # the inventory's icon fills the knife's and leaves the others as they were.
        pictures = {h["market_hash_name"]:
                    self.daemon.get("/api/v1/items/%d" % h["item_id"]).json()["image_url"]
                    for h in body["holdings"]}
        self.assertEqual(pictures[ITEM_C], "https://community.akamai.steamstatic.com/"
                         "economy/image/-9a81dlWLwJ2UUGcVs_nsVtzdOEdtWwKGZZLQHTxDZ7I")
        for name in (ITEM_A, ITEM_B):
            self.assertRegex(pictures[name], r"^https://community\.akamai\.steamstatic\.com/"
                             r"economy/image/i0CoZ81Ui0m")

    def test_second_import_inside_the_cooldown(self):
        user = self.new_user()
        self.fake.pages(user.platform_id, [[(ITEM_B, 2)]])
        self.assertEqual(user.import_().status, 200)
        second = user.import_()
        self.assertProblem(second, 429, "import_cooldown")
        self.assertTrue(590 <= int(second.header("retry-after")) <= 600, second.header("retry-after"))
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), 1)

    def test_private_inventory_costs_nothing(self):
        user = self.new_user()
        self.fake.status(user.platform_id, 403)
        self.assertProblem(user.import_(), 422, "inventory_private")
        self.assertNothingImported(user)
        # No cooldown was started: the user fixes the privacy setting and imports at once.
        self.fake.pages(user.platform_id, [[(ITEM_A, 1)]])
        self.assertEqual(user.import_().status, 200)

    def test_repeated_failures_pause_the_user(self):
        user = self.new_user()
        other = self.new_user()
        self.fake.status(user.platform_id, 403)
        for _ in range(3):
            self.assertProblem(user.import_(), 422, "inventory_private")
        # The fourth try within 10 minutes waits a minute, and the platform is not asked.
        paused = user.import_()
        self.assertProblem(paused, 429, "import_cooldown")
        self.assertTrue(50 <= int(paused.header("retry-after")) <= 60, paused.headers)
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), 3)
        # Nobody else pays for it.
        self.fake.pages(other.platform_id, [[(ITEM_B, 1)]])
        self.assertEqual(other.import_().status, 200)

    def test_profile_not_set_up(self):
        user = self.new_user()
        self.fake.status(user.platform_id, 401)
        self.assertProblem(user.import_(), 422, "inventory_unavailable")
        self.assertNothingImported(user)

    def test_upstream_failures(self):
        user = self.new_user()
        for status in (500, 503, 429):
            self.fake.status(user.platform_id, status)
            self.assertProblem(user.import_(), 502, "upstream_unavailable")
        self.assertNothingImported(user)
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), 3)  # no cooldown

    def test_oversize_body_stops_reading_early(self):
        user = self.new_user()
        total = 64 * 1024 * 1024  # 256 times the cap
        self.fake.oversize(user.platform_id, total)
        started = time.time()
        self.assertProblem(user.import_(), 502, "inventory_too_large")
        result = self.fake.wait_oversize_result(user.platform_id)
        self.assertTrue(result["closed_early"], result)
        self.assertLess(result["sent"], total // 4, result)
        self.assertLess(time.time() - started, 10)
        self.assertNothingImported(user)

    def test_slow_upstream_times_out(self):
        user = self.new_user()
        self.fake.slow(user.platform_id, 6)
        started = time.time()
        self.assertProblem(user.import_(), 502, "upstream_unavailable")
        self.assertLess(time.time() - started, 5)  # the 2 s page timeout, not the 6 s wait
        self.assertNothingImported(user)

    def test_too_many_pages(self):
        user = self.new_user()
        self.fake.pages(user.platform_id, [[(ITEM_B, 1)]] * 51)
        self.assertProblem(user.import_(), 502, "inventory_too_large")
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), 50)
        self.assertNothingImported(user)

    def test_two_concurrent_imports_run_once(self):
        user = self.new_user()
        self.fake.pages(user.platform_id, [[(ITEM_B, 3)]], delay=1.0)
        # The CSRF token first, so both requests race for the lock only.
        token = self.daemon.get("/api/v1/auth/csrf", headers={"Cookie": user.cookie})
        user.csrf = token.json()["csrf_token"]
        results = []
        barrier = threading.Barrier(2)

        def run():
            barrier.wait()
            results.append(user.import_())

        threads = [threading.Thread(target=run) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        statuses = sorted(r.status for r in results)
        self.assertEqual(statuses, [200, 429], [r.body for r in results])
        refused = next(r for r in results if r.status == 429)
        self.assertEqual(refused.json()["code"], "import_cooldown")
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), 1)

    # -- preconditions, in order --------------------------------------------------------
    def test_preconditions(self):
        # No session at all: 401, before anything else.
        anonymous = self.daemon.request("POST", "/api/v1/portfolio/import")
        self.assertProblem(anonymous, 401, "unauthenticated")
        self.assertProblem(self.daemon.get("/api/v1/portfolio"), 401, "unauthenticated")
        user = self.new_user()
        self.fake.pages(user.platform_id, [[(ITEM_B, 1)]])
        # Session but no CSRF token, then a wrong one: 403.
        self.assertProblem(user.import_(csrf=False), 403, "csrf_failed")
        wrong = self.daemon.request("POST", "/api/v1/portfolio/import",
                                    headers={"Cookie": user.cookie, "X-CSRF-Token": "nope"})
        self.assertProblem(wrong, 403, "csrf_failed")
        # A body where none is taken.
        self.assertProblem(user.import_(body=b"{}"), 400, "invalid_body")
        self.assertEqual(self.fake.requests_for(user.platform_id), [])

    def test_without_a_linked_gameid(self):
        user = sign_in(self.daemon, provider="idp-a", email="nolink-%d@example.com" % time.time_ns())
        self.assertProblem(user.import_(), 409, "gameid_not_linked")
        self.assertNothingImported(user)

    def test_invalid_platform_id_never_reaches_the_platform(self):
        user = self.new_user()
        # A link that the login would refuse today (account number 0), as a stale row.
        bad = "76561197960265728"
        with sqlite3.connect(os.path.join(self._classtmp, "skinpulse.db"), timeout=10) as db:
            db.execute("UPDATE game_links SET platform_id = ? WHERE platform_id = ?",
                       (bad, user.platform_id))
        self.fake.pages(bad, [[(ITEM_B, 1)]])
        self.assertProblem(user.import_(), 400, "invalid_platform_id")
        self.assertEqual(self.fake.requests_for(bad), [])


class PortfolioLifecycleTest(DaemonTestCase):
    """Cases that need their own daemons: short cooldowns, restarts, Redis."""

    def setUp(self):
        super().setUp()
        self.fake = FakeInventory().start()
        self.daemons = []
        self.redis = None

    def tearDown(self):
        for daemon in self.daemons:
            daemon.stop()
        if self.redis:
            self.redis.kill()
        self.fake.stop()
        super().tearDown()

    def start(self, workdir=None, budget=UNLIMITED, extra_ini="", **env):
        workdir = workdir or self.workdir
        daemon = make_daemon(workdir, self.fake, budget=budget, extra_ini=extra_ini, **env)
        self.daemons.append(daemon)
        return daemon.start()

    def test_item_that_left_the_inventory_is_deleted(self):
        daemon = self.start(IMPORT_COOLDOWN_SECONDS="1")
        user = sign_in(daemon, platform_id=next_platform_id())
        self.fake.pages(user.platform_id, [[(ITEM_A, 1), (ITEM_B, 4)], [(ITEM_C, 1)]])
        self.assertEqual(user.import_().json()["imported_assets"], 6)
        first = user.portfolio().json()
        time.sleep(1.2)  # the 1 s cooldown passes
        self.fake.pages(user.platform_id, [[(ITEM_B, 7)]], first_assetid=100)
        second = user.import_()
        self.assertEqual(second.status, 200, second.body)
        self.assertEqual(second.json()["imported_assets"], 7)
        body = user.portfolio().json()
        self.assertEqual([(h["market_hash_name"], h["quantity"]) for h in body["holdings"]],
                         [(ITEM_B, 7)])
        self.assertEqual(body["item_count"], 1)
        self.assertGreaterEqual(body["last_imported_at"], first["last_imported_at"])

    def test_game_platform_budget_is_shared_with_the_market_source(self):
        # 8 requests a minute: polling the platform's market may take 6, 2 stay for imports.
        market = ("[source.steam]\nplugin = steam_market\ninterval_seconds = 1\n"
                  "url = http://127.0.0.1:%d\nrequests_per_minute = 600\n"
                  "items = %s, %s, %s, %s, %s, %s, %s, %s\n"
                  % ((self.fake.port,) + (ITEM_A, ITEM_B, ITEM_C) * 2 + (ITEM_A, ITEM_B)))
        # The test identity plugin and the real steam_market plugin, side by side.
        plugins = os.path.join(self.workdir, "plugins")
        os.makedirs(plugins)
        test_plugins = os.path.abspath(os.path.join(TEST_PLUGIN_DIR, "integration"))
        for name in os.listdir(test_plugins):
            os.symlink(os.path.join(test_plugins, name), os.path.join(plugins, name))
        os.symlink(os.path.abspath(os.path.join(BIN_DIR, "..", "lib", "skinpulse", "plugins",
                                                "source_steam_market.so")),
                   os.path.join(plugins, "source_steam_market.so"))
        daemon = self.start(budget=8, extra_ini=market, IMPORT_COOLDOWN_SECONDS="0",
                            SKINPULSE_PLUGIN_DIR=plugins)
        self.assertTrue(wait_until(lambda: self.fake.market_request_count() >= 6, timeout=20))
        time.sleep(1.5)
        self.assertLessEqual(self.fake.market_request_count(), 7)  # the reserve is not polled
        # A user's two pages take the reserve ...
        first = sign_in(daemon, platform_id=next_platform_id())
        self.fake.pages(first.platform_id, [[(ITEM_A, 1)], [(ITEM_B, 2)]])
        response = first.import_()
        self.assertEqual(response.status, 200, response.body)
        # ... and a second import finds the budget used up: a wait, not an upstream error.
        second = sign_in(daemon, platform_id=next_platform_id())
        self.fake.pages(second.platform_id, [[(ITEM_A, 1)], [(ITEM_B, 1)], [(ITEM_C, 1)]])
        refused = second.import_()
        self.assertProblem(refused, 429, "import_cooldown")
        self.assertTrue(1 <= int(refused.header("retry-after")) <= 8, refused.headers)
        self.assertLess(len(self.fake.requests_for(second.platform_id)), 3)
        self.assertEqual(second.portfolio().json()["item_count"], 0)

    def test_failing_accounts_cannot_empty_the_budget_for_a_healthy_user(self):
        # issue 31: accounts whose imports keep failing took every token of the shared
        # budget, and a healthy user's import was refused. 8 requests a minute (a token
        # every 7.5 s: none comes back during the test); 2 are kept for users without a
        # recent failure.
        daemon = self.start(budget=8, IMPORT_COOLDOWN_SECONDS="0")
        failing = [sign_in(daemon, platform_id=next_platform_id()) for _ in range(6)]
        for user in failing:
            self.fake.status(user.platform_id, 500)
        outcomes = []
        for _ in range(3):  # each retries at once, within its own throttle (3 failures)
            for user in failing:
                outcomes.append(user.import_().status)
        reached = sum(len(self.fake.requests_for(u.platform_id)) for u in failing)
        # The first round is theirs (6 tokens); after it they may not take the last 2.
        self.assertEqual(outcomes[:6], [502] * 6)
        self.assertEqual(outcomes[6:], [429] * 12)
        self.assertEqual(reached, 6)
        healthy = sign_in(daemon, platform_id=next_platform_id())
        self.fake.pages(healthy.platform_id, [[(ITEM_A, 1)]])
        response = healthy.import_()
        self.assertEqual(response.status, 200, response.body)
        print("\n6 failing accounts x 3 tries: %d reached the platform, %d refused for "
              "the budget; the healthy user's import: %d" % (reached, outcomes.count(429),
                                                           response.status))

    def test_cooldown_holds_across_a_restart(self):
        daemon = self.start()
        user = sign_in(daemon, platform_id=next_platform_id())
        self.fake.pages(user.platform_id, [[(ITEM_B, 2)]])
        self.assertEqual(user.import_().status, 200)
        daemon.stop()
        restarted = self.start()  # same database, same embedded shared store
        user.daemon = restarted
        again = user.import_()
        self.assertEqual(again.status, 429, again.body)
        self.assertEqual(again.json()["code"], "import_cooldown")
        self.assertLessEqual(int(again.header("retry-after")), 600)
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), 1)

    def test_cooldown_is_shared_by_instances_on_one_redis(self):
        self.redis = RedisServer().start()
        first = self.start(REDIS_URL=self.redis.url)
        other_dir = os.path.join(self.workdir, "second")
        os.mkdir(other_dir)
        second = self.start(other_dir, REDIS_URL=self.redis.url,
                            DATABASE_URL=first.env["DATABASE_URL"])
        user = sign_in(first, platform_id=next_platform_id())
        self.fake.pages(user.platform_id, [[(ITEM_B, 2)]])
        self.assertEqual(user.import_().status, 200)
        user.daemon = second  # the session lives in Redis too
        refused = user.import_()
        self.assertEqual(refused.status, 429, refused.body)
        self.assertEqual(refused.json()["code"], "import_cooldown")
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), 1)

    def test_redis_killed_fails_closed(self):
        self.redis = RedisServer().start()
        daemon = self.start(REDIS_URL=self.redis.url, IMPORT_COOLDOWN_SECONDS="0")
        user = sign_in(daemon, platform_id=next_platform_id())
        self.fake.pages(user.platform_id, [[(ITEM_A, 1)]])
        self.assertEqual(user.import_().status, 200)
        before = holdings_in_db(self.workdir)
        self.assertEqual(len(before), 1)
        self.fake.pages(user.platform_id, [[(ITEM_B, 9)]], first_assetid=50)
        self.redis.kill()
        refused = user.import_()
        self.assertEqual(refused.status, 503, refused.body)
        self.assertEqual(refused.json()["code"], "store_unavailable")
        self.assertIsNotNone(refused.header("retry-after"))
        self.assertEqual(len(self.fake.requests_for(user.platform_id)), 1)  # never fetched
        self.assertEqual(holdings_in_db(self.workdir), before)  # nothing written
        self.assertEqual(daemon.proc.poll(), None)  # and the daemon is fine


if __name__ == "__main__":
    unittest.main()
