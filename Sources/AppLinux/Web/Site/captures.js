// Captures: the capture files newest first with size and time, the one being recorded marked
// and protected, download, delete (the history stays, the bytes go), a new file, the room left
// against the limit, and the export of every connection (its count and size said first).

import { get, post, postDownload } from "./api.js";
import { h, replace, bytes, when, errorCard, announce, count, downloadLink, capitalised } from "./dom.js";

export function render(main) {
  let alive = true;
  const body = h("div", {});
  replace(main, h("h1", { tabindex: -1 }, "Captures"), body);

  async function load(message) {
    let captures;
    try {
      captures = await get("/api/captures");
    } catch (error) {
      if (alive) replace(body, errorCard("The captures could not be listed", error, () => load()));
      return;
    }
    if (!alive) return;
    const files = [...captures.captures].sort((a, b) => b.sequence - a.sequence);
    replace(body,
      message ? h("p", { class: "notice", role: "status" }, message) : null,
      h("section", { class: "card", "aria-labelledby": "room-title" },
        h("h2", { id: "room-title" }, "Room left"),
        captures.roomLeft?.lines?.map((line) => h("p", {}, capitalised(line) + "."))),
      files.length === 0
        ? h("section", { class: "card empty" }, h("h2", {}, "No capture files yet"),
            h("p", {}, "A running tunnel writes its packets to a capture file here: "), h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision run -- COMMAND")))
        : h("section", { class: "card", "aria-labelledby": "files-title" },
          h("h2", { id: "files-title" }, "Capture files"),
          h("ul", { class: "captures" }, files.map((file) => h("li", { class: "capture" },
            h("div", { class: "capture-head" },
              h("span", { class: "capture-name" }, file.name),
              file.recording ? h("span", { class: "recording" }, h("span", { "aria-hidden": "true" }, "● "), "Recording") : null,
              h("span", { class: "capture-size" }, bytes(file.bytes))),
            h("div", { class: "capture-when" }, `Last written ${when(file.lastWritten)}`),
            file.recording ? h("p", { class: "hint" }, "Being written: it can be downloaded or deleted once the tunnel moves to a new file.")
              : h("div", { class: "actions" },
                downloadLink(`/api/captures/${file.sequence}`, file.name, "Download", { "aria-label": `Download ${file.name}` }),
                h("button", { type: "button", class: "danger", "aria-label": `Delete ${file.name}`, on: { click: () => remove(file) } }, "Delete"))))),
          // The size is said once, beside its limit, under Room left.
          h("p", { class: "hint" }, `${count(captures.count, "capture file")}.`)),
      h("section", { class: "card", "aria-labelledby": "new-title" },
        h("h2", { id: "new-title" }, "New capture file"),
        h("p", {}, "Close the file being recorded and start a new one (only while a tunnel runs)."),
        h("button", { type: "button", on: { click: rotate } }, "New capture file")),
      exportSection());
  }

  async function remove(file) {
    if (!confirm(`Delete ${file.name}? The connections stay in the history; their packets' bytes in this file are gone.`)) return;
    try {
      await post(`/api/captures/${file.sequence}/delete`);
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
          h("p", {}, `${summary.connections} connections, ${summary.bytesEstimated ? "about " : ""}${bytes(summary.bytes)}`
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
  return () => { alive = false; };
}
