// Diagnostics: the headline sentence, the notice when name resolution is wrong, and the sections
// and rows of the verdicts, as `tunnelvision diagnostics --json` gives them. Every word shown is
// the command's (titles, labels, values, notes); the identifiers (`key`, `verdict`) stay in data
// attributes for scripts and tests, never on the screen. Asked again every 2 s while shown.

import { get } from "./api.js";
import { h, replace, errorCard, facts, keyed } from "./dom.js";

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

/** How often a shown Diagnostics screen asks again (as the Timeline's live list does). */
const everyMilliseconds = 2000;

export function render(main) {
  let alive = true;
  let drawn = null;   // the answer on screen, as text: an answer the same as it is not redrawn
  const body = h("div", {});
  replace(main, h("h1", { tabindex: -1 }, "Diagnostics"), body);
  // `polled`: a failed poll leaves what is drawn (the notice above every screen says when the
  // server is gone); only a first reading that fails is an error card.
  async function load(polled = false) {
    let report;
    try {
      report = await get("/api/diagnostics");
    } catch (error) {
      if (alive && !polled) { drawn = null; replace(body, errorCard("The diagnostics could not be read", error, () => load())); }
      return;
    }
    if (!alive) return;
    const text = JSON.stringify(report);
    if (text === drawn) return;
    drawn = text;
    // Each section in place (keyed): what did not change is not rebuilt, and the scroll stays.
    const cards = [{ key: "headline", card: headlineCard(report) },
      ...(report.resolverNotice ? [{ key: "resolver", card: resolverCard(report.resolverNotice) }] : []),
      ...report.sections.map((section) => ({ key: `section-${section.key}`, card: sectionCard(section) }))];
    if (!body.querySelector("section.headline")) replace(body);
    keyed(body, cards, (item) => `${item.key} ${item.card.outerHTML}`, (item) => item.card);
  }
  load();
  // Live while shown: the counters move as the tunnel works; a hidden tab does not ask.
  const poll = setInterval(() => { if (alive && !document.hidden) load(true); }, everyMilliseconds);
  return { stop: () => { alive = false; clearInterval(poll); }, refresh: () => load(true) };
}
