// Whether the app's server still answers this page: the timing only. What a screen says when it
// does not, and how long it waits first, are the server's (App's `ServerContact`, asked once at
// GET /api/contact and kept: a server that is gone can no longer say it).
//
// Every answer the page gets counts (api.js reports each; the Dashboard's live lines too). When
// none came for `askEverySeconds`, the page asks /api/contact itself; with no answer for
// `silenceSeconds` the server is "not answering". A refused session (401: the server restarted
// with a new secret) is said at once, as refused. The first answer after either ends it. A hidden
// tab neither asks nor counts its silence.

/** Said when the server never answered this page at all, so not even its own words are known. */
export const unreachable = "The app's server cannot be reached: is 'tunnelvision ui' still running?";

let wording = null;          // /api/contact's answer
let lastHeard = Date.now();  // the last answer of any kind but a refusal
let countingSince = Date.now();   // silence is counted from here (a tab shown again starts anew)
let lost = null;             // null, "notAnswering" or "sessionRefused"
let asking = false;
const watchers = new Set();

const askEvery = () => (wording?.askEverySeconds ?? 2) * 1000;
const silence = () => (wording?.silenceSeconds ?? 5) * 1000;

function become(next) {
  if (next === lost) return;
  lost = next;
  for (const watcher of watchers) watcher(lost);
}

/** An answer came (any status but a refused session). */
export function heard() {
  lastHeard = Date.now();
  if (lost !== null) become(null);
}

/** The server refused this browser's session. */
export function refused() {
  become("sessionRefused");
}

/** Calls `watcher(loss)` whenever contact is lost (loss: "notAnswering" | "sessionRefused") or
 *  back (null); returns what stops it. */
export function watch(watcher) {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** What is lost now (null: nothing). */
export function loss() {
  return lost;
}

/** The notice for `kind` in the server's words ({title, text, asOf}), and when it last answered. */
export function notice(kind) {
  const said = wording?.[kind];
  return { title: said?.title ?? unreachable, text: said?.text ?? "", asOf: said?.asOf ?? "", lastHeard: new Date(lastHeard) };
}

async function ask() {
  asking = true;
  try {
    const response = await fetch("/api/contact", { credentials: "same-origin", headers: { "X-TunnelVision": "1" },
                                                   signal: AbortSignal.timeout(silence()) });
    if (response.status === 401) { refused(); return; }
    if (response.ok) {
      try { wording = await response.json(); } catch { /* an answer all the same */ }
    }
    heard();
  } catch {
    // No answer: the silence goes on.
  } finally {
    asking = false;
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) { countingSince = Date.now(); if (!asking) ask(); }
});

setInterval(() => {
  if (document.hidden) return;
  const now = Date.now();
  const quietSince = Math.max(lastHeard, countingSince);
  if (now - quietSince >= askEvery() && !asking) ask();
  if (lost === null && now - quietSince >= silence()) become("notAnswering");
}, 1000);

ask();
