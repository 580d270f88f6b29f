"""A local fake of the game platform's inventory endpoint (docs/upstreams.md §d).

    GET /inventory/{id64}/730/2?l=english&count=N[&start_assetid=A]

Each platform id gets a scenario, set by the test:
  pages(id, [page, ...], delay=0)
                           200 pages in the documented shape; a page is a list of
                           (market_hash_name or None, amount) stacks, or of
                           (market_hash_name, amount, paint_index) ones: the asset then has an
                           `asset_properties` entry with its paint seed, wear and paint index
                           ("Finish Catalog", propertyid 7; docs/upstreams.md §d), or of
                           (market_hash_name, amount, paint_index or None, applied) ones, where
                           applied is a list of "Sticker | …" / "Charm | …" names: the
                           description then carries the sticker and charm blocks in the
                           platform's html (docs/upstreams.md §d.4; stickers in the order
                           given are slots 0.., a "Charm | …" goes to the charm block), and
                           stacks differing only in what is applied get their own
                           (classid, instanceid) as on the platform; every page but the last
                           carries more_items=1 and last_assetid, and the next page is found
                           by start_assetid exactly as the platform pages; each answer
                           waits `delay` seconds first
  fixture(id, name)        200 with the bytes of tests/fixtures/<name> as the only page (the
                           real captured samples, e.g. steam_inventory_730_applied_real.json)
  status(id, code)         that status with the literal body `null` (403 private, 401 profile
                           not set up, 429) or, for 5xx, {"error": "... (EResult)"}
  oversize(id, total)      200 with a valid-looking JSON body of `total` bytes, sent in 64 KiB
                           pieces with no Content-Length; records whether the client hung up
                           before the end (the byte cap must stop reading early)
  slow(id, seconds)        waits that long before answering (then an empty inventory)
Any number of platform ids can each have their own scenario at once (several linked
accounts). Every request is recorded. Run standalone (for benchmarks) with --assets to serve one
inventory of that many distinct catalogue names for any id.
"""
import argparse
import http.server
import json
import os
import threading
import time
import urllib.parse

from fakes.background_server import BackgroundServer

CHUNK = 64 * 1024
FIXTURE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")

# The block's frame as the platform renders it (tests/fixtures/steam_inventory_730_applied_real.json).
_BLOCK_STYLE = ("border: 2px solid rgb(102, 102, 102); border-radius: 6px; width=100; "
                "margin:4px; padding:8px;")


def _html_text(text):
    # The platform writes names plainly (an apostrophe stays "'"); only what html needs.
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def applied_block(block_id, names):
    """The html of one sticker_info / keychain_info block naming `names` (market_hash_names
    such as "Sticker | Titan | Katowice 2014"): one titled picture each, then the caption."""
    labels = []
    pictures = ""
    for name in names:
        prefix, _, rest = name.partition(" | ")
        label = "%s: %s" % (prefix, rest)
        labels.append((prefix, rest))
        pictures += ('<img width=64 height=48 src="https://cdn.steamstatic.com/apps/730/icons/'
                     'econ/%s/fake.png" title="%s">'
                     % ("keychains" if block_id == "keychain_info" else "stickers",
                        _html_text(label)))
    caption = "%s: %s" % (labels[0][0], ", ".join(rest for _, rest in labels))
    return ('<br><div id="%s" class="%s" style="%s"><center>%s<br>%s</center></div>'
            % (block_id, block_id, _BLOCK_STYLE, pictures, _html_text(caption)))


def applied_entries(applied):
    """The description entries that carry `applied` (sticker block first, then the charm)."""
    stickers = [n for n in applied if not n.startswith(("Charm | ", "Souvenir Charm | "))]
    charms = [n for n in applied if n.startswith(("Charm | ", "Souvenir Charm | "))]
    entries = []
    if stickers:
        entries.append({"type": "html", "value": applied_block("sticker_info", stickers),
                        "name": "sticker_info"})
    if charms:
        entries.append({"type": "html", "value": applied_block("keychain_info", charms),
                        "name": "keychain_info"})
    return entries


def build_pages(stacks_per_page, first_assetid=1):
    """[[(name, amount), ...], ...] → list of platform page dicts, asset ids counting up."""
    pages = []
    assetid = first_assetid
    classes = {}
    for index, stacks in enumerate(stacks_per_page):
        assets, descriptions, described, properties = [], [], set(), []
        for stack in stacks:
            name, amount = stack[0], stack[1]
            applied = tuple(stack[3]) if len(stack) > 3 and stack[3] else ()
            if len(stack) > 2 and stack[2] is not None:
                properties.append({"appid": 730, "contextid": "2", "assetid": str(assetid),
                                   "asset_properties": [
                                       {"propertyid": 1, "int_value": "412",
                                        "name": "Pattern Template"},
                                       {"propertyid": 2, "float_value": "0.0103",
                                        "name": "Wear Rating"},
                                       {"propertyid": 7, "int_value": str(stack[2]),
                                        "name": "Finish Catalog"}]})
            key = (name, applied) if name is not None else ("__undescribed__", assetid)
            classid = classes.setdefault(key, str(900000 + len(classes)))
            # What is applied lives in the description, so the platform gives such an
            # asset its own instance of the class.
            instanceid = str(700000 + int(classid)) if applied else "0"
            assets.append({"appid": 730, "contextid": "2", "assetid": str(assetid),
                           "classid": classid, "instanceid": instanceid, "amount": str(amount)})
            if name is not None and classid not in described:
                described.add(classid)
                descriptions.append({
                    "appid": 730, "classid": classid, "instanceid": instanceid, "currency": 0,
                    "background_color": "", "icon_url": "-9a81dlWLwJ2UUGcVs_nsVtzdOEdtWwKGZZLQHTxDZ7I",
                    "descriptions": [{"type": "html", "value": "Exterior: Field-Tested",
                                      "name": "exterior_wear"}] + applied_entries(applied),
                    "tradable": 1, "name": name, "name_color": "D2D2D2",
                    "type": "Mil-Spec Grade Rifle", "market_name": name,
                    "market_hash_name": name, "commodity": 0, "marketable": 1,
                    "tags": [{"category": "Type", "internal_name": "CSGO_Type_Rifle",
                              "localized_category_name": "Type", "localized_tag_name": "Rifle"}]})
            assetid += 1
        page = {"assets": assets, "descriptions": descriptions,
                **({"asset_properties": properties} if properties else {}),
                "total_inventory_count": sum(len(p) for p in stacks_per_page),
                "success": 1, "rwgrsn": -2}
        if index + 1 < len(stacks_per_page):
            page["more_items"] = 1
            page["last_assetid"] = str(assetid - 1)
        pages.append(page)
    return pages


class FakeInventory(BackgroundServer):
    def __init__(self, port=0):
        self.lock = threading.Lock()
        self.requests = []  # (id64, query dict)
        self.market_requests = 0  # /market/priceoverview: the same origin's market API
        self.scenarios = {}
        self.oversize_results = {}  # id64 → {"sent": bytes, "closed_early": bool}
        self.listen(self._handler(), port)

    @property
    def base_url(self):
        return "http://127.0.0.1:%d/inventory" % self.port

    def pages(self, id64, stacks_per_page, first_assetid=1, delay=0.0):
        self._set(id64, ("pages", (build_pages(stacks_per_page, first_assetid), delay)))

    def fixture(self, id64, name):
        with open(os.path.join(FIXTURE_DIR, name), "rb") as f:
            self._set(id64, ("fixture", f.read()))

    def status(self, id64, code):
        self._set(id64, ("status", code))

    def oversize(self, id64, total):
        self._set(id64, ("oversize", total))

    def slow(self, id64, seconds):
        self._set(id64, ("slow", seconds))

    def market_request_count(self):
        with self.lock:
            return self.market_requests

    def requests_for(self, id64):
        with self.lock:
            return [q for i, q in self.requests if i == id64]

    def wait_oversize_result(self, id64, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if id64 in self.oversize_results:
                    return self.oversize_results[id64]
            time.sleep(0.02)
        raise AssertionError("the oversize answer to %s did not finish" % id64)

    def _set(self, id64, scenario):
        with self.lock:
            self.scenarios[id64] = scenario

    # -- server -------------------------------------------------------------------------
    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def send_body(self, status, body, content_type="application/json"):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                parts = url.path.strip("/").split("/")
                query = dict(urllib.parse.parse_qsl(url.query))
                if parts[:2] == ["market", "priceoverview"]:
                    with fake.lock:
                        fake.market_requests += 1
                    return self.send_body(200, b'{"success":true,"lowest_price":"$1.00"}')
                if len(parts) != 4 or parts[0] != "inventory" or parts[2:] != ["730", "2"]:
                    return self.send_body(404, b"null")
                id64 = parts[1]
                with fake.lock:
                    fake.requests.append((id64, query))
                    scenario = fake.scenarios.get(id64)
                if scenario is None:
                    return self.send_body(403, b"null")  # unknown profiles look private
                kind, arg = scenario
                if query.get("count") != "1000" or query.get("l") != "english":
                    return self.send_body(400, b"null")
                if kind == "pages":
                    pages, delay = arg
                    time.sleep(delay)
                    return self.serve_page(pages, query.get("start_assetid"))
                if kind == "fixture":
                    return self.send_body(200, arg)
                if kind == "status":
                    body = b"null"
                    if arg >= 500:
                        body = json.dumps({"error": "EYldRefreshAppIfNecessary failed with "
                                                    "EResult 55 (20)"}).encode()
                    return self.send_body(arg, body)
                if kind == "slow":
                    time.sleep(arg)
                    return self.send_body(200, b'{"success":1,"total_inventory_count":0}')
                if kind == "oversize":
                    return self.serve_oversize(id64, arg)
                raise AssertionError(kind)

            def serve_page(self, pages, start):
                index = 0
                if start is not None:
                    index = next((i + 1 for i, p in enumerate(pages)
                                  if p.get("last_assetid") == start), None)
                    if index is None:
                        return self.send_body(500, b'{"error":"bad start_assetid (8)"}')
                body = json.dumps(pages[index], ensure_ascii=False).encode("utf-8")
                self.send_body(200, body)

            def serve_oversize(self, id64, total):
                # Close-delimited (no Content-Length, no chunking): the client can only
                # stop by counting, which is what the cap must do.
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                filler = b'{"success":1,"assets":[],"pad":"' + b"x" * CHUNK
                sent, closed_early = 0, False
                try:
                    while sent < total:
                        piece = filler[:min(CHUNK, total - sent)]
                        filler = b"x" * CHUNK
                        self.wfile.write(piece)
                        self.wfile.flush()
                        sent += len(piece)
                except (BrokenPipeError, ConnectionResetError):
                    closed_early = True
                with fake.lock:
                    fake.oversize_results[id64] = {"sent": sent, "closed_early": closed_early}

        return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--catalog", required=True, help="items.jsonl to draw names from")
    parser.add_argument("--assets", type=int, default=5000)
    parser.add_argument("--page-size", type=int, default=1000)
    args = parser.parse_args()
    names = []
    with open(args.catalog, encoding="utf-8") as f:
        for line in f:
            names.append(json.loads(line)["market_hash_name"])
            if len(names) == args.assets:
                break
    stacks = [(name, 1) for name in names]
    pages = [stacks[i:i + args.page_size] for i in range(0, len(stacks), args.page_size)]
    fake = FakeInventory(args.port)

    class AnyId(dict):
        def get(self, key, default=None):
            return ("pages", (built, 0.0))

    built = build_pages(pages)
    fake.scenarios = AnyId()
    print("listening on %s" % fake.base_url, flush=True)
    fake.server.serve_forever()


if __name__ == "__main__":
    main()
