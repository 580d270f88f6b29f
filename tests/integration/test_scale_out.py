"""Two daemons on one PostgreSQL database (docs/api.md §8): exactly one polls the
sources, the other stands by, serves the same current prices, and takes over when the
polling one stops. Needs SKINPULSE_TEST_POSTGRES_URL (CI sets it); skipped without."""
import os
import subprocess
import time
import unittest
import urllib.parse

from harness import Daemon, DaemonTestCase, wait_until

PG_URL = os.environ.get("SKINPULSE_TEST_POSTGRES_URL")
SEED = os.path.join(os.environ.get("SKINPULSE_SOURCE_DIR", "."), "share", "simulated",
                    "seed.tsv")
INI = ("[source.sim]\nplugin = simulated\ninterval_seconds = 2\nseed_file = %s\n"
       "fraction = 1.0\n" % SEED)
NAME = "AK-47 | Redline (Field-Tested)"


def psql(sql):
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", PG_URL, "-c", sql], check=True,
                   capture_output=True)



@unittest.skipUnless(PG_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class ScaleOutTest(DaemonTestCase):
    def setUp(self):
        super().setUp()
        self.schema = "it_scale_out_%d" % os.getpid()
        psql("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s" % (self.schema, self.schema))
        separator = "&" if "?" in PG_URL else "?"
        self.url = PG_URL + separator + "options=-csearch_path%3D" + self.schema

    def tearDown(self):
        psql("DROP SCHEMA IF EXISTS %s CASCADE" % self.schema)
        super().tearDown()

    def daemon(self, name):
        workdir = os.path.join(self.workdir, name)
        os.makedirs(workdir)
        return Daemon(workdir, ini=INI, env={"DATABASE_URL": self.url})

    @staticmethod
    def role(daemon):
        return daemon.get("/readyz").json()["ingest"]

    def current_price(self, daemon, item_id):
        return daemon.get("/api/v1/items/%d" % item_id).json()["current_price"]

    def test_one_instance_polls_and_a_standby_takes_over(self):
        first = self.daemon("a").start()
        try:
            self.assertTrue(wait_until(lambda: self.role(first) == "polling"))
            second = self.daemon("b").start()
            try:
                self.assertTrue(wait_until(lambda: self.role(second) == "standby", 10))
                self.assertEqual(self.role(first), "polling")
                found = second.get("/api/v1/items?q=" + urllib.parse.quote(NAME)).json()
                item_id = next(i["id"] for i in found if i["market_hash_name"] == NAME)
                # The standby fetches nothing itself, yet serves the prices the polling
                # instance stores, and keeps up with them.
                initial = wait_until(lambda: self.current_price(second, item_id))
                self.assertTrue(initial)
                self.assertTrue(wait_until(
                    lambda: self.current_price(second, item_id) != initial, 60),
                    "the standby never saw the polling instance's next cycle:\n" +
                    second.stderr()[-3000:])
                self.assertTrue(all(s["last_poll"] is None
                                    for s in second.admin_get("/readyz").json()["sources"]))
                self.assertTrue(wait_until(
                    lambda: self.current_price(second, item_id) ==
                    self.current_price(first, item_id), 20))
                first.stop()
                # Interval 2 s: the standby asks every second and must take over within
                # two intervals; the bound leaves room for a loaded CI machine.
                started = time.time()
                self.assertTrue(wait_until(lambda: self.role(second) == "polling", 15))
                self.assertLess(time.time() - started, 10)
                self.assertTrue(wait_until(lambda: any(
                    s["last_success"] for s in second.admin_get("/readyz").json()["sources"])))
            finally:
                second.stop()
        finally:
            first.stop()
