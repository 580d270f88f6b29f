#!/usr/bin/env python3
"""Fails when daemon/app/Runtime.cpp reaches 150 lines (`wc -l`).

Runtime opens the shared services and runs the module table (daemon/app/ModuleTable.cpp);
wiring belongs in the modules themselves (docs/adr/0024-services-and-module-table.md).
A Runtime that grows again is wiring creeping back: move it into the module that needs it.

Usage: check_runtime_size.py [FILE] [--limit N]
"""

import argparse
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=os.path.join(REPO, "daemon", "app", "Runtime.cpp"))
    ap.add_argument("--limit", type=int, default=150, help="fail at this many lines or more")
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as f:
        lines = f.read().count("\n")  # what `wc -l` counts
    name = os.path.relpath(args.file, REPO)
    if lines >= args.limit:
        print("%s has %d lines (limit: under %d); wiring belongs in the modules and the "
              "module table (docs/adr/0024-services-and-module-table.md)" % (name, lines, args.limit))
        return 1
    print("%s: %d lines (under %d)" % (name, lines, args.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
