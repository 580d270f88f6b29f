"""Start-up, configuration errors, plugins and shutdown of the real skinpulsed."""
import os
import signal
import socket
import subprocess
import time
import unittest

from harness import BIN_DIR, SECRET, TEST_PLUGIN_DIR, Daemon, DaemonTestCase, free_port


def port_open(port):
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


class ConfigErrorTest(DaemonTestCase):
    def fails(self, ini="", env=None, key=None):
        daemon = Daemon(self.workdir, ini=ini, env=env)
        proc = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--config", daemon.config],
                              env=daemon.env, capture_output=True, text=True, timeout=30)
        self.assertNotEqual(proc.returncode, 0)
        lines = [l for l in proc.stderr.splitlines() if "configuration error" in l]
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertEqual(proc.stderr.strip().splitlines()[-1], lines[0])
        self.assertNotIn("listening", proc.stderr)
        if key:
            self.assertIn(key, lines[0])
        self.assertFalse(port_open(daemon.port))
        self.assertFalse(os.path.exists(os.path.join(self.workdir, "skinpulse.db")),
                         "nothing may be written before the configuration is valid")
        return lines[0]

    def test_missing_secret(self):
        line = self.fails(env={"SESSION_SECRET": None}, key="SESSION_SECRET")
        self.assertIn("missing", line)

    def test_short_secret(self):
        line = self.fails(env={"SESSION_SECRET": "x" * 31}, key="SESSION_SECRET")
        self.assertIn("32", line)

    def test_malformed_listen(self):
        self.fails(env={"LISTEN": "not-an-address"}, key="LISTEN")

    def test_malformed_integer_in_file(self):
        line = self.fails(ini="[http]\nthreads = many\n", key="[http] threads")
        self.assertIn("skinpulsed.ini:2", line)

    def test_unknown_key(self):
        self.fails(ini="[daemon]\nlistne = 1.2.3.4:5\n", key="[daemon] listne")

    def test_unknown_plugin(self):
        self.fails(ini="[source.x]\nplugin = no_such_plugin\nenabled = true\n",
                   key="no_such_plugin")

    def test_bad_database_url(self):
        self.fails(env={"DATABASE_URL": "mysql://x"}, key="DATABASE_URL")

    def test_check_config(self):
        good = Daemon(self.workdir, ini="[log]\nlevel = debug\n")
        ok = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--check-config", "--config",
                             good.config], env=good.env, capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        bad = Daemon(self.workdir, ini="[log]\nlevel = loud\n")
        refused = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--check-config",
                                  "--config", bad.config], env=bad.env, capture_output=True,
                                 text=True)
        self.assertEqual(refused.returncode, 1)
        self.assertIn("[log] level", refused.stderr)

    def test_shipped_configurations_are_valid(self):
        # The packaged /etc (with its conf.d drop-ins) and the quick-start configuration
        # name only keys their plugins declare.
        from harness import SOURCE_DIR
        for config in ["etc/skinpulse/skinpulsed.ini", "etc/dev/skinpulsed.ini"]:
            env = dict(os.environ, SESSION_SECRET=SECRET)
            proc = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--check-config",
                                   "--config", os.path.join(SOURCE_DIR, config)],
                                  env=env, capture_output=True, text=True, cwd=SOURCE_DIR)
            self.assertEqual(proc.returncode, 0, config + ": " + proc.stderr)
            self.assertIn("configuration OK", proc.stdout)

    def test_drop_ins_override_in_lexical_order(self):
        os.mkdir(os.path.join(self.workdir, "conf.d"))
        with open(os.path.join(self.workdir, "conf.d", "10-a.ini"), "w") as f:
            f.write("[log]\nlevel = loud\n")
        with open(os.path.join(self.workdir, "conf.d", "20-b.ini"), "w") as f:
            f.write("[log]\nlevel = warn\n")
        daemon = Daemon(self.workdir, ini="[log]\nlevel = info\n")
        ok = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--check-config", "--config",
                             daemon.config], env=daemon.env, capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        os.remove(os.path.join(self.workdir, "conf.d", "20-b.ini"))
        bad = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--check-config", "--config",
                              daemon.config], env=daemon.env, capture_output=True, text=True)
        self.assertEqual(bad.returncode, 1)
        self.assertIn("10-a.ini:2", bad.stderr)


class LifecycleTest(DaemonTestCase):
    def test_sigterm_stops_cleanly_within_5s(self):
        daemon = Daemon(self.workdir).start()
        self.assertEqual(daemon.get("/healthz").status, 200)
        started = time.time()
        daemon.proc.send_signal(signal.SIGTERM)
        code = daemon.proc.wait(10)
        self.assertEqual(code, 0, daemon.stderr())
        self.assertLess(time.time() - started, 5)
        daemon.stop()

    def test_sigint_with_open_keepalive_connection(self):
        import http.client
        daemon = Daemon(self.workdir).start()
        conn = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=10)
        conn.request("GET", "/healthz")
        conn.getresponse().read()
        started = time.time()
        daemon.proc.send_signal(signal.SIGINT)
        self.assertEqual(daemon.proc.wait(10), 0)
        self.assertLess(time.time() - started, 5)
        conn.close()
        daemon.stop()


class LoggingTest(DaemonTestCase):
    def test_json_lines(self):
        daemon = Daemon(self.workdir, ini="[log]\nformat = json\n")
        with daemon:
            daemon.get('/api/v1/items?q="quoted"')
            time.sleep(0.3)
        import json
        records = [json.loads(line) for line in daemon.stderr_lines if line.strip()]
        self.assertTrue(any("listening on" in r["message"] for r in records))
        access = [r for r in records if r["logger"] == "access"]
        self.assertTrue(access)
        self.assertTrue(all(set(r) == {"time", "level", "logger", "message"} for r in records))
        self.assertFalse(any("quoted" in r["message"] for r in access))


class PluginTest(DaemonTestCase):
    def test_broken_plugins_are_refused_and_daemon_serves(self):
        daemon = Daemon(self.workdir, env={"SKINPULSE_PLUGIN_DIR": TEST_PLUGIN_DIR})
        with daemon:
            ready = daemon.admin_get("/readyz")
            self.assertEqual(ready.status, 200)
            plugins = {p["file"]: p for p in ready.json()["plugins"]}
            self.assertEqual(plugins["source_wrongabi.so"]["status"], "refused")
            self.assertIn("ABI", plugins["source_wrongabi.so"]["reason"])
            self.assertEqual(plugins["source_good.so"]["status"], "loaded")
            refusals = [l for l in daemon.stderr_lines if "source_wrongabi.so" in l]
            self.assertEqual(len(refusals), 1, daemon.stderr())
            self.assertEqual(daemon.get("/api/v1/items/1").status, 200)

    def test_enabled_source_from_a_refused_plugin_is_a_config_error(self):
        ini = "[source.old]\nplugin = wrongabi\nenabled = true\n"
        daemon = Daemon(self.workdir, ini=ini, env={"SKINPULSE_PLUGIN_DIR": TEST_PLUGIN_DIR})
        proc = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--config", daemon.config],
                              env=daemon.env, capture_output=True, text=True, timeout=30)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("[source.old]", proc.stderr)

    def test_source_instance_with_unknown_key(self):
        ini = "[source.good]\nplugin = good\nurl = http://127.0.0.1:1/\ncolour = red\n"
        daemon = Daemon(self.workdir, ini=ini, env={"SKINPULSE_PLUGIN_DIR": TEST_PLUGIN_DIR})
        proc = subprocess.run([os.path.join(BIN_DIR, "skinpulsed"), "--config", daemon.config],
                              env=daemon.env, capture_output=True, text=True, timeout=30)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("colour", proc.stderr)


if __name__ == "__main__":
    unittest.main()
