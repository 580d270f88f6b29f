"""The OpenAPI document itself (share/openapi/openapi.json) is well-formed OpenAPI 3.1:
every `$ref` resolves, every schema is a valid JSON Schema 2020-12, every operation has a
unique operationId and responses, every path template's parameters are declared, every
problem response names its codes, and the examples match their schemas. Fast (no
daemon): the `unit` label. docs/api.md §16."""
import re
import unittest

import jsonschema

import openapi_model

DOC = openapi_model.load()
MODEL = openapi_model.Model(DOC)


def schemas_in(node, where="#"):
    """(pointer, schema) of every Schema Object under `node` reachable by the OpenAPI
    structure (components.schemas, parameters, headers, media types)."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = where + "/" + key
            if key == "schema" and isinstance(value, dict):
                yield here, value
            elif key == "schemas" and isinstance(value, dict) and where == "#/components":
                for name, schema in value.items():
                    yield here + "/" + name, schema
            else:
                yield from schemas_in(value, here)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from schemas_in(value, "%s/%d" % (where, i))


class DocumentTest(unittest.TestCase):
    def test_top_level(self):
        self.assertRegex(DOC["openapi"], r"^3\.1\.\d+$")
        for key in ("title", "version"):
            self.assertTrue(DOC["info"].get(key), key)
        self.assertTrue(DOC["paths"])
        allowed = {"openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks",
                   "components", "security", "tags", "externalDocs"}
        for key in DOC:
            self.assertTrue(key in allowed or key.startswith("x-"), key)

    def test_every_ref_resolves(self):
        broken = []
        for ref, where in openapi_model.all_refs(DOC):
            try:
                openapi_model.pointer(DOC, ref)
            except (KeyError, IndexError, ValueError):
                broken.append("%s at %s" % (ref, where))
        self.assertEqual(broken, [])

    def test_every_schema_is_valid_2020_12(self):
        for where, schema in schemas_in(DOC):
            with self.subTest(where):
                jsonschema.Draft202012Validator.check_schema(schema)

    def test_operations(self):
        ids = {}
        for op in MODEL.operations:
            with self.subTest(op.key):
                operation_id = op.node.get("operationId")
                self.assertTrue(operation_id, "no operationId")
                self.assertNotIn(operation_id, ids, "operationId used twice")
                ids[operation_id] = op.key
                responses = op.node.get("responses")
                self.assertTrue(responses, "no responses")
                for status in responses:
                    self.assertRegex(status, r"^[1-5][0-9]{2}$")
                    response = openapi_model.deref(DOC, responses[status])
                    self.assertTrue(response.get("description"), status + ": no description")
                self.assertTrue(any(s[0] in "23" or s == "101" for s in responses),
                                "no success response")

    def test_path_parameters_are_declared(self):
        for op in MODEL.operations:
            with self.subTest(op.key):
                names = set(re.findall(r"\{([^}]+)\}", op.template))
                params = [openapi_model.deref(DOC, p) for p in
                          op.path_item.get("parameters", []) + op.node.get("parameters", [])]
                declared = {p["name"] for p in params if p["in"] == "path"}
                self.assertEqual(names, declared)
                for p in params:
                    self.assertIn(p["in"], ("query", "header", "path", "cookie"))
                    if p["in"] == "path":
                        self.assertTrue(p.get("required"), p["name"])

    def test_problem_responses_name_their_codes(self):
        """Every 4xx/5xx answers application/problem+json whose schema fixes status and
        the code enum (docs/api.md §2)."""
        responses = [(op.key, s, r) for op in MODEL.operations
                     for s, r in op.node["responses"].items()]
        responses += [(("any", "request"), s, r) for s, r in MODEL.any_request.items()]
        responses += [(("any", "read"), s, r) for s, r in MODEL.any_read.items()]
        for key, status, response in responses:
            if not status.startswith(("4", "5")):
                continue
            response = openapi_model.deref(DOC, response)
            if key[1] in ("/readyz",):
                continue  # 503 of /readyz is the readiness object, not a problem
            with self.subTest(key=key, status=status):
                content = response.get("content", {})
                self.assertEqual(list(content), ["application/problem+json"])
                schema = content["application/problem+json"]["schema"]
                if list(schema) == ["$ref"]:  # a named ProblemNNN schema
                    schema = openapi_model.pointer(DOC, schema["$ref"])
                self.assertEqual(schema.get("$ref"), "#/components/schemas/Problem")
                self.assertEqual(schema["properties"]["status"], {"const": int(status)})
                code = schema["properties"]["code"]
                self.assertTrue("const" in code or code.get("enum"), code)

    def test_examples_match_their_schemas(self):
        checked = 0
        for where, schema in schemas_in(DOC):
            if "example" in schema:
                with self.subTest(where):
                    self.assertEqual(MODEL.schema_errors(schema, schema["example"]), [])
                    checked += 1
        for op in MODEL.operations:
            for status, response in op.node["responses"].items():
                response = openapi_model.deref(DOC, response)
                for media, body in (response.get("content") or {}).items():
                    if "example" in body:
                        with self.subTest(op=op.key, status=status):
                            errors = MODEL.schema_errors(body["schema"], body["example"])
                            self.assertEqual(errors, [])
                            checked += 1
        self.assertGreater(checked, 10)

    def test_matching(self):
        self.assertEqual(MODEL.match_path("/api/v1/items/7/history"), "/api/v1/items/{id}/history")
        self.assertEqual(MODEL.match_path("/api/v1/auth/gameid/login"), "/api/v1/auth/gameid/login")
        self.assertEqual(MODEL.match_path("/api/v1/portfolio.csv"), "/api/v1/portfolio.csv")
        self.assertIsNone(MODEL.match_path("/api/v1/items/7/nope"))

    def test_a_wrong_answer_is_caught(self):
        answer = {"method": "GET", "target": "/api/v1/items/1", "status": 200,
                  "headers": [["Content-Type", "application/json; charset=utf-8"],
                              ["X-Content-Type-Options", "nosniff"], ["X-Frame-Options", "DENY"],
                              ["Referrer-Policy", "strict-origin-when-cross-origin"],
                              ["X-XSS-Protection", "1; mode=block"]],
                  "body": '{"id":1}', "body_length": 8}
        key, problems = MODEL.check_answer(answer)
        self.assertEqual(key, ("GET", "/api/v1/items/{id}"))
        self.assertTrue(any("required" in p for p in problems), problems)
        answer["status"] = 418
        self.assertTrue(any("not documented" in p for p in MODEL.check_answer(answer)[1]))


if __name__ == "__main__":
    unittest.main()
