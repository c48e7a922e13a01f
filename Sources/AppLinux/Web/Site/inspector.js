// The Flow Inspector: one connection — six facts, the program that opened it, the proxy request
// that opened it and its Community ID, its name and where the name came from, what its TLS handshake offered and answered,
// the hellos' fingerprints (JA4, JA3, JA3S) and which certificates could be seen, its decrypted content (or why there is none), and its packets
// by meaning, each leading to Packet detail.
// All from `tunnelvision flow ID --json`; every sentence is the command's.

import { get } from "./api.js";
import { h, replace, when, duration, errorCard, facts, downloadLink, capitalised } from "./dom.js";
import { statusBadge, protocols } from "./rows.js";

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
    facts(flow.handshake.map(({ label, text }) => [capitalised(label), text]), "facts handshake"),
    fingerprints(flow.fingerprints),
    chain.length ? h("ol", { class: "chain", "aria-label": "Certificates the server presented" },
      chain.map((certificate) => h("li", {}, h("span", { class: "subject" }, certificate.subject),
        h("span", { class: "hint" }, certificate.text)))) : null);
}

/** The hellos' fingerprints (`flow.fingerprints`): JA4 and JA3 of the client's, JA3S of the
 *  server's, each hash with the string it hashes; each abbreviation is named in full (its title
 *  for a pointer, words a screen reader says). */
function fingerprints(prints) {
  if (!prints) return null;
  const row = (short, long, value, full) => value ? [
    [h("abbr", { title: long }, short), h("span", { class: "visually-hidden" }, `, ${long}`)],
    [h("code", { class: "fingerprint" }, value), full ? h("span", { class: "hint fingerprint" }, ` ${full}`) : null]] : null;
  return h("dl", { class: "facts fingerprints", "aria-label": "TLS fingerprints" }, [
    row("JA4", "JA4 TLS client fingerprint", prints.ja4),
    row("JA3", "JA3 TLS client fingerprint (MD5)", prints.ja3, prints.ja3Full),
    row("JA3S", "JA3S TLS server fingerprint (MD5)", prints.ja3s, prints.ja3sFull),
  ].filter(Boolean).map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
}

/** Bytes as the command rendered them: its text, or its dump lines and what a screen leaves out. */
function shownBytes(part, label) {
  if (typeof part.text === "string") return h("pre", { class: "decrypted-text", tabindex: 0, "aria-label": label }, part.text);
  if (!part.dump) return null;
  return [h("pre", { class: "dump", tabindex: 0, "aria-label": `${label}: offset, hex, then ASCII` }, part.dump.join("\n")),
    part.bytesNotDrawn ? h("p", { class: "hint" }, `${part.bytesNotDrawnText} more are not drawn here.`) : null];
}

/** Fields as a list of names and values, labelled for a screen reader. */
function fieldList(fields, label) {
  return fields.length ? h("dl", { class: "http-headers", "aria-label": label },
    fields.map(([name, value]) => [h("dt", {}, name), h("dd", {}, value)])) : null;
}

/** One HTTP message: its start line, its headers as a list, its body's summary and body, then
 *  any trailers (HTTP/2). */
function message(title, id, part) {
  return h("section", { class: "http-message", "aria-labelledby": id },
    h("h4", { id }, `${title}: `, h("code", {}, part.startLine)),
    fieldList(part.headers, `${title}: headers`),
    h("p", { class: "hint" }, capitalised(part.body.summary) + "."),
    part.body.kind === "none" || part.body.kind === "compressed" ? null : shownBytes(part.body, `${title}: body`),
    part.trailers?.length ? [h("p", { class: "hint" }, "Trailers, sent after the body:"), fieldList(part.trailers, `${title}: trailers`)] : null);
}

/** The WebSocket messages after an upgrade, both directions in the order seen, each headed in
 *  the command's words. */
function webSocketMessages(messages) {
  return h("section", { class: "websocket", "aria-labelledby": "websocket-title" },
    h("h3", { id: "websocket-title" }, `WebSocket: ${messages.length} message${messages.length === 1 ? "" : "s"}`),
    h("ol", { class: "turns", "aria-label": "WebSocket messages, in order" },
      messages.map((message, index) => h("li", { class: `turn ${message.direction}` },
        h("p", { class: "turn-heading" }, h("span", { "aria-hidden": "true" }, message.direction === "sent" ? "↑ " : "↓ "),
          `Message ${index + 1}: ${message.heading}`),
        shownBytes(message, `WebSocket message ${index + 1}`)))));
}

function turnList(turns) {
  return h("ol", { class: "turns", "aria-label": "Decrypted turns, in order" },
    turns.map((turn, index) => h("li", { class: `turn ${turn.direction}` },
      h("p", { class: "turn-heading" }, h("span", { "aria-hidden": "true" }, turn.direction === "sent" ? "↑ " : "↓ "),
        `Turn ${index + 1}: ${turn.heading}`),
      shownBytes(turn, `Turn ${index + 1}`))));
}

/** The *Decrypted content* section: the command's note when there is none, else HTTP/1.1 or
 *  HTTP/2 as requests and responses with the turns under them, or the turns alone. Absent while
 *  unread. */
function decryptedContent(flow) {
  const card = (...content) => h("section", { class: "card decrypted", "aria-labelledby": "decrypted-title" },
    h("h2", { id: "decrypted-title" }, "Decrypted content"), ...content);
  const content = flow.decrypted;
  if (!content || content.turns.length === 0) return flow.decryptedNote ? card(h("p", { class: "notice" }, capitalised(flow.decryptedNote) + ".")) : null;
  const marking = h("p", { class: "marking" }, capitalised(content.marking) + (content.protocolNote ? ` · ${content.protocolNote}` : ""));
  const ending = content.endingNote ? h("p", { class: "notice" }, capitalised(content.endingNote) + ".") : null;
  if (!content.http) return card(marking, turnList(content.turns), ending);
  return card(marking,
    content.http.map((exchange, index) => {
      // HTTP/2 names the stream that carried the exchange, as `flow ID` does.
      const stream = exchange.stream ? ` (stream ${exchange.stream})` : "";
      return h("article", { class: "exchange", "aria-label": `Exchange ${index + 1}${stream}` },
        exchange.request ? message(`Request ${index + 1}${stream}`, `request-${index}`, exchange.request)
          : h("p", { class: "hint" }, `Request ${index + 1}${stream}: ${exchange.requestMissing}.`),
        exchange.interim.map((interim, step) => message("Interim answer", `interim-${index}-${step}`, interim)),
        exchange.response ? message(`Response ${index + 1}`, `response-${index}`, exchange.response)
          : h("p", { class: "hint" }, `Response ${index + 1}: ${exchange.responseMissing}.`),
        (exchange.notes ?? []).map((note) => h("p", { class: "hint" }, capitalised(note) + ".")));
    }),
    content.webSocket ? webSocketMessages(content.webSocket.messages) : null,
    content.httpNotes.map((note) => h("p", { class: "hint" }, capitalised(note) + ".")),
    ending,
    h("details", { class: "turns-as-recorded" }, h("summary", {}, `The ${content.turns.length} turns as recorded`), turnList(content.turns)));
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
          h("td", { class: "number" }, packet.lengthText),
          h("td", {}, h("a", { href: `#/flow/${flow.id}/packet/${packet.number}` }, packet.title)),
          h("td", { class: "flags" }, packet.flags.join(" "))))))),
    flow.footer ? h("p", { class: "hint" }, `${capitalised(flow.footer)}.`) : null);
}

export function render(main, { id }) {
  let alive = true;
  replace(main, h("h1", { tabindex: -1 }, `Connection ${id}`), h("p", { class: "loading", role: "status" }, "Loading the connection…"));
  draw();
  // Back from a server that was away: read again (the connection may have moved since).
  return { stop: () => { alive = false; }, refresh: draw };

  async function draw() {
    let flow;
    try {
      flow = await get(`/api/flows/${id}`);
    } catch (error) {
      if (!alive) return;
      replace(main, h("h1", { tabindex: -1 }, `Connection ${id}`),
        errorCard(error.status === 404 ? "No such connection" : "The connection could not be read", error,
          error.status === 404 ? null : draw),
        h("p", {}, h("a", { href: "#/timeline" }, "Back to the timeline")));
      return;
    }
    if (!alive) return;
    // Its name, else who it is with: the other end, or both ends when neither is this machine.
    const title = flow.name ?? flow.conversation.label;
    const [oneEnd, otherEnd] = flow.conversation.ends.map(({ label, text }) => [label, text]);
    const source = flow.nameSourceText ?? flow.conversation.unnamed;
    replace(main,
      h("p", { class: "crumbs" }, h("a", { href: "#/timeline" }, "Timeline"), " › ", `Connection ${flow.id}`),
      h("h1", { tabindex: -1 }, title),
      h("p", { class: "subtitle" }, capitalised(source),
        flow.otherNames.length ? ` · also called ${flow.otherNames.join(", ")}` : ""),
      flow.conversation.note ? h("p", { class: "notice" }, `${capitalised(flow.conversation.note)}.`) : null,
      facts([
        ["Protocol", `${protocols[flow.protocol] ?? flow.protocol} over ${flow.ipVersion}`],
        ["Encryption", statusBadge(flow.encryption, flow.encryptionLabel)],
        oneEnd,
        // Asked when the connection opened; absent from a history kept before programs were.
        flow.program ? ["Program", flow.program.text] : null,
        otherEnd,
        ["First to last packet", `${when(flow.firstPacket)} – ${when(flow.lastPacket)} (${duration(flow.durationSeconds)})`],
        ["Moved", h("span", { class: "directions" },
          h("span", {}, h("span", { "aria-hidden": "true" }, "↓ "), `${flow.bytesReceivedText} received`),
          h("span", {}, h("span", { "aria-hidden": "true" }, "↑ "), `${flow.bytesSentText} sent`))],
        // Where a SOCKS or HTTP CONNECT request opening the connection asked to go.
        flow.proxy ? ["Proxy request", flow.proxy.text] : null,
        // The name Zeek, Suricata and Wireshark give the same flow; none for ICMP and SCTP.
        flow.communityID ? ["Community ID", h("code", {}, flow.communityID)] : null,
        // A DNS flow: what it asked and how it was answered; DoT, DoQ or DoH: that it is DNS.
        flow.dnsText ? ["Asked DNS", flow.dnsText] : null,
        flow.encryptedDNSText ? ["Encrypted DNS", flow.encryptedDNSText] : null,
      ], "facts six"),
      h("p", { class: "actions" },
        downloadLink(`/api/flows/${flow.id}/capture.pcap`, `connection-${flow.id}.pcap`, "Download this connection's packets"),
        h("span", { class: "hint" }, ` ${flow.storedPackets} packets, as a capture Wireshark opens`)),
      handshake(flow),
      decryptedContent(flow),
      packetTable(flow));
  }
}
