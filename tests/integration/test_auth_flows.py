"""Login and linking through the identity plugins, end to end.

The real skinpulsed runs against two local providers: an OAuth 2.0 authorization server
on oauthlib serving idp-a (userinfo) and idp-b (/user + /user/emails), and an OpenID 2.0
OP on python-openid with real check_authentication (tests/integration/fakes/). The test
plays the browser: it follows each redirect by hand, so it can tamper with what travels
through the browser the way an attacker would, and checks where the daemon sends it in the
end (docs/api.md §5: FRONTEND_URL, or FRONTEND_URL?auth_error=CODE).
"""
import http.client
import json
import os
import tempfile
import time
import unittest
import urllib.parse

from openid.store.nonce import mkNonce

from harness import Daemon
from fakes.oauth_provider import FakeOAuthProvider
from fakes.openid_provider import DEFAULT_ID, FakeOpenIdProvider, claimed_id_for

SECRETS = {
    "IDPA_CLIENT_ID": "client-a",
    "IDPA_CLIENT_SECRET": "secret-a-0123456789",
    "IDPB_CLIENT_ID": "client-b",
    "IDPB_CLIENT_SECRET": "secret-b-0123456789",
}
COOKIE_NAMES = ("skinpulse_session", "__Host-skinpulse_session")


class Browser:
    """Cookies for the daemon only; every other host gets none (as across sites)."""

    def __init__(self, daemon):
        self.daemon = daemon
        self.cookies = {}

    def get(self, url, headers=None):
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port
        target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        if not parts.scheme:  # a daemon path
            host, port = "127.0.0.1", self.daemon.port
        headers = dict(headers or {})
        to_daemon = port == self.daemon.port
        if to_daemon and self.cookies:
            headers["Cookie"] = "; ".join("%s=%s" % kv for kv in self.cookies.items())
        conn = http.client.HTTPConnection(host, port, timeout=30)
        try:
            conn.request("GET", target, headers=headers)
            response = conn.getresponse()
            body = response.read()
            pairs = response.getheaders()
        finally:
            conn.close()
        if to_daemon:
            for name, value in pairs:
                if name.lower() == "set-cookie":
                    self._store(value)
        return response.status, {k.lower(): v for k, v in pairs}, body

    def _store(self, header):
        first, *attributes = [p.strip() for p in header.split(";")]
        name, _, value = first.partition("=")
        expired = any(a.lower() in ("max-age=0",) for a in attributes)
        if expired or not value:
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value

    def session_cookie(self):
        for name in COOKIE_NAMES:
            if name in self.cookies:
                return self.cookies[name]
        return None


class AuthFlowsTest(unittest.TestCase):
    """Runs on the embedded shared store (the database)."""

    store_env = {}

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="skinpulse-auth-")
        cls.idp = FakeOAuthProvider().__enter__()
        cls.op = FakeOpenIdProvider().__enter__()
        env = dict(SECRETS)
        env.update({
            "IDPA_AUTH_URL": cls.idp.url("/a/authorize"),
            "IDPA_TOKEN_URL": cls.idp.url("/a/token"),
            "IDPA_USERINFO_URL": cls.idp.url("/a/userinfo"),
            "IDPB_AUTH_URL": cls.idp.url("/b/login/oauth/authorize"),
            "IDPB_TOKEN_URL": cls.idp.url("/b/login/oauth/access_token"),
            "IDPB_API_URL": cls.idp.url("/b/api"),
            "GAMEID_OPENID_ENABLED": "true",
            "GAMEID_OPENID_URL": cls.op.endpoint,
            "GAMEID_API_URL": "http://127.0.0.1:%d" % cls.op.port,
            "GAMEID_API_KEY": cls.op.api_key,
            # Far more flows run here than a real client makes; the limit has its own tests.
            "AUTH_RATE_LIMIT_PER_MINUTE": "100000",
        })
        env.update(cls.store_env)
        cls.daemon = Daemon(cls._tmp.name, env=env)
        cls.base = "http://127.0.0.1:%d" % cls.daemon.port
        cls.frontend = cls.base + "/"
        cls.idp.register("a", "client-a", SECRETS["IDPA_CLIENT_SECRET"],
                         cls.base + "/api/v1/auth/idp-a/callback")
        cls.idp.register("b", "client-b", SECRETS["IDPB_CLIENT_SECRET"],
                         cls.base + "/api/v1/auth/idp-b/callback")
        try:
            cls.daemon.start()
        except Exception:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        cls.daemon.stop()
        cls.idp.__exit__(None, None, None)
        cls.op.__exit__(None, None, None)
        cls._tmp.cleanup()

    @classmethod
    def tearDownClass(cls):
        log = cls.daemon.stderr()
        cls._cleanup()
        for secret in list(SECRETS.values())[1::2] + [cls.op.api_key]:
            assert secret not in log, "a secret reached the daemon's log"

    def setUp(self):
        self.idp.deny = {"a": False, "b": False}
        self.op.claimed_id = claimed_id_for(DEFAULT_ID)
        self.op.identity = None
        self.op.fixed_nonce = None
        self.op.cancel = False
        self.op.overrides = {}

    # -- helpers ----------------------------------------------------------------------------

    _serial = [0]

    def unique(self, prefix):
        self._serial[0] += 1
        return "%s-%d-%d" % (prefix, os.getpid(), self._serial[0])

    def idp_a_profile(self, email=None, verified=True, name="Ann Example"):
        sub = self.unique("sub")
        return {"sub": sub, "email": email or sub + "@example.org", "email_verified": verified,
                "name": name, "picture": "https://img.example/%s.png" % sub}

    def idp_b_profile(self, emails, name="The Octocat"):
        self._serial[0] += 1
        return {"user": {"id": 1000 + self._serial[0], "login": "octo%d" % self._serial[0],
                         "name": name, "avatar_url": "https://avatars.example/b.png"},
                "emails": emails}

    def fresh_platform_id(self):
        self._serial[0] += 1
        return str(76561198000000000 + os.getpid() % 100000 * 1000 + self._serial[0])

    def start(self, browser, path):
        """GET the daemon's start path; answers the provider URL it redirects to."""
        status, headers, body = browser.get(path)
        self.assertEqual(status, 302, body)
        self.assertIsNotNone(browser.session_cookie(), "the flow needs a session")
        return headers["location"]

    def at_provider(self, url):
        """The provider approves at once; answers where it sends the browser back."""
        status, headers, body = Browser(self.daemon).get(url)
        self.assertEqual(status, 302, body)
        return headers["location"]

    def finish(self, browser, callback_url):
        """GET the daemon callback; answers the auth_error code, or None on success."""
        self.assertTrue(callback_url.startswith(self.base + "/api/v1/auth/"), callback_url)
        status, headers, body = browser.get(callback_url)
        self.assertEqual(status, 302, body)
        location = headers["location"]
        self.assertTrue(location.startswith(self.frontend), location)
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
        return query.get("auth_error")

    def login(self, browser, path, tamper=None):
        callback = self.at_provider(self.start(browser, path))
        if tamper:
            callback = tamper(callback)
        return self.finish(browser, callback), callback

    def me(self, browser):
        status, _, body = browser.get("/api/v1/auth/me")
        if status == 401:
            return None
        self.assertEqual(status, 200, body)
        return json.loads(body)

    @staticmethod
    def replace_param(url, name, value):
        parts = urllib.parse.urlsplit(url)
        pairs = [(k, value if k == name else v) for k, v in
                 urllib.parse.parse_qsl(parts.query, keep_blank_values=True)]
        return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(pairs)))

    def assert_refused(self, browser, code, error):
        self.assertEqual(error, code)
        self.assertIsNone(self.me(browser), "a refused login must not sign the browser in")

    # -- OAuth 2.0 ----------------------------------------------------------------------------

    def test_idp_a_login_creates_user_from_verified_email(self):
        profile = self.idp_a_profile(name="Ann Example")
        self.idp.next_profile["a"] = profile
        browser = Browser(self.daemon)
        provider_url = self.start(browser, "/api/v1/auth/idp-a")
        anonymous = browser.session_cookie()
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(provider_url).query))
        self.assertEqual(query["code_challenge_method"], "S256")
        self.assertEqual(query["scope"], "openid email profile")
        self.assertEqual(query["redirect_uri"], self.base + "/api/v1/auth/idp-a/callback")
        self.assertGreaterEqual(len(query["state"]), 22)  # >= 128 bits, base64url
        self.assertIsNone(self.finish(browser, self.at_provider(provider_url)))
        self.assertNotEqual(browser.session_cookie(), anonymous, "session id rotated on login")
        me = self.me(browser)
        self.assertEqual(me["email"], profile["email"])
        self.assertEqual(me["name"], "Ann Example")
        self.assertEqual(me["avatar_url"], profile["picture"])
        # The token call: form-encoded POST, no query, credentials and verifier as fields.
        method, path, headers, body = self.idp.requests_to("/a/token")[-1]
        self.assertEqual((method, path), ("POST", "/a/token"))
        form = dict(urllib.parse.parse_qsl(body))
        self.assertEqual(form["client_secret"], SECRETS["IDPA_CLIENT_SECRET"])
        self.assertEqual(form["grant_type"], "authorization_code")
        self.assertIn("code_verifier", form)
        self.assertNotIn("authorization", {k.lower() for k in headers})

    def test_idp_b_login_uses_primary_verified_address(self):
        email = self.unique("octo") + "@example.org"
        self.idp.next_profile["b"] = self.idp_b_profile([
            {"email": "old-" + email, "primary": False, "verified": True},
            {"email": email, "primary": True, "verified": True, "visibility": "private"},
        ])
        browser = Browser(self.daemon)
        error, _ = self.login(browser, "/api/v1/auth/idp-b")
        self.assertIsNone(error)
        me = self.me(browser)
        self.assertEqual(me["email"], email)
        self.assertEqual(me["name"], "The Octocat")
        _, _, headers, _ = self.idp.requests_to("/b/login/oauth/access_token")[-1]
        self.assertIn("application/json", headers.get("Accept", ""))

    def test_same_verified_email_matches_the_same_user(self):
        email = self.unique("both") + "@example.org"
        self.idp.next_profile["a"] = self.idp_a_profile(email=email)
        first = Browser(self.daemon)
        self.assertIsNone(self.login(first, "/api/v1/auth/idp-a")[0])
        self.idp.next_profile["b"] = self.idp_b_profile(
            [{"email": email, "primary": True, "verified": True}])
        second = Browser(self.daemon)
        self.assertIsNone(self.login(second, "/api/v1/auth/idp-b")[0])
        self.assertEqual(self.me(first)["user_id"], self.me(second)["user_id"])

    def test_state_mismatch(self):
        self.idp.next_profile["a"] = self.idp_a_profile()
        browser = Browser(self.daemon)
        error, _ = self.login(browser, "/api/v1/auth/idp-a",
                              tamper=lambda url: self.replace_param(url, "state", "forged"))
        self.assert_refused(browser, "state_mismatch", error)

    def test_callback_without_a_started_flow(self):
        # Login CSRF: an attacker's own code and state, delivered to a victim's browser.
        self.idp.next_profile["a"] = self.idp_a_profile()
        attacker = Browser(self.daemon)
        callback = self.at_provider(self.start(attacker, "/api/v1/auth/idp-a"))
        victim = Browser(self.daemon)
        self.assert_refused(victim, "state_mismatch", self.finish(victim, callback))

    def test_replayed_state(self):
        self.idp.next_profile["a"] = self.idp_a_profile()
        browser = Browser(self.daemon)
        error, callback = self.login(browser, "/api/v1/auth/idp-a")
        self.assertIsNone(error)
        self.assertEqual(self.finish(browser, callback), "state_mismatch")
        # Replayed from a browser that started a new flow: that flow's state differs.
        other = Browser(self.daemon)
        self.start(other, "/api/v1/auth/idp-a")
        self.assert_refused(other, "state_mismatch", self.finish(other, callback))

    def test_provider_error(self):
        self.idp.deny["a"] = True
        browser = Browser(self.daemon)
        error, callback = self.login(browser, "/api/v1/auth/idp-a")
        self.assertIn("error=access_denied", callback)
        self.assert_refused(browser, "provider_error", error)

    def test_code_from_another_flow_fails_pkce(self):
        # Authorization code injection: a code issued for the attacker's flow, replayed
        # with the victim's own state, fails at the token endpoint on the PKCE verifier.
        self.idp.next_profile["a"] = self.idp_a_profile()
        attacker = Browser(self.daemon)
        stolen = self.at_provider(self.start(attacker, "/api/v1/auth/idp-a"))
        code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(stolen).query))["code"]
        victim = Browser(self.daemon)
        own = self.at_provider(self.start(victim, "/api/v1/auth/idp-a"))
        error = self.finish(victim, self.replace_param(own, "code", code))
        self.assert_refused(victim, "provider_error", error)

    def test_wrong_client_secret_is_refused_by_the_provider(self):
        self.idp.next_profile["a"] = self.idp_a_profile()
        client = self.idp.clients["client-a"]
        client.secret = "rotated-at-the-provider"
        try:
            browser = Browser(self.daemon)
            self.assert_refused(browser, "provider_error",
                                self.login(browser, "/api/v1/auth/idp-a")[0])
        finally:
            client.secret = SECRETS["IDPA_CLIENT_SECRET"]

    def test_unverified_email_idp_a(self):
        self.idp.next_profile["a"] = self.idp_a_profile(verified=False)
        browser = Browser(self.daemon)
        self.assert_refused(browser, "email_unverified",
                            self.login(browser, "/api/v1/auth/idp-a")[0])

    def test_unverified_primary_email_idp_b(self):
        self.idp.next_profile["b"] = self.idp_b_profile([
            {"email": self.unique("p") + "@example.org", "primary": True, "verified": False},
            {"email": self.unique("s") + "@example.org", "primary": False, "verified": True},
        ])
        browser = Browser(self.daemon)
        self.assert_refused(browser, "email_unverified",
                            self.login(browser, "/api/v1/auth/idp-b")[0])

    # -- OpenID 2.0 ---------------------------------------------------------------------------

    def gameid_login(self, browser, tamper=None):
        return self.login(browser, "/api/v1/auth/gameid/login", tamper)

    def test_gameid_login_and_check_authentication_echo(self):
        id64 = self.fresh_platform_id()
        self.op.claimed_id = claimed_id_for(id64)
        self.op.names[id64] = "gamer " + id64
        browser = Browser(self.daemon)
        provider_url = self.start(browser, "/api/v1/auth/gameid/login")
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(provider_url).query))
        self.assertEqual(query["openid.mode"], "checkid_setup")
        self.assertEqual(query["openid.claimed_id"],
                         "http://specs.openid.net/auth/2.0/identifier_select")
        self.assertEqual(query["openid.realm"], self.base + "/")
        self.assertTrue(query["openid.return_to"].startswith(
            self.base + "/api/v1/auth/gameid/login/callback?state="))
        callback = self.at_provider(provider_url)
        self.assertIsNone(self.finish(browser, callback))
        me = self.me(browser)
        self.assertEqual(me["gameid"]["platform_id"], id64)
        self.assertEqual(me["name"], "gamer " + id64)
        # check_authentication echoed every openid.* field exactly, only the mode changed.
        sent = [(k, v) for k, v in urllib.parse.parse_qsl(
            urllib.parse.urlsplit(callback).query, keep_blank_values=True)
            if k.startswith("openid.")]
        expected = [(k, "check_authentication" if k == "openid.mode" else v) for k, v in sent]
        echoed = urllib.parse.parse_qsl(self.op.check_auth_bodies[-1], keep_blank_values=True)
        self.assertEqual(sorted(echoed), sorted(expected))
        self.assertEqual(len(echoed), len(expected))

    def test_gameid_login_twice_signs_into_the_same_account(self):
        self.op.claimed_id = claimed_id_for(self.fresh_platform_id())
        first, second = Browser(self.daemon), Browser(self.daemon)
        self.assertIsNone(self.gameid_login(first)[0])
        self.assertIsNone(self.gameid_login(second)[0])
        self.assertEqual(self.me(first)["user_id"], self.me(second)["user_id"])

    def test_each_claimed_id_violation(self):
        good = self.fresh_platform_id()
        violations = {
            "http scheme": "http://steamcommunity.com/openid/id/" + good,
            "look-alike host": "https://steamcommunity.com.evil.example/openid/id/" + good,
            "other host": "https://evil.example/openid/id/" + good,
            "same-length other domain": "https://steamcommunity.org/openid/id/" + good,
            "same-length typo host": "https://steamcommunlty.com/openid/id/" + good,
            "upper-case host": "https://STEAMCOMMUNITY.COM/openid/id/" + good,
            "userinfo": "https://steamcommunity.com@evil.example/openid/id/" + good,
            "port": "https://steamcommunity.com:8443/openid/id/" + good,
            "wrong path": "https://steamcommunity.com/profiles/" + good,
            "extra segment": "https://steamcommunity.com/openid/id/" + good + "/x",
            "trailing slash": "https://steamcommunity.com/openid/id/" + good + "/",
            "query": "https://steamcommunity.com/openid/id/" + good + "?a=b",
            "16 digits": "https://steamcommunity.com/openid/id/" + good[1:],
            "18 digits": "https://steamcommunity.com/openid/id/" + good + "1",
            "not numeric": "https://steamcommunity.com/openid/id/7656119800000000x",
            "percent-encoded digit": "https://steamcommunity.com/openid/id/%37" + good[1:],
            "outside individual range": "https://steamcommunity.com/openid/id/76561197960265728",
        }
        for why, claimed in violations.items():
            with self.subTest(why):
                self.op.claimed_id = claimed
                browser = Browser(self.daemon)
                self.assert_refused(browser, "invalid_claimed_id", self.gameid_login(browser)[0])

    def test_claimed_id_differs_from_identity(self):
        self.op.claimed_id = claimed_id_for(self.fresh_platform_id())
        self.op.identity = claimed_id_for(self.fresh_platform_id())
        browser = Browser(self.daemon)
        self.assert_refused(browser, "invalid_claimed_id", self.gameid_login(browser)[0])

    def test_is_valid_false(self):
        # A forged signature, and a claimed ID swapped after signing: the OP says no.
        self.op.claimed_id = claimed_id_for(self.fresh_platform_id())
        other = claimed_id_for(self.fresh_platform_id())
        for tamper in (lambda url: self.replace_param(url, "openid.sig", "AAAAAAAAAAAAAAAAAAAAAAAAAAA="),
                       lambda url: self.replace_param(
                           self.replace_param(url, "openid.claimed_id", other),
                           "openid.identity", other)):
            browser = Browser(self.daemon)
            before = len(self.op.check_auth_bodies)
            self.assert_refused(browser, "verification_failed",
                                self.gameid_login(browser, tamper)[0])
            self.assertEqual(len(self.op.check_auth_bodies), before + 1, "the OP was asked")

    def test_replayed_nonce(self):
        self.op.claimed_id = claimed_id_for(self.fresh_platform_id())
        self.op.fixed_nonce = mkNonce()
        first = Browser(self.daemon)
        self.assertIsNone(self.gameid_login(first)[0])
        # A new, validly signed assertion carrying a nonce already used.
        second = Browser(self.daemon)
        self.assert_refused(second, "verification_failed", self.gameid_login(second)[0])

    def test_stale_nonce(self):
        self.op.claimed_id = claimed_id_for(self.fresh_platform_id())
        self.op.fixed_nonce = mkNonce(int(time.time()) - 3600)
        browser = Browser(self.daemon)
        self.assert_refused(browser, "verification_failed", self.gameid_login(browser)[0])

    def test_replayed_gameid_state(self):
        self.op.claimed_id = claimed_id_for(self.fresh_platform_id())
        browser = Browser(self.daemon)
        error, callback = self.gameid_login(browser)
        self.assertIsNone(error)
        other = Browser(self.daemon)
        self.start(other, "/api/v1/auth/gameid/login")
        self.assert_refused(other, "state_mismatch", self.finish(other, callback))

    def test_op_endpoint_and_return_to_must_match(self):
        self.op.claimed_id = claimed_id_for(self.fresh_platform_id())
        cases = [
            {"op_endpoint": "http://127.0.0.1:%d/other/login" % self.op.port},
            {"return_to": self.base + "/api/v1/auth/gameid/callback?state=x"},
        ]
        for overrides in cases:
            with self.subTest(overrides):
                self.op.overrides = overrides
                browser = Browser(self.daemon)
                self.assert_refused(browser, "verification_failed",
                                    self.gameid_login(browser)[0])

    def test_user_cancel_is_provider_error(self):
        self.op.cancel = True
        browser = Browser(self.daemon)
        self.assert_refused(browser, "provider_error", self.gameid_login(browser)[0])

    def test_linking_needs_a_session(self):
        status, _, _ = Browser(self.daemon).get("/api/v1/auth/gameid")
        self.assertEqual(status, 401)

    def test_link_gameid_to_signed_in_account(self):
        self.idp.next_profile["a"] = self.idp_a_profile()
        browser = Browser(self.daemon)
        self.assertIsNone(self.login(browser, "/api/v1/auth/idp-a")[0])
        user_id = self.me(browser)["user_id"]
        self.assertIsNone(self.me(browser)["gameid"])
        id64 = self.fresh_platform_id()
        self.op.claimed_id = claimed_id_for(id64)
        error, callback = self.login(browser, "/api/v1/auth/gameid")
        self.assertTrue(callback.startswith(self.base + "/api/v1/auth/gameid/callback?"))
        self.assertIsNone(error)
        me = self.me(browser)
        self.assertEqual(me["user_id"], user_id)
        self.assertEqual(me["gameid"]["platform_id"], id64)
        # The linked ID now signs into that same account.
        other = Browser(self.daemon)
        self.assertIsNone(self.gameid_login(other)[0])
        self.assertEqual(self.me(other)["user_id"], user_id)

    def test_linking_an_id_owned_by_another_account(self):
        id64 = self.fresh_platform_id()
        self.op.claimed_id = claimed_id_for(id64)
        owner = Browser(self.daemon)
        self.assertIsNone(self.gameid_login(owner)[0])
        self.idp.next_profile["a"] = self.idp_a_profile()
        browser = Browser(self.daemon)
        self.assertIsNone(self.login(browser, "/api/v1/auth/idp-a")[0])
        error, _ = self.login(browser, "/api/v1/auth/gameid")
        self.assertEqual(error, "already_linked")
        self.assertIsNone(self.me(browser)["gameid"])
        self.assertEqual(self.me(owner)["gameid"]["platform_id"], id64)


REDIS_URL = os.environ.get("SKINPULSE_TEST_REDIS_URL", "")


@unittest.skipUnless(REDIS_URL, "SKINPULSE_TEST_REDIS_URL is not set")
class AuthFlowsRedisTest(AuthFlowsTest):
    """The same flows with flows, sessions and used nonces in Redis (REDIS_URL)."""

    store_env = {"REDIS_URL": REDIS_URL}


if __name__ == "__main__":
    unittest.main()
