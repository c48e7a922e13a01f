// Settings → Decrypted content: keep it or not (the switch can be turned on only while inspection
// is on, always off; a running tunnel stops keeping at once), how long (1 hour / 1 day / 1 week,
// no "forever"), the fixed ceiling stated, and *Delete decrypted content*, asked first.
// The figures, the ceiling's sentence and the switch's rule and hint come from `storage --json`'s
// "plaintext" (DecryptedContentCard, Swift, tested there); nothing is decided here.

import { post } from "./api.js";
import { h, announce } from "./dom.js";

// The JSON's identifier → [the value `settings set plaintext-age` takes, the words shown].
const ages = [["oneHour", "1h", "1 hour"], ["oneDay", "1d", "1 day"], ["oneWeek", "1w", "1 week"]];

/** The card; `reload(message)` redraws the page with a message once something changed. */
export function decryptedCard(settings, storage, reload) {
  // The switch's rule and hint are DecryptedContentCard's, carried in storage --json's "plaintext".
  const card = { keepSwitchEnabled: storage.plaintext.keepSwitchEnabled === true,
    keepHint: storage.plaintext.keepHint ?? null, ceilingSentence: storage.plaintext.ceilingSentence };
  const keep = h("input", { type: "checkbox", role: "switch", id: "setting-plaintext-persistence",
    checked: settings.plaintextPersistenceEnabled, "aria-checked": String(settings.plaintextPersistenceEnabled),
    disabled: !card.keepSwitchEnabled,
    "aria-describedby": card.keepHint ? "plaintext-keep-hint" : null });
  keep.addEventListener("change", async () => {
    const value = keep.checked ? "on" : "off";
    keep.setAttribute("aria-checked", String(keep.checked));
    try {
      const result = await post("/api/settings", { setting: "plaintext-persistence", value });
      announce(`Keep decrypted content: ${value}.`);
      reload((keep.checked ? "Decrypted content is kept from the next inspected connection on."
        : "Decrypted content is no longer kept; what was kept stays until it expires or is deleted.")
        + (result.tunnel ? ` ${result.tunnel}.` : ""));
    } catch (error) {
      reload(`Keep decrypted content was not changed: ${error.message}`);
    }
  });

  const age = h("select", { id: "setting-plaintext-age", name: "plaintext-age" },
    ages.map(([json, value, words]) => h("option", { value, selected: json === settings.retention.maxPlaintextAge }, words)));
  age.addEventListener("change", async () => {
    try {
      await post("/api/settings", { setting: "plaintext-age", value: age.value });
      // Saved, then applied at once, like the other limits.
      const result = await post("/api/storage/apply");
      announce("Keep decrypted content for: saved.");
      reload(`Keep decrypted content for: saved. ${(result.lines ?? []).join("; ")}`);
    } catch (error) {
      reload(`Keep decrypted content for was not changed: ${error.message}`);
    }
  });

  const kept = storage.plaintext;
  async function clearPlaintext() {
    const what = kept.files === null ? "all decrypted content" : `${kept.files} files of decrypted content (${kept.bytesText})`;
    if (!confirm(`Delete decrypted content? This deletes ${what}; a file a running tunnel is writing is kept. `
      + "History and captures stay.")) return;
    try {
      const result = await post("/api/storage/clear-plaintext");
      reload((result.lines ?? ["The decrypted content was deleted."]).join(" "));
    } catch (error) {
      reload(`Nothing was deleted: ${error.message}`);
    }
  }

  return h("section", { class: "card", "aria-labelledby": "decrypted-title", id: "decrypted-card" },
    h("h2", { id: "decrypted-title" }, "Decrypted content"),
    h("p", {}, "When inspection decrypts a connection, its content can be kept on this machine to read back "
      + "later, apart from the history. It is off unless you turn it on."),
    h("div", { class: "field" }, h("label", { class: "check", for: keep.id }, keep, " Keep decrypted content")),
    card.keepHint ? h("p", { class: "hint", id: "plaintext-keep-hint" }, card.keepHint) : null,
    h("div", { class: "field" }, h("label", { for: age.id }, "Keep decrypted content for"), age),
    h("p", { class: "hint", id: "plaintext-ceiling" }, card.ceilingSentence),
    h("p", {}, kept.problem ? `Kept now: cannot be read (${kept.problem}).`
      : `Kept now: ${kept.bytesText} in ${kept.files} ${kept.files === 1 ? "file" : "files"}.`),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "danger", id: "clear-plaintext", on: { click: clearPlaintext } }, "Delete decrypted content")));
}
