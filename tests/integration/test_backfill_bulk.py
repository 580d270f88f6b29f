"""skinpulsectl backfill in bulk (issue 22 §5): the streamed file reaches SQLite and
PostgreSQL (COPY) whole, with what it rejected counted by reason and first line number;
history older than the raw retention lands in the rollups only (issue 30, §20);
a backfill the store refuses part-way leaves nothing of the file and no revision; stdout
and stderr stay as they were when not a terminal (no progress bar)."""
import json
import os
import sqlite3
import subprocess
import time
import unittest

from harness import Daemon, DaemonTestCase, iso, run_tool

PG_URL = os.environ.get("SKINPULSE_TEST_POSTGRES_URL")
NAMES = ["AWP | Asiimov (Field-Tested)", "AK-47 | Redline (Field-Tested)", "Recoil Case"]
REFUSED_PRICE = 424242  # the test trigger below refuses a point with this price


def line(name, ts, price, source="archive"):
    return json.dumps({"market_hash_name": name, "source": source, "time": iso(ts),
                       "price": price, "volume": 1}, ensure_ascii=False)


def psql(url, sql):
    return subprocess.run(["psql", "-qAt", "-v", "ON_ERROR_STOP=1", url, "-c", sql], check=True,
                          capture_output=True, text=True).stdout


class BackfillBulk:
    """The same checks on either store; subclasses say how to reach and query it."""

    def env(self):
        raise NotImplementedError

    def sql(self, query):
        raise NotImplementedError

    def refuse_price(self):
        raise NotImplementedError

    def write(self, lines, name="history.jsonl", prefix=b""):
        path = os.path.join(self.workdir, name)
        with open(path, "wb") as f:
            f.write(prefix)
            for text in lines:
                f.write(text.encode("utf-8") + b"\r\n")
        return path

    def run_backfill(self, path):
        config = os.path.join(self.workdir, "skinpulsed.ini")
        if not os.path.exists(config):
            with open(config, "w") as f:
                f.write("[log]\nlevel = warn\n")
        env = Daemon(self.workdir).env
        env.update(self.env())
        return run_tool("skinpulsectl", "backfill", "--config", config, "--file", path, env=env)

    def count(self):
        return int(self.sql("SELECT COUNT(*) FROM price_points"))

    def revision(self):
        value = self.sql("SELECT value FROM kv WHERE key = 'prices.backfill_revision'")
        return int(value) if value else 0

    def test_streamed_file_is_stored_and_its_rejections_reported(self):
        now = int(time.time()) - 3600
        # Within the raw retention (30 days): every point is stored raw.
        good = [line(NAMES[i % 3], now - 60 * (i // 3), 1000 + i) for i in range(30000)]
        hostile = ["", "not json", "{\"market_hash_name\": 7}", "[" * 5000 + "]" * 5000,
                   line("No Such Item", now, 5), "x" * 70000,
                   json.dumps({"market_hash_name": NAMES[0], "source": "archive",
                               "time": "yesterday", "price": 1})]
        # A byte order mark, CRLF line ends, hostile lines in the middle.
        path = self.write(good[:10] + hostile + good[10:], prefix=b"\xef\xbb\xbf")
        result = self.run_backfill(path)
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)
        self.assertEqual(result.stderr, "")  # not a terminal: no progress bar
        out = result.stdout.splitlines()
        self.assertEqual(out[0], "%s: 30006 lines, 30000 stored, 0 already stored, 6 rejected"
                         % path)
        self.assertIn("  rejected 2: malformed JSON (first at line 12)", out)
        self.assertIn("  rejected 1: field of the wrong type (first at line 13)", out)
        self.assertIn("  rejected 1: not in catalogue (first at line 15)", out)
        self.assertIn("  rejected 1: line longer than 64 KiB (first at line 16)", out)
        self.assertIn("  rejected 1: bad time (first at line 17)", out)
        self.assertEqual(self.count(), 30000)
        self.assertEqual(self.revision(), 1)
        # Again: everything already stored, one more revision.
        again = self.run_backfill(path)
        self.assertIn("30006 lines, 0 stored, 30000 already stored", again.stdout)
        self.assertEqual(self.revision(), 2)

    def test_history_older_than_the_retention_lands_in_the_rollups(self):
        # docs/api.md §20: two years, one point an hour; what is older than the start of
        # the UTC day 30 days ago goes to the hourly and daily bars only.
        now = int(time.time()) // 3600 * 3600
        lines = [line(NAMES[2], now - 3600 * h, 100 + h % 97) for h in range(1, 2 * 365 * 24)]
        result = self.run_backfill(self.write(lines, "years.jsonl"))
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)
        self.assertIn("%d stored, 0 already stored" % len(lines), result.stdout)
        cut = (now - 30 * 86400) // 86400 * 86400
        raw = int(self.sql("SELECT COUNT(*) FROM price_points"))
        self.assertEqual(raw, len([h for h in range(1, 2 * 365 * 24) if now - 3600 * h >= cut]))
        self.assertEqual(int(self.sql("SELECT MIN(time) FROM price_points")) >= cut, True)
        self.assertEqual(int(self.sql("SELECT COUNT(*) FROM price_rollups_hourly")), len(lines))
        days = int(self.sql("SELECT COUNT(*) FROM price_rollups_daily"))
        self.assertIn(days, (730, 731))
        self.assertEqual(int(self.sql("SELECT SUM(samples) FROM price_rollups_daily")), len(lines))
        # The same file again: nothing new, raw keys and bars alike.
        again = self.run_backfill(self.write(lines, "years.jsonl"))
        self.assertIn("0 stored, %d already stored" % len(lines), again.stdout)
        self.assertEqual(int(self.sql("SELECT SUM(samples) FROM price_rollups_daily")), len(lines))

    def test_a_backfill_the_store_refuses_leaves_nothing(self):
        now = int(time.time()) - 3600
        self.run_backfill(self.write([line(NAMES[0], now - 86400, 700)], "first.jsonl"))
        self.assertEqual((self.count(), self.revision()), (1, 1))
        self.refuse_price()
        lines = [line(NAMES[i % 3], now - 60 * i, 1000 + i % 50) for i in range(150000)]
        lines.insert(120000, line(NAMES[1], now - 7, REFUSED_PRICE))
        result = self.run_backfill(self.write(lines, "refused.jsonl"))
        self.assertNotEqual(result.returncode, 0, result.stdout)
        self.assertIn("skinpulsectl:", result.stderr)
        self.assertEqual((self.count(), self.revision()), (1, 1))


class BackfillBulkSqliteTest(BackfillBulk, DaemonTestCase):
    def env(self):
        return {"DATABASE_URL": "sqlite://" + os.path.join(self.workdir, "bulk.db")}

    def sql(self, query):
        connection = sqlite3.connect(os.path.join(self.workdir, "bulk.db"))
        try:
            row = connection.execute(query).fetchone()
            return "" if row is None else str(row[0])
        finally:
            connection.close()

    def refuse_price(self):
        connection = sqlite3.connect(os.path.join(self.workdir, "bulk.db"))
        connection.execute("CREATE TRIGGER refuse BEFORE INSERT ON price_points WHEN "
                           "NEW.price = %d BEGIN SELECT RAISE(ABORT, 'refused by the test'); "
                           "END" % REFUSED_PRICE)
        connection.commit()
        connection.close()


@unittest.skipUnless(PG_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class BackfillBulkPostgresTest(BackfillBulk, DaemonTestCase):
    def setUp(self):
        super().setUp()
        self.schema = "it_backfill_bulk_%d" % os.getpid()
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

    def refuse_price(self):
        psql(PG_URL, """SET search_path TO %s;
            CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN
              IF NEW.price = %d THEN RAISE EXCEPTION 'refused by the test'; END IF;
              RETURN NEW; END $$ LANGUAGE plpgsql;
            CREATE TRIGGER refuse BEFORE INSERT ON price_points FOR EACH ROW
              EXECUTE FUNCTION refuse();""" % (self.schema, REFUSED_PRICE))

