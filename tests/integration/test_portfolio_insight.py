"""Portfolio insight against the real daemon (docs/api.md §15): what a user paid
(PATCH /api/v1/portfolio/holdings/:item_id), P&L and 24h change, the value history
(GET /api/v1/portfolio/history) across imports and restarts, and the CSV export.

Users sign in and import as in test_portfolio.py (portfolio_fixture.py: the scripted
identity plugin, the fake inventory); prices come from a backfill: every item has two
points in the last 24 h (+10 cents), except AWP | Asiimov, which has one (no 24 h change).
"""
import csv
import io
import time
import unittest

from fake_inventory import FakeInventory
from harness import DaemonTestCase, wait_until
from portfolio_fixture import (ITEM_A, ITEM_B, ITEM_C, PortfolioDaemonTest, backfill, holding,
                               iso, make_daemon, next_platform_id, patch_holding, sign_in,
                               standard_prices)
from test_alerts import plugin_dir

ITEM_D = "AWP | Asiimov (Field-Tested)"
CSV_HEADER = ["item_id", "market_hash_name", "quantity", "currency", "current_price",
              "total_value", "cost_basis", "cost_total", "unrealised_pl",
              "unrealised_pl_percent", "change_24h_percent", "acquired_at", "imported_at",
              "account", "variant", "applied", "applied_value"]
# What a new user holds unless a test says otherwise.
HELD = ((ITEM_A, 2), (ITEM_B, 25), (ITEM_D, 1))

RATES_INI = "\n[rates.fixed]\nplugin = fixed\nrates = EUR:0.9, JPY:150\n"


def insight_prices(now):
    """test_portfolio's prices, and one point of the AWP (no 24 h change)."""
    awp = {"market_hash_name": ITEM_D, "source": "market-a", "time": iso(now - 300),
           "price": 2500, "volume": 1}
    return [awp] + standard_prices(now)


class BuiltPluginsDaemonTest(PortfolioDaemonTest):
    """A class daemon with the built plugins beside the scripted identity one: the metric
    plugins give the items their 24 h percent_change, and RATES_INI's fixed rates for
    currency= (docs/api.md §14): EUR 0.9 and JPY 150 per USD. 1 s import cooldown."""

    import_cooldown_seconds = 1
    config_lines = RATES_INI
    prices = staticmethod(insight_prices)
    inventory = HELD

    @classmethod
    def class_daemon(cls, workdir, store_env):
        return super().class_daemon(workdir, dict(store_env,
                                                  SKINPULSE_PLUGIN_DIR=plugin_dir(workdir)))


def history(user, window=None):
    path = "/api/v1/portfolio/history" + ("?window=" + window if window else "")
    return user.daemon.get(path, headers={"Cookie": user.cookie})


class InsightTest(BuiltPluginsDaemonTest):
    """One daemon, 1 s import cooldown, snapshots every second."""

    def assertProblem(self, response, status, code):
        self.assertEqual(response.status, status, response.body)
        self.assertEqual(response.header("content-type"), "application/problem+json")
        self.assertEqual(response.json()["code"], code, response.body)
        self.assertSecurityHeaders(response)

    # -- PATCH ---------------------------------------------------------------------------
    def test_cost_basis_gives_pl_per_holding_and_in_total(self):
        user = self.imported_user()
        body = user.portfolio().json()
        ak = holding(body, ITEM_A)
        self.assertIsNone(ak["cost_basis"])
        self.assertIsNone(ak["unrealised_pl"])
        self.assertIsNone(body["unrealised_pl"])
        self.assertEqual(body["cost_total"], 0)

        response = patch_holding(user, ak["item_id"],
                         {"cost_basis": 3500, "acquired_at": "2025-03-01T12:00:00Z"})
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual(response.header("cache-control"), "no-store")
        changed = response.json()
        self.assertEqual(changed["cost_basis"], 3500)
        self.assertEqual(changed["acquired_at"], "2025-03-01T12:00:00Z")
        self.assertEqual(changed["quantity"], 2)
        self.assertEqual(changed["current_price"], 4010)
        self.assertEqual(changed["unrealised_pl"], (4010 - 3500) * 2)

        # A loss on the case; the AWP keeps no cost basis and stays out of the totals.
        case = holding(body, ITEM_B)
        self.assertEqual(patch_holding(user, case["item_id"], {"cost_basis": 100}).status, 200)
        body = user.portfolio().json()
        self.assertEqual(holding(body, ITEM_B)["unrealised_pl"], (65 - 100) * 25)
        self.assertEqual(body["cost_total"], 3500 * 2 + 100 * 25)
        self.assertEqual(body["unrealised_pl"], (4010 - 3500) * 2 + (65 - 100) * 25)
        self.assertEqual(body["total_value"], 4010 * 2 + 65 * 25 + 2500)

        # 24 h change: two points 6,600 s apart (+10 cents); the AWP has one point: null.
        self.assertAlmostEqual(holding(body, ITEM_A)["change_24h_percent"], 0.25, places=2)
        self.assertAlmostEqual(holding(body, ITEM_B)["change_24h_percent"], 18.18, places=2)
        self.assertIsNone(holding(body, ITEM_D)["change_24h_percent"])
        then = 4000 * 2 + 55 * 25
        self.assertAlmostEqual(body["change_24h_percent"],
                               round((4010 * 2 + 65 * 25 - then) / then * 100, 2), places=2)

        # null clears; a field left out stays.
        cleared = patch_holding(user, ak["item_id"], {"cost_basis": None}).json()
        self.assertIsNone(cleared["cost_basis"])
        self.assertIsNone(cleared["unrealised_pl"])
        self.assertEqual(cleared["acquired_at"], "2025-03-01T12:00:00Z")

    def test_patch_refusals(self):
        user = self.imported_user()
        ak = holding(user.portfolio().json(), ITEM_A)["item_id"]
        anonymous = self.daemon.request("PATCH", "/api/v1/portfolio/holdings/%d" % ak,
                                        body=b'{"cost_basis":1}')
        self.assertProblem(anonymous, 401, "unauthenticated")
        self.assertProblem(patch_holding(user, ak, {"cost_basis": 1}, csrf=False), 403,
                           "csrf_failed")
        self.assertProblem(patch_holding(user, ak, None, raw=b"{not json"), 400, "invalid_body")
        self.assertProblem(patch_holding(user, ak, None, raw=b"[1]"), 400, "invalid_body")
        self.assertProblem(patch_holding(user, "abc", {"cost_basis": 1}), 400, "invalid_parameter")
        for body, field in (({"cost_basis": -1}, "cost_basis"), ({"cost_basis": 12.5}, "cost_basis"),
                            ({"cost_basis": "12"}, "cost_basis"), ({"cost_basis": True}, "cost_basis"),
                            ({"acquired_at": "yesterday"}, "acquired_at"),
                            ({"acquired_at": 1700000000}, "acquired_at"),
                            ({"acquired_at": "2099-01-01T00:00:00Z"}, "acquired_at"),
                            ({"quantity": 5}, "quantity"), ({}, "cost_basis")):
            response = patch_holding(user, ak, body)
            self.assertProblem(response, 422, "invalid_holding")
            self.assertIn("'%s'" % field, response.json()["detail"])
        # Not held (an item of the catalogue, and an id of no item): 404.
        self.assertProblem(patch_holding(user, 1, {"cost_basis": 1}), 404, "holding_not_found")
        self.assertProblem(patch_holding(user, 999999999, {"cost_basis": 1}), 404,
                           "holding_not_found")
        # Over 64 KiB: 413 before anything else.
        big = b'{"cost_basis":1,"x":"' + b"a" * 70000 + b'"}'
        self.assertEqual(patch_holding(user, ak, None, raw=big).status, 413)
        self.assertIsNone(holding(user.portfolio().json(), ITEM_A)["cost_basis"])  # unchanged

    def test_reimport_keeps_cost_basis_and_returning_items_get_it_back(self):
        user = self.imported_user()
        ak = holding(user.portfolio().json(), ITEM_A)["item_id"]
        self.assertEqual(patch_holding(user, ak, {"cost_basis": 3000}).status, 200)
        time.sleep(1.2)  # the 1 s cooldown
        self.fake.pages(user.platform_id, [[(ITEM_A, 3), (ITEM_B, 25)]], first_assetid=50)
        self.assertEqual(user.import_().status, 200)
        again = holding(user.portfolio().json(), ITEM_A)
        self.assertEqual((again["quantity"], again["cost_basis"]), (3, 3000))
        self.assertEqual(again["unrealised_pl"], (4010 - 3000) * 3)
        # The AK leaves (a storage unit) and comes back: its cost basis with it.
        time.sleep(1.2)
        self.fake.pages(user.platform_id, [[(ITEM_B, 25)]], first_assetid=90)
        self.assertEqual(user.import_().status, 200)
        self.assertProblem(patch_holding(user, ak, {"cost_basis": 1}), 404, "holding_not_found")
        time.sleep(1.2)
        self.fake.pages(user.platform_id, [[(ITEM_A, 1), (ITEM_B, 25)]], first_assetid=130)
        self.assertEqual(user.import_().status, 200)
        self.assertEqual(holding(user.portfolio().json(), ITEM_A)["cost_basis"], 3000)

    # -- history -------------------------------------------------------------------------
    def test_history_after_import(self):
        user = sign_in(self.daemon, platform_id=next_platform_id())
        empty = history(user)
        self.assertEqual(empty.status, 200, empty.body)
        self.assertEqual(empty.json(), [])
        self.fake.pages(user.platform_id, [[(ITEM_A, 2)]])
        self.assertEqual(user.import_().status, 200)
        points = history(user, "7d").json()
        self.assertEqual(len(points), 1)
        self.assertEqual(set(points[0]), {"time", "total_value", "cost_total"})
        self.assertEqual((points[0]["total_value"], points[0]["cost_total"]), (8020, 0))
        self.assertRegex(points[0]["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        for window in ("30d", "1y"):
            self.assertEqual(history(user, window).json(), points)
        for bad in ("24h", "1d", "7D", "30d,1y"):
            self.assertProblem(history(user, bad), 400, "invalid_parameter")
        anonymous = self.daemon.get("/api/v1/portfolio/history")
        self.assertProblem(anonymous, 401, "unauthenticated")

    # -- CSV -----------------------------------------------------------------------------
    def test_csv_export(self):
        user = self.imported_user(((ITEM_A, 2), (ITEM_B, 25), (ITEM_C, 1), (ITEM_D, 1)))
        body = user.portfolio().json()
        patch_holding(user, holding(body, ITEM_A)["item_id"],
              {"cost_basis": 3500, "acquired_at": "2025-03-01T12:00:00Z"})
        patch_holding(user, holding(body, ITEM_B)["item_id"], {"cost_basis": 100})
        response = self.daemon.get("/api/v1/portfolio.csv", headers={"Cookie": user.cookie})
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual(response.header("content-type"), "text/csv; charset=utf-8")
        self.assertEqual(response.header("content-disposition"),
                         'attachment; filename="portfolio.csv"')
        self.assertEqual(response.header("cache-control"), "no-store")
        self.assertSecurityHeaders(response)
        text = response.body.decode("utf-8")
        self.assertTrue(text.endswith("\r\n"))
        self.assertNotIn("\n", text.replace("\r\n", ""))  # CRLF only
        rows = list(csv.reader(io.StringIO(text, newline="")))
        self.assertEqual(rows[0], CSV_HEADER)
        by_name = {row[1]: dict(zip(CSV_HEADER, row)) for row in rows[1:]}
        self.assertEqual(set(by_name), {ITEM_A, ITEM_B, ITEM_C, ITEM_D})
        self.assertEqual([r[1] for r in rows[1:]],
                         [h["market_hash_name"] for h in body["holdings"]])  # same order
        ak = by_name[ITEM_A]
        self.assertEqual((ak["quantity"], ak["currency"], ak["current_price"], ak["total_value"]),
                         ("2", "USD", "40.10", "80.20"))
        self.assertEqual((ak["cost_basis"], ak["cost_total"], ak["unrealised_pl"],
                          ak["unrealised_pl_percent"], ak["acquired_at"]),
                         ("35.00", "70.00", "10.20", "14.57", "2025-03-01T12:00:00Z"))
        self.assertEqual(ak["change_24h_percent"], "0.25")
        case = by_name[ITEM_B]
        # A loss stays a plain negative number (no quote, no apostrophe).
        self.assertEqual((case["unrealised_pl"], case["unrealised_pl_percent"]),
                         ("-8.75", "-35.00"))
        self.assertIn(",-8.75,", text)
        awp = by_name[ITEM_D]
        self.assertEqual((awp["cost_basis"], awp["unrealised_pl"], awp["change_24h_percent"],
                          awp["acquired_at"]), ("", "", "", ""))
        self.assertEqual(by_name[ITEM_C]["total_value"], "1500.10")
        self.assertIn(ITEM_C, text)  # UTF-8 "★" as is
        anonymous = self.daemon.get("/api/v1/portfolio.csv")
        self.assertProblem(anonymous, 401, "unauthenticated")

    # -- currency= (docs/api.md §14) ------------------------------------------------------
    def test_portfolio_history_and_csv_in_another_currency(self):
        user = self.imported_user(((ITEM_A, 2),))
        item_id = holding(user.portfolio().json(), ITEM_A)["item_id"]
        self.assertEqual(patch_holding(user, item_id, {"cost_basis": 3500}).status, 200)
        cookie = {"Cookie": user.cookie}

        usd = self.daemon.get("/api/v1/portfolio", headers=cookie).json()
        self.assertNotIn("currency", usd)  # no parameter: the USD body as before
        eur = self.daemon.get("/api/v1/portfolio?currency=eur", headers=cookie)
        self.assertEqual(eur.status, 200, eur.body)
        body = eur.json()
        ak = holding(body, ITEM_A)
        # $40.10 × 0.9 = €36.09; 2 × $35.00 cost → €63.00; P&L $10.20 → €9.18.
        self.assertEqual((body["currency"], ak["currency"]), ("EUR", "EUR"))
        self.assertEqual((ak["current_price"], ak["total_value"], ak["cost_basis"],
                          ak["unrealised_pl"]), (3609, 7218, 3150, 918))
        self.assertEqual((body["total_value"], body["cost_total"]), (7218, 6300))
        self.assertEqual(ak["change_24h_percent"], holding(usd, ITEM_A)["change_24h_percent"])

        jpy = self.daemon.get("/api/v1/portfolio/history?window=7d&currency=JPY", headers=cookie)
        self.assertEqual(jpy.status, 200, jpy.body)
        points = jpy.json()
        self.assertTrue(points)
        self.assertEqual({p["currency"] for p in points}, {"JPY"})
        self.assertIn(12030, [p["total_value"] for p in points])  # $80.20 × 150, yen

        sheet = self.daemon.get("/api/v1/portfolio.csv?currency=JPY", headers=cookie)
        self.assertEqual(sheet.status, 200, sheet.body)
        rows = list(csv.reader(io.StringIO(sheet.body.decode("utf-8"), newline="")))
        row = dict(zip(CSV_HEADER, rows[1]))
        # The yen has no minor unit: whole numbers, no decimals.
        self.assertEqual((row["currency"], row["current_price"], row["total_value"],
                          row["cost_basis"], row["unrealised_pl"]),
                         ("JPY", "6015", "12030", "5250", "1530"))

        for path in ("/api/v1/portfolio?currency=XYZ", "/api/v1/portfolio/history?currency=KWD",
                     "/api/v1/portfolio.csv?currency=EURO"):
            self.assertProblem(self.daemon.get(path, headers=cookie), 400, "invalid_parameter")


class HistoryLifecycleTest(DaemonTestCase):
    """Snapshots by the periodic pass and across a restart."""

    def setUp(self):
        super().setUp()
        self.fake = FakeInventory().start()
        self.daemon = None

    def tearDown(self):
        if self.daemon:
            self.daemon.stop()
        self.fake.stop()
        super().tearDown()

    def test_pass_and_restart_keep_the_history(self):
        ini = "[portfolio]\nsnapshot_interval_seconds = 1\n"
        self.daemon = make_daemon(self.workdir, self.fake, extra_ini=ini)
        backfill(self.daemon, self.workdir, insight_prices(int(time.time())))
        self.daemon.start()
        user = sign_in(self.daemon, platform_id=next_platform_id())
        self.fake.pages(user.platform_id, [[(ITEM_A, 2), (ITEM_B, 4)]])
        self.assertEqual(user.import_().status, 200)
        ak = holding(user.portfolio().json(), ITEM_A)["item_id"]
        self.assertEqual(patch_holding(user, ak, {"cost_basis": 3000}).status, 200)
        first = history(user).json()
        self.assertEqual(len(first), 1)
        # The pass replaces this hour's point with one that has the cost total.
        self.assertTrue(wait_until(lambda: history(user).json()[-1]["cost_total"] == 6000,
                                   timeout=10), history(user).body)
        point = history(user).json()[-1]
        self.assertEqual(point["total_value"], 4010 * 2 + 65 * 4)
        self.assertGreaterEqual(point["time"], first[0]["time"])
        self.assertIn("portfolio: value snapshots of 1 user(s)", self.daemon.stderr())

        self.daemon.stop()
        self.daemon = make_daemon(self.workdir, self.fake, extra_ini=ini).start()
        user.daemon = self.daemon  # a new port; the same session cookie
        # The session survives in the embedded store; the history in the database.
        after = history(user).json()
        self.assertGreaterEqual(len(after), 1)
        self.assertEqual(after[0]["total_value"], 4010 * 2 + 65 * 4)
        self.assertEqual(after[0]["cost_total"], 6000)


if __name__ == "__main__":
    unittest.main()
