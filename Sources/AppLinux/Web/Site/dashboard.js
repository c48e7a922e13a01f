// The Dashboard: whether a tunnel is live, the monitoring control (Start and Stop of the
// directory's service, /api/monitoring — `up` and `down` through the seed's controller, its
// state, sentence and offered actions decided in App's MonitoringScreen), received and sent
// over the last minute drawn from the live event stream (/api/live, one `dashboard` event a
// second, each the line `tunnelvision live --json` prints), this session's counters, the
// dropped-records indicator, the busiest hosts of the last minute (the line's `topTalkers`, each
// opening its connection in the Flow Inspector), and the recent connections (the history's
// newest rows, each opening its own).

import { get, post } from "./api.js";
import { heard } from "./contact.js";
import { h, replace, errorCard, facts, keyed, zone, capitalised } from "./dom.js";
import { timelineRow, statusNames } from "./rows.js";

const windowSeconds = 60;   // seconds drawn: the last minute

const states = {
  live: { title: "Monitoring is on", icon: "●", text: "The tunnel is recording. Everything stays on this machine." },
  noTunnel: { title: "Monitoring is off", icon: "○", text: "No tunnel is running on this data directory. Start monitoring below, or wrap one command:" },
  sessionEnded: { title: "The session has ended", icon: "◌", text: "The last tunnel stopped; its connections stay in the timeline. Start monitoring below, or wrap one command:" },
  unreadable: { title: "The tunnel's feed cannot be read", icon: "⚠", text: "The live feed exists but cannot be read; check the data directory's permissions, or start the tunnel again:" },
};

function chart(samples) {
  const width = 600, height = 120;
  const peak = Math.max(1, ...samples.map((s) => Math.max(s.bytesInPerSecond, s.bytesOutPerSecond)));
  const points = (key) => samples.map((sample, index) =>
    `${((windowSeconds - samples.length + index) / (windowSeconds - 1)) * width},${height - (sample[key] / peak) * (height - 6)}`).join(" ");
  return h("svg", { class: "throughput", viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" },
    h("line", { class: "baseline", x1: 0, y1: height - 0.5, x2: width, y2: height - 0.5 }),
    samples.length > 1 ? h("polyline", { class: "series received", points: points("bytesInPerSecond") }) : null,
    samples.length > 1 ? h("polyline", { class: "series sent", points: points("bytesOutPerSecond") }) : null);
}

// The busiest second drawn, either way, in the server's words: the chart's top.
function peakText(samples) {
  const rates = samples.flatMap((s) => [[s.bytesInPerSecond, s.bytesInPerSecondText], [s.bytesOutPerSecond, s.bytesOutPerSecondText]]);
  return rates.reduce((peak, rate) => (rate[0] > peak[0] ? rate : peak))[1];
}

// One host: its name when the history gave one, else its address; the bytes both ways. It opens
// the connection the line chose (`flow`: the one its name is from, else its latest) in the Flow
// Inspector; until the history holds that connection (`flow` null) it opens nothing. Redrawn in
// place each second (`keyed`): the link stays the same element while a person clicks it.
const talkerLabel = (talker) => talker.name ? `${talker.name} (${talker.host})` : talker.host;
const talkerBytes = (talker) => `${talker.bytesInText} received, ${talker.bytesOutText} sent`;

function talkerRow(talker) {
  const host = talker.flow === null || talker.flow === undefined
    ? h("span", { class: "host" }, talkerLabel(talker))
    : h("a", { class: "host", href: `#/flow/${talker.flow}`, "data-flow": talker.flow }, talkerLabel(talker));
  return h("li", { class: "talker" }, host, " ", h("span", { class: "talker-bytes" }, talkerBytes(talker)));
}

function updateTalker(row, talker) {
  const host = row.querySelector(".host");
  if (host.textContent !== talkerLabel(talker)) host.textContent = talkerLabel(talker);
  if (host.dataset.flow !== String(talker.flow)) {
    host.dataset.flow = talker.flow;
    host.setAttribute("href", `#/flow/${talker.flow}`);
  }
  row.querySelector(".talker-bytes").textContent = talkerBytes(talker);
}

export function render(main) {
  let alive = true;
  const samples = [];
  const monitoringState = h("div", {});
  // Its own element, never redrawn by the feed's line: a button keeps its focus while pressed.
  const control = h("div", { class: "control", role: "group", "aria-label": "Monitoring control" });
  const monitoring = h("section", { class: "card monitoring", "aria-labelledby": "monitoring-title" }, monitoringState, control);
  const throughput = h("section", { class: "card", "aria-labelledby": "throughput-title" });
  const counters = h("section", { class: "card", "aria-labelledby": "session-title" });
  const talkers = h("section", { class: "card", "aria-labelledby": "talkers-title" });
  const recent = h("section", { class: "card", "aria-labelledby": "recent-title" });
  const talkerList = h("ol", { class: "talkers", "aria-labelledby": "talkers-title", hidden: true });
  const talkersEmpty = h("p", {}, "Nothing moved in the last minute.");
  replace(talkers, h("h2", { id: "talkers-title" }, "Top talkers"), talkerList, talkersEmpty);
  const recentList = h("ul", { class: "rows cards", role: "table", "aria-labelledby": "recent-title" });
  replace(main, h("h1", { tabindex: -1 }, "Dashboard"), monitoring, h("div", { class: "grid-two" }, throughput, counters), talkers, recent);

  function draw(line) {
    const state = states[line.state] ?? states.unreadable;
    replace(monitoringState,
      h("h2", { id: "monitoring-title" }, h("span", { class: `state-icon state-${line.state}`, "aria-hidden": "true" }, state.icon), " ", state.title),
      // Unreadable: the line's own sentence says why (another reader, a damaged ring…).
      h("p", {}, line.state === "unreadable" && line.problem ? `${capitalised(line.problem)}.` : state.text),
      line.state === "live" || line.problem ? null : h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision run -- COMMAND")));
    samples.push(line);
    while (samples.length > windowSeconds) samples.shift();
    const now = samples.at(-1);
    replace(throughput,
      h("h2", { id: "throughput-title" }, "The last minute"),
      h("p", { class: "rates", "aria-label": `Now: ${now.bytesInPerSecondText} a second received, ${now.bytesOutPerSecondText} a second sent` },
        h("span", { class: "legend received" }, h("span", { "aria-hidden": "true" }, "↓ "), `${now.bytesInPerSecondText}/s received`),
        h("span", { class: "legend sent" }, h("span", { "aria-hidden": "true" }, "↑ "), `${now.bytesOutPerSecondText}/s sent`)),
      chart(samples),
      h("p", { class: "hint" }, `Received (solid) and sent (dashed), a point a second; the top is `
        + `${peakText(samples)}/s.`));
    replace(counters,
      h("h2", { id: "session-title" }, "This session"),
      facts([["Received", line.bytesInText], ["Sent", line.bytesOutText],
             ["Packets", String(line.packets)], ["Connections", String(line.connections)]], "counters"),
      line.droppedNote ? h("p", { class: "dropped" }, `${capitalised(line.droppedNote)}.`) : null);
    const busiest = line.topTalkers ?? [];
    talkersEmpty.hidden = busiest.length > 0;
    talkerList.hidden = busiest.length === 0;
    // A host whose link appears or goes (its flow known or not) is built anew; otherwise kept.
    keyed(talkerList, busiest, (talker) => `${talker.host} ${talker.flow === null || talker.flow === undefined ? "-" : "linked"}`,
      talkerRow, updateTalker);
  }


  async function loadRecent() {
    try {
      const page = await get("/api/flows", { limit: 5, zone });
      if (!alive) return;
      // A row whose connection did not change is kept (keyed by all it shows), so a click lands.
      const names = statusNames(page.choices);
      keyed(recentList, page.flows, (flow) => `${page.clock} ${JSON.stringify(flow)}`, (flow) => timelineRow(flow, names, null, page.clock));
      if (!recent.contains(recentList) || page.flows.length === 0) {
        replace(recent, h("h2", { id: "recent-title" }, "Recent connections"),
          page.flows.length ? recentList : h("p", {}, "No connections recorded yet: they appear here as the tunnel sees them."),
          h("p", {}, h("a", { href: "#/timeline" }, "All connections in the timeline")));
      }
    } catch (error) {
      if (!alive) return;
      // No history yet (404: a fresh install, nothing recorded) is the calm empty state, with
      // the server's sentence on where a history comes from; anything else is an error.
      if (error.status === 404) {
        replace(recent, h("h2", { id: "recent-title" }, "Recent connections"),
          h("p", {}, "No connections recorded yet: they appear here as the tunnel sees them."),
          h("p", { class: "hint" }, capitalised(error.message) + "."));
        return;
      }
      // The heading stays: the section is named by it.
      replace(recent, h("h2", { id: "recent-title" }, "Recent connections"),
        errorCard("The recent connections could not be read", error, loadRecent));
    }
  }

  const actionLabels = { start: "Start monitoring", tryAgain: "Try again", stop: "Stop monitoring" };

  function drawControl(screen) {
    replace(control,
      h("p", { class: `control-sentence control-${screen.state}`, role: "status" }, screen.sentence),
      screen.actions.length
        ? h("p", { class: "actions" }, screen.actions.map((action) =>
            h("button", { type: "button", class: action === "stop" ? "danger" : null, on: { click: () => act(action) } }, actionLabels[action])))
        : null);
  }

  // Start (or Try again) and Stop wait for the service: up returns once it is live or failed.
  let acting = false;
  async function act(action) {
    acting = true;
    replace(control, h("p", { class: "control-sentence", role: "status" }, action === "stop" ? "Stopping…" : "Starting…"));
    try {
      const screen = await post(`/api/monitoring/${action === "stop" ? "stop" : "start"}`);
      if (alive) drawControl(screen);
      const button = control.querySelector("button");
      if (alive && button) button.focus();
    } catch (error) {
      if (alive) replace(control, errorCard("The monitoring control could not be reached", error, loadControl));
    }
    acting = false;
  }

  async function loadControl() {
    try {
      const screen = await get("/api/monitoring");
      if (alive) drawControl(screen);
    } catch (error) {
      if (alive) replace(control, errorCard("The monitoring control could not be reached", error, loadControl));
    }
  }

  replace(monitoringState, h("p", { class: "loading", role: "status" }, "Asking the tunnel…"));
  loadControl();
  get("/api/live/now").then((line) => { if (alive) draw(line); }).catch((error) => {
    if (alive) replace(monitoring, errorCard("The live feed could not be read", error, () => render(main)));
  });
  loadRecent();
  const source = new EventSource("/api/live", { withCredentials: true });
  let lastRecent = 0;
  let lastState = null;
  source.addEventListener("dashboard", (event) => {
    if (!alive) return;
    const line = JSON.parse(event.data);
    heard();   // a line a second: the server is there (contact.js says when it is not)
    monitoring.hidden = false;
    draw(line);
    // The tunnel came or went (a service started elsewhere, or one that stopped by itself).
    if (line.state !== lastState) {
      if (lastState !== null && !acting) loadControl();
      lastState = line.state;
    }
    if (line.state === "live" && Date.now() - lastRecent > 5000) { lastRecent = Date.now(); loadRecent(); }
  });
  return {
    stop: () => { alive = false; source.close(); },
    // The server gone (the notice above says so and as of when): no state is claimed and no
    // control offered with nothing behind it; the next line draws them again.
    lost: () => { monitoring.hidden = true; replace(control); },
    refresh: () => { loadControl(); loadRecent(); },
  };
}
