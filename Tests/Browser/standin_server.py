#!/usr/bin/env python3
"""A DEVELOPMENT STAND-IN for `tunnelvision ui`, used only until the real server is wired in.

It serves Sources/AppLinux/Web/Site and answers each /api/... route of the web API's contract by
running the real `tunnelvision <command> --json --data-dir D` and handing back its standard output,
which is what the contract says the API answers. It keeps the access rules the pages live under
(a secret exchanged for a session cookie, `X-TunnelVision: 1` and a same origin on POST, the
Content-Security-Policy), so a page that breaks them fails here too. Loopback only.

    standin_server.py --binary .build/debug/tunnelvision --data-dir D [--port 0]

prints one JSON line {"url": "http://127.0.0.1:PORT/?key=SECRET"} and serves until stopped.
"""
import argparse
import http.server
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import urllib.parse

SITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "AppLinux", "Web", "Site")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".json": "application/json"}
SECURITY = {"Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self'; frame-ancestors 'none'",
            "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store"}
COOKIE = "tunnelvision_session"
FLOW_OPTIONS = {"search": "--search", "protocol": "--protocol", "status": "--status", "since": "--since",
                "until": "--until", "limit": "--limit", "after": "--after"}


def status_for(returncode, message):
    if returncode == 2:
        return 400
    if re.search(r"\bno connection\b|\bno capture\b|\bno history in\b|ask for one from|not found|no such", message):
        return 404
    if re.search(r"no tunnel is running", message):
        return 409
    return 500


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "tunnelvision-standin"

    def log_message(self, format, *args):
        if self.server.verbose:
            sys.stderr.write("standin: " + format % args + "\n")

    # --- answers -------------------------------------------------------------------------
    def send(self, status, body, content_type="application/json", extra=None):
        self.send_response(status)
        for name, value in {**SECURITY, **(extra or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def error(self, status, sentence):
        self.send(status, (json.dumps({"error": sentence}) + "\n").encode())

    def run(self, arguments, download=None):
        """Runs the command; answers its stdout, or its error sentence with a status."""
        command = [self.server.binary, *arguments, "--data-dir", self.server.data_dir]
        result = subprocess.run(command, capture_output=True, timeout=60)
        # 'diagnostics' with no tunnel says so in its JSON and exits 1: the JSON is the answer.
        if result.returncode == 1 and result.stdout.strip().startswith(b"{") and not result.stderr.strip():
            return result.stdout
        if result.returncode != 0:
            message = result.stderr.decode(errors="replace").strip().splitlines()
            sentence = (message[0] if message else f"the command failed (exit status {result.returncode})")
            sentence = sentence.removeprefix("tunnelvision: ")
            self.error(status_for(result.returncode, sentence), sentence)
            return None
        return result.stdout

    def answer_command(self, arguments):
        out = self.run(arguments)
        if out is not None:
            self.send(200, out)

    # --- access --------------------------------------------------------------------------
    def session_ok(self):
        cookies = self.headers.get("Cookie", "")
        return any(part.strip() == f"{COOKIE}={self.server.session}" for part in cookies.split(";"))

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def route(self, method):
        url = urllib.parse.urlsplit(self.path)
        query = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query, keep_blank_values=True).items()}
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if method == "GET" and url.path == "/" and "key" in query:
            if not secrets.compare_digest(query["key"], self.server.secret):
                return self.error(403, "this address's key is not the one 'tunnelvision ui' printed: open the address it printed")
            return self.send(303, b"", "text/plain", {"Location": "/",
                             "Set-Cookie": f"{COOKIE}={self.server.session}; HttpOnly; SameSite=Strict; Path=/"})
        if not self.session_ok():
            return self.error(403, "open the address 'tunnelvision ui' printed (with its key) to use this app")
        if method == "POST":
            origin = f"http://{self.headers.get('Host', '')}"
            if self.headers.get("X-TunnelVision") != "1" or self.headers.get("Origin") != origin:
                return self.error(403, "a change must come from the app's own page")
        path = url.path
        if not path.startswith("/api/"):
            return self.static(path)
        try:
            self.api(method, path, query, body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def static(self, path):
        name = "index.html" if path == "/" else path.lstrip("/")
        if "/" in name or name.startswith(".") or not os.path.isfile(os.path.join(SITE, name)):
            return self.error(404, f"the app has no file {path}")
        with open(os.path.join(SITE, name), "rb") as handle:
            data = handle.read()
        self.send(200, data, TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))

    def api(self, method, path, query, body):
        route = (method, path)
        if route == ("GET", "/api/flows"):
            arguments = ["flows", "--json"]
            for name, flag in FLOW_OPTIONS.items():
                if query.get(name):
                    arguments += [flag, query[name]]
            return self.answer_command(arguments)
        if route == ("GET", "/api/activity"):
            arguments = ["activity", "--json"]
            for name in ("from", "to", "bars"):
                if query.get(name):
                    arguments += [f"--{name}", query[name]]
            return self.answer_command(arguments)
        if m := re.fullmatch(r"/api/flows/(\d+)", path):
            return self.answer_command(["flow", m[1], "--json"]) if method == "GET" else self.error(405, "GET only")
        if m := re.fullmatch(r"/api/flows/(\d+)/packets/(\d+)", path):
            return self.answer_command(["flow", m[1], "--packet", m[2], "--json"])
        if m := re.fullmatch(r"/api/flows/(\d+)/capture\.pcap", path):
            with tempfile.TemporaryDirectory() as folder:
                target = os.path.join(folder, "flow.pcap")
                if self.run(["flow", m[1], "--pcap", target]) is None:
                    return
                with open(target, "rb") as handle:
                    data = handle.read()
            return self.send(200, data, "application/vnd.tcpdump.pcap",
                             {"Content-Disposition": f'attachment; filename="connection-{m[1]}.pcap"'})
        if route == ("GET", "/api/captures"):
            return self.answer_command(["captures", "--json"])
        if route == ("POST", "/api/captures/rotate"):
            return self.answer_command(["captures", "rotate", "--json"])
        if m := re.fullmatch(r"/api/captures/(\d+)/delete", path):
            agreed = ["--including-evidence"] if query.get("including-evidence") == "yes" else []
            return self.answer_command(["captures", "rm", m[1], "--json"] + agreed)
        if m := re.fullmatch(r"/api/captures/(\d+)", path):
            listing = self.run(["captures", "--json"])
            if listing is None:
                return
            found = [c for c in json.loads(listing)["captures"] if c["sequence"] == int(m[1])]
            if not found:
                return self.error(404, f"no capture {m[1]} in the data directory")
            with open(os.path.join(self.server.data_dir, "captures", found[0]["name"]), "rb") as handle:
                data = handle.read()
            return self.send(200, data, "application/vnd.tcpdump.pcap",
                             {"Content-Disposition": f'attachment; filename="{found[0]["name"]}"'})
        if route == ("GET", "/api/storage"):
            return self.answer_command(["storage", "--json"])
        if route == ("POST", "/api/storage/apply"):
            return self.answer_command(["storage", "apply", "--json"])
        if route == ("POST", "/api/storage/clear"):
            agreed = ["--including-evidence"] if query.get("including-evidence") == "yes" else []
            return self.answer_command(["storage", "clear", "--yes", "--json"] + agreed)
        if route == ("GET", "/api/settings"):
            return self.answer_command(["settings", "--json"])
        if route == ("POST", "/api/settings"):
            try:
                change = json.loads(body)
                setting, value = str(change["setting"]), str(change["value"])
            except (ValueError, KeyError, TypeError):
                return self.error(400, 'send {"setting": NAME, "value": VALUE}')
            if self.run(["settings", "set", setting, value]) is None:
                return
            return self.answer_command(["settings", "--json"])
        if route == ("GET", "/api/ca"):
            return self.answer_command(["ca", "show", "--json"])
        ca_actions = {"/api/ca/create": ["ca", "create"], "/api/ca/remake": ["ca", "create", "--remake", "--yes"],
                      "/api/ca/remove": ["ca", "remove", "--yes"]}
        if method == "POST" and path in ca_actions:   # the state after it, and what it did (its text up to the facts)
            done = self.run(ca_actions[path])
            shown = self.run(["ca", "show", "--json"]) if done is not None else None
            if shown is None:
                return
            said = done.decode().splitlines()
            created = [i for i, line in enumerate(said) if line.startswith("created ")]
            state = json.loads(shown)
            state["lines"] = said[:created[0] + 1] if created else said
            return self.send(200, (json.dumps(state) + "\n").encode())
        if m := re.fullmatch(r"/api/ca/root\.(pem|der)", path):
            with tempfile.TemporaryDirectory() as folder:
                target = os.path.join(folder, f"root.{m[1]}")
                if self.run(["ca", "export", f"--{m[1]}", target]) is None:
                    return
                with open(target, "rb") as handle:
                    data = handle.read()
            return self.send(200, data, "application/x-pem-file" if m[1] == "pem" else "application/pkix-cert",
                             {"Content-Disposition": f'attachment; filename="tunnelvision-root-ca.{m[1]}"'})
        if route == ("GET", "/api/diagnostics"):
            return self.answer_command(["diagnostics", "--json"])
        if route == ("GET", "/api/live/now"):
            line = self.first_live_line()
            return self.send(200, line) if line else self.error(500, "the live feed printed nothing")
        if route == ("GET", "/api/live"):
            return self.live_stream()
        if route == ("GET", "/api/export/summary"):
            with tempfile.TemporaryDirectory() as folder:
                return self.answer_command(["export", "--json", "-o", os.path.join(folder, "connections.json")])
        if route == ("POST", "/api/export"):
            out = self.run(["export", "-o", "-"])
            if out is not None:
                self.send(200, out, "application/json", {"Content-Disposition": 'attachment; filename="connections.json"'})
            return
        self.error(404, f"the API has no {method} {path}")

    def live_process(self):
        return subprocess.Popen([self.server.binary, "live", "--json", "--data-dir", self.server.data_dir],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def first_live_line(self):
        process = self.live_process()
        try:
            return process.stdout.readline()
        finally:
            process.terminate()
            process.wait()

    def live_stream(self):
        self.send_response(200)
        for name, value in SECURITY.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        process = self.live_process()
        try:
            for line in process.stdout:
                self.wfile.write(b"event: dashboard\ndata: " + line.rstrip(b"\n") + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            process.terminate()
            process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    options = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    server.binary, server.data_dir, server.verbose = os.path.abspath(options.binary), options.data_dir, options.verbose
    server.secret, server.session = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    print(json.dumps({"url": f"http://127.0.0.1:{server.server_address[1]}/?key={server.secret}", "standin": True}), flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
