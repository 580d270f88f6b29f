"""The Python mirror of the variant table equals the SDK header (sdk/.../variants.hpp).

Run from the repository root:  python3 -m unittest discover -s tools/catalog
Needs no data set: it reads the header from this checkout.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import variants  # noqa: E402

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sdk", "include", "skinpulse", "sdk",
                      "variants.hpp")


class VariantMirrorTest(unittest.TestCase):
    def test_mirror_equals_the_header(self):
        with open(HEADER, encoding="utf-8") as fh:
            names, finishes = variants.read_header_tables(fh.read())
        self.assertEqual(variants.VARIANT_NAMES, names)
        self.assertEqual(variants.VARIANT_FINISHES, finishes)

    def test_reader_fails_on_a_header_it_does_not_understand(self):
        with open(HEADER, encoding="utf-8") as fh:
            text = fh.read()
        with self.assertRaises(ValueError):
            variants.read_header_tables(text.replace("kVariantFinishes", "kOtherTable"))
        # A third finish in an unexpected shape must not be skipped silently.
        grown = text.replace("std::array<VariantFinish, 2> kVariantFinishes",
                             "std::array<VariantFinish, 3> kVariantFinishes")
        with self.assertRaises(ValueError):
            variants.read_header_tables(grown)
        # A count that disagrees with its list.
        with self.assertRaises(ValueError):
            variants.read_header_tables(text.replace('"Emerald", {}, {}}, 5}', '"Emerald", {}, {}}, 4}'))
        # A changed name is read as changed (the mirror test would then fail).
        names, _ = variants.read_header_tables(text.replace('"Black Pearl", "Emerald"}', '"Black Pearl", "Jade"}'))
        self.assertNotEqual(names, variants.VARIANT_NAMES)

    def test_lookup(self):
        self.assertEqual(len(variants.variants_of_finish("Doppler")), 7)
        self.assertEqual(variants.variants_of_finish("Gamma Doppler")[-1], "Emerald")
        self.assertEqual(variants.variants_of_finish("Marble Fade"), ())
        for _, vs in variants.VARIANT_FINISHES:
            for v in vs:
                self.assertIn(v, variants.VARIANT_NAMES)


if __name__ == "__main__":
    unittest.main()
