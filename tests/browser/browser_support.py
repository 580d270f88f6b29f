"""What the browser suites share: headless Chromium started the same way, a test case
that opens pages, waits, reads, collects console errors and CSP violations and takes the
screenshots at 1280 and 375 px, and the setup of a daemon that signs in through the
`scripted` identity plugin (its plugin folder, a seed file of a few items, the fake
identity provider and the environment naming them).

Not a test module (tests/browser/CMakeLists.txt registers the suites by name). Importing
it puts tests/integration on the path, so the suites import its harness and fakes after it.
"""
import http.server
import os
import shutil
import sys
import tempfile
import time
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

from fakes.background_server import BackgroundServer  # noqa: E402
from harness import SOURCE_DIR, TEST_PLUGIN_DIR  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

PLUGIN_BUILD_DIR = os.environ.get("SKINPULSE_PLUGIN_BUILD_DIR", "build/lib/skinpulse/plugins")
SCREENSHOT_DIR = os.environ.get("SKINPULSE_SCREENSHOT_DIR",
                                os.path.join(tempfile.gettempdir(), "skinpulse-shots"))
SHOT_WIDTHS = (1280, 375)

# Records CSP violations from the page's first script on (a violation before a test looks
# would otherwise be lost).
_RECORD_CSP = ("window.__csp = [];"
               "document.addEventListener('securitypolicyviolation', e => "
               "window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def start_chromium(profile_dir, watch_console=True, extra_args=()):
    """Headless Chromium (Debian's chromium and chromedriver) with its own profile and no
    traffic of its own; `watch_console` keeps the console log and records CSP violations
    for BrowserTestCase.collect."""
    options = Options()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", *extra_args,
                "--user-data-dir=" + profile_dir):
        options.add_argument(arg)
    if watch_console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if shutil.which("chromium"):
        options.binary_location = shutil.which("chromium")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.set_page_load_timeout(30)
    if watch_console:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _RECORD_CSP})
    return driver


def link_plugins(folder, names=None):
    """A plugin folder under `folder`: the built plugins `names` (every one when None) and
    the scripted identity plugin of the integration tests. Answers its path."""
    plugins = os.path.join(folder, "plugins")
    os.makedirs(plugins)
    if names is None:
        names = [n for n in os.listdir(PLUGIN_BUILD_DIR) if n.endswith(".so")]
    for name in names:
        os.symlink(os.path.abspath(os.path.join(PLUGIN_BUILD_DIR, name)), os.path.join(plugins, name))
    os.symlink(os.path.abspath(os.path.join(TEST_PLUGIN_DIR, "integration", "identity_scripted.so")),
               os.path.join(plugins, "identity_scripted.so"))
    return plugins


def seed_subset(folder, names):
    """A seed file for the `simulated` source under `folder` with only the lines of
    share/simulated/seed.tsv for `names` (a few items keep a poll short). Answers its path."""
    seed = os.path.join(folder, "seed.tsv")
    with open(os.path.join(SOURCE_DIR, "share/simulated/seed.tsv"), encoding="utf-8") as f, \
            open(seed, "w", encoding="utf-8") as out:
        for line in f:
            if line.split("\t", 1)[0] in names:
                out.write(line)
    return seed


class ScriptedProvider(BackgroundServer):
    """Plays the identity providers for the `scripted` plugin: /idpa sends the browser
    straight back to the callback signed in as `name` <`email`>, /gameid with the next game
    account of `accounts` (the last one again when done)."""

    def __init__(self, email, name, accounts):
        fake = self
        self.accounts = list(accounts)

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                params = {"state": query.get("state", ""), "replay": "r-%f" % time.time()}
                if url.path == "/gameid":
                    params["subject"] = fake.accounts.pop(0) if len(fake.accounts) > 1 else fake.accounts[0]
                else:
                    params.update({"subject": email, "email": email, "verified": "1", "name": name})
                self.send_response(302)
                self.send_header("Location", query["redirect_uri"] + "?" + urllib.parse.urlencode(params))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.listen(Handler)

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)


def scripted_identity_env(plugins, provider, inventory, import_cooldown_seconds):
    """The daemon's environment for signing in through `provider` and importing from the
    fake `inventory`, with the plugins of `plugins`, without Redis, and a sign-in rate
    limit a test never reaches."""
    return {
        "SKINPULSE_PLUGIN_DIR": plugins,
        "IDPA_CLIENT_ID": "browser-test", "IDPA_CLIENT_SECRET": "browser-test",
        "IDPA_AUTH_URL": provider.url("/idpa"),
        "GAMEID_OPENID_ENABLED": "true", "GAMEID_OPENID_URL": provider.url("/gameid"),
        "GAMEID_INVENTORY_URL": inventory.base_url,
        "IMPORT_COOLDOWN_SECONDS": str(import_cooldown_seconds), "AUTH_RATE_LIMIT_PER_MINUTE": "100000",
        "REDIS_URL": "",
    }


class BrowserTestCase(unittest.TestCase):
    """One daemon and one browser for a whole suite, its tests run in name order on the
    state the previous left. A suite's setUpClass calls make_workdir first and
    start_browser last, and sets `daemon`, `base` and the fakes to stop in `peers`."""

    SHOTS = SCREENSHOT_DIR
    WAIT_SECONDS = 15
    # After each window resize: the dashboard relays out and redraws its charts.
    SETTLE_SECONDS = 0.6
    # Start each screenshot at the top of the page (when no panel is named).
    SHOT_FROM_TOP = False
    SHOT_MAX_BYTES = None
    peers = ()

    @classmethod
    def make_workdir(cls, prefix):
        cls.tmp = tempfile.mkdtemp(prefix=prefix)
        os.makedirs(cls.SHOTS, exist_ok=True)

    @classmethod
    def start_browser(cls, watch_console=True, extra_args=()):
        cls.driver = start_chromium(os.path.join(cls.tmp, "chromium"), watch_console, extra_args)
        cls.console, cls.csp = [], []

    @classmethod
    def tearDownClass(cls):
        try:
            cls.driver.quit()
        finally:
            cls.daemon.stop()
            for peer in cls.peers:
                peer.stop()
            shutil.rmtree(cls.tmp, ignore_errors=True)

    # -- the page --------------------------------------------------------------------------
    def open(self, path, width=1280):
        self.driver.set_window_size(width, 900)
        self.driver.get(self.base + path)

    def wait(self, predicate, timeout=None, message="condition"):
        """The first true answer of `predicate` (a page being rebuilt may raise meanwhile);
        fails with the daemon's log tail after `timeout` seconds."""
        deadline = time.time() + (timeout or self.WAIT_SECONDS)
        while time.time() < deadline:
            try:
                value = predicate()
                if value:
                    return value
            except WebDriverException:
                pass
            time.sleep(0.2)
        self.fail("timed out waiting for %s\n--- daemon log (tail) ---\n%s" % (
            message, "\n".join(self.daemon.stderr_lines[-25:])))

    def find(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css).text

    # -- the signed-in trader --------------------------------------------------------------
    def cookie(self):
        return "; ".join("%s=%s" % (c["name"], c["value"]) for c in self.driver.get_cookies())

    def api(self, path, method="GET", body=None, headers=None):
        """The daemon as the signed-in browser sees it (its cookie; a CSRF token for writes)."""
        sent = {"Cookie": self.cookie(), **(headers or {})}
        if method != "GET":
            token = self.daemon.get("/api/v1/auth/csrf", headers={"Cookie": self.cookie()}).json()["csrf_token"]
            sent["X-CSRF-Token"] = token
        return self.daemon.request(method, path, body=body, headers=sent)

    def sign_in(self):
        """Signs in on the Portfolio page with the identity provider's button."""
        self.open("/portfolio")
        self.wait(lambda: self.find("#signin-idp-a"), message="sign-in button")[0].click()
        self.wait(lambda: self.find("#account-name"), message="signed in")

    def link_game_account(self, account):
        """Links the provider's next game account; answers the import button once enabled."""
        self.wait(lambda: self.find("#link-gameid"), message="link button")[0].click()
        self.wait(lambda: account in self.text("#view"), message="the linked account")
        return self.wait(lambda: self.driver.find_element(By.ID, "import-btn").is_enabled()
                         and self.driver.find_element(By.ID, "import-btn"), message="import enabled")

    # -- console errors and CSP violations -------------------------------------------------
    def console_error_counts(self, message):
        """Whether a console error counts: our origin only, since item images come from
        the platform's CDN, which a test machine may not reach."""
        return not message.startswith("http") or message.startswith(self.base)

    def collect(self):
        """Console errors and CSP violations of the current page."""
        for entry in self.driver.get_log("browser"):
            message = entry.get("message", "")
            if entry["level"] == "SEVERE" and self.console_error_counts(message):
                self.console.append(message)
        self.csp.extend(self.driver.execute_script("return window.__csp || []"))

    def assert_no_console_errors_or_csp_violations(self):
        self.assertEqual(self.csp, [], "CSP violations")
        self.assertEqual(self.console, [], "console errors")

    # -- screenshots -----------------------------------------------------------------------
    def shoot(self, name, scroll_to=None, showing=None, max_height=3000):
        """Screenshots `name`-1280.png and `name`-375.png in SHOTS: the window as tall as
        the page, at most `max_height` px; `scroll_to` (CSS) brings a panel below that
        into the picture, `showing` (CSS) must be on the page. A page wider than the window
        (a sideways scroll on a phone) fails the test, as does a picture over
        SHOT_MAX_BYTES."""
        for width in SHOT_WIDTHS:
            self.driver.set_window_size(width, 900)
            time.sleep(self.SETTLE_SECONDS)
            height = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(width, min(max(height, 700), max_height))
            time.sleep(self.SETTLE_SECONDS)
            if scroll_to:
                self.driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", scroll_to)
                time.sleep(self.SETTLE_SECONDS / 2)
            elif self.SHOT_FROM_TOP:
                self.driver.execute_script("window.scrollTo(0, 0)")
            overflow = self.driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            path = os.path.join(self.SHOTS, "%s-%d.png" % (name, width))
            self.driver.save_screenshot(path)
            self.assertLessEqual(overflow, 0, "%s at %d px scrolls sideways by %d px" % (name, width, overflow))
            if showing:
                self.assertTrue(self.find(showing), showing)
            if self.SHOT_MAX_BYTES:
                self.assertLess(os.path.getsize(path), self.SHOT_MAX_BYTES, path)
        self.driver.set_window_size(1280, 900)
