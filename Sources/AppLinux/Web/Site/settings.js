// Settings: what Start monitors (settings-monitoring.js), looking inside secure traffic (settings-ca.js), decrypted content (settings-decrypted.js),
// capture detail and the retention limits (saved, then applied at once — a limit that
// waits for a button is not a limit), the disk used, Apply limits now, Delete everything (asked
// first, naming what goes), the introduction again, and what stays private.
// Reads `settings --json` and `storage --json`; writes through `settings set` and `storage`.

import { get, post, postDeletion } from "./api.js";
import { h, replace, errorCard, announce, facts, capitalised } from "./dom.js";
import { forgetSeen } from "./welcome.js";
import { certificateCard } from "./settings-ca.js";
import { decryptedCard } from "./settings-decrypted.js";
import { monitoringCard } from "./settings-monitoring.js";

// Each choice: the JSON's identifier → [the value `settings set` takes, the words shown].
const choices = {
  "capture-detail": { read: (s) => s.captureDetail, label: "Capture detail", options: [
    ["fullPayload", "full", "Whole packets"], ["metadataOnly", "metadata", "The first 128 bytes of each packet"]] },
  "retention-age": { read: (s) => s.retention.maxAge, label: "Keep history and captures for", options: [
    ["oneDay", "1d", "1 day"], ["oneWeek", "1w", "1 week"], ["oneMonth", "30d", "30 days"], ["unlimited", "unlimited", "No limit"]] },
  "retention-size": { read: (s) => s.retention.maxCaptureSize, label: "Captures may take", options: [
    ["megabytes256", "256MiB", "256 MiB"], ["gigabytes1", "1GiB", "1 GiB"], ["gigabytes4", "4GiB", "4 GiB"], ["unlimited", "unlimited", "No limit"]] },
};

export function render(main) {
  let alive = true;
  const body = h("div", {});
  replace(main, h("h1", { tabindex: -1 }, "Settings"), body);

  async function load(message) {
    let settings, storage;
    try {
      [settings, storage] = await Promise.all([get("/api/settings"), get("/api/storage")]);
    } catch (error) {
      if (alive) replace(body, errorCard("The settings could not be read", error, () => load()));
      return;
    }
    if (!alive) return;
    replace(body,
      message ? h("p", { class: "notice", role: "status" }, message) : null,
      certificateCard((next) => load(next)),
      // Directly under the secure-traffic card, as the spec places it.
      decryptedCard(settings, storage, load),
      monitoringCard(settings, load),
      h("section", { class: "card", "aria-labelledby": "recording-title" },
        h("h2", { id: "recording-title" }, "Recording"),
        h("p", {}, `Packets are ${settings.captureEnabled ? "written to capture files" : "not written to capture files"}. `
          + (settings.tlsInspectionEnabled
            ? "Look inside secure traffic is on: HTTPS is decrypted only for a command started with 'tunnelvision run --inspect'; "
              + "all other secure traffic stays private."
            : "Look inside secure traffic is off: secure traffic is not decrypted, its content stays private.")),
        choice("capture-detail", settings),
        h("p", { class: "hint" }, "A running tunnel applies a change at once, in a new capture file; otherwise the next one starts with it.")),
      h("section", { class: "card", "aria-labelledby": "storage-title" },
        h("h2", { id: "storage-title" }, "Storage"),
        choice("retention-age", settings),
        choice("retention-size", settings),
        facts([["Captures", `${storage.captures.bytesText} in ${storage.captures.files} files`],
               ["History", `${storage.history.connections ?? "?"} connections, ${storage.history.bytesText}`],
               ["Decrypted content", storage.plaintext.problem ? "cannot be read"
                 : `${storage.plaintext.bytesText} in ${storage.plaintext.files} files`],
               ["In all", storage.totalBytesText]], "counters"),
        h("div", { class: "actions" },
          h("button", { type: "button", on: { click: apply } }, "Apply limits now"),
          h("button", { type: "button", class: "danger", on: { click: () => clearAll(storage) } }, "Delete everything"))),
      h("section", { class: "card", "aria-labelledby": "about-title" },
        h("h2", { id: "about-title" }, "About and privacy"),
        h("p", {}, "Nothing leaves this machine: no account, no cloud, nothing uploaded. This page is served by "
          + "'tunnelvision ui' on this machine only, behind a secret that changes each time it starts."),
        h("button", { type: "button", on: { click: () => { forgetSeen(); location.hash = "#/welcome"; } } }, "Show the introduction again")));
  }

  function choice(name, settings) {
    const spec = choices[name];
    const current = spec.read(settings);
    const id = `setting-${name}`;
    const select = h("select", { id, name },
      spec.options.map(([json, value, words]) => h("option", { value, selected: json === current }, words)));
    select.addEventListener("change", async () => {
      try {
        await post("/api/settings", { setting: name, value: select.value });
        // Saved first, then applied: a limit that waited for a button would not be a limit.
        let applied = "";
        if (name.startsWith("retention")) {
          const result = await post("/api/storage/apply");
          applied = " " + (result.lines ?? []).join("; ");
        }
        announce(`${spec.label}: saved.`);
        load(`${spec.label} saved.${applied}`);
      } catch (error) {
        load(`${spec.label} was not changed: ${error.message}`);   // the control goes back to what is stored
      }
    });
    return h("div", { class: "field" }, h("label", { for: id }, spec.label), select);
  }

  async function apply() {
    try {
      const result = await post("/api/storage/apply");
      load((result.lines ?? ["The limits were applied."]).join(" "));
    } catch (error) {
      load(`The limits were not applied: ${error.message}`);
    }
  }

  async function clearAll(storage) {
    // Audit evidence goes too: said with its count (the projects and sessions stay, without it).
    const evidence = storage.history.auditConnections;
    const audit = evidence > 0 ? ` (${evidence} of them audit evidence, which the retention limits keep: their audit sessions `
      + "stay, without it)" : "";
    const what = `${storage.history.connections ?? "all"} connections${audit}, ${storage.captures.files} capture files `
      + `(${storage.captures.bytesText}) and ${storage.plaintext.files ?? "all"} files of decrypted content (${storage.plaintext.bytesText})`;
    if (!confirm(`Delete everything? This deletes ${what}; a capture being recorded and a file of decrypted content `
      + "being written are kept.")) return;
    try {
      const result = await postDeletion("/api/storage/clear",
        (problem) => confirm(`${capitalised(problem)}. Delete everything anyway?`), evidence > 0);
      if (result === null) return load("Nothing was deleted.");
      load((result.lines ?? ["Everything was deleted."]).join(" "));
    } catch (error) {
      load(`Nothing was deleted: ${error.message}`);
    }
  }

  load();
  // Back from a server that was away: read again what is stored (it may have changed meanwhile).
  return { stop: () => { alive = false; }, refresh: () => load() };
}
