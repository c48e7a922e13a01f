"""The Audit screen in Chromium, on a data directory of its own: a project made and its allowlist
edited from the page; a session recorded by `tunnelvision audit record` around a real tunnel,
marked from the page while it records; its findings with their connections one click away; the
diff of two releases. Every state is checked against `tunnelvision audit … --json`."""

import os
import signal
import subprocess
import sys

from harness import Failure, Server, check, oracle
from screens_place import ECHOES


def record(t, folder, release, log):
    """`audit record` around ECHOES (ICMP, recorded and never relayed), held until stopped."""
    return subprocess.Popen([t.binary, "audit", "record", "--data-dir", folder, "--project", "Diary", "--release", release,
                             "--", sys.executable, "-c", ECHOES], stdout=log, stderr=subprocess.STDOUT)


def stop(process):
    process.send_signal(signal.SIGTERM)   # run passes TERM to its command; record then ends the session
    process.wait(timeout=60)


def test_the_audit_screen_makes_a_project_marks_a_session_and_reads_its_findings(t):
    if not t.options.live_demo:
        raise Failure("a recorded session needs --live-demo (a real tunnel)")
    folder = os.path.join(t.scratch, "audit")
    os.makedirs(folder, mode=0o700)
    server = Server(t.options.server, t.binary, folder)
    t.servers.append(server)
    b = t.b
    log = open(os.path.join(t.scratch, "audit-record.log"), "w+")
    process = None
    ask = lambda *words: oracle(t.binary, folder, "audit", *words)
    try:
        b.go(server.url)
        b.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
        b.route("#/audit")
        b.one("heading", "Audit", exact=True)
        b.wait_text("No audit projects yet")
        t.shoot("audit-empty")

        # A project from the page, in the command's words.
        b.one("textbox", "Name").send_keys("Diary")
        b.one("textbox", "Allowed hosts, one per line (PATTERN or PATTERN=NOTE)").send_keys("*.lab.test\nsecure.test=the API")
        b.press("button", "Create project")
        b.wait_text("Project Diary made.")
        project = ask()["projects"][0]
        check([entry["pattern"] for entry in project["allowlist"]] == ["*.lab.test", "secure.test"], f"allowlist: {project}")
        b.one("textbox", "Allow").send_keys("cdn.example.org")
        b.press("button", "Add to Diary")
        b.wait(lambda: [e["pattern"] for e in ask()["projects"][0]["allowlist"]][-1] == "cdn.example.org", 10, "the pattern was not added")
        b.press("button", "Remove cdn.example.org from Diary")
        b.wait(lambda: len(ask()["projects"][0]["allowlist"]) == 2, 10, "the pattern was not removed")
        b.one("textbox", "Allow").send_keys("bad pattern")
        b.press("button", "Add to Diary")
        b.wait_text("bad pattern is not a host pattern")

        # A session recording: the page offers its markers, and a marker placed there is the session's.
        process = record(t, folder, "1.0+3", log)
        b.wait(lambda: ask()["recording"] is not None, 60, "the recorded session did not start")
        b.route("#/captures")
        b.route("#/audit")
        b.press("button", "Consent given", exact=True, timeout=20)
        b.wait_text("Marked “Consent given” at ")
        session = ask()["recording"]
        t.shoot("audit-recording")
        # Echoes after the marker, so the session holds traffic on both sides of it.
        b.wait(lambda: ask("findings", str(session["id"]))["flowCount"] >= 1, 30, "no connection was recorded")
        stop(process)
        process = None
        check(ask()["recording"] is None, "the session still records after its command ended")

        b.route("#/captures")
        b.route("#/audit")
        b.press("button", f"Findings of session {session['id']}")
        b.one("heading", f"Findings of session {session['id']}")
        report = ask("findings", str(session["id"]))
        for finding in report["findings"]:
            b.wait_text(finding["statement"])
        for requirement in report["requirements"]:
            b.wait_text(requirement["verdictStatement"])
        check("passed" not in b.text().lower(), "a verdict on the page says 'passed'")
        t.shoot("audit-findings")
        first = report["findings"][0]
        b.press("link", f"Connection {first['flowIDs'][0]} of {first['id']}")
        b.wait(lambda: b.driver.execute_script("return location.hash") == f"#/flow/{first['flowIDs'][0]}", 10, "the connection did not open")

        # The report a person hands over, from the page.
        b.route("#/audit")
        b.press("link", f"Report of session {session['id']}")
        b.press("link", f"Evidence bundle of session {session['id']}")
        # Both fetched to the end (the page says a refusal only once its answer came).
        fetched = lambda path: b.driver.execute_script(
            "return performance.getEntriesByType('resource').some((e) => e.name.endsWith(arguments[0]) && e.responseEnd > 0)", path)
        for part in ("report", "export"):
            b.wait(lambda: fetched(f"/api/audit/sessions/{session['id']}/{part}"), 30, f"the {part} was never fetched")
        check(not b.css(".download-problem:not(:empty)"), "the report or the bundle could not be downloaded: "
              + " ".join(e.text for e in b.css(".download-problem")))

        # A second release, then the diff of the two.
        process = record(t, folder, "1.1+4", log)
        b.wait(lambda: ask()["recording"] is not None, 60, "the second session did not start")
        stop(process)
        process = None
        b.route("#/captures")   # the screen reads the projects again when it is shown anew
        b.route("#/audit")
        b.press("button", "Compare releases")
        b.one("heading", "Release 1.0+3 → 1.1+4")
        b.wait_text("No unexpected new domains.")
        t.shoot("audit-diff")
    except Failure:
        log.seek(0)
        print(f"audit record said: {log.read()[-1500:]}", file=sys.stderr)
        raise
    finally:
        if process and process.poll() is None:
            stop(process)
        log.close()
        b.go(t.server.url)   # cookies do not tell ports apart: the other server's session replaced ours


TESTS = [test_the_audit_screen_makes_a_project_marks_a_session_and_reads_its_findings]
