// The Flow Inspector: one connection — six facts, its name and where the name came from, what
// its TLS handshake offered and answered and which certificates could be seen, and its packets
// by meaning, each leading to Packet detail. All from `tunnelvision flow ID --json`.

import { get } from "./api.js";
import { h, replace, bytes, when, duration, errorCard, facts } from "./dom.js";
import { statusBadge, protocols, nameSources } from "./rows.js";

/** The handshake in the command's own words (`flow.handshake`), then the certificate chain. */
function handshake(flow) {
  const card = (...content) => h("section", { class: "card", "aria-labelledby": "tls-title" },
    h("h2", { id: "tls-title" }, "Encryption"), ...content);
  if (flow.handshake.length === 0) {
    return card(h("p", {}, flow.encryption === "plaintext"
      ? "No TLS handshake crossed this connection: what it carried was not encrypted."
      : "No TLS handshake of this connection was recorded."));
  }
  const chain = flow.certificates?.chain ?? [];
  return card(
    facts(flow.handshake.map(({ label, text }) => [label[0].toUpperCase() + label.slice(1), text]), "facts handshake"),
    chain.length ? h("ol", { class: "chain", "aria-label": "Certificates the server presented" },
      chain.map((certificate) => h("li", {}, h("span", { class: "subject" }, certificate.subject),
        h("span", { class: "hint" }, certificate.text)))) : null);
}

function packetTable(flow) {
  return h("section", { class: "card", "aria-labelledby": "packets-title" },
    h("h2", { id: "packets-title" }, "Packets"),
    h("div", { class: "table-scroll" },
      h("table", { class: "packets" },
        h("caption", { class: "visually-hidden" }, "This connection's packets, in order, by meaning"),
        h("thead", {}, h("tr", {}, ["#", "Time", "Direction", "Size", "What it was", "Flags"].map((title) => h("th", { scope: "col" }, title)))),
        h("tbody", {}, flow.packets.map((packet) => h("tr", {},
          h("td", { class: "number" }, String(packet.number)),
          h("td", { class: "number" }, `${packet.seconds.toFixed(3)} s`),
          h("td", {}, h("span", { "aria-hidden": "true" }, packet.direction === "sent" ? "↑ " : "↓ "), packet.direction),
          h("td", { class: "number" }, bytes(packet.length)),
          h("td", {}, h("a", { href: `#/flow/${flow.id}/packet/${packet.number}` }, packet.title)),
          h("td", { class: "flags" }, packet.flags.join(" "))))))),
    flow.footer ? h("p", { class: "hint" }, `${flow.footer[0].toUpperCase()}${flow.footer.slice(1)}.`) : null);
}

export function render(main, { id }) {
  let alive = true;
  replace(main, h("h1", { tabindex: -1 }, `Connection ${id}`), h("p", { class: "loading", role: "status" }, "Loading the connection…"));
  (async () => {
    let flow;
    try {
      flow = await get(`/api/flows/${id}`);
    } catch (error) {
      if (!alive) return;
      replace(main, h("h1", { tabindex: -1 }, `Connection ${id}`),
        errorCard(error.status === 404 ? "No such connection" : "The connection could not be read", error,
          error.status === 404 ? null : () => render(main, { id })),
        h("p", {}, h("a", { href: "#/timeline" }, "Back to the timeline")));
      return;
    }
    if (!alive) return;
    const title = flow.name ?? flow.remote ?? flow.ends[1];
    const source = flow.nameSource ? nameSources[flow.nameSource] ?? flow.nameSource : "no name was seen; this is its address";
    replace(main,
      h("p", { class: "crumbs" }, h("a", { href: "#/timeline" }, "Timeline"), " › ", `Connection ${flow.id}`),
      h("h1", { tabindex: -1 }, title),
      h("p", { class: "subtitle" }, source[0].toUpperCase() + source.slice(1),
        flow.otherNames.length ? ` · also called ${flow.otherNames.join(", ")}` : ""),
      facts([
        ["Protocol", `${protocols[flow.protocol] ?? flow.protocol} over ${flow.ipVersion}`],
        ["Encryption", statusBadge(flow.encryption, true)],
        ["This machine", flow.local ?? flow.ends[0]],
        ["Other end", flow.remote ?? flow.ends[1]],
        ["First to last packet", `${when(flow.firstPacket)} – ${when(flow.lastPacket)} (${duration(flow.durationSeconds)})`],
        ["Moved", h("span", { class: "directions" },
          h("span", {}, h("span", { "aria-hidden": "true" }, "↓ "), `${bytes(flow.bytesReceived)} received`),
          h("span", {}, h("span", { "aria-hidden": "true" }, "↑ "), `${bytes(flow.bytesSent)} sent`))],
      ], "facts six"),
      h("p", { class: "actions" },
        h("a", { class: "button", href: `/api/flows/${flow.id}/capture.pcap`, download: `connection-${flow.id}.pcap` },
          "Download this connection's packets"),
        h("span", { class: "hint" }, ` ${flow.storedPackets} packets, as a capture Wireshark opens`)),
      handshake(flow),
      packetTable(flow));
  })();
  return () => { alive = false; };
}
