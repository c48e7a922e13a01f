// Captures: the capture files newest first with size and time, the one being recorded marked
// and protected, those holding audit evidence marked, download, delete (the history stays, the
// bytes go; audit evidence only once the person agreed to it), a new file, the room left
// against the limit, and the export of every connection (its count and size said first). Asked
// again every 2 s while shown.

import { get, post, postDeletion, postDownload } from "./api.js";
import { h, replace, when, errorCard, announce, count, downloadLink, capitalised, keyed } from "./dom.js";

/** How often a shown Captures screen asks again (as the Timeline's live list does). */
const everyMilliseconds = 2000;

export function render(main) {
  let alive = true;
  let drawn = null;   // the answer on screen, as text: an answer the same as it is not redrawn
  const body = h("div", {});
  replace(main, h("h1", { tabindex: -1 }, "Captures"), body);
  // The parts a new answer redraws; the rest (a message, New capture file, the export and what
  // it said) stays as the person left it.
  const said = h("div", {});
  const room = h("section", { class: "card", "aria-labelledby": "room-title" });
  const listing = h("div", {});
  const rest = [h("section", { class: "card", "aria-labelledby": "new-title" },
    h("h2", { id: "new-title" }, "New capture file"),
    h("p", {}, "Close the file being recorded and start a new one (only while a tunnel runs)."),
    h("button", { type: "button", on: { click: rotate } }, "New capture file")), exportSection()];

  // `message`: said above the list; `polled`: asked by the timer, so a failure leaves what is
  // drawn (the notice above every screen says when the server is gone).
  async function load(message, polled = false) {
    if (message !== undefined) replace(said, message ? h("p", { class: "notice", role: "status" }, message) : null);
    let captures;
    try {
      captures = await get("/api/captures");
    } catch (error) {
      if (alive && !polled) { drawn = null; replace(body, said, errorCard("The captures could not be listed", error, () => load())); }
      return;
    }
    if (!alive) return;
    const text = JSON.stringify(captures);
    if (text === drawn) return;
    if (drawn === null) replace(body, said, room, listing, rest);
    drawn = text;
    replace(room, h("h2", { id: "room-title" }, "Room left"),
      captures.roomLeft?.lines?.map((line) => h("p", {}, capitalised(line) + ".")));
    drawFiles(captures);
  }

  // The files, newest first, each kept in place while it stays the same file in the same state
  // (a button being pressed is not swapped away); its size and time are updated.
  function drawFiles(captures) {
    const files = [...captures.captures].sort((a, b) => b.sequence - a.sequence);
    if (files.length === 0) {
      replace(listing, h("section", { class: "card empty" }, h("h2", {}, "No capture files yet"),
        h("p", {}, "A running tunnel writes its packets to a capture file here: "), h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision run -- COMMAND"))));
      return;
    }
    let list = listing.querySelector("ul.captures");
    if (!list) {
      list = h("ul", { class: "captures" });
      replace(listing, h("section", { class: "card", "aria-labelledby": "files-title" },
        h("h2", { id: "files-title" }, "Capture files"), list,
        // The size is said once, beside its limit, under Room left.
        h("p", { class: "hint files-count" })));
    }
    keyed(list, files, (file) => `${file.sequence} ${file.recording} ${file.evidence}`, fileRow, (row, file) => {
      row.querySelector(".capture-size").textContent = file.bytesText;
      row.querySelector(".capture-when").textContent = `Last written ${when(file.lastWritten)}`;
    });
    listing.querySelector(".files-count").textContent = `${count(captures.count, "capture file")}.`;
  }

  function fileRow(file) {
    return h("li", { class: "capture" },
      h("div", { class: "capture-head" },
        h("span", { class: "capture-name" }, file.name),
        file.recording ? h("span", { class: "recording" }, h("span", { "aria-hidden": "true" }, "● "), "Recording") : null,
        file.evidence ? h("span", { class: "recording" }, "Audit evidence") : null,
        h("span", { class: "capture-size" }, file.bytesText)),
      h("div", { class: "capture-when" }, `Last written ${when(file.lastWritten)}`),
      file.recording ? h("p", { class: "hint" }, "Being written: it can be downloaded or deleted once the tunnel moves to a new file.")
        : h("div", { class: "actions" },
          downloadLink(`/api/captures/${file.sequence}`, file.name, "Download", { "aria-label": `Download ${file.name}` }),
          h("button", { type: "button", class: "danger", "aria-label": `Delete ${file.name}`, on: { click: () => remove(file) } }, "Delete")));
  }

  async function remove(file) {
    const evidence = file.evidence === true
      ? " It holds audit evidence, which the retention limits keep: its audit session keeps the connections, without these bytes." : "";
    if (!confirm(`Delete ${file.name}? The connections stay in the history; their packets' bytes in this file are gone.${evidence}`)) return;
    try {
      const result = await postDeletion(`/api/captures/${file.sequence}/delete`,
        (problem) => confirm(`${capitalised(problem)}. Delete ${file.name} anyway? Its audit session keeps the connections, without these bytes.`),
        file.evidence === true);
      if (result === null) return load(`${file.name} was not deleted.`);
      if (result.failed?.length) return load(`${file.name} was not deleted: ${result.failed[0].reason}`);
      announce(`${file.name} deleted.`);
      load(`${file.name} was deleted. Its connections stay in the history; their bytes are gone.`);
    } catch (error) {
      load(`${file.name} was not deleted: ${error.message}`);
    }
  }

  async function rotate() {
    try {
      await post("/api/captures/rotate");
      load("A new capture file was started.");
    } catch (error) {
      load(`No new file was started: ${error.message}`);
    }
  }

  function exportSection() {
    const said = h("div", {});
    const ask = h("button", { type: "button", on: { click: async () => {
      replace(said, h("p", { class: "loading", role: "status" }, "Counting the connections…"));
      try {
        const summary = await get("/api/export/summary");
        replace(said,
          h("p", {}, `${summary.connections} connections, ${summary.bytesEstimated ? "about " : ""}${summary.bytesText}`
            + (summary.truncated ? " — truncated to the most recent ones." : ".")
            + " Metadata only: who, when and how much, never what was said."),
          h("button", { type: "button", on: { click: async () => {
            try { await postDownload("/api/export", "connections.json"); announce("The export was handed over."); }
            catch (error) { replace(said, errorCard("The export could not be written", error, null)); }
          } } }, "Save the file"));
      } catch (error) {
        replace(said, errorCard("The export could not be prepared", error, null));
      }
    } } }, "Export all connections");
    return h("section", { class: "card", "aria-labelledby": "export-title" },
      h("h2", { id: "export-title" }, "Export"), h("p", {}, "Every connection as one JSON file."), ask, said);
  }

  load();
  // Live while shown: files grow and new ones start as the tunnel records; a hidden tab does not ask.
  const poll = setInterval(() => { if (alive && !document.hidden) load(undefined, true); }, everyMilliseconds);
  return { stop: () => { alive = false; clearInterval(poll); }, refresh: () => load(undefined, true) };
}
