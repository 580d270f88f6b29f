#!/usr/bin/env python3
"""Runs the daemon installed in a scratch root the way its systemd unit would, with the
out-of-tree example plugin enabled, and checks that the plugin's prices are served.

    installed_daemon.py ROOT ENV_FILE WORKDIR

ROOT holds the extracted packages (ROOT/usr/sbin/skinpulsed, ROOT/etc/skinpulse, ...).
The command lines come from ROOT's skinpulsed.service (ExecStartPre=, ExecStart=) with
their absolute paths moved under ROOT; ENV_FILE is read like EnvironmentFile=. A Unix
datagram socket stands in for systemd's $NOTIFY_SOCKET: READY=1 must arrive once the
daemon listens, WATCHDOG=1 at half of WATCHDOG_USEC, STOPPING=1 after SIGTERM.
"""
import http.client
import http.server
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time

ITEM = "AK-47 | Redline (Field-Tested)"
CENTS = 4321
VOLUME = 17


class Feed(http.server.BaseHTTPRequestHandler):
    """The upstream the csv_feed example reads: name,cents,volume lines."""
    requests = 0

    def do_GET(self):
        Feed.requests += 1
        body = f"{ITEM},{CENTS},{VOLUME}\nNo Such Item (Factory New),100,1\n".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def fail(message):
    print("installed_daemon: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unit_commands(unit_path, root):
    commands = {}
    with open(unit_path, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            if key in ("ExecStartPre", "ExecStart"):
                argv = shlex.split(value)
                # Absolute paths of the installed system move under the scratch root.
                commands[key] = [root + a if a.startswith(("/usr/", "/etc/")) else a
                                 for a in argv]
    if set(commands) != {"ExecStartPre", "ExecStart"}:
        fail(f"{unit_path} lacks ExecStartPre= or ExecStart=")
    return commands


def read_env_file(path):
    env = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, value = line.partition("=")
                env[key] = value
    return env


def get_json(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    if response.status != 200:
        fail(f"GET {path}: {response.status} {body[:300]!r}")
    return json.loads(body)


def main():
    root, env_file, work = sys.argv[1:4]
    feed = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feed)
    threading.Thread(target=feed.serve_forever, daemon=True).start()
    port = free_port()
    admin_port = free_port()

    # The admin's override: the example source on, the network sources off, the scratch
    # root's paths instead of the compiled-in /usr ones.
    with open(os.path.join(root, "etc/skinpulse/conf.d/90-package-check.ini"), "w") as f:
        f.write(f"""[daemon]
listen = 127.0.0.1:{port}
base_url = http://127.0.0.1:{port}
plugin_dir = {root}/usr/lib/skinpulse/plugins
share_dir = {root}/usr/share/skinpulse

[admin]
listen = 127.0.0.1:{admin_port}

[storage]
database_url = sqlite://{work}/state/skinpulse.db

[source.skinport]
enabled = false

[source.steam_market]
enabled = false

[source.csv]
plugin = csv_feed
enabled = true
interval_seconds = 2
url = http://127.0.0.1:{feed.server_address[1]}/prices.csv
""")
    os.makedirs(os.path.join(work, "state"), exist_ok=True)
    commands = unit_commands(os.path.join(root, "usr/lib/systemd/system/skinpulsed.service"), root)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    env.update(read_env_file(env_file))

    check = subprocess.run(commands["ExecStartPre"], env=env, capture_output=True, text=True)
    if check.returncode != 0:
        fail("ExecStartPre failed:\n" + check.stdout + check.stderr)
    print("installed_daemon: ExecStartPre: " + check.stdout.strip())

    notify_path = os.path.join(work, "notify.sock")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(notify_path)
    notify.settimeout(120)
    env.update({"NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": "2000000"})
    log = open(os.path.join(work, "skinpulsed.log"), "w")
    daemon = subprocess.Popen(commands["ExecStart"], env=env, stdout=log, stderr=log)
    try:
        messages = []

        def wait_for(state):
            while True:
                try:
                    message = notify.recv(4096).decode()
                except socket.timeout:
                    fail(f"no {state} from the daemon; got {messages}")
                messages.append(message)
                if state in message.split("\n"):
                    return message

        ready = wait_for("READY=1")
        print("installed_daemon: notify: " + ready.replace("\n", " "))
        if f"MAINPID={daemon.pid}" not in ready:
            fail("READY=1 without the daemon's MAINPID: " + ready)
        get_json(port, "/healthz")  # READY=1 means it listens
        wait_for("WATCHDOG=1")
        # The OpenAPI document is packaged and found under the installed share dir.
        document = get_json(port, "/api/v1/openapi.json")
        if not str(document.get("openapi", "")).startswith("3.1"):
            fail(f"/api/v1/openapi.json is not an OpenAPI 3.1 document: {str(document)[:200]}")
        print("installed_daemon: /api/v1/openapi.json served from the installed share dir")

        found = get_json(port, "/api/v1/items?q=" + "AK-47%20%7C%20Redline%20(Field-Tested)")
        items = found if isinstance(found, list) else found.get("items", [])
        ids = [i["id"] for i in items if i.get("market_hash_name", i.get("name")) == ITEM]
        if not ids:
            fail(f"{ITEM} not in the catalogue search: {str(found)[:300]}")
        deadline = time.time() + 60
        history = []
        while time.time() < deadline:
            history = get_json(port, f"/api/v1/items/{ids[0]}/history?window=1h")
            if any(p["source"] == "csv" and p["price"] == CENTS for p in history):
                break
            time.sleep(0.5)
        else:
            fail(f"no csv price in the history after 60 s (feed requests: {Feed.requests}): "
                 f"{history}")
        print(f"installed_daemon: history of item {ids[0]} has the example plugin's price "
              f"({CENTS} cents from source 'csv')")
        # Prometheus can scrape the installed daemon's admin listener (docs/operations.md).
        conn = http.client.HTTPConnection("127.0.0.1", admin_port, timeout=10)
        conn.request("GET", "/metrics")
        scrape = conn.getresponse().read().decode()
        conn.close()
        if 'skinpulse_source_polls_total{source="csv",result="ok"}' not in scrape:
            fail("the admin listener's /metrics has no successful poll of 'csv': " + scrape[:300])
        for shipped in ("usr/share/skinpulse/grafana/skinpulse.json",
                        "usr/share/skinpulse/prometheus/alerts.yml"):
            if not os.path.getsize(os.path.join(root, shipped)):
                fail(shipped + " is empty")
        print("installed_daemon: /metrics on the admin listener counts the csv polls")

        daemon.send_signal(signal.SIGTERM)
        wait_for("STOPPING=1")
        code = daemon.wait(15)
        if code != 0:
            fail(f"daemon exited with {code} after SIGTERM")
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        log.close()
        feed.shutdown()
        notify.close()
    print("installed_daemon: OK")


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as error:  # a crash of the checker is a failure with a reason
        fail(repr(error))
