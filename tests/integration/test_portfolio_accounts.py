"""Several game-platform accounts per user (docs/api.md §23.2), end to end: two accounts
linked through the daemon's real OpenID 2.0 link flow (the local OP of
fakes/openid_provider.py signs each assertion; the daemon verifies it by
check_authentication), imported one and all against the local inventory fake (one
scenario per platform id), each with its own cooldown; GET /auth/me `gameids`; the
label and the unlink endpoints; [gameid] max_accounts.

When the holdings model of §23 is in the build (holdings carry `account`), the
Portfolio's per-account view is checked too: the accounts shown apart (`?account=`) and
together, and an unlinked account's holdings gone.

The fake inventory and the class's daemon are portfolio_fixture.py's (with the real OpenID
2.0 login in place of the scripted identity plugin, and no prices); the class runs on
SQLite and again on PostgreSQL (SKINPULSE_TEST_POSTGRES_URL, a schema of its own).
"""
import json
import os
import time
import unittest
import urllib.parse

import test_auth_flows
from fakes.openid_provider import FakeOpenIdProvider, claimed_id_for
from harness import Daemon
from portfolio_fixture import ITEM_A, ITEM_B, POSTGRES_URL, POSTGRESQL, PortfolioDaemonTest

MAX_ACCOUNTS = 3
INI = """[gameid]
requests_per_minute = 100000
max_accounts = %d
[portfolio]
inventory_timeout_seconds = 2
""" % MAX_ACCOUNTS


class Account:
    """A signed-in browser (test_auth_flows.Browser keeps its cookies) that also sends
    POST, PATCH and DELETE with its session cookie and CSRF token."""

    def __init__(self, test, browser):
        self.test = test
        self.browser = browser
        self.csrf = None

    def cookie_header(self):
        return "; ".join("%s=%s" % kv for kv in self.browser.cookies.items())

    def get(self, path):
        return self.test.daemon.get(path, headers={"Cookie": self.cookie_header()})

    def send(self, method, path, body=None, csrf=True):
        headers = {"Cookie": self.cookie_header()}
        if csrf:
            if self.csrf is None:
                self.csrf = self.get("/api/v1/auth/csrf").json()["csrf_token"]
            headers["X-CSRF-Token"] = self.csrf
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = body if isinstance(body, (bytes, str)) else json.dumps(body)
        return self.test.daemon.request(method, path, body=body, headers=headers)

    def me(self):
        response = self.get("/api/v1/auth/me")
        self.test.assertEqual(response.status, 200, response.body)
        return response.json()

    def import_(self, account=None):
        query = "?account=" + urllib.parse.quote(account) if account is not None else ""
        return self.send("POST", "/api/v1/portfolio/import" + query)

    def portfolio(self, account=None):
        query = "?account=" + account if account else ""
        response = self.get("/api/v1/portfolio" + query)
        self.test.assertEqual(response.status, 200, response.body)
        return response.json()


class PortfolioAccountsTest(PortfolioDaemonTest):
    """One daemon (embedded shared store, 600 s cooldown, max_accounts 3)."""

    prices = None  # nothing here is valued

    @classmethod
    def start_peers(cls):
        cls.op = FakeOpenIdProvider().__enter__()
        cls.addClassCleanup(cls.op.__exit__, None, None, None)

    @classmethod
    def class_daemon(cls, workdir, store_env):
        env = {
            "GAMEID_OPENID_ENABLED": "true",
            "GAMEID_OPENID_URL": cls.op.endpoint,
            "GAMEID_API_URL": "http://127.0.0.1:%d" % cls.op.port,
            "GAMEID_INVENTORY_URL": cls.fake.base_url,
            "IMPORT_COOLDOWN_SECONDS": str(cls.import_cooldown_seconds),
            "AUTH_RATE_LIMIT_PER_MINUTE": "100000",
            "REDIS_URL": "",
        }
        daemon = Daemon(workdir, ini=INI, env=dict(env, **store_env))
        cls.base = "http://127.0.0.1:%d" % daemon.port
        return daemon

    _serial = [0]

    def fresh_platform_id(self):
        self._serial[0] += 1
        return str(76561198100000000 + os.getpid() % 100000 * 1000 + self._serial[0])

    # -- the OpenID flows -----------------------------------------------------------------
    def openid_flow(self, browser, start_path, id64):
        """start → the OP approves, asserting `id64` → the daemon's callback; answers the
        auth_error code, or None when the daemon accepted."""
        self.op.claimed_id = claimed_id_for(id64)
        status, headers, body = browser.get(start_path)
        self.assertEqual(status, 302, body)
        status, headers, body = test_auth_flows.Browser(self.daemon).get(headers["location"])
        self.assertEqual(status, 302, body)
        callback = headers["location"]
        self.assertTrue(callback.startswith(self.base + "/api/v1/auth/gameid/"), callback)
        status, headers, body = browser.get(callback)
        self.assertEqual(status, 302, body)
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(headers["location"]).query))
        return query.get("auth_error")

    def sign_in(self, id64):
        """A new browser signed in with the gameid login of `id64`."""
        browser = test_auth_flows.Browser(self.daemon)
        self.assertIsNone(self.openid_flow(browser, "/api/v1/auth/gameid/login", id64))
        return Account(self, browser)

    def link(self, account, id64):
        """Links `id64` to the signed-in `account`; answers the auth_error code or None."""
        error = self.openid_flow(account.browser, "/api/v1/auth/gameid", id64)
        account.csrf = None  # the link rotates the session, and its token with it
        return error

    def two_accounts(self):
        main, storage = self.fresh_platform_id(), self.fresh_platform_id()
        user = self.sign_in(main)
        self.assertIsNone(self.link(user, storage))
        self.fake.pages(main, [[(ITEM_A, 2)]])
        self.fake.pages(storage, [[(ITEM_B, 5), ("Not A Real Item | Anywhere", 1)]])
        return user, main, storage

    # -- tests ----------------------------------------------------------------------------
    def test_link_adds_accounts_and_me_lists_them(self):
        main, storage = self.fresh_platform_id(), self.fresh_platform_id()
        user = self.sign_in(main)
        me = user.me()
        self.assertEqual(me["gameid"]["platform_id"], main)
        self.assertEqual([g["platform_id"] for g in me["gameids"]], [main])
        self.assertEqual(me["gameids"][0]["label"], "")
        self.assertEqual(me["gameids"][0]["linked_at"], me["gameid"]["linked_at"])

        self.assertIsNone(self.link(user, storage))
        me = user.me()
        # `gameid` stays the oldest link; `gameids` lists all, oldest first.
        self.assertEqual(me["gameid"]["platform_id"], main)
        self.assertEqual([g["platform_id"] for g in me["gameids"]], [main, storage])
        self.assertEqual(set(me["gameids"][1]), {"platform_id", "label", "linked_at"})
        self.assertRegex(me["gameids"][1]["linked_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

        # The same id again: a success that changes nothing.
        before = me["gameids"]
        time.sleep(1.1)
        self.assertIsNone(self.link(user, storage))
        self.assertEqual(user.me()["gameids"], before)

        # Either linked id signs into this same user.
        again = self.sign_in(storage)
        self.assertEqual(again.me()["user_id"], me["user_id"])

        # An id of another user is refused as before.
        other = self.sign_in(self.fresh_platform_id())
        self.assertEqual(self.link(other, main), "already_linked")
        self.assertEqual(len(other.me()["gameids"]), 1)

    def test_max_accounts(self):
        user = self.sign_in(self.fresh_platform_id())
        for _ in range(MAX_ACCOUNTS - 1):
            self.assertIsNone(self.link(user, self.fresh_platform_id()))
        extra = self.fresh_platform_id()
        self.assertEqual(self.link(user, extra), "too_many_accounts")
        ids = [g["platform_id"] for g in user.me()["gameids"]]
        self.assertEqual(len(ids), MAX_ACCOUNTS)
        self.assertNotIn(extra, ids)
        # At the cap, re-linking one the user holds still succeeds; after an unlink a new
        # one fits again.
        self.assertIsNone(self.link(user, ids[1]))
        self.assertEqual(user.send("DELETE", "/api/v1/auth/gameid/" + ids[1]).status, 204)
        self.assertIsNone(self.link(user, extra))
        self.assertEqual([g["platform_id"] for g in user.me()["gameids"]],
                         [ids[0], ids[2], extra])

    def test_import_one_then_all_each_with_its_cooldown(self):
        user, main, storage = self.two_accounts()
        one = user.import_(storage)
        self.assertEqual(one.status, 200, one.body)
        self.assertEqual(one.header("cache-control"), "no-store")
        self.assertEqual(one.json(), {
            "message": "Imported 5 assets", "imported_assets": 5, "unmatched_assets": 1,
            "accounts": [{"account": storage, "status": "imported", "imported_assets": 5,
                          "unmatched_assets": 1}]})
        self.assertEqual(len(self.fake.requests_for(storage)), 1)
        self.assertEqual(self.fake.requests_for(main), [])

        # That account cools down; alone it is refused as a one-account import always was.
        again = user.import_(storage)
        self.assertProblem(again, 429, "import_cooldown")
        self.assertGreater(int(again.header("retry-after")), 590)
        self.assertEqual(len(self.fake.requests_for(storage)), 1)

        # All: the other account imports, the cooled one is reported, the answer is 200.
        both = user.import_()
        self.assertEqual(both.status, 200, both.body)
        body = both.json()
        self.assertEqual(body["imported_assets"], 2)
        self.assertEqual(body["unmatched_assets"], 0)
        self.assertEqual(body["message"], "Imported 2 assets")
        self.assertEqual(body["accounts"][0], {"account": main, "status": "imported",
                                               "imported_assets": 2, "unmatched_assets": 0})
        failed = body["accounts"][1]
        self.assertEqual(failed["account"], storage)
        self.assertEqual(failed["status"], "failed")
        self.assertEqual(failed["code"], "import_cooldown")
        self.assertTrue(failed["detail"])
        self.assertTrue(1 <= failed["retry_after"] <= 600, failed)
        self.assertEqual(len(self.fake.requests_for(main)), 1)

        # Every account cooling down: the first one's refusal, exactly as before.
        refused = user.import_()
        self.assertProblem(refused, 429, "import_cooldown")
        self.assertTrue(1 <= int(refused.header("retry-after")) <= 600)
        self.assertEqual(len(self.fake.requests_for(main)), 1)
        self.assertIsNotNone(user.portfolio()["last_imported_at"])

    def test_a_failing_account_leaves_the_other(self):
        user, main, storage = self.two_accounts()
        self.fake.status(storage, 403)  # private
        response = user.import_()
        self.assertEqual(response.status, 200, response.body)
        accounts = response.json()["accounts"]
        self.assertEqual([a["status"] for a in accounts], ["imported", "failed"])
        self.assertEqual(accounts[1]["code"], "inventory_private")
        self.assertNotIn("retry_after", accounts[1])
        # Alone, the failed account answers as a one-account import does, and it may be
        # retried at once (a failure starts no cooldown).
        self.assertProblem(user.import_(storage), 422, "inventory_private")
        self.fake.pages(storage, [[(ITEM_B, 1)]])
        self.assertEqual(user.import_(storage).status, 200)

    def test_every_account_failing_answers_the_first_ones_error(self):
        user, main, storage = self.two_accounts()
        self.fake.status(main, 401)  # profile not set up
        self.fake.status(storage, 403)
        self.assertProblem(user.import_(), 422, "inventory_unavailable")
        self.assertEqual(len(self.fake.requests_for(storage)), 1)  # tried too
        self.assertIsNone(user.portfolio()["last_imported_at"])

    def test_import_of_an_account_that_is_not_the_users(self):
        user, main, storage = self.two_accounts()
        other = self.fresh_platform_id()
        self.sign_in(other)
        for account in (other, "76561198100000000", "not-an-id", ""):
            self.assertProblem(user.import_(account), 404, "not_found")
        self.assertEqual(self.fake.requests_for(main) + self.fake.requests_for(storage), [])
        self.assertProblem(user.send("POST", "/api/v1/portfolio/import?account=" + main,
                                     csrf=False), 403, "csrf_failed")

    def test_label(self):
        user, main, storage = self.two_accounts()
        path = "/api/v1/auth/gameid/" + storage
        response = user.send("PATCH", path, {"label": "storage ✓"})
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual(response.header("cache-control"), "no-store")
        body = response.json()
        self.assertEqual(body["platform_id"], storage)
        self.assertEqual(body["label"], "storage ✓")
        gameids = user.me()["gameids"]
        self.assertEqual([g["label"] for g in gameids], ["", "storage ✓"])
        self.assertEqual(gameids[1], body)
        self.assertEqual(user.send("PATCH", path, {"label": "x" * 40}).status, 200)
        for bad in ({"label": "x" * 41}, {"label": "tab\there"}, {"label": 7}, {},
                    {"label": "ok", "other": 1}, "not json", [1]):
            self.assertProblem(user.send("PATCH", path, bad), 400, "invalid_body")
        self.assertEqual(user.me()["gameids"][1]["label"], "x" * 40)
        self.assertProblem(user.send("PATCH", path, {"label": "a"}, csrf=False), 403,
                           "csrf_failed")
        stranger = self.sign_in(self.fresh_platform_id())
        self.assertProblem(stranger.send("PATCH", path, {"label": "mine"}), 404, "not_found")
        self.assertProblem(self.daemon.request("PATCH", path, body="{}"), 401, "unauthenticated")
        # Clearing it.
        self.assertEqual(user.send("PATCH", path, {"label": ""}).json()["label"], "")

    def test_unlink(self):
        user, main, storage = self.two_accounts()
        self.assertEqual(user.import_().status, 200)
        path = "/api/v1/auth/gameid/" + storage
        stranger = self.sign_in(self.fresh_platform_id())
        self.assertProblem(stranger.send("DELETE", path), 404, "not_found")
        self.assertProblem(user.send("DELETE", path, csrf=False), 403, "csrf_failed")
        self.assertProblem(user.get(path), 405, "method_not_allowed")

        response = user.send("DELETE", path)
        self.assertEqual(response.status, 204, response.body)
        self.assertEqual(response.body, b"")
        me = user.me()
        self.assertEqual([g["platform_id"] for g in me["gameids"]], [main])
        self.assertProblem(user.send("DELETE", path), 404, "not_found")
        self.assertProblem(user.import_(storage), 404, "not_found")

        # The id is free again: its own gameid login now makes a new account.
        newcomer = self.sign_in(storage)
        self.assertNotEqual(newcomer.me()["user_id"], me["user_id"])

        # Unlinking the last one leaves the user without a link: import is 409 as before.
        self.assertEqual(user.send("DELETE", "/api/v1/auth/gameid/" + main).status, 204)
        me = user.me()
        self.assertIsNone(me["gameid"])
        self.assertEqual(me["gameids"], [])
        self.assertProblem(user.import_(), 409, "gameid_not_linked")
        self.assertProblem(user.import_(main), 409, "gameid_not_linked")

    def test_portfolio_shows_accounts_apart_and_together(self):
        user, main, storage = self.two_accounts()
        self.assertEqual(user.import_().status, 200)
        together = user.portfolio()
        self.assertEqual(sorted((h["account"], h["market_hash_name"], h["quantity"])
                                for h in together["holdings"]),
                         sorted([(main, ITEM_A, 2), (storage, ITEM_B, 5)]))
        self.assertEqual([a["account"] for a in together["accounts"]], [main, storage])
        apart = user.portfolio(storage)
        self.assertEqual([(h["account"], h["market_hash_name"]) for h in apart["holdings"]],
                         [(storage, ITEM_B)])
        self.assertProblem(user.get("/api/v1/portfolio?account=76561198100000000"), 404,
                           "not_found")
        # Unlinking an account forgets its holdings; the other's stay.
        self.assertEqual(user.send("DELETE", "/api/v1/auth/gameid/" + storage).status, 204)
        left = user.portfolio()
        self.assertEqual([(h["account"], h["market_hash_name"]) for h in left["holdings"]],
                         [(main, ITEM_A)])


@unittest.skipUnless(POSTGRES_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class PortfolioAccountsPostgresTest(PortfolioAccountsTest):
    """The same on PostgreSQL."""

    store = POSTGRESQL


if __name__ == "__main__":
    unittest.main()
