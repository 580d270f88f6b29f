"""A webhook target that never finishes its answer (issue 31): it reads a delivery, sends
a status line and headers promising a large body, then one byte a second until the
client goes away (or `give_up_after` seconds pass). Every connection is recorded with its
delivery id (X-Skinpulse-Delivery) and when it began and ended, so a test can tell that
no delivery was taken twice while an attempt of it was alive."""

import select
import socket
import threading
import time


class Attempt:
    def __init__(self, path, delivery_id, started):
        self.path = path
        self.delivery_id = delivery_id
        self.started = started
        self.ended = None


class DrippingReceiver:
    def __init__(self, give_up_after=120):
        self.give_up_after = give_up_after
        self.lock = threading.Lock()
        self.attempts = []
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.stopping = False
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def recorded(self):
        with self.lock:
            return list(self.attempts)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping = True
        self.listener.close()

    def _accept(self):
        while not self.stopping:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _read_request(self, conn):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(4096)
            if not chunk:
                return None, {}
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = conn.recv(4096)
            if not chunk:
                break
            body += chunk
        return lines[0].split(" ")[1], headers

    def _drip(self, conn):
        with conn:
            path, headers = self._read_request(conn)
            if path is None:
                return
            attempt = Attempt(path, headers.get("x-skinpulse-delivery"), time.monotonic())
            with self.lock:
                self.attempts.append(attempt)
            try:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                             b"Content-Length: 1000000\r\n\r\n")
                last_byte = time.monotonic()
                while time.monotonic() - attempt.started < self.give_up_after:
                    # Look for the client's close every 0.1 s, so `ended` is exact to that.
                    readable, _, _ = select.select([conn], [], [], 0.1)
                    if readable and not conn.recv(1):
                        break  # the client closed (or shut down) its end
                    if time.monotonic() - last_byte >= 1.0:
                        conn.sendall(b".")
                        last_byte = time.monotonic()
            except OSError:
                pass
            finally:
                attempt.ended = time.monotonic()
