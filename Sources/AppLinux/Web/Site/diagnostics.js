// Diagnostics: the headline sentence, the notice when name resolution is wrong, and the sections
// and rows of the verdicts, as `tunnelvision diagnostics --json` gives them.

import { get } from "./api.js";
import { h, replace, errorCard } from "./dom.js";
import { readable, words } from "./inspector.js";

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
    replace(body,
      h("section", { class: "card headline", "aria-labelledby": "headline-title" },
        h("h2", { id: "headline-title" }, report.monitoring ? "What this session can see" : "Monitoring is off"),
        h("p", { class: "headline-text" }, report.headline.text),
        report.monitoring ? null : h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision run -- COMMAND"))),
      report.resolverNotice ? h("section", { class: "card notice-card", role: "note", "aria-labelledby": "resolver-title" },
        h("h2", { id: "resolver-title" }, "Name resolution"), readable(report.resolverNotice)) : null,
      report.sections.map((section, index) => h("section", { class: "card", "aria-labelledby": `section-${index}` },
        h("h2", { id: `section-${index}` }, section.title ?? words(section.name ?? `Section ${index + 1}`)),
        readable(Object.fromEntries(Object.entries(section).filter(([key]) => key !== "title" && key !== "name"))))));
  }
  load();
  return () => { alive = false; };
}
