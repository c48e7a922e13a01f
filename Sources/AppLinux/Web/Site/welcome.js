// The introduction on first open: three cards, each with a way out, remembered in this browser
// once seen (Skip counts as seen); Settings → "Show the introduction again" brings it back.
// The last card says what Start will monitor (the monitoring control's own sentence), and its
// Start monitoring really starts it, then opens the Dashboard on the result: live, or why not
// with Try again — never a dead end.

import { get, post } from "./api.js";
import { h, replace } from "./dom.js";

const key = "tunnelvision.introductionSeen";

const cards = [
  { title: "See what your programs say", text: "TunnelVision shows every connection a command or this machine makes: "
      + "which servers, when, how much, and whether it was encrypted. Everything stays on this machine.", out: "Skip" },
  { title: "How it works", text: "This machine's traffic — or a container's, or one command's in a private network of "
      + "its own — goes through TunnelVision's tunnel, here on this machine, or an interface is listened to. It records "
      + "each packet as it passes; nothing is sent anywhere else.", out: "Skip" },
  { title: "Your privacy", text: "No account, no cloud, nothing uploaded. Secure traffic stays encrypted unless you turn on "
      + "Look inside secure traffic with a certificate you create, for a command or service you start with it; programs that pin "
      + "their certificates are left alone. Stop any time; Settings deletes everything it kept.", out: "Not now" },
];

export function wasSeen() {
  try { return localStorage.getItem(key) === "yes"; } catch { return true; }
}

function markSeen() {
  try { localStorage.setItem(key, "yes"); } catch { /* a browser that keeps nothing shows it again: harmless */ }
}

export function forgetSeen() {
  try { localStorage.removeItem(key); } catch { /* nothing kept, nothing to forget */ }
}

export function render(main) {
  let index = 0;
  const leave = (where) => { markSeen(); location.hash = where; };

  // Start: the service is started here, and the Dashboard opens on how it went.
  async function start(button, said) {
    button.disabled = true;
    replace(said, "Starting…");
    try { await post("/api/monitoring/start"); } catch { /* the Dashboard shows the control's state and its retry */ }
    leave("#/dashboard");
  }

  function draw() {
    const card = cards[index];
    const last = index === cards.length - 1;
    const said = h("p", { class: "hint", role: "status" });
    const startButton = last ? h("button", { type: "button", class: "primary" }, "Start monitoring") : null;
    startButton?.addEventListener("click", () => start(startButton, said));
    replace(main,
      h("section", { class: "card intro", "aria-labelledby": "intro-title" },
        h("p", { class: "step" }, `${index + 1} of ${cards.length}`),
        h("h1", { id: "intro-title", tabindex: -1 }, card.title),
        h("p", {}, card.text),
        last ? said : null,
        last ? h("p", {}, "Or wrap one command:") : null,
        last ? h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision run -- COMMAND")) : null,
        h("div", { class: "actions" },
          last ? startButton
            : h("button", { type: "button", class: "primary", on: { click: () => { index += 1; draw(); main.querySelector("h1").focus(); } } }, "Next"),
          h("button", { type: "button", class: "secondary", on: { click: () => leave("#/timeline") } }, card.out))));
    // What Start will do, in the monitoring control's words (Settings can choose another target).
    if (last) get("/api/monitoring").then((screen) => { if (!startButton.disabled) replace(said, screen.sentence); }, () => {});
  }
  draw();
}
