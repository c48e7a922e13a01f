#!/usr/bin/env python3
"""The Flow Inspector's *Decrypted content* section in a real browser, two ways:

1. drawn from a page whose /api/flows/900001 answer is Tests/Browser/fixtures/inspected-flow.json
   (written by hand in `flow ID --json`'s shape): screenshots in light and dark, axe-core; and
   the same for a WebSocket connection (900002, websocket-flow.json);
2. drawn for every real inspected connection of --data-dir (the ones `tunnelvision run --inspect`
   leaves: HTTP/1.1 and HTTP/2), checked against what `tunnelvision flow ID --json` answers. **Fails, never skips**,
   when the data directory holds no inspected connection: that means the end-to-end run did not
   inspect anything;
3. said for a real connection whose client refused the run's certificate (the lab's second
   client trusts its own root alone): the Timeline's Kept private box finds it, its row and its
   inspector say why in `flows`' and `flow ID`'s words. Fails, never skips, without one.

    run_decrypted_tests.py --binary .build/debug/tunnelvision --data-dir D [--artifacts DIR]

Exit status 1 when any check, axe scan or page error fails.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Browser, Failure, Server, check, oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE_ID = 900001
WEBSOCKET_FIXTURE_ID = 900002

# Answers the fixture's route before any page script runs (a CDP script, outside the page's CSP).
ANSWER_WITH_FIXTURE = """
(() => {
  const fixture = %s;
  const real = window.fetch.bind(window);
  window.fetch = (input, options) => {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (url.pathname === "/api/flows/%d") {
      return Promise.resolve(new Response(JSON.stringify(fixture), { status: 200, headers: { "Content-Type": "application/json" } }));
    }
    return real(input, options);
  };
})();
"""


def shoot(browser, name, problems, at=".decrypted"):
    for scheme in ("light", "dark"):
        browser.color_scheme(scheme)
        browser.driver.execute_script("const at = document.querySelector(arguments[0]); window.scrollTo(0, at ? at.offsetTop - 20 : 0)", at)
        browser.screenshot(name)
        browser.driver.execute_script("window.scrollTo(0, 0)")
        problems += [f"axe on {name} ({scheme}): {v}" for v in browser.axe()]
    browser.color_scheme("light")


def open_flow(browser, server, flow_id):
    browser.go(server.url)
    browser.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
    browser.route(f"#/flow/{flow_id}")
    browser.wait(lambda: browser.find("heading", "Decrypted content", exact=True), 15, "no Decrypted content section was drawn")


def drawn_from_the_fixture(browser, server, problems):
    fixture = json.load(open(os.path.join(HERE, "fixtures", "inspected-flow.json")))
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                   {"source": ANSWER_WITH_FIXTURE % (json.dumps(fixture), FIXTURE_ID)})
    open_flow(browser, server, FIXTURE_ID)
    section = browser.css(".decrypted")[0]
    text = section.text
    check("Inspected with your local CA" in text, f"the section is not marked as inspected: {text[:300]!r}")
    for exchange in fixture["decrypted"]["http"]:
        check(exchange["request"]["startLine"] in text, f"request {exchange['request']['startLine']!r} not drawn")
    check(browser.css("dl[aria-label='Request 1: headers'] dt")[0].text == "Host", "the request's headers are not a list of names")
    json_body = browser.css("pre[aria-label='Response 1: body']")
    check(json_body and json_body[0].text == fixture["decrypted"]["http"][0]["response"]["body"]["text"],
          "the JSON body is not drawn as the command indented it")
    binary = browser.css("pre[aria-label='Response 2: body: offset, hex, then ASCII']")
    check(binary and binary[0].text.splitlines()[0] == fixture["decrypted"]["http"][1]["response"]["body"]["dump"][0],
          "the binary body is not drawn as the command's dump")
    check("bytes kept of 5 000 — the rest was not kept" in text, "the cut body does not say what was kept")
    # A download the server refuses says why beside its button: this page's server has no history.
    browser.one("link", "Download this connection's packets", exact=True).click()
    problem = browser.wait(lambda: [e for e in browser.css(".download-problem") if e.text], 10,
                           "a refused download said nothing")[0].text
    check(problem.startswith(f"connection-{FIXTURE_ID}.pcap could not be downloaded: ") and "no history" in problem,
          f"the refusal reads {problem!r}")
    browser.css(".turns-as-recorded summary")[0].click()
    browser.wait(lambda: "the rest of this turn was not kept" in section.text, 5, "the cut turn does not say the rest was not kept")
    shoot(browser, "decrypted-fixture", problems)


def websocket_drawn_from_the_fixture(browser, server, problems):
    fixture = json.load(open(os.path.join(HERE, "fixtures", "websocket-flow.json")))
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                   {"source": ANSWER_WITH_FIXTURE % (json.dumps(fixture), WEBSOCKET_FIXTURE_ID)})
    open_flow(browser, server, WEBSOCKET_FIXTURE_ID)
    messages = fixture["decrypted"]["webSocket"]["messages"]
    browser.wait(lambda: browser.find("heading", f"WebSocket: {len(messages)} messages", exact=True), 10,
                 "the WebSocket messages are not drawn under their heading")
    listed = browser.css("ol[aria-label='WebSocket messages, in order'] > li")
    check(len(listed) == len(messages), f"{len(listed)} WebSocket messages drawn of {len(messages)}")
    for index, (item, message) in enumerate(zip(listed, messages)):
        check(f"Message {index + 1}: {message['heading']}" in item.text, f"message {index + 1} reads {item.text!r}")
    check(browser.css("pre[aria-label='WebSocket message 1']")[0].text == messages[0]["text"], "the text message is not drawn")
    check(browser.css("pre[aria-label='WebSocket message 2: offset, hex, then ASCII']")[0].text == messages[1]["dump"][0],
          "the binary message is not drawn as the command's dump")
    shoot(browser, "decrypted-websocket-fixture", problems, at=".websocket")


def drawn_for_a_real_inspected_flow(browser, server, options, problems):
    listing = oracle(options.binary, options.data_dir, "flows", "--status", "inspected")
    flows = listing.get("flows", [])
    check(flows, f"{options.data_dir} holds no inspected connection: run 'tunnelvision run --inspect --data-dir "
                 f"{options.data_dir} -- curl https://…' in a lab first (this test fails rather than skips)")
    for flow in flows:   # the lab's HTTP/1.1 and HTTP/2 connections
        drawn_for(browser, server, options, flow["id"], problems)


def drawn_for(browser, server, options, flow_id, problems):
    answer = oracle(options.binary, options.data_dir, "flow", str(flow_id))
    open_flow(browser, server, flow_id)
    text = browser.css(".decrypted")[0].text
    decrypted = answer.get("decrypted")
    if not decrypted or not decrypted["turns"]:
        check(answer["decryptedNote"] and answer["decryptedNote"][1:] in text, f"the note {answer['decryptedNote']!r} is not drawn")
    elif decrypted.get("http"):
        for index, exchange in enumerate(decrypted["http"]):
            for part in ("request", "response"):
                if exchange[part]:
                    check(exchange[part]["startLine"] in text, f"{part} {exchange[part]['startLine']!r} not drawn")
            if exchange.get("stream"):
                title = f"Request {index + 1} (stream {exchange['stream']})"
                check(title in text, f"HTTP/2's {title!r} is not drawn")
                check(browser.css(f"dl[aria-label='{title}: headers'] dt")[0].text == ":method",
                      "HTTP/2's request headers do not begin with its pseudo-headers, as sent")
    else:
        check(decrypted["turns"][0]["heading"] in text, "the first turn is not drawn")
    # Both legs are said, each labelled with whose handshake it was, as `flow ID --json` words them.
    handshake = browser.css(".handshake")[0].text
    legs = [fact for fact in answer["handshake"] if "TunnelVision" in fact["label"]]
    check(len(legs) == 2, f"the inspected flow's two legs are not both in the handshake: {answer['handshake']}")
    for fact in legs:
        check(fact["text"] in handshake and fact["label"][1:] in handshake, f"{fact['label']!r} is not drawn: {handshake[:400]!r}")
    shoot(browser, f"decrypted-flow-{flow_id}", problems)


def said_for_a_refused_connection(browser, server, options, problems):
    flows = oracle(options.binary, options.data_dir, "flows", "--status", "notInspectable").get("flows", [])
    check(flows, f"{options.data_dir} holds no connection kept private: the lab's client that trusts its own root alone "
                 "did not refuse the run's certificate (this test fails rather than skips)")
    chosen = flows[0]
    check(chosen["inspectionReason"] == "refusedCertificate" and chosen["statusNote"], f"the refusal's reason: {chosen}")
    browser.go(server.url)
    browser.driver.execute_script("localStorage.setItem('tunnelvision.introductionSeen', 'yes')")
    browser.route("#/timeline")
    browser.one("checkbox", "Kept private", exact=True).click()
    drawn = lambda: browser.css("ul.rows li.row:not(.burst)")
    browser.wait(lambda: len(drawn()) == len(flows) and not browser.css(".list-status .loading"), 15,
                 f"Kept private should list {len(flows)} connections")
    link = browser.css(f'ul.rows a[data-flow="{chosen["id"]}"]')[0]
    row = browser.driver.execute_script("return arguments[0].closest('li')", link)   # the link is the row's host
    check("Kept private" in row.text and chosen["statusNote"] in row.text, f"the row does not say why: {row.text!r}")
    shoot(browser, "timeline-kept-private", problems, at="ul.rows")
    answer = oracle(options.binary, options.data_dir, "flow", str(chosen["id"]))
    said = next((fact["text"] for fact in answer["handshake"] if fact["label"] == "inspection"), None)
    check(said == chosen["inspectionSentence"], f"flow ID says {said!r}, flows {chosen['inspectionSentence']!r}")
    link.click()
    browser.wait(lambda: browser.driver.current_url.endswith(f"#/flow/{chosen['id']}"), 10, "the row did not open its connection")
    facts = browser.wait(lambda: dict(zip([dt.text for dt in browser.css(".facts.handshake dt")],
                                          [dd.text for dd in browser.css(".facts.handshake dd")])), 10, "no handshake facts drawn")
    check(facts.get("Inspection") == said, f"the Encryption card says {facts.get('Inspection')!r}, the command {said!r}")
    note = browser.wait(lambda: browser.css(".decrypted .notice"), 10, "no Decrypted content note")[0].text
    check(note.startswith(answer["decryptedNote"][0].upper() + answer["decryptedNote"][1:]), f"the note reads {note!r}")
    shoot(browser, f"kept-private-flow-{chosen['id']}", problems, at=".handshake")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--artifacts", default=os.path.join(".build", "browser-artifacts"))
    options = parser.parse_args()
    options.binary = os.path.abspath(options.binary)
    os.makedirs(options.artifacts, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="tv-decrypted-")
    failures, servers, browser = [], [], None
    try:
        browser = Browser(options.artifacts)
        empty = os.path.join(scratch, "empty")
        os.mkdir(empty, 0o700)
        for name, run in (("decrypted content drawn from a hand-written answer",
                           lambda problems: drawn_from_the_fixture(browser, start(empty), problems)),
                          ("WebSocket messages drawn from a hand-written answer",
                           lambda problems: websocket_drawn_from_the_fixture(browser, start(empty), problems)),
                          ("decrypted content of a real inspected connection",
                           lambda problems: drawn_for_a_real_inspected_flow(browser, start(options.data_dir), options, problems)),
                          ("a real refusal of the run's certificate, found and said",
                           lambda problems: said_for_a_refused_connection(browser, start(options.data_dir), options, problems))):
            def start(directory):
                servers.append(Server("ui", options.binary, directory))
                return servers[-1]
            problems = []
            try:
                run(problems)
                logged = browser.console_problems()
                check(not logged, f"the page logged errors: {logged}")
                check(not problems, "; ".join(problems))
                print(f"✔ {name}", flush=True)
            except Exception as error:  # each test reports, with a screenshot
                shot = browser.screenshot("FAILED-decrypted")
                failures.append(f"{name}: {error} (screenshot {shot})")
                print(f"✘ {name}: {error}", flush=True)
    finally:
        if browser:
            browser.quit()
        for server in servers:
            server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"decrypted browser tests: {len(failures)} failed" if failures else "decrypted browser tests: all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
