// Audit: network evidence for a security assessment. The session recording now with its marker
// buttons, projects with their allowlists and sessions, a session's findings with their
// connections one click away, and the diff of two releases. Every action is the command's own
// (`tunnelvision audit …`, sent as its words): the server decides, this page only asks and says.

import { get, post } from "./api.js";
import { h, replace, when, errorCard, announce, count, downloadLink } from "./dom.js";

export function render(main) {
  let alive = true;
  const said = h("div", {});
  const recordingCard = h("section", { class: "card audit-recording", "aria-labelledby": "recording-title" });
  const projectsCard = h("section", { class: "card", "aria-labelledby": "projects-title" });
  const detail = h("div", {});
  replace(main, h("h1", { tabindex: -1 }, "Audit"),
    h("p", { class: "subtitle" }, "Network evidence for a security assessment: which hosts a program reached, over what, "
      + "whether it pins, and what it sent before consent."),
    said, recordingCard, detail, projectsCard, newProjectCard());

  function say(message) {
    replace(said, message ? h("p", { class: "notice", role: "status" }, message) : null);
    if (message) announce(message);
  }

  // One of `tunnelvision audit`'s actions; the overview is asked again after it, either way.
  async function act(words, done) {
    try {
      const answer = await post("/api/audit", { arguments: words });
      say(done(answer));
    } catch (error) {
      say(error.message);
    }
    await load();
  }

  async function load() {
    let overview;
    try {
      overview = await get("/api/audit");
    } catch (error) {
      if (alive) replace(projectsCard, errorCard("The audit projects could not be read", error, load));
      return;
    }
    if (!alive) return;
    drawRecording(overview);
    drawProjects(overview);
  }

  function drawRecording(overview) {
    const recording = overview.recording;
    if (!recording) {
      replace(recordingCard, h("h2", { id: "recording-title" }, "No session recording"),
        h("p", {}, "Record a session around one command (its every connection is evidence):"),
        h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision audit record --project NAME --release VERSION --inspect -- COMMAND")),
        overview.projects.length ? startForm(overview.projects) : null);
      return;
    }
    const custom = h("input", { type: "text", id: "marker-words", autocomplete: "off" });
    replace(recordingCard,
      h("h2", { id: "recording-title" }, h("span", { class: "recording" }, h("span", { "aria-hidden": "true" }, "● "), "Recording"),
        ` session ${recording.id} of ${recording.project}`),
      h("p", {}, `${kind(recording)}, since ${when(recording.startedAt)}.`),
      h("div", { class: "actions", role: "group", "aria-label": "Markers" },
        overview.markers.map((marker) => h("button", { type: "button", on: { click: () => mark(marker.word) } }, marker.title))),
      h("form", { class: "actions", on: { submit: (event) => { event.preventDefault(); if (custom.value.trim()) mark(custom.value); } } },
        h("label", { for: "marker-words" }, "A marker in your words"), custom, h("button", { type: "submit" }, "Place marker")),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "danger", on: { click: () => act(["end", String(recording.id)],
          (answer) => `Session ${answer.session.id} ended with ${count(answer.flowCount, "connection")}.`) } }, "End session")));
  }

  function mark(marker) {
    act(["mark", marker], (answer) => `Marked “${answer.marker.title}” at ${when(answer.marker.at)} `
      + `in session ${answer.session.id} (${answer.session.project}).`);
  }

  // A host-wide session around the running service (Dashboard's Start monitoring).
  function startForm(projects) {
    const project = h("select", { id: "start-project" }, projects.map((p) => h("option", { value: String(p.id) }, p.name)));
    const release = h("input", { type: "text", id: "start-release", placeholder: "2.1+45", autocomplete: "off" });
    const baseline = h("input", { type: "checkbox", id: "start-baseline" });
    return h("form", { class: "audit-start", "aria-label": "Start a session around the monitoring service", on: { submit: (event) => {
      event.preventDefault();
      const words = ["start", "--project", project.value, ...(baseline.checked ? ["--baseline"] : ["--release", release.value])];
      act(words, (answer) => `Session ${answer.session.id} started.`);
    } } },
      h("p", {}, "Or around the monitoring service (Dashboard → Start monitoring), for everything this machine says:"),
      h("div", { class: "actions" },
        h("label", { for: "start-project" }, "Project"), project,
        h("label", { for: "start-release" }, "Release"), release,
        h("label", {}, baseline, " Baseline (without the audited program)"),
        h("button", { type: "submit" }, "Start session")));
  }

  function drawProjects(overview) {
    if (!overview.projects.length) {
      replace(projectsCard, h("h2", { id: "projects-title" }, "Projects"),
        h("p", {}, "No audit projects yet: make one below with the hosts the audited program may reach."));
      return;
    }
    replace(projectsCard, h("h2", { id: "projects-title" }, "Projects"),
      h("ul", { class: "audit-projects" }, overview.projects.map(projectItem)));
  }

  function projectItem(project) {
    const pattern = h("input", { type: "text", id: `allow-${project.id}`, autocomplete: "off", placeholder: "*.example.com" });
    const ended = project.sessions.filter((s) => !s.open && s.kind === "audit");
    return h("li", { class: "audit-project" },
      h("h3", {}, project.name),
      h("p", { class: "hint" }, `Catalogue ${project.catalogue}` + (project.bundleID ? `; ${project.bundleID} (informational)` : "")),
      h("h4", {}, "Allowlist"),
      project.allowlist.length ? h("ul", { class: "allowlist" }, project.allowlist.map((entry) => h("li", {},
        h("code", {}, entry.pattern), entry.note ? ` — ${entry.note}` : null, " ",
        h("button", { type: "button", class: "link", "aria-label": `Remove ${entry.pattern} from ${project.name}`,
          on: { click: () => act(["project", "edit", String(project.id), "--disallow", entry.pattern], () => `${entry.pattern} removed.`) } },
        "Remove"))))
        : h("p", { class: "hint" }, "Empty: hosts are not assessed until it names some."),
      h("form", { class: "actions", on: { submit: (event) => {
        event.preventDefault();
        act(["project", "edit", String(project.id), "--allow", pattern.value], () => `${pattern.value} allowed.`);
      } } }, h("label", { for: `allow-${project.id}` }, "Allow"), pattern, h("button", { type: "submit" }, `Add to ${project.name}`)),
      h("h4", {}, "Sessions"),
      project.sessions.length ? h("ul", { class: "audit-sessions" }, project.sessions.map((session) => h("li", {},
        `${session.id}: ${kind(session)}, ${session.open ? `recording since ${when(session.startedAt)}` : `${when(session.startedAt)} – ${when(session.endedAt)}`} `,
        h("button", { type: "button", "aria-label": `Findings of session ${session.id}`, on: { click: () => findings(session.id) } }, "Findings"),
        session.open ? null : [" ", downloadLink(`/api/audit/sessions/${session.id}/report`, `tunnelvision-audit-report-session-${session.id}.html`,
          "Report", { "aria-label": `Report of session ${session.id}` }), " ",
          downloadLink(`/api/audit/sessions/${session.id}/export`, `tunnelvision-evidence-session-${session.id}.zip`,
            "Evidence bundle", { "aria-label": `Evidence bundle of session ${session.id}` }), " ",
          h("button", { type: "button", class: "danger", "aria-label": `Delete session ${session.id}`, on: { click: () => {
            if (!confirm(`Delete session ${session.id} and its markers? Its connections stay in the history, no longer kept as evidence.`)) return;
            act(["delete", String(session.id), "--yes"], () => `Session ${session.id} deleted.`);
          } } }, "Delete")])))
        : h("p", { class: "hint" }, "None yet."),
      ended.length >= 2 ? diffForm(project, ended) : null,
      h("div", { class: "actions" }, h("button", { type: "button", class: "danger", on: { click: () => {
        if (!confirm(`Delete ${project.name} with its sessions and markers? Their connections stay in the history, no longer kept as evidence.`)) return;
        act(["project", "delete", String(project.id), "--yes"], () => `${project.name} deleted.`);
      } } }, `Delete ${project.name}`)));
  }

  function diffForm(project, sessions) {
    const pick = (id, chosen) => h("select", { id }, sessions.map((s, index) =>
      h("option", { value: String(s.id), selected: index === chosen }, `${s.id}: ${kind(s)}`)));
    const earlier = pick(`diff-earlier-${project.id}`, 1), later = pick(`diff-later-${project.id}`, 0);
    return h("form", { class: "actions", "aria-label": `Compare two releases of ${project.name}`, on: { submit: (event) => {
      event.preventDefault();
      diff(earlier.value, later.value);
    } } }, h("label", { for: earlier.id }, "Compare"), earlier, h("label", { for: later.id }, "with"), later,
      h("button", { type: "submit" }, "Compare releases"));
  }

  async function findings(id) {
    replace(detail, h("p", { class: "loading", role: "status" }, "Reading the session…"));
    let report;
    try {
      report = await get(`/api/audit/sessions/${id}/findings`);
    } catch (error) {
      replace(detail, errorCard(`The findings of session ${id} could not be read`, error, () => findings(id)));
      return;
    }
    const heading = h("h2", { id: "findings-title", tabindex: -1 }, `Findings of session ${id}`);
    replace(detail, h("section", { class: "card", "aria-labelledby": "findings-title" }, heading,
      h("p", {}, `${report.session.project}, ${kind(report.session)}: ${count(report.flowCount, "connection")}, read against ${report.catalogue} `
        + `(TLS minimum ${report.tlsMinimum}).`),
      report.findings.length ? h("ol", { class: "findings" }, report.findings.map((finding) => h("li", {},
        h("strong", {}, finding.id), ` ${finding.statement} `,
        h("span", { class: "finding-flows" }, "Connections: ", finding.flowIDs.map((flow, index) =>
          [index ? ", " : "", h("a", { href: `#/flow/${flow}`, "aria-label": `Connection ${flow} of ${finding.id}` }, String(flow))])))))
        : h("p", {}, "No findings."),
      h("h3", {}, "Requirements"),
      h("table", { class: "requirements" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Requirement"), h("th", { scope: "col" }, "Verdict"), h("th", { scope: "col" }, "Findings"))),
        h("tbody", {}, report.requirements.map((requirement) => h("tr", {},
          h("th", { scope: "row" }, requirement.id, h("div", { class: "hint" }, requirement.title)),
          h("td", {}, requirement.verdictStatement),
          h("td", {}, [...requirement.findingsAgainst.map((f) => `${f} against`), ...requirement.findingsFor.map((f) => `${f} for`)].join(", ")))))),
      h("p", { class: "hint" }, report.verdictsNote)));
    heading.focus();
  }

  async function diff(earlier, later) {
    replace(detail, h("p", { class: "loading", role: "status" }, "Comparing…"));
    let answer;
    try {
      answer = await get("/api/audit/diff", { earlier, later });
    } catch (error) {
      replace(detail, errorCard("The releases could not be compared", error, null));
      return;
    }
    const by = (status) => answer.domains.filter((d) => d.status === status);
    const list = (title, domains) => domains.length ? [h("h3", {}, title), h("ul", {}, domains.map((d) =>
      h("li", {}, h("code", {}, d.host), d.standing === "unlisted" ? " — not on the allowlist" : "")))] : null;
    const heading = h("h2", { id: "diff-title", tabindex: -1 }, `Release ${answer.earlier.release} → ${answer.later.release}`);
    replace(detail, h("section", { class: "card", "aria-labelledby": "diff-title" }, heading,
      answer.unexpectedNewDomains.length
        ? [h("h3", {}, "Unexpected new domains"), h("ul", { class: "unexpected" }, answer.unexpectedNewDomains.map((host) => h("li", {}, h("code", {}, host))))]
        : h("p", {}, "No unexpected new domains."),
      list("New", by("new")), list("Gone", by("gone")), list("In both", by("inBoth")),
      list("Undetermined (a shared address: the name is only a candidate)", by("undetermined")),
      answer.earlierUnnamedFlowIDs.length || answer.laterUnnamedFlowIDs.length
        ? h("p", { class: "hint" }, `Connections without a name: ${answer.earlierUnnamedFlowIDs.length} in session ${answer.earlier.session}, `
          + `${answer.laterUnnamedFlowIDs.length} in session ${answer.later.session}.`) : null));
    heading.focus();
  }

  function newProjectCard() {
    const name = h("input", { type: "text", id: "project-name", required: true, autocomplete: "off" });
    const allow = h("textarea", { id: "project-allow", rows: 3, placeholder: "*.example.com\napi.example.org=the API" });
    return h("section", { class: "card", "aria-labelledby": "new-project-title" },
      h("h2", { id: "new-project-title" }, "New project"),
      h("form", { on: { submit: (event) => {
        event.preventDefault();
        const patterns = allow.value.split("\n").map((line) => line.trim()).filter(Boolean);
        act(["project", "create", name.value, ...patterns.flatMap((p) => ["--allow", p])], (answer) => {
          name.value = "";
          allow.value = "";
          return `Project ${answer.project.name} made.`;
        });
      } } },
        h("p", {}, h("label", { for: "project-name" }, "Name"), " ", name),
        h("p", {}, h("label", { for: "project-allow" }, "Allowed hosts, one per line (PATTERN or PATTERN=NOTE)"), h("br"), allow),
        h("button", { type: "submit" }, "Create project")));
  }

  load();
  return { stop: () => { alive = false; }, refresh: load };
}

/** "release 2.1+45" or "baseline". */
function kind(session) {
  if (session.kind !== "audit") return "baseline";
  return `release ${session.release.version}${session.release.build ? `+${session.release.build}` : ""}`;
}
