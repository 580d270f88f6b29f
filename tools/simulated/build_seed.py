#!/usr/bin/env python3
"""Build share/simulated/seed.tsv, the starting point of the `simulated` source.

Reads the ByMykel price-tracker snapshot (stdlib only):
  latest.json                 {"prices": {market_hash_name: cents, ...}}
  price_history_changes.json  {"series": {market_hash_name: [[unix, cents], ...]}}
and writes one line per name of latest.json, sorted by name (code points):
  market_hash_name<TAB>price_cents<TAB>volatility

volatility is a daily log-return standard deviation estimated from the history as a
random walk: sqrt(sum(r_i^2) / sum(dt_i)), r_i = ln(p_i / p_{i-1}) (each clipped to
+-MAX_ABS_RETURN so one bad listing cannot dominate), dt_i in days. The series holds a
point only when the price changed, so unchanged stretches add time without adding
variance, as they should. Items with fewer than MIN_POINTS points get the median of the
estimated items. Results are clamped to [VOL_MIN, VOL_MAX] and rounded to 5 decimals.
The output is a pure function of the inputs (deterministic).

Usage: build_seed.py [--data DIR] [--out FILE]
"""

import argparse
import json
import math
import os
import sys

# The ByMykel price-tracker snapshot (plugins/sources/simulated/README.md says where it
# comes from): --data, or bymykel_price_tracker/ under $SKINPULSE_SHARED_DATA.
DEFAULT_DATA = os.path.join(os.environ.get("SKINPULSE_SHARED_DATA", "."), "bymykel_price_tracker")
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "share",
                           "simulated", "seed.tsv")
MIN_POINTS = 3
VOL_MIN = 0.002
VOL_MAX = 0.15
MAX_ABS_RETURN = 0.7
MIN_SPAN_DAYS = 1.0


def estimate(series):
    """Daily log-return standard deviation of one [[unix, cents], ...] series, or None."""
    points = sorted((int(t), int(c)) for t, c in series if int(c) > 0)
    if len(points) < MIN_POINTS:
        return None
    sum_sq = 0.0
    span_days = 0.0
    for (t0, c0), (t1, c1) in zip(points, points[1:]):
        if t1 <= t0:
            continue
        r = math.log(c1 / c0)
        r = max(-MAX_ABS_RETURN, min(MAX_ABS_RETURN, r))
        sum_sq += r * r
        span_days += (t1 - t0) / 86400.0
    if span_days < MIN_SPAN_DAYS:
        return None
    return math.sqrt(sum_sq / span_days)


def clamp(v):
    return max(VOL_MIN, min(VOL_MAX, v))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=DEFAULT_DATA)
    parser.add_argument("--out", default=DEFAULT_OUT)
    args = parser.parse_args()

    with open(os.path.join(args.data, "latest.json"), encoding="utf-8") as f:
        prices = json.load(f)["prices"]
    with open(os.path.join(args.data, "price_history_changes.json"), encoding="utf-8") as f:
        series = json.load(f)["series"]

    vols = {}
    for name in prices:
        v = estimate(series.get(name, []))
        if v is not None:
            vols[name] = clamp(v)
    ordered = sorted(vols.values())
    if ordered:
        mid = len(ordered) // 2
        median = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    else:
        median = 0.02
    default = clamp(median)

    lines = []
    skipped = 0
    for name in sorted(prices):
        cents = prices[name]
        if (not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0 or not name
                or any(ch in name for ch in "\t\r\n") or name != name.strip()):
            skipped += 1
            continue
        vol = vols.get(name, default)
        lines.append("%s\t%d\t%.5f\n" % (name, cents, vol))

    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.writelines(lines)
    os.replace(tmp, out)
    print("%s: %d items (%d estimated, default volatility %.5f for the rest), %d skipped"
          % (out, len(lines), len(vols), default, skipped), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
