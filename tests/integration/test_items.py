"""GET /api/v1/items and /api/v1/items/:id against the real catalogue (docs/api.md §3)."""
import http.client
import json
import os
import shutil
import socket
import tempfile
import time
import unittest
import urllib.parse

import recorder
from harness import Daemon, DaemonTestCase, iso, run_tool


class ItemsTest(DaemonTestCase):
    @classmethod
    def setUpClass(cls):
        cls._classtmp = tempfile.mkdtemp(prefix="skinpulse-items-")
        cls.now = int(time.time())
        # History placed before start: two sources, "market-b" is the only one with two
        # points in the last 24 h, so it is the reference source of the AK.
        lines = [
            {"market_hash_name": "AK-47 | Redline (Field-Tested)", "source": "market-a",
             "time": iso(cls.now - 3600), "price": 4100, "volume": 3},
            {"market_hash_name": "AK-47 | Redline (Field-Tested)", "source": "market-b",
             "time": iso(cls.now - 7200), "price": 3900, "volume": 1},
            {"market_hash_name": "AK-47 | Redline (Field-Tested)", "source": "market-b",
             "time": iso(cls.now - 1800), "price": 3950, "volume": 2, "kind": "bid",
             "listings": 41},
            {"market_hash_name": "AK-47 | Redline (Field-Tested)", "source": "market-a",
             "time": iso(cls.now - 3 * 86400), "price": 4000, "volume": 5},
            {"market_hash_name": "No Such Item", "source": "market-a",
             "time": iso(cls.now), "price": 1, "volume": 1},
        ]
        backfill = os.path.join(cls._classtmp, "history.jsonl")
        with open(backfill, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        cls.daemon = Daemon(cls._classtmp)
        result = run_tool("skinpulsectl", "backfill", "--config", cls.daemon.config,
                          "--file", backfill, env=cls.daemon.env)
        assert result.returncode == 0, result.stderr + result.stdout
        cls.backfill_output = result.stdout
        cls.daemon.start()

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        shutil.rmtree(cls._classtmp, ignore_errors=True)

    def get(self, path):
        return self.daemon.get(path)

    def find_id(self, name):
        response = self.get("/api/v1/items?limit=500&q=" + urllib.parse.quote(name))
        for item in response.json():
            if item["market_hash_name"] == name:
                return item["id"]
        self.fail("not in catalogue: " + name)

    def test_first_page_of_the_real_catalogue(self):
        response = self.get("/api/v1/items")
        self.assertEqual(response.status, 200)
        self.assertEqual(response.header("content-type"), "application/json; charset=utf-8")
        self.assertSecurityHeaders(response)
        items = response.json()
        self.assertEqual(len(items), 50)
        self.assertGreater(int(response.header("x-total-count")), 34000)
        self.assertEqual([i["id"] for i in items], sorted(i["id"] for i in items))
        self.assertEqual(set(items[0]), {"id", "market_hash_name", "weapon_type", "skin_name",
                                         "rarity", "stattrak", "image_url", "created_at",
                                         "variant", "variant_of", "variants"})
        self.assertIsNone(items[0]["variant"])
        self.assertRegex(items[0]["created_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        link = response.header("link")
        self.assertIn('rel="next"', link)
        self.assertIn("offset=50", link)
        self.assertTrue(link.startswith("<http://127.0.0.1:%d/api/v1/items?" % self.daemon.port))

    def test_paging_follows_link_and_ends(self):
        response = self.get("/api/v1/items?weapon_type=AK-47&limit=200")
        total = int(response.header("x-total-count"))
        self.assertGreater(total, 400)
        seen = [i["id"] for i in response.json()]
        while response.header("link"):
            url = response.header("link").split(">")[0][1:]
            parts = urllib.parse.urlsplit(url)
            response = self.get(parts.path + "?" + parts.query)
            self.assertEqual(response.status, 200)
            seen += [i["id"] for i in response.json()]
        self.assertEqual(len(seen), total)
        self.assertEqual(len(set(seen)), total)

    def test_filters(self):
        redline = self.get("/api/v1/items?q=REDLINE&limit=500").json()
        self.assertTrue(redline)
        self.assertTrue(all("redline" in i["market_hash_name"].lower() for i in redline))
        covert_st = self.get("/api/v1/items?rarity=Covert&stattrak=true&limit=500").json()
        self.assertTrue(covert_st)
        self.assertTrue(all(i["rarity"] == "Covert" and i["stattrak"] for i in covert_st))
        knives = self.get("/api/v1/items?q=" + urllib.parse.quote("★ StatTrak™ Karambit")).json()
        self.assertTrue(knives)
        self.assertTrue(all(i["market_hash_name"].startswith("★ StatTrak™ Karambit") for i in knives))
        none = self.get("/api/v1/items?q=zzzz-no-such-thing")
        self.assertEqual(none.json(), [])
        self.assertEqual(none.header("x-total-count"), "0")
        self.assertIsNone(none.header("link"))

    def test_unicode_names_are_exact(self):
        name = "★ StatTrak™ Karambit | Autotronic (Field-Tested)"
        item = self.get("/api/v1/items/%d" % self.find_id(name)).json()
        self.assertEqual(item["market_hash_name"], name)
        self.assertEqual(item["weapon_type"], "Karambit")
        self.assertTrue(item["stattrak"])

    def test_bad_parameters(self):
        for query, name in [("limit=0", "limit"), ("limit=501", "limit"), ("limit=abc", "limit"),
                            ("offset=-1", "offset"), ("stattrak=maybe", "stattrak"),
                            ("rarity=", "rarity"), ("limit=1&limit=2", "limit"),
                            ("q=%ff%fe", "q")]:
            problem = self.assertProblem(self.get("/api/v1/items?" + query), 400,
                                         "invalid_parameter")
            self.assertIn(name, problem["detail"], query)

    def test_item_detail_with_prices(self):
        item_id = self.find_id("AK-47 | Redline (Field-Tested)")
        response = self.get("/api/v1/items/%d" % item_id)
        self.assertEqual(response.status, 200)
        item = response.json()
        self.assertEqual(item["id"], item_id)
        self.assertEqual(item["current_price"], 3950)
        self.assertEqual(item["current_price_source"], "market-b")
        latest = {p["source"]: p for p in item["latest_prices"]}
        # A backfill line without kind/listings is an ask with listings unknown.
        self.assertEqual(latest["market-a"], {"time": iso(self.now - 3600), "price": 4100,
                                              "volume": 3, "kind": "ask", "listings": None,
                                              "source": "market-a", "outlier": False,
                                              "stale": False})
        self.assertEqual(latest["market-b"]["price"], 3950)
        self.assertEqual((latest["market-b"]["kind"], latest["market-b"]["listings"]),
                         ("bid", 41))
        self.assertEqual(item["updated_at"], iso(self.now - 1800))

    def test_item_without_prices(self):
        item_id = self.find_id("Recoil Case")
        item = self.get("/api/v1/items/%d" % item_id).json()
        self.assertIsNone(item["current_price"])
        self.assertIsNone(item["current_price_source"])
        self.assertEqual(item["latest_prices"], [])
        self.assertIsNone(item["updated_at"])

    def test_history(self):
        item_id = self.find_id("AK-47 | Redline (Field-Tested)")
        day = self.get("/api/v1/items/%d/history" % item_id).json()
        self.assertEqual([(p["source"], p["price"]) for p in day],
                         [("market-b", 3900), ("market-a", 4100), ("market-b", 3950)])
        week = self.get("/api/v1/items/%d/history?window=7d&source=market-a" % item_id).json()
        self.assertEqual([p["price"] for p in week], [4000, 4100])
        self.assertProblem(self.get("/api/v1/items/%d/history?window=2d" % item_id), 400,
                           "invalid_parameter")

    def test_backfill_reported_what_it_rejected(self):
        self.assertIn("4 stored", self.backfill_output)
        self.assertIn("not in catalogue", self.backfill_output)

    def test_unknown_and_malformed_ids(self):
        self.assertProblem(self.get("/api/v1/items/99999999"), 404, "item_not_found")
        for bad in ["0", "-1", "abc", "1.5", "%2B1", "99999999999999999999999"]:
            problem = self.assertProblem(self.get("/api/v1/items/" + bad), 400,
                                         "invalid_parameter")
            self.assertIn("id", problem["detail"])

    def test_routing_errors(self):
        self.assertProblem(self.get("/api/v1/nope"), 404, "not_found")
        self.assertProblem(self.get("/nope"), 404, "not_found")  # "/" is the dashboard (§10)
        response = self.daemon.request("POST", "/api/v1/items", body=b"")
        self.assertProblem(response, 405, "method_not_allowed")
        self.assertEqual(response.header("allow"), "GET, HEAD")
        self.assertProblem(self.daemon.request("DELETE", "/api/v1/items/1"), 405,
                           "method_not_allowed")

    def test_bodies(self):
        self.assertProblem(self.daemon.request("GET", "/api/v1/items", body=b"{}"), 400,
                           "invalid_body")
        big = b"x" * (64 * 1024 + 1)
        self.assertProblem(self.daemon.request("GET", "/api/v1/items", body=big), 413,
                           "payload_too_large")

    def test_head_has_no_body(self):
        response = self.daemon.request("HEAD", "/api/v1/items/1")
        self.assertEqual(response.status, 200)
        self.assertEqual(response.body, b"")
        self.assertGreater(int(response.header("content-length")), 0)

    def test_keep_alive(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.daemon.port, timeout=10)
        try:
            for _ in range(3):
                conn.request("GET", "/api/v1/items/1")
                response = conn.getresponse()
                self.assertEqual(response.status, 200)
                response.read()
                self.assertNotEqual(response.getheader("connection", "").lower(), "close")
        finally:
            conn.close()

    def raw_exchange(self, data, read_until=b"\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(data)
            received = b""
            while read_until not in received:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
            recorder.record_raw(self.daemon.port, data, received)
            return sock, received

    def test_malformed_http_is_a_problem(self):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            received = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        recorder.record_raw(self.daemon.port, b"NOT HTTP AT ALL\r\n\r\n", received)
        head, _, body = received.partition(b"\r\n\r\n")
        self.assertTrue(head.startswith(b"HTTP/1.1 400 Bad Request"), head)
        self.assertIn(b"application/problem+json", head)
        self.assertIn(b"X-Frame-Options: DENY", head)
        self.assertEqual(json.loads(body)["status"], 400)

    def test_expect_continue(self):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(b"GET /api/v1/items/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                         b"Expect: 100-continue\r\n\r\n")
            interim = sock.recv(65536)
            self.assertTrue(interim.startswith(b"HTTP/1.1 100"), interim)
            sock.sendall(b"{}")
            final = sock.recv(65536)
            # A body on an endpoint that takes none: refused after it was read.
            self.assertIn(b" 400 ", final.split(b"\r\n")[0])
            self.assertIn(b"invalid_body", final)

    def test_health(self):
        self.assertEqual(self.get("/healthz").json(), {"status": "ok"})
        ready = self.get("/readyz")
        self.assertEqual(ready.status, 200)
        body = ready.json()
        self.assertEqual(body["status"], "ready")
        # The public view: readiness and ok booleans, no internals (docs/api.md).
        self.assertEqual(body["database"], {"ok": True})
        detail = self.daemon.admin_get("/readyz").json()
        self.assertEqual(detail["database"]["backend"], "sqlite")
        self.assertGreater(detail["catalog_items"], 34000)

    def test_access_log_has_no_query(self):
        self.get("/api/v1/items?q=secret-token-value")
        time.sleep(0.2)
        lines = [l for l in self.daemon.stderr_lines if "[access]" in l and "/api/v1/items" in l]
        self.assertTrue(lines)
        self.assertFalse(any("secret-token-value" in l for l in self.daemon.stderr_lines))


class ReseedTest(DaemonTestCase):
    def test_ids_survive_restart(self):
        daemon = Daemon(self.workdir)
        with daemon:
            before = daemon.get("/api/v1/items?offset=30000&limit=5").json()
        with Daemon(self.workdir) as again:
            after = again.get("/api/v1/items?offset=30000&limit=5").json()
            self.assertEqual(before, after)
            self.assertTrue(any("0 new" in l for l in again.stderr_lines), again.stderr())


if __name__ == "__main__":
    unittest.main()
