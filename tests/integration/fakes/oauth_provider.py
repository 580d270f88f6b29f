"""A local OAuth 2.0 authorization server for integration tests, built on oauthlib.

One threaded HTTP server serves both provider flavours of docs/api.md §5:

  idp-a (OpenID Connect style)          idp-b (code-hosting style)
  GET  /a/authorize                     GET  /b/login/oauth/authorize
  POST /a/token                         POST /b/login/oauth/access_token
  GET  /a/userinfo                      GET  /b/api/user, GET /b/api/user/emails

oauthlib does the protocol work and refuses what a real provider refuses: an unknown
client, a redirect_uri other than the registered one (at authorization and again at the
token call), a missing PKCE challenge, a wrong code_verifier, wrong client credentials
(read from the form body), a reused code, an unknown bearer token. The authorization
endpoint approves at once (there is no login page) for the profile the test put in
`next_profile[flavour]`; `deny[flavour] = True` makes it answer error=access_denied.

idp-b behaves like its real counterpart where that matters: without
`Accept: application/json` the token answer is form-encoded, and token errors come back
as HTTP 200 with an `error` member.

Use in-process:
    with FakeOAuthProvider() as idp:
        idp.register("a", "client-a", "secret-a", "http://127.0.0.1:PORT/api/v1/auth/idp-a/callback")
        idp.next_profile["a"] = {"sub": "1", "email": "a@example.org", "email_verified": True}
"""
import http.server
import json
import os
import threading
import urllib.parse

# oauthlib insists on https; the fake listens on loopback only.
os.environ.setdefault("OAUTHLIB_INSECURE_TRANSPORT", "1")

from oauthlib.oauth2 import RequestValidator, WebApplicationServer  # noqa: E402
from oauthlib.oauth2.rfc6749 import errors  # noqa: E402

from .background_server import BackgroundServer  # noqa: E402

SCOPES = {"a": ["openid", "email", "profile"], "b": ["read:user", "user:email"]}
PATHS = {
    "a": {"authorize": "/a/authorize", "token": "/a/token"},
    "b": {"authorize": "/b/login/oauth/authorize", "token": "/b/login/oauth/access_token"},
}


class _Client:
    def __init__(self, flavour, client_id, secret, redirect_uri):
        self.flavour = flavour
        self.client_id = client_id
        self.secret = secret
        self.redirect_uri = redirect_uri


class _Validator(RequestValidator):
    """Keeps clients, codes and tokens in the fake's dictionaries."""

    def __init__(self, fake):
        self.fake = fake

    # -- authorization request
    def validate_client_id(self, client_id, request, *args, **kwargs):
        return client_id in self.fake.clients

    def validate_redirect_uri(self, client_id, redirect_uri, request, *args, **kwargs):
        return redirect_uri == self.fake.clients[client_id].redirect_uri

    def get_default_redirect_uri(self, client_id, request, *args, **kwargs):
        return None  # redirect_uri is required, as docs/api.md §5 sends it

    def validate_response_type(self, client_id, response_type, client, request, *a, **kw):
        return response_type == "code"

    def validate_scopes(self, client_id, scopes, client, request, *args, **kwargs):
        return sorted(scopes) == sorted(SCOPES[self.fake.clients[client_id].flavour])

    def get_default_scopes(self, client_id, request, *args, **kwargs):
        return []

    def is_pkce_required(self, client_id, request):
        return True

    def save_authorization_code(self, client_id, code, request, *args, **kwargs):
        with self.fake.lock:
            self.fake.codes[code["code"]] = {
                "client_id": client_id,
                "redirect_uri": request.redirect_uri,
                "scopes": request.scopes,
                "profile": request.profile,
                "challenge": request.code_challenge,
                "method": request.code_challenge_method,
            }

    # -- token request
    def client_authentication_required(self, request, *args, **kwargs):
        return True

    def authenticate_client(self, request, *args, **kwargs):
        # Credentials as form fields only (docs/api.md §5), never HTTP Basic.
        client = self.fake.clients.get(request.client_id or "")
        if client is None or request.client_secret != client.secret:
            self.fake.note("bad client credentials")
            return False
        request.client = client
        return True

    def authenticate_client_id(self, client_id, request, *args, **kwargs):
        return False

    def validate_code(self, client_id, code, client, request, *args, **kwargs):
        with self.fake.lock:
            grant = self.fake.codes.get(code)
        if grant is None or grant["client_id"] != client_id:
            self.fake.note("unknown or reused code")
            return False
        request.scopes = grant["scopes"]
        request.profile = grant["profile"]
        request.user = grant["profile"]
        return True

    def get_code_challenge(self, code, request):
        with self.fake.lock:
            grant = self.fake.codes.get(code)
        return grant["challenge"] if grant else None

    def get_code_challenge_method(self, code, request):
        with self.fake.lock:
            grant = self.fake.codes.get(code)
        return grant["method"] if grant else None

    def confirm_redirect_uri(self, client_id, code, redirect_uri, client, request, *a, **kw):
        with self.fake.lock:
            grant = self.fake.codes.get(code)
        ok = grant is not None and redirect_uri == grant["redirect_uri"]
        if not ok:
            self.fake.note("redirect_uri differs from the authorization request")
        return ok

    def validate_grant_type(self, client_id, grant_type, client, request, *args, **kwargs):
        return grant_type == "authorization_code"

    def save_bearer_token(self, token, request, *args, **kwargs):
        with self.fake.lock:
            self.fake.tokens[token["access_token"]] = {
                "flavour": request.client.flavour, "profile": request.profile,
                "scopes": request.scopes}

    def invalidate_authorization_code(self, client_id, code, request, *args, **kwargs):
        with self.fake.lock:
            self.fake.codes.pop(code, None)

    # -- resource requests
    def validate_bearer_token(self, token, scopes, request):
        with self.fake.lock:
            entry = self.fake.tokens.get(token or "")
        if entry is None:
            return False
        request.profile = entry["profile"]
        request.flavour = entry["flavour"]
        return True


class FakeOAuthProvider(BackgroundServer):
    def __init__(self):
        self.lock = threading.Lock()
        self.clients = {}
        self.codes = {}
        self.tokens = {}
        self.next_profile = {"a": None, "b": None}
        self.deny = {"a": False, "b": False}
        self.log = []  # (method, path, headers dict, body) of every request
        self.notes = []  # why oauthlib refused something, for assertions
        self.oauth = WebApplicationServer(_Validator(self))
        self.listen(self._handler())

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def register(self, flavour, client_id, secret, redirect_uri):
        self.clients[client_id] = _Client(flavour, client_id, secret, redirect_uri)

    def note(self, text):
        with self.lock:
            self.notes.append(text)

    def requests_to(self, path):
        with self.lock:
            return [r for r in self.log if r[1].split("?")[0] == path]

    def _handler(self):
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _record(self, body=""):
                with fake.lock:
                    fake.log.append((self.command, self.path, dict(self.headers.items()), body))

            def _send(self, status, body=b"", headers=None):
                if isinstance(body, str):
                    body = body.encode("utf-8")
                self.send_response(status)
                for name, value in (headers or {}).items():
                    if name.lower() != "content-length":
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _json(self, status, value):
                self._send(status, json.dumps(value), {"Content-Type": "application/json"})

            def _uri(self):
                return fake.url(self.path)

            def do_GET(self):
                self._record()
                path = self.path.split("?")[0]
                for flavour, paths in PATHS.items():
                    if path == paths["authorize"]:
                        return self._authorize(flavour)
                if path in ("/a/userinfo", "/b/api/user", "/b/api/user/emails"):
                    return self._resource(path)
                self._send(404, "not found")

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8")
                self._record(body)
                path = self.path.split("?")[0]
                for flavour, paths in PATHS.items():
                    if self.path == paths["token"]:  # a query string is refused: 404
                        return self._token(flavour, body)
                self._send(404, "not found")

            def _authorize(self, flavour):
                uri = self._uri()
                query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(uri).query))
                try:
                    scopes, credentials = fake.oauth.validate_authorization_request(uri, "GET")
                except errors.FatalClientError as e:
                    # Unknown client or unregistered redirect_uri: never redirect.
                    fake.note("authorization refused: " + e.error)
                    return self._send(400, e.error)
                except errors.OAuth2Error as e:
                    fake.note("authorization refused: " + e.error)
                    return self._send(302, "", {"Location": e.in_uri(query["redirect_uri"])})
                if query.get("code_challenge_method") != "S256":
                    fake.note("authorization refused: PKCE method is not S256")
                    return self._send(400, "S256 required")
                client = fake.clients[credentials["client_id"]]
                if fake.deny[flavour] or client.flavour != flavour:
                    location = client.redirect_uri + "?" + urllib.parse.urlencode(
                        {"error": "access_denied", "state": query.get("state", "")})
                    return self._send(302, "", {"Location": location})
                credentials["profile"] = fake.next_profile[flavour]
                headers, body, status = fake.oauth.create_authorization_response(
                    uri, "GET", None, None, scopes, credentials)
                self._send(status, body or "", headers)

            def _token(self, flavour, body):
                headers = {"Content-Type": self.headers.get("Content-Type", "")}
                out_headers, out_body, status = fake.oauth.create_token_response(
                    self._uri(), "POST", body, headers)
                if flavour == "b":
                    # The code-hosting provider's quirks (docs/upstreams.md §f.2).
                    status = 200
                    if "application/json" not in (self.headers.get("Accept") or ""):
                        form = urllib.parse.urlencode(json.loads(out_body))
                        return self._send(200, form,
                                          {"Content-Type": "application/x-www-form-urlencoded"})
                self._send(status, out_body, out_headers)

            def _resource(self, path):
                uri = self._uri()
                headers = {"Authorization": self.headers.get("Authorization", "")}
                valid, request = fake.oauth.verify_request(uri, "GET", None, headers, scopes=[])
                if not valid:
                    return self._json(401, {"message": "Bad credentials"})
                profile = request.profile or {}
                if path == "/a/userinfo":
                    return self._json(200, profile)
                if path == "/b/api/user":
                    return self._json(200, profile.get("user", {}))
                return self._json(200, profile.get("emails", []))

        return Handler
