"""The admin listener (docs/operations.md, "Admin listener" and "Prometheus metrics"): a real scrape
of skinpulsed polling local fake markets, parsed by python3-prometheus-client's own
text parser; the public /readyz without internals; a non-loopback admin address refused
at start; and the shipped Grafana dashboard and Prometheus rules referencing only
metrics a real scrape has (plus `promtool check rules`)."""
import json
import os
import re
import shutil
import subprocess
import unittest

from prometheus_client.parser import text_string_to_metric_families

from fake_markets import FakeMarkets
from harness import BIN_DIR, Daemon, DaemonTestCase, free_port, wait_until

SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
DASHBOARD = os.path.join(SOURCE_DIR, "share", "grafana", "skinpulse.json")
RULES = os.path.join(SOURCE_DIR, "share", "prometheus", "alerts.yml")

# Every family the daemon declares, with its type (docs/operations.md, "Prometheus metrics"),
# but skinpulse_source_rows_skipped and skinpulse_source_part_failures: they have a series
# only once a plugin reports a skipped row or a failed part (test_sources_health.py).
EXPECTED = {
    "skinpulse_source_polls": "counter",
    "skinpulse_source_last_success_timestamp_seconds": "gauge",
    "skinpulse_source_interval_seconds": "gauge",
    "skinpulse_source_points_accepted": "counter",
    "skinpulse_source_points_rejected": "counter",
    "skinpulse_source_outliers": "counter",
    "skinpulse_source_rows_read": "counter",
    "skinpulse_source_consecutive_failures": "gauge",
    "skinpulse_cycle_duration_seconds": "histogram",
    "skinpulse_cycle_stage_duration_seconds": "histogram",
    "skinpulse_http_requests": "counter",
    "skinpulse_http_request_duration_seconds": "histogram",
    "skinpulse_ws_clients": "gauge",
    "skinpulse_ws_frames_sent": "counter",
    "skinpulse_ws_sent_bytes": "counter",
    "skinpulse_ws_slow_client_closes": "counter",
    "skinpulse_store_errors": "counter",
    "skinpulse_store_operation_duration_seconds": "histogram",
    "skinpulse_shared_store_errors": "counter",
    "skinpulse_shared_store_operation_duration_seconds": "histogram",
    "skinpulse_imports": "counter",
    "skinpulse_alert_deliveries": "counter",
    "skinpulse_process_resident_memory_bytes": "gauge",
    "skinpulse_process_threads": "gauge",
    "skinpulse_process_open_fds": "gauge",
    "skinpulse_process_max_fds": "gauge",
    "skinpulse_process_start_time_seconds": "gauge",
    "skinpulse_process_cpu_seconds": "counter",
}

INI = ("[source.skinport]\nplugin = skinport\ninterval_seconds = 1\nurl = %s\n\n"
       "[source.down]\nplugin = skinport\ninterval_seconds = 1\nurl = %s\n")


def families(text):
    return {f.name: f for f in text_string_to_metric_families(text)}


def value(fams, name, sample_name=None, **labels):
    """The value of the one sample of `name` with these labels (0 when absent)."""
    for sample in fams[name].samples if name in fams else []:
        if sample.name == (sample_name or sample.name) and \
                all(sample.labels.get(k) == v for k, v in labels.items()):
            if sample_name or not sample.name.endswith(("_bucket", "_created")):
                return sample.value
    return 0


def sample_names(text):
    """Every family and sample name of a scrape (histograms' _bucket/_sum/_count,
    counters' _total)."""
    names = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            names.add(line.split(" ")[2])
        elif line and not line.startswith("#"):
            names.add(line.split("{")[0].split(" ")[0])
    return names


class AdminListenerTest(DaemonTestCase):
    def scrape(self, daemon):
        response = daemon.admin_get("/metrics")
        self.assertEqual(response.status, 200)
        self.assertTrue(response.header("Content-Type").startswith("text/plain; version=0.0.4"))
        return response.body.decode("utf-8")

    def test_scrape_parses_and_moves(self):
        with FakeMarkets() as fake:
            ini = INI % (fake.url("skinport"), fake.url("broken"))
            with Daemon(self.workdir, ini=ini) as daemon:
                # Requests on the public listener are counted by route template.
                for item in (1, 2, 3):
                    daemon.get("/api/v1/items/%d" % item)
                daemon.get("/no/such/path/12345")
                # A family has no line until its first series exists, and some series
                # appear only once a source has started or an answer has been written
                # (after the client read it); on a loaded machine that can lag the
                # requests above, so wait for all of them, then name any still missing.
                first = {}

                def all_families_present():
                    first.clear()
                    first.update(families(self.scrape(daemon)))
                    return all(name in first for name in EXPECTED)

                wait_until(all_families_present, timeout=30)
                for name, kind in EXPECTED.items():
                    self.assertIn(name, first, "missing from the scrape: " + name)
                    self.assertEqual(first[name].type, kind, name)
                ok = wait_until(lambda: value(
                    families(self.scrape(daemon)), "skinpulse_source_polls",
                    source="skinport", result="ok") >= 2, timeout=30)
                self.assertTrue(ok, daemon.stderr())
                text = self.scrape(daemon)
                after = families(text)

                self.assertGreaterEqual(value(after, "skinpulse_source_polls",
                                              source="down", result="failed"), 1)
                self.assertGreater(value(after, "skinpulse_source_points_accepted",
                                         source="skinport"), 0)
                self.assertGreater(value(after, "skinpulse_source_last_success_timestamp_seconds",
                                         source="skinport"), 1.7e9)
                self.assertEqual(value(after, "skinpulse_source_interval_seconds",
                                       source="skinport"), 1)
                self.assertGreaterEqual(value(after, "skinpulse_cycle_duration_seconds",
                                              "skinpulse_cycle_duration_seconds_count"), 1)
                self.assertEqual(value(after, "skinpulse_http_requests",
                                       route="/api/v1/items/:id", method="GET", status="200"), 3)
                self.assertEqual(value(after, "skinpulse_http_requests",
                                       route="unmatched", method="GET", status="404"), 1)
                self.assertGreater(value(after, "skinpulse_store_operation_duration_seconds",
                                         "skinpulse_store_operation_duration_seconds_count",
                                         mode="write"), 0)
                self.assertGreater(value(after, "skinpulse_process_resident_memory_bytes"), 1e6)
                self.assertGreater(value(after, "skinpulse_process_threads"), 1)

                # No raw path and no item name ever becomes a label value.
                self.assertNotIn("/api/v1/items/1\"", text)
                self.assertNotIn("12345", text)
                self.assertNotIn("Redline", text)
                # The admin listener's own requests are not counted.
                self.assertNotIn('route="/metrics"', text)

    def test_public_readyz_has_no_internals(self):
        with FakeMarkets() as fake:
            ini = INI % (fake.url("skinport"), fake.url("broken"))
            with Daemon(self.workdir, ini=ini) as daemon:
                wait_until(lambda: any(s["last_error"] for s in
                                       daemon.admin_get("/readyz").json()["sources"]), timeout=30)
                public = daemon.get("/readyz")
                self.assertEqual(public.status, 200)
                body = public.json()
                self.assertEqual(set(body), {"status", "database", "shared_store", "ingest"})
                self.assertEqual(body["status"], "ready")
                self.assertEqual(body["database"], {"ok": True})
                self.assertEqual(body["shared_store"], {"ok": True})
                self.assertEqual(body["ingest"], "polling")
                raw = public.body.decode()
                for secret in (".so", "version", "sqlite", "plugin", "upstream", "error",
                               self.workdir):
                    self.assertNotIn(secret, raw)

                detail = daemon.admin_get("/readyz").json()
                self.assertEqual(detail["status"], "ready")
                self.assertEqual(detail["database"]["backend"], "sqlite")
                self.assertTrue(any(p["file"].endswith(".so") and p["version"]
                                    for p in detail["plugins"]))
                down = next(s for s in detail["sources"] if s["name"] == "down")
                self.assertTrue(down["last_error"], detail)

    def test_admin_listener_can_be_disabled(self):
        with Daemon(self.workdir, env={"ADMIN_LISTEN": ""}) as daemon:
            self.assertEqual(daemon.get("/readyz").status, 200)
            self.assertFalse(any("admin listener" in l for l in daemon.stderr_lines))

    def test_non_loopback_admin_address_is_refused_at_start(self):
        for address in ("0.0.0.0:9108", "[2001:db8::7]:9108", "192.0.2.7:9108"):
            daemon = Daemon(self.workdir, env={"ADMIN_LISTEN": address})
            proc = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--config",
                                   daemon.config], env=daemon.env, capture_output=True,
                                  text=True, timeout=30)
            self.assertNotEqual(proc.returncode, 0, address)
            errors = [l for l in proc.stderr.splitlines() if "configuration error" in l]
            self.assertEqual(len(errors), 1, proc.stderr)
            self.assertIn("ADMIN_LISTEN", errors[0])
            self.assertIn("allow_remote", errors[0])
            self.assertNotIn("listening on", proc.stderr)
        # Explicitly allowed: it starts (on a free port of every interface).
        daemon = Daemon(self.workdir, ini="[admin]\nallow_remote = true\n",
                        env={"ADMIN_LISTEN": "0.0.0.0:%d" % free_port()})
        daemon.admin_port = int(daemon.env["ADMIN_LISTEN"].rsplit(":", 1)[1])
        with daemon:
            self.assertEqual(daemon.admin_get("/metrics").status, 200)


class MonitoringFilesTest(DaemonTestCase):
    """Every metric the dashboard and the rules name exists in a real scrape."""

    def referenced(self, text):
        names = set(re.findall(r"\bskinpulse_[a-z0-9_]+", text))
        self.assertTrue(names)
        return names

    def test_dashboard_and_rules_reference_real_metrics(self):
        with open(DASHBOARD, encoding="utf-8") as f:
            dashboard = json.load(f)
        exprs = []

        def walk(panels):
            for panel in panels:
                exprs.extend(t["expr"] for t in panel.get("targets", []))
                walk(panel.get("panels", []))
        walk(dashboard["panels"])
        self.assertGreaterEqual(len(exprs), 20)
        with open(RULES, encoding="utf-8") as f:
            rules = f.read()
        wanted = self.referenced("\n".join(exprs)) | self.referenced(rules)
        # A daemon that has polled (a source rejecting some rows) and answered a request:
        # then every family has a series.
        with FakeMarkets() as fake:
            with Daemon(self.workdir, ini=INI % (fake.url("skinport"), fake.url("broken"))) \
                    as daemon:
                daemon.get("/api/v1/items/1")
                scrape = lambda: daemon.admin_get("/metrics").body.decode()  # noqa: E731
                # A request is counted once its answer is written (its latency includes the
                # write), so the client may see the answer a moment before the counter moves.
                self.assertTrue(wait_until(
                    lambda: all(name in scrape() for name in (
                        "skinpulse_source_points_rejected_total{",
                        "skinpulse_http_requests_total{")),
                    timeout=30), daemon.stderr())
                scraped = sample_names(scrape())
        self.assertEqual(sorted(wanted - scraped), [])

    def test_dashboard_is_a_grafana_dashboard(self):
        with open(DASHBOARD, encoding="utf-8") as f:
            dashboard = json.load(f)
        self.assertEqual(dashboard["uid"], "skinpulse")
        ids = [p["id"] for p in dashboard["panels"]]
        self.assertEqual(len(ids), len(set(ids)))
        titles = " ".join(p["title"] for p in dashboard["panels"]).lower()
        for topic in ("freshness", "polls", "cycle", "stage", "latency", "errors", "clients",
                      "database", "imports", "deliveries", "memory"):
            self.assertIn(topic, titles)

    @unittest.skipUnless(shutil.which("promtool"), "promtool (Debian: prometheus) not installed")
    def test_promtool_checks_the_rules(self):
        proc = subprocess.run(["promtool", "check", "rules", RULES], capture_output=True,
                              text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)


if __name__ == "__main__":
    unittest.main()
