#!/usr/bin/env python3
"""The folder maps of the docs, rendered from tools/layering/layers.txt.

Usage: folder_map.py (--write | --check | --print) [--root DIR]

layers.txt is the one place a daemon folder's layer, includes and purpose are written
(the purpose is the text after `#` on the folder's row). This tool renders them as a
Markdown table between the markers

    <!-- folder-map:begin -->
    <!-- folder-map:end -->

in each document of DOCUMENTS. --write rewrites what is between the markers; --check
exits 1 when a document lacks the markers or holds a stale map, when a daemon/ folder
has no row, when a row names no folder, or when a row has no purpose. --print writes
the map to stdout.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_layering  # noqa: E402  (the table's one parser and its checks)

REPO = os.path.dirname(os.path.dirname(HERE))
DOCUMENTS = ("README.md", "docs/architecture.md", "docs/adr/0003-layers.md")
BEGIN = "<!-- folder-map:begin -->"
END = "<!-- folder-map:end -->"
# daemon/main.cpp is the row `main`: the one row that is a file, not a folder.
MAIN = "main"


def read_purposes(path):
    """folder -> the text after `#` on its row (empty when the row has none)."""
    purposes = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            row, _, purpose = line.partition("#")
            purposes[row.split(":", 1)[0].strip()] = purpose.strip()
    return purposes


def layers(table):
    """folder -> its layer: 0 for a row that includes nothing, else one above its
    highest include (so the number says how far from the bottom a folder sits)."""
    level = {}

    def visit(folder):
        if folder not in level:
            level[folder] = 1 + max((visit(d) for d in table[folder]), default=-1)
        return level[folder]

    for folder in table:
        visit(folder)
    return level


def render(table, purposes):
    level = layers(table)
    order = list(table)  # rows keep the table's order within a layer
    rows = sorted(table, key=lambda f: (level[f], order.index(f)))
    lines = [
        "<!-- Generated from tools/layering/layers.txt by tools/layering/folder_map.py"
        " --write; edit the table, not this map. -->",
        "",
        "| Layer | Folder | Purpose | May include |",
        "|---|---|---|---|",
    ]
    for folder in rows:
        name = "`daemon/main.cpp`" if folder == MAIN else "`%s/`" % folder
        deps = ", ".join("`%s`" % d for d in table[folder]) or "—"
        lines.append("| %d | %s | %s | %s |" % (level[folder], name, purposes[folder], deps))
    return "\n".join(lines) + "\n"


def problems_of_table(daemon, table, purposes):
    problems = []
    folders = {d for d in os.listdir(daemon) if os.path.isdir(os.path.join(daemon, d))}
    for folder in sorted(folders - set(table)):
        problems.append("daemon/%s/ has no row in layers.txt" % folder)
    for folder in table:
        if folder != MAIN and folder not in folders:
            problems.append("layers.txt row %s names no folder of daemon/" % folder)
        if not purposes.get(folder):
            problems.append("layers.txt row %s has no purpose (text after '#')" % folder)
    return problems


def splice(text, generated, name):
    """text with what is between the markers replaced by generated (ValueError when
    the markers are missing or out of order)."""
    begin = text.find(BEGIN)
    end = text.find(END)
    if begin < 0 or end < begin or text.count(BEGIN) != 1 or text.count(END) != 1:
        raise ValueError("%s: expected one %s ... %s pair" % (name, BEGIN, END))
    return text[:begin + len(BEGIN)] + "\n" + generated + text[end:]


def main():
    ap = argparse.ArgumentParser()
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--print", action="store_true")
    ap.add_argument("--root", default=REPO, help="the checkout (default: this one)")
    args = ap.parse_args()

    table_path = os.path.join(args.root, "tools", "layering", "layers.txt")
    table = check_layering.read_table(table_path)
    check_layering.closure(table)  # refuses a cycle
    purposes = read_purposes(table_path)
    problems = problems_of_table(os.path.join(args.root, "daemon"), table, purposes)
    if problems and not args.check:
        sys.exit("\n".join(problems))
    generated = render(table, {f: purposes.get(f, "") for f in table})
    if args.print:
        sys.stdout.write(generated)
        return 0
    for name in DOCUMENTS:
        path = os.path.join(args.root, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            new = splice(text, generated, name)
        except ValueError as e:
            problems.append(str(e))
            continue
        if new == text:
            continue
        if args.write:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print("folder_map: rewrote %s" % name)
        else:
            problems.append("%s: the folder map is stale; run tools/layering/folder_map.py --write"
                            % name)
    for p in problems:
        print(p)
    if problems:
        return 1
    if args.check:
        print("folder_map: %d documents carry the map of %d rows" % (len(DOCUMENTS), len(table)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
