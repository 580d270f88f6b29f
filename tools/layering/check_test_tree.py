#!/usr/bin/env python3
"""The unit-test tree mirrors the source tree.

Usage: check_test_tree.py [--root DIR] [--count]

Every area of tests/unit/ names a source folder:
  tests/unit/<folder>/          daemon/<folder>/
  tests/unit/sdk/               sdk/
  tests/unit/plugins/<kind>/    plugins/<kind>/   (each bundled plugin kind)
and every <Name>Test.cpp in an area tests a class of that folder: the folder (searched
recursively for sdk/ and plugins/<kind>/) holds a file <Name>.* (snake_case file names
match too: url_encoding.hpp is UrlEncoding), or <Name> is <Class><Aspect> for such a
class (IngestCycleTimingsTest tests IngestCycle's timings, ImportLockRedisTest the
ImportLock on Redis). Suites that test a feature rather than one class are listed in
EXCEPTIONS with the reason. Exit 0 when all holds, 1 otherwise; --count prints the
areas that name no folder and the suites that name no class, then exits 0.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SOURCE_SUFFIXES = (".hpp", ".cpp", ".h", ".hpp.in")

# area/Suite -> why the suite names no class of its folder. Keep it short: a suite of
# one class belongs under that class's name.
EXCEPTIONS = {
    # Contract tests: one market plugin against its captured upstream bodies (issue 28).
    "plugins.sources/CsfloatContractTest": "csfloat's contract on captured bodies",
    "plugins.sources/CsgotraderContractTest": "json_http on the csgotrader feeds",
    "plugins.sources/DmarketContractTest": "dmarket's contract on captured bodies",
    "plugins.sources/LisskinsContractTest": "lisskins' contract on captured bodies",
    "plugins.sources/SkinportContractTest": "skinport's contract on captured bodies",
    "plugins.sources/SteamSearchModeTest": "steam_market's search mode (SteamMarketSource)",
    "plugins.sources/JsonHttpFeedsTest": "json_http mapped onto real keyless feeds",
    # The store's contract, run on each backend (StoreContract*.cpp beside it).
    "store/StorePostgresTest": "the store contract on PostgreSQL",
    "store/StoreSqliteTest": "the store contract on SQLite",
    # Features across classes of one folder.
    "ingest/SdkCompatibilityTest": "plugins built against older SDK headers, through a cycle",
    "ingest/VariantsTest": "item variants from catalogue names through the normaliser",
    "app/MetricSettingsTest": "the [metrics] settings (app/Settings)",
    "app/OptionTableTest": "common/OptionTable with the daemon's key list (app/ConfigSchema)",
    "http/RouteLabelTest": "the route label the router hands http/RequestMetrics",
    "plugin/PollReportTest": "a source's poll report through the registry (PluginReport)",
    "state/RedisLostReplyRedisTest": "RedisSharedStore when Redis drops a reply",
    "metrics/MetricPluginsTest": "the bundled metric plugins against reference formulas",
    "portfolio/ImportPlatformIdTest": "the import's platform-id rule (auth/PlatformId)",
    "rates/RatesPluginKindTest": "the rates plugin kind through the plugin registry",
    "telemetry/HistogramTest": "the Histogram of telemetry/Metrics.hpp",
    "sdk/QuoteSourceTest": "the quote-source interface of source.hpp",
}

WORD = re.compile(r"[A-Z][a-z0-9]*|[a-z0-9]+")


def normal(name):
    return name.replace("_", "").lower()


def source_folder(root, area):
    """The source folder an area mirrors, or None."""
    if area == "sdk":
        return os.path.join(root, "sdk")
    if area.startswith("plugins."):
        path = os.path.join(root, "plugins", area[len("plugins."):])
    else:
        path = os.path.join(root, "daemon", area)
    return path if os.path.isdir(path) else None


def stems(folder, recursive):
    names = set()
    for base, _, files in os.walk(folder):
        for name in files:
            if name.endswith(SOURCE_SUFFIXES):
                names.add(normal(name.split(".", 1)[0]))
        if not recursive:
            break
    return names


def names_a_class(suite, known):
    """True when suite (without Test) is a class of known, or <Class><Aspect>."""
    words = WORD.findall(suite)
    for n in range(len(words), 0, -1):
        if normal("".join(words[:n])) in known:
            return True
    return False


def areas(unit):
    """(area, directory) for every area: tests/unit/<a>/ and tests/unit/plugins/<kind>/."""
    for name in sorted(os.listdir(unit)):
        path = os.path.join(unit, name)
        if not os.path.isdir(path):
            continue
        if name == "plugins":
            for kind in sorted(os.listdir(path)):
                if os.path.isdir(os.path.join(path, kind)):
                    yield "plugins." + kind, os.path.join(path, kind)
        else:
            yield name, path


def check(root):
    """(areas that name no folder, suites that name no class, stale exceptions)."""
    unit = os.path.join(root, "tests", "unit")
    bad_areas, bad_suites, seen = [], [], set()
    for area, path in areas(unit):
        folder = source_folder(root, area)
        if folder is None:
            bad_areas.append(area)
            continue
        known = stems(folder, recursive=(area == "sdk" or area.startswith("plugins.")))
        for name in sorted(os.listdir(path)):
            if not name.endswith("Test.cpp"):
                continue
            suite = name[:-len("Test.cpp")]
            key = "%s/%sTest" % (area, suite)
            if key in EXCEPTIONS:
                seen.add(key)
                if names_a_class(suite, known):
                    bad_suites.append((key, "names a class now; drop its exception"))
                continue
            if not names_a_class(suite, known):
                bad_suites.append((key, "no file %s.* in %s" % (suite, os.path.relpath(folder, root))))
    stale = sorted(set(EXCEPTIONS) - seen)
    return bad_areas, bad_suites, stale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=REPO)
    ap.add_argument("--count", action="store_true")
    args = ap.parse_args()
    bad_areas, bad_suites, stale = check(args.root)
    if args.count:
        print("%d areas name no source folder: %s" % (len(bad_areas), " ".join(bad_areas)))
        print("%d suites name no class of their folder" % len(bad_suites))
        return 0
    problems = ["tests/unit area %s names no source folder (daemon/<folder>, sdk, plugins/<kind>)"
                % a for a in bad_areas]
    problems += ["tests/unit %s: %s" % (k, why) for k, why in bad_suites]
    problems += ["exception %s lists no suite; drop it" % k for k in stale]
    for p in problems:
        print(p)
    if problems:
        print("test_tree: %d problem(s); see %s" % (len(problems), os.path.abspath(__file__)))
        return 1
    print("test_tree: every tests/unit area mirrors a source folder, every suite a class")
    return 0


if __name__ == "__main__":
    sys.exit(main())
