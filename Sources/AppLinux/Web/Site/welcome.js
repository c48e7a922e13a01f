// The introduction on first open: three cards, each with a way out, remembered in this browser
// once seen (Skip counts as seen); Settings → "Show the introduction again" brings it back.

import { h, replace } from "./dom.js";

const key = "tunnelvision.introductionSeen";

const cards = [
  { title: "See what your programs say", text: "TunnelVision shows every connection a command or this machine makes: "
      + "which servers, when, how much, and whether it was encrypted. Everything stays on this machine.", out: "Skip" },
  { title: "How it works", text: "A command runs inside its own private network whose only way out is TunnelVision's "
      + "tunnel, here on this machine. It records each packet as it passes; nothing is sent anywhere else.", out: "Skip" },
  { title: "Your privacy", text: "No account, no cloud, nothing uploaded. Secure traffic stays encrypted: this build "
      + "never decrypts it. Stop any time; Settings deletes everything it kept.", out: "Not now" },
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
  function draw() {
    const card = cards[index];
    const last = index === cards.length - 1;
    replace(main,
      h("section", { class: "card intro", "aria-labelledby": "intro-title" },
        h("p", { class: "step" }, `${index + 1} of ${cards.length}`),
        h("h1", { id: "intro-title", tabindex: -1 }, card.title),
        h("p", {}, card.text),
        last ? h("pre", { class: "command" }, h("code", {}, "sudo tunnelvision run -- COMMAND")) : null,
        h("div", { class: "actions" },
          last ? h("button", { type: "button", class: "primary", on: { click: () => leave("#/dashboard") } }, "Start monitoring")
            : h("button", { type: "button", class: "primary", on: { click: () => { index += 1; draw(); main.querySelector("h1").focus(); } } }, "Next"),
          h("button", { type: "button", class: "secondary", on: { click: () => leave("#/timeline") } }, card.out))));
  }
  draw();
}
