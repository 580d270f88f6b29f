"""The development configuration in a real browser (issue 32): what the README's first
screen shows, checked and photographed.

The real skinpulsed runs on etc/dev/skinpulsed.ini (its five simulated markets and [dev]
mode) in a temporary directory, after tools/dev-history seeded its history through
skinpulsectl backfill as tools/dev-run does. Headless Chromium then opens the Spreads page
(several markets, net spreads), a Doppler knife's page (every phase priced per market),
the Status page (the lagging market stale), and signs in with "Sign in (development)"
(the real OpenID 2.0 flow against the daemon's own provider), imports the demo inventory
and enters what was paid for the knife (a P&L). Each page is checked as a trader would
read it — no "—" where the markets give a value, no sideways scroll, each Doppler phase
with its own 24h change, the portfolio's single value point said in words, no item
placeholder clipped — and shot at 1280
and 375 px into $SKINPULSE_DEV_SCREENSHOT_DIR (default: the build tree's
screenshots-dev). With SKINPULSE_DEV_SCREENSHOT_DIR=docs/screenshots the README's
pictures are regenerated.
"""
import os
import subprocess
import sys
import tempfile
import time
import unittest

from browser_support import BrowserTestCase
from harness import SOURCE_DIR, Daemon, run_tool, wait_until

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

DOPPLER = "\u2605 Karambit | Doppler (Factory New)"
MARKETS = ("simulated", "sim-dear", "sim-bids", "sim-sales", "sim-lagging")


class DevScreensTest(BrowserTestCase):
    SHOTS = os.environ.get("SKINPULSE_DEV_SCREENSHOT_DIR",
                           os.path.join(tempfile.gettempdir(), "skinpulse-dev-shots"))
    WAIT_SECONDS = 20
    SETTLE_SECONDS = 0.5
    # Small pictures for the README, each from the top of its page.
    SHOT_FROM_TOP = True
    SHOT_MAX_BYTES = 300 * 1024

    @classmethod
    def setUpClass(cls):
        cls.make_workdir("skinpulse-dev-screens-")
        source = os.path.abspath(SOURCE_DIR)
        with open(os.path.join(source, "etc", "dev", "skinpulsed.ini"), encoding="utf-8") as f:
            ini = f.read().replace("seed_file = share/simulated/seed.tsv",
                                   "seed_file = " + os.path.join(source, "share/simulated/seed.tsv"))
        # The config keeps its place in an etc/dev folder of its own (dev mode refuses the
        # packaged etc/skinpulse; any other folder is a development one).
        cls.daemon = Daemon(cls.tmp, ini=ini, env={"REDIS_URL": ""})
        history = os.path.join(cls.tmp, "history.jsonl")
        with open(history, "w", encoding="utf-8") as out:
            subprocess.run([sys.executable, os.path.join(source, "tools", "dev-history"),
                            "--config", cls.daemon.config,
                            "--seed-file", os.path.join(source, "share/simulated/seed.tsv")],
                           stdout=out, check=True, cwd=source)
        result = run_tool("skinpulsectl", "backfill", "--config", cls.daemon.config, "--file",
                          history, env=cls.daemon.env, timeout=300)
        assert result.returncode == 0, result.stderr + result.stdout
        cls.daemon.start()
        cls.base = "http://127.0.0.1:%d" % cls.daemon.port

        def fresh():
            sources = {s["name"]: s for s in cls.daemon.get("/api/v1/sources").json()}
            return all(sources.get(n, {}).get("last_success") for n in MARKETS)
        wait_until(fresh, timeout=60, every=0.5)

        # This suite keeps no console log (it does not collect), and the README's pictures
        # have no scrollbars.
        cls.start_browser(watch_console=False, extra_args=("--hide-scrollbars",))

    # -- helpers ---------------------------------------------------------------------------
    def assert_placeholders_fit(self):
        """Every image placeholder's label fits its tile (no clipped "ARAMBI", no wrapped
        "DESERT EAGLE"), at 1280 and 375 px."""
        for width in (1280, 375):
            self.driver.set_window_size(width, 900)
            time.sleep(0.5)
            clipped = self.driver.execute_script("""
                // Tiles the layout hides (the holdings' cards at 375 px) are skipped.
                return [...document.querySelectorAll('.img-fallback')]
                    .filter((tile) => tile.getClientRects().length > 0).map((tile) => {
                  const label = tile.firstElementChild, box = tile.getBoundingClientRect();
                  const r = label.getBoundingClientRect();
                  const fits = r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
                      r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 &&
                      label.scrollWidth <= label.clientWidth + 1 && label.getClientRects().length === 1;
                  return fits ? null : tile.title + ' -> ' + label.textContent;
                }).filter(Boolean);""")
            self.assertEqual(clipped, [], "placeholders clipped at %d px" % width)
        self.driver.set_window_size(1280, 900)

    def item_id(self, name):
        import urllib.parse
        found = self.daemon.get("/api/v1/items?limit=20&q=" + urllib.parse.quote(name)).json()
        return next(i["id"] for i in found if i["market_hash_name"] == name)

    # -- the pages (run in name order) -----------------------------------------------------
    def test_1_spreads_across_several_markets(self):
        self.open("/spreads")
        rows = self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#view table tbody tr"),
                         message="spread rows")
        self.assertGreaterEqual(len(rows), 5)
        table = self.text("#view table")
        self.assertNotIn("No item has a fresh listing", self.text("#view"))
        self.assertGreaterEqual(sum(1 for m in MARKETS if m in table), 2, table[:400])
        self.shoot("dev-spreads", showing="#view table", max_height=1100)

    def test_2_a_phased_doppler(self):
        self.open("/items/%d" % self.item_id(DOPPLER))
        self.wait(lambda: "Phase 2" in self.text("#view"), message="the phases")
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#chart canvas"), message="chart")
        time.sleep(1.5)
        view = self.text("#view")
        for phase in ("Phase 1", "Phase 2", "Phase 3", "Phase 4", "Ruby", "Sapphire", "Black Pearl"):
            self.assertIn(phase, view)
        self.assertIn("sim-dear", view)
        # The base's 24h change has a value (a month of history for the same markets).
        self.wait(lambda: "%" in self.text("#change-24h"), message="the 24h change")
        self.assertNotEqual(self.text("#consensus-price"), "—")
        # Each phase walks on its own (tools/dev-history): the 24h changes of the seven
        # phase cards are not one number repeated.
        def phase_changes():
            cells = self.driver.find_elements(By.CSS_SELECTOR, ".phase-card .phase-change")
            texts = [c.text for c in cells]
            return texts if len(texts) == 7 and all("%" in t for t in texts) else None
        changes = self.wait(phase_changes, message="every phase's 24h change")
        self.assertGreaterEqual(len(set(changes)), 4, changes)
        self.assert_placeholders_fit()
        self.shoot("dev-doppler", showing="#chart canvas", max_height=1600)

    def test_3_markets_one_stale(self):
        # sim-lagging answered once, then stopped: stale 45 s after that poll.
        def lagging_stale():
            sources = {s["name"]: s for s in self.daemon.get("/api/v1/sources").json()}
            return not sources["sim-lagging"]["fresh"]
        self.wait(lagging_stale, timeout=75, message="sim-lagging stale")
        self.open("/status")
        self.wait(lambda: "sim-lagging" in self.text("#view"), message="the markets")
        time.sleep(1)
        view = self.text("#view")
        for market in MARKETS:
            self.assertIn(market, view)
        row = next(r for r in self.driver.find_elements(By.CSS_SELECTOR, "#view tbody tr")
                   if r.text.startswith("sim-lagging"))
        # Stale, and failing since it stopped answering (the page says which).
        self.assertTrue("stale" in row.text.lower() or "failing" in row.text.lower(), row.text)
        self.assertIn("0", row.text.split())  # no item priced fresh
        self.shoot("dev-status", showing="#view", max_height=2000)

    def test_4_development_sign_in_portfolio_and_pl(self):
        self.open("/portfolio")
        button = self.wait(lambda: self.driver.find_elements(By.ID, "signin-gameid"),
                           message="the development sign-in")[0]
        self.assertEqual(button.text, "Sign in (development)")
        button.click()
        self.wait(lambda: self.driver.find_elements(By.ID, "account-name"), message="signed in")
        self.assertEqual(self.text("#account-name"), "Demo Trader")
        self.wait(lambda: self.driver.find_element(By.ID, "import-btn").is_enabled(), message="import")
        self.driver.find_element(By.ID, "import-btn").click()
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#holdings tbody tr"),
                  message="holdings")
        # The markets report held items from their next poll: every holding priced.
        def priced():
            time.sleep(2)
            self.driver.refresh()
            rows = self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#holdings tbody tr"),
                             message="holdings")
            return rows and not any("no price" in r.text for r in rows)
        self.wait(priced, timeout=60, message="every holding priced")
        # What was paid for the knife: a P&L.
        row = self.wait(lambda: [r for r in self.driver.find_elements(By.CSS_SELECTOR, "#holdings tbody tr")
                                 if "Doppler" in r.text], message="the knife")[0]
        self.assertIn("Phase 2", row.text)
        row.find_element(By.CSS_SELECTOR, ".edit-paid").click()
        amount = self.wait(lambda: self.driver.find_element(By.CSS_SELECTOR, "#holdings .paid-input"),
                           message="paid input")
        amount.send_keys("1650")
        amount.send_keys(Keys.ENTER)
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#holdings td.pl .chg"),
                  message="P&L")
        self.wait(lambda: self.text("#total-pl").startswith(("+$", "-$", "−$")), message="total P&L")
        # A new portfolio has one value snapshot (its first import): the chart says so in
        # words over a few hours' axis, not a month with one dot at its edge.
        first = self.wait(lambda: self.driver.find_elements(By.ID, "value-first-point"),
                          message="the value history's first point")[0]
        self.assertIn("Value is recorded hourly from your first import", first.text)
        self.assertIn("$", first.text)
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#value-chart canvas"))
        self.assert_placeholders_fit()
        self.shoot("dev-portfolio", showing="#holdings", max_height=1500)


if __name__ == "__main__":
    unittest.main()
