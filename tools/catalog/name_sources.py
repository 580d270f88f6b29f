"""The name lists the catalogue is made of, and which of their names are items.

Three inputs list market_hash_names (tools/catalog/README.md gives their origin and
licence): the Steam Community Market snapshot of the ByMykel price tracker, and the
Buff and YouPin name lists of the SteamTradingSite-ID-Mapper, which also hold the items
dearer than Steam's listing cap. The catalogue is their union, minus the names that are
not items (``refusal_reason``). Standard library only.
"""

import json
import os
import unicodedata

# (label, path under the data directory, how the names are read). The order is the
# order "added" is reported in: each input is credited with the names no earlier one has.
INPUTS = (
    ("steam (bymykel latest.json)", os.path.join("bymykel_price_tracker", "latest.json"), "prices"),
    ("buff (id mapper)", os.path.join("steamtradingsite_id_mapper", "buff_730.json"), "id_map"),
    ("youpin (id mapper)", os.path.join("steamtradingsite_id_mapper", "uuyp_730.json"), "id_map"),
)

# The same bound the daemon applies to names it adds on its own (docs/api.md, items:
# new names).
MAX_NAME_BYTES = 256


class InputError(Exception):
    """An input file is missing or not in the shape this generator reads."""


def load_json(path):
    try:
        with open(path, "r", encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError) as error:
        raise InputError("%s: %s" % (path, error)) from error


def read_names(path, shape):
    """The names of one input, with the number of names it maps to no market id.

    ``prices``: ``{"prices": {name: cents}}``. ``id_map``: ``{name: goods id}``, where
    -1 means the mapper found no goods page on that market *when it ran*. The keys of
    both id maps are one list (the same 33,939 names in each file), so a -1 name is still
    a name the markets trade: 20 of them are -1 on both markets, and one of those
    (``Sticker Slab | kioShiMa | Cluj-Napoca 2015``) is also on the Steam market. It is
    kept; only the goods id is unknown.
    """
    data = load_json(path)
    if shape == "prices":
        if not isinstance(data, dict) or not isinstance(data.get("prices"), dict):
            raise InputError("%s: expected an object with a \"prices\" object" % path)
        names, unmapped = data["prices"], 0
    elif shape == "id_map":
        if not isinstance(data, dict):
            raise InputError("%s: expected an object of name -> goods id" % path)
        bad = [k for k, v in data.items() if not isinstance(v, int) or isinstance(v, bool)]
        if bad:
            raise InputError("%s: %d values are not integer goods ids (first: %r)" % (path, len(bad), bad[0]))
        names, unmapped = data, sum(1 for v in data.values() if v == -1)
    else:
        raise InputError("unknown input shape %r" % shape)
    return frozenset(names), unmapped


def read_inputs(data_dir):
    """[(label, names, unmapped)] for every input, in INPUTS order."""
    return [(label,) + read_names(os.path.join(data_dir, rel), shape) for label, rel, shape in INPUTS]


def _printable(name):
    # Control, format, surrogate, private-use and unassigned code points (categories C*)
    # have no place in a name shown to people; spaces inside a name are fine.
    return name == name.strip() and all(unicodedata.category(c)[0] != "C" for c in name)


def refusal_reason(name, item_class):
    """Why `name` is not an item, or None when it is one.

    `item_class` is what the name parser made of it. The rules are the daemon's for names
    it adds on its own (docs/api.md, items: new names): a `#…` localisation token, a name that is not
    printable or is over 256 bytes, or one that does not parse as an item name. The last
    covers the bare weapon names of the id mapper (`AK-47`, `AWP`, `Karambit` without
    `★`): stock weapons cannot be traded and every tradable gun has ` | <finish>`.
    """
    if name.startswith("#"):
        return "localisation token (#...)"
    if not name or not _printable(name):
        return "not printable"
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        return "over %d bytes" % MAX_NAME_BYTES
    if item_class == "Other":
        return "not an item name"
    return None


class NameReport:
    """How the inputs compare: what each read, added and alone lists, what was refused."""

    def __init__(self, inputs):
        self.inputs = inputs                      # [(label, names, unmapped)]
        self.union = frozenset().union(*(names for _, names, _ in inputs))
        self.added = []                           # [(label, sorted names no earlier input has)]
        seen = set()
        for label, names, _ in inputs:
            self.added.append((label, sorted(names - seen)))
            seen |= names
        self.only = []                            # [(label, sorted names no other input has)]
        for label, names, _ in inputs:
            others = frozenset().union(*(n for other, n, _ in inputs if other != label))
            self.only.append((label, sorted(names - others)))
        self.refused = {}                         # reason -> sorted names

    def refuse(self, name, reason):
        self.refused.setdefault(reason, []).append(name)

    def lines(self, show):
        """The report as text lines; `show` names are listed per group, then the total."""

        def names_line(names):
            shown = ", ".join(repr(n) for n in names[:show])
            more = " …" if len(names) > show else ""
            return "%7d  %s%s" % (len(names), shown, more)

        out = ["inputs (names read; names mapped to no goods id):"]
        for label, names, unmapped in self.inputs:
            out.append("%7d  %s%s" % (len(names), label, "; %d unmapped (-1)" % unmapped if unmapped else ""))
        out.append("%7d  union" % len(self.union))
        out.append("added by each input (names no earlier input lists):")
        for label, names in self.added:
            out.append("  %s" % label)
            out.append(names_line(names))
        out.append("listed by this input alone:")
        for label, names in self.only:
            out.append("  %s" % label)
            out.append(names_line(names))
        out.append("refused (not items):")
        for reason in sorted(self.refused):
            out.append("  %s" % reason)
            out.append(names_line(sorted(self.refused[reason])))
        return out
