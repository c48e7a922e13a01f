"""The Timeline's sortable columns and its grouping, checked against `flows --sort … --json` and
`flows --group … --json` over the same history."""
from selenium.webdriver.support.select import Select

from harness import check
from screens import open_timeline, rows, viewport, wait_rows


def drawn_ids(t):
    return t.b.driver.execute_script("""return [...document.querySelectorAll('ul.rows[aria-labelledby=list-title] a[data-flow]')]
        .map((a) => Number(a.dataset.flow))""")


def aria_sorts(t):
    return t.b.driver.execute_script("""return Object.fromEntries([...document.querySelectorAll(
        'ul.rows[aria-labelledby=list-title] > li.rows-head [role=columnheader]')].map((h) => [h.textContent.replace(/[▲▼]/g, '').trim(),
        h.getAttribute('aria-sort')]))""")


def wait_order(t, word, message):
    """The list drawn as `flows --sort WORD` lists its first page (every row its own in another
    order than time: no bursts)."""
    expected = [flow["id"] for flow in t.ask("flows", "--sort", word)["flows"]]
    t.b.wait(lambda: drawn_ids(t) == expected and not t.b.css(".list-status .loading"), 15,
             f"{message}: the rows should be flows --sort {word}'s {expected[:8]}…, the screen has {drawn_ids(t)[:8]}…")
    return expected


def test_a_column_header_sorts_the_whole_history(t):
    """At 1366×900 a click on Received sorts the whole history by bytes received, most first, as
    `flows --sort received` does (aria-sort descending on that header, none on the others); a
    second click reverses it; the list says it no longer follows new connections, and the way
    back to time order restores the live list."""
    try:
        viewport(t, 1366, 900)
        open_timeline(t)
        wait_rows(t, len(t.ask("flows")["flows"]), "the first page")
        sorts = aria_sorts(t)
        check(sorts["Last active"] == "descending" and all(v == "none" for k, v in sorts.items() if k != "Last active"),
              f"in time order only Last active is sorted, descending: {sorts}")
        t.b.press("button", "Received", exact=True)
        wait_order(t, "received:desc", "after a click on Received")
        sorts = aria_sorts(t)
        check(sorts["Received"] == "descending" and sorts["Last active"] == "none", f"aria-sort after Received: {sorts}")
        t.b.wait_text("Sorted by bytes received, most first: new connections are not added live")
        check(t.b.driver.execute_script("return document.activeElement.dataset.sort") == "received",
              "the header's button keeps the focus after sorting")
        t.shoot("timeline-sorted-received")
        t.b.press("button", "Received", exact=True)
        wait_order(t, "received:asc", "after a second click on Received")
        check(aria_sorts(t)["Received"] == "ascending", f"aria-sort after the second click: {aria_sorts(t)}")
        t.b.press("button", "Host", exact=True)
        wait_order(t, "host", "after a click on Host")
        check(aria_sorts(t)["Host"] == "ascending", f"Host sorts A to Z first: {aria_sorts(t)}")
        # Load older follows the order's cursor: the second page is flows' next page in that order.
        page = t.ask("flows", "--sort", "host")
        if page["next"]:
            older = [flow["id"] for flow in t.ask("flows", "--sort", "host", "--after", page["next"])["flows"]]
            t.b.press("button", "Load older connections", exact=True)
            t.b.wait(lambda: drawn_ids(t)[len(page["flows"]):] == older, 15, "the next page in host order")
        t.b.press("button", "Sort by last activity", exact=True)
        wait_rows(t, len(t.ask("flows")["flows"]), "back in time order")
        check(aria_sorts(t)["Last active"] == "descending", f"back in time order: {aria_sorts(t)}")
        check("not added live" not in t.b.text(), "time order says nothing about the live list")
    finally:
        t.b.driver.set_window_size(1280, 900)


def choose_group(t, label):
    """Group by LABEL (None, Host, Program), picked as a person picks an option."""
    Select(t.b.one("combobox", "Group by")).select_by_visible_text(label)


def group_rows(t):
    return t.b.driver.execute_script("""return [...document.querySelectorAll('table.group-table tbody tr')].map((tr) =>
        [...tr.children].map((cell) => cell.textContent.trim()))""")


def test_grouping_shows_the_whole_historys_totals(t):
    """Group by Host draws `flows --group host`'s groups with their totals, in its order; a
    group's name lists its connections (its search term); Group by Program likewise."""
    open_timeline(t)
    wait_rows(t, len(t.ask("flows")["flows"]), "the first page")
    try:
        choose_group(t, "Host")
        expected = t.ask("flows", "--group", "host")
        t.b.wait(lambda: [row[0] for row in group_rows(t)] == [g["label"] for g in expected["groups"]], 15,
                 f"the host groups should be {[g['label'] for g in expected['groups']][:6]}…, drawn {group_rows(t)[:3]}")
        counts = [int(row[1]) for row in group_rows(t)]
        check(counts == [g["connections"] for g in expected["groups"]], f"connections per host {counts}")
        packets = [int(row[4]) for row in group_rows(t)]
        check(packets == [g["packets"] for g in expected["groups"]], f"packets per host {packets}")
        check(t.b.one("table", "Connections by host"), "the groups' table is named by its caption")
        t.shoot("timeline-by-host")
        first = next(g for g in expected["groups"] if g["term"])
        t.b.press("button", first["label"], exact=True)
        listed = t.ask("flows", "--search", first["term"])
        wait_rows(t, len(listed["flows"]), f"the connections of {first['label']}")
        check(t.b.driver.execute_script("return document.querySelector('#search').value") == first["term"],
              "the group's term is in the search field")
        check(t.b.driver.execute_script("return document.querySelector('#group-by').value") == "", "the list is no longer grouped")
        t.b.one("button", "Clear filters", exact=True).click()
        wait_rows(t, len(t.ask("flows")["flows"]), "after Clear filters")
        choose_group(t, "Program")
        programs = t.ask("flows", "--group", "program")
        t.b.wait(lambda: [row[0] for row in group_rows(t)] == [g["label"] for g in programs["groups"]], 15,
                 f"the program groups should be {[g['label'] for g in programs['groups']]}, drawn {group_rows(t)}")
        check([int(row[1]) for row in group_rows(t)] == [g["connections"] for g in programs["groups"]], "connections per program")
    finally:
        if t.b.driver.execute_script("return document.querySelector('#group-by')?.value"):
            choose_group(t, "None")
        t.b.one("button", "Clear filters", exact=True).click()
    wait_rows(t, len(t.ask("flows")["flows"]), "ungrouped, unfiltered again")


def test_a_phone_groups_and_shows_cards(t):
    """At 390×844 the groups' table scrolls within its own box, and the cards stay in time order."""
    try:
        viewport(t, 390, 844)
        open_timeline(t)
        wait_rows(t, len(t.ask("flows")["flows"]), "the first page on a phone")
        t.b.driver.execute_script("document.querySelector('details.more-filters').open = true")
        choose_group(t, "Host")
        expected = t.ask("flows", "--group", "host")
        t.b.wait(lambda: len(group_rows(t)) == len(expected["groups"]), 15, "the host groups on a phone")
        overflow = t.b.driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        check(overflow, "the page itself must not scroll sideways on a phone")
        t.shoot("timeline-by-host-390")
        # The shots above show the page's top; this one the table itself.
        t.b.driver.execute_script("""document.querySelector('.groups').scrollLeft = 0;   // axe scrolled it as it checked
            scrollTo(0, document.querySelector('table.group-table').getBoundingClientRect().top + scrollY - 8)""")
        t.shots.append(t.b.screenshot("timeline-by-host-390-table"))
        choose_group(t, "None")
        wait_rows(t, len(t.ask("flows")["flows"]), "ungrouped on a phone")
        check(len(rows(t)) > 0, "cards again")
    finally:
        t.b.driver.set_window_size(1280, 900)


def test_a_phone_sorts_by_its_sort_choice(t):
    """At 390×844 the cards have no column headers: "Sort by" offers every order in the command's
    words, and choosing one lists the rows as `flows --sort` does; the column headers follow it on
    a wide screen, and the choice follows a header."""
    try:
        viewport(t, 390, 844)
        open_timeline(t)
        wait_rows(t, len(t.ask("flows")["flows"]), "the first page on a phone")
        t.b.driver.execute_script("document.querySelector('details.more-filters').open = true")
        choice = Select(t.b.driver.find_element("css selector", "#sort-by"))
        offered = [option.text for option in choice.options]
        check(len(offered) == 20 and offered[0] == "Last activity, newest first" and "Bytes received, most first" in offered,
              f"Sort by offers {offered}")
        check(t.b.find("combobox", "Sort by"), "no control named Sort by")
        choice.select_by_visible_text("Bytes received, most first")
        wait_order(t, "received", "sorted from the phone's choice")
        t.b.wait(lambda: "Sorted by bytes received, most first" in t.b.text(), 10, "the new order was not said")
        t.shoot("timeline-sorted-390")
    finally:
        t.b.driver.set_window_size(1280, 900)
    # Wide again: the header says the order the choice made; a header's order is then the choice's.
    wait_order(t, "received", "still sorted on a wide screen")
    check(aria_sorts(t).get("Received") == "descending", f"the headers say {aria_sorts(t)}")
    t.b.driver.find_element("css selector", "button[data-sort=host]").click()
    wait_order(t, "host", "sorted by the host header")
    check(t.b.driver.execute_script("return document.querySelector('#sort-by').value") == "host:asc", "the choice did not follow the header")
    Select(t.b.driver.find_element("css selector", "#sort-by")).select_by_visible_text("Last activity, newest first")
    wait_order(t, "time", "back in time order")


TESTS = [test_a_column_header_sorts_the_whole_history, test_grouping_shows_the_whole_historys_totals, test_a_phone_groups_and_shows_cards,
         test_a_phone_sorts_by_its_sort_choice]
