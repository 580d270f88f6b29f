#!/usr/bin/env python3
"""bench/e2e fake market: answers skinpulsed's Skinport poll
(GET /v1/items?app_id=730&currency=USD) with a Skinport-shaped JSON array of ITEMS rows
(the first ITEMS names of the catalogue file; ~8.6 MB for 25,000), every row's
`updated_at` set to the poll's Unix second and its prices moved a little.

Once --ready-file exists (the load client has all its clients subscribed) every answer
is logged to --log as `publish <updated_at as ISO 8601> <CLOCK_MONOTONIC ns>`, the clock
read right after the last byte went into the socket: the start of the end-to-end clock.
The load client (bench_ws_client --publish-log) matches a prices frame to its cycle by the
entries' "time". Prints `port N` on stdout once listening.

    fake_market.py --catalog share/catalog/items.jsonl --items 25000 --log FILE
                   [--ready-file FILE] [--cycles 5] [--port 0] [--body-file FILE]
"""
import argparse
import http.server
import json
import os
import random
import socketserver
import sys
import time


def rows_of(catalog, items):
    """Per row: the constant text before the prices, and the row's base price in cents."""
    rng = random.Random(22)
    rows = []
    with open(catalog, encoding="utf-8") as f:
        for line in f:
            if len(rows) == items:
                break
            entry = json.loads(line)
            if "variant" in entry:  # a variant line repeats its base's name
                continue
            name = entry["market_hash_name"]
            slug = "".join(c if c.isalnum() else "-" for c in name.lower())
            head = ('{"market_hash_name":%s,"currency":"USD","item_page":'
                    '"https://skinport.com/item/%s","market_page":'
                    '"https://skinport.com/m/%d",' % (json.dumps(name), slug, len(rows)))
            rows.append((head, rng.randint(3, 40000), rng.randint(1, 400)))
    return rows


UPDATED = b"9999999999"  # stands for updated_at in the templates (same width as now)


def template_of(rows, variant):
    """The body with updated_at left as UPDATED; a tenth of the items move by a cent from
    one variant to the next."""
    parts = []
    for i, (head, cents, quantity) in enumerate(rows):
        price = cents + ((i + variant) % 10 == 0) * variant
        parts.append('%s"suggested_price":%.2f,"min_price":%.2f,"max_price":%.2f,'
                     '"mean_price":%.2f,"median_price":%.2f,"quantity":%d,'
                     '"updated_at":%s}' %
                     (head, price * 1.04 / 100, price / 100, price * 3.1 / 100,
                      price * 1.2 / 100, price * 1.1 / 100, quantity, UPDATED.decode()))
    return ("[" + ",".join(parts) + "]").encode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--items", type=int, default=25000)
    parser.add_argument("--log", required=True)
    parser.add_argument("--ready-file", default="")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cycles", type=int, default=5, help="cycles logged, then no more")
    parser.add_argument("--body-file", default="",
                        help="write one answer's body here (the raw references parse it)")
    args = parser.parse_args()
    rows = rows_of(args.catalog, args.items)
    templates = [template_of(rows, variant) for variant in range(3)]
    if args.body_file:
        with open(args.body_file, "wb") as f:
            f.write(templates[1].replace(UPDATED, b"%d" % int(time.time())))
    log = open(args.log, "a", encoding="utf-8")
    state = {"cycle": 0, "logged": 0}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            if not self.path.startswith("/v1/items"):
                self.send_error(404)
                return
            state["cycle"] += 1
            updated_at = int(time.time())
            body = templates[state["cycle"] % 3].replace(UPDATED, b"%d" % updated_at)
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            sent = time.monotonic_ns()  # CLOCK_MONOTONIC, as the client's steady_clock
            ready = not args.ready_file or os.path.exists(args.ready_file)
            if ready and state["logged"] < args.cycles:
                state["logged"] += 1
                iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(updated_at))
                log.write("publish %s %d poll=%d bytes=%d\n" % (iso, sent, state["cycle"], len(body)))
                log.flush()

        def log_message(self, *_):
            pass

    class Server(socketserver.TCPServer):
        allow_reuse_address = True

    with Server(("127.0.0.1", args.port), Handler) as server:
        print("port %d" % server.server_address[1], flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
