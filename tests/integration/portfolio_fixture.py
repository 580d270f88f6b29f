"""The set-up the portfolio suites share (test_portfolio*.py, test_cost_basis_csv.py).

- A local fake of the platform's inventory endpoint (fake_inventory.py) for the imports.
- Users signed in the way real ones are: through the daemon's own gameid login flow
  (session created, flow kept in it, callback, session rotated, cookie set). The provider
  behind it is the `scripted` test identity plugin (tests/plugins/identity_scripted.cpp),
  which asserts the platform id its callback query names, so every test gets a fresh
  linked user without a real OpenID provider. The CSRF token comes from
  GET /api/v1/auth/csrf.
- Prices loaded with `skinpulsectl backfill` before the daemon starts.
- PortfolioDaemonTest: one fake inventory and one daemon for a whole test class, on SQLite,
  or on a fresh PostgreSQL schema of its own when the class sets `store = POSTGRESQL` (the
  class is skipped unless SKINPULSE_TEST_POSTGRES_URL names a database). A suite states
  only what differs: its cooldown, its config lines, its prices, its identity set-up.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.parse
from itertools import count

from fake_inventory import FakeInventory
from harness import TEST_PLUGIN_DIR, Daemon, DaemonTestCase, cookie_of, iso, run_tool

ITEM_A = "AK-47 | Redline (Field-Tested)"
ITEM_B = "Recoil Case"
ITEM_C = "★ Karambit | Doppler (Factory New)"
MAX_BYTES = 256 * 1024
POSTGRES_URL = os.environ.get("SKINPULSE_TEST_POSTGRES_URL")
SQLITE = "sqlite"
POSTGRESQL = "postgresql"
_ids = count(76561197960300001)


def next_platform_id():
    return str(next(_ids))


class User:
    """A signed-in browser: its session cookie and CSRF token."""

    def __init__(self, daemon, cookie, platform_id):
        self.daemon = daemon
        self.cookie = cookie
        self.platform_id = platform_id
        self.csrf = None

    def csrf_token(self):
        """The session's CSRF token, asked for once."""
        if self.csrf is None:
            token = self.daemon.get("/api/v1/auth/csrf", headers={"Cookie": self.cookie})
            assert token.status == 200, token.body
            self.csrf = token.json()["csrf_token"]
        return self.csrf

    def request(self, method, path, csrf=True, body=None):
        headers = {"Cookie": self.cookie}
        if csrf and method == "POST":
            headers["X-CSRF-Token"] = self.csrf_token()
        return self.daemon.request(method, path, body=body, headers=headers)

    def import_(self, **kw):
        return self.request("POST", "/api/v1/portfolio/import", **kw)

    def portfolio(self):
        return self.request("GET", "/api/v1/portfolio")


def sign_in(daemon, provider="gameid", platform_id=None, email=None):
    """The login flow of `provider` through the scripted plugin; returns a User."""
    start_path = "/api/v1/auth/gameid/login" if provider == "gameid" else "/api/v1/auth/" + provider
    start = daemon.get(start_path)
    assert start.status == 302, (start.status, start.body)
    anonymous = cookie_of(start)
    location = urllib.parse.urlsplit(start.header("location"))
    query = dict(urllib.parse.parse_qsl(location.query))
    callback = urllib.parse.urlsplit(query["redirect_uri"]).path
    params = {"state": query["state"], "replay": "r-%f-%s" % (time.time(), platform_id or email)}
    if platform_id:
        params["subject"] = platform_id
    if email:
        params.update({"subject": email, "email": email, "verified": "1"})
    done = daemon.get(callback + "?" + urllib.parse.urlencode(params),
                      headers={"Cookie": anonymous})
    assert done.status == 302, (done.status, done.body)
    assert "auth_error" not in done.header("location"), done.header("location")
    return User(daemon, cookie_of(done), platform_id)


def holding(body, name):
    """The holding of `name` in a GET /api/v1/portfolio body."""
    return next(h for h in body["holdings"] if h["market_hash_name"] == name)


def patch_holding(user, item_id, body, csrf=True, cookie=True, raw=None):
    """PATCH /api/v1/portfolio/holdings/:item_id with `body` as JSON (or the bytes `raw`)."""
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = user.cookie
    if csrf:
        headers["X-CSRF-Token"] = user.csrf_token()
    data = raw if raw is not None else json.dumps(body).encode()
    return user.daemon.request("PATCH", "/api/v1/portfolio/holdings/%s" % item_id, body=data,
                               headers=headers)


# -- the daemon -------------------------------------------------------------------------
def daemon_env(fake, **extra):
    env = {
        "SKINPULSE_PLUGIN_DIR": os.path.abspath(os.path.join(TEST_PLUGIN_DIR, "integration")),
        "GAMEID_OPENID_ENABLED": "true",
        "GAMEID_OPENID_URL": "http://127.0.0.1:9/openid/login",
        "IDPA_CLIENT_ID": "test-client",
        "IDPA_CLIENT_SECRET": "test-secret",
        "GAMEID_INVENTORY_URL": fake.base_url,
        "INVENTORY_MAX_BYTES": str(MAX_BYTES),
        "IMPORT_COOLDOWN_SECONDS": "600",
        "AUTH_RATE_LIMIT_PER_MINUTE": "100000",
        "REDIS_URL": "",
    }
    env.update(extra)
    return env


INI = """[identity]
gameid_plugin = scripted
idpa_plugin = scripted
[portfolio]
inventory_timeout_seconds = 2
[gameid]
requests_per_minute = %d
"""
# The shared budget of game-platform requests is tested on its own; elsewhere it is
# large enough never to matter.
UNLIMITED = 100000


def make_daemon(workdir, fake, budget=UNLIMITED, extra_ini="", **extra):
    return Daemon(workdir, ini=INI % budget + extra_ini, env=daemon_env(fake, **extra))


# -- prices -----------------------------------------------------------------------------
def standard_prices(now):
    """Two points of market-a in the last 24 h (+10 cents) for ITEM_A (40.00 → 40.10),
    ITEM_B (0.55 → 0.65) and ITEM_C (1500.00 → 1500.10)."""
    return two_points(now, ((ITEM_A, 4000), (ITEM_B, 55), (ITEM_C, 150000)))


def two_points(now, prices):
    """For each (market_hash_name, cents): that price 2 h ago and 10 cents more 10 min ago."""
    return [{"market_hash_name": name, "source": "market-a", "time": iso(now - age),
             "price": price + delta, "volume": 1}
            for name, price in prices for age, delta in ((7200, 0), (600, 10))]


def backfill(daemon, workdir, lines):
    """Loads the price `lines` with skinpulsectl backfill into `daemon`'s database (before
    the daemon starts)."""
    path = os.path.join(workdir, "history.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    result = run_tool("skinpulsectl", "backfill", "--config", daemon.config, "--file", path,
                      env=daemon.env)
    assert result.returncode == 0, result.stderr + result.stdout


# -- the store --------------------------------------------------------------------------
def psql(sql):
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", POSTGRES_URL, "-c", sql],
                   check=True, capture_output=True)


def postgres_schema_url(schema):
    """A fresh, empty `schema` in the test database; the DATABASE_URL that uses it."""
    psql("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s" % (schema, schema))
    separator = "&" if "?" in POSTGRES_URL else "?"
    return POSTGRES_URL + separator + "options=-csearch_path%3D" + schema


# -- the class fixture ------------------------------------------------------------------
class PortfolioDaemonTest(DaemonTestCase):
    """One fake inventory and one daemon for the whole class, started in setUpClass after
    the class's prices are backfilled, and stopped (its directory and PostgreSQL schema
    removed) after the last test, or at once when the set-up fails half-way.

    A subclass says what differs; everything it leaves alone is the single-import set-up
    of test_portfolio.py (600 s cooldown, the scripted identity plugin, no extra config).
    """

    store = SQLITE  # or POSTGRESQL: a schema of the class's own in SKINPULSE_TEST_POSTGRES_URL
    import_cooldown_seconds = 600
    config_lines = ""  # appended to INI
    # The price lines to backfill, from the class's start time; None backfills nothing.
    prices = staticmethod(standard_prices)
    # The one inventory page of (name, amount) stacks imported_user() imports by default.
    inventory = ()

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if cls.store == POSTGRESQL and not POSTGRES_URL:
            raise unittest.SkipTest("SKINPULSE_TEST_POSTGRES_URL not set")
        cls._classtmp = tempfile.mkdtemp(prefix="skinpulse-%s-" % cls.__name__.lower())
        cls.addClassCleanup(shutil.rmtree, cls._classtmp, ignore_errors=True)
        cls.fake = FakeInventory().start()
        cls.addClassCleanup(cls.fake.stop)
        cls.now = int(time.time())
        store_env = {}
        if cls.store == POSTGRESQL:
            schema = "it_%s_%d" % (cls.__name__.lower(), os.getpid())
            store_env["DATABASE_URL"] = postgres_schema_url(schema)
            cls.addClassCleanup(psql, "DROP SCHEMA IF EXISTS %s CASCADE" % schema)
        cls.start_peers()
        cls.daemon = cls.class_daemon(cls._classtmp, store_env)
        cls.addClassCleanup(cls.daemon.stop)
        if cls.prices is not None:
            backfill(cls.daemon, cls._classtmp, cls.prices(cls.now))
        cls.daemon.start()

    @classmethod
    def start_peers(cls):
        """Starts what the daemon talks to besides the fake inventory (and registers its
        stop with addClassCleanup); nothing by default."""

    @classmethod
    def class_daemon(cls, workdir, store_env):
        """The (not yet started) daemon of the class; `store_env` chooses its database."""
        return make_daemon(workdir, cls.fake, extra_ini=cls.config_lines,
                           IMPORT_COOLDOWN_SECONDS=str(cls.import_cooldown_seconds), **store_env)

    def assertNoStoreProblem(self, response, status, code):
        """A refusal as the portfolio routes answer it: the problem+json `code`, not to be
        cached (no-store), with the security headers; returns the problem."""
        self.assertEqual(response.status, status, response.body)
        self.assertEqual(response.header("content-type"), "application/problem+json")
        self.assertEqual(response.json()["code"], code, response.body)
        self.assertEqual(response.header("cache-control"), "no-store")
        self.assertSecurityHeaders(response)
        return response.json()

    def new_user(self):
        """A fresh user signed in with a new platform id."""
        return sign_in(self.daemon, platform_id=next_platform_id())

    def import_after_cooldown(self, user, timeout=10):
        """POST /portfolio/import for `user`, asked again while the cooldown of its previous
        import runs (429); the answer must be 200."""
        deadline = time.time() + timeout
        while True:
            response = user.import_()
            if response.status != 429 or time.time() > deadline:
                break
            time.sleep(0.3)
        self.assertEqual(response.status, 200, response.body)
        return response

    def imported_user(self, stacks=None):
        """A fresh user whose one-page inventory of (name, amount) `stacks` (the class's
        `inventory` when None) is imported."""
        user = self.new_user()
        self.fake.pages(user.platform_id, [list(self.inventory if stacks is None else stacks)])
        self.import_after_cooldown(user)
        return user
