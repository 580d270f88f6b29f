"""Starts the real skinpulsed for integration tests and talks HTTP to it.

Every daemon gets its own temporary directory (database, config), a free port and a
generated SESSION_SECRET; its stderr is kept for assertions about log lines.
"""
import http.client
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
import unittest

import recorder  # records every answer for the OpenAPI test when asked (recorder.py)

BIN_DIR = os.environ.get("SKINPULSE_BIN_DIR", "build/bin")
SOURCE_DIR = os.environ.get("SKINPULSE_SOURCE_DIR", ".")
TEST_PLUGIN_DIR = os.environ.get("SKINPULSE_TEST_PLUGIN_DIR", "build/tests/plugins")
SECRET = "integration-test-secret-0123456789abcdef"


def wait_until(predicate, timeout=30, every=0.2):
    """Polls `predicate` until it returns something truthy; returns its last value."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return predicate()


def iso(ts):
    """A Unix time as the API's and the backfill's UTC text, e.g. 2026-11-29T02:40:58Z."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def cookie_of(response):
    """name=value of the response's Set-Cookie, or None."""
    header = response.header("set-cookie")
    return header.split(";", 1)[0] if header else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    """One skinpulsed process. Use as a context manager or call stop()."""

    def __init__(self, workdir, ini="", env=None, args=None):
        self.workdir = workdir
        self.port = free_port()
        # Every daemon its own admin listener (docs/operations.md), so two never clash on
        # the default 9108; a test may set ADMIN_LISTEN itself (empty disables it).
        self.admin_port = free_port()
        # The kernel may hand the same ephemeral port out twice in a row: then the second
        # listener cannot bind ("Address already in use", seen once in CI).
        while self.admin_port == self.port:
            self.admin_port = free_port()
        recorder.register_port(self.port)
        self.config = os.path.join(workdir, "skinpulsed.ini")
        with open(self.config, "w", encoding="utf-8") as f:
            f.write(ini)
        self.env = dict(os.environ)
        self.env.update({
            "SESSION_SECRET": SECRET,
            "LISTEN": f"127.0.0.1:{self.port}",
            "ADMIN_LISTEN": f"127.0.0.1:{self.admin_port}",
            "BASE_URL": f"http://127.0.0.1:{self.port}",
            "DATABASE_URL": "sqlite://" + os.path.join(workdir, "skinpulse.db"),
        })
        self.env.update(env or {})
        self.env = {k: v for k, v in self.env.items() if v is not None}
        self.args = args or []
        self.proc = None
        self.stderr_lines = []
        self._reader = None

    def start(self, timeout=60):
        self.proc = subprocess.Popen(
            [os.path.join(BIN_DIR, "skinpulsed"), "--config", self.config] + self.args,
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.workdir)
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                self._reader.join(2)
                raise RuntimeError("skinpulsed exited with %s:\n%s" %
                                   (self.proc.returncode, self.stderr()))
            if self._started(list(self.stderr_lines)):
                return self
            time.sleep(0.05)
        raise RuntimeError("skinpulsed did not start:\n" + self.stderr())

    def _started(self, lines):
        # The public listener announces itself before the admin one opens (module order):
        # a test that scrapes the admin port at once must wait for both.
        wants_admin = bool(self.env.get("ADMIN_LISTEN"))
        public = any("listening on" in line and "admin listener" not in line for line in lines)
        admin = any("admin listener on" in line for line in lines)
        return public and (admin or not wants_admin)

    def _read_stderr(self):
        for raw in self.proc.stderr:
            self.stderr_lines.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def stderr(self):
        return "\n".join(self.stderr_lines)

    def stop(self, timeout=10):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._reader:
            self._reader.join(2)
        if self.proc and self.proc.stderr:
            self.proc.stderr.close()
        return self.proc.returncode if self.proc else None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def request(self, method, path, body=None, headers=None, port=None):
        conn = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            data = response.read()
            return Response(response.status, response.getheaders(), data, response.reason)
        finally:
            conn.close()

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def admin_get(self, path, **kw):
        """GET on the admin listener: /metrics, and /readyz with every detail."""
        return self.request("GET", path, port=self.admin_port, **kw)


class Response:
    def __init__(self, status, headers, body, reason=""):
        self.status = status
        self.reason = reason
        self.headers = {k.lower(): v for k, v in headers}
        self.body = body

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def header(self, name):
        return self.headers.get(name.lower())


def run_tool(*args, env=None, timeout=120):
    """Runs a build/bin tool; returns CompletedProcess with text output."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([os.path.join(BIN_DIR, args[0])] + list(args[1:]), env=full_env,
                          capture_output=True, text=True, timeout=timeout)


class DaemonTestCase(unittest.TestCase):
    """Gives each test a temporary directory."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="skinpulse-it-")
        self.workdir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    SECURITY_HEADERS = {
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "strict-origin-when-cross-origin",
        "x-xss-protection": "1; mode=block",
    }

    def assertSecurityHeaders(self, response):
        for name, value in self.SECURITY_HEADERS.items():
            self.assertEqual(response.header(name), value, name)

    def assertProblem(self, response, status, code):
        self.assertEqual(response.status, status, response.body)
        self.assertEqual(response.header("content-type"), "application/problem+json")
        problem = response.json()
        self.assertEqual(problem["status"], status)
        self.assertEqual(problem["code"], code)
        self.assertEqual(problem["type"], "about:blank")
        self.assertTrue(problem["title"])
        self.assertEqual(response.reason, problem["title"], "status line reason phrase")
        self.assertTrue(problem["detail"])
        self.assertSecurityHeaders(response)
        return problem
