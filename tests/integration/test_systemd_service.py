"""skinpulsed under systemd's contract: the notify protocol (Type=notify) and the
--check-config the unit runs as ExecStartPre, which lists every problem at once."""
import os
import signal
import socket
import subprocess
import unittest

from harness import BIN_DIR, SOURCE_DIR, TEST_PLUGIN_DIR, Daemon, DaemonTestCase


class NotifyTest(DaemonTestCase):
    def manager_socket(self, abstract):
        """The service manager's end of $NOTIFY_SOCKET; returns (socket, env value)."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        if abstract:
            name = "\0skinpulse-it-notify-%d" % os.getpid()
            sock.bind(name)
            value = "@" + name[1:]
        else:
            value = os.path.join(self.workdir, "notify.sock")
            sock.bind(value)
        sock.settimeout(60)
        self.addCleanup(sock.close)
        return sock, value

    def receive_until(self, sock, state):
        seen = []
        while True:
            message = sock.recv(4096).decode()
            seen.append(message)
            if state in message.split("\n"):
                return message, seen

    def test_ready_watchdog_and_stopping_over_a_path_socket(self):
        sock, value = self.manager_socket(abstract=False)
        daemon = Daemon(self.workdir, env={"NOTIFY_SOCKET": value, "WATCHDOG_USEC": "400000"})
        daemon.start()
        try:
            ready, _ = self.receive_until(sock, "READY=1")
            self.assertIn("MAINPID=%d" % daemon.proc.pid, ready)
            self.assertIn("STATUS=listening on 127.0.0.1:%d" % daemon.port, ready)
            # READY=1 comes after the socket listens.
            self.assertEqual(daemon.get("/healthz").status, 200)
            self.receive_until(sock, "WATCHDOG=1")
            self.receive_until(sock, "WATCHDOG=1")
            daemon.proc.send_signal(signal.SIGTERM)
            self.receive_until(sock, "STOPPING=1")
            self.assertEqual(daemon.proc.wait(10), 0, daemon.stderr())
        finally:
            daemon.stop()

    def test_abstract_socket_and_no_watchdog_without_watchdog_usec(self):
        sock, value = self.manager_socket(abstract=True)
        with Daemon(self.workdir, env={"NOTIFY_SOCKET": value}) as daemon:
            ready, seen = self.receive_until(sock, "READY=1")
            daemon.proc.send_signal(signal.SIGTERM)
            _, more = self.receive_until(sock, "STOPPING=1")
            self.assertFalse([m for m in seen + more if "WATCHDOG=1" in m])

    def test_without_notify_socket_the_daemon_runs_as_before(self):
        with Daemon(self.workdir, env={"NOTIFY_SOCKET": None}) as daemon:
            self.assertEqual(daemon.get("/healthz").status, 200)
            self.assertNotIn("systemd notification failed", daemon.stderr())


class CheckConfigTest(DaemonTestCase):
    def check(self, tool, ini, env=None, drop_ins=None):
        daemon = Daemon(self.workdir, ini=ini, env=env)
        if drop_ins:
            os.makedirs(os.path.join(self.workdir, "conf.d"), exist_ok=True)
            for name, text in drop_ins.items():
                with open(os.path.join(self.workdir, "conf.d", name), "w") as f:
                    f.write(text)
        if tool == "skinpulsed":
            argv = [os.path.join(BIN_DIR, "skinpulsed"), "--check-config", "--config",
                    daemon.config]
        else:
            argv = [os.path.join(BIN_DIR, "skinpulsectl"), "--config", daemon.config,
                    "check-config"]
        return subprocess.run(argv, env=daemon.env, capture_output=True, text=True, timeout=60)

    BROKEN = ("[daemon]\nlisten = nowhere\n"
              "[http]\nthreads = many\nthreads_extra = 1\n"
              "this line is not ini\n"
              "[log]\nlevel = loud\n"
              "[source.x]\nplugin = no_such_plugin\n"
              "[bogus]\nkey = 1\n")

    def assert_every_problem(self, proc):
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        errors = [l for l in proc.stderr.splitlines() if l.startswith("error: ")]
        expected = ["[daemon] listen", "[http] threads (", "[http] threads_extra",
                    "skinpulsed.ini:6: expected 'key = value'", "[log] level",
                    "[bogus]", "SESSION_SECRET", "no_such_plugin"]
        for needle in expected:
            self.assertEqual(len([e for e in errors if needle in e]), 1,
                             needle + " not reported exactly once:\n" + proc.stderr)
        self.assertEqual(len(errors), len(expected), proc.stderr)
        self.assertIn("configuration has %d problem(s)" % len(expected), proc.stderr)
        self.assertNotIn("configuration OK", proc.stdout)

    def test_daemon_lists_every_problem_one_line_each(self):
        self.assert_every_problem(
            self.check("skinpulsed", self.BROKEN, env={"SESSION_SECRET": "short", "LISTEN": None}))

    def test_skinpulsectl_lists_the_same_problems(self):
        self.assert_every_problem(
            self.check("skinpulsectl", self.BROKEN, env={"SESSION_SECRET": "short", "LISTEN": None}))

    def test_missing_secret_from_the_environment_is_one_problem(self):
        proc = self.check("skinpulsed", "[log]\nlevel = info\n",
                          env={"SESSION_SECRET": None, "LISTEN": "bad"})
        self.assertEqual(proc.returncode, 1)
        errors = [l for l in proc.stderr.splitlines() if l.startswith("error: ")]
        self.assertEqual(len(errors), 2, proc.stderr)
        self.assertTrue(errors[0].startswith("error: LISTEN: "), proc.stderr)
        self.assertTrue(errors[1].startswith("error: SESSION_SECRET: missing"), proc.stderr)

    def test_problems_in_drop_ins_name_their_file_and_line(self):
        proc = self.check("skinpulsed", "[log]\nlevel = info\n",
                          drop_ins={"20-a.ini": "[http\nthreads = 8\n",
                                    "30-b.ini": "[source.y]\nenabled = maybe\nplugin = simulated\n"})
        self.assertEqual(proc.returncode, 1)
        self.assertIn("20-a.ini:1: malformed section header", proc.stderr)
        self.assertIn("[source.y] enabled (", proc.stderr)
        self.assertIn("30-b.ini:2", proc.stderr)
        self.assertNotIn("threads", proc.stderr, "keys under a broken header are set aside")

    def test_valid_configuration_is_ok_on_stdout(self):
        proc = self.check("skinpulsectl", "[log]\nlevel = debug\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(proc.stdout.startswith("configuration OK: "), proc.stdout)
        self.assertNotIn("error:", proc.stderr)


class PluginsCommandTest(DaemonTestCase):
    def test_lists_kind_name_version_abi_and_status(self):
        daemon = Daemon(self.workdir)
        proc = subprocess.run([os.path.join(BIN_DIR, "skinpulsectl"), "--config", daemon.config,
                               "plugins"], env=daemon.env, capture_output=True, text=True,
                              timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[1].split(), ["KIND", "NAME", "VERSION", "ABI", "STATUS", "FILE"])
        simulated = [l.split() for l in lines if "source_simulated.so" in l]
        self.assertEqual(len(simulated), 1, proc.stdout)
        kind, name, version, abi, status, file = simulated[0][:6]
        self.assertEqual((kind, name, status, file), ("source", "simulated", "loaded",
                                                      "source_simulated.so"))
        self.assertRegex(version, r"^\d+\.\d+\.\d+$")
        self.assertRegex(abi, r"^\d+\.\d+$")


if __name__ == "__main__":
    unittest.main()
