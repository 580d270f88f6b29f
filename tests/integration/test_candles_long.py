"""Candles over long windows (docs/api.md §10, §20): a year of history imported with
`skinpulsectl backfill` answers `window=1y` (and `all`, `90d`, weekly bars) from the
hourly and daily rollups, bar for bar what the imported points make, and keeps answering
the same after the daemon's retention pass removed the raw points. On SQLite, and on
PostgreSQL when SKINPULSE_TEST_POSTGRES_URL is set.

The points are folded again here, in Python, the way the contract defines a bar (first,
max, min, last, sums per UTC bucket; weeks from Monday): the daemon's bars must equal
them."""
import json
import os
import subprocess
import sqlite3
import time
import unittest
import urllib.parse

from harness import Daemon, DaemonTestCase, iso, run_tool, wait_until

PG_URL = os.environ.get("SKINPULSE_TEST_POSTGRES_URL")
NAME = "AK-47 | Redline (Field-Tested)"
SOURCE = "archive"
DAY = 86400
WEEK = 7 * DAY
MONDAY = 4 * DAY  # 1970-01-05, the first Monday after the epoch
STEP = 3 * 3600  # one imported point every three hours
HISTORY_DAYS = 400


def bucket_start(t, interval):
    if interval == WEEK:
        return (t - MONDAY) // WEEK * WEEK + MONDAY
    return t // interval * interval


def fold(points, interval, since):
    """The bars of the contract: one per bucket holding a point at or after `since`."""
    bars = {}
    for t, price, volume in sorted(points):
        start = bucket_start(t, interval)
        if start < since:
            continue
        bar = bars.get(start)
        if bar is None:
            bars[start] = {"time": iso(start), "open": price, "high": price, "low": price,
                           "close": price, "volume": volume, "samples": 1}
            continue
        bar["high"] = max(bar["high"], price)
        bar["low"] = min(bar["low"], price)
        bar["close"] = price
        bar["volume"] += volume
        bar["samples"] += 1
    return [bars[k] for k in sorted(bars)]


def psql(url, sql):
    return subprocess.run(["psql", "-qAt", "-v", "ON_ERROR_STOP=1", url, "-c", sql], check=True,
                          capture_output=True, text=True).stdout


class CandlesLong:
    """The same checks on either store; subclasses say how to reach and query it."""

    WINDOWS = {"1y": 365 * DAY, "90d": 90 * DAY, "30d": 30 * DAY, "7d": 7 * DAY, "all": None}

    def env(self):
        raise NotImplementedError

    def sql(self, query):
        raise NotImplementedError

    @staticmethod
    def config(retention_days):
        return "[log]\nlevel = info\n[storage]\nretention_days = %d\n" % retention_days

    def backfill(self, points, retention_days):
        path = os.path.join(self.workdir, "year.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for t, price, volume in points:
                f.write(json.dumps({"market_hash_name": NAME, "source": SOURCE, "time": iso(t),
                                    "price": price, "volume": volume}) + "\n")
        # The daemon's environment and configuration file, as skinpulsectl reads them.
        tool = Daemon(self.workdir, ini=self.config(retention_days), env=self.env())
        result = run_tool("skinpulsectl", "backfill", "--config", tool.config, "--file", path,
                          env=tool.env, timeout=300)
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)
        self.assertIn("%d stored" % len(points), result.stdout)

    def expected(self, points, window, interval, now):
        seconds = self.WINDOWS[window]
        since = -2**62 if seconds is None else bucket_start(now - seconds, interval)
        return fold(points, interval, since)

    def assert_candles(self, daemon, item, points, window, interval):
        path = "/api/v1/items/%d/candles?window=%s&interval=%s&source=%s" % (
            item, window, interval, SOURCE)
        before = int(time.time())
        response = daemon.get(path)
        after = int(time.time())
        self.assertEqual(response.status, 200, response.body)
        body = response.json()
        self.assertEqual((body["window"], body["interval"], body["source"]),
                         (window, interval, SOURCE))
        seconds = {"1h": 3600, "1d": DAY, "1w": WEEK}[interval]
        # A bucket boundary may pass during the request: either moment's bars are right.
        self.assertIn(body["candles"], [self.expected(points, window, seconds, before),
                                        self.expected(points, window, seconds, after)],
                      "%s %s: %d bars" % (window, interval, len(body["candles"])))
        return body["candles"]

    def test_a_year_of_candles_answers_from_rollups_after_retention(self):
        now = int(time.time())
        first = now - HISTORY_DAYS * DAY
        points = [(t, 1000 + (t // STEP) % 41, 1 + (t // STEP) % 3)
                  for t in range(first - first % STEP, now - 3600, STEP)]
        # Imported with a 30-day raw retention: older points land in the rollups only.
        self.backfill(points, 30)
        raw_old = int(self.sql("SELECT COUNT(*) FROM price_points WHERE time < %d"
                               % (now - 31 * DAY)))
        self.assertLessEqual(raw_old, 1, "points older than the raw retention stored raw")
        self.assertGreaterEqual(int(self.sql("SELECT COUNT(*) FROM price_rollups_daily")), 400)

        # The daemon keeps 7 days raw: its retention pass (a minute after start) deletes
        # the raw points between 7 and 30 days old; the candles must not change.
        with Daemon(self.workdir, ini=self.config(7), env=self.env()) as daemon:
            found = daemon.get("/api/v1/items?q=" + urllib.parse.quote(NAME)).json()
            item = next(i["id"] for i in found if i["market_hash_name"] == NAME)
            # 1h bars from the hourly rollups, 1d from the daily ones, 1w from days.
            cases = [("1y", "1d"), ("1y", "1w"), ("all", "1d"), ("all", "1w"), ("90d", "1d"),
                     ("30d", "1d"), ("30d", "1w"), ("7d", "1h")]
            bars = {case: self.assert_candles(daemon, item, points, *case) for case in cases}
            self.assertIn(len(bars[("1y", "1d")]), (365, 366))
            self.assertGreaterEqual(len(bars[("all", "1d")]), HISTORY_DAYS)
            raw_before = int(self.sql("SELECT COUNT(*) FROM price_points"))
            self.assertTrue(wait_until(lambda: any("retention: deleted" in line
                                                   for line in daemon.stderr_lines), timeout=120),
                            daemon.stderr())
            raw_after = int(self.sql("SELECT COUNT(*) FROM price_points"))
            self.assertLess(raw_after, raw_before)
            self.assertLessEqual(int(self.sql("SELECT COUNT(*) FROM price_points WHERE time < %d"
                                              % (now - 8 * DAY))), 1)
            # Retention tells no one: the bodies may come from the cache or the store; either
            # way they are still the bars of every imported point.
            for case in cases:
                self.assert_candles(daemon, item, points, *case)


    def test_long_windows_and_their_refusals(self):
        with Daemon(self.workdir, env=self.env()) as daemon:
            found = daemon.get("/api/v1/items?q=" + urllib.parse.quote(NAME)).json()
            item = next(i["id"] for i in found if i["market_hash_name"] == NAME)
            for window in ("90d", "1y", "all"):
                body = daemon.get("/api/v1/items/%d/candles?window=%s" % (item, window)).json()
                # No prices yet: no reference source, no bars; the default interval is 1d.
                self.assertEqual((body["window"], body["interval"], body["source"], body["candles"]),
                                 (window, "1d", None, []))
            refusals = {
                "window=2y": "parameter 'window' must be 1h, 24h, 7d, 30d, 90d, 1y or all",
                "window=all&interval=1M": "parameter 'interval' must be 1m, 5m, 1h, 1d or 1w",
                "window=1y&interval=1h": "parameter 'interval' is finer than the 1y window "
                                         "allows (window 1y allows 1d or 1w)",
                "window=7d&interval=1w": "parameter 'interval' is 1w, which needs a window of "
                                         "30d or longer (window 7d allows 1h or 1d)",
            }
            for query, detail in refusals.items():
                response = daemon.get("/api/v1/items/%d/candles?%s" % (item, query))
                self.assertProblem(response, 400, "invalid_parameter")
                self.assertEqual(response.json()["detail"], detail)


class CandlesLongSqliteTest(CandlesLong, DaemonTestCase):
    def env(self):
        return {"DATABASE_URL": "sqlite://" + os.path.join(self.workdir, "long.db")}

    def sql(self, query):
        connection = sqlite3.connect(os.path.join(self.workdir, "long.db"))
        try:
            row = connection.execute(query).fetchone()
            return "" if row is None else str(row[0])
        finally:
            connection.close()


@unittest.skipUnless(PG_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class CandlesLongPostgresTest(CandlesLong, DaemonTestCase):
    def setUp(self):
        super().setUp()
        self.schema = "it_candles_long_%d" % os.getpid()
        psql(PG_URL, "DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s"
             % (self.schema, self.schema))
        separator = "&" if "?" in PG_URL else "?"
        self.url = PG_URL + separator + "options=-csearch_path%3D" + self.schema

    def tearDown(self):
        psql(PG_URL, "DROP SCHEMA IF EXISTS %s CASCADE" % self.schema)
        super().tearDown()

    def env(self):
        return {"DATABASE_URL": self.url}

    def sql(self, query):
        return psql(PG_URL, "SET search_path TO %s; %s" % (self.schema, query)).strip()


if __name__ == "__main__":
    unittest.main()
