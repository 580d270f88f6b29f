"""A local OpenID 2.0 OP for integration tests, built on python-openid's server.

GET  /openid/login   checkid_setup: approves at once and redirects to return_to with a
                     positive assertion signed with a stateless ("dumb mode") association
POST /openid/login   check_authentication: python-openid verifies the signature and
                     invalidates the association, so each assertion verifies once

Attributes the test sets before a login:
  claimed_id    the claimed ID (and identity) asserted; any string, so tests can assert
                IDs that break the claimed-ID rules with a valid signature
  identity      when set, a different openid.identity (claimed_id != identity)
  fixed_nonce   when set, the response_nonce of every assertion (replay tests)
  cancel        answer mode=cancel, as when the user aborts
  overrides     openid.* fields replaced after the answer and before signing (e.g.
                {"op_endpoint": ...}): a validly signed assertion that says something else
GET /ISteamUser/GetPlayerSummaries/v0002/?key=K&steamids=ID answers the Web API shape of
docs/upstreams.md §e.4 when K equals `api_key`, naming the player `names[ID]`.
Every check_authentication body is kept in `check_auth_bodies` for assertions.
"""
import http.server
import json
import threading
import urllib.parse
import warnings

import logging

from openid.message import OPENID_NS
from openid.server.server import Server
from openid.store.memstore import MemoryStore

from .background_server import BackgroundServer

DEFAULT_ID = "76561197972494985"
HOST = "steamcommunity.com"

# python-openid logs every refused check_authentication; the tests assert on answers.
logging.getLogger("openid").setLevel(logging.CRITICAL)
warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"openid\.")


def claimed_id_for(id64, host=HOST):
    return "https://%s/openid/id/%s" % (host, id64)


class FakeOpenIdProvider(BackgroundServer):
    def __init__(self):
        self.lock = threading.Lock()
        self.listen(self._handler())
        self.endpoint = "http://127.0.0.1:%d/openid/login" % self.port
        self.op = Server(MemoryStore(), self.endpoint)
        self.claimed_id = claimed_id_for(DEFAULT_ID)
        self.identity = None
        self.fixed_nonce = None
        self.cancel = False
        self.overrides = {}
        self.api_key = "webapi-test-key"
        self.names = {}
        self.api_requests = []
        self.check_auth_bodies = []

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, web):
                body = web.body.encode("utf-8") if isinstance(web.body, str) else web.body
                self.send_response(web.code)
                for name, value in web.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def _query(self, text):
                return dict(urllib.parse.parse_qsl(text, keep_blank_values=True))

            def _summaries(self, query):
                args = self._query(query)
                with fake.lock:
                    fake.api_requests.append(args)
                if args.get("key") != fake.api_key:
                    self.send_error(403)
                    return
                players = []
                for id64 in args.get("steamids", "").split(","):
                    if id64 in fake.names:
                        players.append({
                            "steamid": id64, "communityvisibilitystate": 3, "profilestate": 1,
                            "personaname": fake.names[id64],
                            "avatarfull": "https://avatars.example/%s_full.jpg" % id64})
                body = json.dumps({"response": {"players": players}}).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                parts = urllib.parse.urlsplit(self.path)
                if parts.path == "/ISteamUser/GetPlayerSummaries/v0002/":
                    self._summaries(parts.query)
                    return
                if parts.path != "/openid/login":
                    self.send_error(404)
                    return
                with fake.lock:
                    request = fake.op.decodeRequest(self._query(parts.query))
                    if request is None or request.mode != "checkid_setup":
                        self.send_error(400)
                        return
                    if fake.cancel:
                        response = request.answer(False)
                    else:
                        response = request.answer(True, identity=fake.claimed_id,
                                                  claimed_id=fake.claimed_id)
                        if fake.identity is not None:
                            response.fields.setArg(OPENID_NS, "identity", fake.identity)
                        if fake.fixed_nonce is not None:
                            response.fields.setArg(OPENID_NS, "response_nonce", fake.fixed_nonce)
                        for name, value in fake.overrides.items():
                            response.fields.setArg(OPENID_NS, name, value)
                    self._send(fake.op.encodeResponse(response))

            def do_POST(self):
                if urllib.parse.urlsplit(self.path).path != "/openid/login":
                    self.send_error(404)
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8")
                with fake.lock:
                    fake.check_auth_bodies.append(body)
                    request = fake.op.decodeRequest(self._query(body))
                    if request is None or request.mode != "check_authentication":
                        self.send_error(400)
                        return
                    self._send(fake.op.encodeResponse(fake.op.handleRequest(request)))

        return Handler
