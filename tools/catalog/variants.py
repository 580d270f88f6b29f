"""The variant finishes, mirrored from the SDK for the catalogue generator.

The one table is ``sdk/include/skinpulse/sdk/variants.hpp`` (``kVariantNames`` and
``kVariantFinishes``): which skin names hide several priced variants and in which order
their variant items follow the base line. Python cannot include the header, so it keeps
this copy; ``test_variants.py`` reads the header and fails when the two differ.
"""

import re

# kVariantNames, in the header's order.
VARIANT_NAMES = ("Phase 1", "Phase 2", "Phase 3", "Phase 4", "Ruby", "Sapphire", "Black Pearl", "Emerald")

# kVariantFinishes: finish (skin name without exterior) -> its variants, in catalogue order.
VARIANT_FINISHES = (
    ("Doppler", ("Phase 1", "Phase 2", "Phase 3", "Phase 4", "Ruby", "Sapphire", "Black Pearl")),
    ("Gamma Doppler", ("Phase 1", "Phase 2", "Phase 3", "Phase 4", "Emerald")),
)
_BY_FINISH = dict(VARIANT_FINISHES)


def variants_of_finish(finish):
    """The variants of a finish ("Doppler"), or () for a finish without variants."""
    return _BY_FINISH.get(finish, ())


# --------------------------------------------------------------------------
# Reading the header (for the mirror test). The header is constexpr C++ with string
# literals only, so two regular expressions recover both tables without a C++ parser.
# --------------------------------------------------------------------------

_NAMES_RE = re.compile(r"std::array<std::string_view,\s*(?P<size>\d+)>\s*kVariantNames\s*=\s*\{(?P<body>[^}]*)\}",
                       re.S)
_FINISHES_RE = re.compile(r"std::array<VariantFinish,\s*(?P<size>\d+)>\s*kVariantFinishes\s*=\s*\{\{(?P<body>.*?)\}\};",
                          re.S)
_FINISH_ENTRY_RE = re.compile(
    r"\{\s*\"(?P<finish>[^\"]+)\"\s*,\s*\{(?P<variants>(?:[^{}]|\{\})*)\}\s*,\s*(?P<count>\d+)\s*\}")
_LITERAL_RE = re.compile(r"\"([^\"]*)\"")


def read_header_tables(text):
    """(names, finishes) parsed from the text of variants.hpp, in the mirror's shapes.

    Raises ValueError when a table is missing, an entry's count disagrees with its list
    or an array holds more entries than were read: a header this reader no longer
    understands must fail the test, not pass it.
    """
    names_match = _NAMES_RE.search(text)
    finishes_match = _FINISHES_RE.search(text)
    if not names_match or not finishes_match:
        raise ValueError("kVariantNames or kVariantFinishes not found in the header")
    names = tuple(_LITERAL_RE.findall(names_match.group("body")))
    finishes = []
    for entry in _FINISH_ENTRY_RE.finditer(finishes_match.group("body")):
        variants = tuple(v for v in _LITERAL_RE.findall(entry.group("variants")) if v)
        if len(variants) != int(entry.group("count")):
            raise ValueError("%s: count %s but %d variants" % (entry.group("finish"), entry.group("count"),
                                                                len(variants)))
        finishes.append((entry.group("finish"), variants))
    # The array sizes are the header's own counts: an entry the expressions above did
    # not recognise shows up as a size mismatch instead of silently going missing.
    if len(names) != int(names_match.group("size")) or len(finishes) != int(finishes_match.group("size")):
        raise ValueError("read %d names and %d finishes, the header declares %s and %s"
                         % (len(names), len(finishes), names_match.group("size"), finishes_match.group("size")))
    return names, tuple(finishes)
