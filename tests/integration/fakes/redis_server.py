"""A redis-server of a test's own: a free loopback port, no persistence, killable mid-test
(the daemon must then fail closed)."""

import socket
import subprocess
import time

from harness import free_port


class RedisServer:
    def __init__(self):
        self.port = free_port()
        self.proc = None

    def start(self):
        """Starts redis-server and waits until it answers PING (10 s at most)."""
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError("redis-server did not start")

    def kill(self):
        """SIGKILL, as an outage looks to the daemon; nothing when it is not running."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    @property
    def url(self):
        return "redis://127.0.0.1:%d/0" % self.port
