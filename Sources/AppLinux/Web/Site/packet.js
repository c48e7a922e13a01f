// Packet detail: one packet down to its bytes — hex + ASCII as the terminal draws them, the
// headers grid, the DNS reading, and in words every reason bytes are not shown.
// From `tunnelvision flow ID --packet N --json`.

import { get } from "./api.js";
import { h, replace, when, errorCard, facts, capitalised } from "./dom.js";

function dnsReading(dns) {
  if (!dns) return null;
  let rows;
  if (dns.kind === "unreadable") {
    rows = [["Reading", dns.unreadable === "keptTooLittle"
      ? "The capture kept too little of this packet to read it as DNS (Settings → capture detail keeps more)."
      : `This is not a DNS message${dns.reason ? `: ${dns.reason}` : ""}.`]];
  } else {
    rows = [
      ["Kind of message", dns.kind === "query" ? "A question" : "An answer"],
      ["Looked up", dns.lookedUp ?? "nothing"],
      ["Record type", dns.recordType ?? "unknown"],
    ];
    if (dns.kind === "response") {
      if (dns.addresses?.length) rows.push(["Addresses", dns.addresses.join(", ")]);
      if (dns.names?.length) rows.push(["Names", dns.names.join(", ")]);
      if (dns.undecodedRecords) rows.push(["Records not decoded", String(dns.undecodedRecords)]);
      if (dns.noAnswer) rows.push(["No answer because", dns.noAnswer]);
    }
  }
  return h("section", { class: "card", "aria-labelledby": "dns-title" }, h("h2", { id: "dns-title" }, "DNS"), facts(rows));
}

function headersGrid(packet) {
  if (packet.headers.length === 0 && !packet.headersError) return null;
  return h("section", { class: "card", "aria-labelledby": "headers-title" },
    h("h2", { id: "headers-title" }, "Headers"),
    packet.headersError ? h("p", { class: "notice" }, `The headers cannot be read: ${packet.headersError}.`) : null,
    packet.headers.length ? h("div", { class: "table-scroll" }, h("table", { class: "headers" },
      h("caption", { class: "visually-hidden" }, "Each header field of this packet"),
      h("thead", {}, h("tr", {}, ["Layer", "Field", "Value"].map((title) => h("th", { scope: "col" }, title)))),
      h("tbody", {}, packet.headers.map((field) => h("tr", {}, h("td", {}, field.layer), h("td", {}, field.name), h("td", {}, field.value)))))) : null);
}

function byteDump(packet) {
  const said = [];
  if (packet.note) said.push(capitalised(packet.note) + ".");
  if (packet.bytesNotDrawn > 0) said.push(`${packet.bytesNotDrawnText} more are not drawn here, to keep the screen readable; `
    + "the connection's download has them all.");
  return h("section", { class: "card", "aria-labelledby": "bytes-title" },
    h("h2", { id: "bytes-title" }, "Bytes"),
    said.map((sentence) => h("p", { class: "notice bytes-note" }, sentence)),
    packet.dump.length ? h("pre", { class: "dump", tabindex: 0, "aria-label": "The packet's bytes: offset, hex, then ASCII" }, packet.dump.join("\n")) : null,
    packet.retry ? h("button", { type: "button", class: "retry", on: { click: () => location.reload() } }, "Try again") : null);
}

export function render(main, { id, number }) {
  let alive = true;
  const heading = `Packet ${number} of connection ${id}`;
  replace(main, h("h1", { tabindex: -1 }, heading), h("p", { class: "loading", role: "status" }, "Loading the packet…"));
  (async () => {
    let packet;
    try {
      packet = await get(`/api/flows/${id}/packets/${number}`);
    } catch (error) {
      if (!alive) return;
      replace(main, h("h1", { tabindex: -1 }, heading),
        errorCard(error.status === 404 ? "No such packet" : "The packet could not be read", error, null),
        h("p", {}, h("a", { href: `#/flow/${id}` }, "Back to the connection")));
      return;
    }
    if (!alive) return;
    replace(main,
      h("p", { class: "crumbs" }, h("a", { href: "#/timeline" }, "Timeline"), " › ",
        h("a", { href: `#/flow/${id}` }, `Connection ${id}`), " › ", `Packet ${number}`),
      h("h1", { tabindex: -1 }, `Packet ${number}: ${packet.title}`),
      facts([
        ["Time in the connection", `${packet.seconds.toFixed(3)} s (${when(packet.at)})`],
        ["Direction", packet.direction],
        ["Size", packet.lengthText],
        ["Flags", packet.flags.length ? packet.flags.join(" ") : "none"],
      ]),
      h("nav", { class: "pager", "aria-label": "Packets" },
        Number(number) > 1 ? h("a", { href: `#/flow/${id}/packet/${Number(number) - 1}` }, "← Previous packet") : null,
        h("a", { href: `#/flow/${id}/packet/${Number(number) + 1}` }, "Next packet →")),
      byteDump(packet),
      headersGrid(packet),
      dnsReading(packet.dns));
  })();
  return () => { alive = false; };
}
