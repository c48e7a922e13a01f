"""The web app's speed, for `tvlab bench ui` (a benchmark, not a test): the Timeline's first page
in headless Chromium and the API's answers over keep-alive HTTP against the real
`tunnelvision ui`, or (`hold`) pages kept open on the live Dashboard and the live Timeline while
the tunnel is measured.

  bench_ui.py measure --binary TV --data-dir D --flow-id ID [--runs N] [--requests N] [--json]
  bench_ui.py hold --binary TV --data-dir D --pages N --ready FILE      (until SIGTERM; 2 pages + N streams)
"""
import argparse
import http.client
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Browser, Server  # noqa: E402  (the browser tests' own set-up)

# Installed before the page's own script runs: the moments (performance.now(), milliseconds from
# navigation) the first timeline row and the first axis bar are in the document.
MARKS = """
window.__bench = {};
new MutationObserver(() => {
  const b = window.__bench;
  if (b.rows === undefined && document.querySelector('ul.rows li')) b.rows = performance.now();
  if (b.axis === undefined && document.querySelector('.scrub rect')) b.axis = performance.now();
}).observe(document, {childList: true, subtree: true});
"""

READ_MARKS = """
const b = window.__bench || {};
if (b.rows === undefined || b.axis === undefined) return null;
const answer = name => performance.getEntriesByType('resource').filter(e => e.name.includes(name))
  .map(e => ({start: e.startTime, end: e.responseEnd}))[0] || null;
return {rows: b.rows, axis: b.axis, flows: answer('/api/flows'), activity: answer('/api/activity'),
        script: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd};
"""


# Installed before each held page's own script runs: the live Timeline's merges as the page
# measures them (timeline.js keeps only its latest measure; an observer sees every one), how long
# its polls took to be answered, and how often the page asked GET /api/contact. Read and emptied
# by READ_LIVE.
LIVE = """
window.__live = {applies: [], polls: [], contact: 0};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.entryType === 'measure' && e.name === 'tunnelvision.timeline.live-apply') {
      window.__live.applies.push({start: e.startTime, duration: e.duration,
                                  applied: e.detail.applied, received: e.detail.received});
    } else if (e.entryType === 'resource' && e.name.includes('/api/flows?') && e.name.includes('limit=200')) {
      window.__live.polls.push(e.responseEnd - e.startTime);
    } else if (e.entryType === 'resource' && e.name.includes('/api/contact')) {
      window.__live.contact += 1;
    }
  }
}).observe({entryTypes: ['measure', 'resource']});
"""

READ_LIVE = """
const l = window.__live;
if (!l) return null;
const taken = {applies: l.applies.splice(0), polls: l.polls.splice(0), contact: l.contact};
l.contact = 0;
return taken;
"""


def login(browser, server):
    browser.go(server.url)   # the key, exchanged for the session cookie
    browser.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")


def timeline_runs(browser, server, runs):
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MARKS})
    results = []
    for _ in range(runs):
        browser.go("about:blank")
        browser.go(server.origin + "/#/timeline")
        results.append(browser.wait(lambda: browser.driver.execute_script(READ_MARKS), 60,
                                    "the timeline never drew its rows and axis"))
    return results


def session_cookie(server):
    parts = urllib.parse.urlsplit(server.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    connection.request("GET", f"{parts.path}?{parts.query}")
    response = connection.getresponse()
    response.read()
    cookie = response.getheader("Set-Cookie", "")
    if response.status != 303 or not cookie:
        raise SystemExit(f"logging in with the key answered {response.status} without a session cookie")
    return connection, cookie.split(";")[0]


def api_timings(server, flow_id, requests):
    """Each screen's first request, `requests` times over one keep-alive connection: ms each."""
    connection, cookie = session_cookie(server)
    headers = {"Cookie": cookie, "X-TunnelVision": "1"}
    endpoints = ["/api/flows", "/api/activity?bars=29", f"/api/flows/{flow_id}", f"/api/flows/{flow_id}/packets/1",
                 "/api/captures", "/api/storage", "/api/settings", "/api/diagnostics", "/api/export/summary"]
    table = []
    for path in endpoints:
        # The export's summary builds the whole document each time (known, seconds): fewer asks.
        count = max(3, requests // 10) if "export" in path else requests
        times, statuses, size = [], set(), 0
        for _ in range(count):
            started = time.perf_counter()
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            body = response.read()
            times.append((time.perf_counter() - started) * 1000)
            statuses.add(response.status)
            size = len(body)
        table.append({"path": path, "requests": count, "statuses": sorted(statuses), "bytes": size,
                      "p50": percentile(times, 50), "p99": percentile(times, 99), "max": max(times)})
    connection.close()
    return table


def percentile(values, p):
    """Nearest rank: with fewer than 100 samples, p99 is the largest."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def measure(options):
    server = Server("ui", options.binary, options.data_dir)
    browser = None
    try:
        browser = Browser(tempfile.gettempdir())
        login(browser, server)
        runs = timeline_runs(browser, server, options.runs)
        api = api_timings(server, options.flow_id, options.requests)
    finally:
        if browser:
            browser.quit()
        server.stop()
    rows = [r["rows"] for r in runs]
    axis = [r["axis"] for r in runs]
    answered = [r["flows"]["end"] - r["flows"]["start"] for r in runs if r["flows"]]
    asked = [r["flows"]["start"] for r in runs if r["flows"]]
    activity = [r["activity"]["end"] - r["activity"]["start"] for r in runs if r["activity"]]
    report = {"runs": options.runs, "timelineRowsMedianMs": statistics.median(rows), "timelineRowsMaxMs": max(rows),
              "axisMedianMs": statistics.median(axis), "axisMaxMs": max(axis),
              "flowsAskedAtMedianMs": statistics.median(asked) if asked else None,
              "flowsAnswerMedianMs": statistics.median(answered) if answered else None,
              "activityAnswerMedianMs": statistics.median(activity) if activity else None,
              "domContentLoadedMedianMs": statistics.median([r["script"] for r in runs]),
              "targetMs": 300, "met": statistics.median(rows) <= 300, "api": api}
    if options.json:
        print(json.dumps(report))
        return
    print(f"Timeline in headless Chromium, navigation to first drawn ({options.runs} runs; ms from navigation start):")
    print(f"  first page of rows   median {report['timelineRowsMedianMs']:8.1f}  max {report['timelineRowsMaxMs']:8.1f}"
          f"  target 300  {'met' if report['met'] else 'MISSED'}")
    print(f"  axis bars            median {report['axisMedianMs']:8.1f}  max {report['axisMaxMs']:8.1f}")
    print(f"  where it goes (medians): page script ready {report['domContentLoadedMedianMs']:.1f}, /api/flows asked at "
          f"{fmt(report['flowsAskedAtMedianMs'])} and answered in {fmt(report['flowsAnswerMedianMs'])}, "
          f"/api/activity answered in {fmt(report['activityAnswerMedianMs'])}")
    print(f"API over keep-alive HTTP on loopback (ms per request, nearest-rank percentiles):")
    for row in api:
        print(f"  GET {row['path']:<34} n {row['requests']:4}  p50 {row['p50']:9.2f}  p99 {row['p99']:9.2f}"
              f"  status {','.join(map(str, row['statuses']))}  {row['bytes']} bytes")


def fmt(value):
    return "?" if value is None else f"{value:.1f}"


def follow_live(server, cookie, counts, index, stopping):
    """One EventSource-like client: reads /api/live's stream, counting its `dashboard` events."""
    parts = urllib.parse.urlsplit(server.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", "/api/live", headers={"Cookie": cookie, "X-TunnelVision": "1", "Accept": "text/event-stream"})
    response = connection.getresponse()
    if response.status != 200:
        counts[index] = f"status {response.status}"
        return
    while not stopping:
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"event: dashboard"):
            counts[index] += 1


def cpu_ticks(pids):
    """{pid: user plus system CPU used so far, in clock ticks} (/proc/PID/stat's utime and stime)."""
    used = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            used[pid] = int(fields[11]) + int(fields[12])   # fields 14 and 15 of stat
        except (OSError, IndexError, ValueError):
            pass   # gone meanwhile
    return used


def cpu_since(before, pids):
    """Seconds of CPU the processes used since `before` (a process born since counts whole; one
    that ended meanwhile is lost, so the figure is at least this)."""
    now = cpu_ticks(pids)
    return sum(ticks - before.get(pid, 0) for pid, ticks in now.items()) / os.sysconf("SC_CLK_TCK")


def descendants(root):
    """Every live process under `root` (the browser's: chromedriver, Chromium and its helpers)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    found, waiting = [], [root]
    while waiting:
        for child in children.get(waiting.pop(), []):
            found.append(child)
            waiting.append(child)
    return found


def hold(options):
    """One Chromium window on the live Dashboard, another on the live Timeline, and `--pages` more
    readers of the Dashboard's stream (/api/live, as the page's EventSource reads it) until
    SIGTERM; writes `ready` to --ready once both pages are drawn and every stream has answered.
    Two windows, not tabs: a tab in the background is hidden, and a hidden Timeline stops polling."""
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    server = Server("ui", options.binary, options.data_dir)
    browser = None
    try:
        browser = Browser(tempfile.gettempdir(), width=1000, height=700)
        driver = browser.driver
        login(browser, server)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LIVE})
        browser.go(server.origin + "/#/dashboard")
        browser.wait(lambda: browser.find("heading", "Dashboard"), 60, "the Dashboard never drew")
        dashboard = driver.current_window_handle
        driver.switch_to.new_window("window")
        timeline = driver.current_window_handle
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LIVE})
        browser.go(server.origin + "/#/timeline")
        browser.wait(lambda: browser.css("ul.rows li.row"), 120, "the Timeline never drew its rows")
        hidden = driver.execute_script("return document.hidden")
        if hidden:
            raise SystemExit("the Timeline's window is hidden: it would not poll")
        _, cookie = session_cookie(server)
        counts = [0] * options.pages
        readers = [threading.Thread(target=follow_live, args=(server, cookie, counts, index, stopping), daemon=True)
                   for index in range(options.pages)]
        for reader in readers:
            reader.start()
        browser.wait(lambda: all(count != 0 for count in counts), 30, f"the live streams sent nothing: {counts}")
        # Whatever the Timeline measured while it was drawn and the streams started is not the hold's.
        driver.execute_script(READ_LIVE)
        with open(options.ready, "w") as ready:
            ready.write(f"ready: 2 pages and {options.pages} streams\n")
        # Said every second (one JSON line, UIHoldReport in Sources/Bench reads the last), as
        # stopping takes the browser down with this process's whole tree: what the pages measured
        # after their last reading is lost. They are read every 2 s, the Timeline's own pace, not
        # more: each WebDriver call costs the browser CPU the tunnel would otherwise have.
        states, applies, polls, contact, started = [], [], [], 0, time.monotonic()
        server_pid = server.process.pid
        browser_pids = lambda: [p for p in descendants(os.getpid()) if p != server_pid]
        before = (cpu_ticks([server_pid]), cpu_ticks(browser_pids()), time.process_time())
        tick = 0
        while not stopping:
            if tick % 2 == 0:
                for handle in (dashboard, timeline):
                    driver.switch_to.window(handle)
                    taken = driver.execute_script(READ_LIVE) or {"applies": [], "polls": [], "contact": 0}
                    applies += taken["applies"]
                    polls += taken["polls"]
                    contact += taken["contact"]
                    if handle == dashboard:
                        state = driver.execute_script("return document.getElementById('monitoring-title')?.textContent.trim()")
                        if state and state not in states:
                            states.append(state)
            tick += 1
            wall = max(time.monotonic() - started, 1e-9)
            print(json.dumps({"seconds": round(wall, 3), "serverCPUSeconds": cpu_since(before[0], [server_pid]),
                              "browserCPUSeconds": cpu_since(before[1], browser_pids()),
                              "readersCPUSeconds": round(time.process_time() - before[2], 3),
                              "applies": applies, "pollAnswers": polls, "contactRequests": contact,
                              "streamEvents": counts, "dashboardStates": states}), flush=True)
            time.sleep(1)
    finally:
        if browser:
            browser.quit()
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["measure", "hold"])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--flow-id", type=int, default=1)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--ready")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    options.binary = os.path.abspath(options.binary)
    if options.mode == "measure":
        measure(options)
    else:
        if not options.ready:
            parser.error("hold needs --ready FILE")
        hold(options)


if __name__ == "__main__":
    main()
