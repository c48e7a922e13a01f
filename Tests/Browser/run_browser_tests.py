#!/usr/bin/env python3
"""The web app in a real browser: every screen, its states and gestures, asserted on what is drawn
against what the commands answer; screenshots of each screen in light and dark; axe-core on each.
Builds nothing: give it the binary and a data directory holding a real history (more than one
page of connections and more than one scale of activity: `tunnelvision demo` run twice into it,
a minute apart, does).

    run_browser_tests.py --binary .build/debug/tunnelvision --data-dir D [--server standin|ui]
                         [--live-demo] [--artifacts .build/browser-artifacts] [--only NAME]

--server ui       the real `tunnelvision ui --json --no-open --data-dir D` (the default);
--server standin  Tests/Browser/standin_server.py, the development stand-in.
--live-demo       also runs `tunnelvision demo` (its own lab of namespaces) into a fresh data
                  directory, for the Dashboard while its tunnel is live.
Exit status 1 when any check, axe scan or page error fails.
"""
import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Browser, Failure, Server, oracle  # noqa: E402
import screens  # noqa: E402
import screens_place  # noqa: E402
import timeline_sort  # noqa: E402
import audit_screen  # noqa: E402


def every_test():
    """screens.py's tests, with timeline_sort.py's before the test that stops the main server and
    screens_place.py's before the two that spend the key and stop the server."""
    tests = list(screens.TESTS)
    stopping = tests.index(screens.test_server_gone_gives_an_error_card)
    tests[stopping:stopping] = timeline_sort.TESTS
    at = tests.index(screens.test_a_browser_opened_for_the_owner_gets_in)
    tests[at:at] = screens_place.TESTS + audit_screen.TESTS
    return tests


def check_live(options):
    if not options.live_demo:
        raise Failure("the live Dashboard needs --live-demo")


class Context:
    def __init__(self, options, browser, server, empty, servers, scratch):
        self.b, self.server, self.empty, self.servers, self.scratch = browser, server, empty, servers, scratch
        self.options, self.binary, self.data_dir = options, options.binary, options.data_dir
        self.demo = None
        self.shots, self.scanned, self.problems = [], set(), []

    def start_live_demo(self):
        """`tunnelvision demo` (its own lab of namespaces) into a fresh data directory, and a
        server for it as soon as the directory exists; both stopped when the run ends."""
        check_live(self.options)
        live_dir = os.path.join(self.scratch, "live")
        self.demo = subprocess.Popen([self.binary, "demo", "--data-dir", live_dir],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while not os.path.isdir(live_dir) and time.time() < deadline:
            time.sleep(0.1)
        server = Server(self.options.server, self.binary, live_dir)
        self.servers.append(server)
        return server

    def copy_of_history(self):
        """A server over a copy of the history, for tests that delete (the given one is kept)."""
        copy = os.path.join(self.scratch, "copy")
        shutil.rmtree(copy, ignore_errors=True)
        # Not the running servers' sockets (ui/ holds `ui link`'s): a copy of a socket is no socket.
        # Nor the history's files: its -wal and -shm come and go as readers close, so the database
        # is copied whole by SQLite's own backup, consistent whatever is reading it meanwhile.
        shutil.copytree(self.data_dir, copy, symlinks=True,
                        ignore=shutil.ignore_patterns("*.sock", "TunnelVision.sqlite*"))
        database = os.path.join(self.data_dir, "TunnelVision.sqlite")
        source, target = sqlite3.connect(database), sqlite3.connect(os.path.join(copy, "TunnelVision.sqlite"))
        with target:
            source.backup(target)
        source.close()
        target.close()
        os.chmod(os.path.join(copy, "TunnelVision.sqlite"), os.stat(database).st_mode & 0o777)
        server = Server(self.options.server, self.binary, copy)
        self.servers.append(server)
        return server

    def ask(self, *arguments):
        return oracle(self.binary, self.data_dir, *arguments)

    def shoot(self, name):
        """A screenshot in light and dark, and axe-core in both (contrast differs), once per screen."""
        for scheme in ("light", "dark"):
            self.b.driver.execute_script("window.scrollTo(0, 0)")   # axe scrolls as it checks contrast
            self.b.color_scheme(scheme)   # returns once a frame in the scheme (and the scroll) is painted
            self.shots.append(self.b.screenshot(name))
            if name not in self.scanned:
                for violation in self.b.axe():
                    self.problems.append(f"axe on {name} ({scheme}): {violation}")
        self.scanned.add(name)
        self.b.color_scheme("light")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--server", choices=["ui", "standin"], default="ui")
    parser.add_argument("--live-demo", action="store_true")
    parser.add_argument("--artifacts", default=os.path.join(".build", "browser-artifacts"))
    parser.add_argument("--only", action="append", default=[])
    options = parser.parse_args()
    options.binary = os.path.abspath(options.binary)
    os.makedirs(options.artifacts, exist_ok=True)
    for old in os.listdir(options.artifacts):   # this run's pictures only
        if old.endswith(".png"):
            os.remove(os.path.join(options.artifacts, old))
    scratch = tempfile.mkdtemp(prefix="tv-browser-")
    servers = []
    browser = context = None
    failures = []
    try:
        server = Server(options.server, options.binary, options.data_dir)
        servers.append(server)
        empty_dir = os.path.join(scratch, "empty")
        os.mkdir(empty_dir, 0o700)
        empty = Server(options.server, options.binary, empty_dir)
        servers.append(empty)
        tests = [test for test in every_test() if not options.only or any(name in test.__name__ for name in options.only)]
        if not options.live_demo:
            print("(the live Dashboard is not checked: give --live-demo)")
            tests = [test for test in tests if test is not screens.test_dashboard_live and not getattr(test, "live", False)]
        browser = Browser(options.artifacts)
        context = Context(options, browser, server, empty, servers, scratch)
        if tests and tests[0] is not screens.test_access_needs_the_key:
            browser.go(server.url)   # the key, exchanged for the session cookie
            browser.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
        for test in tests:
            started = time.time()
            try:
                test(context)
                problems = browser.console_problems()
                if problems:
                    raise Failure(f"the page logged errors: {problems}")
                print(f"✔ {test.__name__} ({time.time() - started:.1f} s)", flush=True)
            except Exception as error:  # every test runs; each failure is reported with a screenshot
                shot = browser.screenshot(f"FAILED-{test.__name__}")
                logged = browser.console_problems()   # this test's, not the next one's
                if logged and not isinstance(error, Failure) or logged and "logged errors" not in str(error):
                    error = Failure(f"{error}; the page also logged {logged}")
                detail = str(error) if isinstance(error, Failure) else traceback.format_exc()
                failures.append(f"{test.__name__}: {detail} (screenshot {shot})")
                print(f"✘ {test.__name__}: {detail}", flush=True)
        for problem in context.problems:
            print(f"✘ {problem}", flush=True)
        failures += context.problems
        print(f"screenshots ({len(context.shots)}): {os.path.abspath(options.artifacts)}")
    finally:
        if browser:
            browser.quit()
        for running in servers:
            running.stop()
        demo = context.demo if context else None
        if demo and demo.poll() is None:
            demo.terminate()   # the demo removes its own lab on TERM
            try:
                demo.wait(timeout=60)
            except subprocess.TimeoutExpired:
                demo.kill()
                demo.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"browser tests: {len(failures)} failed" if failures else "browser tests: all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
