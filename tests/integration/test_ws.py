"""Live updates end to end (docs/api.md §7): a real WebSocket client (Debian's
python3-websocket) against the real daemon polling the simulated source every second,
so a cycle happens every second. Covers the handshake, subscriptions, ping/pong, bad
input closed with the right code after a proper closing handshake, a slow reader closed
with 1013 while another client keeps getting its frames on time, and two daemons on one
redis-server delivering each other's cycles."""
import calendar
import json
import os
import shutil
import socket
import tempfile
import time
import unittest

import websocket

from fakes.redis_server import RedisServer
from harness import Daemon, DaemonTestCase

# websocket-client 1.2.3 (Debian 12) refuses close codes it does not list, and its list
# predates 1013 "Try Again Later" (IANA-registered, accepted by browsers).
if 1013 not in websocket._abnf.VALID_CLOSE_STATUS:
    websocket._abnf.VALID_CLOSE_STATUS += (1013,)

SEED = os.path.join(os.environ.get("SKINPULSE_SOURCE_DIR", "."), "share/simulated/seed.tsv")


def simulated(name="simulated", fraction=0.05):
    return ("[source.%s]\nplugin = simulated\ninterval_seconds = 1\nseed_file = %s\n"
            "fraction = %s\n\n") % (name, os.path.abspath(SEED), fraction)


def connect(daemon, **kw):
    return websocket.create_connection("ws://127.0.0.1:%d/api/v1/ws" % daemon.port,
                                       timeout=kw.pop("timeout", 10), **kw)


def send(ws, message):
    ws.send(json.dumps(message, separators=(",", ":")))  # 1,000 ids fit in 4 KiB


def recv_json(ws):
    """The next text message, skipping nothing."""
    return json.loads(ws.recv())


def recv_until(ws, kind, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        message = recv_json(ws)
        if message["type"] == kind:
            return message
    raise AssertionError("no %s message within %ss" % (kind, timeout))


def close_code(ws, timeout=10):
    """Reads until the server's close frame; returns its code (the client library answers
    the close frame, completing the handshake)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        opcode, data = ws.recv_data(control_frame=True)
        if opcode == websocket.ABNF.OPCODE_CLOSE:
            return int.from_bytes(data[:2], "big")
    raise AssertionError("no close frame")


def collect_cycles(ws, cycles, timeout=20):
    """{time: [entries]} of `cycles` complete cycles of prices frames (a cycle is complete
    once a frame of a later cycle arrived)."""
    by_time = {}
    deadline = time.time() + timeout
    while time.time() < deadline and len(by_time) < cycles + 1:
        message = recv_json(ws)
        if message["type"] != "prices":
            continue
        for entry in message["data"]:
            by_time.setdefault(entry["time"], []).append(entry)
    times = sorted(by_time)[:-1]
    return {t: by_time[t] for t in times}



def iso_seconds(text):
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


class WsTest(DaemonTestCase):
    def test_handshake_refusals_are_problems_with_security_headers(self):
        with Daemon(self.workdir) as daemon:
            self.assertProblem(daemon.get("/api/v1/ws"), 426, "upgrade_required")
            response = daemon.get("/api/v1/ws", headers={
                "Upgrade": "websocket", "Connection": "Upgrade",
                "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "not-a-key"})
            self.assertProblem(response, 400, "invalid_request")
            response = daemon.get("/api/v1/ws", headers={
                "Upgrade": "websocket", "Connection": "Upgrade",
                "Sec-WebSocket-Version": "8", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
            self.assertProblem(response, 426, "upgrade_required")
            self.assertEqual(response.header("sec-websocket-version"), "13")
            self.assertProblem(daemon.request("POST", "/api/v1/ws"), 405, "method_not_allowed")
            # The REST side still serves after WebSocket traffic.
            ws = connect(daemon)
            ws.close()
            self.assertEqual(daemon.get("/healthz").status, 200)

    def test_subscribers_receive_only_their_items(self):
        with Daemon(self.workdir, ini=simulated()) as daemon:
            some = connect(daemon)
            star = connect(daemon)
            idle = connect(daemon)
            send(some, {"type": "subscribe", "items": list(range(1, 501))})
            self.assertEqual(recv_json(some), {"type": "subscribed",
                                               "items": list(range(1, 501))})
            send(some, {"type": "subscribe", "items": list(range(501, 1001))})
            # A cycle's frames may come before the answer.
            self.assertEqual(recv_until(some, "subscribed")["items"], list(range(1, 1001)))
            send(some, {"type": "unsubscribe", "items": [1000]})
            wanted = set(range(1, 1000))
            self.assertEqual(recv_until(some, "subscribed")["items"], sorted(wanted))
            send(star, {"type": "subscribe", "items": "*"})
            self.assertEqual(recv_json(star), {"type": "subscribed", "items": "*"})

            star_cycles = collect_cycles(star, 3)
            some_cycles = collect_cycles(some, 2)
            self.assertGreaterEqual(len(star_cycles), 3)
            # ~1,725 points per cycle: more than one frame, every entry well formed.
            for entries in star_cycles.values():
                self.assertGreater(len(entries), 1000)
                for entry in entries:
                    self.assertEqual(set(entry), {"item_id", "source", "price", "volume", "time"})
                    self.assertEqual(entry["source"], "simulated")
            compared = 0
            for t, entries in some_cycles.items():
                self.assertTrue(all(e["item_id"] in wanted for e in entries), entries)
                if t in star_cycles:
                    expected = sorted((e["item_id"], e["price"]) for e in star_cycles[t]
                                      if e["item_id"] in wanted)
                    self.assertEqual(sorted((e["item_id"], e["price"]) for e in entries),
                                     expected)
                    compared += 1
            self.assertGreaterEqual(compared, 1)
            # Then the cycle's 24h volatility objects from the metrics engine, also only
            # for subscribed items, after the cycle's prices.
            message = recv_until(some, "prices")
            cycle = message["data"][0]["time"]
            message = recv_until(some, "volatility")
            # Computed when the cycle was stored: at or a moment after its poll time (a
            # cycle may straddle a second boundary).
            lag = iso_seconds(message["data"][0]["computed_at"]) - iso_seconds(cycle)
            self.assertTrue(0 <= lag <= 5, (cycle, message["data"][0]["computed_at"]))
            for metrics in message["data"]:
                self.assertIn(metrics["item_id"], wanted)
                self.assertEqual(metrics["window"], "24h")
                self.assertIn("rolling_stddev", metrics)

            # A client subscribed to nothing gets nothing but its answers.
            send(idle, {"type": "ping"})
            self.assertEqual(recv_json(idle), {"type": "pong"})
            idle.settimeout(1.5)
            with self.assertRaises(websocket.WebSocketTimeoutException):
                idle.recv()
            send(star, {"type": "unsubscribe", "items": "*"})
            self.assertEqual(recv_until(star, "subscribed"), {"type": "subscribed", "items": []})
            for ws in (some, star, idle):
                ws.close()
            self.assertIn("live updates: in-process event bus", daemon.stderr())

    def test_ping_pong_and_malformed_messages(self):
        with Daemon(self.workdir) as daemon:
            ws = connect(daemon)
            send(ws, {"type": "ping"})
            self.assertEqual(recv_json(ws), {"type": "pong"})
            ws.ping("probe")
            opcode, data = ws.recv_data(control_frame=True)
            self.assertEqual((opcode, data), (websocket.ABNF.OPCODE_PONG, b"probe"))
            for bad in ["{not json", '{"type":"dance"}', '{"type":"subscribe","items":[-1]}',
                        '{"type":"subscribe","items":"all"}', "[]" * 100]:
                ws.send(bad)
                self.assertEqual(recv_json(ws), {"type": "error", "code": "invalid_message"})
            send(ws, {"type": "subscribe", "items": [7]})
            self.assertEqual(recv_json(ws), {"type": "subscribed", "items": [7]})
            ws.close()

    def test_bad_input_closes_with_the_right_code(self):
        with Daemon(self.workdir) as daemon:
            ws = connect(daemon)
            ws.send("x" * 4097)
            self.assertEqual(close_code(ws), 1009)
            ws = connect(daemon)
            ws.send(" " * 4096)  # exactly 4 KiB is allowed (and is not JSON)
            self.assertEqual(recv_json(ws)["code"], "invalid_message")
            send(ws, {"type": "subscribe", "items": list(range(1, 1002))})
            self.assertEqual(close_code(ws), 1008)
            ws = connect(daemon)
            ws.send(b"\xff\xfe", opcode=websocket.ABNF.OPCODE_TEXT)
            self.assertEqual(close_code(ws), 1007)

            # An unmasked frame from a client is a protocol error (raw socket: no library
            # sends one).
            raw = socket.create_connection(("127.0.0.1", daemon.port), timeout=10)
            raw.sendall(b"GET /api/v1/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
                        b"\x81\x02hi")  # the frame arrives with the handshake
            data = b""
            while b"\x88" not in data.partition(b"\r\n\r\n")[2]:
                chunk = raw.recv(4096)
                if not chunk:
                    break
                data += chunk
            head, _, frames = data.partition(b"\r\n\r\n")
            self.assertIn(b"101 Switching Protocols", head)
            self.assertIn(b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", head)
            self.assertIn(b"X-Frame-Options: DENY", head)
            self.assertNotIn(b"Content-Length", head)
            self.assertEqual(frames[:1], b"\x88")
            self.assertEqual(frames[2:4], b"\x03\xea")  # close 1002
            # Without our close frame the server closes TCP after about a second.
            started = time.time()
            raw.settimeout(5)
            while raw.recv(4096):
                pass
            self.assertLess(time.time() - started, 3)
            raw.close()

    def test_slow_reader_is_closed_with_1013_and_others_stay_on_time(self):
        # Every seeded item every second: ~3 MB of frames a cycle for a "*" subscriber.
        with Daemon(self.workdir, ini=simulated(fraction=1)) as daemon:
            fast = connect(daemon)
            send(fast, {"type": "subscribe", "items": list(range(1, 1001))})
            recv_json(fast)
            slow = connect(daemon, sockopt=((socket.SOL_SOCKET, socket.SO_RCVBUF, 4096),))
            send(slow, {"type": "subscribe", "items": "*"})
            started = time.time()
            # The slow client reads nothing for six seconds; the fast one keeps up.
            received = {}
            while time.time() - started < 6:
                message = recv_json(fast)
                if message["type"] == "prices":
                    arrival = time.time()
                    for entry in message["data"]:
                        received.setdefault(entry["time"], arrival)
            self.assertGreaterEqual(len(received), 2, daemon.stderr()[-2000:])
            for stamp, arrival in received.items():
                point_time = calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))
                # The cycle's time is taken when it is stored: its frames follow at once.
                # The stamp is whole seconds (up to 1 s early) and CI runs this beside
                # other tests on two cores (2.98 s seen once, 3.93 s at load 5): 5 s
                # still fails a fast client held behind the slow one, which reads nothing
                # for 6 s.
                self.assertLess(arrival - point_time, 5, (stamp, arrival))
            self.assertEqual(close_code(slow, timeout=30), 1013)
            slow.close()
            fast.close()

    def test_two_daemons_on_one_redis_forward_each_others_cycles(self):
        if shutil.which("redis-server") is None:
            self.skipTest("redis-server not installed")
        redis = RedisServer().start()
        try:
            env = {"REDIS_URL": redis.url}
            one_dir = tempfile.mkdtemp(dir=self.workdir)
            two_dir = tempfile.mkdtemp(dir=self.workdir)
            with Daemon(one_dir, ini=simulated("alpha"), env=env) as one, \
                    Daemon(two_dir, ini=simulated("beta"), env=env) as two:
                for daemon in (one, two):
                    deadline = time.time() + 10
                    while "subscribed to redis channel" not in daemon.stderr():
                        self.assertLess(time.time(), deadline, daemon.stderr())
                        time.sleep(0.1)
                    self.assertIn("live updates: redis event bus", daemon.stderr())
                for daemon in (one, two):
                    ws = connect(daemon)
                    send(ws, {"type": "subscribe", "items": "*"})
                    recv_json(ws)
                    sources = set()
                    deadline = time.time() + 20
                    while sources != {"alpha", "beta"} and time.time() < deadline:
                        message = recv_json(ws)
                        sources.update(e["source"] for e in message.get("data", []))
                    self.assertEqual(sources, {"alpha", "beta"})
                    ws.close()
        finally:
            redis.kill()


if __name__ == "__main__":
    unittest.main()
