#!/usr/bin/env python3
"""The layering check: every #include between daemon folders follows layers.txt.

Usage: check_layering.py [--daemon DIR] [--table FILE] [--count]

Scans daemon/**/*.{hpp,cpp,h,in} for `#include "<folder>/..."` where <folder> is a
folder of daemon/, and reports every include whose target folder is not reachable from
the including folder in the table (a back-edge, or an edge nobody decided on). It also
reads daemon/CMakeLists.txt, when there is one: every folder must be one library
(`skinpulse_add_library(skinpulse_<folder> DIRS <folder> LIBS ...)`), linking only
libraries of folders its row allows, so the build and the table cannot drift. Exit 0
when all holds, 1 otherwise. daemon/main.cpp counts as the folder `main`.
--count prints the number of offending folder pairs and include lines, then exits 0.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_]+)/')
SOURCE_SUFFIXES = (".hpp", ".cpp", ".h", ".hpp.in")


def read_table(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                sys.exit("%s:%d: expected '<folder>: <folders>'" % (path, number))
            folder, deps = line.split(":", 1)
            folder = folder.strip()
            if folder in table:
                sys.exit("%s:%d: %s listed twice" % (path, number, folder))
            table[folder] = deps.split()
    for folder, deps in table.items():
        for dep in deps:
            if dep not in table:
                sys.exit("%s: %s may include %s, which has no row" % (path, folder, dep))
    return table


def closure(table):
    """folder -> every folder it may include (itself and everything below it)."""
    reach = {}

    def visit(folder, path):
        if folder in reach:
            return reach[folder]
        if folder in path:
            sys.exit("layers table has a cycle: %s" % " -> ".join(path + [folder]))
        result = {folder}
        for dep in table[folder]:
            result |= visit(dep, path + [folder])
        reach[folder] = result
        return result

    for folder in table:
        visit(folder, [])
    return reach


def scan(daemon_dir):
    """Yields (folder, file, line number, target folder) for every cross-folder include."""
    folders = {d for d in os.listdir(daemon_dir) if os.path.isdir(os.path.join(daemon_dir, d))}
    for root, _, files in os.walk(daemon_dir):
        for name in sorted(files):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, daemon_dir)
            folder = rel.split(os.sep)[0] if os.sep in rel else "main"
            if folder == "main" and name != "main.cpp":
                continue  # BuildPaths.hpp.in and the like: no folder
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m and m.group(1) in folders and m.group(1) != folder:
                        yield folder, rel, number, m.group(1)


LIBRARY = re.compile(r"skinpulse_add_library\(\s*skinpulse_(\w+)(.*?)\)", re.S)


def check_libraries(cmake, folders, table, reach):
    """Problems of daemon/CMakeLists.txt against the table (empty when it agrees)."""
    with open(cmake, encoding="utf-8") as f:
        text = f.read()
    problems = []
    libraries = {}
    for name, body in LIBRARY.findall(text):
        words = body.replace("\n", " ").split()
        dirs = words[words.index("DIRS") + 1:] if "DIRS" in words else []
        dirs = [d for d in dirs[:1]]
        libs = []
        if "LIBS" in words:
            for word in words[words.index("LIBS") + 1:]:
                if word in ("EXCLUDE_REGEX", "DIRS"):
                    break
                libs.append(word)
        libraries[name] = (dirs, libs)
    for folder in sorted(folders):
        if folder not in table:
            continue
        if folder not in libraries or libraries[folder][0] != [folder]:
            problems.append("daemon/%s/ is not the library skinpulse_%s (DIRS %s) in %s"
                            % (folder, folder, folder, cmake))
            continue
        for lib in libraries[folder][1]:
            if not lib.startswith("skinpulse_"):
                continue
            dep = lib[len("skinpulse_"):]
            if dep in table and dep not in reach[folder]:
                problems.append("skinpulse_%s links %s, which %s may not include" % (folder, lib, folder))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--daemon", default=os.path.join(REPO, "daemon"))
    ap.add_argument("--table", default=os.path.join(HERE, "layers.txt"))
    ap.add_argument("--cmake", default=None,
                    help="the daemon's CMakeLists.txt (default: <daemon>/CMakeLists.txt)")
    ap.add_argument("--count", action="store_true")
    args = ap.parse_args()

    table = read_table(args.table)
    reach = closure(table)
    problems = []
    unlisted = set()
    for folder in sorted(os.listdir(args.daemon)):
        if os.path.isdir(os.path.join(args.daemon, folder)) and folder not in table:
            unlisted.add(folder)
    pairs = {}
    for folder, rel, number, target in scan(args.daemon):
        if folder not in table or target in reach[folder]:
            continue
        pairs.setdefault((folder, target), []).append("%s:%d" % (rel, number))
    if args.count:
        print("%d folder pairs, %d include lines cross the allowed edges"
              % (len(pairs), sum(len(v) for v in pairs.values())))
        for (folder, target), where in sorted(pairs.items()):
            print("  %s -> %s (%d): %s" % (folder, target, len(where), where[0]))
        return 0
    for folder in sorted(unlisted):
        problems.append("daemon/%s/ has no row in %s" % (folder, args.table))
    cmake = args.cmake or os.path.join(args.daemon, "CMakeLists.txt")
    if os.path.isfile(cmake):
        folders = {d for d in os.listdir(args.daemon) if os.path.isdir(os.path.join(args.daemon, d))}
        problems.extend(check_libraries(cmake, folders, table, reach))
    for (folder, target), where in sorted(pairs.items()):
        for w in where:
            problems.append("daemon/%s includes %s/, which %s may not include" % (w, target, folder))
    for p in problems:
        print(p)
    if problems:
        print("layering: %d problem(s); see %s" % (len(problems), args.table))
        return 1
    print("layering: %d folders, every include follows the table" % len(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
