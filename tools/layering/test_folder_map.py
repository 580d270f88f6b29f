"""The folder-map generator: --write renders the table's rows into every document,
--check passes then, and fails on a stale map, a missing marker, a folder without a
row, a row without a folder and a row without a purpose."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "folder_map.py")

TABLE = """\
# a comment line is no row
common:              # the vocabulary
store: common        # the database
app: store common    # the runtime
main: app            # the entry point
"""
DOCUMENT = "# Title\n\nBefore.\n\n<!-- folder-map:begin -->\nstale map\n<!-- folder-map:end -->\n\nAfter.\n"


class FolderMapTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        for folder in ("common", "store", "app"):
            os.makedirs(os.path.join(self.root, "daemon", folder))
        self.write("tools/layering/layers.txt", TABLE)
        for name in ("README.md", "docs/architecture.md", "docs/adr/0003-layers.md"):
            self.write(name, DOCUMENT)

    def tearDown(self):
        self.dir.cleanup()

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def read(self, rel):
        with open(os.path.join(self.root, rel), encoding="utf-8") as f:
            return f.read()

    def run_tool(self, mode):
        return subprocess.run([sys.executable, TOOL, mode, "--root", self.root],
                              capture_output=True, text=True)

    def test_write_renders_every_row_bottom_up_and_check_then_passes(self):
        self.assertEqual(self.run_tool("--check").returncode, 1)
        self.assertEqual(self.run_tool("--write").returncode, 0)
        text = self.read("docs/architecture.md")
        self.assertTrue(text.startswith("# Title\n\nBefore.\n"))
        self.assertTrue(text.endswith("<!-- folder-map:end -->\n\nAfter.\n"))
        self.assertNotIn("stale map", text)
        self.assertIn("| 0 | `common/` | the vocabulary | — |", text)
        self.assertIn("| 2 | `app/` | the runtime | `store`, `common` |", text)
        self.assertIn("| 3 | `daemon/main.cpp` | the entry point | `app` |", text)
        self.assertLess(text.index("`common/`"), text.index("`store/`"))
        self.assertLess(text.index("`store/`"), text.index("`app/`"))
        result = self.run_tool("--check")
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_a_stale_document_fails_naming_it(self):
        self.run_tool("--write")
        self.write("tools/layering/layers.txt", TABLE.replace("the database", "the store"))
        result = self.run_tool("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("README.md: the folder map is stale", result.stdout)

    def test_a_document_without_markers_fails(self):
        self.run_tool("--write")
        self.write("docs/adr/0003-layers.md", "# ADR\n")
        result = self.run_tool("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("docs/adr/0003-layers.md: expected one", result.stdout)

    def test_a_folder_without_a_row_fails(self):
        self.run_tool("--write")
        os.makedirs(os.path.join(self.root, "daemon", "web"))
        result = self.run_tool("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("daemon/web/ has no row", result.stdout)

    def test_a_row_without_folder_or_purpose_fails(self):
        self.write("tools/layering/layers.txt",
                   TABLE.replace("app: store common    # the runtime", "app: store common")
                   + "ghost: common  # nothing\n")
        result = self.run_tool("--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("row app has no purpose", result.stdout)
        self.assertIn("row ghost names no folder", result.stdout)


if __name__ == "__main__":
    unittest.main()
