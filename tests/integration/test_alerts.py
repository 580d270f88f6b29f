"""Alerts (docs/api.md §13) against the real daemon: the rules API and its refusals,
evaluation after a backfill moves a price, and delivery to a local webhook receiver
(signature verified), a Discord-shaped and a Telegram-shaped fake, with retries, across
a kill -9, and the refusal of private targets.

Users sign in through the scripted identity plugin (as in test_portfolio.py); prices
move with `skinpulsectl backfill` into the running daemon, which reloads and evaluates.
"""
import glob
import hashlib
import hmac
import json
import os
import signal
import subprocess
import time
import unittest
import urllib.parse
from itertools import count

import websocket

from fakes.alert_receivers import AlertReceiver
from harness import (BIN_DIR, TEST_PLUGIN_DIR, Daemon, DaemonTestCase, cookie_of, iso, run_tool,
                     wait_until)

ITEM = "AK-47 | Redline (Field-Tested)"
PG_URL = os.environ.get("SKINPULSE_TEST_POSTGRES_URL")
SEED = os.path.join(os.environ.get("SKINPULSE_SOURCE_DIR", "."), "share", "simulated", "seed.tsv")
_ids = count(76561197960400001)


class User:
    """A signed-in browser: its session cookie and CSRF token."""

    def __init__(self, daemon, cookie):
        self.daemon = daemon
        self.cookie = cookie
        self.csrf = None

    def request(self, method, path, body=None, csrf=True):
        headers = {"Cookie": self.cookie}
        if csrf and method != "GET":
            if self.csrf is None:
                token = self.daemon.get("/api/v1/auth/csrf", headers={"Cookie": self.cookie})
                self.csrf = token.json()["csrf_token"]
            headers["X-CSRF-Token"] = self.csrf
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
            headers["Content-Type"] = "application/json"
        return self.daemon.request(method, path, body=body, headers=headers)


def sign_in(daemon):
    platform_id = str(next(_ids))
    start = daemon.get("/api/v1/auth/gameid/login")
    assert start.status == 302, (start.status, start.body)
    location = urllib.parse.urlsplit(start.header("location"))
    query = dict(urllib.parse.parse_qsl(location.query))
    callback = urllib.parse.urlsplit(query["redirect_uri"]).path
    params = {"state": query["state"], "replay": "r-%f" % time.time(), "subject": platform_id}
    done = daemon.get(callback + "?" + urllib.parse.urlencode(params),
                      headers={"Cookie": cookie_of(start)})
    assert done.status == 302 and "auth_error" not in done.header("location"), done.body
    return User(daemon, cookie_of(done))


def plugin_dir(workdir):
    """The built plugins (the metrics percent_change reads) and the scripted identity
    plugin, in one directory."""
    plugins = os.path.join(workdir, "plugins")
    if not os.path.isdir(plugins):
        os.mkdir(plugins)
        built = os.path.join(BIN_DIR, "..", "lib", "skinpulse", "plugins")
        for path in glob.glob(os.path.join(built, "*.so")) + [
                os.path.join(TEST_PLUGIN_DIR, "integration", "identity_scripted.so")]:
            os.symlink(os.path.abspath(path), os.path.join(plugins, os.path.basename(path)))
    return plugins


def env(workdir, **extra):
    values = {
        "SKINPULSE_PLUGIN_DIR": plugin_dir(workdir),
        "GAMEID_OPENID_ENABLED": "true",
        "GAMEID_OPENID_URL": "http://127.0.0.1:9/openid/login",
        "AUTH_RATE_LIMIT_PER_MINUTE": "100000",
        "REDIS_URL": "",
    }
    values.update(extra)
    return values


def ini(allow_private=True, max_rules=100):
    return ("[identity]\ngameid_plugin = scripted\n[alerts]\nallow_private_targets = %s\n"
            "retry_base_seconds = 1\nmax_rules_per_user = %d\n"
            % ("true" if allow_private else "false", max_rules))


def verify_signature(secret, header, body):
    parts = dict(part.split("=", 1) for part in header.split(","))
    expected = hmac.new(secret.encode(), (parts["t"] + ".").encode() + body,
                        hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"]) and abs(int(parts["t"]) - time.time()) < 300


class AlertsTest(DaemonTestCase):
    def item_id(self, daemon):
        found = daemon.get("/api/v1/items?q=" + urllib.parse.quote(ITEM)).json()
        return next(i["id"] for i in found if i["market_hash_name"] == ITEM)

    def backfill(self, daemon, prices, source="archive"):
        """Points of ITEM at the given prices a minute apart, the last one newer than any
        before (the daemon reloads when the store's newest point moves)."""
        now = max(int(time.time()) - 5, getattr(self, "_newest", 0) + 1)
        self._newest = now
        path = os.path.join(self.workdir, "move-%d.jsonl" % time.monotonic_ns())
        with open(path, "w", encoding="utf-8") as f:
            for i, price in enumerate(prices):
                at = now - 60 * (len(prices) - 1 - i)
                f.write(json.dumps({"market_hash_name": ITEM, "source": source,
                                    "time": iso(at), "price": price, "volume": 1}) + "\n")
        result = run_tool("skinpulsectl", "backfill", "--config", daemon.config, "--file", path,
                          env=daemon.env)
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)

    def create(self, user, item_id, channels, condition=None, status=201):
        body = {"item_id": item_id, "channels": channels, "cooldown_seconds": 0,
                "condition": condition or {"type": "price_below", "value": 900}}
        response = user.request("POST", "/api/v1/alerts", body)
        self.assertEqual(response.status, status, response.body)
        return response.json()

    def deliveries(self, user, rule_id):
        response = user.request("GET", "/api/v1/alerts/%d/deliveries" % rule_id)
        self.assertEqual(response.status, 200, response.body)
        return response.json()

    def test_rules_api_refusals(self):
        with AlertReceiver() as receiver, \
                Daemon(self.workdir, ini=ini(max_rules=2), env=env(self.workdir)) as daemon:
            item = self.item_id(daemon)
            alice, bob = sign_in(daemon), sign_in(daemon)
            hook = [{"type": "webhook", "url": receiver.url("/hook/a")}]

            self.assertProblem(daemon.get("/api/v1/alerts"), 401, "unauthenticated")
            response = alice.request("POST", "/api/v1/alerts", {"item_id": item}, csrf=False)
            self.assertProblem(response, 403, "csrf_failed")
            self.assertProblem(alice.request("POST", "/api/v1/alerts", "{not json"), 400,
                               "invalid_body")
            for body, field in [
                ({"condition": {"type": "price_below", "value": 1}, "channels": hook}, "item_id"),
                ({"item_id": item, "condition": {"type": "nope"}, "channels": hook},
                 "condition.type"),
                ({"item_id": item, "condition": {"type": "percent_change", "threshold": -1},
                  "channels": hook}, "condition.threshold"),
                ({"item_id": item, "condition": {"type": "percent_change", "window": "2d",
                                                 "threshold": 5}, "channels": hook},
                 "condition.window"),
                ({"item_id": item, "condition": {"type": "price_above", "value": 5},
                  "channels": [{"type": "telegram", "bot_token": "x", "chat_id": "1"}]},
                 "channels[0].bot_token"),
                ({"item_id": 999999999, "condition": {"type": "price_above", "value": 5},
                  "channels": hook}, "item_id"),
            ]:
                response = alice.request("POST", "/api/v1/alerts", body)
                self.assertProblem(response, 422, "invalid_alert")
                self.assertIn("'%s'" % field, response.json()["detail"])

            created = self.create(alice, item, hook)
            self.assertTrue(created["channels"][0]["secret"].startswith("whsec_"))
            self.assertEqual(created["last_fired_at"], None)
            shown = alice.request("GET", "/api/v1/alerts/%d" % created["id"]).json()
            self.assertNotIn("secret", shown["channels"][0])  # shown once
            self.assertEqual(shown["condition"],
                             {"type": "price_below", "value": 900, "source": None})
            self.assertEqual(alice.request("GET", "/api/v1/alerts").json()[0]["id"], created["id"])
            self.assertEqual(alice.request("GET", "/api/v1/alerts").header("cache-control"),
                             "no-store")

            # Another user's rule does not exist for bob.
            for method in ("GET", "PATCH", "DELETE"):
                response = bob.request(method, "/api/v1/alerts/%d" % created["id"],
                                       {"enabled": False} if method == "PATCH" else None)
                self.assertProblem(response, 404, "alert_not_found")
            self.assertProblem(bob.request("GET", "/api/v1/alerts/%d/deliveries" % created["id"]),
                               404, "alert_not_found")
            self.assertProblem(alice.request("GET", "/api/v1/alerts/abc"), 400,
                               "invalid_parameter")

            patched = alice.request("PATCH", "/api/v1/alerts/%d" % created["id"],
                                    {"enabled": False, "cooldown_seconds": 60})
            self.assertEqual(patched.status, 200, patched.body)
            self.assertEqual((patched.json()["enabled"], patched.json()["cooldown_seconds"]),
                             (False, 60))
            self.assertNotIn("secret", patched.json()["channels"][0])  # kept, not shown

            telegram = self.create(alice, item, [{"type": "telegram", "chat_id": "42",
                                                  "bot_token": "123456:" + "A" * 30}])
            self.assertEqual(telegram["channels"][0], {"type": "telegram", "chat_id": "42"})
            self.assertProblem(alice.request("POST", "/api/v1/alerts", {
                "item_id": item, "channels": hook,
                "condition": {"type": "price_above", "value": 5}}), 409, "alert_limit")

            self.assertEqual(alice.request("DELETE", "/api/v1/alerts/%d" % telegram["id"]).status,
                             204)
            self.assertNotIn("123456:", daemon.stderr())

    def test_a_move_is_delivered_to_webhook_discord_and_telegram(self):
        with AlertReceiver() as receiver, Daemon(self.workdir, ini=ini(), env=env(
                self.workdir, TELEGRAM_API_URL=receiver.url(""))) as daemon:
            item = self.item_id(daemon)
            user = sign_in(daemon)
            self.backfill(daemon, [1000, 1000, 1000])
            token = "123456:" + "B" * 32
            rule = self.create(user, item, [
                {"type": "webhook", "url": receiver.url("/hook/one")},
                {"type": "discord", "url": receiver.url("/api/webhooks/77/discord-token")},
                {"type": "telegram", "bot_token": token, "chat_id": "-1001"},
            ])
            drop = self.create(user, item, [{"type": "discord", "url": receiver.url(
                "/api/webhooks/78/other-token")}], condition={
                "type": "percent_change", "window": "24h", "threshold": 5, "direction": "down"})
            secret = rule["channels"][0]["secret"]
            self.assertEqual(rule["channels"][1]["url"], receiver.url("/api/webhooks/77/") + "…")

            self.backfill(daemon, [800])  # 1000 → 800: below 900, and -20 % in 24h
            self.assertTrue(wait_until(lambda: len(receiver.deliveries()) >= 4, timeout=20),
                            [d.path for d in receiver.deliveries()])

            hook = receiver.deliveries("/hook/one")[0]
            self.assertTrue(verify_signature(secret, hook.headers["x-skinpulse-signature"],
                                             hook.body))
            payload = hook.json()
            self.assertEqual(hook.headers["x-skinpulse-delivery"], payload["delivery_id"])
            self.assertEqual((payload["alert_id"], payload["item_id"], payload["market_hash_name"]),
                             (rule["id"], item, ITEM))
            self.assertEqual(payload["condition"]["type"], "price_below")
            self.assertEqual(payload["observed"]["price"], 800)
            self.assertRegex(payload["fired_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

            discord = receiver.deliveries("/api/webhooks/77/")[0]
            self.assertIn(ITEM, discord.json()["content"])
            self.assertEqual(discord.status, 204)
            moved = receiver.deliveries("/api/webhooks/78/")[0].json()["content"]
            self.assertIn("-20.00 %", moved)
            telegram = receiver.deliveries("/bot")[0]
            self.assertEqual(telegram.path, "/bot%s/sendMessage" % token)
            self.assertEqual(telegram.json()["chat_id"], "-1001")

            listed = wait_until(lambda: all(d["status"] == "delivered"
                                            for d in self.deliveries(user, rule["id"]))
                                and self.deliveries(user, rule["id"]))
            self.assertEqual(sorted(d["channel"] for d in listed),
                             ["discord", "telegram", "webhook"])
            self.assertTrue(all(d["attempts"] == 1 for d in listed))
            self.assertIsNotNone(
                user.request("GET", "/api/v1/alerts/%d" % rule["id"]).json()["last_fired_at"])
            self.assertEqual(len(self.deliveries(user, drop["id"])), 1)

            # Edge-triggered: a further point still below 900 does not fire again.
            self.backfill(daemon, [790])
            time.sleep(3)
            self.assertEqual(len(receiver.deliveries("/hook/one")), 1)
            for text in (token, secret, "discord-token"):
                self.assertNotIn(text, daemon.stderr())

    def test_retries_then_delivers_with_the_same_delivery_id(self):
        with AlertReceiver() as receiver, \
                Daemon(self.workdir, ini=ini(), env=env(self.workdir)) as daemon:
            item = self.item_id(daemon)
            user = sign_in(daemon)
            self.backfill(daemon, [1000, 1000])
            rule = self.create(user, item, [{"type": "webhook", "url": receiver.url("/hook/r")}])
            receiver.fail_next(2, 503)
            self.backfill(daemon, [850])
            self.assertTrue(wait_until(lambda: len(receiver.deliveries()) >= 3, timeout=20),
                            daemon.stderr()[-2500:])
            got = receiver.deliveries()
            self.assertEqual([d.status for d in got], [503, 503, 200])
            self.assertEqual(len({d.headers["x-skinpulse-delivery"] for d in got}), 1)
            listed = wait_until(lambda: [d for d in self.deliveries(user, rule["id"])
                                         if d["status"] == "delivered"])
            self.assertEqual(listed[0]["attempts"], 3)

    def test_pending_deliveries_survive_kill_9(self):
        receiver = AlertReceiver().start()
        try:
            daemon = Daemon(self.workdir, ini=ini(), env=env(self.workdir)).start()
            item = self.item_id(daemon)
            user = sign_in(daemon)
            self.backfill(daemon, [1000, 1000])
            rule = self.create(user, item, [{"type": "webhook", "url": receiver.url("/hook/k")},
                                            {"type": "webhook", "url": receiver.url("/hook/l")}])
            receiver.fail_next(1000, 503)
            self.backfill(daemon, [700])
            self.assertTrue(wait_until(lambda: len(receiver.deliveries()) >= 2, timeout=20))
            daemon.proc.send_signal(signal.SIGKILL)
            daemon.stop()
            first = {d.path: d.headers["x-skinpulse-delivery"] for d in receiver.deliveries()}
            with receiver.lock:
                receiver.failures.clear()
            before = len(receiver.deliveries())

            restarted = Daemon(self.workdir, ini=ini(), env=env(self.workdir))
            restarted.port, restarted.config = daemon.port, daemon.config
            restarted.env = daemon.env
            with restarted:
                self.assertTrue(wait_until(
                    lambda: {d.path for d in receiver.deliveries()[before:] if d.status == 200}
                    >= {"/hook/k", "/hook/l"}, timeout=25), receiver.deliveries())
                for d in receiver.deliveries()[before:]:
                    self.assertEqual(d.headers["x-skinpulse-delivery"], first[d.path])
                listed = User(restarted, user.cookie)
                self.assertEqual({d["status"] for d in self.deliveries(listed, rule["id"])},
                                 {"delivered"})
        finally:
            receiver.stop()

    def test_ws_alerts_reach_signed_in_connections_of_the_dashboard_origin_only(self):
        with Daemon(self.workdir, ini=ini(), env=env(self.workdir)) as daemon:
            item = self.item_id(daemon)
            user, other = sign_in(daemon), sign_in(daemon)
            self.backfill(daemon, [1000, 1000])
            origin = "http://127.0.0.1:%d" % daemon.port
            url = "ws://127.0.0.1:%d/api/v1/ws" % daemon.port
            signed_in = websocket.create_connection(url, timeout=10, origin=origin,
                                                    cookie=user.cookie)
            foreign = websocket.create_connection(url, timeout=2, origin="https://evil.example",
                                                  cookie=user.cookie)
            someone_else = websocket.create_connection(url, timeout=2, origin=origin,
                                                       cookie=other.cookie)
            rule = self.create(user, item, [{"type": "ws"}])
            self.backfill(daemon, [880])
            frame = json.loads(signed_in.recv())
            self.assertEqual((frame["type"], frame["alert_id"], frame["item_id"]),
                             ("alert", rule["id"], item))
            self.assertEqual(frame["observed"]["price"], 880)
            self.assertIn(ITEM, frame["message"])
            for ws in (foreign, someone_else):  # anonymous, or another user: nothing
                with self.assertRaises(websocket.WebSocketTimeoutException):
                    ws.recv()
            # The public protocol is unchanged on a signed-in connection.
            signed_in.send(json.dumps({"type": "ping"}))
            self.assertEqual(json.loads(signed_in.recv()), {"type": "pong"})
            listed = wait_until(lambda: [d for d in self.deliveries(user, rule["id"])
                                         if d["status"] == "delivered"])
            self.assertEqual(listed[0]["channel"], "ws")
            for ws in (signed_in, foreign, someone_else):
                ws.close()

    def test_private_targets_are_refused(self):
        with AlertReceiver() as receiver, \
                Daemon(self.workdir, ini=ini(allow_private=False), env=env(self.workdir)) as daemon:
            item = self.item_id(daemon)
            user = sign_in(daemon)
            for url in (receiver.url("/hook/p"),  # http
                        "https://127.0.0.1:%d/hook" % receiver.port,
                        "https://[::1]/hook", "https://10.1.2.3/x", "https://169.254.169.254/",
                        "https://localhost/hook",
                        # Issue 31: forms the resolver reads as local addresses.
                        "https://0/hook", "https://[::]/hook", "https://localhost./hook",
                        "https://0.0.0.0/hook", "https://[::ffff:127.0.0.1]/hook",
                        "https://2130706433/hook", "https://0x7f.1/hook", "https://127.1/hook",
                        "https://0177.0.0.1/hook"):
                response = user.request("POST", "/api/v1/alerts", {
                    "item_id": item, "condition": {"type": "price_below", "value": 900},
                    "channels": [{"type": "webhook", "url": url}]})
                self.assertProblem(response, 422, "invalid_alert")
                self.assertIn("channels[0].url", response.json()["detail"])
            # Names are resolved and checked again at each delivery (unit test
            # tests/unit/alerts/TargetCheckTest.cpp): nothing reached the receiver.
            self.assertEqual(receiver.deliveries(), [])


@unittest.skipUnless(PG_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class AlertsScaleOutTest(DaemonTestCase):
    """Two daemons on one PostgreSQL database: a rule written through the standby is
    evaluated by the polling instance (the rules revision), and fires once."""

    def psql(self, sql):
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", PG_URL, "-c", sql], check=True,
                       capture_output=True)

    def setUp(self):
        super().setUp()
        self.schema = "it_alerts_%d" % os.getpid()
        self.psql("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s" % (self.schema, self.schema))
        separator = "&" if "?" in PG_URL else "?"
        self.url = PG_URL + separator + "options=-csearch_path%3D" + self.schema

    def tearDown(self):
        self.psql("DROP SCHEMA IF EXISTS %s CASCADE" % self.schema)
        super().tearDown()

    def daemon(self, name):
        workdir = os.path.join(self.workdir, name)
        os.makedirs(workdir)
        text = ini() + ("[source.sim]\nplugin = simulated\ninterval_seconds = 2\nseed_file = %s\n"
                        "fraction = 1.0\n" % SEED)
        return Daemon(workdir, ini=text, env=env(self.workdir, DATABASE_URL=self.url))

    def test_a_rule_written_on_the_standby_fires_once_on_the_polling_instance(self):
        with AlertReceiver() as receiver, self.daemon("a") as polling:
            role = lambda d: d.get("/readyz").json()["ingest"]  # noqa: E731
            self.assertTrue(wait_until(lambda: role(polling) == "polling"))
            with self.daemon("b") as standby:
                self.assertTrue(wait_until(lambda: role(standby) == "standby", 10))
                found = standby.get("/api/v1/items?q=" + urllib.parse.quote(ITEM)).json()
                item = next(i["id"] for i in found if i["market_hash_name"] == ITEM)
                user = sign_in(standby)
                response = user.request("POST", "/api/v1/alerts", {
                    "item_id": item, "condition": {"type": "price_above", "value": 1},
                    "channels": [{"type": "webhook", "url": receiver.url("/hook/s")}]})
                self.assertEqual(response.status, 201, response.body)
                self.assertTrue(wait_until(lambda: receiver.deliveries(), timeout=20),
                                polling.stderr()[-2000:])
                time.sleep(5)  # more cycles: the condition still holds, no new edge
                self.assertEqual(len(receiver.deliveries()), 1)
                self.assertTrue(any("rules changed on another instance" in line
                                    for line in polling.stderr_lines))

