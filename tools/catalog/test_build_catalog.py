"""Tests for build_catalog.py.

Run from the repository root:  python3 -m unittest discover -s tools/catalog
The data-backed tests read the upstream datasets in $SKINPULSE_SHARED_DATA (see
README.md) and are skipped without them.
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build_catalog as bc  # noqa: E402

DATA_DIR = os.environ.get("SKINPULSE_SHARED_DATA", bc.DEFAULT_DATA)
HAVE_DATA = os.path.isfile(os.path.join(DATA_DIR, "bymykel_price_tracker", "latest.json"))


class ParseNameTest(unittest.TestCase):
    """Pure parser, no data files."""

    def test_star_stattrak_knife_with_wear(self):
        p = bc.parse_name("★ StatTrak™ Karambit | Doppler (Factory New)")
        self.assertEqual(p["kind"], "weapon")
        self.assertTrue(p["star"])
        self.assertTrue(p["stattrak"])
        self.assertFalse(p["souvenir"])
        self.assertEqual(p["weapon"], "Karambit")
        self.assertEqual(p["item_class"], "Karambit")
        self.assertEqual(p["finish"], "Doppler")
        self.assertEqual(p["exterior"], "Factory New")
        self.assertEqual(p["skin_name"], "Doppler")

    def test_vanilla_knife(self):
        for name, st in (("★ Karambit", False), ("★ StatTrak™ Bayonet", True)):
            p = bc.parse_name(name)
            self.assertEqual(p["kind"], "weapon", name)
            self.assertTrue(p["vanilla"])
            self.assertEqual(p["stattrak"], st)
            self.assertIsNone(p["finish"])
            self.assertIsNone(p["exterior"])
            self.assertEqual(p["skin_name"], "Vanilla")
        self.assertEqual(bc.parse_name("★ Karambit")["weapon"], "Karambit")
        self.assertEqual(bc.parse_name("★ StatTrak™ Bayonet")["weapon"], "Bayonet")

    def test_gloves(self):
        p = bc.parse_name("★ Sport Gloves | Nocts (Minimal Wear)")
        self.assertEqual((p["weapon"], p["finish"], p["exterior"]), ("Sport Gloves", "Nocts", "Minimal Wear"))
        self.assertFalse(p["stattrak"])
        p = bc.parse_name("★ Hand Wraps | Slaughter (Field-Tested)")
        self.assertEqual((p["item_class"], p["skin_name"]), ("Hand Wraps", "Slaughter"))

    def test_souvenir_skin(self):
        p = bc.parse_name("Souvenir AWP | Dragon Lore (Factory New)")
        self.assertTrue(p["souvenir"])
        self.assertFalse(p["stattrak"])
        self.assertEqual((p["weapon"], p["finish"], p["exterior"]), ("AWP", "Dragon Lore", "Factory New"))

    def test_plain_and_stattrak_skin(self):
        p = bc.parse_name("AK-47 | Redline (Field-Tested)")
        self.assertEqual((p["item_class"], p["skin_name"], p["exterior"]), ("AK-47", "Redline", "Field-Tested"))
        p = bc.parse_name("StatTrak™ Desert Eagle | Blaze (Factory New)")
        self.assertTrue(p["stattrak"])
        self.assertEqual((p["item_class"], p["skin_name"]), ("Desert Eagle", "Blaze"))

    def test_unknown_weapon_with_exterior_still_a_weapon(self):
        p = bc.parse_name("Zeus x27 | Olympus (Minimal Wear)", weapons=frozenset())
        self.assertEqual((p["kind"], p["weapon"], p["finish"]), ("weapon", "Zeus x27", "Olympus"))

    def test_cjk_finish(self):
        p = bc.parse_name("StatTrak™ M4A4 | 龍王 (Dragon King) (Field-Tested)")
        self.assertEqual(p["weapon"], "M4A4")
        self.assertEqual(p["finish"], "龍王 (Dragon King)")   # inner parentheses kept
        self.assertEqual(p["exterior"], "Field-Tested")
        p = bc.parse_name("Desert Eagle | Sunset Storm 壱 (Factory New)")
        self.assertEqual(p["skin_name"], "Sunset Storm 壱")

    def test_sticker_two_separators(self):
        p = bc.parse_name("Sticker | 00 Nation (Holo) | Rio 2022")
        self.assertEqual(p["item_class"], "Sticker")
        self.assertEqual(p["skin_name"], "00 Nation (Holo) | Rio 2022")
        # double space before the second separator is kept verbatim
        p = bc.parse_name("Sticker | niko  | Paris 2023")
        self.assertEqual(p["skin_name"], "niko  | Paris 2023")

    def test_sticker_slab_and_souvenir_charm(self):
        p = bc.parse_name("Sticker Slab | 00 Nation (Holo) | Rio 2022")
        self.assertEqual((p["item_class"], p["skin_name"]), ("Charm", "00 Nation (Holo) | Rio 2022"))
        p = bc.parse_name("Souvenir Charm | Austin 2025 Highlight | 1 Bullet")
        self.assertTrue(p["souvenir"])
        self.assertEqual((p["item_class"], p["skin_name"]), ("Charm", "Austin 2025 Highlight | 1 Bullet"))

    def test_charm_patch_graffiti(self):
        self.assertEqual(bc.parse_name("Charm | Baby Karat CT")["item_class"], "Charm")
        p = bc.parse_name("Patch | Howl")
        self.assertEqual((p["item_class"], p["skin_name"]), ("Patch", "Howl"))
        p = bc.parse_name("Sealed Graffiti | 1G (Battle Green)")
        self.assertEqual((p["item_class"], p["skin_name"]), ("Graffiti", "1G (Battle Green)"))

    def test_music_kit(self):
        p = bc.parse_name("StatTrak™ Music Kit | Perfect World, 花脸 Hua Lian (Painted Face)")
        self.assertTrue(p["stattrak"])
        self.assertEqual(p["item_class"], "Music Kit")
        self.assertEqual(p["skin_name"], "Perfect World, 花脸 Hua Lian (Painted Face)")
        p = bc.parse_name("Music Kit | 3kliksphilip, Heading for the Source")
        self.assertFalse(p["stattrak"])
        self.assertEqual(p["skin_name"], "3kliksphilip, Heading for the Source")
        # truncated name that really occurs in latest.json
        p = bc.parse_name("Music Kit |")
        self.assertEqual((p["item_class"], p["skin_name"]), ("Music Kit", ""))

    def test_agent(self):
        p = bc.parse_name("'Medium Rare' Crasswater | Guerrilla Warfare")
        self.assertEqual((p["kind"], p["item_class"], p["skin_name"]), ("agent", "Agent", "Guerrilla Warfare"))
        p = bc.parse_name("Ground Rebel  | Elite Crew", agent_factions=frozenset({"Elite Crew"}))
        self.assertEqual(p["item_class"], "Agent")

    def test_containers(self):
        for name in ("Dreams & Nightmares Case", "Recoil Case", "CS:GO Weapon Case 3",
                     "#CSGO_crate_musickit_masterminds2_capsule",
                     "#CSGO_crate_musickit_masterminds2_stattrak_capsule",
                     "Collectible Pins Capsule Series 2", "Community Capsule 2018",
                     "Austin 2025 Mirage Souvenir Highlight Package", "ESL One Cologne 2014 Legends",
                     "Katowice 2019 Legends (Holo-Foil)", "2020 RMR Challengers",
                     "StatTrak™ Masterminds Music Kit Box", "Stockholm 2021 Legends Patch Pack",
                     "Sealed Genesis Terminal", "Autograph Capsule | Astralis | Atlanta 2017"):
            self.assertEqual(bc.parse_name(name)["item_class"], "Container", name)
        p = bc.parse_name("Dreams & Nightmares Case")
        self.assertEqual(p["skin_name"], "Dreams & Nightmares Case")
        self.assertFalse(bc.parse_name("#CSGO_crate_musickit_masterminds2_stattrak_capsule")["stattrak"])

    def test_other_classes(self):
        cases = {
            "Dreams & Nightmares Case Key": "Key", "CS:GO Case Key": "Key", "eSports Key": "Key",
            "Community Sticker Capsule 1 Key": "Key",
            "Operation Riptide Premium Pass": "Pass",
            "Paris 2023 Viewer Pass + 3 Souvenir Tokens": "Pass",
            "Sustenance! Pin": "Collectible", "Howl Pin": "Collectible",
            "Name Tag": "Tool", "StatTrak™ Swap Tool": "Tool", "Gift Package": "Tool",
        }
        for name, cls in cases.items():
            self.assertEqual(bc.parse_name(name)["item_class"], cls, name)


@unittest.skipUnless(HAVE_DATA, "shared data not found at %s" % DATA_DIR)
class BuildFromDataTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.ref = bc.Reference(DATA_DIR)
        with open(os.path.join(DATA_DIR, "bymykel_price_tracker", "latest.json"), encoding="utf-8") as fh:
            cls.latest = json.load(fh)["prices"]
        with open(os.path.join(DATA_DIR, "derived", "catalog_skins.json"), encoding="utf-8") as fh:
            cls.catalog = json.load(fh)

    def rec(self, name):
        return bc.build_record(name, self.ref)

    def test_record_keys_and_order(self):
        r = self.rec("AK-47 | Redline (Field-Tested)")
        self.assertEqual(list(r), ["market_hash_name", "weapon_type", "skin_name", "rarity", "stattrak", "image_url"])
        self.assertEqual((r["weapon_type"], r["skin_name"], r["rarity"], r["stattrak"]),
                         ("AK-47", "Redline", "Classified", False))
        self.assertTrue(r["image_url"].startswith("https://"))

    def test_weapon_skins_rarity_and_image_from_catalog(self):
        checked = 0
        for s in self.catalog["weapon_skins"]:
            for mhn in s["market_hash_names"]:
                if mhn not in self.latest:
                    continue
                r = self.rec(mhn)
                self.assertEqual(r["weapon_type"], s["weapon"], mhn)
                self.assertEqual(r["skin_name"], s["pattern"], mhn)
                self.assertEqual(r["rarity"], s["rarity"], mhn)
                self.assertEqual(r["image_url"], s["image"], mhn)
                self.assertEqual(r["stattrak"], mhn.startswith("StatTrak™ "), mhn)
                checked += 1
        self.assertGreater(checked, 10000)

    def test_star_items_rarity(self):
        for s in self.catalog["star_items"]:
            for mhn in s["market_hash_names"]:
                r = self.rec(mhn)
                self.assertEqual(r["weapon_type"], s["weapon"], mhn)
                self.assertEqual(r["rarity"], s["rarity_assumed"], mhn)
                self.assertEqual(r["skin_name"], s["pattern"] or "Vanilla", mhn)
                self.assertEqual(r["stattrak"], "StatTrak™" in mhn, mhn)

    def test_enriched_non_weapons(self):
        r = self.rec("'Medium Rare' Crasswater | Guerrilla Warfare")
        self.assertEqual((r["weapon_type"], r["skin_name"]), ("Agent", "Guerrilla Warfare"))
        self.assertIn(r["rarity"], ("Distinguished", "Exceptional", "Superior", "Master"))
        self.assertTrue(r["image_url"])
        r = self.rec("Charm | Baby Karat CT")
        self.assertEqual(r["weapon_type"], "Charm")
        self.assertTrue(r["rarity"] and r["image_url"])
        r = self.rec("★ Karambit")
        self.assertEqual((r["weapon_type"], r["skin_name"], r["rarity"]), ("Karambit", "Vanilla", "Covert"))
        self.assertTrue(r["image_url"])
        r = self.rec("StatTrak™ Music Kit | Noisia, Sharpened")
        self.assertEqual((r["weapon_type"], r["stattrak"], r["rarity"]), ("Music Kit", True, "High Grade"))
        r = self.rec("Dreams & Nightmares Case")
        self.assertEqual((r["weapon_type"], r["skin_name"], r["rarity"]),
                         ("Container", "Dreams & Nightmares Case", "Base Grade"))
        r = self.rec("#CSGO_crate_musickit_masterminds2_stattrak_capsule")
        self.assertEqual((r["weapon_type"], r["rarity"]), ("Container", "Base Grade"))
        r = self.rec("Sealed Graffiti | 1G (Battle Green)")
        self.assertEqual((r["weapon_type"], r["rarity"]), ("Graffiti", "Base Grade"))

    def test_every_name_classified_and_output_deterministic(self):
        records = bc.build(DATA_DIR)
        self.assertEqual(len(records), len(self.latest))
        names = [r["market_hash_name"] for r in records]
        self.assertEqual(names, sorted(self.latest))
        self.assertEqual(set(names), set(self.latest))
        allowed = {"Container", "Sticker", "Agent", "Charm", "Patch", "Graffiti", "Music Kit",
                   "Key", "Pass", "Collectible", "Tool", "Other"} | self.ref.weapons
        for r in records:
            self.assertIn(r["weapon_type"], allowed, r["market_hash_name"])
            self.assertEqual(r["stattrak"], "StatTrak™" in r["market_hash_name"])
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.jsonl"), os.path.join(d, "b.jsonl")
            bc.write_jsonl(records, a)
            bc.write_jsonl(bc.build(DATA_DIR), b)
            with open(a, "rb") as fa, open(b, "rb") as fb:
                da, db = fa.read(), fb.read()
            self.assertEqual(da, db)
            self.assertIn("★ StatTrak™".encode("utf-8"), da)     # not ASCII-escaped
            self.assertNotIn(b"\\u2605", da)
            first = da.split(b"\n", 1)[0].decode("utf-8")
            self.assertEqual(json.loads(first)["market_hash_name"], names[0])


class StickerFinishRarityTest(unittest.TestCase):
    def test_finish_decides(self):
        f = bc.sticker_rarity_from_finish
        self.assertEqual(f("Sticker | 00 Nation (Holo) | Rio 2022"), "Remarkable")
        self.assertEqual(f("Sticker | s1mple (Gold) | Paris 2023"), "Extraordinary")
        self.assertEqual(f("Sticker | Team Liquid (Foil) | Katowice 2019"), "Exotic")
        self.assertEqual(f("Sticker | Team Liquid | Katowice 2019"), "High Grade")
        self.assertEqual(f("Sticker Slab | ENCE (Glitter) | Antwerp 2022"), "Remarkable")
        self.assertEqual(f("Recoil Case"), "")


if __name__ == "__main__":
    unittest.main()
