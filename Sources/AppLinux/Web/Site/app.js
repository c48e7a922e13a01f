// The page's router: the URL's hash names the screen (#/timeline, #/flow/12, #/flow/12/packet/3)
// and, for the Timeline, its place (#/timeline?search=…), so the back button works and a link can
// be shared on this machine. Each screen module renders into <main> and may return a function that
// stops what it started (an event stream), or {stop, refresh, lost}: `refresh` brings it up to
// date when its server answers again (else the screen is drawn anew), `lost(loss)` lets it stop
// offering what needs the server. The notice above every screen while the server does not
// answer, or refuses this browser, is drawn here in the server's words (contact.js).

import * as welcome from "./welcome.js";
import { unreachable } from "./api.js";
import * as contact from "./contact.js";
import { h, replace, errorCard, clock } from "./dom.js";

// Each screen puts back its own place (the Timeline its rows and scroll): the browser's own
// restoring would scroll before the rows are there.
history.scrollRestoration = "manual";

// Each screen's module is fetched when it is first shown (index.html preloads the Timeline's, the
// screen most visits start on), so the first screen waits for its own files only; the rest are
// fetched once the first screen is drawn and the browser is idle, and are then at hand.
const routes = [
  { pattern: /^#\/dashboard$/, load: () => import("./dashboard.js"), nav: "dashboard" },
  { pattern: /^#\/timeline(?:\?.*)?$/, load: () => import("./timeline.js"), nav: "timeline" },
  { pattern: /^#\/flow\/(\d+)$/, load: () => import("./inspector.js"), nav: "timeline", names: ["id"] },
  { pattern: /^#\/flow\/(\d+)\/packet\/(\d+)$/, load: () => import("./packet.js"), nav: "timeline", names: ["id", "number"] },
  { pattern: /^#\/captures$/, load: () => import("./captures.js"), nav: "captures" },
  { pattern: /^#\/audit$/, load: () => import("./audit.js"), nav: "audit" },
  { pattern: /^#\/settings$/, load: () => import("./settings.js"), nav: "settings" },
  { pattern: /^#\/diagnostics$/, load: () => import("./diagnostics.js"), nav: "diagnostics" },
  { pattern: /^#\/welcome$/, load: async () => welcome, nav: null },
];

let current = null;  // what the screen shown returned: {stop, refresh, lost}
let shown = 0;       // which route() call may still draw: a later one wins
let warmed = false;
// After a move to another screen the focus is on its heading; while the screen draws (the
// Inspector's heading becomes the connection's name), a heading drawn anew takes it over — until
// the person presses a key or the pointer, from then on the focus is theirs.
let headingKeepsFocus = false;


async function route() {
  const hash = location.hash || "";
  if (!hash || hash === "#" || hash === "#/") {
    location.replace(welcome.wasSeen() ? "#/timeline" : "#/welcome");
    return;
  }
  const mine = ++shown;
  const match = routes.map((candidate) => ({ candidate, found: candidate.pattern.exec(hash) })).find((m) => m.found);
  if (current) { current.stop?.(); current = null; }
  const main = document.getElementById("screen");
  for (const link of document.querySelectorAll("nav a[data-screen]")) {
    if (match && link.dataset.screen === match.candidate.nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (!match) {
    replace(main, h("h1", { tabindex: -1 }, "There is no such screen"),
      h("p", {}, "The address names a screen this app does not have; pick one from the navigation above."));
    return;
  }
  let screen;
  try {
    screen = await match.candidate.load();
  } catch {
    // The screen's files did not come: the server is gone, most likely. Trying again reloads
    // the page, as the browser keeps a module that failed to load as failed.
    if (mine === shown) {
      replace(main, h("h1", { tabindex: -1 }, "This screen could not be loaded"),
        errorCard("The screen's files did not arrive", { message: unreachable }, () => location.reload()));
    }
    return;
  }
  if (mine !== shown) return;   // another screen was asked for meanwhile
  const params = {};
  (match.candidate.names ?? []).forEach((name, index) => { params[name] = match.found[index + 1]; });
  window.scrollTo(0, 0);   // a new screen starts at its top
  const made = screen.render(main, params);
  current = typeof made === "function" ? { stop: made } : made ?? null;
  if (contact.loss() !== null) current?.lost?.(contact.loss());
  // Focus goes to the screen's heading once it is drawn, so a keyboard starts there.
  headingKeepsFocus = true;
  requestAnimationFrame(() => { if (mine === shown) main.querySelector("h1")?.focus?.({ preventScroll: true }); });
  if (!warmed) {
    warmed = true;
    // Not at once: the first screen's own answers are arriving then, and fetching and compiling
    // the other screens would stand in their way (measured: tvlab bench ui).
    const warm = () => { for (const other of routes) other.load().catch(() => {}); };
    setTimeout(() => ("requestIdleCallback" in window ? requestIdleCallback(warm, { timeout: 3000 }) : warm()), 1500);
  }
}

/** The notice above the screen: what was lost, what to check, and how old the screen is. */
function drawNotice(loss) {
  const notice = document.getElementById("contact-notice");
  if (loss === null) { notice.hidden = true; replace(notice); return; }
  const said = contact.notice(loss);
  replace(notice,
    h("h2", { id: "contact-title" }, h("span", { class: "icon", "aria-hidden": "true" }, "⚠ "), said.title),
    said.text ? h("p", {}, said.text) : null,
    said.asOf ? h("p", { class: "hint" }, `${said.asOf} ${clock(said.lastHeard.toISOString())}.`) : null);
  notice.hidden = false;
}

contact.watch((loss) => {
  drawNotice(loss);
  if (loss !== null) { current?.lost?.(loss); return; }
  // Answered again: the screen catches up (its own way, or drawn anew).
  if (current?.refresh) current.refresh(); else route();
});

const main = document.getElementById("screen");
new MutationObserver(() => {
  if (!headingKeepsFocus) return;
  const focused = document.activeElement;
  if (!focused || focused === document.body) main.querySelector("h1")?.focus?.({ preventScroll: true });
}).observe(main, { childList: true });
for (const gesture of ["keydown", "pointerdown"]) {
  document.addEventListener(gesture, () => { headingKeepsFocus = false; }, true);
}

window.addEventListener("hashchange", route);
route();
