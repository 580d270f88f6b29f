"""Applied stickers and charms against the real daemon (docs/api.md §23.1): an inventory page
whose assets carry a sticker block and a charm block is imported with them shown and
valued; identical assets stay one holding, assets that differ in what is applied are apart;
the totals count `applied_value_percent` of the applied value (0 by default), per request
with `?applied_value_percent=`; the CSV carries the new columns; a stickered item that
leaves keeps its applied list among the departures.

The page is built here in the platform's own shape (docs/upstreams.md §d: the description's
`sticker_info` / `keychain_info` html entries, each picture titled "Sticker: <name>", a
stickered asset with its own instanceid; see tests/fixtures/ for real captured samples) and
served through the fake inventory's page scenario. The daemon, the sign-in and the prices
are portfolio_fixture.py's; the class runs on SQLite and again on PostgreSQL
(SKINPULSE_TEST_POSTGRES_URL, a schema of its own).
"""
import csv
import io
import unittest

from portfolio_fixture import (ITEM_A, ITEM_B, POSTGRES_URL, POSTGRESQL, PortfolioDaemonTest,
                               standard_prices, two_points)

STICKER = "Sticker | Natus Vincere | Paris 2023"
CHARM = "Charm | Baby Karat CT"
UNKNOWN_STICKER = "Sticker | Nobody | Nowhere 2099"  # not in the catalogue

_STYLE = ("border: 2px solid rgb(102, 102, 102); border-radius: 6px; width=100; margin:4px; "
          "padding:8px;")


def block(block_id, names):
    """One description entry as the platform renders it: a titled picture per applied item,
    then the caption "Sticker: A, B"."""
    prefix = names[0].split(" | ", 1)[0]
    pictures = "".join(
        '<img width=64 height=48 src="https://cdn.steamstatic.com/apps/730/icons/econ/%s/x.png" '
        'title="%s: %s">' % ("keychains" if block_id == "keychain_info" else "stickers", prefix,
                             name.split(" | ", 1)[1]) for name in names)
    caption = "%s: %s" % (prefix, ", ".join(name.split(" | ", 1)[1] for name in names))
    return {"type": "html", "name": block_id,
            "value": '<br><div id="%s" class="%s" style="%s"><center>%s<br>%s</center></div>'
                     % (block_id, block_id, _STYLE, pictures, caption)}


def page(stacks):
    """One last page of (name, amount, stickers, charms) stacks; a stack with something
    applied gets its own (classid, instanceid), as on the platform."""
    assets, descriptions = [], []
    for index, (name, amount, stickers, charms) in enumerate(stacks):
        classid = str(310000 + index)
        instanceid = str(480000 + index) if stickers or charms else "0"
        assets.append({"appid": 730, "contextid": "2", "assetid": str(41000 + index),
                       "classid": classid, "instanceid": instanceid, "amount": str(amount)})
        entries = [{"type": "html", "value": "Exterior: Field-Tested", "name": "exterior_wear"}]
        if stickers:
            entries.append(block("sticker_info", stickers))
        if charms:
            entries.append(block("keychain_info", charms))
        descriptions.append({
            "appid": 730, "classid": classid, "instanceid": instanceid, "currency": 0,
            "background_color": "", "icon_url": "-9a81dlWLwJ2UUGcVs_nsVtzdOEdtWwKGZZLQHTxDZ7I",
            "descriptions": entries, "tradable": 1, "name": name, "name_color": "D2D2D2",
            "type": "Classified Rifle", "market_name": name, "market_hash_name": name,
            "commodity": 0, "marketable": 1, "tags": []})
    return {"assets": assets, "descriptions": descriptions,
            "total_inventory_count": len(assets), "success": 1, "rwgrsn": -2}


def serve(fake, platform_id, stacks):
    fake._set(platform_id, ("pages", ([page(stacks)], 0.0)))


CRAFTED = (ITEM_A, 1, [STICKER, STICKER, UNKNOWN_STICKER], [CHARM])


class AppliedTest(PortfolioDaemonTest):
    """One daemon, 1 s import cooldown; the sticker and the charm have prices (130, 310)."""

    import_cooldown_seconds = 1

    @staticmethod
    def prices(now):
        return standard_prices(now) + two_points(now, ((STICKER, 120), (CHARM, 300)))

    def imported(self, stacks, user=None):
        user = user or self.new_user()
        serve(self.fake, user.platform_id, stacks)
        self.import_after_cooldown(user)
        return user

    def get(self, user, path):
        response = user.daemon.get(path, headers={"Cookie": user.cookie})
        self.assertEqual(response.status, 200, response.body)
        return response

    def requireAppliedBlock(self, body):
        self.assertTrue(any(h["applied"] for h in body["holdings"]),
                        "the import kept no applied item (the sticker and charm blocks)")

    def test_applied_items_are_shown_valued_and_kept_apart(self):
        user = self.imported([(ITEM_A, 2, [], []), CRAFTED, (ITEM_B, 3, [], [])])
        body = self.get(user, "/api/v1/portfolio").json()
        self.requireAppliedBlock(body)
        aks = [h for h in body["holdings"] if h["market_hash_name"] == ITEM_A]
        self.assertEqual(len(aks), 2)
        plain = next(h for h in aks if not h["applied"])
        crafted = next(h for h in aks if h["applied"])
        self.assertEqual((plain["quantity"], plain["applied_value"]), (2, 0))
        self.assertEqual(crafted["quantity"], 1)
        self.assertNotEqual(plain["holding_id"], crafted["holding_id"])
        self.assertEqual(crafted["account"], user.platform_id)
        applied = [(a["kind"], a["slot"], a["name"], a["item_id"] is not None, a["current_price"])
                   for a in crafted["applied"]]
        self.assertEqual(applied, [("sticker", 0, STICKER, True, 130),
                                   ("sticker", 1, STICKER, True, 130),
                                   ("sticker", 2, UNKNOWN_STICKER, False, None),
                                   ("charm", 0, CHARM, True, 310)])
        self.assertEqual(crafted["applied_value"], 130 + 130 + 310)
        # 0 % by default: the totals are what they were without stickers.
        self.assertEqual(crafted["total_value"], 4010)
        self.assertEqual(body["applied_value"], 570)
        self.assertEqual(body["applied_value_percent"], 0)
        self.assertEqual(body["total_value"], 3 * 4010 + 3 * 65)
        self.assertEqual(body["item_count"], 3)

        # The user's own percentage, for this answer.
        half = self.get(user, "/api/v1/portfolio?applied_value_percent=50").json()
        self.assertEqual(half["applied_value_percent"], 50)
        crafted_half = next(h for h in half["holdings"] if h["applied"])
        self.assertEqual(crafted_half["total_value"], 4010 + 285)
        self.assertEqual(half["total_value"], 3 * 4010 + 3 * 65 + 285)
        self.assertEqual(half["accounts"][0]["total_value"], half["total_value"])

        # The CSV's new columns, last.
        text = self.get(user, "/api/v1/portfolio.csv").body.decode("utf-8")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        self.assertEqual(rows[0][-4:], ["account", "variant", "applied", "applied_value"])
        row = next(dict(zip(rows[0], r)) for r in rows[1:] if r[-2])
        self.assertEqual(row["applied"], "; ".join([STICKER, STICKER, UNKNOWN_STICKER, CHARM]))
        self.assertEqual((row["applied_value"], row["account"]), ("5.70", user.platform_id))

        # The crafted AK leaves: its departure keeps what was applied.
        self.imported([(ITEM_A, 2, [], []), (ITEM_B, 3, [], [])], user)
        body = self.get(user, "/api/v1/portfolio").json()
        self.assertEqual([h["applied"] for h in body["holdings"]], [[], []])
        left = body["left_holdings"]
        self.assertEqual(len(left), 1)
        self.assertEqual([a["name"] for a in left[0]["applied"]],
                         [STICKER, STICKER, UNKNOWN_STICKER, CHARM])
        self.assertEqual((left[0]["quantity"], left[0]["last_price"]), (1, 4010))

    def test_identical_crafted_assets_stay_one_holding(self):
        twin = (ITEM_A, 1, [STICKER], [])
        other = (ITEM_A, 1, [STICKER, STICKER], [])
        user = self.imported([twin, twin, other])
        body = self.get(user, "/api/v1/portfolio").json()
        self.requireAppliedBlock(body)
        counts = sorted((len(h["applied"]), h["quantity"]) for h in body["holdings"])
        self.assertEqual(counts, [(1, 2), (2, 1)])


@unittest.skipUnless(POSTGRES_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class AppliedPostgresTest(AppliedTest):
    """The same on PostgreSQL."""

    store = POSTGRESQL


if __name__ == "__main__":
    unittest.main()
