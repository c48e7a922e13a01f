// One connection as a timeline row (host and time; what it was; what it moved) and the TLS
// status mark: icon + label + colour, from the JSON's stable identifiers.

import { h, stamp, duration } from "./dom.js";

/** Each status's icon: the look is the browser's, the words are the server's (the listing's
 *  `choices.statuses`, the inspector's `encryptionLabel`). */
const statusIcons = {
  plaintext: "open", encrypted: "closed", inspected: "eye", notInspectable: "shield", inspectionFailed: "broken",
};

/** The listing's `choices.statuses` by id: {label, written}. */
export function statusNames(choices) {
  return Object.fromEntries((choices?.statuses ?? []).map((status) => [status.id, status]));
}

export const protocols = { tcp: "TCP", udp: "UDP", icmp: "ICMP", icmpv6: "ICMPv6" };

const iconPaths = {
  closed: "M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7zm2 0h4V5a2 2 0 0 0-4 0z",
  open: "M4 7V5a4 4 0 0 1 8 0h-2a2 2 0 0 0-4 0v2h7v8H3V7z",
  eye: "M8 3c4 0 7 5 7 5s-3 5-7 5-7-5-7-5 3-5 7-5zm0 2.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z",
  shield: "M8 1l6 2v5c0 4-3 6-6 7-3-1-6-3-6-7V3z",
  broken: "M4 7V5a4 4 0 0 1 8 0v2h1v8H9l1.5-3L8 10l1-3zM6 7h4V5a2 2 0 0 0-4 0zM3 7h4l-1 3 2 2-1.5 3H3z",
};

export function statusIcon(status) {
  const kind = statusIcons[status] ?? "closed";
  return h("svg", { class: "status-icon", viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" }, h("path", { d: iconPaths[kind] }));
}

/** The badge: icon, label, colour class; the label is read aloud only when not `written`. */
export function statusBadge(status, label, written = true) {
  return h("span", { class: `status status-${status}` }, statusIcon(status),
    h("span", { class: written ? "status-label" : "visually-hidden" }, label ?? status));
}

/** A row's badge, as the listing's `names` (`statusNames`) say it. */
function rowBadge(status, names) {
  return statusBadge(status, names[status]?.label, names[status]?.written ?? true);
}

/** Who a connection is with: its name, else the listing's `conversation.label` (the other end's
 *  address, or both ends' when neither is this machine's). */
export function hostOf(flow) {
  if (flow.name) return flow.name;
  return flow.conversation?.label ?? flow.remote?.address ?? "unknown host";
}

/** The end a row's port and host filter speak of: the other end, when one end is this machine's
 *  (a conversation between two other machines has no "other end": null). */
function otherEnd(flow) {
  return flow.conversation?.thisMachine === false ? null : flow.remote ?? null;
}

/** Who opened it, in the listing's words: "curl 4242", "(closed)"… with the whole sentence as
 *  its title; nothing when nobody asked. */
function programMark(label, text) {
  if (!label || label === "-") return null;
  return h("span", { class: "program", title: text ?? label }, h("span", { class: "visually-hidden" }, "Program: "), label);
}

/** A value as the search reads it: bare when it has no space, quote or comma, else quoted; null
 *  when it holds a quote (the search has no escapes, so no term can say it). */
function searchValue(value) {
  if (value.includes('"')) return null;
  return /^[^\s,]+$/.test(value) ? value : `"${value}"`;
}

const funnel = "M1.5 2h13l-5 6v5.5l-3-1.5V8z";

/** A small button that adds `term` to the Timeline's search (`filterBy(term, said)`), named
 *  "Filter by SAID" for assistive technology and as its tooltip; nothing without a term. */
function filterButton(filterBy, term, said) {
  if (!filterBy || !term) return null;
  const name = `Filter by ${said}`;
  return h("button", { type: "button", class: "filter-by", "aria-label": name, title: name, on: { click: () => filterBy(term, said) } },
    h("svg", { class: "filter-icon", viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" }, h("path", { d: funnel })));
}

/** The search term for a row's host: its name (`host:`), else the address shown (exact, either end). */
function hostTerm(flow) {
  if (flow.name) {
    const value = searchValue(flow.name);
    return value && `host:${value}`;
  }
  return otherEnd(flow)?.address ?? null;
}

/** The columns of the list, as `tunnelvision flows` has them (its RECEIVED and SENT apart): a
 *  wide screen draws them as a table's header row; a phone draws each row as a card, where every
 *  cell says what it is in its own words instead. */
export const columns = [
  ["time", "Last active"], ["host", "Host"], ["program", "Program"], ["port", "Port"], ["proto", "Protocol"],
  ["status", "Status"], ["in", "Received"], ["out", "Sent"], ["packets", "Packets"], ["duration", "Duration"],
];

/** Each column's key in `flows --sort` / the API's `sort=`. */
export const sortKeys = {
  time: "time", host: "host", program: "program", port: "port", proto: "protocol", status: "status",
  in: "received", out: "sent", packets: "packets", duration: "duration",
};

/** The list's header row (role="row" of columnheaders), seen as a table's head on a wide screen.
 *  With `onSort`, each header is a button that sorts the whole history by its column
 *  (`onSort(key)`), and `sort` (the listing's `sort`: {key, descending}) sets aria-sort. */
export function headerRow(sort = null, onSort = null) {
  return h("li", { class: "rows-head", role: "row" }, h("span", { class: "rail", "aria-hidden": "true" }),
    columns.map(([key, label]) => {
      if (!onSort) return h("span", { class: `cell c-${key}`, role: "columnheader" }, label);
      const sorted = sort && sort.key === sortKeys[key];
      const direction = sorted ? (sort.descending ? "descending" : "ascending") : "none";
      return h("span", { class: `cell c-${key} sortable`, role: "columnheader", "aria-sort": direction },
        h("button", { type: "button", class: "sort-button", "data-sort": sortKeys[key], on: { click: () => onSort(sortKeys[key]) } },
          label));
    }));
}

/** A list of rows as a table for assistive technology: role="table", its header row first. */
export function rowsTable(attributes = {}, rows = []) {
  return h("ul", { class: "rows", role: "table", ...attributes }, headerRow(), rows);
}

/** A burst's connections: a table of their own (its class `burst-rows`, not `rows`: the list's
 *  own rows are its direct children only). */
function burstTable(attributes, rows) {
  return h("ul", { class: "burst-rows tabled", role: "table", ...attributes }, headerRow(), rows);
}

function cell(key, ...content) {
  return h("span", { class: `cell c-${key}`, role: "cell" }, ...content);
}

/** A connection as a row of cells: the time it is sorted by (its last sighting, written with the
 *  page's `clock`: "time" or "date"), host, program, port, protocol, status, bytes each way,
 *  packets, duration. The host is the link that opens it (the whole row answers a click); with
 *  `filterBy`, the host, the remote port and the program each have a button that adds them to
 *  the search (`host:`, `port:`, `program:`). */
export function timelineRow(flow, names, filterBy = null, clockKind = "time") {
  const remote = otherEnd(flow);
  const ported = remote && (flow.protocol === "tcp" || flow.protocol === "udp");
  const source = flow.nameSourceText;
  // Under the host: its address and where its name came from, or that neither end is this machine.
  const where = [flow.name ? flow.conversation?.label ?? remote?.address : null, source, flow.conversation?.note]
    .filter(Boolean).join(", ");
  const command = flow.program?.state === "program" ? flow.program.command : null;
  const programValue = command ? searchValue(command) : null;
  const program = programValue ? filterButton(filterBy, `program:${programValue}`, `program ${command}`) : null;
  const seen = flow.lastSeen ?? flow.firstSeen;
  // data-seen: what the live Timeline compares to tell a connection that moved from one that did not;
  // data-after: where its listing goes on past it, should the rows under it be dropped.
  return h("li", { class: `row row-card status-${flow.tlsStatus}`, role: "row", "data-program": flow.program?.label ?? "",
                   "data-seen": `${flow.lastSeen} ${flow.packets}`, "data-after": flow.after ?? null },
    h("span", { class: "rail", "aria-hidden": "true" }),
    cell("time", h("time", { datetime: seen }, stamp(seen, clockKind))),
    cell("host",
      h("a", { class: "row-link", href: `#/flow/${flow.id}`, "data-flow": flow.id, title: where || null },
        h("span", { class: "host" }, hostOf(flow))),
      filterButton(filterBy, hostTerm(flow), `host ${hostOf(flow)}`),
      where ? h("span", { class: "where" }, where) : null),
    cell("program", programMark(flow.program?.label, flow.program?.text), program),
    cell("port", remote ? [h("span", { class: "unit" }, "port "), `${remote.port}`] : "–",
      remote && ported ? filterButton(filterBy, `port:${remote.port}`, `port ${remote.port}`) : null),
    cell("proto", protocols[flow.protocol] ?? flow.protocol.toUpperCase()),
    cell("status", rowBadge(flow.tlsStatus, names), flow.statusNote ? h("span", { class: "note" }, flow.statusNote) : null),
    cell("in", h("span", { "aria-hidden": "true" }, "↓ "), flow.bytesInText, h("span", { class: "unit" }, " received")),
    cell("out", h("span", { "aria-hidden": "true" }, "↑ "), flow.bytesOutText, h("span", { class: "unit" }, " sent")),
    cell("packets", `${flow.packets}`, h("span", { class: "unit" }, flow.packets === 1 ? " packet" : " packets")),
    cell("duration", duration(flow.durationSeconds)));
}

/** A burst (the listing's `bursts`: alike connections started together) as one row: the
 *  listing's own sentence, and its connections behind a disclosure, each a row that opens (and,
 *  with `filterBy`, filters as `timelineRow`'s do). */
export function burstRow(burst, flows, names, filterBy = null, clockKind = "time") {
  const first = flows[0];
  const remote = otherEnd(first);
  const what = [protocols[burst.protocol] ?? burst.protocol.toUpperCase()];
  if (remote) what.push(`port ${burst.port ?? remote.port}`);
  if (burst.nameSourceText) what.push(burst.nameSourceText);
  const seen = burst.lastSeen ?? burst.firstSeen;
  return h("li", { class: `row burst status-${burst.tlsStatus}`, role: "row", "data-burst": burst.ids[0],
                   "data-after": flows[flows.length - 1].after ?? null },
    h("div", { class: "burst-cell", role: "cell" },
      h("details", {},
        h("summary", { class: "row-link" },
          h("span", { class: "rail", "aria-hidden": "true" }),
          h("span", { class: "row-body" },
            h("span", { class: "line line-host" },
              h("span", { class: "host" }, `${burst.count} × ${burst.host}`),
              h("time", { datetime: seen }, stamp(seen, clockKind))),
            h("span", { class: "line line-what" }, h("span", {}, what.join(" · ")), programMark(burst.program),
              rowBadge(burst.tlsStatus, names)),
            h("span", { class: "line line-summary" }, burst.summary))),
        burstTable({ "aria-label": `The ${burst.count} connections of this burst` },
          flows.map((flow) => timelineRow(flow, names, filterBy, clockKind))))));
}
