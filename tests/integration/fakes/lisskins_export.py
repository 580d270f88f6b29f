"""A local fake of lis-skins' full export (plugins/sources/lisskins/README.md), generated
while it is sent: one block of listings (~1 MB) is built once and sent `repeat` times in
HTTP/1.1 chunks, so a 100 MB document never exists in the test's memory.

  /export.json   the export: {"last_update": T, "items": [listing, ...]}
  /big.json      the same document (for an instance whose cap is smaller)

The first request waits for `release` (a threading.Event) so a test can take the
daemon's memory figures before the download starts. Every request is recorded."""
import http.server
import json
import threading
import time

from fakes.background_server import BackgroundServer

# A recent export: the history API's default window is recent too.
LAST_UPDATE = int(time.time()) - 120


# When the trade-locked lots of a block unlock: a week after the test runs.
UNLOCK_AT = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime(time.time() + 7 * 86400))


class ListingBlock:
    """The listings of one block: `per_name` listings for each name, prices spread
    around the name's base price, and `locked_per_name` trade-locked lots at half the base
    price (`unlock_at` a week ahead, as the live export lists them beside tradable lots:
    docs/upstreams.md). `prices` says what one block holds that a buyer can take now."""

    def __init__(self, names, per_name, base_price, locked_per_name=0):
        rows = []
        self.prices = {}
        listing_id = 41000000
        for index, name in enumerate(names):
            base = base_price(name, index)
            for k in range(per_name):
                price = round(base * (0.9 + 0.4 * k / max(per_name - 1, 1)), 2)
                listing_id += 1
                self.prices.setdefault(name, []).append(price)
                rows.append(json.dumps({
                    "id": listing_id, "name": name, "price": price,
                    "created_at": "2024-07-22T10:%02d:%02d.000000Z" % (k % 60, index % 60),
                    "item_float": round((index * 7 + k) % 1000 / 1000, 9),
                    "unlock_at": None, "stickers": []}, separators=(",", ":")))
            for k in range(locked_per_name):
                listing_id += 1
                rows.append(json.dumps({
                    "id": listing_id, "name": name, "price": round(base * 0.5, 2),
                    "created_at": "2024-07-22T11:%02d:%02d.000000Z" % (k % 60, index % 60),
                    "item_float": 0.5, "unlock_at": UNLOCK_AT, "stickers": []},
                    separators=(",", ":")))
        self.body = ",".join(rows).encode("utf-8")


class LisskinsExport(BackgroundServer):
    def __init__(self, block, repeat):
        self.block = block
        self.repeat = repeat
        self.release = threading.Event()
        self.requests = []
        self.lock = threading.Lock()
        self.listen(self._handler())

    def size(self):
        """Bytes of the document."""
        head = len(b'{"last_update":%d,"items":[' % LAST_UPDATE)
        return head + self.repeat * len(self.block.body) + (self.repeat - 1) + 2

    def url(self, path):
        return "http://127.0.0.1:%d/%s" % (self.port, path)

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def chunk(self, data):
                self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")

            def do_GET(self):
                with fake.lock:
                    fake.requests.append(self.path)
                fake.release.wait(60)
                if self.path not in ("/export.json", "/big.json"):
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    self.chunk(b'{"last_update":%d,"items":[' % LAST_UPDATE)
                    for i in range(fake.repeat):
                        self.chunk((b"," if i else b"") + fake.block.body)
                    self.chunk(b"]}")
                    self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped reading (the cap): as a real server sees it
                self.close_connection = True

        return Handler
