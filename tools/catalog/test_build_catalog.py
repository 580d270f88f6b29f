"""Tests for build_catalog.py.

Run from the repository root:  python3 -m unittest discover -s tools/catalog
The data-backed tests read the upstream datasets in $SKINPULSE_SHARED_DATA (see
README.md) and are skipped without them; the tests of the shipped catalogue
(share/catalog/items.jsonl) need no data set.
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build_catalog as bc  # noqa: E402
import name_sources  # noqa: E402
import variants  # noqa: E402

DATA_DIR = os.environ.get("SKINPULSE_SHARED_DATA", bc.DEFAULT_DATA)
HAVE_DATA = os.path.isfile(os.path.join(DATA_DIR, "bymykel_price_tracker", "latest.json"))
SHIPPED = bc.DEFAULT_OUT


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
        cls.mapper = {}
        for market in ("buff", "uuyp"):
            path = os.path.join(DATA_DIR, "steamtradingsite_id_mapper", market + "_730.json")
            with open(path, encoding="utf-8") as fh:
                cls.mapper[market] = json.load(fh)
        cls.records, cls.report = bc.build_catalogue(DATA_DIR)

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
        r = self.rec("Sealed Graffiti | 1G (Battle Green)")
        self.assertEqual((r["weapon_type"], r["rarity"]), ("Graffiti", "Base Grade"))

    def test_dearest_skins_get_rarity_and_image(self):
        for name in ("AWP | Dragon Lore (Factory New)", "AWP | Gungnir (Well-Worn)",
                     "AK-47 | Wild Lotus (Minimal Wear)", "AWP | Medusa (Battle-Scarred)"):
            r = self.rec(name)
            self.assertEqual(r["rarity"], "Covert", name)
            self.assertTrue(r["image_url"].startswith("https://"), name)
        r = self.rec("StatTrak™ M4A4 | Howl (Minimal Wear)")
        self.assertEqual((r["weapon_type"], r["skin_name"], r["rarity"], r["stattrak"]),
                         ("M4A4", "Howl", "Contraband", True))

    def test_catalogue_is_the_union_minus_refused_names(self):
        inputs = set(self.latest) | set(self.mapper["buff"]) | set(self.mapper["uuyp"])
        names = {r["market_hash_name"] for r in self.records}
        refused = {n for ns in self.report.refused.values() for n in ns}
        self.assertEqual(names | refused, inputs)
        self.assertFalse(names & refused)
        # What is refused, and why: the two localisation tokens of latest.json and the
        # id mapper's bare weapon names (stock weapons, not tradable).
        self.assertEqual(sorted(self.report.refused["localisation token (#...)"]),
                         ["#CSGO_crate_musickit_masterminds2_capsule",
                          "#CSGO_crate_musickit_masterminds2_stattrak_capsule"])
        bare = self.report.refused["not an item name"]
        self.assertIn("AK-47", bare)
        self.assertIn("Karambit", bare)
        for name in bare:
            self.assertIn(name, self.ref.weapons, name)
        self.assertEqual(set(self.report.refused), {"localisation token (#...)", "not an item name"})

    def test_every_old_name_is_still_there(self):
        names = {r["market_hash_name"] for r in self.records}
        missing = sorted(n for n in self.latest if n not in names and not n.startswith("#CSGO_"))
        self.assertEqual(missing, [])

    def test_unmapped_names_are_kept(self):
        # -1 means "no goods page on that market when mapped", not "not a name".
        names = {r["market_hash_name"] for r in self.records}
        unmapped_on_both = [n for n, v in self.mapper["buff"].items() if v == -1 and self.mapper["uuyp"][n] == -1]
        self.assertEqual(len(unmapped_on_both), 20)
        for name in unmapped_on_both:
            self.assertIn(name, names)
        self.assertIn("Sticker Slab | kioShiMa | Cluj-Napoca 2015", self.latest)   # one is on Steam too

    def test_every_wear_the_inputs_list(self):
        """A dear skin has exactly the wears (and StatTrak™/Souvenir forms) some input lists."""
        names = {r["market_hash_name"] for r in self.records if "variant" not in r}
        inputs = set(self.latest) | set(self.mapper["buff"])
        for skin in ("AWP | Dragon Lore", "M4A4 | Howl", "AWP | Gungnir", "AK-47 | Wild Lotus", "AWP | Medusa",
                     "★ Karambit | Doppler"):
            for prefix in ("", "StatTrak™ ", "Souvenir "):
                full = (skin.replace("★ ", "★ " + prefix) if skin.startswith("★") else prefix + skin) + " ("
                listed = {n for n in inputs if n.startswith(full)}
                self.assertEqual({n for n in names if n.startswith(full)}, listed, full)

    def test_output_deterministic_and_literal_utf8(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.jsonl"), os.path.join(d, "b.jsonl")
            bc.write_jsonl(self.records, a)
            bc.write_jsonl(bc.build(DATA_DIR), b)
            with open(a, "rb") as fa, open(b, "rb") as fb:
                da, db = fa.read(), fb.read()
            self.assertEqual(da, db)
            self.assertIn("★ StatTrak™".encode("utf-8"), da)     # not ASCII-escaped
            self.assertNotIn(b"\\u2605", da)
            self.assertEqual(sorted(os.listdir(d)), ["a.jsonl", "b.jsonl"])   # no temporary file left

    def test_shipped_file_is_what_the_generator_writes(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "items.jsonl")
            bc.write_jsonl(self.records, out)
            with open(out, "rb") as fresh, open(SHIPPED, "rb") as shipped:
                self.assertTrue(fresh.read() == shipped.read(),
                                "share/catalog/items.jsonl is stale: run tools/catalog/build_catalog.py")

    def test_every_weapon_type_is_known(self):
        allowed = {"Container", "Sticker", "Agent", "Charm", "Patch", "Graffiti", "Music Kit",
                   "Key", "Pass", "Collectible", "Tool"} | self.ref.weapons
        for r in self.records:
            self.assertIn(r["weapon_type"], allowed, r["market_hash_name"])
            self.assertEqual(r["stattrak"], "StatTrak™" in r["market_hash_name"])

    def test_report_names_what_each_input_added(self):
        added = dict(self.report.added)
        steam, buff, youpin = (label for label, _, _ in name_sources.INPUTS)
        self.assertEqual(len(added[steam]), len(self.latest))
        self.assertIn("AWP | Dragon Lore (Field-Tested)", added[buff])
        self.assertNotIn("AK-47 | Redline (Field-Tested)", added[buff])
        self.assertEqual(added[youpin], [])          # the two id maps share one name list
        text = "\n".join(self.report.lines(3))
        self.assertIn("%7d  union" % len(self.report.union), text)
        self.assertIn("'AK-47 | Baroque Purple (Battle-Scarred)'", text)


@unittest.skipUnless(os.path.isfile(SHIPPED), "no shipped catalogue at %s" % SHIPPED)
class ShippedCatalogueTest(unittest.TestCase):
    """share/catalog/items.jsonl itself: needs no data set."""

    @classmethod
    def setUpClass(cls):
        with open(SHIPPED, "rb") as fh:
            cls.raw = fh.read()
        cls.records = [json.loads(line) for line in cls.raw.decode("utf-8").splitlines()]
        cls.bases = {r["market_hash_name"]: r for r in cls.records if "variant" not in r}
        cls.line_of_base = {r["market_hash_name"]: i for i, r in enumerate(cls.records) if "variant" not in r}

    def variants_after(self, name):
        """The variant lines right after the base line of `name`."""
        out = []
        i = self.line_of_base[name] + 1
        while i < len(self.records) and "variant" in self.records[i]:
            out.append(self.records[i])
            i += 1
        return out

    def test_counts(self):
        self.assertEqual(len(self.bases), 36494)
        self.assertEqual(len(self.records) - len(self.bases), 734)

    def test_no_localisation_tokens_or_bare_weapons(self):
        self.assertNotIn(b"#CSGO_", self.raw)
        for name in ("AK-47", "AWP", "Karambit"):
            self.assertNotIn(name, self.bases)

    def test_no_duplicate_name_and_variant(self):
        keys = [(r["market_hash_name"], r.get("variant")) for r in self.records]
        self.assertEqual(len(keys), len(set(keys)))

    def test_sorted_with_variants_after_their_base(self):
        names = [r["market_hash_name"] for r in self.records if "variant" not in r]
        self.assertEqual(names, sorted(names))
        previous = None
        for r in self.records:
            if "variant" not in r:
                previous = r
                continue
            self.assertIsNotNone(previous)
            self.assertEqual(dict(r), dict(previous, variant=r["variant"]), r)
            self.assertEqual(list(r)[-1], "variant")

    def test_every_variant_finish_has_all_its_variants_in_table_order(self):
        seen = 0
        for name, base in self.bases.items():
            expected = list(variants.variants_of_finish(base["skin_name"]))
            if base["weapon_type"] in ("Sticker", "Charm", "Graffiti", "Patch"):
                expected = []            # a sticker named "Doppler" is no knife
            got = [r["variant"] for r in self.variants_after(name)]
            self.assertEqual(got, expected, name)
            if expected:
                self.assertTrue(name.startswith("★ ") or base["weapon_type"] == "Glock-18", name)
                seen += 1
        self.assertEqual(seen, 118)

    def test_dearest_items(self):
        wears = ("Factory New", "Minimal Wear", "Field-Tested", "Well-Worn", "Battle-Scarred")
        for skin in ("AWP | Dragon Lore", "AWP | Gungnir", "AK-47 | Wild Lotus", "AWP | Medusa"):
            for wear in wears:
                r = self.bases["%s (%s)" % (skin, wear)]
                self.assertEqual((r["rarity"], r["stattrak"]), ("Covert", False), r)
                self.assertTrue(r["image_url"].startswith("https://"), r)
        for wear in ("Factory New", "Minimal Wear", "Field-Tested", "Battle-Scarred"):
            self.assertEqual(self.bases["Souvenir AWP | Dragon Lore (%s)" % wear]["weapon_type"], "AWP")
        self.assertNotIn("StatTrak™ AWP | Dragon Lore (Factory New)", self.bases)   # no input lists it
        for prefix in ("", "StatTrak™ "):
            for wear in ("Factory New", "Minimal Wear", "Field-Tested", "Well-Worn"):
                r = self.bases["%sM4A4 | Howl (%s)" % (prefix, wear)]
                self.assertEqual((r["skin_name"], r["rarity"], r["stattrak"]), ("Howl", "Contraband", bool(prefix)))
        r = self.bases["★ Karambit | Doppler (Factory New)"]
        self.assertEqual((r["weapon_type"], r["skin_name"], r["rarity"]), ("Karambit", "Doppler", "Covert"))
        self.assertEqual([v["variant"] for v in self.variants_after("★ Karambit | Doppler (Factory New)")],
                         ["Phase 1", "Phase 2", "Phase 3", "Phase 4", "Ruby", "Sapphire", "Black Pearl"])
        gamma = self.variants_after("★ StatTrak™ Karambit | Gamma Doppler (Factory New)")
        self.assertEqual([v["variant"] for v in gamma],
                         ["Phase 1", "Phase 2", "Phase 3", "Phase 4", "Emerald"])
        self.assertEqual(len(self.variants_after("Glock-18 | Gamma Doppler (Factory New)")), 5)
        self.assertEqual(len(self.variants_after("★ Butterfly Knife | Doppler (Factory New)")), 7)
        r = self.bases["★ Sport Gloves | Pandora's Box (Factory New)"]
        self.assertEqual((r["weapon_type"], r["rarity"]), ("Sport Gloves", "Extraordinary"))
        self.assertEqual(self.bases["★ StatTrak™ Karambit | Case Hardened (Factory New)"]["stattrak"], True)

    def test_names_byte_exact(self):
        # Double spaces, ™ and ★ as the markets spell them; case twins are distinct items.
        for name in ("Ground Rebel  | Elite Crew", "Sticker | niko  | Paris 2023", "Sticker | NiKo | Paris 2023",
                     "Sticker | volt (Holo) | Shanghai 2024", "Sticker | Volt (Holo) | Shanghai 2024",
                     "★ StatTrak™ Karambit | Doppler (Minimal Wear)"):
            self.assertIn(name, self.bases)
        self.assertNotIn("Ground Rebel | Elite Crew", self.bases)


class RefusalTest(unittest.TestCase):
    """Which names are not items (name_sources.refusal_reason), no data files."""

    def reason(self, name):
        return name_sources.refusal_reason(name, bc.parse_name(name)["item_class"])

    def test_items_are_admitted(self):
        for name in ("AK-47 | Redline (Field-Tested)", "★ Karambit", "Recoil Case", "Ground Rebel  | Elite Crew",
                     "Sticker | niko  | Paris 2023", "StatTrak™ M4A4 | 龍王 (Dragon King) (Field-Tested)",
                     "Music Kit |"):
            self.assertIsNone(self.reason(name), name)

    def test_not_items(self):
        self.assertEqual(self.reason("#CSGO_crate_musickit_masterminds2_capsule"), "localisation token (#...)")
        for bare in ("AK-47", "AWP", "Karambit", "Desert Eagle"):   # stock weapons: no "★", no finish
            self.assertEqual(bc.parse_name(bare)["item_class"], "Other", bare)
            self.assertEqual(self.reason(bare), "not an item name", bare)
        self.assertEqual(self.reason("Recoil Case\n"), "not printable")
        self.assertEqual(self.reason(" Recoil Case"), "not printable")
        self.assertEqual(self.reason("Recoil\u200bCase"), "not printable")     # zero-width space (Cf)
        self.assertEqual(self.reason(""), "not printable")
        self.assertEqual(name_sources.refusal_reason("Sticker | " + "x" * 247, "Sticker"), "over 256 bytes")
        self.assertIsNone(name_sources.refusal_reason("Sticker | " + "x" * 246, "Sticker"))


class InputShapeTest(unittest.TestCase):
    def write(self, d, text):
        path = os.path.join(d, "in.json")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        return path

    def test_reads_both_shapes(self):
        with tempfile.TemporaryDirectory() as d:
            names, unmapped = name_sources.read_names(self.write(d, '{"prices":{"A | B":1,"C":2}}'), "prices")
            self.assertEqual((names, unmapped), (frozenset({"A | B", "C"}), 0))
            names, unmapped = name_sources.read_names(self.write(d, '{"A | B":12,"C":-1}'), "id_map")
            self.assertEqual((names, unmapped), (frozenset({"A | B", "C"}), 1))

    def test_refuses_other_shapes(self):
        with tempfile.TemporaryDirectory() as d:
            for text, shape in (('{"items":{}}', "prices"), ('[1,2]', "id_map"), ('{"A":"12"}', "id_map"),
                                ('{"A":true}', "id_map"), ('{not json', "prices")):
                with self.assertRaises(name_sources.InputError, msg=text):
                    name_sources.read_names(self.write(d, text), shape)
            with self.assertRaises(name_sources.InputError):
                name_sources.read_names(os.path.join(d, "missing.json"), "prices")

    def test_main_reports_a_bad_input_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "items.jsonl")
            self.assertEqual(bc.main(["--data", d, "--out", out]), 2)
            self.assertFalse(os.path.exists(out))
            # The name lists are fine but a reference file is missing: the same.
            for rel, text in (("bymykel_price_tracker/latest.json", '{"prices":{"Recoil Case":3}}'),
                              ("steamtradingsite_id_mapper/buff_730.json", "{}"),
                              ("steamtradingsite_id_mapper/uuyp_730.json", "{}")):
                os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
                self.write(os.path.dirname(os.path.join(d, rel)), text)
                os.replace(os.path.join(os.path.dirname(os.path.join(d, rel)), "in.json"), os.path.join(d, rel))
            self.assertEqual(bc.main(["--data", d, "--out", out]), 2)
            self.assertFalse(os.path.exists(out))


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
