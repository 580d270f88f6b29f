"""Every answer the integration tests got from a daemon, held to the OpenAPI document
(share/openapi/openapi.json; docs/api.md §16).

The other integration tests record their answers (recorder.py) into
$SKINPULSE_API_RECORDINGS/<test>.jsonl; ctest runs this one after them (DEPENDS in
CMakeLists.txt). It fails on:
  * an answer the document does not describe: a status the operation (or the front
    door's `x-skinpulse-any-request`) does not list, a wrong Content-Type, a missing or
    malformed header, a body its schema refuses;
  * a documented path and method no recorded answer exercised, unless listed in
    NOT_EXERCISED below with the reason.
Paths outside the API (the dashboard's pages and assets, docs/api.md §9) are not part of
the document and are skipped.
"""
import glob
import json
import os
import re
import sys
import unittest
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "openapi"))
import openapi_model  # noqa: E402

RECORDINGS = os.environ.get("SKINPULSE_API_RECORDINGS", "")

# Documented operations no integration test reaches, each with the reason. Prefer a test.
NOT_EXERCISED = {
}

# Answers outside the API document (docs/api.md §9: the dashboard) are skipped; "*" is a
# raw request that is deliberately not HTTP (recorder.record_raw), held to the front door.
API_PATH = re.compile(r"^(/api/|/healthz$|/readyz$|\*$)")


def load_recordings(directory):
    """{test name: [answer, ...]} of every *.jsonl in `directory`."""
    recorded = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.jsonl"))):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            recorded[name] = [json.loads(line) for line in f if line.strip()]
    return recorded


class OpenApiAnswersTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = openapi_model.Model()
        if not RECORDINGS or not os.path.isdir(RECORDINGS):
            raise AssertionError(
                "no recordings: SKINPULSE_API_RECORDINGS=%r is not a directory; run the "
                "integration tests first (ctest -L integration records them)" % RECORDINGS)
        cls.recorded = load_recordings(RECORDINGS)
        cls.total = sum(len(answers) for answers in cls.recorded.values())
        if cls.total == 0:
            raise AssertionError("no recorded answers in %s; run the integration tests first "
                                 "(ctest -L integration)" % RECORDINGS)
        cls.exercised = {}
        cls.failures = {}
        cls.skipped = 0
        for test, answers in cls.recorded.items():
            for answer in answers:
                path = urllib.parse.urlsplit(answer["target"]).path
                if not API_PATH.match(path):
                    cls.skipped += 1
                    continue
                key, problems = cls.model.check_answer(answer)
                if key is not None:
                    cls.exercised.setdefault(key, set()).add(answer["status"])
                for problem in problems:
                    where = "%s %s -> %s" % (answer["method"], answer["target"][:120],
                                             answer["status"])
                    cls.failures.setdefault(problem, []).append("%s (%s)" % (where, test))

    def test_recordings_cover_the_suite(self):
        print("\n%d answers from %d test files (%d outside the API skipped)" %
              (self.total, len(self.recorded), self.skipped), file=sys.stderr)
        self.assertGreater(len(self.recorded), 1, "only %s recorded" % list(self.recorded))

    def test_every_answer_is_documented(self):
        if not self.failures:
            return
        lines = []
        for problem, where in sorted(self.failures.items(), key=lambda kv: -len(kv[1])):
            lines.append("- %s\n    %d answer(s), e.g. %s" % (problem, len(where), where[0]))
        self.fail("%d kind(s) of answers the document does not describe:\n%s" %
                  (len(self.failures), "\n".join(lines)))

    def test_every_operation_is_exercised(self):
        missing = []
        for op in self.model.operations:
            if op.key in self.exercised:
                continue
            if op.key in NOT_EXERCISED:
                continue
            missing.append("%s %s" % op.key)
        stale = ["%s %s" % key for key in NOT_EXERCISED if key in self.exercised]
        excluded = ["%s %s (%s)" % (key + (why,)) for key, why in NOT_EXERCISED.items()
                    if key not in self.exercised]
        # For whoever adds tests: documented answers no test has seen yet (not a failure;
        # the refusals of outages and limits are hard to reach on purpose).
        unseen = ["%s %s %s" % (op.key + (status,)) for op in self.model.operations
                  if op.key in self.exercised for status in op.node["responses"]
                  if int(status) not in self.exercised[op.key]]
        print("\n%d documented answers not seen in this run (information)" % len(unseen),
              file=sys.stderr)
        if excluded:
            print("\nnot exercised, excluded on purpose:\n  " + "\n  ".join(excluded),
                  file=sys.stderr)
        self.assertEqual(missing, [], "documented operations no integration test exercised")
        self.assertEqual(stale, [], "exercised now: remove them from NOT_EXERCISED")
        unknown = [key for key in NOT_EXERCISED if self.model.operation(*key) is None]
        self.assertEqual(unknown, [], "NOT_EXERCISED names operations the document lacks")


if __name__ == "__main__":
    unittest.main()
