"""Sessions, CSRF, rate limit and the host side of login (docs/api.md §5, §2) against the
real daemon, on the embedded store and on Redis.

Logins go through the `scripted` test identity plugin (tests/plugins/identity_scripted.cpp):
its begin() redirects with a random state and its complete() asserts what the callback's
query says once the state matches, so these tests drive every host-side path (flow kept
single-use in the session, replay keys, account matching, session rotation, redirects).
Real protocol flows against fake providers are the provider plugins' own tests.
"""
import hashlib
import json
import os
import shutil
import sqlite3
import time
import unittest
import urllib.parse

from fakes.redis_server import RedisServer
from harness import Daemon, DaemonTestCase, TEST_PLUGIN_DIR

COOKIE = "skinpulse_session"
PLATFORM_ID = "76561198000000001"
IDENTITY_INI = """
[identity]
idpa_plugin = scripted
idpb_plugin = scripted
gameid_plugin = scripted
"""


def provider_env(**extra):
    env = {
        "SKINPULSE_PLUGIN_DIR": os.path.abspath(os.path.join(TEST_PLUGIN_DIR, "integration")),
        "IDPA_CLIENT_ID": "client-a",
        "IDPA_CLIENT_SECRET": "secret-a",
        "IDPA_AUTH_URL": "https://idp-a.test/authorize",
        "IDPB_CLIENT_ID": None,
        "IDPB_CLIENT_SECRET": None,
        "GAMEID_OPENID_ENABLED": "true",
        "GAMEID_OPENID_URL": "https://gameid.test/openid/login",
        "FRONTEND_URL": "https://app.test/",
    }
    env.update(extra)
    return env


class Browser:
    """One client with a cookie jar holding the session cookie."""

    def __init__(self, daemon, headers=None):
        self.daemon = daemon
        self.cookie = None
        self.headers = headers or {}

    def request(self, method, path, headers=None, body=None):
        all_headers = dict(self.headers)
        if self.cookie:
            all_headers["Cookie"] = f"{COOKIE}={self.cookie}"
        all_headers.update(headers or {})
        response = self.daemon.request(method, path, body=body, headers=all_headers)
        set_cookie = response.header("set-cookie")
        if set_cookie:
            value = set_cookie.split(";", 1)[0].split("=", 1)[1]
            self.cookie = value or None
        return response

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def csrf(self):
        response = self.get("/api/v1/auth/csrf")
        assert response.status == 200, response.body
        return response.json()["csrf_token"]

    def begin(self, path):
        response = self.get(path)
        assert response.status == 302, response.body
        location = urllib.parse.urlparse(response.header("location"))
        return urllib.parse.parse_qs(location.query)["state"][0]

    def login(self, provider="idp-a", **claims):
        """Runs a login through the scripted plugin; returns the final response."""
        start = "/api/v1/auth/gameid/login" if provider == "gameid" else f"/api/v1/auth/{provider}"
        callback = start + "/callback"
        state = self.begin(start)
        query = urllib.parse.urlencode(dict(state=state, **claims))
        return self.get(f"{callback}?{query}")


def auth_error(response):
    location = urllib.parse.urlparse(response.header("location"))
    return urllib.parse.parse_qs(location.query).get("auth_error", [None])[0]


class SessionFlows:
    """Behaviour that must hold on every shared store; mixed into the suites below."""

    def daemon(self, **env):
        daemon = Daemon(self.workdir, ini=IDENTITY_INI, env=provider_env(**self.store_env(), **env))
        daemon.start()
        self.addCleanup(daemon.stop)
        return daemon

    def sign_in(self, daemon, email="alice@example.test", subject="a-1"):
        browser = Browser(daemon)
        response = browser.login(subject=subject, email=email, verified="1", name="Alice",
                                 avatar="https://img.test/a.png")
        self.assertEqual(response.status, 302, response.body)
        self.assertEqual(response.header("location"), "https://app.test/")
        return browser

    def test_csrf_creates_anonymous_session(self):
        daemon = self.daemon()
        browser = Browser(daemon)
        response = browser.get("/api/v1/auth/csrf")
        self.assertEqual(response.status, 200)
        self.assertEqual(response.header("cache-control"), "no-store")
        self.assertSecurityHeaders(response)
        cookie = response.header("set-cookie")
        self.assertRegex(cookie, rf"^{COOKIE}=[A-Za-z0-9_-]{{43}}\.[A-Za-z0-9_-]{{43}}; ")
        # An anonymous session lives 30 minutes ([session] anonymous_lifetime_minutes).
        for attribute in ("Path=/", "Max-Age=1800", "HttpOnly", "SameSite=Lax"):
            self.assertIn(attribute, cookie.split("; "))
        self.assertNotIn("Secure", cookie)
        token = response.json()["csrf_token"]
        self.assertGreaterEqual(len(token), 43)
        # The same session answers the same token and sets no new cookie.
        again = browser.get("/api/v1/auth/csrf")
        self.assertEqual(again.json()["csrf_token"], token)
        self.assertIsNone(again.header("set-cookie"))
        # Anonymous is not signed in.
        self.assertProblem(browser.get("/api/v1/auth/me"), 401, "unauthenticated")
        self.assertProblem(browser.get("/api/v1/auth/providers"), 401, "unauthenticated")

    def test_tampered_cookie_is_no_session(self):
        daemon = self.daemon()
        browser = self.sign_in(daemon)
        self.assertEqual(browser.get("/api/v1/auth/me").status, 200)
        ident, tag = browser.cookie.split(".")
        browser.cookie = ident + "." + ("A" if tag[0] != "A" else "B") + tag[1:]
        self.assertProblem(browser.get("/api/v1/auth/me"), 401, "unauthenticated")

    def test_csrf_required_on_state_changing_requests(self):
        daemon = self.daemon()
        browser = self.sign_in(daemon)
        self.assertProblem(browser.request("POST", "/api/v1/auth/logout"), 403, "csrf_failed")
        self.assertProblem(browser.request("POST", "/api/v1/auth/logout",
                                           headers={"X-CSRF-Token": "wrong"}), 403, "csrf_failed")
        other = self.sign_in(daemon, email="bob@example.test", subject="b-1")
        self.assertProblem(browser.request("POST", "/api/v1/auth/logout",
                                           headers={"X-CSRF-Token": other.csrf()}),
                           403, "csrf_failed")
        # Without any session the route's RequireAuth answers first.
        self.assertProblem(Browser(daemon).request("POST", "/api/v1/auth/logout",
                                                   headers={"X-CSRF-Token": "x"}),
                           401, "unauthenticated")
        self.assertEqual(browser.get("/api/v1/auth/me").status, 200)  # still signed in

    def test_logout_then_old_cookie_is_refused(self):
        daemon = self.daemon()
        browser = self.sign_in(daemon)
        old = browser.cookie
        token = browser.csrf()
        response = browser.request("POST", "/api/v1/auth/logout", headers={"X-CSRF-Token": token})
        self.assertEqual(response.status, 204, response.body)
        cleared = response.header("set-cookie")
        self.assertTrue(cleared.startswith(f"{COOKIE}=;"), cleared)
        self.assertIn("Max-Age=0", cleared)
        replay = Browser(daemon)
        replay.cookie = old
        self.assertProblem(replay.get("/api/v1/auth/me"), 401, "unauthenticated")
        self.assertProblem(replay.request("POST", "/api/v1/auth/logout",
                                          headers={"X-CSRF-Token": token}), 401, "unauthenticated")

    def test_login_rotates_the_session(self):
        daemon = self.daemon()
        browser = Browser(daemon)
        planted = browser.csrf()  # an anonymous session, e.g. fixed by an attacker
        before = browser.cookie
        response = browser.login(subject="a-1", email="alice@example.test", verified="1")
        self.assertEqual(response.status, 302)
        self.assertEqual(response.header("location"), "https://app.test/")
        self.assertNotEqual(browser.cookie, before)
        self.assertNotEqual(browser.csrf(), planted)
        stale = Browser(daemon)
        stale.cookie = before
        self.assertProblem(stale.get("/api/v1/auth/me"), 401, "unauthenticated")
        me = browser.get("/api/v1/auth/me").json()
        self.assertEqual(me["email"], "alice@example.test")
        self.assertIsNone(me["gameid"])

    def test_users_matched_by_verified_email(self):
        daemon = self.daemon()
        first = self.sign_in(daemon, email="Carol@Example.test", subject="c-1").get(
            "/api/v1/auth/me").json()
        again = self.sign_in(daemon, email="carol@example.test", subject="c-1").get(
            "/api/v1/auth/me").json()
        self.assertEqual(first["user_id"], again["user_id"])
        unverified = Browser(daemon).login(subject="c-2", email="carol@example.test", verified="0")
        self.assertEqual(auth_error(unverified), "email_unverified")
        no_email = Browser(daemon).login(subject="c-3", verified="1")
        self.assertEqual(auth_error(no_email), "email_unverified")

    def test_state_is_single_use_and_bound_to_the_session(self):
        daemon = self.daemon()
        browser = Browser(daemon)
        state = browser.begin("/api/v1/auth/idp-a")
        callback = "/api/v1/auth/idp-a/callback?" + urllib.parse.urlencode(
            dict(state=state, subject="a-1", email="alice@example.test", verified="1"))
        # Another browser (no session, or its own) cannot complete this flow.
        self.assertEqual(auth_error(Browser(daemon).get(callback)), "state_mismatch")
        # A wrong state consumes the flow...
        wrong = browser.get("/api/v1/auth/idp-a/callback?state=nope&subject=a-1")
        self.assertEqual(auth_error(wrong), "state_mismatch")
        self.assertEqual(auth_error(browser.get(callback)), "state_mismatch")
        # ...and a successful one cannot be replayed.
        state = browser.begin("/api/v1/auth/idp-a")
        callback = "/api/v1/auth/idp-a/callback?" + urllib.parse.urlencode(
            dict(state=state, subject="a-1", email="alice@example.test", verified="1"))
        ok = browser.get(callback)
        self.assertIsNone(auth_error(ok))
        self.assertEqual(auth_error(browser.get(callback)), "state_mismatch")

    def test_provider_error_and_replayed_assertion(self):
        daemon = self.daemon()
        refused = Browser(daemon).login(error="access_denied")
        self.assertEqual(refused.header("location"), "https://app.test/?auth_error=provider_error")
        first = Browser(daemon).login("gameid", subject=PLATFORM_ID, replay="nonce-1")
        self.assertIsNone(auth_error(first))
        replayed = Browser(daemon).login("gameid", subject=PLATFORM_ID, replay="nonce-1")
        self.assertEqual(auth_error(replayed), "verification_failed")

    def test_gameid_login_and_linking(self):
        daemon = self.daemon()
        # Login mode: a new account for the platform id, the same one next time.
        gamer = Browser(daemon)
        self.assertIsNone(auth_error(gamer.login("gameid", subject=PLATFORM_ID, name="G")))
        me = gamer.get("/api/v1/auth/me").json()
        self.assertEqual(me["gameid"]["platform_id"], PLATFORM_ID)
        self.assertIsNone(me["email"])
        again = Browser(daemon)
        again.login("gameid", subject=PLATFORM_ID)
        self.assertEqual(again.get("/api/v1/auth/me").json()["user_id"], me["user_id"])
        outside = Browser(daemon).login("gameid", subject="103582791429521412")
        self.assertEqual(auth_error(outside), "invalid_claimed_id")

        # Linking mode needs a session.
        self.assertProblem(Browser(daemon).get("/api/v1/auth/gameid"), 401, "unauthenticated")
        alice = self.sign_in(daemon)
        providers = {p["name"]: p for p in alice.get("/api/v1/auth/providers").json()["providers"]}
        self.assertFalse(providers["gameid"]["linked"])
        before = alice.cookie

        def link(subject):
            state = alice.begin("/api/v1/auth/gameid")
            return alice.get("/api/v1/auth/gameid/callback?" +
                             urllib.parse.urlencode(dict(state=state, subject=subject)))

        self.assertEqual(auth_error(link(PLATFORM_ID)), "already_linked")
        self.assertEqual(auth_error(link("7656119800000000x")), "invalid_claimed_id")
        self.assertIsNone(auth_error(link("76561198000000002")))
        self.assertNotEqual(alice.cookie, before)  # rotated on link
        me = alice.get("/api/v1/auth/me").json()
        self.assertEqual(me["gameid"]["platform_id"], "76561198000000002")
        self.assertEqual(me["email"], "alice@example.test")
        providers = {p["name"]: p for p in alice.get("/api/v1/auth/providers").json()["providers"]}
        self.assertTrue(providers["gameid"]["linked"])
        self.assertTrue(providers["idp-a"]["linked"])

    def test_providers_reflect_configuration(self):
        daemon = self.daemon()
        browser = self.sign_in(daemon)
        body = browser.get("/api/v1/auth/providers").json()
        self.assertEqual(body, {"providers": [
            {"name": "idp-a", "protocol": "oauth2", "login_path": "/api/v1/auth/idp-a",
             "linked": True},
            {"name": "gameid", "protocol": "openid2", "login_path": "/api/v1/auth/gameid/login",
             "link_path": "/api/v1/auth/gameid", "linked": False},
        ]})
        # idp-b has no client id/secret: its endpoints do not exist.
        self.assertProblem(browser.get("/api/v1/auth/idp-b"), 404, "not_found")
        self.assertProblem(browser.get("/api/v1/auth/idp-b/callback?state=x"), 404, "not_found")

    def test_rate_limit(self):
        daemon = self.daemon(AUTH_RATE_LIMIT_PER_MINUTE="5")
        browser = Browser(daemon)
        for _ in range(5):
            self.assertEqual(browser.get("/api/v1/auth/csrf").status, 200)
        refused = browser.get("/api/v1/auth/csrf")
        self.assertProblem(refused, 429, "rate_limited")
        self.assertEqual(refused.header("cache-control"), "no-store")
        retry = int(refused.header("retry-after"))
        self.assertTrue(1 <= retry <= 60, retry)
        self.assertProblem(browser.get("/api/v1/auth/providers"), 429, "rate_limited")
        # Other paths are not limited; X-Forwarded-For from an untrusted peer is ignored.
        self.assertEqual(browser.get("/api/v1/items?limit=1").status, 200)
        forged = Browser(daemon, headers={"X-Forwarded-For": "203.0.113.77"})
        self.assertProblem(forged.get("/api/v1/auth/csrf"), 429, "rate_limited")

    def test_rate_limit_per_client_behind_trusted_proxy(self):
        daemon = self.daemon(AUTH_RATE_LIMIT_PER_MINUTE="2", TRUSTED_PROXIES="127.0.0.0/8")
        one = Browser(daemon, headers={"X-Forwarded-For": "203.0.113.1"})
        two = Browser(daemon, headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.2"})
        for _ in range(2):
            self.assertEqual(one.get("/api/v1/auth/csrf").status, 200)
        self.assertProblem(one.get("/api/v1/auth/csrf"), 429, "rate_limited")
        self.assertEqual(two.get("/api/v1/auth/csrf").status, 200)
        # The forged left part does not make a new client.
        forged = Browser(daemon, headers={"X-Forwarded-For": "192.0.2.99, 203.0.113.1"})
        self.assertProblem(forged.get("/api/v1/auth/csrf"), 429, "rate_limited")


class EmbeddedStoreTest(SessionFlows, DaemonTestCase):
    def store_env(self):
        return {"REDIS_URL": None}

    def test_expired_session_is_refused(self):
        daemon = self.daemon()
        browser = self.sign_in(daemon)
        self.assertEqual(browser.get("/api/v1/auth/me").status, 200)
        # Age the stored record past its lifetime; the row's own TTL is left alone, so
        # only the server-side check of the session's expiry can refuse it.
        session_id = browser.cookie.split(".")[0]
        key = "session:" + hashlib.sha256(session_id.encode()).hexdigest()
        db = sqlite3.connect(os.path.join(self.workdir, "skinpulse.db"), timeout=10)
        with db:
            (value,) = db.execute("SELECT value FROM kv WHERE key = ?", (key,)).fetchone()
            record = json.loads(value)
            record["expires_at"] = int(time.time()) - 1
            db.execute("UPDATE kv SET value = ? WHERE key = ?", (json.dumps(record), key))
        db.close()
        self.assertProblem(browser.get("/api/v1/auth/me"), 401, "unauthenticated")

    def test_sessions_survive_restart(self):
        daemon = self.daemon()
        browser = self.sign_in(daemon)
        daemon.stop()
        restarted = Daemon(self.workdir, ini=IDENTITY_INI, env=provider_env(LISTEN=None))
        restarted.port = daemon.port
        restarted.env["LISTEN"] = f"127.0.0.1:{daemon.port}"
        restarted.start()
        self.addCleanup(restarted.stop)
        browser.daemon = restarted
        self.assertEqual(browser.get("/api/v1/auth/me").status, 200)


@unittest.skipIf(shutil.which("redis-server") is None, "redis-server not installed")
class RedisStoreTest(SessionFlows, DaemonTestCase):
    def setUp(self):
        super().setUp()
        self.redis = RedisServer().start()
        self.addCleanup(self.redis.kill)

    def store_env(self):
        return {"REDIS_URL": self.redis.url}

    def test_redis_down_fails_closed(self):
        daemon = self.daemon()
        browser = self.sign_in(daemon)
        token = browser.csrf()
        self.redis.kill()
        for response in (browser.get("/api/v1/auth/me"), browser.get("/api/v1/auth/providers"),
                         browser.get("/api/v1/auth/csrf"),
                         browser.request("POST", "/api/v1/auth/logout",
                                         headers={"X-CSRF-Token": token})):
            problem = self.assertProblem(response, 503, "store_unavailable")
            self.assertTrue(response.header("retry-after"), problem)
        # Public endpoints keep working, with the cookie and without.
        self.assertEqual(browser.get("/api/v1/items?limit=1").status, 200)
        self.assertEqual(Browser(daemon).get("/api/v1/items?limit=1").status, 200)
        self.assertEqual(browser.get("/healthz").status, 200)

    def test_rate_limit_shared_by_instances(self):
        first = self.daemon(AUTH_RATE_LIMIT_PER_MINUTE="3")
        second_dir = os.path.join(self.workdir, "second")
        os.mkdir(second_dir)
        second = Daemon(second_dir, ini=IDENTITY_INI,
                        env=provider_env(REDIS_URL=self.redis.url, AUTH_RATE_LIMIT_PER_MINUTE="3"))
        second.start()
        self.addCleanup(second.stop)
        for daemon in (first, second, first):
            self.assertEqual(Browser(daemon).get("/api/v1/auth/csrf").status, 200)
        self.assertProblem(Browser(second).get("/api/v1/auth/csrf"), 429, "rate_limited")


if __name__ == "__main__":
    unittest.main()
