#!/usr/bin/env python3
"""The Dashboard's monitoring control in a real browser: Start moves the host's default routes
through the tunnel (the service `up --host` starts, in the background), the screen says it is live
and offers Stop; Stop gives the routes back exactly; the introduction's Start really starts it and
opens the Dashboard on the result; Settings picks another target (an interface, watched
passively) and Start starts that; a server without the rights says *permission denied* and what to
do, and offers Try again.

Never on this machine's own network: the script makes a lab of two namespaces (one plays the host,
with its own uplink veth and default route, and a web server beyond it), and runs the web app, the
browser and every command inside the one that plays the host (`ip netns exec`), so Start there
monitors that namespace. The lab goes whatever happens.

    run_monitoring_tests.py --binary .build/debug/tunnelvision [--artifacts .build/browser-artifacts]

Exit status 1 when any check, axe scan or page error fails.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

HOST_ADDRESS, UPLINK_ADDRESS = "198.18.78.2", "198.18.78.1"
# The web server sits beyond the host's default route (on the uplink's loopback): what the host's
# own subnet holds stays direct, by design.
SITE_ADDRESS = "198.18.99.9"
SITE = f"http://{SITE_ADDRESS}:8080/hello.txt"


def ip(*arguments):
    subprocess.run(["ip", *arguments], check=True, capture_output=True, text=True)


def snapshot(namespace):
    """The namespace's rules and every table's routes, both families, as ip prints them."""
    return [subprocess.run(["ip", "-n", namespace, *family, what, "show", *extra], check=True, capture_output=True, text=True).stdout
            for family in ([], ["-6"]) for what, extra in (("rule", []), ("route", ["table", "all"]))]


def outside(options):
    """Makes the lab, runs this script again inside the namespace that plays the host, removes the lab."""
    suffix = os.getpid()
    host, uplink = f"tvbm-host-{suffix}", f"tvbm-up-{suffix}"
    server = None
    site = tempfile.mkdtemp(prefix="tv-monitoring-site-")
    try:
        for namespace in (host, uplink):
            ip("netns", "add", namespace)
            ip("-n", namespace, "link", "set", "lo", "up")
        ip("-n", host, "link", "add", "up0", "type", "veth", "peer", "name", "up1", "netns", uplink)
        for namespace, device, address in ((host, "up0", HOST_ADDRESS), (uplink, "up1", UPLINK_ADDRESS)):
            ip("-n", namespace, "link", "set", device, "addrgenmode", "none")
            ip("-n", namespace, "addr", "add", f"{address}/24", "dev", device)
            ip("-n", namespace, "link", "set", device, "up")
        ip("-n", host, "route", "add", "default", "via", UPLINK_ADDRESS)
        ip("-n", uplink, "addr", "add", f"{SITE_ADDRESS}/32", "dev", "lo")
        with open(os.path.join(site, "hello.txt"), "w") as file:
            file.write("hello from beyond the uplink\n")
        server = subprocess.Popen(["ip", "netns", "exec", uplink, sys.executable, "-u", "-m", "http.server", "8080",
                                   "--bind", SITE_ADDRESS, "--directory", site],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if not server.stdout.readline().startswith("Serving HTTP"):
            raise SystemExit("the lab's web server did not start")
        before = snapshot(host)
        inside = subprocess.run(["ip", "netns", "exec", host, sys.executable, os.path.abspath(__file__), "--inside",
                                 "--binary", options.binary, "--artifacts", os.path.abspath(options.artifacts)])
        after = snapshot(host)
        if after != before:
            print("✘ the host's rules and routes after Stop differ from before Start:", file=sys.stderr)
            for old, new in zip(before, after):
                if old != new:
                    print(f"before:\n{old}\nafter:\n{new}", file=sys.stderr)
            return 1
        print("✔ the host's rules and routes after Stop are byte for byte as before Start")
        return inside.returncode
    finally:
        if server is not None:
            server.kill()
            server.wait()
        for namespace in (host, uplink):
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True)
        subprocess.run(["rm", "-rf", site])


def inside(options):
    from harness import Browser, Failure, Server, check, oracle
    from selenium.webdriver.support.ui import Select

    failures = []
    data = tempfile.mkdtemp(prefix="tv-monitoring-data-")
    denied_data = tempfile.mkdtemp(prefix="tv-monitoring-nobody-")
    os.chown(denied_data, 65534, 65534)
    # The web app as someone without the rights: the same binary under setpriv.
    nobody = os.path.join(tempfile.mkdtemp(prefix="tv-monitoring-bin-"), "tunnelvision-as-nobody")
    with open(nobody, "w") as file:
        file.write(f"#!/bin/sh\nexec setpriv --reuid 65534 --regid 65534 --clear-groups -- {options.binary} \"$@\"\n")
    os.chmod(nobody, 0o755)
    servers, browser = [], None

    def shoot(name, heading=None):
        """Screenshots in both schemes, from the top of the page or from the card `heading` names."""
        if heading:
            browser.driver.execute_script("arguments[0].closest('section').scrollIntoView({block: 'center'})",
                                          browser.one("heading", heading, exact=True))
        else:
            browser.driver.execute_script("window.scrollTo(0, 0)")
        for scheme in ("light", "dark"):
            browser.color_scheme(scheme)   # returns once a frame in the scheme is painted
            browser.screenshot(name)
            for violation in browser.axe():
                failures.append(f"axe on {name} ({scheme}): {violation}")
        browser.color_scheme("light")

    def fresh_server(binary, directory):
        """A web app of `binary` over `directory`, the earlier ones stopped: the live feed has one
        reader at a time, and an earlier server would keep it."""
        while servers:
            servers.pop().stop()
        server = Server("ui", binary, directory)
        servers.append(server)
        return server

    def open_dashboard(binary, directory):
        """A web app of `binary` over `directory`, its Dashboard open past the introduction."""
        server = fresh_server(binary, directory)
        browser.go(server.url)
        browser.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
        browser.route("#/dashboard")
        browser.one("heading", "Dashboard", exact=True)

    def status():
        """`status --json` (its exit status 3, nothing running, is an answer too)."""
        result = subprocess.run([options.binary, "status", "--json", "--data-dir", data], capture_output=True, text=True, timeout=60)
        check(result.returncode in (0, 3), f"status failed: {result.stderr.strip()}")
        return json.loads(result.stdout)

    def test_start_and_stop():
        open_dashboard(options.binary, data)
        browser.wait_text("Start monitoring watches the host (the namespace the service runs in) until you stop it.", 15)
        # A fresh install (no history yet) is a calm empty state, not a red error.
        browser.wait_text("No connections recorded yet", 15)
        check(not browser.css(".error-card"), "a fresh install's Dashboard shows an error: " + browser.text()[:400])
        shoot("dashboard-control-off")
        browser.press("button", "Start monitoring", exact=True)
        browser.wait(lambda: browser.find("button", "Stop monitoring", True), 60,
                     "Start never came back live: " + browser.text()[:400])
        answer = status()
        check(answer["state"] == "live" and answer["service"]["target"] == {"kind": "host"}, f"status after Start: {answer}")
        pid = answer["service"]["pid"]
        browser.wait_text(f"is live (service pid {pid}", 10)
        browser.wait_text("Monitoring is on", 30)   # the live feed's own line
        fetched = subprocess.run(["curl", "-sS", "--max-time", "10", SITE], capture_output=True, text=True)
        check(fetched.stdout == "hello from beyond the uplink\n", f"curl through the monitored host: {fetched.stderr}")
        route = subprocess.run(["ip", "route", "get", UPLINK_ADDRESS], capture_output=True, text=True).stdout
        # The host's own subnet stays direct; what leaves by the default route goes through the tunnel.
        beyond = subprocess.run(["ip", "route", "get", SITE_ADDRESS], capture_output=True, text=True).stdout
        check(" dev tv" in beyond and " dev up0" in route, f"routes while live: {beyond!r} {route!r}")
        shoot("dashboard-control-live")
        browser.press("button", "Stop monitoring", exact=True)
        browser.wait(lambda: browser.find("button", "Start monitoring", True), 60, "Stop never came back: " + browser.text()[:400])
        check(status()["state"] == "off", "status after Stop")
        flows = oracle(options.binary, data, "flows")
        check(any(flow["remote"]["address"] == SITE_ADDRESS and flow["remote"]["port"] == 8080 for flow in flows["flows"]),
              f"curl's connection is not in the history: {flows['flows'][:3]}")

    def test_introduction_starts_monitoring():
        server = fresh_server(options.binary, data)
        browser.go(server.url)   # a new origin: the introduction has not been seen there
        browser.wait(lambda: browser.driver.current_url.endswith("#/welcome"), 10, "the first open did not show the introduction")
        browser.press("button", "Next", exact=True)
        browser.press("button", "Next", exact=True)
        browser.wait_text("Start monitoring watches the host (the namespace the service runs in) until you stop it.", 15)
        shoot("welcome-start")
        browser.press("button", "Start monitoring", exact=True)
        browser.one("heading", "Dashboard", exact=True)
        browser.wait(lambda: browser.find("button", "Stop monitoring", True), 60,
                     "the introduction's Start never came back live: " + browser.text()[:400])
        answer = status()
        check(answer["state"] == "live" and answer["service"]["target"] == {"kind": "host"}, f"status after the introduction: {answer}")
        browser.press("button", "Stop monitoring", exact=True)
        browser.wait(lambda: browser.find("button", "Start monitoring", True), 60, "Stop never came back: " + browser.text()[:400])
        check(status()["state"] == "off", "status after Stop")

    def test_settings_pick_an_interface():
        open_dashboard(options.binary, data)
        browser.route("#/settings")
        Select(browser.one("combobox", "Start monitors", exact=True)).select_by_value("interface")
        field = browser.one("textbox", "Interface name (any for every one)", exact=True)
        field.clear()
        field.send_keys("up0")
        browser.press("button", "Save what Start monitors", exact=True)
        browser.wait_text("Start on the Dashboard now monitors interface:up0", 15)
        shoot("settings-monitoring", heading="Monitoring")
        browser.route("#/dashboard")
        browser.wait_text("Start monitoring watches interface up0, passively, until you stop it.", 15)
        def site_flows():
            return sum(1 for flow in oracle(options.binary, data, "flows")["flows"]
                       if flow["remote"] and flow["remote"]["address"] == SITE_ADDRESS)
        earlier = site_flows()   # the routed tests' own
        browser.press("button", "Start monitoring", exact=True)
        browser.wait(lambda: browser.find("button", "Stop monitoring", True), 60,
                     "Start on an interface never came back live: " + browser.text()[:400])
        answer = status()
        check(answer["state"] == "live" and answer["service"]["target"] == {"kind": "interface", "name": "up0"},
              f"status after Start on an interface: {answer}")
        fetched = subprocess.run(["curl", "-sS", "--max-time", "10", SITE], capture_output=True, text=True)
        check(fetched.stdout == "hello from beyond the uplink\n", f"curl beside the watched interface: {fetched.stderr}")
        # Watched, not routed: the route to the site still leaves by the uplink itself.
        beyond = subprocess.run(["ip", "route", "get", SITE_ADDRESS], capture_output=True, text=True).stdout
        check(" dev up0" in beyond, f"a passive target's routes are its own: {beyond!r}")
        browser.wait(lambda: site_flows() > earlier, 15,
                     "curl's connection seen on the interface is not in the history with its remote end")
        shoot("dashboard-control-passive")
        browser.press("button", "Stop monitoring", exact=True)
        browser.wait(lambda: browser.find("button", "Start monitoring", True), 60, "Stop never came back: " + browser.text()[:400])
        subprocess.run([options.binary, "settings", "set", "monitoring-target", "host", "--data-dir", data], check=True,
                       capture_output=True)

    def test_permission_denied_says_what_to_do():
        open_dashboard(nobody, denied_data)
        browser.press("button", "Start monitoring", exact=True)
        browser.wait_text("Permission denied: monitoring needs root", 30)
        browser.wait_text("sudo")
        browser.one("button", "Try again", exact=True)
        shoot("dashboard-control-denied")

    try:
        browser = Browser(options.artifacts)
        for test in (test_start_and_stop, test_introduction_starts_monitoring, test_settings_pick_an_interface,
                     test_permission_denied_says_what_to_do):
            started = time.time()
            try:
                test()
                problems = browser.console_problems()
                if problems:
                    raise Failure(f"the page logged errors: {problems}")
                print(f"✔ {test.__name__} ({time.time() - started:.1f} s)", flush=True)
            except Exception as error:  # every test runs; each failure is reported with a screenshot
                browser.screenshot(f"FAILED-{test.__name__}")
                failures.append(f"{test.__name__}: {error}")
                print(f"✘ {test.__name__}: {error}", flush=True)
    finally:
        # Whatever happened, no service is left running in the lab.
        subprocess.run([options.binary, "down", "--data-dir", data], capture_output=True)
        for server in servers:
            server.stop()
        if browser is not None:
            browser.quit()
        subprocess.run(["rm", "-rf", data, denied_data, os.path.dirname(nobody)])
    for failure in failures:
        print(f"✘ {failure}", file=sys.stderr)
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--artifacts", default=os.path.join(".build", "browser-artifacts"))
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    options.binary = os.path.abspath(options.binary)
    os.makedirs(options.artifacts, exist_ok=True)
    return inside(options) if options.inside else outside(options)


if __name__ == "__main__":
    sys.exit(main())
