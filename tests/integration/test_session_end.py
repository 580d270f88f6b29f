"""Sessions end everywhere (docs/api.md §5, §7), against the real daemon:

- a signed-in WebSocket of a session that logs out is closed with 4001 and gets none of
  the user's later `ws` alerts, while a socket of the same user's other session still
  does (before: the logged-out socket kept receiving them);
- on two daemons sharing a Redis, a logout on one closes the session's socket on the
  other (the end travels the event bus); a session gone from the store without a word
  on the bus closes its socket at the next check (30 s);
- a cookie-less `/api/v1/auth/csrf` makes a 30-minute anonymous session, and a burst of
  them is capped by the /api/v1/auth rate limit (20 a minute): the store keys counted;
- a request carrying two session cookies has no session, in either order.

Users sign in through the scripted identity plugin, as in test_alerts.py, whose helpers
this reuses.
"""
import json
import subprocess
import time
import unittest
import urllib.parse

import websocket

import test_alerts as alerts
from fakes.redis_server import RedisServer
from harness import Daemon, DaemonTestCase, wait_until

SESSION_ENDED = 4001


def sign_in_as(daemon, platform_id):
    """A new session of the account linked to `platform_id` (created on first use)."""
    start = daemon.get("/api/v1/auth/gameid/login")
    assert start.status == 302, (start.status, start.body)
    location = urllib.parse.urlsplit(start.header("location"))
    query = dict(urllib.parse.parse_qsl(location.query))
    callback = urllib.parse.urlsplit(query["redirect_uri"]).path
    params = {"state": query["state"], "replay": "r-%f" % time.time(), "subject": platform_id}
    done = daemon.get(callback + "?" + urllib.parse.urlencode(params),
                      headers={"Cookie": alerts.cookie_of(start)})
    assert done.status == 302 and "auth_error" not in done.header("location"), done.body
    return alerts.User(daemon, alerts.cookie_of(done)), done.header("set-cookie")


def open_socket(daemon, cookie=None, timeout=10):
    origin = "http://127.0.0.1:%d" % daemon.port
    url = "ws://127.0.0.1:%d/api/v1/ws" % daemon.port
    return websocket.create_connection(url, timeout=timeout, origin=origin, cookie=cookie)


def close_code(ws, timeout=5):
    """The code of the close frame the server sends next (frames before it skipped)."""
    ws.settimeout(timeout)
    while True:
        opcode, data = ws.recv_data(control_frame=True)
        if opcode == websocket.ABNF.OPCODE_CLOSE:
            return int.from_bytes(data[:2], "big")


def logout(user):
    response = user.request("POST", "/api/v1/auth/logout")
    assert response.status == 204, (response.status, response.body)


def max_age(set_cookie):
    attributes = dict(part.strip().split("=", 1) for part in set_cookie.split(";")[1:]
                      if "=" in part)
    return int(attributes["Max-Age"])


class SessionEndTest(DaemonTestCase):
    item_id = alerts.AlertsTest.item_id
    backfill = alerts.AlertsTest.backfill
    create = alerts.AlertsTest.create

    def move_to(self, daemon, item, price):
        """Backfills `price` and waits until the daemon has taken it in (the rule is
        evaluated on every reload: a later move is a new edge only after this one)."""
        self.backfill(daemon, [price])
        self.assertTrue(wait_until(lambda: daemon.get("/api/v1/items/%d" % item).json()
                                   .get("current_price") == price, timeout=20))

    def test_session_logout_closes_its_sockets_and_stops_its_alerts(self):
        with Daemon(self.workdir, ini=alerts.ini(), env=alerts.env(self.workdir)) as daemon:
            item = self.item_id(daemon)
            platform_id = str(next(alerts._ids))
            leaving, _ = sign_in_as(daemon, platform_id)
            staying, _ = sign_in_as(daemon, platform_id)  # the same user, another session
            self.backfill(daemon, [1000, 1000])
            leaving_ws = open_socket(daemon, leaving.cookie)
            staying_ws = open_socket(daemon, staying.cookie)
            rule = self.create(staying, item, [{"type": "ws"}])
            self.backfill(daemon, [880])
            for ws in (leaving_ws, staying_ws):  # both signed in: both get the alert
                frame = json.loads(ws.recv())
                self.assertEqual((frame["type"], frame["alert_id"]), ("alert", rule["id"]))

            started = time.monotonic()
            logout(leaving)
            self.assertEqual(close_code(leaving_ws), SESSION_ENDED)
            closed_after = time.monotonic() - started
            self.assertLess(closed_after, 2.0)
            print("\nsocket closed %.0f ms after the logout answered" % (closed_after * 1000))

            # The next alert reaches the session still signed in, and nothing else.
            self.move_to(daemon, item, 1000)
            self.move_to(daemon, item, 870)
            frame = json.loads(staying_ws.recv())
            self.assertEqual((frame["type"], frame["observed"]["price"]), ("alert", 870))
            with self.assertRaises((websocket.WebSocketConnectionClosedException,
                                    BrokenPipeError, ConnectionResetError)):
                leaving_ws.settimeout(2)
                leaving_ws.recv()
            # A new handshake with the dead cookie is anonymous: no alerts.
            again = open_socket(daemon, leaving.cookie, timeout=3)
            self.move_to(daemon, item, 1000)
            self.move_to(daemon, item, 860)
            self.assertEqual(json.loads(staying_ws.recv())["observed"]["price"], 860)
            with self.assertRaises(websocket.WebSocketTimeoutException):
                again.recv()
            for ws in (staying_ws, again, leaving_ws):
                ws.close()

    def test_session_a_new_login_closes_the_old_sessions_socket(self):
        with Daemon(self.workdir, ini=alerts.ini(), env=alerts.env(self.workdir)) as daemon:
            user, _ = sign_in_as(daemon, str(next(alerts._ids)))
            ws = open_socket(daemon, user.cookie)
            # Signing in again from the same browser rotates that session away.
            start = daemon.get("/api/v1/auth/gameid/login", headers={"Cookie": user.cookie})
            location = urllib.parse.urlsplit(start.header("location"))
            query = dict(urllib.parse.parse_qsl(location.query))
            callback = urllib.parse.urlsplit(query["redirect_uri"]).path
            params = {"state": query["state"], "replay": "r-%f" % time.time(),
                      "subject": str(next(alerts._ids))}
            done = daemon.get(callback + "?" + urllib.parse.urlencode(params),
                              headers={"Cookie": user.cookie})
            self.assertEqual(done.status, 302, done.body)
            self.assertEqual(close_code(ws), SESSION_ENDED)

    def test_session_logout_on_one_daemon_closes_the_socket_on_another(self):
        redis = RedisServer().start()
        self.addCleanup(redis.kill)
        env = alerts.env(self.workdir, REDIS_URL=redis.url)
        daemons = []
        for name in ("a", "b"):
            workdir = "%s/%s" % (self.workdir, name)
            subprocess.run(["mkdir", "-p", workdir], check=True)
            daemons.append(Daemon(workdir, ini=alerts.ini(), env=env).start())
            self.addCleanup(daemons[-1].stop)
        a, b = daemons
        user, _ = sign_in_as(a, str(next(alerts._ids)))
        remote = open_socket(b, user.cookie)  # the session lives in the shared Redis
        anonymous = open_socket(b)
        # Both daemons hold their subscription before the logout is published.
        self.assertTrue(wait_until(lambda: sum(
            "subscribed to redis channel" in line for d in daemons
            for line in d.stderr_lines) >= 2, 10))
        started = time.monotonic()
        logout(user)
        self.assertEqual(close_code(remote), SESSION_ENDED)
        print("\nremote socket closed %.0f ms after the logout answered"
              % ((time.monotonic() - started) * 1000))
        # An anonymous socket on the same daemon is untouched.
        anonymous.send(json.dumps({"type": "ping"}))
        self.assertEqual(json.loads(anonymous.recv()), {"type": "pong"})
        anonymous.close()

    def test_session_a_session_gone_from_the_store_closes_its_socket_within_the_check(self):
        # The backstop for an end the bus lost (Redis down at the logout): every 30 s the
        # sessions of the signed-in sockets are looked up in the shared store.
        redis = RedisServer().start()
        self.addCleanup(redis.kill)
        env = alerts.env(self.workdir, REDIS_URL=redis.url)
        with Daemon(self.workdir, ini=alerts.ini(), env=env) as daemon:
            user, _ = sign_in_as(daemon, str(next(alerts._ids)))
            ws = open_socket(daemon, user.cookie)
            keys = subprocess.run(
                ["redis-cli", "-p", str(redis.port), "--scan", "--pattern", "session:*"],
                capture_output=True, text=True, check=True).stdout.split()
            self.assertEqual(len(keys), 1)
            subprocess.run(["redis-cli", "-p", str(redis.port), "DEL", keys[0]], check=True,
                           capture_output=True)
            started = time.monotonic()
            self.assertEqual(close_code(ws, timeout=35), SESSION_ENDED)
            print("\nsession deleted in the store: socket closed after %.1f s"
                  % (time.monotonic() - started))

    def test_session_anonymous_sessions_are_short_and_a_burst_is_capped(self):
        redis = RedisServer().start()
        self.addCleanup(redis.kill)
        env = alerts.env(self.workdir, REDIS_URL=redis.url, AUTH_RATE_LIMIT_PER_MINUTE=None)
        with Daemon(self.workdir, ini=alerts.ini(), env=env) as daemon:
            statuses = []
            for _ in range(100):  # one client, no cookie: every answer would be a session
                response = daemon.get("/api/v1/auth/csrf")
                statuses.append(response.status)
                if response.status == 200:
                    self.assertEqual(max_age(response.header("set-cookie")), 30 * 60)
            keys = subprocess.run(
                ["redis-cli", "-p", str(redis.port), "--scan", "--pattern", "session:*"],
                capture_output=True, text=True, check=True).stdout.split()
            # The /api/v1/auth rate limit (20 a minute) caps how many one client makes.
            self.assertEqual(statuses.count(200), 20)
            self.assertEqual(statuses.count(429), 80)
            self.assertEqual(len(keys), 20)
            ttls = [int(subprocess.run(["redis-cli", "-p", str(redis.port), "PTTL", key],
                                       capture_output=True, text=True, check=True).stdout)
                    for key in keys]
            self.assertTrue(all(0 < ttl <= 30 * 60 * 1000 for ttl in ttls), ttls)
            print("\n100 cookie-less /auth/csrf: %d sessions stored, longest TTL %d s"
                  % (len(keys), max(ttls) // 1000))

    def test_session_sign_in_gets_the_full_lifetime(self):
        with Daemon(self.workdir, ini=alerts.ini(), env=alerts.env(self.workdir)) as daemon:
            _, set_cookie = sign_in_as(daemon, str(next(alerts._ids)))
            self.assertEqual(max_age(set_cookie), 72 * 3600)

    def test_session_two_session_cookies_are_no_session_in_either_order(self):
        with Daemon(self.workdir, ini=alerts.ini(), env=alerts.env(self.workdir)) as daemon:
            user, _ = sign_in_as(daemon, str(next(alerts._ids)))
            tossed = alerts.cookie_of(daemon.get("/api/v1/auth/csrf"))  # valid, anonymous
            self.assertEqual(daemon.get("/api/v1/auth/me",
                                        headers={"Cookie": user.cookie}).status, 200)
            for cookies in ("%s; %s" % (user.cookie, tossed), "%s; %s" % (tossed, user.cookie),
                            "%s; %s" % (user.cookie, user.cookie)):
                response = daemon.get("/api/v1/auth/me", headers={"Cookie": cookies})
                self.assertProblem(response, 401, "unauthenticated")
            self.assertEqual(daemon.get("/api/v1/auth/me",
                                        headers={"Cookie": user.cookie}).status, 200)


if __name__ == "__main__":
    unittest.main()
