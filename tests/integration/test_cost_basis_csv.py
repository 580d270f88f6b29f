"""Cost bases in bulk against the real daemon (docs/api.md §23.3): POST
/api/v1/portfolio/cost-basis.csv previews (dry run, nothing written), applies the matched
rows in one go, refuses bad rows with their codes and bad files whole, takes up to 1 MiB
(more than the server's 64 KiB cap of every other body) and not a byte more, needs the
session and the CSRF token, and reads back the portfolio.csv export unchanged.

Users sign in and import as in test_portfolio.py (portfolio_fixture.py: the scripted
identity plugin, the fake inventory); the daemon, its prices and the fixed EUR/JPY rates are
test_portfolio_insight.py's. The whole class runs on SQLite and again on PostgreSQL
(SKINPULSE_TEST_POSTGRES_URL, a schema of its own), so the one-transaction apply is held on
both stores.
"""
import csv
import io
import json
import socket
import unittest

from portfolio_fixture import (ITEM_A, ITEM_B, ITEM_C, POSTGRES_URL, POSTGRESQL,
                               PortfolioDaemonTest, holding, patch_holding)
from test_portfolio_insight import ITEM_D, BuiltPluginsDaemonTest

PATH = "/api/v1/portfolio/cost-basis.csv"
HEADER = "market_hash_name,quantity,cost_each,currency,acquired_at\r\n"
MIB = 1024 * 1024


def upload(user, text, dry_run=None, csrf=True, cookie=True):
    headers = {"Content-Type": "text/csv; charset=utf-8"}
    if cookie:
        headers["Cookie"] = user.cookie
    if csrf:
        headers["X-CSRF-Token"] = user.csrf_token()
    if isinstance(dry_run, bool):
        dry_run = "true" if dry_run else "false"
    path = PATH + ("" if dry_run is None else "?dry_run=" + dry_run)
    body = text.encode("utf-8") if isinstance(text, str) else text
    return user.daemon.request("POST", path, body=body, headers=headers)


def costs(user):
    """market_hash_name → (cost_basis, acquired_at) of the user's holdings."""
    body = user.portfolio().json()
    return {h["market_hash_name"]: (h["cost_basis"], h["acquired_at"]) for h in body["holdings"]}


class CostBasisCsvTest(BuiltPluginsDaemonTest):
    """One daemon on SQLite, 1 s import cooldown, EUR 0.9 and JPY 150 per USD."""

    # Every refusal here is checked as the portfolio routes give it (no-store).
    assertProblem = PortfolioDaemonTest.assertNoStoreProblem

    MIXED = (HEADER +
             ITEM_A + ",1,30.00,USD,2025-03-01\r\n" +
             ITEM_A + ",1,36.00,eur,2025-04-01T10:00:00+02:00\r\n" +
             ITEM_B + ",30,0.50,,\r\n" +                   # 30 of 25 held
             "Not A Real Item | Anywhere,1,1.00,,\r\n" +
             ITEM_C + ",1,1000,,\r\n" +                    # a real item, not held
             ITEM_D + ",1,3000,JPY,2025-13-01\r\n" +       # a month that is not
             ITEM_D + ",1,12.345,,\r\n" +                  # three decimals of USD
             ITEM_D + ",1,1.00,ZZZ,\r\n")

    def test_dry_run_previews_every_row_and_writes_nothing(self):
        user = self.imported_user()
        before = costs(user)
        response = upload(user, self.MIXED, dry_run=True)
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual(response.header("content-type"), "application/json; charset=utf-8")
        self.assertEqual(response.header("cache-control"), "no-store")
        body = response.json()
        self.assertTrue(body["dry_run"])
        self.assertEqual([(r["line"], r["status"], r["code"]) for r in body["rows"]], [
            (2, "matched", None), (3, "matched", None),
            (4, "refused", "quantity_exceeds_holding"), (5, "refused", "unknown_item"),
            (6, "refused", "not_held"), (7, "refused", "invalid_date"),
            (8, "refused", "invalid_cost"), (9, "refused", "unknown_currency")])
        self.assertEqual((body["matched_rows"], body["refused_rows"]), (2, 6))
        euro = body["rows"][1]
        self.assertEqual((euro["cost_each"], euro["currency"], euro["acquired_at"]),
                         (3600, "EUR", "2025-04-01T08:00:00Z"))
        self.assertIsNone(body["rows"][3]["item_id"])
        self.assertIsInstance(body["rows"][4]["item_id"], int)
        for row in body["rows"][2:]:
            self.assertTrue(row["detail"], row)
        # 30.00 USD and 36.00 EUR (= 40.00 USD at 0.9): 35.00 each, the earliest date.
        self.assertEqual(body["items"], [{
            "item_id": holding(user.portfolio().json(), ITEM_A)["item_id"],
            "market_hash_name": ITEM_A, "quantity": 2, "cost_basis": 3500,
            "acquired_at": "2025-03-01T00:00:00Z", "previous_cost_basis": None}])
        self.assertEqual(costs(user), before)

    def test_apply_writes_the_matched_rows_and_skips_the_refused(self):
        user = self.imported_user()
        response = upload(user, self.MIXED)
        self.assertEqual(response.status, 200, response.body)
        body = response.json()
        self.assertFalse(body["dry_run"])
        self.assertEqual((body["matched_rows"], body["refused_rows"]), (2, 6))
        after = costs(user)
        self.assertEqual(after[ITEM_A], (3500, "2025-03-01T00:00:00Z"))
        self.assertEqual(after[ITEM_B], (None, None))
        self.assertEqual(after[ITEM_D], (None, None))
        self.assertEqual(user.portfolio().json()["cost_total"], 3500 * 2)
        # A second file shows what it replaces; an empty date keeps the stored one.
        again = upload(user, HEADER + ITEM_A + ",2,41.00,,\r\n", dry_run=False)
        self.assertEqual(again.status, 200, again.body)
        self.assertEqual(again.json()["items"][0]["previous_cost_basis"], 3500)
        self.assertEqual(costs(user)[ITEM_A], (4100, "2025-03-01T00:00:00Z"))

    def test_a_file_with_no_matched_row_applies_nothing(self):
        user = self.imported_user()
        text = HEADER + ITEM_C + ",1,1.00,,\r\nNope,1,1.00,,\r\n"
        problem = self.assertProblem(upload(user, text), 422, "csv_nothing_to_apply")
        self.assertIn("dry_run", problem["detail"])
        preview = upload(user, text, dry_run=True)
        self.assertEqual(preview.status, 200, preview.body)
        self.assertEqual(preview.json()["refused_rows"], 2)
        self.assertEqual(set(costs(user).values()), {(None, None)})
        # A header alone has nothing to apply either.
        self.assertProblem(upload(user, HEADER), 422, "csv_nothing_to_apply")

    def test_malformed_files_are_refused_whole_with_their_line(self):
        user = self.imported_user()
        cases = [
            (HEADER + ITEM_A + ",1,1.00,,\r\n12\" Knife,1,1,,\r\n", "line 3: a quote inside"),
            (HEADER + "\"" + ITEM_A + ",1,1.00,,\r\n", "line 2: a quoted field that never ends"),
            (HEADER + ITEM_A + ",1,1.00\r\n", "line 2: 3 fields where the header has 5"),
            ("quantity,cost_each\r\n1,1\r\n", "line 1: the header has no market_hash_name"),
            ("", "line 1: no header row"),
            ((HEADER + ITEM_A + ",1,1.00,,\r\nM\xe4rz,1,1,,\r\n").encode("latin-1"),
             "line 3: not UTF-8"),
            (HEADER + (ITEM_A + ",1,1.00,,\r\n") * 10_001, "line 10002: more than 10000 rows"),
        ]
        for text, detail in cases:
            for dry_run in (True, None):
                problem = self.assertProblem(upload(user, text, dry_run=dry_run), 400,
                                             "invalid_csv")
                self.assertTrue(problem["detail"].startswith(detail), problem["detail"])
        self.assertEqual(set(costs(user).values()), {(None, None)})
        self.assertProblem(upload(user, HEADER, dry_run="maybe"), 400, "invalid_parameter")

    def test_up_to_one_mebibyte(self):
        user = self.imported_user()
        # 9,000 rows with a long notes column: ~0.95 MiB, far over the server's 64 KiB cap
        # of every other body, under this route's 1 MiB.
        notes = "n" * 90
        text = "market_hash_name,quantity,cost_each,notes\r\n" + "".join(
            "Nope %04d,1,1.00,%s\r\n" % (i, notes) for i in range(9000))
        self.assertGreater(len(text), 900 * 1024)
        self.assertLess(len(text), MIB)
        response = upload(user, text, dry_run=True)
        self.assertEqual(response.status, 200, response.body[:300])
        self.assertEqual(response.json()["refused_rows"], 9000)
        # One byte over: 413 from the announced length, before a byte of the body is read
        # (a raw request: a client still sending the body would see the connection close).
        self.assertProblem(self.raw_post(user, MIB + 1), 413, "payload_too_large")
        # The other routes keep the server's cap.
        self.assertEqual(patch_holding(user, 1, None, raw=b"x" * (64 * 1024 + 1)).status, 413)

    def raw_post(self, user, length):
        """A POST whose head announces `length` bytes and sends none: the refusal must not
        wait for them."""
        head = ("POST %s?dry_run=true HTTP/1.1\r\nHost: a\r\nCookie: %s\r\nX-CSRF-Token: %s\r\n"
                "Content-Type: text/csv\r\nContent-Length: %d\r\n\r\n"
                % (PATH, user.cookie, user.csrf_token(), length)).encode()
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(head)
            received = b""
            while b"\r\n\r\n" not in received or not received.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        head_text, _, body = received.partition(b"\r\n\r\n")
        lines = head_text.decode().split("\r\n")
        status = int(lines[0].split()[1])
        headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:]]

        class Raw:
            def __init__(self):
                self.status = status
                self.body = body
                self.headers = {k.lower(): v for k, v in headers}

            def header(self, name):
                return self.headers.get(name.lower())

            def json(self):
                return json.loads(self.body)

        return Raw()

    def test_needs_the_session_and_the_csrf_token(self):
        user = self.imported_user()
        text = HEADER + ITEM_A + ",1,1.00,,\r\n"
        self.assertProblem(upload(user, text, csrf=False), 403, "csrf_failed")
        self.assertProblem(upload(user, text, cookie=False, csrf=False), 401, "unauthenticated")
        self.assertEqual(costs(user)[ITEM_A], (None, None))
        self.assertEqual(self.daemon.request("GET", PATH, headers={"Cookie": user.cookie}).status,
                         405)

    def test_the_export_reads_back_to_the_same_cost_bases(self):
        user = self.imported_user()
        items = {h["market_hash_name"]: h["item_id"] for h in user.portfolio().json()["holdings"]}
        self.assertEqual(patch_holding(user, items[ITEM_A], {"cost_basis": 3517,
                                                     "acquired_at": "2025-03-01T12:00:00Z"}).status,
                         200)
        self.assertEqual(patch_holding(user, items[ITEM_B], {"cost_basis": 7}).status, 200)
        wanted = costs(user)
        for currency in ("", "?currency=EUR", "?currency=JPY"):
            export = self.daemon.get("/api/v1/portfolio.csv" + currency,
                                     headers={"Cookie": user.cookie})
            self.assertEqual(export.status, 200, export.body)
            # Costs changed in between: the upload must bring the exported ones back.
            self.assertEqual(patch_holding(user, items[ITEM_A], {"cost_basis": 1}).status, 200)
            self.assertEqual(patch_holding(user, items[ITEM_B], {"cost_basis": 2}).status, 200)
            response = upload(user, export.body)
            self.assertEqual(response.status, 200, response.body)
            body = response.json()
            by_name = {r["market_hash_name"]: r for r in body["rows"]}
            self.assertEqual(by_name[ITEM_A]["status"], "matched", currency)
            self.assertEqual(by_name[ITEM_B]["status"], "matched", currency)
            # The AWP has no cost basis: its export row has an empty cost, refused.
            self.assertEqual(by_name[ITEM_D]["code"], "invalid_cost")
            self.assertEqual(costs(user), wanted, currency)
        # The export's columns, read by name, are all there.
        rows = list(csv.DictReader(io.StringIO(export.body.decode())))
        self.assertTrue({"item_id", "market_hash_name", "quantity", "cost_basis", "currency",
                         "acquired_at"} <= set(rows[0]))


@unittest.skipUnless(POSTGRES_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class CostBasisCsvPostgresTest(CostBasisCsvTest):
    """The same on PostgreSQL."""

    store = POSTGRESQL


if __name__ == "__main__":
    unittest.main()
