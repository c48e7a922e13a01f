// The Timeline: the activity axis (scrub bar) above the connections, newest first, a page at a
// time. Every answer is what `tunnelvision flows --json` / `activity --json` say; this screen keeps
// only what the person picked (filters, the zoom levels, the stretch) across visits.

import { get, postDownload } from "./api.js";
import { h, replace, stamp, zone, errorCard, announce, count } from "./dom.js";
import { timelineRow, burstRow, statusNames, protocols, headerRow } from "./rows.js";
import { scrubBar, barRange, widthName } from "./scrubbar.js";
import { timelinePlace } from "./timeline-place.js";

const presets = [["", "Any time"], ["10m", "Last 10 minutes"], ["1h", "Last hour"], ["1d", "Last day"], ["7d", "Last week"]];

const state = {
  search: "", protocols: [], statuses: [], since: "",
  program: "",     // programs by name, comma-separated, as `flows --program` takes them
  sort: "",        // the order of the whole history, as `flows --sort` takes it ("received:desc"); "" newest first
  group: "",       // "" | "host" | "program": the groups of the whole filtered history, with their totals (`flows --group`)
  zoom: [],        // the stretches tapped into, widest first: Back pops one, All empties it
  range: null,     // {from, to, kind: "zoom" | "bar" | "sweep"}: what the list is bounded to
  notice: null,    // a sentence about the axis (a stretch retention took)
  cursor: null,
  choices: null,   // what the listing offers to narrow by, in its words (`choices`), from its first answer
  axisClock: "time",   // how the axis's instants are written (its answer's `clock`): every stretch picked on it too
};

// The place in the address and the history (timeline-place.js): every field of `state` but those
// its answers fill in.
const place = timelinePlace(state, ["notice", "choices", "axisClock"]);

/** An instant of the axis (its caption, a bar, a sweep, a zoom) as its answer's clock writes it. */
function axisStamp(iso) {
  return stamp(iso, state.axisClock);
}

/** A screen wide enough for the list as a table (app.css's breakpoint) shows every filter open. */
const wideScreen = window.matchMedia("(min-width: 60rem)");

function moreFiltersSet() {
  return state.program !== "" || state.protocols.length > 0 || state.statuses.length > 0 || state.since !== "" || state.group !== "";
}

function filtered() {
  return state.search !== "" || state.program !== "" || state.protocols.length > 0 || state.statuses.length > 0
    || state.since !== "" || state.range !== null;
}

function axisBars(main) {
  // Bars at least 44 px wide, as many as the screen holds, never more than the command's 48.
  const width = main.clientWidth || 800;
  return Math.max(2, Math.min(48, Math.floor(width / 44)));
}

export function render(main) {
  let alive = true;
  place.take();
  let statusCheckbox = null;   // set by filterForm: the status boxes share its change handler
  const heading = h("h1", { tabindex: -1 }, "Timeline");
  const axisSection = h("section", { class: "axis-section", "aria-labelledby": "axis-title", hidden: true });
  const form = filterForm();
  // A table for assistive technology (role="table", a header row of the listing's columns): on a
  // wide screen drawn as one, a line a connection; on a phone each row is a card.
  const list = h("ul", { class: "rows tabled", "aria-labelledby": "list-title" });   // a table once it holds rows
  const footer = h("div", { class: "list-footer" });
  const status = h("div", { class: "list-status" });
  replace(main, heading, axisSection, form,
    h("section", { class: "list-section", "aria-labelledby": "list-title" },
      h("h2", { id: "list-title", class: "visually-hidden" }, "Connections"), status, list, footer),
    exportSection());
  if (state.choices) drawStatusChoices();

  async function reload() {
    const listed = loadList(null);
    await Promise.all([loadAxis(listed), listed]);
  }

  // `listed`: the list's own load, drawn first when both answers are in (the rows are what a
  // person came for; the axis follows a moment later).
  async function loadAxis(listed = null) {
    const current = state.zoom.at(-1);
    let activity;
    try {
      activity = await get("/api/activity", { from: current?.from, to: current?.to, bars: axisBars(main), zone });
    } catch (error) {
      if (!alive) return;
      if (error.status === 404) { drawAxis({ bars: [] }); return; }   // no history: no axis
      axisSection.hidden = false;
      replace(axisSection, errorCard("The activity could not be read", error, () => loadAxis()));
      return;
    }
    await listed;   // loadList never throws: its failures are drawn in the list, not blamed on the axis
    if (!alive) return;
    if (current && activity.totalPackets === 0) {
      // The stretch being viewed is gone (retention deleted it): back to the whole history, said.
      state.notice = `Nothing is stored between ${axisStamp(current.from)} and ${axisStamp(current.to)} any more — `
        + "the storage limits or Delete everything removed it — so the axis shows the whole history again.";
      state.zoom = [];
      state.range = null;
      await reload();
      return;
    }
    drawAxis(activity);
  }

  function drawAxis(activity) {
    // Enter on the axis (or Back, All) redraws it: the focus stays on the axis.
    const focused = axisSection.contains(document.activeElement);
    if (activity.bars.length === 0) {
      // No history: no axis (the list teaches how to record); only a notice, if there is one.
      replace(axisSection, state.notice ? [h("h2", { id: "axis-title" }, "Activity"),
        h("p", { class: "notice", role: "status" }, state.notice)] : null);
      axisSection.hidden = !state.notice;
      return;
    }
    axisSection.hidden = false;
    state.axisClock = activity.clock ?? "time";
    const bars = activity.bars;
    const inRange = (index) => {
      if (!state.range || state.range.kind === "zoom") return false;
      const range = barRange(bars[index]);
      return range.from < state.range.to && range.to > state.range.from;
    };
    const scrub = scrubBar(activity, {
      selected: inRange,
      cursor: state.cursor,
      onTap: (index) => tap(bars[index], index),
      onSweep: (first, last) => sweep(bars, first, last),
    });
    const span = activity.span;
    const buttons = h("div", { class: "axis-buttons" },
      state.zoom.length > 0 ? h("button", { type: "button", on: { click: back } }, "Back") : null,
      state.zoom.length > 1 ? h("button", { type: "button", on: { click: all } }, "All") : null);
    replace(axisSection,
      h("div", { class: "axis-head" },
        h("h2", { id: "axis-title" }, "Activity"),
        h("p", { id: "axis-caption", class: "axis-caption" },
          `Packets of all connections, whatever the list's filter: ${count(bars.length, "bar")} of ${widthName(activity.bucketSeconds)}, `
          + `${axisStamp(span.from)} to ${axisStamp(span.to)}, ${count(activity.totalPackets, "packet")}.`),
        buttons),
      scrub,
      h("p", { id: "axis-keys", class: "hint" },
        "Tap a bar to show its connections and zoom into it; drag across bars to pick a stretch. "
        + "Keyboard: arrows move, Enter picks, Shift with arrows sweeps."),
      state.range && state.range.kind !== "zoom"
        ? h("p", { class: "axis-selection" }, `The list shows connections active ${axisStamp(state.range.from)} to ${axisStamp(state.range.to)}. `,
            h("button", { type: "button", class: "link-button", on: { click: releaseRange } }, "Show the whole axis's connections"))
        : null,
      state.notice ? h("p", { class: "notice", role: "status" }, state.notice) : null);
    if (focused) scrub.focus({ preventScroll: true });
  }

  function tap(bar, index) {
    const range = barRange(bar);
    state.notice = null;
    state.since = "";   // a picked interval is absolute: no preset stays ticked
    state.cursor = null;
    if (state.range && state.range.kind === "bar" && state.range.from === range.from && state.range.to === range.to) {
      state.range = state.zoom.length ? { ...state.zoom.at(-1), kind: "zoom" } : null;   // tapped again: released
      announce("Interval released.");
    } else if (bar.canZoom) {
      state.zoom.push(range);
      state.range = { ...range, kind: "zoom" };
      announce(`Zoomed into ${axisStamp(range.from)} to ${axisStamp(range.to)}.`);
    } else {
      state.range = { ...range, kind: "bar" };
      state.cursor = index;
      announce(`Showing connections active ${axisStamp(range.from)} to ${axisStamp(range.to)}.`);
    }
    syncForm();
    reload();
  }

  function sweep(bars, first, last) {
    state.notice = null;
    state.since = "";
    state.cursor = last;
    state.range = { from: barRange(bars[first]).from, to: barRange(bars[last]).to, kind: "sweep" };
    announce(`Showing connections active ${axisStamp(state.range.from)} to ${axisStamp(state.range.to)}.`);
    syncForm();
    reload();
  }

  function back() {
    state.zoom.pop();
    const current = state.zoom.at(-1);
    state.range = current ? { ...current, kind: "zoom" } : null;
    state.notice = null;
    state.cursor = null;
    reload();
  }

  function all() {
    state.zoom = [];
    state.range = null;
    state.notice = null;
    state.cursor = null;
    reload();
  }

  function releaseRange() {
    const current = state.zoom.at(-1);
    state.range = current ? { ...current, kind: "zoom" } : null;
    state.cursor = null;
    reload();
  }

  function clearFilters() {
    state.search = ""; state.program = ""; state.protocols = []; state.statuses = []; state.since = ""; state.group = "";
    state.zoom = []; state.range = null; state.notice = null; state.cursor = null;
    syncForm();
    reload();
  }

  let generation = 0;
  // Connections listed so far (a burst row holds several), for the footer.
  let shownConnections = 0;
  let loadedRows = 0;   // the rows the list held when its last page came: the live list adds to them
  let liveRowsKept = 0;   // what it adds before its oldest go: each listing says (HistoryPolicy)
  // The search the list on screen was read with: what a refused one falls back to.
  let listedSearch = state.search;
  async function loadList(after) {
    if (after === null) memory.listed(true);   // the place asked for is in the address at once
    if (state.group) { await loadGroups(); return; }
    const mine = ++generation;
    if (after === null) {
      replace(status, h("p", { class: "loading", role: "status" }, "Loading connections…"));
    } else {
      replace(footer, h("p", { class: "loading", role: "status" }, "Loading older connections…"));
    }
    let page;
    try {
      page = await get("/api/flows", {
        search: state.search, program: state.program, protocol: state.protocols, status: state.statuses,
        since: state.range ? state.range.from : state.since, until: state.range ? state.range.to : "",
        sort: state.sort, after: after ?? "", zone,
      });
    } catch (error) {
      if (!alive || mine !== generation) return;
      if (error.parameter === "search") {
        // The search cannot be read: said beside the field, the person's text left to correct,
        // and the list as it was (it still shows what it said it shows).
        state.search = listedSearch;
        memory.listed(true, { replacing: true });
        replace(status);
        showSearchProblem(error.problem ?? error.message);
        return;
      }
      if (after === null) {
        replace(list);
        replace(footer);
        // No history at all (the data directory holds none yet): a state to teach, not an error.
        replace(status, error.status === 404 ? emptyState({ historyEmpty: true, said: error.message })
          : errorCard("The history could not be read", error, () => loadList(null)));
      } else {
        // A drawn list is never covered: the failure goes to the footer.
        replace(footer, h("p", { class: "footer-error", role: "alert" }, `Older connections could not be read: ${error.message} `),
          h("button", { type: "button", on: { click: () => loadList(after) } }, "Try again"));
      }
      return;
    }
    if (!alive || mine !== generation) return;
    listedSearch = state.search;
    if (after !== null) memory.listed(false);
    // Read: the field's problem is gone — unless the field holds other text than was read.
    if (form.querySelector("#search").value.trim() === state.search) showSearchProblem(null);
    if (!state.choices && page.choices) { state.choices = page.choices; drawStatusChoices(); }
    const names = statusNames(page.choices);
    listedSort = page.sort;
    // The order as the listing applied it ("" for the default): a key alone ran its natural way.
    state.sort = page.sort.word === "time:desc" ? "" : page.sort.word;
    form.querySelector("#sort-by").value = page.sort.word;
    if (after === null) { replace(list, headerRow(page.sort, sortBy)); shownConnections = 0; list.classList.remove("clock-date"); }
    if (page.clock === "date") list.classList.add("clock-date");   // the time column holds dates
    replace(status, liveNotice(page.sort));
    list.append(pageRows(page, names));
    shownConnections += page.flows.length;
    loadedRows = list.querySelectorAll(":scope > li.row").length;
    liveRowsKept = page.liveRowsKept;
    if (after === null) newest = page.flows[0]?.lastSeen ?? null;
    const shown = shownConnections;
    // No empty table: with no connection the list holds nothing (not even its header row).
    if (shown > 0) list.setAttribute("role", "table"); else { list.removeAttribute("role"); replace(list); }
    if (shown === 0) {
      replace(status, emptyState(page));
    }
    if (sortRequested) { announce(`Sorted by ${page.sort.sentence}.`); sortRequested = false; }
    drawFooter(page, shown);
    return page.next;
  }

  function pageRows(page, names) {
    // A burst is one row at its first connection's place (its ids are consecutive in the page).
    const burstOf = new Map();
    for (const burst of page.bursts ?? []) for (const id of burst.ids) burstOf.set(id, burst);
    const drawn = document.createDocumentFragment();   // one insertion into the page, not a hundred
    for (const flow of page.flows) {
      const burst = burstOf.get(flow.id);
      if (!burst) drawn.append(timelineRow(flow, names, filterBy, page.clock));
      else if (burst.ids[0] === flow.id) {
        drawn.append(burstRow(burst, page.flows.filter((f) => burstOf.get(f.id) === burst), names, filterBy, page.clock));
      }
    }
    return drawn;
  }

  // A column header's button: the whole history sorted by that column, its natural way first
  // (the listing decides it); the same header again reverses it.
  let listedSort = null;
  let sortRequested = false;   // a header or the notice asked: the new order is said once drawn
  function sortBy(key) {
    const again = listedSort && listedSort.key === key;
    state.sort = again ? `${key}:${listedSort.descending ? "asc" : "desc"}` : key;
    if (state.sort === "time:desc") state.sort = "";
    sortRequested = true;
    loadList(null).then(() => {
      const button = list.querySelector(`button[data-sort="${key}"]`);
      if (button) button.focus();
    });
  }

  /** Sorted otherwise than newest first, the list does not follow new connections: said, with
   *  the way back. Null in time order. */
  function liveNotice(sort) {
    if (!sort || sort.word === "time:desc") return null;
    return h("p", { class: "notice sort-notice" },
      `Sorted by ${sort.sentence}: new connections are not added live — sort by last activity to follow them. `,
      h("button", { type: "button", class: "link-button", on: { click: () => { state.sort = ""; sortRequested = true; loadList(null); } } },
        "Sort by last activity"));
  }

  // Group by host or program: the groups of the whole filtered history with their totals, as
  // `flows --group` gives them; a group's name lists its connections (its search term).
  async function loadGroups() {
    const mine = ++generation;
    replace(status, h("p", { class: "loading", role: "status" }, state.search
      ? "Adding up the connections… (a search is matched connection by connection: over a large history this takes a while)"
      : "Adding up the connections…"));
    replace(footer);
    let answer;
    try {
      answer = await get("/api/flows", { ...listQuery(), since: state.range ? state.range.from : state.since,
                                         until: state.range ? state.range.to : "", group: state.group });
    } catch (error) {
      if (!alive || mine !== generation) return;
      replace(list);
      replace(status, error.status === 404 ? emptyState({ historyEmpty: true, said: error.message })
        : errorCard("The groups could not be read", error, () => loadGroups()));
      return;
    }
    if (!alive || mine !== generation) return;
    list.removeAttribute("role");
    replace(list);
    newest = null;
    if (answer.groups.length === 0) { replace(status, emptyState({ historyEmpty: !filtered() })); return; }
    const one = answer.group === "host" ? "host" : "program";
    const many = answer.group === "host" ? "hosts" : "programs";
    const title = `Connections by ${one}`;
    // The title above the scrolling box (a caption would scroll away with a wide table on a phone).
    replace(status, h("p", { id: "groups-title", class: "groups-title" }, `${title}: ${count(answer.totalGroups, one)}, ranked by ${answer.ranking}`),
      h("div", { class: "table-scroll groups" }, h("table", { class: "group-table", "aria-labelledby": "groups-title" },
      h("thead", {}, h("tr", {}, [one === "host" ? "Host" : "Program", "Connections", "Received", "Sent", "Packets", "First active", "Last active"]
        .map((label, index) => h("th", { scope: "col", class: index > 0 && index < 5 ? "figure" : index >= 5 ? "when" : null }, label)))),
      h("tbody", {}, answer.groups.map((group) => h("tr", {},
        h("th", { scope: "row" }, group.term
          ? h("button", { type: "button", class: "link-button", title: `List the connections of ${group.label}`,
                          on: { click: () => openGroup(group) } }, group.label)
          : group.label),
        h("td", { class: "figure" }, `${group.connections}`),
        h("td", { class: "figure" }, group.bytesInText),
        h("td", { class: "figure" }, group.bytesOutText),
        h("td", { class: "figure" }, `${group.packets}`),
        h("td", { class: "when" }, h("time", { datetime: group.firstSeen }, stamp(group.firstSeen, "date"))),
        h("td", { class: "when" }, h("time", { datetime: group.lastSeen }, stamp(group.lastSeen, "date")))))))));
    replace(footer, h("p", {}, answer.groups.length < answer.totalGroups
      ? `The ${answer.groups.length} ${many} with the most bytes of ${answer.totalGroups}, over every connection the filters keep.`
      : `Every ${one} of the connections the filters keep.`));
  }

  /** A group's connections: its term joins the search, and the list replaces the groups. */
  function openGroup(group) {
    const said = `${state.group} ${group.label}`;
    state.group = "";
    filterBy(group.term, said);
  }

  function drawFooter(page, shown) {
    const more = page.next
      ? h("button", { type: "button", class: "load-older", on: { click: () => loadList(page.next) } },
          page.keptLooking ? "Keep looking" : "Load older connections")
      : null;
    if (shown === 0) { replace(footer); return; }
    if (page.keptLooking) {
      replace(footer, h("p", {}, `Looked through ${count(page.scanned, "connection")} for this page and stopped there; `
        + "older matches may exist."), more);
    } else if (page.hasMore) {
      replace(footer, h("p", {}, `${count(shown, "connection")} shown.`), more);
    } else {
      replace(footer, h("p", {}, filtered() ? `${count(shown, "connection")} ${shown === 1 ? "matches" : "match"}: that is all of them.`
        : `${count(shown, "connection")}: that is the whole history.`));
    }
  }

  function emptyState(page) {
    if (page.historyEmpty) {
      return h("section", { class: "card empty" },
        h("h2", {}, "No connections recorded yet"),
        h("p", {}, "Record what a command says on the network, and its connections appear here:"),
        h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision run -- COMMAND")),
        h("p", {}, "Or see it on a demo first: ", h("code", {}, "sudo tunnelvision demo --ui")),
        page.said ? h("p", { class: "hint" }, `(${page.said})`) : null);
    }
    return h("section", { class: "card empty" },
      h("h2", {}, "No connections match"),
      page.keptLooking
        ? h("p", {}, `None of the ${page.scanned} connections looked through matches. Older ones were not read yet.`)
        : h("p", {}, "No connection in the history matches these filters."),
      h("div", { class: "actions" },
        page.next ? h("button", { type: "button", on: { click: () => loadList(page.next) } }, "Keep looking") : null,
        h("button", { type: "button", on: { click: clearFilters } }, "Clear filters")));
  }

  // A row's host, port or program: its term joins the search (once), which applies at once.
  function filterBy(term, said) {
    if (state.group) state.group = "";
    if (!` ${state.search} `.includes(` ${term} `)) state.search = state.search ? `${state.search} ${term}` : term;
    state.cursor = null;
    syncForm();
    announce(`Filtered by ${said}.`);
    loadList(null);
    form.querySelector("#search").focus();
  }

  // The sentence that says why the search cannot be read, beside its field (null: none).
  function showSearchProblem(problem) {
    const field = form.querySelector("#search");
    const said = form.querySelector("#search-problem");
    said.hidden = problem === null;
    replace(said, problem === null ? null : [h("span", { "aria-hidden": "true" }, "⚠ "), problem]);
    if (problem === null) field.removeAttribute("aria-invalid"); else field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", problem === null ? "search-hint" : "search-problem search-hint");
  }

  // The Encryption boxes, in the listing's words, once its first answer brought them.
  function drawStatusChoices() {
    const fieldset = form.querySelector("fieldset.statuses");
    replace(fieldset, h("legend", {}, "Encryption"),
      state.choices.statuses.map(({ id, label }) => statusCheckbox(id, label)));
    fieldset.hidden = false;
    const sorts = form.querySelector("#sort-by");
    replace(sorts, (state.choices.sorts ?? []).map(({ word, sentence }) =>
      h("option", { value: word }, sentence[0].toUpperCase() + sentence.slice(1))));
    sorts.value = state.sort || "time:desc";
    sorts.closest(".sort-field").hidden = sorts.options.length === 0;
  }

  function filterForm() {
    const search = h("input", { type: "search", id: "search", name: "search", value: state.search,
                                placeholder: "host:example.com port:443 -proto:udp", "aria-describedby": "search-hint",
                                autocapitalize: "off", spellcheck: "false" });
    const program = h("input", { type: "search", id: "program", name: "program", value: state.program,
                                 placeholder: "curl, firefox", "aria-describedby": "program-hint" });
    const group = h("select", { id: "group-by", name: "group" },
      [["", "None"], ["host", "Host"], ["program", "Program"]].map(([value, label]) => h("option", { value, selected: state.group === value }, label)));
    const checkbox = (group, value, label) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: group, value, checked: state[group].includes(value) }), ` ${label}`);
    const since = h("select", { id: "since", name: "since" },
      presets.map(([value, label]) => h("option", { value, selected: state.since === value }, label)));
    const element = h("form", { class: "filters", role: "search", "aria-label": "Filter connections" },
      h("div", { class: "field search-field" }, h("label", { for: "search" }, "Search connections"), search,
        h("button", { type: "submit" }, "Search"),
        h("p", { id: "search-problem", class: "field-problem", role: "alert", hidden: true }),
        h("p", { id: "search-hint", class: "hint" },
          "All terms must hold: words, host:, port:443 or 80-90, proto:udp, status:, program:, http:/api (inspected requests), ja4:, ja3:, ja3s: (TLS fingerprints), an address or 198.18.0.0/15; ",
          "port:80,443 is either, -term excludes.")),
      // The other filters: open on a wide screen (or when one is set); behind "More filters" on a
      // phone, so the first connection is on its first screen.
      h("details", { class: "more-filters", open: wideScreen.matches || moreFiltersSet() },
        h("summary", {}, "More filters"),
        h("div", { class: "more-fields" },
          h("div", { class: "field" }, h("label", { for: "program" }, "Program"), program,
            h("span", { id: "program-hint", class: "visually-hidden" }, "Its command or executable's name; several separated by commas")),
          h("fieldset", {}, h("legend", {}, "Protocol"),
            Object.entries(protocols).filter(([id]) => id !== "icmpv6").map(([id, label]) => checkbox("protocols", id, label))),
          h("fieldset", { class: "statuses", hidden: true }),
          h("div", { class: "field" }, h("label", { for: "since" }, "Time"), since),
          h("div", { class: "field" }, h("label", { for: "group-by" }, "Group by"), group),
          // The order as a choice too: a phone's cards have no column headers to sort by.
          h("div", { class: "field sort-field", hidden: true }, h("label", { for: "sort-by" }, "Sort by"),
            h("select", { id: "sort-by", name: "sort" })),
          h("button", { type: "button", class: "secondary", on: { click: clearFilters } }, "Clear filters"))));
    const apply = () => {
      state.search = search.value.trim();
      state.program = program.value.trim();
      state.group = group.value;
      state.protocols = [...element.querySelectorAll("input[name=protocols]:checked")].map((box) => box.value);
      state.statuses = [...element.querySelectorAll("input[name=statuses]:checked")].map((box) => box.value);
      const preset = since.value;
      // A preset is relative to now, a picked interval absolute: picking one drops the other.
      if (preset !== state.since && preset !== "" && (state.range || state.zoom.length)) {
        state.since = preset; state.zoom = []; state.range = null; state.cursor = null;
        reload();
        return;
      }
      state.since = preset;
      loadList(null);
    };
    element.addEventListener("submit", (event) => { event.preventDefault(); apply(); });
    // Search applies on submit and on clear; the boxes and the time apply as they change.
    search.addEventListener("search", () => { if (search.value === "") apply(); });
    program.addEventListener("search", () => { if (program.value === "") apply(); });
    const changed = () => {
      const keep = [search.value, program.value];
      search.value = state.search; program.value = state.program;
      apply();
      [search.value, program.value] = keep;
    };
    for (const input of element.querySelectorAll("input[type=checkbox], select:not(#sort-by)")) input.addEventListener("change", changed);
    element.querySelector("#sort-by").addEventListener("change", (event) => {
      state.sort = event.target.value === "time:desc" ? "" : event.target.value;
      sortRequested = true;
      loadList(null);
    });
    statusCheckbox = (id, label) => {
      const box = checkbox("statuses", id, label);
      box.querySelector("input").addEventListener("change", changed);
      return box;
    };
    return element;
  }

  function syncForm() {
    form.querySelector("#search").value = state.search;
    showSearchProblem(null);
    form.querySelector("#program").value = state.program;
    form.querySelector("#group-by").value = state.group;
    form.querySelector("#sort-by").value = state.sort || "time:desc";
    form.querySelector("#since").value = state.since;
    for (const box of form.querySelectorAll("input[type=checkbox][name]")) box.checked = state[box.name].includes(box.value);
  }

  // The bars follow the width: a window made wider or narrower redraws the axis with as many as fit.
  let capacity = axisBars(main), resizing = null;
  const onResize = () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (axisBars(main) !== capacity) { capacity = axisBars(main); loadAxis(); }
    }, 200);
  };
  window.addEventListener("resize", onResize);
  // A window made wide shows every filter open, as a wide screen's first view does.
  const onWide = () => { if (wideScreen.matches) form.querySelector("details.more-filters").open = true; };
  wideScreen.addEventListener("change", onWide);

  // Live: while the list shows the newest connections (no stretch picked, not grouped, in time order),
  // the connections active since the newest one listed are asked for every 2 s, with the person's
  // filters, and drawn in place — a new one on top, one that moved again redrawn on top (the list
  // is by last activity) — and the axis follows every 10 s while no stretch is zoomed into. The
  // browser's scroll anchoring keeps what the person is reading where it is.
  let newest = null;   // the newest lastSeen listed (ISO): what "since" asks after
  let polls = 0, polling = false;
  const livePoll = setInterval(async () => {
    if (!alive || polling || state.range !== null || state.group || state.sort !== "" || document.hidden) return;
    polling = true;
    try {
      polls += 1;
      if (newest === null) await refreshEmpty(); else await mergeNewer();
      if (polls % 5 === 0 && state.zoom.length === 0 && !axisSection.contains(document.activeElement)) await loadAxis();
    } finally {
      polling = false;
    }
  }, 2000);

  /** An empty list (nothing recorded yet, or nothing matched) is drawn anew once rows exist. */
  async function refreshEmpty() {
    let page;
    try {
      page = await get("/api/flows", { ...listQuery(), limit: 1 });
    } catch {
      return;   // still no history, or the server away: the screen already says which
    }
    if (alive && newest === null && page.flows.length > 0) await reload();
  }

  /** Draws the connections active since the newest one listed: new ones and ones that moved.
   *  All of them, a page of 200 after another: a poll that took only the newest 200 would leave
   *  a hole under them. Past `liveRowsKept` the older ones are not read: the list is then those
   *  newest connections alone, and "Load older connections" goes on past them. */
  async function mergeNewer() {
    const mine = generation;
    const margin = new Date(Date.parse(newest) - 2000).toISOString();   // the store writes in batches
    const flows = [];
    let page;
    try {
      do {
        page = await get("/api/flows", { ...listQuery(), since: margin, limit: 200, after: page?.next ?? "" });
        flows.push(...page.flows);
      } while (page.hasMore && page.next && flows.length < liveRowsKept && alive && mine === generation);
    } catch {
      return;   // a refused or failed poll leaves the list as it is; the next one tries again
    }
    if (!alive || mine !== generation || state.range !== null || state.group || state.sort !== "") return;
    const names = statusNames(page.choices);
    const header = list.querySelector(":scope > li.rows-head");
    const applying = performance.now();
    let applied = 0;
    if (page.hasMore) {
      // More came than the list keeps: what is drawn no longer meets them, so it goes.
      for (const row of list.querySelectorAll(":scope > li.row")) row.remove();
      shownConnections = 0;
      loadedRows = 0;
    }
    // The drawn rows by connection, found in one pass: a lookup per answered row searched the
    // whole list each time, so a merge grew with the time the page was open (tvlab bench ui:
    // 8 ms a second's flows in 10 s holds, 167 ms after 4 minutes).
    const drawn = new Map();
    for (const link of list.querySelectorAll("a[data-flow]")) if (!drawn.has(link.dataset.flow)) drawn.set(link.dataset.flow, link);
    // Where the drawn list ends while older rows remain (its footer offers them): a connection
    // not drawn that sorts under it is "Load older"'s, not new (many can share the 2 s margin).
    const bottom = footer.querySelector("button.load-older") ? list.lastElementChild?.dataset.after || null : null;
    // Oldest first, so the newest ends on top.
    for (const flow of [...flows].reverse()) {
      const existing = drawn.get(`${flow.id}`)?.closest("li.row");
      // A connection inside a burst row stays in its burst; an unchanged one is left alone.
      if (existing && (existing.parentElement !== list || existing.dataset.seen === `${flow.lastSeen} ${flow.packets}`)) continue;
      if (!existing && bottom && flow.after && !sortsAbove(flow.after, bottom)) continue;
      const row = timelineRow(flow, names, filterBy, page.clock);
      if (existing) existing.remove(); else shownConnections += 1;
      if (header) header.after(row); else list.prepend(row);
      if (page.clock === "date") list.classList.add("clock-date");
      applied += 1;
    }
    if (flows.length > 0 && Date.parse(flows[0].lastSeen) > Date.parse(newest)) newest = flows[0].lastSeen;
    if (page.hasMore) {
      drawFooter({ next: flows[flows.length - 1]?.after ?? null, hasMore: true, keptLooking: false }, shownConnections);
    } else if (applied > 0) {
      dropOldestPastTheLimit();
    }
    // Named for `tvlab bench ui` (its PerformanceObserver; issue 25: ≤ 50 ms of script a second's
    // flows); only the latest is kept, so a page left open for days does not pile them up.
    performance.clearMeasures("tunnelvision.timeline.live-apply");
    performance.measure("tunnelvision.timeline.live-apply", { start: applying, detail: { applied, received: flows.length } });
  }

  /** Whether position `a` comes before `b` newest first ("nanoseconds-id", as `after` writes it
   *  in time order; BigInt, since nanoseconds pass 2^53). */
  function sortsAbove(a, b) {
    const [instantA, idA] = a.split("-").map(BigInt), [instantB, idB] = b.split("-").map(BigInt);
    return instantA > instantB || (instantA === instantB && idA > idB);
  }

  /** A page left open does not grow without end (nor its merges with it): past the rows loaded
   *  plus `liveRowsKept`, the oldest go, and the footer's "Load older connections" goes on just
   *  past the last one kept (its `after`), so nothing is skipped or shown twice. */
  function dropOldestPastTheLimit() {
    const drawnRows = list.querySelectorAll(":scope > li.row");
    const excess = drawnRows.length - (loadedRows + liveRowsKept);
    if (excess <= 0) return;
    for (let index = drawnRows.length - excess; index < drawnRows.length; index += 1) {
      shownConnections -= drawnRows[index].querySelectorAll("a[data-flow]").length;
      drawnRows[index].remove();
    }
    const after = drawnRows[drawnRows.length - excess - 1]?.dataset.after;
    drawFooter({ next: after || null, hasMore: true, keptLooking: false }, shownConnections);
  }

  /** Export what the list shows: its filters and stretch, as `export --csv|--har` takes them. */
  function exportSection() {
    const said = h("p", { class: "download-problem", role: "alert" });
    const offer = (format, label) => h("button", { type: "button", on: { click: async () => {
      said.textContent = "";
      const query = new URLSearchParams({ format });
      for (const [name, value] of Object.entries({ ...listQuery(), since: state.range ? state.range.from : state.since,
                                                     until: state.range ? state.range.to : "", sort: state.sort })) {
        const text = Array.isArray(value) ? value.join(",") : value;
        if (name !== "zone" && text) query.set(name, text);
      }
      try {
        await postDownload(`/api/export?${query}`, `connections.${format}`);
        announce(`The ${label} file was handed over.`);
      } catch (error) {
        said.textContent = `The ${label} file could not be made: ${error.message}`;
      }
    } } }, label);
    return h("section", { class: "card export-list", "aria-labelledby": "export-list-title" },
      h("h2", { id: "export-list-title" }, "Export these connections"),
      h("p", { class: "hint" }, "The connections the filters and the stretch above keep, in the list's order (at most its first 20 000): "
        + "CSV or JSON of their metadata, or HAR of the requests and responses of the inspected ones whose content was kept."),
      h("p", { class: "actions" }, offer("csv", "CSV"), offer("json", "JSON"), offer("har", "HAR")),
      said);
  }

  /** The list's question as the form and the range ask it, for a poll. */
  function listQuery() {
    return { search: state.search, program: state.program, protocol: state.protocols, status: state.statuses,
             since: state.since, zone };
  }

  const memory = place.keeper(list);   // where this entry of the history was: pages, scroll, the row opened
  (async () => {
    const listed = memory.restore(loadList);
    await Promise.all([loadAxis(listed), listed]);
    memory.land();
  })();
  return {
    stop: () => {
      alive = false; clearInterval(livePoll); window.removeEventListener("resize", onResize); clearTimeout(resizing);
      wideScreen.removeEventListener("change", onWide);
      memory.stop();
    },
    // The server answers again: what came meanwhile joins the list (in time order only), and the axis follows.
    refresh: () => { if (newest !== null && state.range === null && !state.group && !state.sort) mergeNewer(); loadAxis(); },
  };
}
