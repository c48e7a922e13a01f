// The page's router: the URL's hash names the screen (#/timeline, #/flow/12, #/flow/12/packet/3),
// so the back button works and a link can be shared on this machine. Each screen module renders
// into <main> and may return a function that stops what it started (an event stream).

import * as dashboard from "./dashboard.js";
import * as timeline from "./timeline.js";
import * as inspector from "./inspector.js";
import * as packet from "./packet.js";
import * as captures from "./captures.js";
import * as settings from "./settings.js";
import * as diagnostics from "./diagnostics.js";
import * as welcome from "./welcome.js";

const routes = [
  { pattern: /^#\/dashboard$/, screen: dashboard, nav: "dashboard" },
  { pattern: /^#\/timeline(?:\?.*)?$/, screen: timeline, nav: "timeline" },
  { pattern: /^#\/flow\/(\d+)$/, screen: inspector, nav: "timeline", names: ["id"] },
  { pattern: /^#\/flow\/(\d+)\/packet\/(\d+)$/, screen: packet, nav: "timeline", names: ["id", "number"] },
  { pattern: /^#\/captures$/, screen: captures, nav: "captures" },
  { pattern: /^#\/settings$/, screen: settings, nav: "settings" },
  { pattern: /^#\/diagnostics$/, screen: diagnostics, nav: "diagnostics" },
  { pattern: /^#\/welcome$/, screen: welcome, nav: null },
];

let stopCurrent = null;

function route() {
  const hash = location.hash || "";
  if (!hash || hash === "#" || hash === "#/") {
    location.replace(welcome.wasSeen() ? "#/timeline" : "#/welcome");
    return;
  }
  const match = routes.map((candidate) => ({ candidate, found: candidate.pattern.exec(hash) })).find((m) => m.found);
  if (stopCurrent) { stopCurrent(); stopCurrent = null; }
  const main = document.getElementById("screen");
  for (const link of document.querySelectorAll("nav a[data-screen]")) {
    if (match && link.dataset.screen === match.candidate.nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (!match) {
    main.replaceChildren();
    const heading = document.createElement("h1");
    heading.textContent = "There is no such screen";
    const text = document.createElement("p");
    text.textContent = "The address names a screen this app does not have; pick one from the navigation above.";
    main.append(heading, text);
    return;
  }
  const params = {};
  (match.candidate.names ?? []).forEach((name, index) => { params[name] = match.found[index + 1]; });
  window.scrollTo(0, 0);   // a new screen starts at its top
  const stop = match.candidate.screen.render(main, params);
  if (typeof stop === "function") stopCurrent = stop;
  // Focus goes to the screen's heading once it is drawn, so a keyboard starts there.
  requestAnimationFrame(() => main.querySelector("h1")?.focus?.({ preventScroll: true }));
}

window.addEventListener("hashchange", route);
route();
