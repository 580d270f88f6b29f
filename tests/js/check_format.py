#!/usr/bin/env python3
"""The dashboard's JavaScript is formatted: clang-format (the `Language: JavaScript`
section of the root .clang-format) would change no file of share/www/js (vendor/ is not
ours) or tests/js. Usage: check_format.py [clang-format binary]. Exit 1 naming the files
to reformat (`clang-format -i FILE`)."""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def files():
    for top in (os.path.join(REPO, "share", "www", "js"), os.path.join(REPO, "tests", "js")):
        for root, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "vendor")
            for name in sorted(names):
                if name.endswith((".js", ".mjs")):
                    yield os.path.join(root, name)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "clang-format"
    paths = list(files())
    bad = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        formatted = subprocess.run([binary, "--style=file", "--assume-filename=" + path],
                                   input=text, capture_output=True, text=True, check=True).stdout
        if formatted != text:
            bad.append(os.path.relpath(path, REPO))
    for path in bad:
        print("not formatted: %s (clang-format -i %s)" % (path, path))
    print("js format: %d files, %d to reformat" % (len(paths), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
