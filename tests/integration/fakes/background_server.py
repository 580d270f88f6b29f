"""The lifecycle every local HTTP fake shares: a server on a loopback port, served from a
background thread between start() and stop(), or inside `with`."""

import http.server
import threading


class BackgroundServer:
    """Base of the fake peers. A subclass calls listen() in its __init__ with its request
    handler class; `port` and `server` are then set and the thread is ready to start."""

    def listen(self, handler, port=0):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
