"""The price-policy check itself: it passes a tree where only the owners name a fact,
and catches a copied key, a comment re-documenting it and a free call of a primitive,
while a call of the policy's member of the same name passes."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_price_policy.py")

OWNERS = """\
# comment
exclude_outliers: quality/QualityOptions.hpp prices/PricePolicy.cpp
referenceOrder(: prices/LatestPrices.cpp prices/PricePolicy.cpp
"""


class CheckPricePolicyTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.daemon = os.path.join(self.dir.name, "daemon")
        for folder in ("quality", "prices", "items"):
            os.makedirs(os.path.join(self.daemon, folder))
        self.owners = os.path.join(self.dir.name, "owners.txt")
        with open(self.owners, "w", encoding="utf-8") as f:
            f.write(OWNERS)
        self.write("quality/QualityOptions.hpp", "bool exclude_outliers = true;\n")
        self.write("prices/PricePolicy.cpp",
                   "exclude_outliers_(exclude_outliers)\n"
                   "return skinpulse::referenceOrder(reference_, enabled_, known);\n")
        self.write("prices/LatestPrices.cpp", "std::vector<std::string> referenceOrder(a, b, c) {\n")
        self.write("items/ItemsApi.cpp",
                   "const auto order = policy_.referenceOrder(latest_.sourceNames());\n"
                   "bool excludes = policy_->excludeOutliers();  // PricePolicy::referenceOrder()\n")

    def tearDown(self):
        self.dir.cleanup()

    def write(self, rel, text):
        with open(os.path.join(self.daemon, rel), "w", encoding="utf-8") as f:
            f.write(text)

    def run_check(self, *extra):
        return subprocess.run(
            [sys.executable, CHECK, "--daemon", self.daemon, "--owners", self.owners, *extra],
            capture_output=True, text=True)

    def test_owners_only_passes(self):
        result = self.run_check()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_a_copied_key_fails(self):
        self.write("items/ItemsOptions.hpp", "  bool exclude_outliers = true;\n")
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("daemon/items/ItemsOptions.hpp:1: names exclude_outliers", result.stdout)

    def test_a_comment_naming_the_key_fails(self):
        self.write("items/Note.hpp", "/// [quality] exclude_outliers: flagged points left out\n")
        self.assertEqual(self.run_check().returncode, 1)

    def test_a_free_call_of_the_primitive_fails(self):
        self.write("items/Order.cpp", "auto order = referenceOrder(configured, enabled, known);\n")
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("names referenceOrder(", result.stdout)
        self.write("items/Order.cpp", "auto order = skinpulse::referenceOrder(c, e, k);\n")
        self.assertEqual(self.run_check().returncode, 1)

    def test_count_reports_files_per_fact(self):
        result = self.run_check("--count")
        self.assertEqual(result.returncode, 0)
        self.assertIn("exclude_outliers: 2 file(s)", result.stdout)
        self.assertIn("referenceOrder(: 2 file(s)", result.stdout)


if __name__ == "__main__":
    unittest.main()
