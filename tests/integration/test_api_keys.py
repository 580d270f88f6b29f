"""API keys and read budgets (docs/api.md, "API keys and read budgets") against the real
daemon: a client over its budget gets 429 rate_limited with Retry-After; a key raises the
budget and is counted per key; an invalid or revoked key is 401 invalid_api_key; usage
shows in GET /api/v1/keys and /metrics; a revocation reaches another daemon within
[api] key_cache_seconds; and a minute of brisk dashboard use stays far below the
packaged budget (etc/skinpulse/skinpulsed.ini).

Clients are told apart by X-Forwarded-For from the trusted proxy 127.0.0.1 (the same key
as the auth rate limit: http::rateLimitKey of the forwarded client).
"""
import configparser
import os
import re
import time
import unittest

from harness import Daemon, DaemonTestCase, wait_until
from test_alerts import env as alerts_env
from test_alerts import sign_in

SOURCE_DIR = os.environ.get("SKINPULSE_SOURCE_DIR", os.path.join("..", ".."))
PACKAGED_INI = os.path.join(SOURCE_DIR, "etc", "skinpulse", "skinpulsed.ini")


def ini(per_client=20, per_key=8, cache=1, flush=1):
    return ("[identity]\ngameid_plugin = scripted\n[http]\ntrusted_proxies = 127.0.0.1/32\n"
            "[api]\nrequests_per_minute = %d\nkey_requests_per_minute = %d\n"
            "max_keys_per_user = 2\nkey_cache_seconds = %d\nusage_flush_seconds = %d\n"
            % (per_client, per_key, cache, flush))


def client(address, **extra):
    headers = {"X-Forwarded-For": address}
    headers.update(extra)
    return headers


def bearer(key, address="198.51.100.200"):
    return client(address, Authorization="Bearer " + key)


class Via:
    """A daemon seen from one client address (X-Forwarded-For from the trusted proxy)."""

    def __init__(self, daemon, address):
        self.daemon = daemon
        self.address = address

    def request(self, method, path, body=None, headers=None):
        return self.daemon.request(method, path, body=body,
                                   headers=client(self.address, **(headers or {})))

    def get(self, path, **kw):
        return self.request("GET", path, **kw)


def metric(daemon, name, key):
    text = daemon.admin_get("/metrics").body.decode()
    found = re.search(r'^%s\{key="%s"\} (\S+)$' % (name, re.escape(key)), text, re.M)
    return float(found.group(1)) if found else None


class ApiKeysTest(DaemonTestCase):
    def daemon(self, **kw):
        daemon = Daemon(self.workdir, ini=ini(**kw), env=alerts_env(self.workdir))
        daemon.start()
        self.addCleanup(daemon.stop)
        return daemon

    def user(self, daemon, address):
        """A signed-in browser whose reads come from its own client address."""
        user = sign_in(daemon)
        user.daemon = Via(daemon, address)
        return user

    def create_key(self, user, name="ci"):
        response = user.request("POST", "/api/v1/keys", {"name": name})
        self.assertEqual(response.status, 201, response.body)
        self.assertEqual(response.header("cache-control"), "no-store")
        return response.json()

    def test_budget_keys_usage_and_refusals(self):
        daemon = self.daemon(per_client=20, per_key=8)
        alice = self.user(daemon, "198.51.100.1")

        # A client over its budget: 429 rate_limited with Retry-After; others unaffected.
        admitted = 0
        while True:
            response = daemon.get("/api/v1/items?limit=1", headers=client("203.0.113.9"))
            if response.status != 200:
                break
            admitted += 1
            self.assertLess(admitted, 100, "never limited")
        self.assertEqual(admitted, 20)
        self.assertProblem(response, 429, "rate_limited")
        self.assertTrue(1 <= int(response.header("retry-after")) <= 60)
        self.assertEqual(daemon.get("/api/v1/items/1", headers=client("203.0.113.9")).status, 429)
        self.assertEqual(daemon.get("/api/v1/items?limit=1",
                                    headers=client("203.0.113.10")).status, 200)
        # Not reads of the public API: never counted.
        self.assertEqual(daemon.get("/healthz", headers=client("203.0.113.9")).status, 200)
        self.assertEqual(daemon.get("/api/v1/auth/csrf", headers=client("203.0.113.9")).status,
                         200)

        # Keys: shown once, listed without the secret, limited per user.
        self.assertProblem(daemon.get("/api/v1/keys"), 401, "unauthenticated")
        created = self.create_key(alice, "grafana")
        key = created["key"]
        self.assertTrue(re.fullmatch(r"spk_[A-Za-z0-9_-]{43}", key), key)
        self.assertEqual(created["prefix"], key[:12])
        self.assertProblem(alice.request("POST", "/api/v1/keys", {"name": "x"}, csrf=False), 403,
                           "csrf_failed")
        self.assertProblem(alice.request("POST", "/api/v1/keys", {"name": ""}), 422,
                           "invalid_api_key_name")
        second = self.create_key(alice, "second")["key"]
        self.assertProblem(alice.request("POST", "/api/v1/keys", {"name": "third"}), 409,
                           "api_key_limit")
        listed = alice.request("GET", "/api/v1/keys").json()
        self.assertEqual(sorted(k["name"] for k in listed["keys"]), ["grafana", "second"])
        self.assertNotIn(key, alice.request("GET", "/api/v1/keys").body.decode())

        # The key's budget (8) is its own, counted per key from any address, even one whose
        # own budget is spent; the key grants no session.
        for i in range(8):
            response = daemon.get("/api/v1/items?limit=1", headers=bearer(key, "203.0.113.9"))
            self.assertEqual(response.status, 200, (i, response.body))
        self.assertProblem(daemon.get("/api/v1/items/1", headers=bearer(key, "192.0.2.77")), 429,
                           "rate_limited")
        self.assertProblem(daemon.get("/api/v1/portfolio", headers=bearer(second)), 401,
                           "unauthenticated")

        # Invalid and malformed keys: 401 invalid_api_key.
        stranger = "spk_" + "A" * 43
        problem = self.assertProblem(daemon.get("/api/v1/items", headers=bearer(stranger)), 401,
                                     "invalid_api_key")
        self.assertIn("bearer", daemon.get("/api/v1/items", headers=bearer(stranger))
                      .header("www-authenticate").lower())
        self.assertTrue(problem["detail"])
        self.assertProblem(daemon.get("/api/v1/items", headers=client(
            "198.51.100.5", Authorization="Basic dXNlcjpwYXNz")), 401, "invalid_api_key")

        # Usage in /metrics (per key id) and, once flushed, in GET /api/v1/keys.
        self.assertEqual(metric(daemon, "skinpulse_api_requests_total", created["id"]), 8)
        self.assertEqual(metric(daemon, "skinpulse_api_rate_limited_total", created["id"]), 1)
        self.assertGreaterEqual(metric(daemon, "skinpulse_api_rate_limited_total", "none"), 2)
        mine = next(k for k in alice.request("GET", "/api/v1/keys").json()["keys"]
                    if k["id"] == created["id"])
        self.assertEqual((mine["requests"], mine["rate_limited"]), (8, 1))
        self.assertTrue(mine["last_used_at"].endswith("Z"))
        wait_until(lambda: self.stored_requests(daemon, created["id"]) == 8, timeout=10)

        # Revoked: 401 on this daemon at once; gone from the list and from /metrics.
        self.assertEqual(alice.request("DELETE", "/api/v1/keys/" + created["id"]).status, 204)
        self.assertProblem(daemon.get("/api/v1/items", headers=bearer(key)), 401,
                           "invalid_api_key")
        self.assertProblem(alice.request("DELETE", "/api/v1/keys/" + created["id"]), 404,
                           "api_key_not_found")
        self.assertEqual(len(alice.request("GET", "/api/v1/keys").json()["keys"]), 1)
        self.assertIsNone(metric(daemon, "skinpulse_api_requests_total", created["id"]))

    def stored_requests(self, daemon, key_id):
        import sqlite3
        with sqlite3.connect(os.path.join(self.workdir, "skinpulse.db")) as db:
            row = db.execute("SELECT requests FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        return row[0] if row else None

    def test_revocation_reaches_another_daemon(self):
        first = self.daemon(per_client=0, per_key=0, cache=1)
        second = Daemon(self.workdir, ini=ini(per_client=0, per_key=0, cache=1),
                        env=alerts_env(self.workdir))
        second.start()
        self.addCleanup(second.stop)
        alice = self.user(first, "198.51.100.1")
        created = self.create_key(alice)

        # Known here at once, on the other daemon within key_cache_seconds (1 s).
        self.assertEqual(first.get("/api/v1/items?limit=1", headers=bearer(created["key"])).status,
                         200)
        start = time.monotonic()
        wait_until(lambda: second.get("/api/v1/items?limit=1",
                                      headers=bearer(created["key"])).status == 200, timeout=10)
        learned = time.monotonic() - start
        self.assertLess(learned, 3.0)

        self.assertEqual(alice.request("DELETE", "/api/v1/keys/" + created["id"]).status, 204)
        self.assertEqual(first.get("/api/v1/items", headers=bearer(created["key"])).status, 401)
        start = time.monotonic()
        wait_until(lambda: second.get("/api/v1/items?limit=1",
                                      headers=bearer(created["key"])).status == 401, timeout=10)
        refused = time.monotonic() - start
        self.assertLess(refused, 3.0)
        print("\nkey known on the other daemon after %.2f s, refused after %.2f s "
              "(key_cache_seconds = 1)" % (learned, refused))

    def test_dashboard_use_stays_below_the_packaged_budget(self):
        packaged = configparser.ConfigParser(inline_comment_prefixes=(";",),
                                             comment_prefixes=(";",), strict=False)
        packaged.read(PACKAGED_INI, encoding="utf-8")
        budget = packaged.getint("api", "requests_per_minute")
        self.assertGreater(budget, 0, "the packaged etc/ turns the budget on")
        daemon = self.daemon(per_client=budget, per_key=0)
        me = client("198.51.100.42")
        ids = [i["id"] for i in daemon.get("/api/v1/items?limit=12", headers=me).json()]
        self.assertEqual(len(ids), 12)

        # What the dashboard's pages ask (share/www/js), one brisk minute: the market page,
        # five item pages, the status and rankings pages, the search box, the market page
        # again, and the source strip's 30 s poll. Every read counted by the budget.
        def market():
            reads = ["/api/v1/currencies", "/api/v1/sources", "/api/v1/items?limit=1",
                     "/api/v1/rankings/volatile?limit=100&window=24h",
                     "/api/v1/items?limit=50&offset=0"]
            for item in ids:  # 12 mover cards: the item and its sparkline
                reads += ["/api/v1/items/%d" % item,
                          "/api/v1/items/%d/candles?window=24h&interval=1h&source=archive" % item]
            return reads

        def item_page(item):
            reads = ["/api/v1/items/%d" % item, "/api/v1/currencies", "/api/v1/sources"]
            reads += ["/api/v1/items/%d" % other for other in ids[:8]]  # variants
            reads += ["/api/v1/items/%d/candles?window=24h&source=s%d" % (item, s)
                      for s in range(6)]
            reads += ["/api/v1/items/%d/volatility?window=%s" % (item, w)
                      for w in ("1h", "24h", "7d", "24h")]
            return reads

        minute = market()
        for item in ids[:5]:
            minute += item_page(item)
        minute += ["/api/v1/sources", "/api/v1/rankings/volatile?limit=100&window=7d",
                   "/api/v1/rankings/spread?limit=100&min_sources=2"]
        minute += ["/api/v1/items?limit=8&q=" + q for q in ("a", "ak", "ak-", "ak-4", "ak-47")]
        minute += market() + ["/api/v1/sources"] * 2
        for path in minute:
            method = "HEAD" if path == "/api/v1/items?limit=1" else "GET"
            response = daemon.request(method, path, headers=me)
            self.assertNotEqual(response.status, 429, path)
        # Far below: several people behind one address, or a slow minute's retries, fit.
        self.assertLess(len(minute) * 4, budget, len(minute))
        print("\na brisk dashboard minute: %d reads; packaged budget %d per minute"
              % (len(minute), budget))


if __name__ == "__main__":
    unittest.main()
