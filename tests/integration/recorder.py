"""Records every HTTP answer the integration tests get from a skinpulsed, for the OpenAPI
test (tests/openapi, docs/api.md §16).

When SKINPULSE_API_RECORD names a file, every exchange with a daemon port is appended to
it as one JSON line: {"method","target","status","headers":[[name,value],...],"body"
(text, or null when not kept), "via"}. Nothing is recorded otherwise, and the hooks cost
a dictionary look-up per request.

One recorder for every way the tests talk to the daemon:
  * http.client (harness.Daemon.request, the tests' own HTTPConnection, urllib): the
    connection's getresponse() is wrapped; the body is read once, kept, and handed back
    to the caller unchanged;
  * websocket-client handshakes (websocket.create_connection): status and headers of the
    101, or of the refusal (the library does not read a refusal's body: body null).
  * raw sockets (the front door's framing, size and deadline tests): record_raw() is
    called by their exchange helpers with the bytes sent and received; the first final
    answer is recorded, under target "*" when the request line is deliberately not
    HTTP (such answers are held to the front door's `x-skinpulse-any-request`).

Daemon ports are registered by harness.Daemon; answers of the fakes are never recorded.
"""
import http.client
import io
import json
import os
import re
import threading
import zlib

_PATH = os.environ.get("SKINPULSE_API_RECORD")
_lock = threading.Lock()
_file = None
_ports = set()

# Bodies kept verbatim: what the document describes with a schema. Other bodies (the
# dashboard's HTML, scripts, styles) are checked by status and headers only.
_KEPT_TYPES = ("application/json", "application/problem+json", "text/csv", "text/plain")


def register_port(port):
    """Marks `port` (127.0.0.1) as a daemon's: exchanges with it are recorded."""
    _ports.add(port)


def enabled():
    return bool(_PATH)


def _write(entry):
    global _file
    # ensure_ascii: the C encoder (ensure_ascii=False takes a slow path on big bodies).
    line = json.dumps(entry, separators=(",", ":")) + "\n"
    with _lock:
        if _file is None:
            os.makedirs(os.path.dirname(os.path.abspath(_PATH)), exist_ok=True)
            _file = open(_PATH, "w", encoding="utf-8")  # one run, one file
        _file.write(line)
        _file.flush()


def record(method, target, status, headers, body, via):
    """Appends one exchange. `body`: bytes, or None when the client never read it."""
    if not _PATH:
        return
    content_type = ""
    coding = ""
    for name, value in headers:
        if name.lower() == "content-type":
            content_type = value.split(";")[0].strip().lower()
        elif name.lower() == "content-encoding":
            coding = value.strip().lower()
    text = None
    if body is not None and coding == "gzip":
        try:
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)  # the document describes the decoded body
        except zlib.error:
            pass  # kept as sent: the check then reports a body that is not JSON
    elif body is not None and coding:
        body = None  # br: no decoder here; the status and headers are still checked
    if body is not None and (content_type in _KEPT_TYPES or not content_type):
        text = body.decode("utf-8", "replace")
    _write({"method": method, "target": target, "status": status,
            "headers": [[k, v] for k, v in headers], "body": text,
            "body_length": None if body is None else len(body), "via": via})


_REQUEST_LINE = re.compile(rb"^([A-Z]+) (/[^ \r\n]*) HTTP/1\.[01]\r?\n")


def record_raw(port, sent, received, via="raw socket"):
    """Records the first final answer in `received` to the request bytes `sent`."""
    if not _PATH or port not in _ports or not received:
        return
    line = _REQUEST_LINE.match(sent)
    method, target = (line.group(1).decode(), line.group(2).decode("latin-1")) if line \
        else ("GET", "*")
    data = received
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if not sep or len(parts) < 2 or not parts[1].isdigit():
            return  # cut short: nothing to hold to the document
        status = int(parts[1])
        headers = [tuple(p.strip() for p in h.split(":", 1)) for h in lines[1:] if ":" in h]
        length = next((int(v) for k, v in headers if k.lower() == "content-length"), 0)
        if 100 <= status < 200 and status != 101:
            data = rest  # 100 Continue: the final answer follows
            continue
        body = rest[:length] if method != "HEAD" else b""
        record(method, target, status, headers, body, via)
        return


# --- http.client -----------------------------------------------------------------------
_original_putrequest = http.client.HTTPConnection.putrequest
_original_getresponse = http.client.HTTPConnection.getresponse


def _putrequest(self, method, url, *args, **kwargs):
    self._skinpulse_request = (method, url)
    return _original_putrequest(self, method, url, *args, **kwargs)


def _getresponse(self):
    response = _original_getresponse(self)
    request = getattr(self, "_skinpulse_request", None)
    if not _PATH or request is None or self.port not in _ports or \
            self.host not in ("127.0.0.1", "localhost"):
        return response
    method, target = request
    data = response.read()
    headers = response.getheaders()
    record(method, target, response.status, headers, data, "http.client")
    # The caller reads the same bytes.
    response.fp = io.BufferedReader(io.BytesIO(data))
    response.length = len(data)
    response.chunked = False
    return response


http.client.HTTPConnection.putrequest = _putrequest
http.client.HTTPConnection.getresponse = _getresponse


# --- websocket-client handshakes --------------------------------------------------------
def _hook_websocket():
    try:
        import websocket._core as core
        from websocket._exceptions import WebSocketBadStatusException
    except ImportError:  # tests without WebSockets run without the package
        return
    original = core.handshake

    def handshake(sock, hostname, port, resource, **options):
        if not _PATH or port not in _ports:
            return original(sock, hostname, port, resource, **options)
        try:
            answer = original(sock, hostname, port, resource, **options)
        except WebSocketBadStatusException as refusal:
            record("GET", resource, refusal.status_code,
                   list((refusal.resp_headers or {}).items()), None, "websocket")
            raise
        record("GET", resource, answer.status, list(answer.headers.items()), None, "websocket")
        return answer

    core.handshake = handshake


_hook_websocket()
