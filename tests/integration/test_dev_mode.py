"""The development configuration (etc/dev/skinpulsed.ini) shows everything at once (issue 32).

The real skinpulsed runs on the dev config, in a temporary directory on a free port:
several simulated markets are fresh, consensus and spreads have values, an outlier row is
flagged within a bounded time, the lagging market is shown stale, a Doppler base has its
phases priced; the development sign-in runs the real gameid OpenID 2.0 flow against the
daemon's own /dev/openid, the import reads the demo inventory from /dev/inventory, the
portfolio is valued with a P&L, exported as CSV, and an alert is created. And the daemon
refuses [dev] with an https BASE_URL or in the packaged configuration.
"""
import html
import json
import os
import re
import shutil
import subprocess
import time
import unittest
import urllib.parse

from harness import BIN_DIR, SOURCE_DIR, Daemon, DaemonTestCase, cookie_of, wait_until

DEV_INI = os.path.join(SOURCE_DIR, "etc", "dev", "skinpulsed.ini")
PLAYER = "76561197960287930"  # [dev] player_id of etc/dev
SECOND = "76561197960287940"  # [dev] second_player_id of etc/dev
DOPPLER = "★ Karambit | Doppler (Factory New)"
MAIN_MARKETS = ("simulated", "sim-dear", "sim-bids", "sim-sales")


def dev_ini():
    """etc/dev/skinpulsed.ini with its seed file made absolute (the test runs elsewhere);
    LISTEN, BASE_URL and DATABASE_URL come from the harness's environment."""
    with open(DEV_INI, encoding="utf-8") as f:
        text = f.read()
    seed = os.path.join(os.path.abspath(SOURCE_DIR), "share", "simulated", "seed.tsv")
    return text.replace("seed_file = share/simulated/seed.tsv", "seed_file = " + seed)


def local_target(url):
    """The path and query of an absolute URL on the daemon."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


class DevModeTest(DaemonTestCase):
    def setUp(self):
        super().setUp()
        self.daemon = Daemon(self.workdir, dev_ini(), env={"REDIS_URL": ""})
        self.daemon.start()
        self.addCleanup(self.daemon.stop)

    def get_json(self, path, **kw):
        response = self.daemon.get(path, **kw)
        self.assertEqual(response.status, 200, (path, response.body[:300]))
        return response.json()

    def item_id(self, name):
        query = urllib.parse.urlencode({"q": name, "limit": 50})
        for item in self.get_json("/api/v1/items?" + query):
            if item["market_hash_name"] == name:
                return item["id"]
        self.fail("no item " + name)

    def sources(self):
        return {s["name"]: s for s in self.get_json("/api/v1/sources")}

    def test_markets_and_development_sign_in(self):
        started = time.time()
        # Several markets fresh; the lagging one polled but with no fresh price.
        def markets_up():
            s = self.sources()
            up = all(s.get(n, {}).get("items_priced", 0) > 500 for n in MAIN_MARKETS)
            return s if up and s["sim-lagging"]["last_success"] else None
        sources = wait_until(markets_up, timeout=40, every=0.5)
        self.assertTrue(sources, self.sources())
        self.assertEqual(sources["sim-bids"]["kind"], "bid")
        self.assertEqual(sources["sim-sales"]["kind"], "sale")
        self.assertEqual(sources["sim-dear"]["fee_percent"], 8)
        self.assertEqual(sources["sim-lagging"]["items_priced"], 0)

        # Spreads across markets, net of fees.
        spreads = self.get_json("/api/v1/rankings/spread?limit=5&min_sources=2")
        self.assertTrue(spreads, "no spread")
        detail = self.get_json("/api/v1/items/%d" % spreads[0]["item_id"])
        self.assertIsNotNone(detail["consensus_price"])
        self.assertIsNotNone(detail["spread_percent"])
        latest = {p["source"]: p for p in detail["latest_prices"]}
        self.assertGreaterEqual(len([p for p in latest.values() if not p["stale"]]), 2)

        # The lagging market is shown stale on an item every market lists (coverage 0.02).
        lagging = None
        for entry in spreads:
            d = self.get_json("/api/v1/items/%d" % entry["item_id"])
            by_source = {p["source"]: p for p in d["latest_prices"]}
            if "sim-lagging" in by_source:
                lagging = by_source
                break
        if lagging is None:  # the best spreads need not be on the smallest list: search it
            for page in self.get_json("/api/v1/items?limit=200"):
                d = self.get_json("/api/v1/items/%d" % page["id"])
                by_source = {p["source"]: p for p in d["latest_prices"]}
                if "sim-lagging" in by_source and len(by_source) >= 4:
                    lagging = by_source
                    break
        self.assertIsNotNone(lagging, "no item priced by sim-lagging")
        self.assertTrue(lagging["sim-lagging"]["stale"])
        self.assertTrue(any(not p["stale"] for p in lagging.values()))

        # A Doppler base with its phases priced, the base at the lowest phase of a market.
        base = self.get_json("/api/v1/items/%d" % self.item_id(DOPPLER))
        self.assertGreaterEqual(len(base["variants"]), 7)
        priced = 0
        for variant in base["variants"]:
            v = self.get_json("/api/v1/items/%d" % variant["id"])
            if v["current_price"]:
                priced += 1
        self.assertGreaterEqual(priced, 7)
        ruby = next(v for v in base["variants"] if v["variant"] == "Ruby")
        ruby_price = self.get_json("/api/v1/items/%d" % ruby["id"])["current_price"]
        self.assertGreater(ruby_price, 3 * base["current_price"])

        # An outlier row is flagged within a bounded time (about 4 per cycle over the two
        # markets that send them; each lasts until that market's next poll).
        flagged = wait_until(
            lambda: sum(s["outliers"] for s in self.sources().values()), timeout=35, every=1)
        self.assertGreater(flagged, 0, "no outlier flagged")

        # The development sign-in: the real gameid flow against the daemon's own provider.
        start = self.daemon.get("/api/v1/auth/gameid/login")
        self.assertEqual(start.status, 302, start.body)
        anonymous = cookie_of(start)
        provider = start.header("location")
        self.assertTrue(provider.startswith(self.daemon.env["BASE_URL"] + "/dev/openid?"))
        assertion = self.daemon.get(local_target(provider))
        self.assertEqual(assertion.status, 302, assertion.body)
        callback = assertion.header("location")
        done = self.daemon.get(local_target(callback), headers={"Cookie": anonymous})
        self.assertEqual(done.status, 302, done.body)
        self.assertNotIn("auth_error", done.header("location"))
        cookie = cookie_of(done)
        me = self.get_json("/api/v1/auth/me", headers={"Cookie": cookie})
        self.assertEqual(me["gameid"]["platform_id"], PLAYER)
        self.assertEqual(me["name"], "Demo Trader")  # the development profile API
        # The same assertion again: the provider verifies a nonce once (and the RP refuses it).
        again = self.daemon.get(local_target(callback), headers={"Cookie": anonymous})
        self.assertIn("auth_error", again.header("location") or "")

        csrf = self.get_json("/api/v1/auth/csrf", headers={"Cookie": cookie})["csrf_token"]
        headers = {"Cookie": cookie, "X-CSRF-Token": csrf}
        imported = self.daemon.request("POST", "/api/v1/portfolio/import", headers=headers)
        self.assertEqual(imported.status, 200, imported.body)
        self.assertEqual(imported.json()["imported_assets"], 18)

        # The held items are reported by the markets from their next poll on.
        def valued():
            p = self.get_json("/api/v1/portfolio", headers={"Cookie": cookie})
            return p if p["holdings"] and all(h["current_price"] > 0 for h in p["holdings"]) \
                else None
        portfolio = wait_until(valued, timeout=40, every=1)
        self.assertTrue(portfolio, self.get_json("/api/v1/portfolio", headers={"Cookie": cookie}))
        self.assertGreater(portfolio["total_value"], 0)
        knife = next(h for h in portfolio["holdings"] if h["market_hash_name"] == DOPPLER)
        self.assertEqual(knife.get("variant"), "Phase 2")

        # P&L: a cost basis on the knife.
        patch = self.daemon.request(
            "PATCH", "/api/v1/portfolio/holdings/%d" % knife["item_id"],
            body=json.dumps({"cost_basis": knife["current_price"] - 1000}),
            headers=dict(headers, **{"Content-Type": "application/json"}))
        self.assertEqual(patch.status, 200, patch.body)
        portfolio = self.get_json("/api/v1/portfolio", headers={"Cookie": cookie})
        knife = next(h for h in portfolio["holdings"] if h["item_id"] == knife["item_id"])
        self.assertIsNotNone(knife["unrealised_pl"])

        csv = self.daemon.get("/api/v1/portfolio.csv", headers={"Cookie": cookie})
        self.assertEqual(csv.status, 200, csv.body)
        self.assertIn("text/csv", csv.header("content-type"))
        self.assertIn(DOPPLER, csv.body.decode("utf-8"))

        alert = self.daemon.request(
            "POST", "/api/v1/alerts",
            body=json.dumps({"item_id": knife["item_id"],
                             "condition": {"type": "price_below", "value": 100},
                             "channels": [{"type": "ws"}]}),
            headers=dict(headers, **{"Content-Type": "application/json"}))
        self.assertEqual(alert.status, 201, alert.body)

        # The lagging market stopped answering after its first poll: 15 s (3 polls of 5 s)
        # after it, the source itself is stale and failing.
        lagging_source = wait_until(
            lambda: (lambda s: s if not s["fresh"] else None)(self.sources()["sim-lagging"]),
            timeout=60, every=1)
        self.assertTrue(lagging_source, self.sources()["sim-lagging"])
        self.assertTrue(lagging_source["failing"])

        # The dashboard offers the development sign-in.
        page = self.daemon.get("/portfolio").body.decode("utf-8")
        self.assertIn('<meta name="skinpulse-dev" content="on">', page)
        self.assertIn('content="gameid"', page)
        self.assertLess(time.time() - started, 120)

    def test_second_account_is_chosen_when_linking(self):
        base = self.daemon.env["BASE_URL"]
        query = {"openid.ns": "http://specs.openid.net/auth/2.0", "openid.mode": "checkid_setup",
                 "openid.claimed_id": "http://specs.openid.net/auth/2.0/identifier_select",
                 "openid.identity": "http://specs.openid.net/auth/2.0/identifier_select",
                 "openid.realm": base + "/"}
        # Signing in (the login callback) is the first account at once, as before.
        login = dict(query, **{"openid.return_to": base + "/api/v1/auth/gameid/login/callback?state=abc"})
        answer = self.daemon.get("/dev/openid?" + urllib.parse.urlencode(login))
        self.assertEqual(answer.status, 302, answer.body)
        self.assertIn(urllib.parse.quote("/openid/id/" + PLAYER, safe=""), answer.header("location"))
        # Linking asks which development account: a page with both.
        link = dict(query, **{"openid.return_to": base + "/api/v1/auth/gameid/callback?state=abc"})
        page = self.daemon.get("/dev/openid?" + urllib.parse.urlencode(link))
        self.assertEqual(page.status, 200, page.body)
        self.assertIn("text/html", page.header("content-type"))
        text = page.body.decode("utf-8")
        self.assertIn("Demo Trader (%s)" % PLAYER, text)
        self.assertIn("Demo Storage (%s)" % SECOND, text)
        href = html.unescape(re.search(r'id="dev-account-%s" href="([^"]+)"' % SECOND,
                                       text).group(1))
        self.assertTrue(href.startswith("?"), href)
        chosen = self.daemon.get("/dev/openid" + href)
        self.assertEqual(chosen.status, 302, chosen.body)
        location = chosen.header("location")
        self.assertTrue(location.startswith(base + "/api/v1/auth/gameid/callback?"), location)
        self.assertIn(urllib.parse.quote("/openid/id/" + SECOND, safe=""), location)
        # Not a development account: refused, never asserted.
        other = self.daemon.get("/dev/openid?" + urllib.parse.urlencode(
            dict(link, dev_account="76561197960287999")))
        self.assertEqual(other.status, 400, other.body)
        # Each account has its own inventory and profile name.
        storage = self.get_json("/dev/inventory/%s/730/2?l=english&count=1000" % SECOND)
        self.assertIn("M4A4 | Desolate Space (Field-Tested)",
                      [d["market_hash_name"] for d in storage["descriptions"]])
        self.assertEqual(self.daemon.get("/dev/inventory/76561197960287999/730/2").status, 403)
        players = self.get_json("/dev/api/ISteamUser/GetPlayerSummaries/v0002/?key=x&steamids="
                                + PLAYER + "," + SECOND)["response"]["players"]
        self.assertEqual({p["steamid"]: p["personaname"] for p in players},
                         {PLAYER: "Demo Trader", SECOND: "Demo Storage"})

    def test_provider_refuses_a_foreign_return_to_and_a_forged_assertion(self):
        evil = self.daemon.get("/dev/openid?" + urllib.parse.urlencode({
            "openid.ns": "http://specs.openid.net/auth/2.0", "openid.mode": "checkid_setup",
            "openid.return_to": "https://evil.example/cb"}))
        self.assertProblem(evil, 400, "invalid_parameter")
        forged = self.daemon.request(
            "POST", "/dev/openid", body=urllib.parse.urlencode({
                "openid.mode": "check_authentication", "openid.sig": "AAAA",
                "openid.signed": "signed,op_endpoint,claimed_id,identity,return_to,"
                                 "response_nonce,assoc_handle",
                "openid.assoc_handle": "skinpulse-dev-stateless"}),
            headers={"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(forged.status, 200)
        self.assertIn(b"is_valid:false", forged.body)
        other = self.daemon.get("/dev/inventory/76561197960287931/730/2")
        self.assertEqual(other.status, 403)


class DevModeRefusedTest(DaemonTestCase):
    def run_daemon(self, config, env):
        full = dict(os.environ)
        full.update({"SESSION_SECRET": "integration-test-secret-0123456789abcdef",
                     "LISTEN": "127.0.0.1:0", "ADMIN_LISTEN": "",
                     "DATABASE_URL": "sqlite://" + os.path.join(self.workdir, "x.db")})
        full.update(env)
        return subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--config", config],
                              env=full, capture_output=True, text=True, timeout=30,
                              cwd=self.workdir)

    def assertRefused(self, result):
        self.assertNotEqual(result.returncode, 0, result.stderr)
        lines = [line for line in result.stderr.splitlines() if "dev" in line and "enabled" in line]
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertNotIn("listening on", result.stderr)
        return lines[0]

    def test_https_base_url_is_refused(self):
        config = os.path.join(self.workdir, "skinpulsed.ini")
        with open(config, "w", encoding="utf-8") as f:
            f.write(dev_ini())
        line = self.assertRefused(self.run_daemon(config, {"BASE_URL": "https://prices.example"}))
        self.assertIn("https", line)

    def test_packaged_configuration_is_refused(self):
        # The packaged configuration as installed (/etc/skinpulse/skinpulsed.ini) with a
        # drop-in that tries to turn development mode on.
        etc = os.path.join(self.workdir, "etc", "skinpulse")
        os.makedirs(os.path.join(etc, "conf.d"))
        shutil.copy(os.path.join(SOURCE_DIR, "etc", "skinpulse", "skinpulsed.ini"), etc)
        with open(os.path.join(etc, "conf.d", "dev.ini"), "w", encoding="utf-8") as f:
            f.write("[dev]\nenabled = true\n")
        line = self.assertRefused(self.run_daemon(
            os.path.join(etc, "skinpulsed.ini"), {"BASE_URL": "http://127.0.0.1:8080"}))
        self.assertIn("packaged", line)


if __name__ == "__main__":
    unittest.main()
