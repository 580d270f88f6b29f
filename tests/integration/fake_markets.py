"""Local fakes of the market APIs (their shapes per docs/upstreams.md).

One threaded HTTP server answers:
  /skinport/v1/items?app_id=730&currency=USD  Skinport rows (floats in major units, nulls)
  /steam/market/priceoverview/?...&market_hash_name=NAME  Steam priceoverview
  /json/prices                                 json_http rows
  /broken/...                                  500 with an HTML body, as a failing upstream
Prices move on every request so successive cycles store new points; every request is
recorded for assertions.
"""
import http.server
import json
import threading
import time
import urllib.parse

from fakes.background_server import BackgroundServer


class FakeMarkets(BackgroundServer):
    def __init__(self):
        self.requests = []
        self.counter = 0
        self.lock = threading.Lock()
        self.listen(self._handler())

    def url(self, prefix):
        return "http://127.0.0.1:%d/%s" % (self.port, prefix)

    def count(self, prefix):
        with self.lock:
            return sum(1 for r in self.requests if r.startswith("/" + prefix))

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def send_json(self, status, value):
                body = json.dumps(value, ensure_ascii=False).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                with fake.lock:
                    fake.requests.append(self.path)
                    fake.counter += 1
                    step = fake.counter
                parts = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(parts.query)
                if parts.path.startswith("/broken"):
                    body = b"<html>502 Bad Gateway</html>"
                    self.send_response(500)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif parts.path == "/skinport/v1/items":
                    now = int(time.time())
                    self.send_json(200, [
                        {"market_hash_name": "AK-47 | Redline (Field-Tested)", "currency": "USD",
                         "suggested_price": 41.5, "min_price": round(40 + step * 0.01, 2),
                         "max_price": 60.0, "mean_price": 45.0, "median_price": 44.0,
                         "quantity": 17, "created_at": 1667040400, "updated_at": now - 5},
                        {"market_hash_name": "Sticker | syrsoN (Glitter) | Rio 2022",
                         "currency": "USD", "suggested_price": 0.08, "min_price": None,
                         "max_price": None, "mean_price": None, "median_price": None,
                         "quantity": 0, "created_at": 1667040400, "updated_at": now - 5},
                        {"market_hash_name": "Not An Item At All", "currency": "USD",
                         "suggested_price": 1.0, "min_price": 1.0, "quantity": 1,
                         "created_at": 1, "updated_at": now - 5},
                    ])
                elif parts.path == "/steam/market/priceoverview/":
                    name = query.get("market_hash_name", [""])[0]
                    if name == "★ StatTrak™ Karambit | Autotronic (Field-Tested)":
                        self.send_json(200, {"success": True,
                                             "lowest_price": "$1,%03d.43" % (step % 1000),
                                             "volume": "1,247", "median_price": "$1,011.51"})
                    else:
                        self.send_json(500, {"success": False})
                elif parts.path == "/json/prices":
                    self.send_json(200, [
                        {"market_hash_name": "Dreams & Nightmares Case", "price": 100 + step,
                         "volume": 3, "time": int(time.time())},
                        {"market_hash_name": "Dreams & Nightmares Case", "price": -5,
                         "volume": 1},
                    ])
                else:
                    self.send_json(404, {"error": "not found"})

        return Handler
