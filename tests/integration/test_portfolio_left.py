"""Sold items against the real daemon (docs/api.md §23.4): units that leave an inventory at
an import are kept as departures ("left on <date>") with their last value and cost basis,
a sale price gives the realised P&L, units that come back withdraw unsold departures, and
PATCH/DELETE /api/v1/portfolio/left/:departure_id with their refusals.

Users sign in and import as in test_portfolio.py (portfolio_fixture.py: the scripted
identity plugin, the fake inventory); prices come from its backfill (ITEM_A 40.10, ITEM_B
0.65 now). The class runs on SQLite and again on PostgreSQL (SKINPULSE_TEST_POSTGRES_URL, a
schema of its own).
"""
import json
import unittest

from portfolio_fixture import (ITEM_A, ITEM_B, POSTGRES_URL, POSTGRESQL, PortfolioDaemonTest,
                               holding, patch_holding)


def left_request(user, method, departure_id, body=None, csrf=True, raw=None):
    headers = {"Cookie": user.cookie}
    if csrf:
        headers["X-CSRF-Token"] = user.csrf_token()
    data = None
    if method == "PATCH":
        headers["Content-Type"] = "application/json"
        data = raw if raw is not None else json.dumps(body).encode()
    return user.daemon.request(method, "/api/v1/portfolio/left/%s" % departure_id, body=data,
                               headers=headers)


class LeftTest(PortfolioDaemonTest):
    """One daemon, 1 s import cooldown."""

    import_cooldown_seconds = 1

    def import_stacks(self, user, stacks):
        self.fake.pages(user.platform_id, [list(stacks)])
        self.import_after_cooldown(user)  # the 1 s cooldown of the previous import
        return user.portfolio().json()

    def assertProblem(self, response, status, code):
        self.assertEqual(response.status, status, response.body)
        self.assertEqual(response.header("content-type"), "application/problem+json")
        self.assertEqual(response.json()["code"], code, response.body)

    def test_sold_units_are_kept_with_their_value_and_realised_pl(self):
        user = self.new_user()
        body = self.import_stacks(user, [(ITEM_A, 3), (ITEM_B, 25)])
        self.assertEqual(body["left_holdings"], [])
        self.assertIsNone(body["realised_pl"])
        ak = holding(body, ITEM_A)
        self.assertEqual(patch_holding(user, ak["item_id"], {"cost_basis": 3500}).status, 200)

        # 2 AKs and every case leave: two departures at today's prices, the cost copied.
        body = self.import_stacks(user, [(ITEM_A, 1)])
        self.assertEqual(holding(body, ITEM_A)["quantity"], 1)
        left = {d["market_hash_name"]: d for d in body["left_holdings"]}
        self.assertEqual(set(left), {ITEM_A, ITEM_B})
        gone_ak = left[ITEM_A]
        self.assertEqual((gone_ak["quantity"], gone_ak["last_price"], gone_ak["last_value"]),
                         (2, 4010, 8020))
        self.assertEqual(gone_ak["cost_basis"], 3500)
        self.assertEqual(gone_ak["account"], user.platform_id)
        self.assertIsNone(gone_ak["sale_price"])
        self.assertIsNone(gone_ak["realised_pl"])
        self.assertRegex(gone_ak["left_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertEqual((left[ITEM_B]["quantity"], left[ITEM_B]["last_price"]), (25, 65))
        self.assertIsNone(left[ITEM_B]["cost_basis"])
        self.assertIsNone(body["realised_pl"])

        # The sale price gives the realised P&L, per departure and in total.
        response = left_request(user, "PATCH", gone_ak["departure_id"], {"sale_price": 4500})
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual(response.header("cache-control"), "no-store")
        sold = response.json()
        self.assertEqual(sold["sale_price"], 4500)
        self.assertEqual(sold["realised_pl"], (4500 - 3500) * 2)
        body = user.portfolio().json()
        self.assertEqual(body["realised_pl"], 2000)
        # In another currency (the fixed rates are not configured here: USD only).
        self.assertEqual(user.daemon.get("/api/v1/portfolio?account=" + user.platform_id,
                                         headers={"Cookie": user.cookie}).json()["realised_pl"],
                         2000)

        # The cases were moved to storage, not sold: DELETE; they are gone from the list.
        response = left_request(user, "DELETE", left[ITEM_B]["departure_id"])
        self.assertEqual(response.status, 204, response.body)
        self.assertEqual(response.body, b"")
        self.assertProblem(left_request(user, "DELETE", left[ITEM_B]["departure_id"]), 404,
                           "not_found")
        body = user.portfolio().json()
        self.assertEqual([d["market_hash_name"] for d in body["left_holdings"]], [ITEM_A])

        # null clears the sale price.
        cleared = left_request(user, "PATCH", gone_ak["departure_id"], {"sale_price": None})
        self.assertEqual(cleared.status, 200, cleared.body)
        self.assertIsNone(cleared.json()["realised_pl"])
        self.assertIsNone(user.portfolio().json()["realised_pl"])

    def test_units_that_come_back_withdraw_unsold_departures(self):
        user = self.new_user()
        self.import_stacks(user, [(ITEM_A, 4)])
        body = self.import_stacks(user, [(ITEM_A, 1)])  # 3 leave
        self.assertEqual(body["left_holdings"][0]["quantity"], 3)
        body = self.import_stacks(user, [(ITEM_A, 3)])  # 2 come back: 1 still left
        self.assertEqual([d["quantity"] for d in body["left_holdings"]], [1])
        sold_id = body["left_holdings"][0]["departure_id"]
        self.assertEqual(left_request(user, "PATCH", sold_id, {"sale_price": 4000}).status, 200)
        body = self.import_stacks(user, [(ITEM_A, 4)])  # a sold departure stays
        self.assertEqual([d["departure_id"] for d in body["left_holdings"]], [sold_id])

    def test_refusals(self):
        owner = self.new_user()
        self.import_stacks(owner, [(ITEM_A, 2)])
        body = self.import_stacks(owner, [])
        departure_id = body["left_holdings"][0]["departure_id"]
        stranger = self.new_user()

        # Another user's departure, or none at all: 404; nothing changes.
        self.assertProblem(left_request(stranger, "PATCH", departure_id, {"sale_price": 1}), 404,
                           "not_found")
        self.assertProblem(left_request(stranger, "DELETE", departure_id), 404, "not_found")
        self.assertProblem(left_request(owner, "PATCH", 999999999, {"sale_price": 1}), 404,
                           "not_found")
        self.assertProblem(left_request(owner, "PATCH", "abc", {"sale_price": 1}), 400,
                           "invalid_parameter")
        # Bad bodies: 400 invalid_body.
        for raw in (b"{", b"[]", b'{"sale_price": -1}', b'{"sale_price": 1.5}',
                    b'{"sale_price": "12"}', b'{}', b'{"sale_price": 1, "cost_basis": 2}'):
            self.assertProblem(left_request(owner, "PATCH", departure_id, raw=raw), 400,
                               "invalid_body")
        # No CSRF token, no session.
        self.assertProblem(left_request(owner, "PATCH", departure_id, {"sale_price": 1},
                                        csrf=False), 403, "csrf_failed")
        self.assertProblem(left_request(owner, "DELETE", departure_id, csrf=False), 403,
                           "csrf_failed")
        anonymous = self.daemon.request("DELETE", "/api/v1/portfolio/left/%d" % departure_id)
        self.assertIn(anonymous.status, (401, 403))
        left = owner.portfolio().json()["left_holdings"]
        self.assertEqual(len(left), 1)
        self.assertIsNone(left[0]["sale_price"])

        # ?account= of an account the user has not linked: 404; a bad percent: 400.
        self.assertProblem(owner.daemon.get("/api/v1/portfolio?account=76561197960200000",
                                            headers={"Cookie": owner.cookie}), 404, "not_found")
        for bad in ("101", "-1", "x", "50.5"):
            self.assertProblem(owner.daemon.get("/api/v1/portfolio?applied_value_percent=" + bad,
                                                headers={"Cookie": owner.cookie}), 400,
                               "invalid_parameter")


@unittest.skipUnless(POSTGRES_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class LeftPostgresTest(LeftTest):
    """The same on PostgreSQL."""

    store = POSTGRESQL


if __name__ == "__main__":
    unittest.main()
