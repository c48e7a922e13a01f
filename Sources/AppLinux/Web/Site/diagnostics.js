// Diagnostics: the headline sentence, the notice when name resolution is wrong, and the sections
// and rows of the verdicts, as `tunnelvision diagnostics --json` gives them. Every word shown is
// the command's (titles, labels, values, notes); the identifiers (`key`, `verdict`) stay in data
// attributes for scripts and tests, never on the screen.

import { get } from "./api.js";
import { h, replace, errorCard, facts } from "./dom.js";

function headlineCard(report) {
  return h("section", { class: "card headline", "aria-labelledby": "headline-title", "data-verdict": report.headline.verdict },
    h("h2", { id: "headline-title" }, report.monitoring ? "What this session can see" : "Monitoring is off"),
    h("p", { class: "headline-text" }, report.headline.text),
    report.monitoring ? null : h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision run -- COMMAND")));
}

function resolverCard(notice) {
  return h("section", { class: "card notice-card", role: "note", "aria-labelledby": "resolver-title", "data-verdict": notice.verdict },
    h("h2", { id: "resolver-title" }, "Name resolution"),
    h("p", { class: "notice-text" }, notice.text));
}

// One question: its title, its readings label by label, and the sentence that reads them.
function sectionCard(section) {
  const title = `section-${section.key}`;
  return h("section", { class: "card diagnostics-section", "aria-labelledby": title, "data-section": section.key },
    h("h2", { id: title }, section.title),
    section.rows.length ? facts(section.rows.map((row) => [row.label, row.value]), "facts readings") : null,
    section.note ? h("p", { class: "note" }, section.note) : null);
}

export function render(main) {
  let alive = true;
  const body = h("div", {});
  replace(main, h("h1", { tabindex: -1 }, "Diagnostics"), body);
  async function load() {
    let report;
    try {
      report = await get("/api/diagnostics");
    } catch (error) {
      if (alive) replace(body, errorCard("The diagnostics could not be read", error, load));
      return;
    }
    if (!alive) return;
    replace(body, headlineCard(report), report.resolverNotice ? resolverCard(report.resolverNotice) : null,
      report.sections.map(sectionCard));
  }
  load();
  return () => { alive = false; };
}
