"""The test-tree check: a tree whose areas mirror their folders passes; an area without a
source folder, a suite without a class and a listed exception without a suite fail."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_test_tree  # noqa: E402


class CheckTestTreeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        self.touch("daemon/ingest/IngestCycle.hpp")
        self.touch("daemon/ingest/Scheduler.cpp")
        self.touch("sdk/include/skinpulse/sdk/url_encoding.hpp")
        self.touch("plugins/sources/skinport/SkinportSource.hpp")
        self.touch("tests/unit/ingest/SchedulerTest.cpp")
        self.touch("tests/unit/ingest/IngestCycleTimingsTest.cpp")
        self.touch("tests/unit/ingest/OneItemStore.hpp")  # support, not a suite
        self.touch("tests/unit/sdk/UrlEncodingTest.cpp")
        self.touch("tests/unit/plugins/sources/SkinportSourceTest.cpp")
        self.saved = dict(check_test_tree.EXCEPTIONS)
        check_test_tree.EXCEPTIONS.clear()

    def tearDown(self):
        check_test_tree.EXCEPTIONS.clear()
        check_test_tree.EXCEPTIONS.update(self.saved)
        self.dir.cleanup()

    def touch(self, rel):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").close()

    def test_a_mirrored_tree_passes(self):
        self.assertEqual(check_test_tree.check(self.root), ([], [], []))

    def test_an_area_without_a_folder_fails(self):
        self.touch("tests/unit/core/JsonTest.cpp")
        self.touch("tests/unit/plugins/themes/ThemeTest.cpp")
        areas, _, _ = check_test_tree.check(self.root)
        self.assertEqual(areas, ["core", "plugins.themes"])

    def test_a_suite_of_another_folders_class_fails(self):
        self.touch("daemon/common/Json.hpp")
        self.touch("tests/unit/ingest/JsonTest.cpp")
        self.touch("tests/unit/ingest/CycleTest.cpp")  # a word of IngestCycle is not enough
        _, suites, _ = check_test_tree.check(self.root)
        self.assertEqual([k for k, _ in suites], ["ingest/CycleTest", "ingest/JsonTest"])

    def test_exceptions_pass_a_suite_and_must_stay_true(self):
        self.touch("tests/unit/ingest/VariantsTest.cpp")
        check_test_tree.EXCEPTIONS["ingest/VariantsTest"] = "a feature"
        check_test_tree.EXCEPTIONS["ingest/GoneTest"] = "no such suite"
        check_test_tree.EXCEPTIONS["ingest/SchedulerTest"] = "names a class"
        _, suites, stale = check_test_tree.check(self.root)
        self.assertEqual([k for k, _ in suites], ["ingest/SchedulerTest"])
        self.assertEqual(stale, ["ingest/GoneTest"])


if __name__ == "__main__":
    unittest.main()
