"""lisskins end to end: the real daemon downloads a generated lis-skins export of ~85 MB
from a local fake (chunked, generated while sent), parses it as a stream and stores one
price per catalogue item with its listing count — trade-locked lots, listed cheaper beside
the tradable ones, never set it — while its memory grows by a small fraction of the document (plugins/sources/lisskins/README.md, docs/adr/0013-streaming-bodies.md).
A document over the instance's cap fails as too large and stores nothing."""
import json
import os
import threading
import time
import unittest
import urllib.parse

from fakes.lisskins_export import LAST_UPDATE, ListingBlock, LisskinsExport
from harness import SOURCE_DIR, Daemon, DaemonTestCase, wait_until

AK = "AK-47 | Redline (Field-Tested)"
NAMES_IN_CATALOGUE = 3400
NAMES_ELSEWHERE = 100  # names the catalogue does not have: counted, not stored
PER_NAME = 2           # listings of each name per block
REPEAT = 80            # blocks: ~85 MB
LOCKED_PER_NAME = 1    # trade-locked lots of each name per block, at half its base price


def catalogue_names(count):
    names = [AK]
    with open(os.path.join(SOURCE_DIR, "share/catalog/items.jsonl"), encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            if "variant" in entry:  # a variant line repeats its base's name
                continue
            name = entry["market_hash_name"]
            if not name.startswith("#") and name != AK:
                names.append(name)
            if len(names) == count:
                break
    return names


def base_price(name, index):
    return 15.0 if name == AK else 0.05 + (index * 37 % 5000) / 10


def memory_kb(pid, field):
    with open("/proc/%d/status" % pid, encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


class RssSampler(threading.Thread):
    """The largest VmRSS of `pid` seen every 20 ms until stop()."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            try:
                self.peak = max(self.peak, memory_kb(self.pid, "VmRSS"))
            except OSError:
                return
            time.sleep(0.02)

    def stop(self):
        self.done.set()
        self.join(2)


class LisskinsStreamTest(DaemonTestCase):
    @classmethod
    def setUpClass(cls):
        names = catalogue_names(NAMES_IN_CATALOGUE)
        names += ["Not An Item %d | lis-skins only" % i for i in range(NAMES_ELSEWHERE)]
        cls.block = ListingBlock(names, PER_NAME, base_price, locked_per_name=LOCKED_PER_NAME)

    def sources(self, daemon):
        return {s["name"]: s for s in daemon.admin_get("/readyz").json()["sources"]}

    def find_id(self, daemon, name):
        items = daemon.get("/api/v1/items?limit=500&q=" + urllib.parse.quote(name)).json()
        return next(i["id"] for i in items if i["market_hash_name"] == name)

    def test_export_is_streamed_with_bounded_memory(self):
        with LisskinsExport(self.block, REPEAT) as fake:
            size = fake.size()
            self.assertGreater(size, 60_000_000)
            ini = ("[source.lisskins]\nplugin = lisskins\ninterval_seconds = 3600\n"
                   "timeout_seconds = 120\nurl = %s\n") % fake.url("export.json")
            with Daemon(self.workdir, ini=ini) as daemon:
                ak = self.find_id(daemon, AK)
                pid = daemon.proc.pid
                # The fake holds the first answer: the figures before the download.
                self.assertTrue(wait_until(lambda: fake.requests, timeout=20), daemon.stderr())
                time.sleep(0.5)
                rss_before = memory_kb(pid, "VmRSS")
                hwm_before = memory_kb(pid, "VmHWM")
                sampler = RssSampler(pid)
                sampler.start()
                started = time.time()
                fake.release.set()
                state = wait_until(
                    lambda: (lambda s: s if s["last_success"] or s["last_error"] else None)(
                        self.sources(daemon)["lisskins"]), timeout=50, every=0.1)
                elapsed = time.time() - started
                sampler.stop()
                self.assertTrue(state and state["last_success"], (state, daemon.stderr()))
                hwm_after = memory_kb(pid, "VmHWM")

                # One price per catalogue item; the others counted as not in the catalogue.
                self.assertEqual(state["points_accepted"], NAMES_IN_CATALOGUE, state)
                self.assertEqual(state["points_rejected"].get("not in catalogue"),
                                 NAMES_ELSEWHERE, state)
                history = daemon.get("/api/v1/items/%d/history?source=lisskins" % ak).json()
                self.assertEqual(len(history), 1, history)
                point = history[0]
                # $15 ± 10-30 %: p05 of its listings in cents, never dollars or mills.
                self.assertTrue(1000 <= point["price"] <= 6000, point)
                # Every block's lowest lot a buyer can take now: 15 x 0.9. The locked lots at
                # 15 x 0.5 are skipped and counted, never a price or a listing.
                self.assertEqual(point["price"], 1350)
                self.assertEqual(point["listings"], PER_NAME * REPEAT, point)
                self.assertEqual(state["rows_skipped"].get("locked"),
                                 LOCKED_PER_NAME * REPEAT * (NAMES_IN_CATALOGUE + NAMES_ELSEWHERE),
                                 state)
                self.assertEqual(point["kind"], "ask", point)
                self.assertEqual(point["volume"], 0, point)
                self.assertEqual(point["time"], time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                              time.gmtime(LAST_UPDATE)), point)

                # Memory: the daemon grew by far less than the document it read.
                grown_rss = (sampler.peak - rss_before) * 1024
                grown_hwm = max(0, hwm_after - hwm_before) * 1024
                print("\nlisskins fake cycle: %d items priced from %d listings, %.1f MB "
                      "document, poll %.1f s; daemon RSS before %.1f MiB, peak during +%.1f MiB, "
                      "VmHWM +%.1f MiB" % (state["points_accepted"], len(self.block.prices) *
                                           PER_NAME * REPEAT, size / 1e6, elapsed,
                                           rss_before / 1024, grown_rss / 2**20,
                                           grown_hwm / 2**20))
                self.assertLess(grown_rss, size / 3)
                self.assertLess(grown_hwm, size / 3)
                lines = [l for l in daemon.stderr().splitlines() if "lisskins:" in l]
                self.assertTrue(any("listings" in l for l in lines), daemon.stderr())
                print("\n".join(lines))

    def test_export_over_the_cap_fails_as_too_large(self):
        with LisskinsExport(self.block, 30) as fake:
            fake.release.set()
            ini = ("[source.small_cap]\nplugin = lisskins\ninterval_seconds = 3600\n"
                   "timeout_seconds = 60\nmax_bytes = 10000000\nurl = %s\n") % fake.url("big.json")
            with Daemon(self.workdir, ini=ini) as daemon:
                state = wait_until(lambda: (lambda s: s if s["last_error"] else None)(
                    self.sources(daemon)["small_cap"]), timeout=40)
                self.assertTrue(state, daemon.stderr())
                self.assertIn("over the byte cap", state["last_error"])
                self.assertIsNone(state["last_success"])
                self.assertEqual(state["points_accepted"], 0)
                ak = self.find_id(daemon, AK)
                self.assertEqual(
                    daemon.get("/api/v1/items/%d/history?source=small_cap" % ak).json(), [])


if __name__ == "__main__":
    unittest.main()
