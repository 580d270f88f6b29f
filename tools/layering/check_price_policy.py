#!/usr/bin/env python3
"""The price-policy check: the facts of the price policy live in one place.

Usage: check_price_policy.py [--daemon DIR] [--owners FILE] [--count]

Reads the owners table (price-policy-owners.txt beside this script): for each fact, the
daemon files allowed to name it. A fact is either a configuration key such as
`exclude_outliers` (matched as a whole word anywhere, comments included) or a primitive
written with a trailing `(`, such as `referenceOrder(` (matched as the free function,
bare or as `skinpulse::referenceOrder(`: `policy.referenceOrder(` and
`PricePolicy::referenceOrder(` are the policy's member, and fine). Scans
daemon/**/*.{hpp,cpp,h} and reports every line outside the owners. Exit 0 when none,
1 otherwise. --count prints, per fact, the number of files naming it, then exits 0.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SOURCE_SUFFIXES = (".hpp", ".cpp", ".h")


def read_owners(path):
    owners = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fact, sep, files = line.partition(": ")
            if not sep or not fact:
                sys.exit("%s:%d: expected '<fact>: <files>'" % (path, number))
            if fact in owners:
                sys.exit("%s:%d: %s listed twice" % (path, number, fact))
            owners[fact] = set(files.split())
    return owners


def pattern(fact):
    if fact.endswith("("):
        name = re.escape(fact[:-1])
        # The free function, called or declared, bare or as skinpulse::name: not a
        # member of the policy (policy.name(, policy->name(, PricePolicy::name().
        return re.compile(r"(?<![\w.>:])(?:skinpulse::)?" + name + r"\s*\(")
    return re.compile(r"\b" + re.escape(fact) + r"\b")


def sources(daemon):
    for root, dirs, files in os.walk(daemon):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(root, name)
                yield os.path.relpath(path, daemon).replace(os.sep, "/"), path


def scan(daemon, owners):
    """fact -> {file: [(line number, text)]} for every file naming the fact."""
    found = {fact: {} for fact in owners}
    compiled = {fact: pattern(fact) for fact in owners}
    for rel, path in sources(daemon):
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, 1):
                for fact, regex in compiled.items():
                    if regex.search(text):
                        found[fact].setdefault(rel, []).append((number, text.rstrip()))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--daemon", default=os.path.join(REPO, "daemon"))
    parser.add_argument("--owners", default=os.path.join(HERE, "price-policy-owners.txt"))
    parser.add_argument("--count", action="store_true")
    args = parser.parse_args()
    owners = read_owners(args.owners)
    found = scan(args.daemon, owners)
    if args.count:
        for fact in owners:
            print("%s: %d file(s)" % (fact, len(found[fact])))
        return 0
    bad = 0
    for fact, files in found.items():
        for rel, lines in files.items():
            if rel in owners[fact]:
                continue
            for number, text in lines:
                print("daemon/%s:%d: names %s outside its owners (%s): %s"
                      % (rel, number, fact, args.owners, text.strip()))
                bad += 1
    if bad:
        print("%d line(s) name a price-policy fact outside its owners: read "
              "prices::PricePolicy instead" % bad)
        return 1
    print("price policy: every fact named only by its owners")
    return 0


if __name__ == "__main__":
    sys.exit(main())
