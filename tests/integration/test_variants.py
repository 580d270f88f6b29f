"""Item variants (docs/api.md §18) against the real daemon, on SQLite and on PostgreSQL
(the second when SKINPULSE_TEST_POSTGRES_URL is set, in a schema of its own).

A catalogue of its own holds `★ Bayonet | Doppler (Factory New)` with its seven Doppler
variant lines. History loaded with `skinpulsectl backfill` names variants per line; the
tests then read the catalogue (base items by default, `variants=true`), the item detail of
a base and of a variant, and every per-item endpoint on a variant id (history, candles,
volatility, the volatility ranking, alerts). An inventory import whose assets carry their
paint index (`asset_properties`, propertyid 7) holds and values each knife at its phase.

The Skinport case (a `/v1/items` body that lists the name once per `version`, real prices
of 2026-09) runs once the skinport plugin names each row's variant (SDK ABI 1.3,
plugins/sources/skinport): until then it says why it is skipped.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.parse

from fake_inventory import FakeInventory
from fakes.background_server import BackgroundServer
from harness import SOURCE_DIR, Daemon, DaemonTestCase, iso, run_tool, wait_until
from test_alerts import plugin_dir
from portfolio_fixture import INI as PORTFOLIO_INI
from portfolio_fixture import UNLIMITED, daemon_env, next_platform_id, sign_in

PG_URL = os.environ.get("SKINPULSE_TEST_POSTGRES_URL")
AK = "AK-47 | Redline (Field-Tested)"
KNIFE = "★ Bayonet | Doppler (Factory New)"
# sdk/include/skinpulse/sdk/variants.hpp, in its order.
DOPPLER = ["Phase 1", "Phase 2", "Phase 3", "Phase 4", "Ruby", "Sapphire", "Black Pearl"]
# Paint indexes of the Doppler kits (the same header): Ruby 415, Phase 3 420.
RUBY_KIT, PHASE3_KIT, GAMMA_PHASE1_KIT = 415, 420, 569


def write_catalogue(path):
    base = {"market_hash_name": KNIFE, "weapon_type": "Bayonet", "skin_name": "Doppler",
            "rarity": "Covert", "stattrak": False, "image_url": ""}
    lines = [{"market_hash_name": AK, "weapon_type": "AK-47", "skin_name": "Redline",
              "rarity": "Classified", "stattrak": False, "image_url": ""}, base]
    lines += [dict(base, variant=v) for v in DOPPLER]
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


class PostgresSchema:
    """A schema of its own on SKINPULSE_TEST_POSTGRES_URL, dropped afterwards."""

    def __init__(self, name):
        self.name = "%s_%d" % (name, os.getpid())

    def psql(self, sql):
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", PG_URL, "-c", sql], check=True,
                       capture_output=True)

    def create(self):
        self.psql("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s" % (self.name, self.name))
        separator = "&" if "?" in PG_URL else "?"
        return PG_URL + separator + "options=-csearch_path%3D" + self.name

    def drop(self):
        self.psql("DROP SCHEMA IF EXISTS %s CASCADE" % self.name)


class VariantsSqliteTest(DaemonTestCase):
    """One daemon on its own catalogue, with variant history loaded before it starts."""

    @classmethod
    def database_url(cls):
        return None  # the daemon's default: SQLite in its work directory

    @classmethod
    def setUpClass(cls):
        cls._classtmp = tempfile.mkdtemp(prefix="skinpulse-variants-")
        cls.now = int(time.time())
        catalogue = os.path.join(cls._classtmp, "items.jsonl")
        write_catalogue(catalogue)
        cls.fake = FakeInventory().start()
        # The built plugins (the metrics of the volatility ranking) and the scripted identity.
        extra = {"SKINPULSE_PLUGIN_DIR": plugin_dir(cls._classtmp)}
        url = cls.database_url()
        if url:
            extra["DATABASE_URL"] = url
        cls.daemon = Daemon(cls._classtmp,
                            ini=PORTFOLIO_INI % UNLIMITED + "[catalog]\nfile = %s\n" % catalogue,
                            env=daemon_env(cls.fake, **extra))
        # market-a prices the Ruby and the Phase 3 twice in the last 24 h, the base once.
        lines = []
        for age, ruby, phase3 in ((7200, 177185, 40907), (600, 175000, 41500)):
            lines.append({"market_hash_name": KNIFE, "variant": "Ruby", "source": "market-a",
                          "time": iso(cls.now - age), "price": ruby, "volume": 1})
            lines.append({"market_hash_name": KNIFE, "variant": "phase_3", "source": "market-a",
                          "time": iso(cls.now - age), "price": phase3, "volume": 2})
        lines.append({"market_hash_name": KNIFE, "source": "market-a",
                      "time": iso(cls.now - 600), "price": 40907, "volume": 3})
        lines.append({"market_hash_name": KNIFE, "variant": "Emerald", "source": "market-b",
                      "time": iso(cls.now - 300), "price": 39000, "volume": 1})
        lines.append({"market_hash_name": KNIFE, "variant": "Rubyy", "source": "market-a",
                      "time": iso(cls.now - 300), "price": 1, "volume": 1})
        history = os.path.join(cls._classtmp, "history.jsonl")
        with open(history, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        result = run_tool("skinpulsectl", "backfill", "--config", cls.daemon.config, "--file",
                          history, env=cls.daemon.env)
        assert result.returncode == 0, result.stderr + result.stdout
        cls.backfill_output = result.stdout + result.stderr
        cls.daemon.start()
        items = cls.daemon.get("/api/v1/items?variants=true&limit=500").json()
        cls.ids = {(i["market_hash_name"], i["variant"]): i["id"] for i in items}

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.fake.stop()
        shutil.rmtree(cls._classtmp, ignore_errors=True)

    def id_of(self, variant=None, name=KNIFE):
        return self.ids[(name, variant)]

    def get(self, path):
        response = self.daemon.get(path)
        self.assertSecurityHeaders(response)
        return response

    # -- the catalogue ------------------------------------------------------------------
    def test_lists_base_items_unless_variants_are_asked_for(self):
        response = self.get("/api/v1/items")
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual([i["market_hash_name"] for i in response.json()], [AK, KNIFE])
        self.assertEqual(response.header("x-total-count"), "2")
        every = self.get("/api/v1/items?variants=true&limit=3")
        self.assertEqual(every.header("x-total-count"), "9")
        self.assertIn("variants=true", every.header("link"))
        self.assertEqual(self.get("/api/v1/items?variants=false").header("x-total-count"), "2")
        self.assertEqual(self.get("/api/v1/items?variants=true&q=bayonet").header(
            "x-total-count"), "8")
        problem = self.assertProblem(self.get("/api/v1/items?variants=yes"), 400,
                                     "invalid_parameter")
        self.assertIn("variants", problem["detail"])

    def test_a_base_lists_its_variants_and_a_variant_names_its_base(self):
        base = self.get("/api/v1/items/%d" % self.id_of()).json()
        self.assertIsNone(base["variant"])
        self.assertIsNone(base["variant_of"])
        self.assertEqual([v["variant"] for v in base["variants"]], DOPPLER)
        self.assertEqual([v["id"] for v in base["variants"]],
                         [self.id_of(v) for v in DOPPLER])
        # Ids follow the file: the variants after their base, in file order.
        self.assertEqual([self.id_of(v) for v in DOPPLER],
                         list(range(self.id_of() + 1, self.id_of() + 8)))
        ruby = self.get("/api/v1/items/%d" % self.id_of("Ruby")).json()
        self.assertEqual(ruby["variant"], "Ruby")
        self.assertEqual(ruby["variant_of"], self.id_of())
        self.assertEqual(ruby["variants"], [])
        self.assertEqual(ruby["market_hash_name"], KNIFE)
        self.assertEqual(ruby["current_price"], 175000)
        ak = self.get("/api/v1/items/%d" % self.id_of(name=AK)).json()
        self.assertEqual((ak["variant"], ak["variant_of"], ak["variants"]), (None, None, []))

    # -- prices on variant ids ------------------------------------------------------------
    def test_backfill_lines_name_their_variant(self):
        history = self.get("/api/v1/items/%d/history" % self.id_of("Ruby")).json()
        self.assertEqual([p["price"] for p in history], [177185, 175000])
        phase3 = self.get("/api/v1/items/%d/history" % self.id_of("Phase 3")).json()
        self.assertEqual([p["price"] for p in phase3], [40907, 41500])
        # The Doppler has no Emerald: that line is the name's own history.
        base = self.get("/api/v1/items/%d/history" % self.id_of()).json()
        self.assertEqual(sorted((p["source"], p["price"]) for p in base),
                         [("market-a", 40907), ("market-b", 39000)])
        # A variant no market spells that way is refused and counted.
        self.assertIn("variant not a variant name", self.backfill_output)

    def test_every_per_item_endpoint_takes_a_variant_id(self):
        ruby = self.id_of("Ruby")
        volatility = self.get("/api/v1/items/%d/volatility" % ruby).json()
        self.assertEqual((volatility["source"], volatility["samples"]), ("market-a", 2))
        candles = self.get("/api/v1/items/%d/candles?window=24h&interval=1h" % ruby)
        self.assertEqual(candles.status, 200, candles.body)
        self.assertEqual(candles.json()["item_id"], ruby)
        self.assertEqual(sum(c["samples"] for c in candles.json()["candles"]), 2)
        ranking = self.get("/api/v1/rankings/volatile?limit=100").json()
        self.assertIn(ruby, [entry["item_id"] for entry in ranking])
        self.assertIn(self.id_of("Phase 3"), [entry["item_id"] for entry in ranking])
        # Alerts take it like any item id.
        user = sign_in(self.daemon, platform_id=next_platform_id())
        created = user.request("POST", "/api/v1/alerts", body=json.dumps({
            "item_id": ruby, "condition": {"type": "price_above", "value": 10 ** 9},
            "channels": [{"type": "telegram", "bot_token": "123456:ABCdefGHIjklMNOpqrSTUvwx", "chat_id": 42}]}))
        self.assertEqual(created.status, 201, created.body)
        self.assertEqual(created.json()["item_id"], ruby)

    # -- the portfolio ------------------------------------------------------------------------
    def test_an_imported_doppler_is_held_and_valued_at_its_phase(self):
        user = sign_in(self.daemon, platform_id=next_platform_id())
        self.fake.pages(user.platform_id, [[
            (KNIFE, 1, RUBY_KIT), (KNIFE, 1, PHASE3_KIT), (KNIFE, 1, RUBY_KIT),
            (KNIFE, 1),                      # no paint index: the base item
            (KNIFE, 1, GAMMA_PHASE1_KIT),    # a Gamma Doppler kit: not this name's phase
            (AK, 2),
        ]])
        response = user.import_()
        self.assertEqual(response.status, 200, response.body)
        self.assertEqual(response.json()["imported_assets"], 7)
        body = user.portfolio().json()
        held = {(h["item_id"], h["variant"]): h for h in body["holdings"]}
        ruby = held[(self.id_of("Ruby"), "Ruby")]
        self.assertEqual((ruby["quantity"], ruby["current_price"], ruby["total_value"]),
                         (2, 175000, 350000))
        self.assertEqual(ruby["market_hash_name"], KNIFE)
        phase3 = held[(self.id_of("Phase 3"), "Phase 3")]
        self.assertEqual((phase3["quantity"], phase3["current_price"]), (1, 41500))
        # The base has no series of 2 points: its newest price of any source (§3.1).
        base = held[(self.id_of(), None)]
        self.assertEqual(base["quantity"], 2)
        self.assertEqual(base["current_price"], 39000)
        self.assertEqual(held[(self.id_of(name=AK), None)]["quantity"], 2)
        self.assertEqual(body["total_value"], 350000 + 41500 + 2 * 39000)


@unittest.skipUnless(PG_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class VariantsPostgresTest(VariantsSqliteTest):
    """The same on PostgreSQL."""

    @classmethod
    def database_url(cls):
        cls.schema = PostgresSchema("it_variants")
        return cls.schema.create()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.schema.drop()


# The rows of one name as Skinport's /v1/items sends them (docs/upstreams.md, "Checked
# against the live services"): once per `version`, each with its own prices.
SKINPORT_PHASES = [("Phase 1", 611.28, 3), ("Phase 2", 587.50, 5), ("Phase 3", 409.07, 4),
                   ("Phase 4", 480.00, 2), ("Ruby", 1771.85, 1), ("Sapphire", 1650.00, 1)]


class FakeSkinport(BackgroundServer):
    def __init__(self):
        self.listen(self._handler(), 0)

    @property
    def url(self):
        return "http://127.0.0.1:%d/v1/items" % self.port

    def _handler(self):
        import http.server

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                now = int(time.time())
                rows = [{"market_hash_name": KNIFE, "currency": "USD", "suggested_price": price,
                         "item_page": "https://skinport.com/item/bayonet-doppler-factory-new+"
                                      + version.lower().replace(" ", "-"),
                         "market_page": "https://skinport.com/market?item=Doppler",
                         "min_price": price, "max_price": price * 2, "mean_price": price,
                         "median_price": price, "quantity": quantity, "created_at": 1661324437,
                         "updated_at": now - 5, "version": version}
                        for version, price, quantity in SKINPORT_PHASES]
                body = json.dumps(rows).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler


class SkinportPhasesMixin:
    """A Skinport body that lists the Doppler once per phase: each phase under its
    variant item, the cheapest phase under the base."""

    def database_env(self):
        return {}

    def test_each_phase_under_its_variant_and_the_cheapest_under_the_base(self):
        catalogue = os.path.join(self.workdir, "items.jsonl")
        write_catalogue(catalogue)
        with FakeSkinport() as fake:
            ini = ("[catalog]\nfile = %s\n[source.skinport]\nplugin = skinport\n"
                   "interval_seconds = 1\nurl = %s\n") % (catalogue, fake.url)
            with Daemon(self.workdir, ini=ini, env=self.database_env()) as daemon:
                items = daemon.get("/api/v1/items?variants=true").json()
                ids = {i["variant"]: i["id"] for i in items if i["market_hash_name"] == KNIFE}

                def latest(item_id):
                    body = daemon.get("/api/v1/items/%d" % item_id).json()
                    return {p["source"]: p for p in body["latest_prices"]}.get("skinport")

                self.assertTrue(wait_until(lambda: latest(ids[None]) is not None, 20),
                                daemon.stderr()[-2000:])
                for version, price, quantity in SKINPORT_PHASES:
                    point = latest(ids[version])
                    self.assertEqual(point["price"], round(price * 100), version)
                    self.assertEqual(point["listings"], quantity, version)
                base = latest(ids[None])
                self.assertEqual(base["price"], 40907)  # the Phase 3: the cheapest row
                self.assertEqual(base["listings"], sum(q for _, _, q in SKINPORT_PHASES))
                self.assertIsNone(latest(ids["Black Pearl"]))  # not listed


class SkinportPhasesSqliteTest(SkinportPhasesMixin, DaemonTestCase):
    pass


@unittest.skipUnless(PG_URL, "SKINPULSE_TEST_POSTGRES_URL not set")
class SkinportPhasesPostgresTest(SkinportPhasesMixin, DaemonTestCase):
    def setUp(self):
        super().setUp()
        self.schema = PostgresSchema("it_variants_skinport")
        self.url = self.schema.create()

    def tearDown(self):
        self.schema.drop()
        super().tearDown()

    def database_env(self):
        return {"DATABASE_URL": self.url}


if __name__ == "__main__":
    unittest.main()
