"""The OpenAPI document (share/openapi/openapi.json) as the tests use it: its operations,
templated path matching, and validation of one recorded HTTP answer against it
(docs/api.md §16).

Schemas are JSON Schema 2020-12 (OpenAPI 3.1); Debian's python3-jsonschema (4.10)
validates them, `$ref`s resolving inside the document.
"""
import json
import os
import re
import urllib.parse

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("SKINPULSE_SOURCE_DIR", os.path.join(HERE, "..", ".."))
DOCUMENT = os.path.join(SOURCE_DIR, "share", "openapi", "openapi.json")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
BASE_URI = "urn:skinpulse:openapi"


def load(path=DOCUMENT):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def pointer(document, ref):
    """The object `ref` ("#/components/schemas/Item") names, or KeyError."""
    if not ref.startswith("#/"):
        raise KeyError(ref)
    node = document
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def deref(document, node):
    """Follows a Reference Object (a `$ref` outside schemas) to its target."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 20:
        node = pointer(document, node["$ref"])
        seen += 1
    return node


def all_refs(node, where="#"):
    """Every ("$ref" value, JSON pointer of its object) in `node`."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"], where
        for key, value in node.items():
            yield from all_refs(value, where + "/" + key.replace("~", "~0").replace("/", "~1"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from all_refs(value, "%s/%d" % (where, i))


class Operation:
    def __init__(self, method, template, node, path_item):
        self.method = method.upper()
        self.template = template
        self.node = node
        self.path_item = path_item

    @property
    def key(self):
        return (self.method, self.template)


def is_budgeted_read(method, path):
    """Whether the read budget counts this request (docs/api.md §21)."""
    return (method in ("GET", "HEAD") and path.startswith("/api/v1/")
            and not re.match(r"^/api/v1/(auth|ws)(/|$)", path))


def _template_regex(template):
    parts = re.split(r"(\{[^}/]+\})", template)
    regex = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile("^" + regex + "$")


class Model:
    """The document's operations, and validation of answers against them."""

    def __init__(self, document=None):
        self.document = document if document is not None else load()
        self.operations = []
        self._paths = []  # (is_templated, regex, template)
        for template, item in self.document.get("paths", {}).items():
            for method in METHODS:
                if method in item:
                    self.operations.append(Operation(method, template, item[method], item))
            self._paths.append(("{" in template, _template_regex(template), template))
        # Literal paths win over templated ones (OpenAPI 3.1, "Path Templating Matching").
        self._paths.sort(key=lambda p: p[0])
        self._by_key = {op.key: op for op in self.operations}
        self._validators = {}
        self.any_request = self.document.get("x-skinpulse-any-request", {})
        # Reads the budget counts (docs/api.md §21): GET and HEAD under /api/v1 except
        # /api/v1/auth and /api/v1/ws may also answer these.
        self.any_read = self.document.get("x-skinpulse-any-read", {})
        self.every_response = self.document.get("x-skinpulse-every-response", {})

    # --- matching ----------------------------------------------------------------------
    def match_path(self, path):
        for _, regex, template in self._paths:
            if regex.match(path):
                return template
        return None

    def operation(self, method, template):
        return self._by_key.get((method.upper(), template))

    # --- schemas -----------------------------------------------------------------------
    def validator(self, schema):
        key = id(schema)
        if key not in self._validators:
            resolver = jsonschema.RefResolver(BASE_URI, self.document)
            validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
            self._validators[key] = (schema, validator)  # the schema kept: its id stays unique
        return self._validators[key][1]

    def schema_errors(self, schema, value):
        errors = sorted(self.validator(schema).iter_errors(value), key=lambda e: list(e.path))
        out = []
        for error in errors[:3]:
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            out.append("%s: %s" % (where, error.message[:300]))
        return out

    # --- one recorded answer -------------------------------------------------------------
    def check_response(self, response, answer):
        """Problems of `answer` against the Response Object `response` (a list of texts)."""
        response = deref(self.document, response)
        problems = []
        headers = answer["headers"]
        for name, header in (response.get("headers") or {}).items():
            header = deref(self.document, header)
            values = [v for k, v in headers if k.lower() == name.lower()]
            if not values:
                if header.get("required"):
                    problems.append("header %s missing" % name)
                continue
            if name.lower() == "content-type":
                continue
            for value in values:
                for error in self.schema_errors(header.get("schema", {}), value):
                    problems.append("header %s %r: %s" % (name, value, error))
        content = response.get("content")
        content_type = next((v for k, v in headers if k.lower() == "content-type"), "")
        media = content_type.split(";")[0].strip().lower()
        body_length = answer.get("body_length")
        if not content:
            if body_length:
                problems.append("a body (%s, %d bytes) where the document has none" %
                                (content_type, body_length))
            return problems
        if answer["method"] == "HEAD" or answer["status"] == 304:
            return problems
        if media not in content:
            problems.append("Content-Type %r not among %s" % (content_type, sorted(content)))
            return problems
        charset = "charset=utf-8" in content_type.replace(" ", "").lower()
        if media == "application/json" and not charset:
            problems.append("Content-Type %r lacks charset=utf-8" % content_type)
        body = answer.get("body")
        if body is None:
            return problems  # not read by the client (a WebSocket refusal), or not kept
        schema = content[media].get("schema", {})
        if media.endswith("json"):
            try:
                value = json.loads(body)
            except ValueError as error:
                return problems + ["body is not JSON: %s" % error]
        else:
            value = body
        problems += ["body " + e for e in self.schema_errors(schema, value)]
        return problems

    def check_answer(self, answer):
        """(operation key or None, list of problems) for one recorded answer."""
        target = answer["target"]
        path = urllib.parse.urlsplit(target).path
        method = answer["method"].upper()
        status = str(answer["status"])
        problems = []
        for name, header in self.every_response.items():
            header = deref(self.document, header)
            value = next((v for k, v in answer["headers"] if k.lower() == name.lower()), None)
            if value is None:
                problems.append("header %s missing (every response carries it)" % name)
            elif self.schema_errors(header.get("schema", {}), value):
                problems.append("header %s is %r" % (name, value))
        if re.match(r"^/api/v1/(auth|portfolio|alerts|keys)(/|$|\.)", path) and status not in ("101",):
            cache = next((v for k, v in answer["headers"] if k.lower() == "cache-control"), None)
            if cache != "no-store":
                problems.append("Cache-Control %r, not no-store (docs/api.md §2)" % cache)

        template = self.match_path(path)
        op = None
        if template is not None:
            op = self.operation("GET" if method == "HEAD" else method, template)
        candidates = []
        if op is not None and status in op.node.get("responses", {}):
            candidates.append(op.node["responses"][status])
        if status in self.any_request:
            candidates.append(self.any_request[status])
        if status in self.any_read and is_budgeted_read(method, path):
            candidates.append(self.any_read[status])
        if not candidates:
            where = ("%s %s" % (method, template) if template
                     else "%s (no documented path) %s" % (method, path))
            problems.append("%s: status %s is not documented" % (where, status))
            return (op.key if op else None), problems
        first = None
        for candidate in candidates:
            found = self.check_response(candidate, answer)
            if not found:
                return (op.key if op else None), problems
            if first is None:
                first = found
        return (op.key if op else None), problems + first
