"""The layering check itself: it passes a tree that follows its table and catches a
back-edge, an unlisted folder and a cycle in the table."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_layering.py")

TABLE = """\
common:
store: common
app: store
main: app
"""


class CheckLayeringTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.daemon = os.path.join(self.dir.name, "daemon")
        for folder in ("common", "store", "app"):
            os.makedirs(os.path.join(self.daemon, folder))
        self.table = os.path.join(self.dir.name, "layers.txt")
        self.write("../layers.txt", TABLE)
        self.write("common/Log.hpp", "#pragma once\n#include <string>\n")
        self.write("store/Db.hpp", '#include "common/Log.hpp"\n#include "skinpulse/sdk/x.hpp"\n')
        self.write("app/App.cpp", '#include "store/Db.hpp"\n#include "common/Log.hpp"\n')
        self.write("main.cpp", '#include "app/App.hpp"\n')

    def tearDown(self):
        self.dir.cleanup()

    def write(self, rel, text):
        with open(os.path.join(self.daemon, rel), "w", encoding="utf-8") as f:
            f.write(text)

    def run_check(self):
        return subprocess.run([sys.executable, CHECK, "--daemon", self.daemon, "--table",
                               self.table], capture_output=True, text=True)

    def test_a_tree_that_follows_the_table_passes(self):
        result = self.run_check()
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_a_back_edge_fails_naming_file_and_line(self):
        self.write("store/Db.cpp", '#include "store/Db.hpp"\n\n#include "app/App.hpp"\n')
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("store/Db.cpp:3 includes app/", result.stdout)

    def test_a_folder_without_a_row_fails(self):
        os.makedirs(os.path.join(self.daemon, "web"))
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("daemon/web/ has no row", result.stdout)

    def test_the_libraries_must_follow_the_table(self):
        self.write("CMakeLists.txt",
                   "skinpulse_add_library(skinpulse_common DIRS common LIBS Poco::Foundation)\n"
                   "skinpulse_add_library(skinpulse_store DIRS store\n"
                   "  LIBS skinpulse_common skinpulse_app)\n"
                   "skinpulse_add_library(skinpulse_app DIRS app LIBS skinpulse_store)\n")
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("skinpulse_store links skinpulse_app, which store may not include",
                      result.stdout)
        self.write("CMakeLists.txt",
                   "skinpulse_add_library(skinpulse_common DIRS common)\n"
                   "skinpulse_add_library(skinpulse_store DIRS store LIBS skinpulse_common)\n")
        result = self.run_check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("daemon/app/ is not the library skinpulse_app", result.stdout)

    def test_a_cycle_in_the_table_is_refused(self):
        self.write("../layers.txt", TABLE.replace("common:", "common: app"))
        result = self.run_check()
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("cycle", result.stderr)


if __name__ == "__main__":
    unittest.main()
