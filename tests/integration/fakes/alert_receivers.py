"""A local receiver of alert deliveries (docs/api.md §13): one HTTP server that plays a
webhook endpoint, a Discord webhook and the Telegram Bot API at once, by path:
  /hook/...                    a webhook (checks nothing itself: tests verify the signature)
  /api/webhooks/<id>/<token>   Discord-shaped: wants {"content": "..."} (400 otherwise)
  /bot<token>/sendMessage      Telegram-shaped: wants {"chat_id", "text"} (400 otherwise)
Every POST is recorded (path, headers, raw body). `fail_next(n, status)` makes the next n
requests answer `status` (a receiver that fails twice, then succeeds)."""

import http.server
import json
import re
import threading

from fakes.background_server import BackgroundServer


class Delivery:
    def __init__(self, path, headers, body, status):
        self.path = path
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.body = body
        self.status = status

    def json(self):
        return json.loads(self.body.decode("utf-8"))


class AlertReceiver(BackgroundServer):
    def __init__(self, port=0):
        self.lock = threading.Lock()
        self.received = []
        self.failures = []  # statuses to answer next, in order
        self.listen(self._handler(), port)

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def fail_next(self, count, status=503):
        with self.lock:
            self.failures.extend([status] * count)

    def deliveries(self, prefix=""):
        with self.lock:
            return [d for d in self.received if d.path.startswith(prefix)]

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                status = 200
                with fake.lock:
                    if fake.failures:
                        status = fake.failures.pop(0)
                if status == 200:
                    status = self.check_shape(body)
                with fake.lock:
                    fake.received.append(Delivery(self.path, dict(self.headers), body, status))
                answer = b'{"ok":true}' if status < 300 else b'{"ok":false}'
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def check_shape(self, body):
                try:
                    value = json.loads(body.decode("utf-8"))
                except ValueError:
                    return 400
                if self.path.startswith("/api/webhooks/"):
                    ok = isinstance(value.get("content"), str) and value["content"]
                    return 204 if ok else 400
                if re.match(r"^/bot[0-9]+:[A-Za-z0-9_-]+/sendMessage$", self.path):
                    ok = value.get("chat_id") and isinstance(value.get("text"), str)
                    return 200 if ok else 400
                return 200

        return Handler
