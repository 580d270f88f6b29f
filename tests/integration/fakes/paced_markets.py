"""A local fake of the two paced market feeds (shapes per docs/upstreams.md):

  POST /dmarket/marketplace-api/v1/aggregated-prices   DMarket aggregated prices
  GET  /steam/market/search/render/?start=N&count=M     Steam search pages (norender=1)

DMarket: every body is checked (game a8db, 1-100 string titles, limit and cursor as
strings); a wrong one is answered 400 and recorded in `dmarket_errors`. Each answer
carries RateLimit-Limit/-Remaining/-Reset for a window of `window_requests` requests per
`window_seconds`; a request arriving while the window is used up, or during a Retry-After
the fake gave, is a violation (recorded, answered 429). Request number
`dmarket_429_at` is answered 429 with Retry-After: `retry_after` once.

Steam: `steam_items` (sorted by name) served `count` at a time from `start` with
total_count; request number `steam_throttle_at` is answered once with the empty page
Steam sends when it throttles. Every request is recorded with its time.
"""
import http.server
import json
import threading
import time
import urllib.parse

from fakes.background_server import BackgroundServer

ICON_BASE = "https://community.akamai.steamstatic.com/economy/image/"


class PacedMarkets(BackgroundServer):
    def __init__(self, dmarket_prices, steam_items, window_requests=3, window_seconds=2,
                 dmarket_429_at=3, retry_after=2, steam_throttle_at=2):
        self.dmarket_prices = dmarket_prices  # title -> (bid cents, bids, ask cents, asks)
        self.steam_items = sorted(steam_items, key=lambda i: i["hash_name"])
        self.window_requests = window_requests
        self.window_seconds = window_seconds
        self.dmarket_429_at = dmarket_429_at
        self.retry_after = retry_after
        self.steam_throttle_at = steam_throttle_at
        self.lock = threading.Lock()
        self.dmarket_requests = []  # (time, number of titles)
        self.dmarket_errors = []
        self.dmarket_violations = []
        self.steam_requests = []  # (time, start, count, throttled)
        self._window_start = 0.0
        self._window_used = 0
        self._blocked_until = 0.0
        self.listen(self._handler())

    def url(self, prefix):
        return "http://127.0.0.1:%d/%s" % (self.port, prefix)

    # DMarket ---------------------------------------------------------------------------
    def _dmarket(self, raw):
        """(status, body, headers) for one aggregated-prices POST."""
        try:
            body = json.loads(raw.decode("utf-8"))
            titles = body["filter"]["titles"]
            ok = (body["filter"]["game"] == "a8db" and isinstance(titles, list)
                  and 1 <= len(titles) <= 100 and all(isinstance(t, str) for t in titles)
                  and isinstance(body["limit"], str) and body["cursor"] == "")
        except (ValueError, KeyError, TypeError):
            ok, titles = False, []
        now = time.time()
        with self.lock:
            self.dmarket_requests.append((now, len(titles)))
            number = len(self.dmarket_requests)
            if not ok:
                self.dmarket_errors.append(raw[:200])
                return 400, {"error": "bad request"}, {}
            if now < self._blocked_until:
                self.dmarket_violations.append(now)
                return 429, {"error": "too many requests"}, {"Retry-After": "1"}
            if now - self._window_start >= self.window_seconds:
                self._window_start, self._window_used = now, 0
            if self._window_used >= self.window_requests:
                self.dmarket_violations.append(now)
                return 429, {"error": "too many requests"}, {"Retry-After": "1"}
            if number == self.dmarket_429_at:
                self._blocked_until = now + self.retry_after
                return 429, {"error": "too many requests"}, {"Retry-After": str(self.retry_after)}
            self._window_used += 1
            remaining = self.window_requests - self._window_used
            reset = max(1, int(round(self._window_start + self.window_seconds - now + 0.5)))
        rows = []
        for index, title in enumerate(titles):
            if title in self.dmarket_prices:
                bid, bids, ask, asks = self.dmarket_prices[title]
                if index % 2 == 0:
                    # What the live service sends (docs/upstreams.md, checked 2026-11-28):
                    # prices as {"Currency","Amount"} objects, cents in a string, and the
                    # counts as strings.
                    rows.append({"title": title,
                                 "orderBestPrice": {"Currency": "USD", "Amount": str(bid)},
                                 "orderCount": str(bids),
                                 "offerBestPrice": {"Currency": "USD", "Amount": str(ask)},
                                 "offerCount": str(asks)})
                else:
                    # The older published shape: plain strings, numeric counts.
                    rows.append({"title": title, "orderBestPrice": str(bid), "orderCount": bids,
                                 "offerBestPrice": str(ask), "offerCount": asks})
        headers = {"RateLimit-Limit": str(self.window_requests),
                   "RateLimit-Remaining": str(remaining), "RateLimit-Reset": str(reset)}
        return 200, {"aggregatedPrices": rows, "nextCursor": ""}, headers

    # Steam -----------------------------------------------------------------------------
    def _steam(self, query):
        start = int(query.get("start", ["0"])[0])
        count = int(query.get("count", ["10"])[0])
        with self.lock:
            number = len(self.steam_requests) + 1
            throttled = number == self.steam_throttle_at
            self.steam_requests.append((time.time(), start, count, throttled))
        total = len(self.steam_items)
        if throttled:
            return {"success": True, "start": start, "pagesize": 0, "total_count": 0,
                    "results": []}
        results = []
        for item in self.steam_items[start:start + count]:
            results.append({
                "name": item["hash_name"], "hash_name": item["hash_name"],
                "sell_listings": item["listings"], "sell_price": item["cents"],
                "sell_price_text": "$%.2f" % (item["cents"] / 100.0),
                "app_name": "Counter-Strike 2",
                "asset_description": {"appid": 730, "classid": "1", "instanceid": "0",
                                      "icon_url": item["icon_url"],
                                      "market_hash_name": item["hash_name"]}})
        return {"success": True, "start": start, "pagesize": count, "total_count": total,
                "searchdata": {"query": "", "total_count": total, "pagesize": count},
                "results": results}

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def send_json(self, status, value, headers=None):
                body = json.dumps(value, ensure_ascii=False).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                for name, val in (headers or {}).items():
                    self.send_header(name, val)
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                if urllib.parse.urlsplit(self.path).path != \
                        "/dmarket/marketplace-api/v1/aggregated-prices":
                    return self.send_json(404, {"error": "not found"})
                self.send_json(*fake._dmarket(raw))

            def do_GET(self):
                parts = urllib.parse.urlsplit(self.path)
                if parts.path != "/steam/market/search/render/":
                    return self.send_json(404, {"error": "not found"})
                self.send_json(200, fake._steam(urllib.parse.parse_qs(parts.query)))

        return Handler
