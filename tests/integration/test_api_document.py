"""GET /api/v1/openapi.json (docs/api.md §16): the repository's document, byte for byte,
found under the share dir like the dashboard's files, revalidated by its ETag, public
(no session), served with the dashboard turned off, and 404 when it is not installed."""
import os
import shutil

from harness import SOURCE_DIR, Daemon, DaemonTestCase

DOCUMENT = os.path.join(SOURCE_DIR, "share", "openapi", "openapi.json")


class ApiDocumentTest(DaemonTestCase):
    def test_served_as_written_with_an_etag(self):
        with open(DOCUMENT, "rb") as f:
            expected = f.read()
        with Daemon(self.workdir, ini="[dashboard]\nenabled = false\n") as daemon:
            response = daemon.get("/api/v1/openapi.json")
            self.assertEqual(response.status, 200)
            self.assertEqual(response.header("content-type"), "application/json; charset=utf-8")
            self.assertEqual(response.body, expected)
            self.assertEqual(response.json()["openapi"][:4], "3.1.")
            self.assertEqual(response.header("cache-control"), "no-cache")
            self.assertSecurityHeaders(response)
            etag = response.header("etag")
            self.assertRegex(etag, r'^"[0-9a-f]+"$')

            unchanged = daemon.get("/api/v1/openapi.json", headers={"If-None-Match": etag})
            self.assertEqual(unchanged.status, 304)
            self.assertEqual(unchanged.body, b"")
            self.assertEqual(unchanged.header("etag"), etag)

            head = daemon.request("HEAD", "/api/v1/openapi.json")
            self.assertEqual((head.status, head.body), (200, b""))
            self.assertEqual(int(head.header("content-length")), len(expected))

            self.assertProblem(daemon.request("POST", "/api/v1/openapi.json"), 405,
                               "method_not_allowed")

    def test_not_installed_is_404(self):
        share = os.path.join(self.workdir, "share")
        shutil.copytree(os.path.join(SOURCE_DIR, "share", "sql"), os.path.join(share, "sql"))
        shutil.copytree(os.path.join(SOURCE_DIR, "share", "catalog"),
                        os.path.join(share, "catalog"))
        with Daemon(self.workdir, ini="[daemon]\nshare_dir = %s\n" % share) as daemon:
            self.assertProblem(daemon.get("/api/v1/openapi.json"), 404, "not_found")
            self.assertTrue(any("openapi: no openapi.json" in line
                                for line in daemon.stderr_lines), daemon.stderr())
