"""The dashboard's layering check itself: it passes a tree that follows its table and
catches a back-edge, a file without a row, an import cycle and a long function."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_js_layering.py")

TABLE = """\
money:
api: money
views/market: api
market: views/market
app: market
"""


class CheckJsLayeringTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.js = os.path.join(self.dir.name, "js")
        os.makedirs(os.path.join(self.js, "views", "market"))
        self.table = os.path.join(self.dir.name, "js-layers.txt")
        with open(self.table, "w", encoding="utf-8") as f:
            f.write(TABLE)
        self.write("money.js", "export const x = '// not a comment';\nconst re = /\\/$/;\n")
        self.write("api.js", "import {x} from './money.js';\nexport function get() {\n  return `${x}`;\n}\n")
        self.write("views/market/table.js", "import {get} from '../../api.js';\nexport const t = () => get();\n")
        self.write("market.js", "import {t} from './views/market/table.js';\nexport function render() {\n  t();\n}\n")
        self.write("app.js", "const load = () => import('./market.js');\n")

    def tearDown(self):
        self.dir.cleanup()

    def write(self, rel, text):
        with open(os.path.join(self.js, rel), "w", encoding="utf-8") as f:
            f.write(text)

    def run_check(self, *extra):
        return subprocess.run([sys.executable, CHECK, "--js", self.js, "--table", self.table, *extra],
                              capture_output=True, text=True)

    def test_a_tree_that_follows_its_table_passes(self):
        result = self.run_check()
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn("5 files", result.stdout)
        self.assertIn("0 files in import cycles, 0 back-edges", result.stdout)

    def test_a_back_edge_fails(self):
        self.write("api.js", "import {render} from './market.js';\n")
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("api.js (api) imports market.js (market)", result.stdout)

    def test_a_file_without_a_row_fails(self):
        self.write("extra.js", "export const y = 1;\n")
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("extra.js: no row", result.stdout)

    def test_a_cycle_through_a_dynamic_import_fails(self):
        self.write("market.js", "import {t} from './views/market/table.js';\nimport('./app.js');\n")
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("import cycle: app.js <-> market.js", result.stdout)

    def test_a_long_function_fails_and_is_named(self):
        body = "".join("  t();\n" for _ in range(60))
        self.write("market.js", "import {t} from './views/market/table.js';\nexport function render() {\n%s}\n" % body)
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("market.js:2: render is 62 lines (limit 60)", result.stdout)
        self.assertIn("longest 62 lines (render in market.js:2)", result.stdout)

    def test_an_arrow_with_an_expression_body_is_measured_too(self):
        args = "".join("    %d,\n" % i for i in range(60))
        self.write("market.js", "import {t} from './views/market/table.js';\nexport const view = () => t(\n%s);\n" % args)
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("view is 62 lines", result.stdout)


if __name__ == "__main__":
    unittest.main()
