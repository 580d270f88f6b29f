"""A local fake of the five keyless list markets (shapes per docs/upstreams.md, "More market
feeds"), one threaded HTTP server, each market under its own prefix:

  /csfloat/api/v1/listings/price-list                    [{market_hash_name, min_price (cents), quantity}]
  /market_csgo/api/v2/prices/USD.json                    {success, time, currency, items: [{market_hash_name, volume, price (text $)}]}
  /market_csgo/api/v2/prices/class_instance/USD.json     {success, time, currency, items: {"cid_iid": {market_hash_name, buy_order, …}}}
  /waxpeer/v1/prices?game=csgo&minified=0                {success, items: [{name, count, min (thousandths), img, …}]}
  /bitskins/market/insell/730                            {list: [{skin_id, name, price_min (thousandths), quantity, …}]}
  /csdeals/API/IPricing/GetLowestPrices/v1?appid=730     {success, response: {time_updated, appid, items: [{marketname, lowest_price (text $)}]}}

Every market prices the same `names` (catalogue items). Item i's ask in cents is
PRICE_BASE + 100 * i + the request's step (prices move on every request, so each cycle
stores new points); its listing count is LISTINGS_BASE + i; market.csgo.com's best bid is
the ask minus BID_SPREAD cents (its class_instance list also has a lower duplicate entry
per name, which must lose). `expected(market, i, step)` says what a cycle should store.

A market can be told to misbehave: set_mode(market, mode) with mode one of
"ok", "429" (with Retry-After: retry_after), "500", "garbage" (200 with an HTML body) or
"oversize" (200 with a valid body of OVERSIZE_BYTES). Every request is recorded.
"""
import http.server
import json
import threading
import time
import urllib.parse

from fakes.background_server import BackgroundServer

MARKETS = ("csfloat", "market_csgo", "waxpeer", "bitskins", "csdeals")
PRICE_BASE = 2000  # $20.00
LISTINGS_BASE = 7
BID_SPREAD = 150  # cents below the ask
OVERSIZE_BYTES = 5 * 1024 * 1024
IMAGE = "https://community.akamai.steamstatic.com/economy/image/fake-"


def dollars(cents):
    return "%d.%02d" % (cents // 100, cents % 100)


class FakeListMarkets(BackgroundServer):
    def __init__(self, names):
        self.names = list(names)
        self.lock = threading.Lock()
        self.requests = []  # (market, path, time)
        self.steps = {m: 0 for m in MARKETS}
        self.modes = {m: "ok" for m in MARKETS}
        self.retry_after = 5
        # The feeds' own times: a clock that ticks 2 s per request, from half an hour ago, so
        # every list has a time of its own (the daemon keys a point by item, source and time:
        # market.csgo.com's ask and bid of one item must not share one).
        self.epoch = int(time.time()) - 1800
        self.listen(self._handler())

    def url(self, market):
        return "http://127.0.0.1:%d/%s" % (self.port, market)

    def set_mode(self, market, mode, retry_after=None):
        with self.lock:
            self.modes[market] = mode
            if retry_after is not None:
                self.retry_after = retry_after

    def count(self, market):
        with self.lock:
            return sum(1 for r in self.requests if r[0] == market)

    def request_times(self, market):
        with self.lock:
            return [r[2] for r in self.requests if r[0] == market]

    @staticmethod
    def ask_cents(i, step):
        return PRICE_BASE + 100 * i + step

    # ---- the five shapes -------------------------------------------------------------
    def body(self, market, path, step):
        now = self.epoch + 2 * step
        rows = list(enumerate(self.names))
        ask = self.ask_cents
        if market == "csfloat":
            return [{"market_hash_name": n, "min_price": ask(i, step),
                     "quantity": LISTINGS_BASE + i} for i, n in rows]
        if market == "market_csgo" and "class_instance" in path:
            items = {}
            for i, n in rows:
                bid = ask(i, step) - BID_SPREAD
                items["%d_0" % (310776560 + i)] = {
                    "price": dollars(ask(i, step)), "buy_order": dollars(bid),
                    "avg_price": dollars(ask(i, step)), "popularity_7d": "12",
                    "market_hash_name": n, "ru_name": "предмет", "text_color": "D2D2D2",
                    "bg_color": None}
                items["%d_188530139" % (310776560 + i)] = {  # a worse duplicate
                    "price": dollars(ask(i, step) + 50), "buy_order": dollars(bid - 40),
                    "market_hash_name": n}
            return {"success": True, "time": now, "currency": "USD", "items": items}
        if market == "market_csgo":
            return {"success": True, "time": now, "currency": "USD",
                    "items": [{"market_hash_name": n, "volume": str(LISTINGS_BASE + i),
                               "price": dollars(ask(i, step))} for i, n in rows]}
        if market == "waxpeer":
            return {"success": True, "items": [
                {"name": n, "count": LISTINGS_BASE + i, "min": ask(i, step) * 10,
                 "img": IMAGE + str(i), "steam_price": str(ask(i, step) * 11), "type": "Rifle"}
                for i, n in rows]}
        if market == "bitskins":
            return {"list": [
                {"skin_id": i, "name": n, "price_min": ask(i, step) * 10,
                 "price_max": ask(i, step) * 30, "price_avg": ask(i, step) * 15,
                 "quantity": LISTINGS_BASE + i} for i, n in rows]}
        if market == "csdeals":
            return {"success": True, "response": {"time_updated": now, "appid": 730, "items": [
                {"marketname": n, "lowest_price": dollars(ask(i, step))} for i, n in rows]}}
        return None

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def send(self, status, body, headers=()):
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped reading at its byte cap: what "oversize" tests

            def do_GET(self):
                parts = urllib.parse.urlsplit(self.path)
                market, _, rest = parts.path.lstrip("/").partition("/")
                if market not in MARKETS:
                    self.send(404, b"{}")
                    return
                with fake.lock:
                    fake.requests.append((market, self.path, time.time()))
                    fake.steps[market] += 1
                    step = fake.steps[market]
                    mode = fake.modes[market]
                    retry_after = fake.retry_after
                if mode == "429":
                    self.send(429, b'{"error":"slow down"}', [("Retry-After", str(retry_after))])
                elif mode == "500":
                    self.send(500, b"<html>502 Bad Gateway</html>")
                elif mode == "garbage":
                    self.send(200, b"<html><body>Just a moment...</body></html>")
                else:
                    body = json.dumps(fake.body(market, "/" + rest, step),
                                      ensure_ascii=False).encode("utf-8")
                    if mode == "oversize":  # still valid JSON: only its size is wrong
                        body += b" " * OVERSIZE_BYTES
                    self.send(200, body)

        return Handler
