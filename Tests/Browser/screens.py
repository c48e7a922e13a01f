"""The screens, checked on what is drawn against what the command answers for the same question.
Each test takes the run's context `t`: t.b (Browser), t.server, t.ask(*command) (the oracle)."""
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from harness import Failure, Server, check, oracle


def rows(t):
    """Every connection drawn, in order: a burst's own rows (behind its disclosure) included."""
    return t.b.css("ul.rows li.row:not(.burst)")


def wait_rows(t, count, message):
    return t.b.wait(lambda: len(rows(t)) == count and not t.b.css(".list-status .loading"), 15,
                    f"{message}: expected {count} rows, the screen has {len(rows(t))}")


def open_timeline(t):
    t.b.route("#/timeline")
    t.b.one("heading", "Timeline", exact=True)


def bars(t):
    return t.b.css(".scrub rect.bar")


def bar_facts(t):
    return t.b.driver.execute_script("""return [...document.querySelectorAll('.scrub rect.bar')].map(r => ({
        start: r.dataset.start, seconds: Number(r.dataset.seconds), packets: Number(r.dataset.packets),
        zoom: r.hasAttribute('data-can-zoom'), selected: r.classList.contains('selected')}))""")


def iso_second(iso, plus=0):
    seconds = time.mktime(time.strptime(iso[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone + plus
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def flows_between(t, first, last):
    """What `flows` lists for bars first..last (the same query a tap or a sweep makes)."""
    return t.ask("flows", "--since", iso_second(first["start"]), "--until", iso_second(last["start"], last["seconds"]))


# --- access and the introduction -----------------------------------------------------------------
def test_access_needs_the_key(t):
    t.b.go(t.server.origin + "/")
    check("tunnelvision ui" in t.b.driver.page_source and "open the address" in t.b.driver.page_source,
          f"without the key the app must refuse and say what to open; it showed {t.b.driver.page_source[:300]!r}")
    t.b.go(t.server.url)
    t.b.wait(lambda: urllib.parse.urlsplit(t.b.driver.current_url).query == "", 10, "the key stayed in the address bar")


def test_a_browser_opened_for_the_owner_gets_in(t):
    """`tunnelvision ui` on a display opens the browser with xdg-open (here a stand-in that notes
    its arguments) on a private page, never on the address; Chromium opening that page is let in,
    and the page is removed once its key is used."""
    work = os.path.join(t.scratch, "opened")
    runtime, bin_dir, noted = os.path.join(work, "runtime"), os.path.join(work, "bin"), os.path.join(work, "argv")
    for directory in (work, runtime, bin_dir):
        os.mkdir(directory, 0o700)
    opener = os.path.join(bin_dir, "xdg-open")
    with open(opener, "w") as script:
        script.write(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {noted}.tmp && mv {noted}.tmp {noted}\n")
    os.chmod(opener, 0o700)
    environment = {"PATH": f"{bin_dir}:/usr/bin:/bin", "DISPLAY": ":99", "XDG_RUNTIME_DIR": runtime,
                   "HOME": os.environ.get("HOME", "/root")}
    served = subprocess.Popen([t.binary, "ui", "--json", "--data-dir", t.data_dir], env=environment,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        served.stdout.readline()
        page = t.b.wait(lambda: os.path.exists(noted) and open(noted).read().strip(), 10, "xdg-open was never run")
        check(page.startswith(runtime + "/") and "key" not in page, f"xdg-open was given {page!r}, not a private page")
        t.b.go("file://" + page)
        t.b.wait(lambda: t.b.driver.current_url.startswith("http://") and not urllib.parse.urlsplit(t.b.driver.current_url).query,
                 10, f"the page did not lead into the app: {t.b.driver.current_url}")
        port = urllib.parse.urlsplit(t.b.driver.current_url).port
        t.b.wait(lambda: t.b.driver.title == "TunnelVision" and t.b.css("main"), 10,
                 f"the app was not drawn: {t.b.driver.title!r} {t.b.driver.page_source[:200]!r}")
        check(any(c["name"] == f"tunnelvision_session_{port}" for c in t.b.driver.get_cookies()), "no session cookie")
        t.b.wait(lambda: not os.path.exists(page), 10, "the page outlived its key")
    finally:
        served.terminate()
        served.wait(timeout=10)
        t.b.go(t.server.url)


def test_introduction_first_open(t):
    t.b.wait(lambda: t.b.driver.current_url.endswith("#/welcome"), 10, "the first open did not show the introduction")
    t.b.wait_text("1 of 3")
    t.shoot("welcome")
    t.b.one("button", "Next", exact=True).click()
    t.b.wait_text("2 of 3")
    t.b.one("button", "Skip", exact=True).click()
    t.b.one("heading", "Timeline", exact=True)
    t.b.go(t.server.origin + "/")
    t.b.wait(lambda: t.b.driver.current_url.endswith("#/timeline"), 10, "a skipped introduction came back on the next open")


def test_introduction_last_card_says_what_start_does(t):
    # Its Start really starts monitoring the host: pressed only in a namespace that plays the host
    # (run_monitoring_tests.py), never here, where the server runs in the machine's own.
    t.b.route("#/welcome")
    t.b.wait_text("1 of 3")
    t.b.press("button", "Next", exact=True)
    t.b.press("button", "Next", exact=True)
    t.b.wait_text("3 of 3")
    check(t.b.find("button", "Not now", exact=True) and not t.b.find("button", "Skip", exact=True),
          "the last card's way out is 'Not now', not 'Skip'")
    t.b.one("button", "Start monitoring", exact=True)
    t.b.wait_text("Start monitoring watches the host (the namespace the service runs in) until you stop it.")
    t.b.wait_text("sudo tunnelvision run -- COMMAND")
    t.b.press("button", "Not now", exact=True)
    t.b.one("heading", "Timeline", exact=True)


def test_keyboard_reaches_every_timeline_control(t):
    open_timeline(t)
    t.b.wait(lambda: rows(t) and bars(t), 10, "the timeline did not draw")
    t.b.driver.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
    body = t.b.driver.find_element("css selector", "body")
    reached = []
    for _ in range(40):
        body = t.b.driver.switch_to.active_element
        body.send_keys(Keys.TAB)
        reached.append(t.b.driver.execute_script("""const e = document.activeElement;
            return e.getAttribute('role') || e.getAttribute('type') || e.tagName.toLowerCase()"""))
        if "a" in reached[-1:] and t.b.driver.execute_script("return !!document.activeElement.dataset.flow"):
            break
    for wanted in ("slider", "search", "submit", "checkbox", "select-one"):
        check(wanted in reached or (wanted == "select-one" and "select" in reached), f"Tab never reached a {wanted}: {reached}")
    check(t.b.driver.execute_script("return !!document.activeElement.dataset.flow"), f"Tab never reached a row: {reached}")
    outline = t.b.driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    check(outline != "none", "the focused row shows no focus ring")


# --- the timeline ----------------------------------------------------------------------------------
def test_timeline_rows_are_the_commands(t):
    open_timeline(t)
    page = t.ask("flows")
    wait_rows(t, len(page["flows"]), "the first page")
    first, drawn = page["flows"][0], rows(t)[0]
    host = first["name"] or first["remote"]["address"]
    check(host in drawn.text, f"the first row should name {host!r}: {drawn.text!r}")
    heads = [cell.text for cell in t.b.css("ul.rows[aria-labelledby=list-title] > li.rows-head [role=columnheader]")]
    check("↓" in drawn.text and "↑" in drawn.text and ("received" in drawn.text and "sent" in drawn.text
                                                      or "Received" in heads and "Sent" in heads),
          f"a row says what it moved, both ways, with arrows (named in the row or by its column): {drawn.text!r} {heads!r}")
    drawn_rows = t.b.driver.execute_script("""return [...document.querySelectorAll('ul.rows li.row:not(.burst)')].map(r => ({
        flow: r.querySelector('a').dataset.flow, status: r.className, text: r.innerText,
        icon: !!r.querySelector('svg.status-icon'), label: r.querySelector('.status')?.textContent,
        behindDisclosure: !!r.closest('details:not([open])')}))""")
    words = {status["id"]: status for status in page["choices"]["statuses"]}   # the command's own words
    for flow, row in zip(page["flows"], drawn_rows):
        check(row["flow"] == str(flow["id"]), f"rows out of the command's order: {row['flow']} where {flow['id']} is")
        check(row["status"].endswith(f"status-{flow['tlsStatus']}"), f"row {flow['id']}'s status class")
        check(row["icon"] and row["label"] == words[flow["tlsStatus"]]["label"],
              f"row {flow['id']}: the status by icon and label, not colour alone: {row}")
        if words[flow["tlsStatus"]]["written"] and not row["behindDisclosure"]:
            check(words[flow["tlsStatus"]]["label"] in row["text"], f"a departure from encrypted is written out: {row['text']!r}")
        if flow["statusNote"] and not row["behindDisclosure"]:
            check(flow["statusNote"] in row["text"], f"row {flow['id']} does not say why: {row['text']!r}")
    footer = t.b.driver.find_element("css selector", ".list-footer").text
    if page["hasMore"]:
        check("Load older" in footer or "Keep looking" in footer, f"more history, but no way to it: {footer!r}")
    else:
        check("whole history" in footer, f"the footer should say this is all: {footer!r}")
    t.shoot("timeline")


def test_a_burst_is_one_row_that_opens_onto_its_connections(t):
    open_timeline(t)
    page = t.ask("flows")
    wait_rows(t, len(page["flows"]), "the first page")
    check(page["bursts"], "the demo's history has a burst of parallel requests on its first page")
    top = t.b.css("ul.rows > li.row")
    in_bursts = sum(b["count"] for b in page["bursts"])
    check(len(top) == len(page["flows"]) - in_bursts + len(page["bursts"]),
          f"{len(top)} rows for {len(page['flows'])} connections in {len(page['bursts'])} bursts")
    burst = page["bursts"][0]
    row = t.b.driver.find_element("css selector", f'li.row.burst[data-burst="{burst["ids"][0]}"]')
    check(burst["summary"] in row.text and f'{burst["count"]} × {burst["host"]}' in row.text,
          f"the burst's row says what the listing says: {row.text!r}")
    inner = row.find_elements("css selector", "ul.burst-rows li.row a")
    check(len(inner) == burst["count"] and not inner[0].is_displayed(), "the burst's connections wait behind its disclosure")
    row.find_element("css selector", "summary").click()
    t.b.wait(lambda: inner[0].is_displayed(), 5, "opening the burst did not show its connections")
    check([a.get_attribute("data-flow") for a in inner] == [str(i) for i in burst["ids"]], "the burst's rows in the listing's order")
    t.shoot("timeline-burst")
    inner[0].click()
    t.b.wait(lambda: t.b.driver.current_url.endswith(f"#/flow/{burst['ids'][0]}"), 10, "a burst's row did not open its connection")


def test_search_applies_on_submit(t):
    open_timeline(t)
    everything = t.ask("flows")
    wait_rows(t, len(everything["flows"]), "before searching")
    named = next((f["name"] for f in everything["flows"] if f["name"]), None) or everything["flows"][0]["remote"]["address"]
    term = named.split(".")[0]
    box = t.b.one("searchbox", "Search connections")
    box.clear()
    box.send_keys(term)
    time.sleep(1.0)
    check(len(rows(t)) == len(everything["flows"]), "typing alone filtered the list: search applies on submit")
    t.b.one("button", "Search", exact=True).click()
    expected = t.ask("flows", "--search", term)
    wait_rows(t, len(expected["flows"]), f"after searching {term!r}")
    box.clear()
    box.send_keys("no-such-host-anywhere")
    box.send_keys(Keys.ENTER)
    t.b.wait_text("No connections match")
    t.shoot("timeline-no-match")
    t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(everything["flows"]), "after Clear filters")


def drawn_ids(t):
    """The connections drawn, in order (a burst's, behind its disclosure, at its place)."""
    return t.b.driver.execute_script("""return [...document.querySelectorAll('ul.rows li.row:not(.burst) a.row-link')]
        .map(a => Number(a.dataset.flow))""")


def wait_listed(t, search, message):
    """Waits until the rows are the connections `flows --search SEARCH` lists, in its order."""
    expected = [f["id"] for f in t.ask("flows", "--search", search)["flows"]]
    t.b.wait(lambda: drawn_ids(t) == expected and not t.b.css(".list-status .loading"), 15,
             f"{message}: the rows should be {expected} (flows --search {search!r}), the screen has {drawn_ids(t)}")
    return expected


def search_problem(t, search):
    """The sentence `flows --search SEARCH` refuses it with (exit status 2), without the command's prefix."""
    result = subprocess.run([t.binary, "flows", "--search", search, "--data-dir", t.data_dir], capture_output=True, text=True, timeout=60)
    first = (result.stderr.splitlines() or [""])[0]
    prefix = "tunnelvision: flows: --search: "
    check(result.returncode == 2 and first.startswith(prefix), f"flows --search {search!r} should be refused: {result.returncode} {first!r}")
    return first[len(prefix):]


def search_for(t, text):
    box = t.b.one("searchbox", "Search connections")
    box.clear()
    box.send_keys(text)
    box.send_keys(Keys.ENTER)
    return box


def test_a_query_narrows_the_rows_as_flows_does(t):
    """Keys in any case, a comma list, negation, an exact address and a CIDR block: each query
    typed in the search draws what `flows --search` lists, and stays in the box."""
    open_timeline(t)
    everything = t.ask("flows")
    wait_rows(t, len(everything["flows"]), "before searching")
    tcp = next(f for f in everything["flows"] if f["protocol"] == "tcp" and f["remote"])
    port, address = tcp["remote"]["port"], tcp["remote"]["address"]
    block = ".".join(address.split(".")[:2]) + ".0.0/16" if "." in address else address.split(":")[0] + "::/16"
    queries = [f"PORT:{port},53 -proto:udp", address, f"{block} -port:{port}", f"{tcp['name'] or address} status:{tcp['tlsStatus']}"]
    try:
        for query in queries:
            box = search_for(t, query)
            expected = wait_listed(t, query, f"after searching {query!r}")
            check(expected and expected != [f["id"] for f in everything["flows"]], f"{query!r} should narrow the list, not empty it")
            check(box.get_attribute("value") == query, f"the box should keep {query!r}: {box.get_attribute('value')!r}")
            if query == queries[0]:
                t.shoot("timeline-query")
    finally:
        t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(everything["flows"]), "after Clear filters")


def test_a_malformed_query_is_said_beside_the_field(t):
    """A query that cannot be read is refused with the command's sentence beside the field (an
    alert the field is described by); the text stays to be corrected, the list as it was."""
    open_timeline(t)
    everything = t.ask("flows")
    wait_rows(t, len(everything["flows"]), "before searching")
    try:
        for query in ("news port:abc", "foo:bar", 'host:"unclosed', "198.18.0.0/33"):
            problem = search_problem(t, query)
            box = search_for(t, query)
            alert = t.b.wait(lambda: [a for a in t.b.find("alert") if problem in a.text], 10,
                             f"no alert saying {problem!r} after {query!r}")[0]
            check(alert.get_attribute("id") == "search-problem", f"the sentence should be the field's: {alert.get_attribute('id')}")
            check(box.get_attribute("value") == query, f"the person's text should stay: {box.get_attribute('value')!r}")
            check(box.get_attribute("aria-invalid") == "true" and "search-problem" in box.get_attribute("aria-describedby"),
                  "the field should be marked invalid and described by the sentence")
            check(len(rows(t)) == len(everything["flows"]), "a refused search should leave the list as it was")
            if query == "news port:abc":
                t.shoot("timeline-query-refused")
        # Corrected, the sentence goes and the list narrows.
        box = search_for(t, "news port:443")
        wait_listed(t, "news port:443", "after correcting the search")
        t.b.wait(lambda: not t.b.find("alert"), 10, "the sentence stayed after the search was corrected")
        check(box.get_attribute("aria-invalid") is None, "the corrected field is still marked invalid")
    finally:
        t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(everything["flows"]), "after Clear filters")


def test_a_rows_host_port_and_program_filter_by_it(t):
    """Each row's host, port and program has a button named for it; a click adds its term to the
    search, once, and the list is what `flows --search` lists for the whole search."""
    open_timeline(t)
    page = t.ask("flows")
    wait_rows(t, len(page["flows"]), "the first page")
    in_bursts = {i for burst in page["bursts"] for i in burst["ids"]}
    flow = next(f for f in page["flows"] if f["id"] not in in_bursts and f["name"] and f["remote"]
                and f["protocol"] in ("tcp", "udp") and (f["program"] or {}).get("state") == "program")
    host, port, command = flow["name"], flow["remote"]["port"], flow["program"]["command"]
    box = t.b.one("searchbox", "Search connections")
    try:
        search = ""
        for name, term in ((f"Filter by host {host}", f"host:{host}"), (f"Filter by port {port}", f"port:{port}"),
                           (f"Filter by program {command}", f"program:{command}")):
            t.b.press("button", name, exact=True)
            search = f"{search} {term}".strip()
            t.b.wait(lambda: box.get_attribute("value") == search, 10, f"{name} should make the search {search!r}: {box.get_attribute('value')!r}")
            wait_listed(t, search, f"after {name}")
            check(t.b.driver.execute_script("return document.activeElement.id") == "search", f"after {name}, focus should be on the search")
        t.shoot("timeline-filtered-from-a-row")
        # The same host again adds nothing: once its click is handled (focus is back on the search,
        # the handler's last step) the search is as it was.
        t.b.driver.execute_script("document.activeElement.blur()")
        t.b.press("button", f"Filter by host {host}", exact=True)
        t.b.wait(lambda: t.b.driver.execute_script("return document.activeElement.id") == "search", 10,
                 "the second click on the host's filter was not handled")
        check(box.get_attribute("value") == search, f"a term already there is not added twice: {box.get_attribute('value')!r}")
    finally:
        t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(page["flows"]), "after Clear filters")


def test_filters_by_protocol_and_status(t):
    open_timeline(t)
    t.b.one("checkbox", "UDP").click()
    wait_rows(t, len(t.ask("flows", "--protocol", "udp")["flows"]), "UDP only")
    t.b.one("checkbox", "Not encrypted").click()
    wait_rows(t, len(t.ask("flows", "--protocol", "udp", "--status", "plaintext")["flows"]), "UDP and not encrypted")
    t.b.one("combobox", "Time").send_keys("Last hour")
    wait_rows(t, len(t.ask("flows", "--protocol", "udp", "--status", "plaintext", "--since", "1h")["flows"]), "and the last hour")
    t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(t.ask("flows")["flows"]), "after Clear filters")


def test_rows_name_their_program_which_filters_them(t):
    """Each row says the program that opened it (the listing's label); the Program field asks
    `flows --program`."""
    open_timeline(t)
    page = t.ask("flows")
    wait_rows(t, len(page["flows"]), "the first page")
    named = [f for f in page["flows"] if f["program"] and f["program"]["state"] == "program"]
    check(named, "the demo's connections name the programs that made them")
    drawn = t.b.driver.execute_script("""return Object.fromEntries([...document.querySelectorAll('ul.rows li.row:not(.burst)')]
        .map(r => [r.querySelector('a').dataset.flow, r.querySelector('.program')?.textContent ?? null]))""")
    for flow in page["flows"]:
        label = flow["program"]["label"] if flow["program"] else None
        check(drawn[str(flow["id"])] == (None if label in (None, "-") else "Program: " + label),
              f"row {flow['id']} should say its program {label!r}: {drawn[str(flow['id'])]!r}")
    # The program with the fewest connections on the page: asking for it narrows the list.
    commands = [f["program"]["command"] for f in named]
    command = min(set(commands), key=commands.count)
    try:
        box = t.b.one("searchbox", "Program")
        box.clear()
        box.send_keys(command.upper())
        box.send_keys(Keys.ENTER)
        expected = t.ask("flows", "--program", command.upper())
        check(expected["flows"] and all(f["program"]["command"] == command for f in expected["flows"]),
              f"--program {command.upper()} lists {command}'s connections only")
        wait_rows(t, len(expected["flows"]), f"the connections of {command}")
        t.b.one("button", "Clear filters", exact=True).click()
        wait_rows(t, len(page["flows"]), "after Clear filters")
        # The per-page grouping is gone (one grouping, the whole history's: timeline_sort's test).
        check("programGroups" not in page, "the listing no longer groups its page by program")
    finally:
        # The Timeline keeps its filters across visits: the next test starts from none.
        t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(page["flows"]), "ungrouped, unfiltered again")


def test_status_filter_offers_every_status_in_the_commands_words(t):
    """The Encryption boxes are the listing's own `choices`, Broken by inspection among them; each
    narrows the list as `flows --status` does — none broken in a history is said as no match."""
    open_timeline(t)
    page = t.ask("flows")
    wait_rows(t, len(page["flows"]), "the first page")
    drawn = t.b.driver.execute_script("""return [...document.querySelectorAll('fieldset.statuses label.check')]
        .map((label) => [label.querySelector('input').value, label.textContent.trim()])""")
    offered = [[status["id"], status["label"]] for status in page["choices"]["statuses"]]
    check(drawn == offered, f"the Encryption boxes are {drawn}, the command offers {offered}")
    check(["inspectionFailed", "Broken by inspection"] in drawn, f"no Broken by inspection box: {drawn}")
    t.b.one("checkbox", "Broken by inspection", exact=True).click()
    broken = t.ask("flows", "--status", "inspectionFailed")
    if broken["flows"]:
        wait_rows(t, len(broken["flows"]), "broken by inspection only")
        check(all("Broken by inspection" in row.text for row in rows(t)), "a row without its Broken by inspection badge")
    else:
        t.b.wait_text("No connections match")
    t.shoot("timeline-broken-by-inspection")
    t.b.one("checkbox", "Encrypted", exact=True).click()
    wait_rows(t, len(t.ask("flows", "--status", "inspectionFailed,encrypted")["flows"]), "broken or encrypted")
    t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(page["flows"]), "after Clear filters")


def test_inspector_says_why_a_connection_was_not_inspected(t):
    """A secure connection the demo did not inspect says why in its Encryption card, in the words
    of `flow ID` (text and JSON); its badge is the command's label."""
    listing = t.ask("flows", "--protocol", "tcp", "--status", "encrypted")
    chosen = next((flow for flow in listing["flows"] if flow["inspectionReason"]), None)
    check(chosen, f"the demo's history should hold a secure connection that was not inspected: {listing['flows'][:3]}")
    answer = t.ask("flow", str(chosen["id"]))
    said = next((fact["text"] for fact in answer["handshake"] if fact["label"] == "inspection"), None)
    check(said == chosen["inspectionSentence"], f"flow ID says {said!r}, flows says {chosen['inspectionSentence']!r}")
    t.b.route(f"#/flow/{chosen['id']}")
    t.b.one("heading", "Encryption", exact=True)
    drawn = t.b.wait(lambda: dict(zip([dt.text for dt in t.b.css(".facts.handshake dt")], [dd.text for dd in t.b.css(".facts.handshake dd")])),
                     10, "the Encryption card lists no handshake facts")
    check(drawn.get("Inspection") == said, f"the card says {drawn.get('Inspection')!r}, the command {said!r}")
    badge = t.b.css(".facts.six .status-label")
    check(badge and badge[0].text == answer["encryptionLabel"], f"the badge reads {badge[0].text if badge else None!r}")
    text = subprocess.run([t.binary, "flow", str(chosen["id"]), "--data-dir", t.data_dir], capture_output=True, text=True,
                          timeout=60).stdout
    check(f"    inspection: {said}\n" in text, f"`flow {chosen['id']}` does not say why: {text[:600]!r}")
    t.shoot("inspector-not-inspected")


def test_load_older_follows_the_cursor(t):
    open_timeline(t)
    first = t.ask("flows")
    wait_rows(t, len(first["flows"]), "the first page")
    check(first["hasMore"], "the history for this test must hold more than one page (run the demo again into it)")
    t.b.one("button", "Load older connections", exact=True).click()
    second = t.ask("flows", "--after", first["next"])
    wait_rows(t, len(first["flows"]) + len(second["flows"]), "after Load older")
    last = rows(t)[-1].find_element("css selector", "a").get_attribute("data-flow")
    check(last == str(second["flows"][-1]["id"]), f"the last row should be connection {second['flows'][-1]['id']}, not {last}")


# --- the scrub bar ---------------------------------------------------------------------------------
def test_axis_is_the_whole_history_whatever_the_filter(t):
    open_timeline(t)
    t.b.wait(lambda: bars(t), 10, "no bars drawn")
    facts = bar_facts(t)
    total = t.ask("activity", "--bars", str(len(facts)))["totalPackets"]
    check(sum(f["packets"] for f in facts) == total, f"the bars hold {sum(f['packets'] for f in facts)} packets, the history {total}")
    # Found and read afresh: the chart may draw its slider again as it settles (a reference taken
    # before the bars went stale in one CI run); a stale read is asked again.
    valuemax = t.b.wait(lambda: t.b.one("slider", "Activity of all connections", exact=True).get_attribute("aria-valuemax"),
                        10, "no slider to read")
    check(valuemax == str(len(facts)), f"the slider's range is {valuemax}, the bars {len(facts)}")
    check("whatever the list's filter" in t.b.text(), "the axis must say it ignores the list's filter")
    t.b.one("checkbox", "UDP").click()
    wait_rows(t, len(t.ask("flows", "--protocol", "udp")["flows"]), "UDP only")
    check([f["packets"] for f in bar_facts(t)] == [f["packets"] for f in facts], "a filter changed the axis")
    t.b.one("button", "Clear filters", exact=True).click()


def click_bar(t, index):
    bar = bars(t)[index]
    ActionChains(t.b.driver).move_to_element(bar).click().perform()


def zoomable_index(t):
    facts = bar_facts(t)
    candidates = [i for i, f in enumerate(facts) if f["zoom"]]
    check(candidates, f"no bar can be entered on this axis: {facts}")
    return max(candidates, key=lambda i: facts[i]["packets"]), facts


def caption(t):
    return t.b.driver.find_element("css selector", "#axis-caption").text


def test_tap_zooms_back_and_all(t):
    t.b.driver.set_window_size(420, 1000)   # fewer, wider bars, so there are levels to go through
    try:
        t.b.driver.refresh()
        open_timeline(t)
        t.b.wait(lambda: bars(t), 10, "no bars drawn")
        top = caption(t)
        index, facts = zoomable_index(t)
        tapped = facts[index]
        click_bar(t, index)
        t.b.one("button", "Back", exact=True)
        t.b.wait(lambda: caption(t) != top, 10, "the axis did not zoom")
        wait_rows(t, len(flows_between(t, tapped, tapped)["flows"]), "the tapped bar's connections")
        inner = bar_facts(t)
        check(sum(f["packets"] for f in inner) == tapped["packets"], f"the zoomed axis holds {sum(f['packets'] for f in inner)} "
              f"packets, the bar tapped {tapped['packets']}")
        check(not t.b.find("button", "All", exact=True), "All is offered only past the first level")
        t.shoot("timeline-zoomed")
        index, facts = zoomable_index(t)
        second = caption(t)
        click_bar(t, index)
        t.b.one("button", "All", exact=True)
        t.b.wait(lambda: caption(t) != second, 10, "the second zoom did not happen")
        t.b.one("button", "Back", exact=True).click()
        t.b.wait(lambda: caption(t) == second and not t.b.find("button", "All", exact=True), 10, "Back did not go up one level")
        index, facts = zoomable_index(t)
        click_bar(t, index)
        t.b.one("button", "All", exact=True).click()
        t.b.wait(lambda: caption(t) == top and not t.b.find("button", "Back", exact=True), 10, "All did not return to the whole history")
        wait_rows(t, len(t.ask("flows")["flows"]), "the whole history again")
    finally:
        t.b.driver.set_window_size(1280, 900)
        t.b.driver.refresh()
        t.b.one("heading", "Timeline", exact=True)
        t.b.wait(lambda: bars(t), 10, "no bars after the window grew back")


def test_finest_bar_filters_without_zooming_and_releases(t):
    open_timeline(t)
    t.b.wait(lambda: bars(t), 10, "no bars drawn")
    # Go down until no bar can be entered: those are the finest.
    for _ in range(8):
        facts = bar_facts(t)
        if not any(f["zoom"] for f in facts):
            break
        click_bar(t, zoomable_index(t)[0])
        t.b.wait(lambda: bar_facts(t) != facts, 10, "the axis did not zoom")
    facts = bar_facts(t)
    busy = max(range(len(facts)), key=lambda i: facts[i]["packets"])
    before = caption(t)
    click_bar(t, busy)
    t.b.wait_text("The list shows connections active")
    check(caption(t) == before, "a finest bar was entered")
    wait_rows(t, len(flows_between(t, facts[busy], facts[busy])["flows"]), "the finest bar's connections")
    check(bar_facts(t)[busy]["selected"], "the tapped bar is not marked")
    click_bar(t, busy)
    t.b.wait(lambda: "The list shows connections active" not in t.b.text(), 10, "tapping the bar again did not release it")
    if t.b.find("button", "All", exact=True):
        t.b.one("button", "All", exact=True).click()
    elif t.b.find("button", "Back", exact=True):
        t.b.one("button", "Back", exact=True).click()
    t.b.wait(lambda: not t.b.find("button", "Back", exact=True), 10, "could not return to the whole history")


def sweep_bars(t, first, last):
    """Drags across bars first..last of the axis, from the middle of one to the middle of the other."""
    scrub = t.b.one("slider", "Activity of all connections", exact=True)
    boxes = t.b.driver.execute_script("return [...document.querySelectorAll('.scrub rect.hit')].map(r => r.getBoundingClientRect().toJSON())")
    box = scrub.rect
    start_x = boxes[first]["x"] + boxes[first]["width"] * 0.5 - (box["x"] + box["width"] / 2)
    distance = (boxes[last]["x"] + boxes[last]["width"] * 0.5) - (boxes[first]["x"] + boxes[first]["width"] * 0.5)
    (ActionChains(t.b.driver).move_to_element_with_offset(scrub, int(start_x), 0).click_and_hold()
        .move_by_offset(int(distance / 2), 0).move_by_offset(int(distance - int(distance / 2)), 0).release().perform())
    t.b.wait_text("The list shows connections active")


def test_drag_sweeps_whole_bars_without_zooming(t):
    open_timeline(t)
    t.b.wait(lambda: len(bars(t)) >= 3, 10, "fewer than three bars: nothing to sweep")
    facts = bar_facts(t)
    top = caption(t)
    first, last = 0, len(facts) - 2
    sweep_bars(t, first, last)
    check(caption(t) == top and not t.b.find("button", "Back", exact=True), "a sweep zoomed")
    selected = [i for i, f in enumerate(bar_facts(t)) if f["selected"]]
    check(selected == list(range(first, last + 1)), f"the sweep should mark bars {first}..{last}, it marks {selected}")
    wait_rows(t, len(flows_between(t, facts[first], facts[last])["flows"]), "the swept stretch's connections")
    t.shoot("timeline-swept")
    t.b.one("button", "Show the whole axis's connections").click()
    wait_rows(t, len(t.ask("flows")["flows"]), "after releasing the sweep")


def test_keyboard_moves_the_cursor_and_sweeps(t):
    open_timeline(t)
    t.b.wait(lambda: len(bars(t)) >= 3, 10, "fewer than three bars")
    facts = bar_facts(t)
    scrub = t.b.one("slider", "Activity of all connections", exact=True)
    count = len(facts)
    t.b.driver.execute_script("arguments[0].focus()", scrub)
    scrub.send_keys(Keys.HOME)
    t.b.wait(lambda: scrub.get_attribute("aria-valuetext").startswith(f"Interval 1 of {count}"), 5, "Home did not go to the first interval")
    scrub.send_keys(Keys.ARROW_RIGHT)
    t.b.wait(lambda: scrub.get_attribute("aria-valuetext").startswith(f"Interval 2 of {count}"), 5, "the arrow did not move the cursor")
    scrub.send_keys(Keys.SHIFT + Keys.ARROW_RIGHT)
    t.b.wait(lambda: "sweeping intervals 2 to 3" in scrub.get_attribute("aria-valuetext"), 5,
             f"Shift+arrow did not sweep: {scrub.get_attribute('aria-valuetext')!r}")
    scrub.send_keys(Keys.ENTER)
    t.b.wait_text("The list shows connections active")
    wait_rows(t, len(flows_between(t, facts[1], facts[2])["flows"]), "the keyboard's sweep")
    scrub = t.b.one("slider", "Activity of all connections", exact=True)
    t.b.driver.execute_script("arguments[0].focus()", scrub)
    outline = t.b.driver.execute_script("""const c = document.querySelector('.scrub rect.bar.cursor');
        return c ? getComputedStyle(c).strokeWidth : null""")
    check(outline == "4px", f"the focused axis must show its cursor plainly (stroke {outline})")
    t.b.one("button", "Show the whole axis's connections").click()


# --- the inspector and packet detail --------------------------------------------------------------
def test_inspector_from_a_row(t):
    open_timeline(t)
    page = t.ask("flows")
    wait_rows(t, len(page["flows"]), "the first page")
    # A connection of a few dozen packets: a whole table for the screenshot and axe in good time.
    in_bursts = {i for burst in page["bursts"] for i in burst["ids"]}
    chosen = max((f for f in page["flows"] if f["packets"] <= 60 and f["id"] not in in_bursts), key=lambda f: f["packets"],
                 default=page["flows"][0])
    t.b.driver.find_element("css selector", f'a[data-flow="{chosen["id"]}"]').click()
    t.b.wait(lambda: t.b.driver.current_url.endswith(f"#/flow/{chosen['id']}"), 10, "the row did not open its connection")
    flow = t.ask("flow", str(chosen["id"]))
    t.b.one("heading", flow["name"] or flow["remote"], exact=True)
    terms = [e.text for e in t.b.css(".facts.six dt")]
    program = ["Program"] if flow["program"] else []
    proxy = ["Proxy request"] if flow.get("proxy") else []
    community = ["Community ID"] if flow["communityID"] else []
    check(terms == ["Protocol", "Encryption", "This machine", *program, "Other end", "First to last packet", "Moved", *proxy,
                    *community],
          f"the six facts, the program when it was asked, the proxy request and the Community ID when there are: {terms}")
    if flow.get("proxy"):
        said = t.b.driver.execute_script("""return [...document.querySelectorAll('.facts.six dt')]
            .find(e => e.textContent === 'Proxy request').nextElementSibling.textContent""")
        check(said == flow["proxy"]["text"], f"the proxy request as the command says it: {said!r}")
    if flow["communityID"]:
        said = t.b.driver.execute_script("""return [...document.querySelectorAll('.facts.six dt')]
            .find(e => e.textContent === 'Community ID').nextElementSibling.textContent""")
        check(said == flow["communityID"], f"the Community ID as the command gives it: {said!r}")
    if flow["program"]:
        said = t.b.driver.execute_script("""return [...document.querySelectorAll('.facts.six dt')]
            .find(e => e.textContent === 'Program').nextElementSibling.textContent""")
        check(said == flow["program"]["text"], f"the program in the command's words: {said!r}")
    t.b.wait(lambda: len(t.b.css("table.packets tbody tr")) == flow["shownPackets"], 10,
             f"the packets table should list {flow['shownPackets']}")
    titles = [e.text for e in t.b.css("table.packets tbody tr:nth-child(-n+5) td:nth-child(5)")]
    check(titles == [p["title"] for p in flow["packets"][:5]], f"packets by meaning: {titles}")
    link = t.b.one("link", "Download this connection's packets")
    href = link.get_attribute("href")
    check(href.endswith(f"/api/flows/{flow['id']}/capture.pcap"), f"download link {href}")
    t.b.driver.set_script_timeout(30)
    started = time.time()
    got = t.b.driver.execute_async_script("""const done = arguments[arguments.length - 1];
        fetch(arguments[0], {credentials: 'same-origin', headers: {'X-TunnelVision': '1'}}).then(async r => {
          const b = new Uint8Array(await r.arrayBuffer());
          done({status: r.status, disposition: r.headers.get('Content-Disposition'), magic: [...b.slice(0, 4)], size: b.length});
        }).catch(e => done({error: String(e)}));""", href)
    print(f"  download answered in {time.time() - started:.1f} s")
    check(got.get("status") == 200 and "attachment" in (got.get("disposition") or ""), f"the download: {got}")
    check(got["magic"] in ([0xd4, 0xc3, 0xb2, 0xa1], [0xa1, 0xb2, 0xc3, 0xd4], [0x4d, 0x3c, 0xb2, 0xa1], [0x0a, 0x0d, 0x0d, 0x0a]),
          f"the download is not a capture: starts {got['magic']}")
    t.shoot("inspector")
    t.flow_id = flow["id"]
    # The busiest: its list capped, the footer naming both numbers.
    busiest = t.ask("flow", str(max(page["flows"], key=lambda f: f["packets"])["id"]))
    t.b.route(f"#/flow/{busiest['id']}")
    t.b.wait(lambda: len(t.b.css("table.packets tbody tr")) == busiest["shownPackets"], 20,
             f"the packets table should list {busiest['shownPackets']}")
    if busiest["footer"]:
        t.b.wait_text(busiest["footer"][1:])


def tls_flows(t):
    """The history's TLS connections whose server answered, by the version it chose: {0x0303: flow, 0x0304: flow}."""
    found, after = {}, None
    while len(found) < 2:
        page = t.ask("flows", "--protocol", "tcp", *(["--after", after] if after else []))
        for listed in page["flows"]:
            if listed["nameSource"] != "sni":
                continue
            flow = t.ask("flow", str(listed["id"]))
            version = (flow["serverAnswer"] or {}).get("version")
            if version in (0x0303, 0x0304) and version not in found and flow["certificates"]:
                found[version] = flow
        after = page["next"]
        if not after:
            break
    check(set(found) == {0x0303, 0x0304}, f"the history should hold a TLS 1.2 and a TLS 1.3 connection; found {sorted(found)}")
    return found


def test_inspector_says_the_handshake_in_the_commands_words(t):
    flows = tls_flows(t)
    for version, flow in sorted(flows.items()):
        t.b.route(f"#/flow/{flow['id']}")
        t.b.one("heading", "Encryption", exact=True)
        drawn = t.b.wait(lambda: [(dt.text, dd.text) for dt, dd in zip(t.b.css(".facts.handshake dt"), t.b.css(".facts.handshake dd"))],
                         10, "the Encryption card lists no handshake facts")
        said = [(fact["label"][0].upper() + fact["label"][1:], fact["text"]) for fact in flow["handshake"]]
        check(drawn == said, f"connection {flow['id']}: the card says {drawn}, the command {said}")
        # The command's text form says the same words.
        text = subprocess.run([t.binary, "flow", str(flow["id"]), "--data-dir", t.data_dir], capture_output=True, text=True,
                              timeout=60).stdout
        for fact in flow["handshake"]:
            check(f"    {fact['label']}: {fact['text']}\n" in text, f"`flow {flow['id']}` does not say {fact['label']}: {fact['text']}")
        for _, words in drawn:
            check(not re.fullmatch(r"[0-9, ]+", words), f"a handshake fact is only numbers: {words!r}")
        expected = "TLS 1.2" if version == 0x0303 else "TLS 1.3"
        answered = dict(drawn).get("Server answered", "")
        check(answered.startswith(expected) and "cipher suite TLS_" in answered, f"the server's answer reads {answered!r}")
        # The hellos' fingerprints, as the command gives them, each named in full for a screen reader.
        prints = flow["fingerprints"] or {}
        check(prints.get("ja4") and prints.get("ja3") and prints.get("ja3s"), f"connection {flow['id']}: fingerprints {prints}")
        shown = {dt.find_element("css selector", "abbr").text: dd.find_element("css selector", "code").text
                 for dt, dd in zip(t.b.css(".facts.fingerprints dt"), t.b.css(".facts.fingerprints dd"))}
        check(shown == {"JA4": prints["ja4"], "JA3": prints["ja3"], "JA3S": prints["ja3s"]}, f"the fingerprints drawn: {shown}")
        names = [e.get_attribute("textContent") for e in t.b.css(".facts.fingerprints dt")]
        check(len(names) == 3 and all("fingerprint" in n for n in names), f"a fingerprint without its full name: {names}")
        check(prints["ja3Full"] in t.b.css(".facts.fingerprints")[0].text, "the JA3 string is shown beside its hash")
        subjects = [e.text for e in t.b.css("ol.chain li .subject")]
        check(subjects == [c["subject"] for c in flow["certificates"]["chain"]], f"the chain drawn: {subjects}")
        if version == 0x0303:
            check(len(subjects) == 3, f"the demo's TLS 1.2 server sends a chain of three; drawn {subjects}")
            t.shoot("inspector-tls12")
        else:
            check(dict(drawn).get("Certificates") == "encrypted (TLS 1.3)", f"TLS 1.3 certificates: {dict(drawn)}")


def test_packet_detail_bytes_headers_and_reasons(t):
    flow_id = getattr(t, "flow_id", None) or t.ask("flows")["flows"][0]["id"]
    t.b.route(f"#/flow/{flow_id}")
    t.b.wait(lambda: t.b.css("table.packets tbody tr a"), 10, "no packet links")
    t.b.css("table.packets tbody tr a")[0].click()
    t.b.wait(lambda: t.b.driver.current_url.endswith(f"#/flow/{flow_id}/packet/1"), 10, "the packet row did not open")
    packet = t.ask("flow", str(flow_id), "--packet", "1")
    t.b.one("heading", f"Packet 1: {packet['title']}", exact=True)
    dump = t.b.wait(lambda: t.b.css("pre.dump"), 10, "no bytes drawn")[0].text.splitlines()
    check(dump == packet["dump"], f"the dump should be the command's: {dump[:2]} vs {packet['dump'][:2]}")
    grid = [tuple(td.text for td in tr.find_elements("css selector", "td")) for tr in t.b.css("table.headers tbody tr")]
    check(grid == [(h["layer"], h["name"], h["value"]) for h in packet["headers"]], "the headers grid is the command's")
    t.shoot("packet")
    # A packet longer than the screen draws, or than the capture kept: said in words.
    for flow in t.ask("flows")["flows"]:
        big = next((p for p in t.ask("flow", str(flow["id"]))["packets"] if p["length"] > 2048), None) if flow["bytesIn"] > 2048 else None
        if big:
            detail = t.ask("flow", str(flow["id"]), "--packet", str(big["number"]))
            t.b.route(f"#/flow/{flow['id']}/packet/{big['number']}")
            t.b.one("heading", f"Packet {big['number']}: {detail['title']}", exact=True)
            if detail["bytesNotDrawn"] > 0:
                t.b.wait_text("more are not drawn here")
            check(detail["note"] is None or detail["note"][1:] in t.b.text(), f"the reason {detail['note']!r} is not said")
            check(detail["note"] or detail["bytesNotDrawn"], "a long packet with nothing said about its bytes")
            t.shoot("packet-long")
            break
    # A DNS packet reads as DNS.
    dns = next((f for f in t.ask("flows", "--protocol", "udp")["flows"] if f["remote"] and f["remote"]["port"] == 53), None)
    if dns:
        t.b.route(f"#/flow/{dns['id']}/packet/1")
        t.b.one("heading", "DNS", exact=True)
        reading = t.ask("flow", str(dns["id"]), "--packet", "1")["dns"]
        if reading and reading.get("lookedUp"):
            t.b.wait_text(reading["lookedUp"])
        t.shoot("packet-dns")


def test_missing_connection_says_so(t):
    t.b.route("#/flow/999999")
    t.b.one("heading", "No such connection")
    t.b.wait_text("no connection 999999 in the history")
    t.shoot("inspector-missing")


# --- the other screens ------------------------------------------------------------------------------
def test_dashboard_when_no_tunnel_runs(t):
    t.b.route("#/dashboard")
    t.b.one("heading", "Dashboard", exact=True)
    t.b.wait(lambda: "Monitoring is off" in t.b.text() or "The session has ended" in t.b.text(), 15, "no monitoring state")
    t.b.wait_text("sudo tunnelvision run -- COMMAND")
    t.b.wait(lambda: len(t.b.css("section ul.rows li.row")) == min(5, len(t.ask("flows")["flows"])), 10, "recent connections")
    t.b.wait_text("This session")
    t.shoot("dashboard-off")


def test_dashboard_says_when_its_server_is_gone(t):
    """A Dashboard whose server stopped stops claiming anything: within seconds it says the server
    is not answering, where it kept showing its last state and a frozen rate."""
    server = Server(t.options.server, t.binary, t.data_dir)
    t.servers.append(server)
    t.b.go(server.url)
    t.b.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
    t.b.route("#/dashboard")
    t.b.wait(lambda: "Monitoring is" in t.b.text() or "session has ended" in t.b.text(), 30, "the Dashboard never drew its state")
    server.stop()
    notice = lambda: t.b.driver.find_element("css selector", "#contact-notice").text
    t.b.wait(lambda: "The app's server is not answering" in notice(), 20, "the Dashboard did not say its server is gone")
    check("Is 'tunnelvision ui' still running?" in notice(), "the Dashboard does not say what to check")
    check("Monitoring is" not in t.b.text(), "the Dashboard still claims a monitoring state")
    check(not t.b.find("button", "Start monitoring", True), "a control is offered with no server behind it")
    t.shoot("dashboard-server-gone")
    t.b.go(t.server.url)   # back to the main server for the tests after


def test_dashboard_live(t):
    """The Dashboard open before a tunnel starts (the demo's, in its own lab), then live."""
    b = t.b
    live = t.start_live_demo()
    try:
        b.go(live.url)
        b.route("#/dashboard")
        b.wait(lambda: "Monitoring is off" in b.text() or "Monitoring is on" in b.text(), 30, "the dashboard never drew")
        b.wait(lambda: "Monitoring is on" in b.text(), 180, "the dashboard never saw the demo's tunnel live")
        received = b.wait(lambda: next((dd.text for dt, dd in zip(b.css(".counters dt"), b.css(".counters dd"))
                                        if dt.text == "Received" and dd.text != "0 B"), None), 60,
                          "this session's counters never moved while the tunnel was live")
        b.wait(lambda: b.css("svg.throughput polyline.received"), 10,
               "no throughput line drawn: " + str(b.driver.execute_script(
                   "return document.querySelector('svg.throughput')?.outerHTML ?? document.querySelector('main').innerText"))[:600])
        # A second a point: two seconds that moved the same bytes draw a flat start, so the line
        # is waited for until it rises or falls, not read once.
        points = lambda: b.driver.execute_script("return document.querySelector('svg.throughput polyline.received').getAttribute('points')")
        heights = lambda: {float(pair.split(",")[1]) for pair in points().split()}
        b.wait(lambda: len(heights()) > 1, 20, f"the received line stayed flat while {received} came in: {points()[:200]}")
        # The demo's traffic comes from its lab's server: a host with bytes both ways in the last minute.
        talker = b.wait(lambda: next((li.text for li in b.css("ol.talkers li.talker")
                                      if " received, " in li.text), None), 30,
                        "no top talker drawn while the tunnel was live: " + str(b.driver.execute_script(
                            "return document.querySelector('main').innerText"))[:600])
        check(re.fullmatch(r"\S.* [\d.]+ \S*B received, [\d.]+ \S*B sent", talker) is not None, f"a talker's line: {talker!r}")
        t.shoot("dashboard-live")
    finally:
        b.go(t.server.url)   # cookies do not tell ports apart: the other server's session replaced ours


def test_captures(t):
    t.b.route("#/captures")
    t.b.one("heading", "Captures", exact=True)
    listing = t.ask("captures")
    t.b.wait(lambda: len(t.b.css("li.capture")) == len(listing["captures"]), 10, "the capture files")
    names = [e.text for e in t.b.css(".capture-name")]
    check(names == [c["name"] for c in sorted(listing["captures"], key=lambda c: -c["sequence"])], f"newest first: {names}")
    for line in listing["roomLeft"]["lines"]:
        t.b.wait_text(line[1:])
    t.b.one("button", "Export all connections").click()
    with tempfile.TemporaryDirectory() as folder:
        summary = t.ask("export", "-o", os.path.join(folder, "connections.json"))
    t.b.wait_text(f"{summary['connections']} connections, ")
    t.shoot("captures")


def test_settings(t):
    t.b.route("#/settings")
    t.b.one("heading", "Settings", exact=True)
    detail = t.b.one("combobox", "Capture detail")
    check(detail.get_attribute("value") == {"fullPayload": "full", "metadataOnly": "metadata"}[t.ask("settings")["captureDetail"]],
          "the capture detail shown is not the stored one")
    t.b.wait_text("Nothing leaves this machine")
    storage = t.ask("storage")
    t.b.wait_text(f"{storage['history']['connections']} connections")
    t.shoot("settings")
    from selenium.webdriver.support.ui import Select
    Select(detail).select_by_value("metadata")
    t.b.wait(lambda: t.ask("settings")["captureDetail"] == "metadataOnly", 10, "the change was not saved")
    t.b.wait_text("Capture detail saved")
    Select(t.b.one("combobox", "Capture detail")).select_by_value("full")
    t.b.wait(lambda: t.ask("settings")["captureDetail"] == "fullPayload", 10, "the change back was not saved")
    t.b.press("button", "Show the introduction again")
    t.b.wait_text("1 of 3")
    t.b.one("button", "Skip", exact=True).click()


def test_diagnostics(t):
    t.b.route("#/diagnostics")
    t.b.one("heading", "Diagnostics", exact=True)
    t.b.wait_text(t.ask("diagnostics")["headline"]["text"])
    t.shoot("diagnostics")


def test_empty_history_teaches(t):
    empty = t.empty
    t.b.go(empty.url)
    t.b.route("#/timeline")
    t.b.wait_text("No connections recorded yet")
    t.b.wait_text("sudo tunnelvision run -- COMMAND")
    check(not t.b.css(".scrub"), "no history, yet an axis was drawn")
    t.shoot("timeline-empty")
    t.b.go(t.server.url)   # cookies do not tell ports apart: the other server's session replaced ours


def test_deleting_keeps_the_history_and_retention_returns_the_axis(t):
    """On a copy of the history: a capture deleted from Captures, then everything deleted under
    a zoomed axis — the axis comes back to the whole history and says why."""
    copy = t.copy_of_history()
    b = t.b
    try:
        b.go(copy.url)
        b.route("#/captures")
        listing = oracle_for(t, copy, "captures")
        deletable = [c for c in listing["captures"] if not c["recording"]]
        check(len(deletable) >= 1, f"no capture to delete: {listing}")
        victim = sorted(deletable, key=lambda c: c["sequence"])[0]
        connections = oracle_for(t, copy, "storage")["history"]["connections"]
        b.wait(lambda: len(b.css("li.capture")) == len(listing["captures"]), 10, "the capture files")
        b.driver.execute_script("window.confirm = () => true")   # the question is asked; the test answers yes
        b.press("button", f"Delete {victim['name']}", exact=True)
        b.wait_text("Its connections stay in the history; their bytes are gone")
        b.wait(lambda: len(b.css("li.capture")) == len(listing["captures"]) - 1, 10, "the deleted file is still listed")
        check(all(c["sequence"] != victim["sequence"] for c in oracle_for(t, copy, "captures")["captures"]), "the file was not deleted")
        check(oracle_for(t, copy, "storage")["history"]["connections"] == connections, "deleting a capture lost connections")
        t.shoot("captures-deleted")
        b.route("#/timeline")
        b.wait(lambda: bars(t), 10, "no bars drawn")
        click_bar(t, zoomable_index(t)[0])
        b.one("button", "Back", exact=True)
        oracle_for(t, copy, "storage", "clear", "--yes")
        b.route("#/diagnostics")
        b.route("#/timeline")
        b.wait_text("so the axis shows the whole history again", 15)
        b.wait_text("No connections recorded yet")
        check(not b.find("button", "Back", exact=True), "Back is still offered over a history that is gone")
        t.shoot("timeline-stretch-gone")
    finally:
        b.go(t.server.url)   # cookies do not tell ports apart: the other server's session replaced ours


def tag_as_evidence(data_dir, sequence):
    """Makes the connections with packets in capture `sequence` evidence of an ended audit session
    (audit.md § Retention), written as the store writes it: no command records an audit yet."""
    database = sqlite3.connect(os.path.join(data_dir, "TunnelVision.sqlite"))
    with database:
        project = database.execute("INSERT INTO audit_projects (name, created_at) VALUES ('Therapy app', 0)").lastrowid
        session = database.execute("""INSERT INTO audit_sessions (project_id, kind, device_model, os_version, tool_version,
            inspection_enabled, ca_trusted, started_at, ended_at) VALUES (?, 0, 'lab', 'Linux', 'test', 0, 0, 0, 1)""",
                                   (project,)).lastrowid
        database.execute("""UPDATE flows SET audit_session_id = ? WHERE id IN
            (SELECT flow_id FROM packets WHERE pcap_file = ? AND pcap_offset > 0)""", (session, sequence))
    database.close()


def test_deleting_audit_evidence_asks_first(t):
    """On a copy of the history whose oldest closed capture becomes audit evidence: a Delete
    everything asked before it did is refused by the server and asked again with its sentence;
    Captures marks the file and says so in its question, deleting it only on a yes; Delete
    everything then names how many connections are evidence, and deletes nothing on a no."""
    copy = t.copy_of_history()
    b = t.b
    answers = "window.asked = []; window.confirm = (q) => { window.asked.push(q); return window.answers.shift() ?? false; };"

    def asked(count):
        b.wait(lambda: b.driver.execute_script("return window.asked.length") == count, 10, f"{count} questions were not asked")
        return b.driver.execute_script("return window.asked")

    try:
        listing = oracle_for(t, copy, "captures")
        victim = sorted([c for c in listing["captures"] if not c["recording"]], key=lambda c: c["sequence"])[0]
        connections = oracle_for(t, copy, "storage")["history"]["connections"]
        b.go(copy.url)
        b.route("#/settings")
        b.wait_text("Delete everything")
        # The evidence appears after the screen read the storage: the server refuses, the screen asks with its sentence.
        tag_as_evidence(copy.data_dir, victim["sequence"])
        evidence = oracle_for(t, copy, "storage")["history"]["auditConnections"]
        check(evidence > 0, "no connection became evidence")
        b.driver.execute_script("window.answers = [true, false];" + answers)
        b.press("button", "Delete everything", exact=True)
        questions = asked(2)
        check("audit evidence" not in questions[0], f"the screen knew of evidence it never read: {questions[0]}")
        check(questions[1].startswith(f"Delete everything would delete {evidence} connection"), f"not the server's sentence: {questions[1]}")
        b.wait_text("Nothing was deleted.")
        check(oracle_for(t, copy, "storage")["history"]["connections"] == connections, "deleted on a no")
        # Captures marks the file and says so before deleting it.
        marked = [c for c in oracle_for(t, copy, "captures")["captures"] if c["evidence"]]
        check([c["sequence"] for c in marked] == [victim["sequence"]], f"the command marks {marked}")
        b.route("#/captures")
        b.wait_text("Audit evidence")
        b.driver.execute_script("window.answers = [false];" + answers)
        b.press("button", f"Delete {victim['name']}", exact=True)
        check("It holds audit evidence" in asked(1)[0], "the question did not say so")
        check(any(c["sequence"] == victim["sequence"] for c in oracle_for(t, copy, "captures")["captures"]), "deleted on a no")
        b.driver.execute_script("window.answers = [true];" + answers)
        b.press("button", f"Delete {victim['name']}", exact=True)
        b.wait_text("Its connections stay in the history; their bytes are gone")
        check(all(c["sequence"] != victim["sequence"] for c in oracle_for(t, copy, "captures")["captures"]), "not deleted on a yes")
        # Delete everything, read afresh, names the evidence in its own question.
        b.route("#/settings")
        b.wait_text("Delete everything")
        b.driver.execute_script("window.answers = [true];" + answers)
        b.press("button", "Delete everything", exact=True)
        check(f"({evidence} of them audit evidence" in asked(1)[0], "the question did not count the evidence")
        b.wait(lambda: oracle_for(t, copy, "storage")["history"]["connections"] == 0, 15, "not deleted on a yes")
    finally:
        b.go(t.server.url)   # cookies do not tell ports apart: the other server's session replaced ours


# --- Settings → Look inside secure traffic: the local CA's stages ----------------------------------
def openssl_fingerprint(path, *options):
    """What openssl (not the app) says the certificate's SHA-256 fingerprint is: the outside oracle."""
    out = subprocess.run(["openssl", "x509", *options, "-in", path, "-noout", "-fingerprint", "-sha256"],
                         capture_output=True, text=True, check=True).stdout.strip()
    return out.split("=", 1)[1]


def ca_drawn(t):
    """The card as drawn: its stage heading, fingerprint, buttons' names and the switch."""
    return t.b.driver.execute_script("""const card = document.querySelector('section.ca-card:not([aria-busy])');
        if (!card) return null;
        const box = card.querySelector('input[role=switch]');
        return {title: card.querySelector('h3')?.textContent, stage: card.querySelector('h3')?.dataset.stage,
                fingerprint: card.querySelector('.ca-fingerprint')?.textContent ?? null,
                controls: [...card.querySelectorAll('button, a.button')].map(e => e.textContent),
                on: box?.checked, disabled: box?.disabled, text: card.innerText}""")


def wait_stage(t, stage, message):
    return t.b.wait(lambda: (lambda d: d if d and d["stage"] == stage else None)(ca_drawn(t)), 15,
                    f"{message}: the card never showed stage {stage!r} (drawn: {ca_drawn(t)})")


def answer_dialog(t, expected, accept=True):
    """The page's question, a real dialog: its words must be the command's own, then yes or no."""
    alert = t.b.wait(lambda: t.b.driver.switch_to.alert, 10, "no dialog asked first")
    check(alert.text == expected, f"the dialog asked {alert.text!r}; the command asks {expected!r}")
    alert.accept() if accept else alert.dismiss()


def test_certificate_setup_stages(t):
    """Over a data directory of its own: no CA → Create → ready (openssl's fingerprint, the download
    is the file) → the switch → Remake asks and the fingerprint changes → Remove asks, the stage is
    back to no CA and inspection is off → a corrupt key is unreadable, with no Create."""
    b = t.b
    data = os.path.join(t.scratch, "ca")
    os.mkdir(data, 0o700)
    server = Server(t.options.server, t.binary, data)
    t.servers.append(server)
    root = os.path.join(data, "ca", "root.pem")
    ask = lambda *arguments: oracle(t.binary, data, *arguments)   # noqa: E731
    try:
        b.go(server.url)
        b.route("#/settings")
        b.one("heading", "Settings", exact=True)
        none = wait_stage(t, "none", "a fresh data directory")
        check(none["title"] == "Set up secure traffic inspection", f"no CA, yet the heading is {none['title']!r}")
        check(none["controls"] == ["Create the certificate"], f"no CA offers Create alone; drawn: {none['controls']}")
        check(none["disabled"] and not none["on"], "with no CA the inspection switch can be turned on")
        check(b.css("main section.card")[0].get_attribute("class").startswith("card ca-card"), "the card is not first in Settings")
        b.wait_text("Look inside secure traffic is off")
        t.shoot("settings-ca-none")

        b.press("button", "Create the certificate", exact=True)
        ready = wait_stage(t, "ready", "after Create")
        check(ready["title"] == "Manage your certificate", f"a ready CA is headed {ready['title']!r}")
        check(ready["fingerprint"] == openssl_fingerprint(root),
              f"fingerprint drawn {ready['fingerprint']!r}; openssl says {openssl_fingerprint(root)!r}")
        check(ask("ca", "show")["fingerprintSHA256"] == ready["fingerprint"], "the card and 'ca show' disagree")
        b.wait_text("created a local CA")
        b.wait_text("sudo tunnelvision run --inspect -- COMMAND")
        check(not ready["disabled"], "a ready CA, yet the switch cannot be turned on")
        t.shoot("settings-ca-ready")

        # The download the page links to: fetched by the page as the link would, compared to the file.
        link = b.one("link", "Download the certificate (PEM)", exact=True)
        check(link.get_attribute("download") == "tunnelvision-root-ca.pem", "the link is not a download")
        got = b.driver.execute_async_script("""const done = arguments[arguments.length - 1];
            fetch(arguments[0], {credentials: 'same-origin'}).then(async r => done({status: r.status,
              disposition: r.headers.get('Content-Disposition'), body: await r.text()}));""", link.get_attribute("href"))
        with open(root) as file:
            check(got["status"] == 200 and got["body"] == file.read(), f"the download is not ca/root.pem: {got['status']}")
        check(got["disposition"] == 'attachment; filename="tunnelvision-root-ca.pem"', f"Content-Disposition {got['disposition']!r}")
        check("PRIVATE KEY" not in got["body"], "the download holds a key")
        with tempfile.NamedTemporaryFile("w", suffix=".pem") as downloaded:
            downloaded.write(got["body"])
            downloaded.flush()
            check(openssl_fingerprint(downloaded.name) == ready["fingerprint"], "openssl reads another certificate in the download")

        b.press("switch", "Look inside secure traffic", exact=True)
        b.wait(lambda: ask("settings")["tlsInspectionEnabled"] is True, 10, "the switch did not turn inspection on")
        b.wait_text("Look inside secure traffic is on")
        check(wait_stage(t, "ready", "after the switch")["on"], "the switch is drawn off after turning it on")

        setup = ask("ca", "show")["setup"]
        b.press("button", "Remake the certificate", exact=True)
        answer_dialog(t, setup["remakeQuestion"])
        b.wait(lambda: (ca_drawn(t) or {}).get("fingerprint") not in (None, ready["fingerprint"]), 15, "Remake did not change the fingerprint")
        remade = wait_stage(t, "ready", "after Remake")
        check(remade["fingerprint"] == openssl_fingerprint(root), "after Remake the card and openssl disagree")
        check(ask("settings")["tlsInspectionEnabled"] is False and not remade["on"], "Remake left inspection on")
        b.wait_text("created a new local CA")

        b.press("switch", "Look inside secure traffic", exact=True)
        b.wait(lambda: ask("settings")["tlsInspectionEnabled"] is True, 10, "the switch did not turn inspection on again")
        wait_stage(t, "ready", "after the switch again")
        b.press("button", "Remove the certificate", exact=True)
        answer_dialog(t, setup["removeQuestion"], accept=False)
        time.sleep(0.5)
        check(os.path.exists(root) and ask("ca", "show")["status"] == "created", "answering no to Remove removed the CA")
        b.press("button", "Remove the certificate", exact=True)
        answer_dialog(t, setup["removeQuestion"])
        gone = wait_stage(t, "none", "after Remove")
        check(gone["controls"] == ["Create the certificate"] and gone["disabled"], f"after Remove: {gone}")
        check(ask("settings")["tlsInspectionEnabled"] is False, "Remove left inspection on")
        check(not os.path.exists(root), "Remove left ca/root.pem")
        b.wait_text("turned TLS inspection off")

        # A corrupt key: unreadable, never Create — doubt closes the door.
        ask("ca", "create")
        with open(os.path.join(data, "ca", "root-key.pem"), "w") as key:
            key.write("not a key\n")
        b.route("#/diagnostics")
        b.route("#/settings")
        unreadable = wait_stage(t, "unavailable", "over a corrupt key")
        problem = ask("ca", "show")["problem"]
        check(problem in unreadable["text"], f"the card does not say {problem!r}: {unreadable['text']!r}")
        check("Create the certificate" not in unreadable["controls"], f"Create offered over an unreadable CA: {unreadable['controls']}")
        check(unreadable["controls"] == ["Remove the certificate"], f"over an unreadable CA: {unreadable['controls']}")
        check(unreadable["disabled"], "the switch can be turned on over an unreadable CA")
        check(unreadable["title"] == "Set up secure traffic inspection", f"unreadable, yet headed {unreadable['title']!r}")
        t.shoot("settings-ca-unreadable")
    finally:
        server.stop()
        b.go(t.server.url)   # cookies do not tell ports apart: the other server's session replaced ours


def oracle_for(t, server, *arguments):
    from harness import oracle
    return oracle(t.binary, server.data_dir, *arguments)


def test_server_gone_gives_an_error_card(t):
    t.b.route("#/timeline")
    t.b.one("heading", "Timeline", exact=True)
    t.server.stop()
    t.b.route("#/captures")
    t.b.one("alert")
    t.b.wait_text("cannot be reached")
    t.b.one("button", "Try again", exact=True)
    t.shoot("error")


def fully_visible_rows(t):
    """Top-level rows of the list wholly inside the window (a burst's hidden rows are not drawn)."""
    return t.b.driver.execute_script("""return [...document.querySelectorAll('ul.rows[aria-labelledby=list-title] > li.row')].filter((row) => {
        const box = row.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight; }).length""")


def viewport(t, width, height):
    """The window sized so the page itself is width × height CSS pixels."""
    t.b.driver.set_window_size(width, height)
    inner_width, inner_height = t.b.driver.execute_script("return [innerWidth, innerHeight]")
    t.b.driver.set_window_size(2 * width - inner_width, 2 * height - inner_height)


def test_a_wide_screen_shows_twenty_connections_as_a_table(t):
    """At 1366×900, with the list scrolled to its first row, at least 20 connections are wholly on
    screen: a table under a header row of the listing's columns; at 390×844 each is a card and the
    first one is on the first screen."""
    try:
        viewport(t, 1366, 900)
        open_timeline(t)
        page = t.ask("flows")
        wait_rows(t, len(page["flows"]), "the first page")
        heads = [cell.text for cell in t.b.css("ul.rows[aria-labelledby=list-title] > li.rows-head [role=columnheader]")]
        check(heads == ["Last active", "Host", "Program", "Port", "Protocol", "Status", "Received", "Sent", "Packets", "Duration"],
              f"the table's columns: {heads!r}")
        # A burst is one row: older pages are loaded until the list has more rows than a screen could hold.
        while len(t.b.css("ul.rows[aria-labelledby=list-title] > li.row")) < 30 and t.b.find("button", "Load older connections"):
            before = len(t.b.css("ul.rows[aria-labelledby=list-title] > li.row"))
            t.b.press("button", "Load older connections", exact=True)
            t.b.wait(lambda: len(t.b.css("ul.rows[aria-labelledby=list-title] > li.row")) > before, 15, "Load older drew nothing")
        t.b.driver.execute_script("document.querySelector('ul.rows > li.row').scrollIntoView({block: 'start'})")
        seen = fully_visible_rows(t)
        print(f"  {seen} connections wholly on screen at 1366×900", flush=True)
        check(seen >= 20, f"only {seen} connections wholly on screen at 1366×900")
        t.shoot("timeline-1366")
        viewport(t, 390, 844)
        t.b.route("#/dashboard")
        t.b.one("heading", "Dashboard", exact=True)
        open_timeline(t)
        wait_rows(t, len(page["flows"]), "the first page on a phone")
        t.b.driver.execute_script("window.scrollTo(0, 0)")
        check(fully_visible_rows(t) >= 1, "the first connection is not on a phone's first screen (390×844)")
        shape = t.b.driver.execute_script("return getComputedStyle(document.querySelector('ul.rows > li.row-card')).display")
        check(shape == "flex", f"a phone's row is a card, not a table's line: {shape}")
        t.shoot("timeline-390")
    finally:
        t.b.driver.set_window_size(1280, 900)


def test_a_stretch_across_days_is_written_with_dates(t):
    """A history over three days of November 2025 (scapy writes the capture, `analyze` the
    history): the axis's caption, its spoken interval and the rows carry the date; the rows show
    the time they are sorted by, their last activity, as `flows` lists them."""
    folder = os.path.join(t.scratch, "days")
    os.makedirs(folder, exist_ok=True)
    capture = os.path.join(folder, "days.pcap")
    subprocess.run([sys.executable, "-c", DAYS_CAPTURE, capture], check=True, timeout=120)
    history = os.path.join(folder, "history")
    subprocess.run([t.binary, "analyze", capture, "--data-dir", history], check=True, capture_output=True, timeout=120)
    server = Server(t.options.server, t.binary, history)
    t.servers.append(server)
    t.b.go(server.url)
    t.b.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
    open_timeline(t)
    listed = oracle(t.binary, history, "flows")
    check(listed["clock"] == "date", f"flows says its rows' clock is {listed['clock']!r} for three days of 2025")
    wait_rows(t, len(listed["flows"]), "the three days' connections")
    caption = t.b.driver.find_element("css selector", "#axis-caption").text
    check("2025" in caption, f"the axis's caption over three days should carry dates: {caption!r}")
    spoken = t.b.driver.find_element("css selector", "[role=slider]").get_attribute("aria-valuetext")
    check("2025" in spoken, f"the slider's spoken interval should carry the date: {spoken!r}")
    drawn = t.b.driver.execute_script("""return [...document.querySelectorAll('ul.rows li.row:not(.burst) time')]
        .map((time) => [time.getAttribute('datetime'), time.textContent])""")
    check(drawn and all("2025" in text for _, text in drawn), f"each row's time should carry its date: {drawn[:3]!r}")
    check([when for when, _ in drawn] == [flow["lastSeen"] for flow in listed["flows"]],
          "each row shows its last activity, the time the list is sorted by")
    t.shoot("timeline-dates")
    t.b.go(t.server.url)   # back to the main history for the tests after


def test_the_list_exports_what_it_shows(t):
    """Export these connections: the CSV the Timeline hands over holds the connections its search
    keeps, as `export --csv` with that search writes them, read back by Python's csv."""
    import csv
    open_timeline(t)
    everything = t.ask("flows")
    wait_rows(t, len(everything["flows"]), "before searching")
    box = t.b.one("searchbox", "Search connections")
    box.clear()
    box.send_keys("proto:udp")
    t.b.one("button", "Search", exact=True).click()
    kept = oracle(t.binary, t.data_dir, "flows", "--search", "proto:udp", "--limit", "1000")["flows"]
    check(0 < len(kept) < len(everything["flows"]), f"the search should keep some connections, not all: {len(kept)}")
    folder = tempfile.mkdtemp(dir=t.scratch)
    t.b.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    t.b.one("button", "CSV", exact=True).click()
    saved = os.path.join(folder, "connections.csv")
    t.b.wait(lambda: os.path.exists(saved) and not [n for n in os.listdir(folder) if n.endswith(".crdownload")], 30,
             f"the CSV was never handed over: {os.listdir(folder)}")
    with open(saved, newline="") as file:
        rows_read = list(csv.DictReader(file))
    check([row["id"] for row in rows_read] == [str(flow["id"]) for flow in kept],
          "the CSV's connections are not the ones the search keeps, newest first")
    check(all(row["protocol"] == "udp" for row in rows_read), "the CSV holds a connection the search excluded")
    t.shoot("timeline-export")
    t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(everything["flows"]), "after Clear filters")


def growing_timeline(t, name, first_seconds_ago):
    """The Timeline of a history of its own (two connections `first_seconds_ago`), opened under a
    server of its own and marked to tell a reload; returns the history and `add(count,
    first_port, start)`, which writes that many TCP handshakes, one a second from `start`, as a
    capture and reads it into the history with `analyze`."""
    folder = os.path.join(t.scratch, name)
    os.makedirs(folder, exist_ok=True)
    history = os.path.join(folder, "history")

    def add(count, first_port, start):
        capture = os.path.join(folder, f"{first_port}.pcap")
        subprocess.run([sys.executable, "-c", HANDSHAKES_CAPTURE, capture, str(count), str(first_port), str(start)],
                       check=True, timeout=120)
        subprocess.run([t.binary, "analyze", capture, "--data-dir", history], check=True, capture_output=True, timeout=120)

    add(2, 41000, time.time() - first_seconds_ago)
    server = Server(t.options.server, t.binary, history)
    t.servers.append(server)
    t.b.go(server.url)
    t.b.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
    open_timeline(t)
    wait_rows(t, 2, "the first two connections")
    t.b.driver.execute_script("window.tvNotReloaded = true")
    return history, add


def test_the_open_timeline_takes_new_connections_without_a_reload(t):
    """A Timeline left open takes what the history gains: connections `analyze` adds while it is
    open appear on top of the list with no reload, the rows already there kept."""
    now = time.time()
    history, add = growing_timeline(t, "growing", 60)
    kept = t.b.css("ul.rows a[data-flow]")[1]
    add(3, 42000, now - 30)
    t.b.wait(lambda: len(t.b.css("ul.rows > li.row")) == 5, 30,
             f"the open Timeline did not take the three new connections: {len(t.b.css('ul.rows > li.row'))} rows")
    check(t.b.driver.execute_script("return window.tvNotReloaded === true"), "the Timeline was reloaded to show them")
    listed = [str(flow["id"]) for flow in oracle(t.binary, history, "flows")["flows"]]
    drawn = [a.get_attribute("data-flow") for a in t.b.css("ul.rows a[data-flow]")]
    check(drawn == listed, f"the open Timeline lists {drawn}, flows {listed}: newest first, as the command")
    check(kept.is_displayed(), "a row already drawn was replaced although it did not change")
    t.shoot("timeline-live")
    t.b.go(t.server.url)   # back to the main history for the tests after


def test_a_timeline_left_open_keeps_its_newest_rows_and_goes_on_past_them(t):
    """A Timeline left open does not grow without end: past the rows it loaded plus 1 000 its
    oldest rows go, and "Load older connections" goes on just past the last one kept. More new
    connections at once than it keeps: the list becomes the newest of them, and goes on past
    them. Each time the rows are the command's own, in its order, none skipped or repeated."""
    def listed(count):
        """The ids `flows` lists first, newest first, page after page."""
        ids, arguments = [], ["flows", "--limit", "1000"]
        while len(ids) < count:
            page = oracle(t.binary, history, *arguments)
            ids += [str(flow["id"]) for flow in page["flows"]]
            if not page["next"]:
                break
            arguments = ["flows", "--limit", "1000", "--after", page["next"]]
        return ids[:count]

    def drawn():
        return t.b.driver.execute_script("return [...document.querySelectorAll('ul.rows a[data-flow]')].map((a) => a.dataset.flow)")

    def row_count():
        return t.b.driver.execute_script("return document.querySelectorAll('ul.rows > li.row').length")

    def the_rows_are_the_commands(count, when):
        t.b.wait(lambda: row_count() == count and not t.b.css(".list-footer .loading"), 60,
                 f"{when}: expected {count} rows, the list has {row_count()}")
        shown, truth = drawn(), listed(count)
        check(shown == truth, f"{when}: the list differs from flows' first {count} at "
              f"{next((i for i, (a, b) in enumerate(zip(shown, truth)) if a != b), min(len(shown), len(truth)))}")
        footer = t.b.css(".list-footer")[0].text
        check(f"{count} connections shown." in footer and "Load older connections" in footer, f"{when}: the footer says {footer!r}")

    def load_older(count, when):
        t.b.press("button", "Load older connections")
        the_rows_are_the_commands(count, when)

    now = time.time()
    try:
        history, add = growing_timeline(t, "left-open", 4000)
        add(600, 42000, now - 3500)
        t.b.wait(lambda: row_count() == 602, 60, "the open Timeline did not take 600 new connections")
        # 600 more: 1 202 would be drawn; 2 loaded + 1 000 are kept, the 200 oldest go.
        add(600, 43000, now - 2800)
        the_rows_are_the_commands(1002, "past the limit")
        load_older(1102, "loading older after the limit")
        # 1 100 at once, more than the list keeps: it becomes the newest 1 000 and goes on past them.
        add(1100, 44000, now - 2100)
        the_rows_are_the_commands(1000, "more at once than the list keeps")
        # No axe here (a thousand rows take it minutes): the list's end, as drawn.
        t.b.driver.execute_script("document.querySelector('.list-footer').scrollIntoView({ block: 'end' })")
        t.shots.append(t.b.screenshot("timeline-left-open-end"))
        load_older(1100, "loading older after a flood")
        check(t.b.driver.execute_script("return window.tvNotReloaded === true"), "the Timeline was reloaded")
    finally:
        t.b.go(t.server.url)   # back to the main history for the tests after


HANDSHAKES_CAPTURE = """
import sys
from scapy.all import Ether, IP, TCP, wrpcap
count, first_port, start = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
client, server = "198.18.0.1", "198.18.0.2"
packets = []
for k in range(count):
    sport = first_port + k
    for offset, p in [(0.0, IP(src=client, dst=server) / TCP(sport=sport, dport=80, flags="S", seq=1)),
                      (0.2, IP(src=server, dst=client) / TCP(sport=80, dport=sport, flags="SA", seq=9, ack=2)),
                      (0.4, IP(src=client, dst=server) / TCP(sport=sport, dport=80, flags="A", seq=2, ack=10))]:
        frame = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / p
        frame.time = start + k + offset
        packets.append(frame)
wrpcap(sys.argv[1], packets)
"""


DAYS_CAPTURE = """
import sys
from scapy.all import Ether, IP, TCP, wrpcap
base = 1764000000.25   # 2025-11-24 16:00 UTC: four handshakes a day over three days
client, server = "198.18.0.1", "198.18.0.2"
packets = []
for day in range(3):
    for k in range(4):
        start, sport = base + day * 86400 + k * 7200, 40000 + day * 10 + k
        for offset, p in [(0.0, IP(src=client, dst=server) / TCP(sport=sport, dport=80, flags="S", seq=1)),
                          (0.2, IP(src=server, dst=client) / TCP(sport=80, dport=sport, flags="SA", seq=9, ack=2)),
                          (0.4, IP(src=client, dst=server) / TCP(sport=sport, dport=80, flags="A", seq=2, ack=10))]:
            frame = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / p
            frame.time = start + offset
            packets.append(frame)
wrpcap(sys.argv[1], packets)
"""


TESTS = [test_access_needs_the_key, test_introduction_first_open, test_introduction_last_card_says_what_start_does,
         test_keyboard_reaches_every_timeline_control, test_timeline_rows_are_the_commands,
         test_a_wide_screen_shows_twenty_connections_as_a_table, test_a_stretch_across_days_is_written_with_dates,
         test_the_open_timeline_takes_new_connections_without_a_reload,
         test_a_timeline_left_open_keeps_its_newest_rows_and_goes_on_past_them, test_the_list_exports_what_it_shows,
         test_dashboard_says_when_its_server_is_gone,
         test_a_burst_is_one_row_that_opens_onto_its_connections, test_search_applies_on_submit,
         test_a_query_narrows_the_rows_as_flows_does, test_a_malformed_query_is_said_beside_the_field,
         test_a_rows_host_port_and_program_filter_by_it, test_filters_by_protocol_and_status,
         test_rows_name_their_program_which_filters_them,
         test_status_filter_offers_every_status_in_the_commands_words, test_load_older_follows_the_cursor,
         test_axis_is_the_whole_history_whatever_the_filter, test_tap_zooms_back_and_all,
         test_finest_bar_filters_without_zooming_and_releases, test_drag_sweeps_whole_bars_without_zooming,
         test_keyboard_moves_the_cursor_and_sweeps, test_inspector_from_a_row, test_inspector_says_the_handshake_in_the_commands_words,
         test_inspector_says_why_a_connection_was_not_inspected,
         test_packet_detail_bytes_headers_and_reasons,
         test_missing_connection_says_so, test_dashboard_when_no_tunnel_runs, test_captures, test_settings,
         test_diagnostics, test_empty_history_teaches, test_dashboard_live,
         test_deleting_keeps_the_history_and_retention_returns_the_axis, test_deleting_audit_evidence_asks_first,
         test_certificate_setup_stages,
         test_a_browser_opened_for_the_owner_gets_in, test_server_gone_gives_an_error_card]


# --- a live tunnel of its own: top talkers to the inspector, diagnostics ---------------------------
class LiveDemo:
    """`tunnelvision demo` (its own lab of namespaces) into a fresh data directory of its own, and a
    server over it: one per test, so each sees a tunnel come alive however the tests are ordered.
    `stop()` ends the demo (it removes its own lab on TERM) and the server."""

    def __init__(self, t, name):
        if not t.options.live_demo:
            raise Failure("a live tunnel needs --live-demo")
        self.t, self.data_dir = t, os.path.join(t.scratch, name)
        self.process = subprocess.Popen([t.binary, "demo", "--data-dir", self.data_dir],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while not os.path.isdir(self.data_dir) and time.time() < deadline:
            time.sleep(0.1)
        self.server = Server(t.options.server, t.binary, self.data_dir)
        t.servers.append(self.server)

    def ask(self, *arguments):
        return oracle(self.t.binary, self.data_dir, *arguments)

    def leave(self):
        """Stops the demo and its server, and takes the browser back to the run's own server
        (cookies do not tell ports apart: the demo's server replaced ours)."""
        self.stop()
        if self.t.server.process.poll() is None:
            self.t.b.go(self.t.server.url)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.server.stop()


def wait_redraws(b, count, message):
    """Waits until the Dashboard has drawn `count` more lines from now (its throughput card is
    redrawn with each one, a line a second), counted by a MutationObserver on that card."""
    b.driver.execute_script("""
        const card = document.querySelector('section[aria-labelledby="throughput-title"]');
        window.tvRedraws = 0;
        window.tvRedrawWatch?.disconnect();
        window.tvRedrawWatch = new MutationObserver(() => { window.tvRedraws += 1; });
        window.tvRedrawWatch.observe(card, { childList: true });""")
    b.wait(lambda: b.driver.execute_script("return window.tvRedraws") >= count, 15, message)


def talker_links(t):
    """The top talkers drawn as links: (text, flow id) each."""
    return [(a.text, int(a.get_attribute("data-flow"))) for a in t.b.css("ol.talkers li.talker a.host[data-flow]")]


def test_a_top_talker_opens_its_connection_in_the_inspector(t):
    """While the demo's tunnel is live, a top talker named from the history opens the Flow
    Inspector of its connection, under the same name; a recent connection opens its own."""
    b = t.b
    demo = LiveDemo(t, "live-talkers")
    try:
        b.go(demo.server.url)
        b.route("#/dashboard")
        b.wait(lambda: "Monitoring is on" in b.text(), 180, "the dashboard never saw the demo's tunnel live")
        # Named and linked once the history holds the connection (it writes it a moment after its packets).
        text, flow_id = b.wait(lambda: next(((text, flow) for text, flow in talker_links(t) if "(" in text), None), 60,
                               "no top talker was named and linked: " + str(b.driver.execute_script(
                                   "return document.querySelector('ol.talkers')?.outerHTML ?? document.querySelector('main').innerText"))[:800])
        name, host = re.fullmatch(r"(.+) \((\S+)\)", text).groups()
        flow = demo.ask("flow", str(flow_id))
        check(flow["name"] == name, f"the talker {text!r} links to connection {flow_id}, which the history names {flow['name']!r}")
        check(host in (flow["remote"] or ""), f"the talker {text!r} links to a connection with {flow['remote']!r}")
        t.shoot("dashboard-talkers")
        # The same element across two redraws: a link a person is pressing stays put.
        link = next(a for a in b.css("ol.talkers li.talker a.host[data-flow]") if a.text == text)
        wait_redraws(b, 2, "the Dashboard did not redraw twice")
        target = link.get_attribute("data-flow")   # the host's latest connection may have moved on
        link.click()
        b.wait(lambda: b.driver.current_url.endswith(f"#/flow/{target}"), 10, "the talker did not open its connection")
        b.one("heading", demo.ask("flow", target)["name"] or name, exact=True)
        # Back on the Dashboard, a recent connection opens its own inspector too.
        b.route("#/dashboard")
        recent = b.wait(lambda: b.css("section ul.rows li.row a.row-link[data-flow]"), 20, "no recent connection drawn")
        recent_id = int(recent[0].get_attribute("data-flow"))
        wait_redraws(b, 1, "the Dashboard did not redraw")   # the row is still the one found
        recent[0].click()
        b.wait(lambda: b.driver.current_url.endswith(f"#/flow/{recent_id}"), 10, "the recent connection did not open")
        recent_flow = demo.ask("flow", str(recent_id))
        b.one("heading", recent_flow["name"] or recent_flow["remote"], exact=True)
    finally:
        demo.leave()


test_a_top_talker_opens_its_connection_in_the_inspector.live = True


def drawn_diagnostics(t):
    """What the Diagnostics screen drew: headline, notice, and each section's title, readings and note."""
    return t.b.driver.execute_script("""
        const text = (el) => el ? el.textContent.trim() : null;
        const head = document.querySelector('section.headline');
        return {
          verdict: head?.dataset.verdict ?? null, headline: text(head?.querySelector('.headline-text')),
          notice: text(document.querySelector('.notice-card .notice-text')),
          sections: [...document.querySelectorAll('section.diagnostics-section')].map((s) => ({
            key: s.dataset.section, title: text(s.querySelector('h2')),
            rows: [...s.querySelectorAll('dl.readings dt')].map((dt) => [text(dt), text(dt.nextElementSibling)]),
            note: text(s.querySelector('p.note'))})),
          terms: [...document.querySelectorAll('main dt')].map((dt) => dt.textContent.trim())};""")


def test_diagnostics_with_a_live_tunnel(t):
    """The Diagnostics screen over the demo's live tunnel draws what `diagnostics --json` gives for
    the same data directory at that moment: the headline, the notice, every section's title, its
    rows label by label, its note — words, never the JSON's field names. Counters move while the
    demo's traffic flows, so the command is asked just before and just after the screen asks: a
    reading that is the same both times must be drawn as it is; one that moved in between must be
    drawn with the same label (its value is then one of that moment's)."""
    b = t.b
    demo = LiveDemo(t, "live-diagnostics")
    try:
        b.go(demo.server.url)
        b.wait(lambda: demo.ask("diagnostics")["monitoring"], 180, "the demo's tunnel never came alive")
        def readings_moved(before, after):
            return sum(old["value"] != new["value"] for then, now in zip(before["sections"], after["sections"])
                       for old, new in zip(then["rows"], now["rows"]))

        readings = []
        for attempt in range(8):   # a reading across a quiet moment of the demo's traffic, if one comes
            before = demo.ask("diagnostics")
            b.route("#/dashboard")
            b.route("#/diagnostics")
            b.wait(lambda: b.css("section.headline .headline-text"), 15, "no headline drawn")
            drawn = drawn_diagnostics(t)
            after = demo.ask("diagnostics")
            if before["monitoring"] and after["monitoring"]:
                readings.append((readings_moved(before, after), before, drawn, after))
                if readings[-1][0] == 0:
                    break
        check(readings, "the demo's tunnel was never live across one reading of the screen")
        _, before, drawn, after = min(readings, key=lambda reading: reading[0])
        raw = {"Key", "Keys", "Rows", "Label", "Value", "Verdict", "Text", "Title", "Note", "Monitoring"}
        check(not raw & set(drawn["terms"]), f"the screen shows the JSON's field names: {drawn['terms']}")
        if before["headline"] == after["headline"]:
            check(drawn["headline"] == after["headline"]["text"] and drawn["verdict"] == after["headline"]["verdict"],
                  f"headline drawn {drawn['headline']!r}, the command says {after['headline']['text']!r}")
        check(drawn["headline"] in (before["headline"]["text"], after["headline"]["text"]), f"headline {drawn['headline']!r}")
        if before["resolverNotice"] == after["resolverNotice"]:
            check(drawn["notice"] == (after["resolverNotice"] or {}).get("text"),
                  f"notice drawn {drawn['notice']!r}, the command says {after['resolverNotice']!r}")
        check([s["key"] for s in drawn["sections"]] == [s["key"] for s in after["sections"]],
              f"sections drawn {[s['key'] for s in drawn['sections']]}, the command's {[s['key'] for s in after['sections']]}")
        stable = moved = 0
        for shown, then, now in zip(drawn["sections"], before["sections"], after["sections"]):
            check(shown["title"] == now["title"], f"section {now['key']}: title {shown['title']!r}, the command's {now['title']!r}")
            check([label for label, _ in shown["rows"]] == [row["label"] for row in now["rows"]],
                  f"section {now['key']}: rows {shown['rows']}, the command's {[row['label'] for row in now['rows']]}")
            for (label, value), old, new in zip(shown["rows"], then["rows"], now["rows"]):
                if old["value"] == new["value"]:
                    stable += 1
                    check(value == new["value"], f"{now['title']} · {label}: drawn {value!r}, the command says {new['value']!r}")
                else:
                    moved += 1
            if then["note"] == now["note"]:
                check(shown["note"] == now["note"], f"{now['title']}: note drawn {shown['note']!r}, the command's {now['note']!r}")
        print(f"  {len(after['sections'])} sections, {stable} readings compared exactly, {moved} moved while asked")
        check(stable > moved, f"too few readings held still to compare ({stable} held, {moved} moved)")
        t.shoot("diagnostics-live")
    finally:
        demo.leave()


test_diagnostics_with_a_live_tunnel.live = True

TESTS += [test_a_top_talker_opens_its_connection_in_the_inspector, test_diagnostics_with_a_live_tunnel]
