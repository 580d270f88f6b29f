#!/usr/bin/env python3
"""Build the skinpulse item catalogue (share/catalog/items.jsonl).

One JSON object per item name of the union of the Steam market snapshot
(``bymykel_price_tracker/latest.json``) and the Buff and YouPin name lists
(``steamtradingsite_id_mapper/*_730.json``), minus names that are not items
(name_sources.py), enriched with the weapon / item class, skin name, rarity,
StatTrak flag and image URL taken from ``derived/catalog_skins.json`` and the
``csgo_api/*.json`` files. A name whose finish comes in variants (variants.py,
mirroring the SDK's variants.hpp) is followed by one line per variant.

Standard library only. Deterministic: the same input gives a byte-identical
output file. See tools/catalog/README.md for the field rules.

Usage (from the repository root):
    python3 tools/catalog/build_catalog.py --data DATA_DIR \
        --out share/catalog/items.jsonl

DATA_DIR holds the upstream datasets listed in tools/catalog/README.md (default:
$SKINPULSE_SHARED_DATA).
"""

import argparse
import collections
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import name_sources  # noqa: E402
import variants  # noqa: E402

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_DATA = os.environ.get("SKINPULSE_SHARED_DATA", "")
DEFAULT_OUT = os.path.join(REPO_ROOT, "share", "catalog", "items.jsonl")

STAR = "\u2605 "              # "★ "
STATTRAK = "StatTrak\u2122 "  # "StatTrak™ "
SOUVENIR = "Souvenir "
SEP = " | "

EXTERIORS = ("Factory New", "Minimal Wear", "Field-Tested", "Well-Worn", "Battle-Scarred")
_EXTERIOR_RE = re.compile(r" \((" + "|".join(re.escape(e) for e in EXTERIORS) + r")\)$")

# Built-in weapon names so the parser works without the data files. At build
# time the set is extended with base_weapons.json and catalog_skins.json.
GUNS = (
    "AK-47", "AUG", "AWP", "CZ75-Auto", "Desert Eagle", "Dual Berettas", "FAMAS",
    "Five-SeveN", "G3SG1", "Galil AR", "Glock-18", "M249", "M4A1-S", "M4A4", "MAC-10",
    "MAG-7", "MP5-SD", "MP7", "MP9", "Negev", "Nova", "P2000", "P250", "P90",
    "PP-Bizon", "R8 Revolver", "SCAR-20", "SG 553", "SSG 08", "Sawed-Off", "Tec-9",
    "UMP-45", "USP-S", "XM1014", "Zeus x27",
)
KNIVES = (
    "Bayonet", "Bowie Knife", "Butterfly Knife", "Classic Knife", "Falchion Knife",
    "Flip Knife", "Gut Knife", "Huntsman Knife", "Karambit", "Kukri Knife", "M9 Bayonet",
    "Navaja Knife", "Nomad Knife", "Paracord Knife", "Shadow Daggers", "Skeleton Knife",
    "Stiletto Knife", "Survival Knife", "Talon Knife", "Ursus Knife",
)
GLOVES = (
    "Bloodhound Gloves", "Broken Fang Gloves", "Driver Gloves", "Hand Wraps",
    "Hydra Gloves", "Moto Gloves", "Specialist Gloves", "Sport Gloves",
)
DEFAULT_WEAPONS = frozenset(GUNS + KNIVES + GLOVES)

# "<Prefix> | rest" item families (after an optional StatTrak™/Souvenir prefix).
# Longest prefix first so "Sticker Slab" wins over "Sticker".
PREFIX_CLASSES = (
    ("Sticker Slab", "Charm"),        # a sticker mounted as a weapon charm
    ("Sticker", "Sticker"),
    ("Sealed Graffiti", "Graffiti"),
    ("Charm", "Charm"),
    ("Patch", "Patch"),
    ("Music Kit", "Music Kit"),
    ("Autograph Capsule", "Container"),
)
_PREFIX_RE = re.compile(
    r"^(?P<prefix>" + "|".join(re.escape(p) for p, _ in PREFIX_CLASSES) + r") \|(?: (?P<rest>.*))?$",
    re.S,
)
_PREFIX_CLASS = dict(PREFIX_CLASSES)

# Gift items (Steam type "Gift"): no separate class requested, filed as Tool.
GIFTS = frozenset(("Gift Package", "Pallet of Presents", "Audience Participation Parcel"))
TOOLS = frozenset(("Name Tag", "StatTrak\u2122 Swap Tool", "Storage Unit", "Charm Detachments")) | GIFTS

# Weapon skins that are in no collection of collections.json, so catalog_skins.json does
# not describe them. The Howl was taken out of its collection and re-graded to the
# Contraband rarity: it is the only weapon skin with it (the game's rarity vocabulary,
# whose names docs/api.md lists, has Contraband for this one skin). Its image stays "":
# no input has one.
SKINS_OUTSIDE_COLLECTIONS = {"M4A4 | Howl": "Contraband"}

# Classes whose items are all "Base Grade" in the game (and in collectibles.json
# for passes); used only when the data gives no rarity.
BASE_GRADE_CLASSES = frozenset(("Container", "Key", "Tool", "Pass"))

_KEY_RE = re.compile(r"(^|\s)Key$")
_PASS_RE = re.compile(r"\bPass(\s\+\s\d+ Souvenir Tokens)?$")
_PIN_RE = re.compile(r"\sPin$")
_CONTAINER_RE = re.compile(
    r"(\s(Case|Capsule|Package|Box|Pack|Terminal|Parcel)(\s\d+|\sSeries\s\d+|\s\d{4})?$)"
    r"|(\s(Legends|Challengers|Contenders)(\s\(.*\))?$)"    # old tournament sticker capsules
    r"|(\s\((Holo-Foil|Foil)\)$)"
    r"|(^Community Capsule\s\d{4}$)"
)
_CRATE_TOKEN_RE = re.compile(r"^#CSGO_crate_")
_GRAFFITI_COLOUR_RE = re.compile(r"^(?P<base>.*) \((?P<colour>[^()]*)\)$")


# --------------------------------------------------------------------------
# Parsing (pure functions, no data needed)
# --------------------------------------------------------------------------

def strip_prefixes(name):
    """Split off the '★ ', 'StatTrak™ ' and 'Souvenir ' prefixes.

    Returns (star, stattrak, souvenir, rest). Order per the name grammar (README.md):
    '★ ' comes before 'StatTrak™ '.
    """
    star = name.startswith(STAR)
    rest = name[len(STAR):] if star else name
    stattrak = rest.startswith(STATTRAK)
    if stattrak:
        rest = rest[len(STATTRAK):]
    souvenir = (not stattrak) and rest.startswith(SOUVENIR)
    if souvenir:
        rest = rest[len(SOUVENIR):]
    return star, stattrak, souvenir, rest


def split_exterior(text):
    """'Redline (Field-Tested)' -> ('Redline', 'Field-Tested'); no wear -> (text, None)."""
    m = _EXTERIOR_RE.search(text)
    if not m:
        return text, None
    return text[:m.start()], m.group(1)


def classify_plain(name):
    """Item class of a name that is neither a weapon nor a '<Prefix> | ...' item."""
    if _CRATE_TOKEN_RE.match(name):
        return "Container"
    if name in TOOLS:
        return "Tool"
    if _KEY_RE.search(name):
        return "Key"
    if _PASS_RE.search(name):
        return "Pass"
    if _PIN_RE.search(name):
        return "Collectible"
    if _CONTAINER_RE.search(name):
        return "Container"
    return "Other"


def parse_name(name, weapons=DEFAULT_WEAPONS, agent_factions=frozenset()):
    """Parse a market_hash_name.

    Returns a dict with keys:
      kind      'weapon' | 'prefixed' | 'agent' | 'plain'
      item_class weapon name (weapons/knives/gloves) or item class
      weapon    weapon name or None
      finish    finish/pattern or None (vanilla knife)
      exterior  one of EXTERIORS or None
      skin_name see README
      star, stattrak, souvenir  bools
      vanilla   True for '★ Karambit' style names
    """
    star, stattrak, souvenir, rest = strip_prefixes(name)
    out = {
        "kind": "plain", "item_class": "Other", "weapon": None, "finish": None,
        "exterior": None, "skin_name": name, "star": star, "stattrak": stattrak,
        "souvenir": souvenir, "vanilla": False,
    }

    head, sep, tail = rest.partition(SEP)

    # ★ items are always knives or gloves; vanilla knives have no ' | '.
    if star and not sep:
        out.update(kind="weapon", item_class=rest, weapon=rest, skin_name="Vanilla", vanilla=True)
        return out
    if sep and (star or head in weapons or (_EXTERIOR_RE.search(tail) and head not in _PREFIX_CLASS)):
        finish, exterior = split_exterior(tail)
        out.update(kind="weapon", item_class=head, weapon=head, finish=finish,
                   exterior=exterior, skin_name=finish)
        return out

    m = _PREFIX_RE.match(rest)
    if m:
        prefix = m.group("prefix")
        out.update(kind="prefixed", item_class=_PREFIX_CLASS[prefix],
                   skin_name=m.group("rest") or "")
        if prefix == "Autograph Capsule":
            out["skin_name"] = name   # a container: full name
        return out

    if sep and (tail in agent_factions or (not agent_factions and SEP not in tail
                                           and not stattrak and not souvenir)):
        # Agents: "'Medium Rare' Crasswater | Guerrilla Warfare"
        out.update(kind="agent", item_class="Agent", skin_name=tail)
        return out

    out["item_class"] = classify_plain(name)
    return out


# --------------------------------------------------------------------------
# Data loading and enrichment
# --------------------------------------------------------------------------

def _load(path):
    # A missing or unreadable data file is an InputError: main() reports it and writes nothing.
    return name_sources.load_json(path)


def _rarity_name(entry):
    r = entry.get("rarity")
    return (r or {}).get("name") or ""


class Reference:
    """Lookup tables built from catalog_skins.json and csgo_api/*.json."""

    def __init__(self, data_dir):
        api = os.path.join(data_dir, "csgo_api")
        cat = _load(os.path.join(data_dir, "derived", "catalog_skins.json"))

        self.weapon_skins = {}          # 'Weapon | Pattern' -> entry
        for s in cat["weapon_skins"]:
            self.weapon_skins["%s | %s" % (s["weapon"], s["pattern"])] = s
        self.star_items = {}            # (weapon, pattern or None) -> entry
        for s in cat["star_items"]:
            self.star_items[(s["weapon"], s["pattern"])] = s

        base_weapons = _load(os.path.join(api, "base_weapons.json"))
        self.base_weapon_image = {}
        for b in sorted(base_weapons, key=lambda b: b["id"]):
            if b.get("image"):
                self.base_weapon_image.setdefault(b["name"], b["image"])

        self.weapons = set(DEFAULT_WEAPONS)
        self.weapons.update(s["weapon"] for s in cat["weapon_skins"])
        self.weapons.update(s["weapon"] for s in cat["star_items"])
        self.weapons.update(b["name"] for b in base_weapons
                            if b["category"]["name"] not in ("Equipment", "Grenades", "C4")
                            and b["name"] != "Knife" and not b["name"].startswith("Default "))
        self.gloves = set(GLOVES) | {s["weapon"] for s in cat["star_items"] if s["kind"] == "gloves"}

        # market_hash_name -> (rarity, image) for the item files
        self.by_mhn = {}
        self.mhn_file = {}
        for fname in ("agents", "keychains", "patches", "music_kits", "collectibles", "keys"):
            for e in _load(os.path.join(api, fname + ".json")):
                mhn = e.get("market_hash_name")
                if mhn and mhn not in self.by_mhn:
                    self.by_mhn[mhn] = (_rarity_name(e), e.get("image") or "")
                    self.mhn_file[mhn] = (fname, e.get("type"))
        self.agent_factions = frozenset(
            e["market_hash_name"].split(SEP, 1)[1]
            for e in _load(os.path.join(api, "agents.json"))
            if e.get("market_hash_name") and SEP in e["market_hash_name"])

        self.tools = {}
        for e in _load(os.path.join(api, "tools.json")):
            self.tools.setdefault(e["name"], e.get("image") or "")

        collections_ = _load(os.path.join(api, "collections.json"))
        keys = _load(os.path.join(api, "keys.json"))
        self.crates = {}
        for c in collections_:
            for cr in c.get("crates", []):
                self.crates.setdefault(cr["name"], cr.get("image") or "")
        for k in keys:
            for cr in k.get("crates", []):
                self.crates.setdefault(cr["name"], cr.get("image") or "")

        # collections.json 'contains': stickers and graffiti (by display name)
        self.stickers = {}
        graffiti = collections.defaultdict(lambda: [set(), set()])
        for c in collections_:
            for e in c.get("contains", []):
                kind = e["id"].split("-", 1)[0]
                if kind == "sticker":
                    self.stickers.setdefault("Sticker | " + e["name"], (_rarity_name(e), e.get("image") or ""))
                elif kind == "graffiti":
                    g = graffiti[e["name"]]
                    g[0].add(_rarity_name(e))
                    if e.get("image"):
                        g[1].add(e["image"])
        self.graffiti = {}
        for gname, (rars, imgs) in graffiti.items():
            rarity = next(iter(rars)) if len(rars) == 1 else ""
            image = next(iter(imgs)) if len(imgs) == 1 else ""   # per-colour images are ambiguous
            self.graffiti[gname] = (rarity, image)

    def parse(self, name):
        return parse_name(name, self.weapons, self.agent_factions)


# Sticker rarity follows the finish (the game's convention: paper High Grade, holo and
# glitter Remarkable, foil and lenticular Exotic, gold Extraordinary). Used only where
# the data has no rarity for the sticker itself.
_STICKER_FINISH_RARITY = {"Holo": "Remarkable", "Glitter": "Remarkable", "Foil": "Exotic",
                          "Lenticular": "Exotic", "Gold": "Extraordinary"}
_STICKER_FINISH_RE = re.compile(r"\((Holo|Glitter|Foil|Lenticular|Gold)\)")


def sticker_rarity_from_finish(name):
    """Rarity of a sticker (or sticker slab) from its finish; "" for other names."""
    if not (name.startswith("Sticker | ") or name.startswith("Sticker Slab | ")):
        return ""
    match = _STICKER_FINISH_RE.search(name)
    if match:
        return _STICKER_FINISH_RARITY[match.group(1)]
    return "" if "(" in name.split(" | ")[1] else "High Grade"


def build_record(name, ref):
    """The catalogue object for one market_hash_name."""
    p = ref.parse(name)
    item_class = p["item_class"]
    rarity, image = "", ""

    if p["kind"] == "weapon":
        if p["star"]:
            s = ref.star_items.get((p["weapon"], p["finish"]))
            if s is not None:
                rarity = s.get("rarity_assumed") or ""
            else:
                rarity = "Extraordinary" if p["weapon"] in ref.gloves else "Covert"
            if p["vanilla"]:
                image = ref.base_weapon_image.get(p["weapon"], "")
        else:
            key = "%s | %s" % (p["weapon"], p["finish"])
            s = ref.weapon_skins.get(key)
            if s is not None:
                rarity, image = s.get("rarity") or "", s.get("image") or ""
            else:
                rarity = SKINS_OUTSIDE_COLLECTIONS.get(key, "")
    else:
        hit = ref.by_mhn.get(name)
        if hit is None and p["stattrak"] and item_class == "Music Kit":
            hit = ref.by_mhn.get(name[len(STATTRAK):])
        if hit is not None:
            rarity, image = hit
            fname, ctype = ref.mhn_file.get(name, (None, None))
            if fname == "collectibles" and ctype and "Pass" in ctype:
                item_class = "Pass"
        elif item_class == "Sticker" and name in ref.stickers:
            rarity, image = ref.stickers[name]
        elif item_class == "Graffiti":
            base = p["skin_name"]
            m = _GRAFFITI_COLOUR_RE.match(base)
            g = ref.graffiti.get(base) or (ref.graffiti.get(m.group("base")) if m else None)
            if g is not None:
                rarity, image = g
        elif item_class == "Tool" and name in ref.tools:
            image = ref.tools[name]
        if name in ref.crates:
            item_class = "Container"
            image = image or ref.crates[name]
        if not rarity:
            rarity = sticker_rarity_from_finish(name)
        if not rarity and item_class in BASE_GRADE_CLASSES:
            rarity = "Base Grade"

    skin_name = p["skin_name"]
    if item_class in ("Container", "Key", "Tool", "Pass", "Collectible", "Other"):
        skin_name = name
    return {
        "market_hash_name": name,
        "weapon_type": item_class,
        "skin_name": skin_name,
        "rarity": rarity,
        "stattrak": p["stattrak"],
        "image_url": image,
    }


def variant_records(base, parsed):
    """The variant lines that follow `base`: its fields plus a last key "variant".

    Any weapon name whose finish is in the variant table gets them (the ★ knives'
    Doppler and Gamma Doppler in every wear, StatTrak™ included, and the Glock-18 |
    Gamma Doppler, Souvenir included), whatever the market lists, because a market row
    may name any of them.
    """
    if parsed["kind"] != "weapon" or not parsed["finish"]:
        return []
    return [dict(base, variant=v) for v in variants.variants_of_finish(parsed["finish"])]


def build_catalogue(data_dir):
    """(records, NameReport): base lines sorted by name, each followed by its variants."""
    report = name_sources.NameReport(name_sources.read_inputs(data_dir))
    ref = Reference(data_dir)
    records = []
    # Code point order (Python's str order) is the order the lines have always had.
    for name in sorted(report.union):
        parsed = ref.parse(name)
        reason = name_sources.refusal_reason(name, parsed["item_class"])
        if reason is not None:
            report.refuse(name, reason)
            continue
        base = build_record(name, ref)
        records.append(base)
        records.extend(variant_records(base, parsed))
    return records, report


def build(data_dir):
    return build_catalogue(data_dir)[0]


def dumps(record):
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_jsonl(records, out_path):
    out_dir = os.path.dirname(os.path.abspath(out_path))
    os.makedirs(out_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".items.", suffix=".tmp", dir=out_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            for r in records:
                fh.write(dumps(r))
                fh.write("\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, out_path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def summary(records):
    """Counts of base lines per weapon_type, variant lines and empty fields (base lines)."""
    bases = [r for r in records if "variant" not in r]
    counts = collections.Counter(r["weapon_type"] for r in bases)
    lines = ["base names per weapon_type:"]
    lines += ["%7d  %s" % (c, t) for t, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    variant_counts = collections.Counter(r["variant"] for r in records if "variant" in r)
    lines.append("variant lines:")
    lines += ["%7d  %s" % (variant_counts[v], v) for v in variants.VARIANT_NAMES if variant_counts[v]]
    lines.append("%7d  base names" % len(bases))
    lines.append("%7d  variant lines" % (len(records) - len(bases)))
    lines.append("%7d  lines in all" % len(records))
    lines.append("%7d  base names with an empty rarity" % sum(1 for r in bases if not r["rarity"]))
    lines.append("%7d  base names with an empty image_url" % sum(1 for r in bases if not r["image_url"]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=DEFAULT_DATA, required=not DEFAULT_DATA,
                    help="directory of the upstream datasets (default: $SKINPULSE_SHARED_DATA)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output JSONL (default: %(default)s)")
    ap.add_argument("--show", type=int, default=10, metavar="N",
                    help="names listed per group in the report (default: %(default)s)")
    args = ap.parse_args(argv)
    try:
        records, report = build_catalogue(args.data)
    except name_sources.InputError as error:
        sys.stderr.write("build_catalog: %s\n" % error)
        return 2
    write_jsonl(records, args.out)
    sys.stderr.write("\n".join(report.lines(args.show)) + "\n")
    sys.stderr.write("wrote %d lines to %s\n%s\n" % (len(records), args.out, summary(records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
