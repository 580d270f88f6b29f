#!/usr/bin/env python3
"""Price history for the HTTP bench, as `skinpulsectl backfill` JSON Lines on stdout.

  bench/http/seed-history.py --url http://127.0.0.1:PORT --item 17000 [--points 8000]
                             [--others 200] [--now UNIX] > history.jsonl

One item (--item) gets --points points of source "bench" spread evenly over the last
7 days (8,000 points: one every ~75 s, the series the history target is about; its 24h
window holds ~1,140 of them). --others more items (the first ids of the catalogue) get
one point an hour for 7 days, so the rankings rank something. Prices are a
deterministic random walk (seed 1): two runs with the same --now give the same file.
The item names come from the daemon at --url (the catalogue it seeded).
"""
import argparse
import json
import random
import sys
import time
import urllib.request


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read().decode("utf-8"))


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def walk(rng, start, count):
    price = start
    out = []
    for _ in range(count):
        price = max(1, int(price * (1 + rng.gauss(0, 0.004))))
        out.append(price)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--item", type=int, required=True)
    parser.add_argument("--points", type=int, default=8000)
    parser.add_argument("--others", type=int, default=200)
    parser.add_argument("--now", type=int, default=int(time.time()))
    args = parser.parse_args()
    rng = random.Random(1)
    end = args.now - 60
    span = 7 * 86400 - 120
    name = get_json("%s/api/v1/items/%d" % (args.url, args.item))["market_hash_name"]
    step = span / max(1, args.points)
    prices = walk(rng, 10000, args.points)
    out = sys.stdout
    for i in range(args.points):
        t = end - int(round(i * step))
        out.write(json.dumps({"market_hash_name": name, "source": "bench", "time": iso(t),
                              "price": prices[i], "volume": 1 + i % 5}) + "\n")
    others = get_json("%s/api/v1/items?limit=%d" % (args.url, min(500, args.others)))
    for entry in others[: args.others]:
        if entry["id"] == args.item:
            continue
        series = walk(rng, rng.randint(100, 100000), 7 * 24)
        for h, price in enumerate(series):
            out.write(json.dumps({"market_hash_name": entry["market_hash_name"], "source": "bench",
                                  "time": iso(end - h * 3600), "price": price,
                                  "volume": 1}) + "\n")


if __name__ == "__main__":
    main()
