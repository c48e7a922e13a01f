"""The Timeline's place in the address (back, reload and a shared link restore it; back from a
connection returns to the same rows and scroll, the row focused), keyboard focus on each new
screen's heading and on the scrub bar after Enter, and the notice every screen shows when its
server stops answering or refuses the session. Each test takes the run's context `t`."""
import os
import signal
import subprocess
import sys
import time
import urllib.parse

from selenium.webdriver.common.keys import Keys

from harness import Browser, Failure, Server, check, oracle
from screens import HANDSHAKES_CAPTURE, bar_facts, bars, open_timeline, rows, sweep_bars, wait_rows


def hash_of(t):
    return urllib.parse.urlsplit(t.b.driver.current_url).fragment


def drawn_ids(t):
    return [a.get_attribute("data-flow") for a in t.b.css("ul.rows[aria-labelledby=list-title] a[data-flow]")]


def focused_flow(t):
    return t.b.driver.execute_script("return document.activeElement?.dataset?.flow ?? null")


def shoot_here(t, name):
    """A screenshot in light and dark of the window as it is scrolled now (t.shoot scrolls to the top)."""
    for scheme in ("light", "dark"):
        t.b.color_scheme(scheme)
        t.shots.append(t.b.screenshot(name))
    t.b.color_scheme("light")


def settled(t):
    """The list drawn and not loading."""
    return rows(t) and not t.b.css(".list-status .loading") and not t.b.css(".list-footer .loading")


def place_drawn(t):
    """What the screen shows of the place: rows, ticked boxes, the stretch sentence, the search."""
    return t.b.driver.execute_script("""return {
        ids: [...document.querySelectorAll('ul.rows[aria-labelledby=list-title] a[data-flow]')].map(a => a.dataset.flow),
        ticked: [...document.querySelectorAll('form.filters input[type=checkbox]:checked')].map(b => b.value || b.id),
        stretch: document.querySelector('.axis-selection')?.textContent ?? null,
        search: document.querySelector('#search')?.value ?? null}""")


def test_the_timelines_place_survives_back_reload_and_a_shared_link(t):
    """Filters, a swept stretch and older pages; a connection opened from far down the list: back
    returns to the same rows, scrolled as they were, that row focused; a reload of either address
    restores it; the address opened in a fresh browser, after its key exchange, shows the same."""
    open_timeline(t)
    t.b.wait(lambda: len(bars(t)) >= 3 and settled(t), 15, "the timeline did not draw")
    t.b.one("checkbox", "TCP").click()
    t.b.wait(lambda: "protocols" in hash_of(t), 10, f"the protocol filter is not in the address: {hash_of(t)!r}")
    facts = bar_facts(t)
    busy = [i for i, f in enumerate(facts) if f["packets"] > 0]
    sweep_bars(t, busy[0], busy[-1])
    t.b.wait(lambda: "range" in hash_of(t) and settled(t), 15, f"the stretch is not in the address: {hash_of(t)!r}")
    while len(rows(t)) < 120 and t.b.find("button", "Load older connections", exact=True):
        before = len(rows(t))
        t.b.press("button", "Load older connections", exact=True)
        t.b.wait(lambda: len(rows(t)) > before and settled(t), 15, "Load older drew nothing")
    place = hash_of(t)
    listed = place_drawn(t)
    check(len(listed["ids"]) > 30, f"too few rows to scroll through: {len(listed['ids'])}")
    # A row far down, opened with a click where it stands.
    links = t.b.css("ul.rows[aria-labelledby=list-title] > li.row:not(.burst) a[data-flow]")
    link = links[int(len(links) * 0.6)]
    t.b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    # The scroll is remembered once it settles (150 ms after the last scroll event).
    t.b.wait(lambda: t.b.driver.execute_script("return history.state?.timeline?.scrollY === scrollY"), 5,
             "the Timeline did not remember where the list was scrolled")
    scrolled = t.b.driver.execute_script("return scrollY")
    opened = link.get_attribute("data-flow")
    link.click()
    t.b.wait(lambda: hash_of(t) == f"/flow/{opened}", 10, f"the row did not open its connection: {hash_of(t)!r}")
    flow = t.ask("flow", opened)
    t.b.one("heading", flow["name"] or flow["conversation"]["label"], exact=True)
    t.b.driver.back()
    t.b.wait(lambda: hash_of(t) == place and focused_flow(t) == opened, 20,
             f"back did not return to the row opened, focused: {hash_of(t)!r}, focus on {focused_flow(t)!r}")
    back = place_drawn(t)
    check(back == listed, f"back shows other rows or filters: {len(back['ids'])} rows, {back['ticked']}, {back['stretch']!r}")
    now = t.b.driver.execute_script("return scrollY")
    check(abs(now - scrolled) <= 2, f"back scrolled to {now}, the list was at {scrolled}")
    shoot_here(t, "timeline-back-from-a-connection")
    # A reload of the list's address: the same rows, scroll and focus.
    t.b.driver.refresh()
    t.b.wait(lambda: focused_flow(t) == opened and settled(t), 20, "a reload did not restore the row opened")
    check(place_drawn(t) == listed, "a reload shows other rows or filters")
    check(abs(t.b.driver.execute_script("return scrollY") - scrolled) <= 2, "a reload did not restore the scroll")
    # Forward to the connection, and a reload of its address.
    t.b.driver.forward()
    t.b.one("heading", flow["name"] or flow["conversation"]["label"], exact=True)
    t.b.driver.refresh()
    t.b.one("heading", flow["name"] or flow["conversation"]["label"], exact=True, timeout=15)
    t.b.driver.back()
    t.b.wait(lambda: hash_of(t) == place and settled(t), 20, "back after a reload")

    # The same address in a fresh browser (another profile, no cookie), after its key exchange.
    other = Browser(t.options.artifacts)
    try:
        other.go(t.server.url)
        other.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
        other.go(f"{t.server.origin}/#{place}")
        other.wait(lambda: other.find("heading", "Timeline", True) and other.css("ul.rows li.row")
                   and not other.css(".list-status .loading"), 20, "the shared link drew no list")
        shared = other.driver.execute_script("""return {
            ticked: [...document.querySelectorAll('form.filters input[type=checkbox]:checked')].map(b => b.value || b.id),
            stretch: document.querySelector('.axis-selection')?.textContent ?? null,
            first: [...document.querySelectorAll('ul.rows[aria-labelledby=list-title] a[data-flow]')].map(a => a.dataset.flow)}""")
        check(shared["ticked"] == listed["ticked"] and shared["stretch"] == listed["stretch"],
              f"the shared link shows {shared['ticked']} {shared['stretch']!r}, the list had {listed['ticked']} {listed['stretch']!r}")
        check(shared["first"] == listed["ids"][:len(shared["first"])], "the shared link's first page is not the list's")
        other.screenshot("timeline-shared-link")
        # A key address with the place after it: the place survives the exchange too.
        other.driver.delete_all_cookies()
        other.go(f"{t.server.url}#{place}")
        other.wait(lambda: other.css(".axis-selection") and other.css("ul.rows li.row"), 20,
                   f"the key address with the place lost it: {other.driver.current_url}")
        check(urllib.parse.urlsplit(other.driver.current_url).query == "", "the key stayed in the address")
    finally:
        other.quit()
    t.b.one("button", "Clear filters", exact=True).click()
    t.b.wait(lambda: hash_of(t) == "/timeline", 10, f"cleared filters leave {hash_of(t)!r}")


def test_an_address_with_unknown_or_old_values_falls_back_to_defaults(t):
    """A link from an older version (group=true), a hand-edited one, or one with fields this
    version does not have: the fields that do not read are left at their defaults, the rest taken,
    and nothing breaks."""
    open_timeline(t)
    t.b.wait(lambda: settled(t), 15, "the timeline did not draw")
    everything = t.ask("flows")
    t.b.route("#/timeline?group=true&sort=%7B%22by%22%3A1%7D&protocols=%22tcp%22&range=%7B%22from%22%3A%22x%22%7D"
              "&zoom=5&cursor=oops&nonsense=1&statuses=%5B1%5D")
    t.b.wait(lambda: len(rows(t)) == len(everything["flows"]) and settled(t), 15, "an unreadable address did not give the whole list")
    check(not t.b.css(".axis-selection"), "an unreadable stretch was applied")
    t.b.route("#/timeline?search=nothing-has-this-name-zz&group=%22host%22&protocols=%5B%22udp%22%5D")
    t.b.wait_text("No connections match", 15)
    check(t.b.driver.execute_script("return document.querySelector('#search').value") == "nothing-has-this-name-zz",
          "the readable search was not taken")
    t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(everything["flows"]), "after Clear filters")


def focused_heading(t):
    return t.b.driver.execute_script(
        "const e = document.activeElement; return e && e.tagName === 'H1' && e.closest('main') ? e.textContent : null")


def test_focus_goes_to_each_new_screens_heading_and_stays_on_the_axis(t):
    """A move to another screen puts the focus on its heading — the Inspector's too, which becomes
    the connection's name once read; Enter on the activity axis leaves the focus on the axis."""
    for link, heading in [("Dashboard", "Dashboard"), ("Captures", "Captures"), ("Settings", "Settings"),
                          ("Diagnostics", "Diagnostics"), ("Timeline", "Timeline")]:
        t.b.driver.find_element("css selector", f'nav a[data-screen="{link.lower()}"]').click()
        t.b.wait(lambda: focused_heading(t) == heading, 10, f"after {link} the focus is not on its heading: {focused_heading(t)!r}")
    t.b.wait(lambda: settled(t), 15, "the timeline did not draw")
    link = t.b.css("ul.rows[aria-labelledby=list-title] > li.row:not(.burst) a[data-flow]")[0]
    flow = t.ask("flow", link.get_attribute("data-flow"))
    link.send_keys(Keys.ENTER)
    title = flow["name"] or flow["conversation"]["label"]
    t.b.wait(lambda: focused_heading(t) == title, 10, f"the Inspector's heading {title!r} is not focused: {focused_heading(t)!r}")
    t.b.driver.back()
    t.b.wait(lambda: bars(t) and settled(t), 15, "back to the timeline")
    # The axis may be redrawn meanwhile (it follows the history): focused and pressed where it is now.
    t.b.wait(lambda: t.b.driver.execute_script("document.querySelector('.scrub').focus(); "
                                               "return document.activeElement.getAttribute('role') === 'slider'"), 5, "the axis took no focus")
    before = t.b.driver.execute_script("return document.querySelector('#axis-caption').textContent")
    t.b.driver.switch_to.active_element.send_keys(Keys.END)
    t.b.driver.switch_to.active_element.send_keys(Keys.ENTER)
    t.b.wait(lambda: settled(t) or t.b.find("heading", "No connections match"), 15, "Enter on the axis picked nothing")
    t.b.wait(lambda: t.b.driver.execute_script("return document.activeElement?.getAttribute('role')") == "slider", 10,
             "after Enter the focus left the axis: " + str(t.b.driver.execute_script("return document.activeElement?.outerHTML.slice(0, 120)")))
    check(t.b.driver.execute_script("return document.querySelector('#axis-caption').textContent") != before
          or t.b.css(".axis-selection"), "Enter changed nothing")
    for name in ("All", "Back"):
        if t.b.find("button", name, exact=True):
            t.b.one("button", name, exact=True).click()
            break
    if t.b.find("button", "Show the whole axis's connections"):
        t.b.one("button", "Show the whole axis's connections").click()
    t.b.one("button", "Clear filters", exact=True).click()


def notice_text(b):
    return b.driver.execute_script("const n = document.getElementById('contact-notice'); return n && !n.hidden ? n.innerText : ''")


def test_every_screen_says_when_its_server_stops_answering_or_refuses_the_session(t):
    """Under each screen the server stops answering (its process stopped): within the deadline
    (5 s of silence, asked every 2 s) the screen says so in the server's words with what to check
    and how old it is; when it answers again the notice goes and the screen catches up. A server
    restarted on the same address refuses the session: that is said as refused, not as silence."""
    server = Server(t.options.server, t.binary, t.data_dir)
    t.servers.append(server)
    b = t.b
    b.go(server.url)
    b.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
    flow_id = oracle(t.binary, t.data_dir, "flows", "--limit", "1")["flows"][0]["id"]
    timings = []
    try:
        for route, ready in [("#/timeline", "ul.rows li.row"), (f"#/flow/{flow_id}", "table.packets"),
                             ("#/diagnostics", "section.headline"), ("#/captures", "#room-title"),
                             ("#/settings", "#storage-title"), ("#/dashboard", "#monitoring-title")]:
            b.route(route)
            b.wait(lambda: b.css(ready), 20, f"{route} did not draw")
            b.driver.execute_script("window.tvNotReloaded = true")
            os.kill(server.process.pid, signal.SIGSTOP)
            stopped = time.time()
            b.wait(lambda: "The app's server is not answering" in notice_text(b), 12, f"{route}: no notice after the server stopped")
            timings.append((route, time.time() - stopped))
            said = notice_text(b)
            check("Is 'tunnelvision ui' still running?" in said and "as of" in said, f"{route}: the notice says {said!r}")
            if route == "#/dashboard":
                check(not b.find("button", "Start monitoring", True) and not b.find("button", "Stop monitoring", True),
                      "a monitoring control is offered with no server behind it")
                check("Monitoring is on" not in b.text(), "the Dashboard still claims monitoring is on")
            if route in ("#/timeline", "#/captures", "#/dashboard"):
                t.shoot(f"server-gone-{route[2:]}")
            os.kill(server.process.pid, signal.SIGCONT)
            b.wait(lambda: notice_text(b) == "", 12, f"{route}: the notice stayed after the server answered again")
            b.wait(lambda: b.css(ready), 10, f"{route}: nothing drawn once the server answered again")
            check(b.driver.execute_script("return window.tvNotReloaded === true"), f"{route}: the page was reloaded")
        print("  notice after: " + ", ".join(f"{route} {seconds:.1f} s" for route, seconds in timings), flush=True)
        check(all(seconds <= 10 for _, seconds in timings), f"a notice came late: {timings}")
        # Restarted on the same address: a new secret, so this browser's session is refused.
        b.route("#/captures")
        b.wait(lambda: b.css("#room-title"), 20, "captures did not draw")
        server.stop()
        again = Server(t.options.server, t.binary, t.data_dir, listen=server.listen)
        t.servers.append(again)
        b.wait(lambda: "no longer accepts this browser" in notice_text(b), 15, "a refused session was not said")
        said = notice_text(b)
        check("not answering" not in said and "tunnelvision ui link" in said, f"the refusal says {said!r}")
        t.shoot("session-refused")
        # A new address opens the session again.
        b.go(again.url)
        b.route("#/captures")
        b.wait(lambda: b.css("#room-title") and notice_text(b) == "", 20, "a new address did not open the session again")
    finally:
        if server.process.poll() is None:
            os.kill(server.process.pid, signal.SIGCONT)
        b.go(t.server.url)   # back to the main server for the tests after


def test_an_analyzed_conversation_between_two_other_machines_shows_both_ends(t):
    """Conversations `analyze` read from a capture of two other machines: each row names both ends
    and says neither is this machine (no port of a "remote" end); the Inspector lists the two
    ends as they are, never one as "This machine"."""
    folder = os.path.join(t.scratch, "others")
    os.makedirs(folder, exist_ok=True)
    capture, history = os.path.join(folder, "others.pcap"), os.path.join(folder, "history")
    # Two machines of their own (198.18.0.2 is the tunnel's address, this machine's end).
    two_others = HANDSHAKES_CAPTURE.replace('"198.18.0.1", "198.18.0.2"', '"198.19.5.1", "198.19.5.2"')
    check(two_others != HANDSHAKES_CAPTURE, "the capture's addresses were not replaced")
    subprocess.run([sys.executable, "-c", two_others, capture, "2", "43000", str(time.time() - 60)], check=True, timeout=120)
    subprocess.run([t.binary, "analyze", capture, "--data-dir", history], check=True, capture_output=True, timeout=120)
    listed = oracle(t.binary, history, "flows")["flows"]
    check(listed and all(flow["conversation"]["thisMachine"] is False for flow in listed),
          f"the analyzed conversations should have neither end this machine's: {[f['conversation'] for f in listed]}")
    server = Server(t.options.server, t.binary, history)
    t.servers.append(server)
    try:
        t.b.go(server.url)
        t.b.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
        open_timeline(t)
        wait_rows(t, len(listed), "the analyzed conversations")
        drawn = t.b.driver.execute_script("""return [...document.querySelectorAll('ul.rows li.row:not(.burst)')].map(r => ({
            host: r.querySelector('.host').textContent, where: r.querySelector('.where')?.textContent ?? '',
            port: r.querySelector('.c-port').textContent}))""")
        for row, flow in zip(drawn, listed):
            check(row["host"] == flow["conversation"]["label"] and "↔" in row["host"], f"a row's host {row['host']!r}, "
                  f"its ends {flow['conversation']['label']!r}")
            check(flow["conversation"]["note"] in row["where"], f"the row does not say neither end is this machine: {row['where']!r}")
            check(row["port"] == "–", f"a conversation of two other machines has no remote port: {row['port']!r}")
        t.shoot("timeline-other-machines")
        t.b.driver.find_element("css selector", f'a[data-flow="{listed[0]["id"]}"]').click()
        inspected = oracle(t.binary, history, "flow", str(listed[0]["id"]))
        t.b.one("heading", inspected["conversation"]["label"], exact=True)
        terms = [e.text for e in t.b.css(".facts.six dt")]
        check("This machine" not in terms and "One end" in terms and "The other end" in terms, f"the Inspector's facts: {terms}")
        said = {dt.text: dd.text for dt, dd in zip(t.b.css(".facts.six dt"), t.b.css(".facts.six dd"))}
        check([said["One end"], said["The other end"]] == [end["text"] for end in inspected["conversation"]["ends"]],
              f"the two ends drawn {said}, the command's {inspected['conversation']['ends']}")
        t.b.wait_text("Neither end is this machine")
        t.shoot("inspector-other-machines")
    finally:
        t.b.go(t.server.url)   # back to the main history for the tests after


# What the held tunnel's command does: an ICMP echo every 0.2 s until it is stopped, to one lab
# address, or to 198.18.1.1, .2, … up to its argument's count and round again (a new connection
# each, then each again). The tunnel records ICMP and relays none of it, so nothing leaves the
# run's namespace.
ECHOES = """
import socket, struct, sys, time
addresses = int(sys.argv[1]) if len(sys.argv) > 1 else 0
echo = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
def checksum(data):
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    total = (total >> 16) + (total & 0xffff)
    return ~(total + (total >> 16)) & 0xffff
sequence = 0
while True:
    sequence += 1
    header = struct.pack("!BBHHH", 8, 0, 0, 0x7456, sequence & 0xffff) + b"tunnelvision"
    packet = header[:2] + struct.pack("!H", checksum(header)) + header[4:]
    echo.sendto(packet, (f"198.18.1.{(sequence - 1) % addresses + 1}" if addresses else "198.18.0.99", 0))
    time.sleep(0.2)
"""


class HeldTunnel:
    """A real tunnel on a fresh data directory of its own (served by a server of its own), held
    open by `run` around ECHOES until the test stops it: no step races a session that ends on
    its own."""

    def __init__(self, t, name):
        if not t.options.live_demo:
            raise Failure("a live tunnel needs --live-demo")
        self.binary = t.binary
        self.folder = os.path.join(t.scratch, name)
        os.makedirs(self.folder, mode=0o700)
        self.server = Server(t.options.server, t.binary, self.folder)
        t.servers.append(self.server)
        self.said = open(os.path.join(t.scratch, f"{name}-run.log"), "w+")
        self.process = None

    def start(self, *arguments):
        self.process = subprocess.Popen([self.binary, "run", "--data-dir", self.folder, "--", sys.executable, "-c", ECHOES, *arguments],
                                        stdout=self.said, stderr=subprocess.STDOUT)

    def running(self):
        """True while it runs; a tunnel that ended before the test stopped it says why, at once."""
        if self.process.poll() is not None:
            self.said.seek(0)
            raise Failure(f"the run ended ({self.process.returncode}) on its own: {self.said.read()[-1500:]!r}")
        return True

    def stop(self):
        self.process.send_signal(signal.SIGTERM)   # run passes TERM to its command, then takes the tunnel down
        self.process.wait(timeout=60)

    def close(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=60)
        self.said.close()


def test_the_timeline_takes_a_live_tunnels_new_connections_without_a_reload(t):
    """The Timeline open on an empty data directory while a real tunnel records into it: its
    rows are counted as they come, more and more with no reload, and once the tunnel stops they
    are the connections `flows` lists, in its order, with the packets it counts."""
    tunnel = HeldTunnel(t, "live-timeline")
    running = tunnel.running
    drawn = lambda: t.b.driver.execute_script(
        "return [...document.querySelectorAll('ul.rows a[data-flow]')].map((a) => a.dataset.flow)")
    packets = lambda: t.b.driver.execute_script(
        "return [...document.querySelectorAll('ul.rows > li.row')].map((row) => row.dataset.seen.split(' ').pop())")
    try:
        t.b.go(tunnel.server.url)
        t.b.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
        t.b.route("#/timeline")
        t.b.wait_text("No connections recorded yet", 15)
        t.b.driver.execute_script("window.tvNotReloaded = true")
        tunnel.start("40")
        t.b.wait(lambda: running() and len(drawn()) >= 2, 60, f"no connection drawn while the tunnel ran: {t.b.text()[:300]!r}")
        before = len(drawn())
        t.b.wait(lambda: running() and len(drawn()) >= before + 3, 30, f"the rows stayed {len(drawn())} while new connections came")
        after = len(drawn())
        print(f"  rows counted while the tunnel ran: {before}, then {after}", flush=True)
        tunnel.stop()
        listed = oracle(t.binary, tunnel.folder, "flows")["flows"]
        check(after <= len(listed) <= 40, f"flows lists {len(listed)} connections: {after} were drawn, 40 addresses echoed at most")
        t.b.wait(lambda: drawn() == [str(flow["id"]) for flow in listed]
                 and packets() == [str(flow["packets"]) for flow in listed], 30,
                 f"the open Timeline lists {drawn()} with packets {packets()}, flows {[(f['id'], f['packets']) for f in listed]}")
        check(t.b.driver.execute_script("return window.tvNotReloaded === true"), "the Timeline was reloaded")
        t.shoot("timeline-live-tunnel")
    finally:
        tunnel.close()
        t.b.go(t.server.url)


test_the_timeline_takes_a_live_tunnels_new_connections_without_a_reload.live = True


def test_diagnostics_and_captures_follow_a_live_tunnel_without_a_reload(t):
    """Captures and Diagnostics open on an empty data directory, then a tunnel starts recording
    into it and later stops: the capture file appears on the open Captures screen and is no
    longer recorded once the tunnel is gone; Diagnostics turns from "Monitoring is off" to what
    the live session sees and back. Neither screen is reloaded. The tunnel is `run` holding a
    command open until the test ends it, so no step races a session that ends on its own."""
    tunnel = HeldTunnel(t, "live-refresh")
    running = tunnel.running
    b, other = t.b, Browser(t.options.artifacts)

    def page(browser):
        return f"the page was {browser.driver.execute_script('return document.visibilityState')}; it says {browser.text()[:300]!r}"
    try:
        for browser, route in ((b, "#/captures"), (other, "#/diagnostics")):
            browser.go(tunnel.server.url)
            browser.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
            browser.route(route)
        b.wait_text("No capture files yet", 15)
        other.wait(lambda: "Monitoring is off" in other.text(), 15, "Diagnostics did not say monitoring is off")
        for browser in (b, other):
            browser.driver.execute_script("window.tvNotReloaded = true")
        tunnel.start()
        other.wait(lambda: running() and "What this session can see" in other.text(), 60,
                   f"Diagnostics never showed the live session ({page(other)})")
        b.wait(lambda: running() and b.css("li.capture .capture-size"), 60, f"no capture file appeared ({page(b)})")
        recording = [row.text for row in b.css("li.capture")]
        check(any("recording" in row.lower() for row in recording), f"the capture being written is not said to be recorded: {recording}")
        # Counters that move: the echoes reach the tunnel while Diagnostics is watched.
        counters = lambda: other.css("section.diagnostics-section")[0].text
        first = counters()
        other.wait(lambda: running() and counters() != first, 30, f"Diagnostics' counters stayed {first!r}")
        t.shoot("captures-following")
        other.color_scheme("dark")
        other.screenshot("diagnostics-following")
        other.color_scheme("light")
        tunnel.stop()
        other.wait(lambda: "Monitoring is off" in other.text(), 30,
                   f"Diagnostics still showed a session after the tunnel stopped ({page(other)})")
        b.wait(lambda: [row.text for row in b.css("li.capture")] != recording
               and not any("recording" in row.text.lower() for row in b.css("li.capture")), 30,
               f"the capture file was still said to be recorded after the tunnel stopped ({page(b)})")
        for browser, name in ((b, "Captures"), (other, "Diagnostics")):
            check(browser.driver.execute_script("return window.tvNotReloaded === true"), f"{name} was reloaded")
    finally:
        other.quit()
        tunnel.close()
        b.go(t.server.url)   # cookies do not tell ports apart: the other server's session replaced ours


test_diagnostics_and_captures_follow_a_live_tunnel_without_a_reload.live = True

TESTS = [test_the_timelines_place_survives_back_reload_and_a_shared_link,
         test_an_address_with_unknown_or_old_values_falls_back_to_defaults,
         test_focus_goes_to_each_new_screens_heading_and_stays_on_the_axis,
         test_an_analyzed_conversation_between_two_other_machines_shows_both_ends,
         test_every_screen_says_when_its_server_stops_answering_or_refuses_the_session,
         test_the_timeline_takes_a_live_tunnels_new_connections_without_a_reload,
         test_diagnostics_and_captures_follow_a_live_tunnel_without_a_reload]
