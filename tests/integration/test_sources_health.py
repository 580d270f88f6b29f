"""A failed poll is a failure (docs/api.md §19, issue 28): the real daemon polls local
feeds whose bodies are non-empty but yield no usable row, beside a healthy one, and within
two polls shows them failing on GET /api/v1/sources, the admin /metrics and /readyz and in
`skinpulsectl sources`, with the rows they skipped counted by reason; the healthy source
stays fresh. Also: an instance's `user_agent` reaches its market, and a bad one stops the
start naming the key."""
import glob
import http.server
import json
import os
import re
import threading
import unittest

from fakes.background_server import BackgroundServer
from harness import BIN_DIR, TEST_PLUGIN_DIR, Daemon, DaemonTestCase, run_tool, wait_until

AK = "AK-47 | Redline (Field-Tested)"
CASE = "Recoil Case"

# json_http rows (docs/upstreams.md, json_http): prices in cents. The broken feed's rows
# all carry a price no market means (0, negative): its plugin reads them all and the
# daemon can store none of them.
HEALTHY_ROWS = [{"market_hash_name": AK, "price": 4105}, {"market_hash_name": CASE, "price": 41}]
UNUSABLE_ROWS = [{"market_hash_name": AK, "price": 0}, {"market_hash_name": CASE, "price": -3}]
# The `lines` test plugin's feed (tests/plugins/source_lines.cpp): name<TAB>cents rows,
# here none with a usable price.
UNUSABLE_LINES = "%s\t\n%s\t\n%s\tabc\n" % (AK, CASE, AK)


class Feeds(BackgroundServer):
    """The markets: every request recorded with its User-Agent."""

    def __init__(self):
        self.requests = []  # (path, user agent)
        self.lock = threading.Lock()
        feeds = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                with feeds.lock:
                    feeds.requests.append((self.path, self.headers.get("User-Agent")))
                if self.path == "/healthy":
                    body, kind = json.dumps(HEALTHY_ROWS).encode(), "application/json"
                elif self.path == "/unusable":
                    body, kind = json.dumps(UNUSABLE_ROWS).encode(), "application/json"
                elif self.path == "/lines":
                    body, kind = UNUSABLE_LINES.encode(), "text/plain; charset=utf-8"
                else:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.listen(Handler)

    def url(self, path):
        return "http://127.0.0.1:%d/%s" % (self.port, path)

    def count(self, path):
        with self.lock:
            return sum(1 for p, _ in self.requests if p == "/" + path)

    def agents(self, path):
        with self.lock:
            return {agent for p, agent in self.requests if p == "/" + path}


def plugin_dir(workdir):
    """The built plugins (json_http) and the `lines` test plugin, in one directory."""
    plugins = os.path.join(workdir, "plugins")
    os.makedirs(plugins, exist_ok=True)
    built = os.path.join(BIN_DIR, "..", "lib", "skinpulse", "plugins")
    for path in glob.glob(os.path.join(built, "*.so")) + [
            os.path.join(TEST_PLUGIN_DIR, "integration", "source_lines.so")]:
        link = os.path.join(plugins, os.path.basename(path))
        if not os.path.exists(link):
            os.symlink(os.path.abspath(path), link)
    return plugins


def metric(text, name, **labels):
    """The value of the sample `name{labels}` in a Prometheus text body, or None."""
    for line in text.splitlines():
        match = re.match(r"^(\w+)(?:\{(.*)\})? (\S+)$", line)
        if not match or match.group(1) != name:
            continue
        found = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', match.group(2) or ""))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(match.group(3))
    return None


class SourcesHealthTest(DaemonTestCase):
    def config(self, feeds, extra=""):
        return (
            "[source.healthy]\nplugin = json_http\ninterval_seconds = 1\nurl = %s\n\n"
            "[source.broken]\nplugin = json_http\ninterval_seconds = 1\nurl = %s\n"
            "user_agent = skinpulse-health-test/1.0 (+ops@example.test)\n\n"
            "[source.lines]\nplugin = lines\ninterval_seconds = 1\nurl = %s\n%s"
        ) % (feeds.url("healthy"), feeds.url("unusable"), feeds.url("lines"), extra)

    def env(self):
        return {"SKINPULSE_PLUGIN_DIR": plugin_dir(self.workdir)}

    def test_a_body_that_yields_nothing_is_a_failing_source(self):
        with Feeds() as feeds, Daemon(self.workdir, ini=self.config(feeds),
                                      env=self.env()) as daemon:
            def ready():
                states = {s["name"]: s for s in daemon.admin_get("/readyz").json()["sources"]}
                # A source has no entry until the scheduler has started it (a loaded
                # box can answer /readyz before that).
                if all(states.get(n, {}).get("consecutive_failures", 0) >= 1
                       for n in ("broken", "lines")) \
                        and states.get("healthy", {}).get("last_success"):
                    return states
                return None

            states = wait_until(ready, timeout=30, every=0.1)
            self.assertTrue(states, daemon.stderr())
            # Within two polls of each failing feed.
            self.assertLessEqual(feeds.count("unusable"), 2)
            self.assertLessEqual(feeds.count("lines"), 2)

            # Admin /readyz: the code, what was read and skipped, no success.
            lines = states["lines"]
            self.assertTrue(lines["last_error"].startswith(
                "malformed_response: no usable row: 3 read, skipped: no_price×2, bad_price×1"),
                lines["last_error"])
            self.assertIsNone(lines["last_success"])
            self.assertGreaterEqual(lines["rows_skipped"]["no_price"], 2)
            self.assertGreaterEqual(lines["rows_skipped"]["bad_price"], 1)
            self.assertEqual(lines["last_poll_rows"],
                             {"read": 3, "skipped": {"bad_price": 1, "no_price": 2}})
            self.assertGreaterEqual(lines["rows_read"], 3)
            broken = states["broken"]
            self.assertTrue(broken["last_error"].startswith("malformed_response: no usable row"),
                            broken["last_error"])
            self.assertIsNone(broken["last_success"])
            self.assertEqual(states["healthy"]["last_error"], "")
            self.assertEqual(states["healthy"]["consecutive_failures"], 0)

            # The public view: failing sources are not fresh and price nothing; the healthy
            # one beside them is fresh.
            public = {s["name"]: s for s in daemon.get("/api/v1/sources").json()}
            for name in ("broken", "lines"):
                self.assertFalse(public[name]["fresh"], public[name])
                self.assertIsNone(public[name]["last_success"], public[name])
                self.assertEqual(public[name]["items_priced"], 0, public[name])
                self.assertTrue(public[name]["failing"], public[name])
                self.assertGreaterEqual(public[name]["consecutive_failures"], 1, public[name])
            self.assertTrue(public["healthy"]["fresh"], public["healthy"])
            self.assertFalse(public["healthy"]["failing"], public["healthy"])
            self.assertEqual(public["healthy"]["consecutive_failures"], 0, public["healthy"])
            self.assertNotIn("last_error", public["lines"])  # error texts stay on the admin side

            # /metrics: the failure and the skipped rows, by reason.
            text = daemon.admin_get("/metrics").body.decode()
            for name in ("broken", "lines"):
                self.assertGreaterEqual(
                    metric(text, "skinpulse_source_polls_total", source=name, result="failed"),
                    1, name)
                self.assertGreaterEqual(
                    metric(text, "skinpulse_source_consecutive_failures", source=name), 1)
                self.assertIsNone(
                    metric(text, "skinpulse_source_last_success_timestamp_seconds", source=name))
            self.assertGreaterEqual(metric(text, "skinpulse_source_rows_skipped_total",
                                           source="lines", reason="no_price"), 2)
            self.assertGreaterEqual(metric(text, "skinpulse_source_rows_skipped_total",
                                           source="lines", reason="bad_price"), 1)
            self.assertGreaterEqual(
                metric(text, "skinpulse_source_rows_read_total", source="lines"), 3)
            self.assertEqual(
                metric(text, "skinpulse_source_polls_total", source="healthy", result="failed"), 0)
            self.assertEqual(
                metric(text, "skinpulse_source_consecutive_failures", source="healthy"), 0)

            # The log names the top reason of a poll that skipped most of its rows.
            self.assertTrue(any("source 'lines': 3 of 3 row(s) skipped, mostly no_price (2)"
                                in line for line in daemon.stderr_lines), daemon.stderr())

            # skinpulsectl sources shows the same.
            ctl = run_tool("skinpulsectl", "--config", daemon.config, "sources", env=daemon.env)
            self.assertEqual(ctl.returncode, 0, ctl.stderr)
            lines_row = next(l for l in ctl.stdout.splitlines() if l.startswith("lines "))
            self.assertIn("malformed_response", lines_row)
            self.assertRegex(ctl.stdout, r"skipped \d+: no_price \(last poll 2\)")

            # user_agent reaches the market of its instance only; the others keep the
            # client's default.
            self.assertEqual(feeds.agents("unusable"),
                             {"skinpulse-health-test/1.0 (+ops@example.test)"})
            healthy_agents = feeds.agents("healthy")
            self.assertEqual(len(healthy_agents), 1)
            self.assertTrue(next(iter(healthy_agents)).startswith("skinpulse/"), healthy_agents)

    def test_a_bad_user_agent_stops_the_start_naming_the_key(self):
        with Feeds() as feeds:
            ini = self.config(feeds).replace(
                "user_agent = skinpulse-health-test/1.0 (+ops@example.test)",
                "user_agent = " + "x" * 300)
            daemon = Daemon(self.workdir, ini=ini, env=self.env())
            with self.assertRaises(RuntimeError) as failed:
                daemon.start(timeout=20)
            daemon.stop()
            self.assertIn("[source.broken]", str(failed.exception))
            self.assertIn("key 'user_agent' is 300 bytes, at most 256 allowed",
                          str(failed.exception))
            self.assertEqual(feeds.count("unusable"), 0)


if __name__ == "__main__":
    unittest.main()
