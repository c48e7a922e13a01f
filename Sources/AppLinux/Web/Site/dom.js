// Building elements without markup strings (nothing a record holds is ever parsed as HTML),
// and the few number and time formats every screen shares.

import { getDownload } from "./api.js";

/** h("p", {class: "x", on: {click: fn}}, "text", child) → an element. */
export function h(tag, attributes = {}, ...children) {
  const svg = ["svg", "rect", "polyline", "line", "g", "path", "title"].includes(tag);
  const element = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "on") {
      for (const [event, handler] of Object.entries(value)) element.addEventListener(event, handler);
    } else if (name === "text") {
      element.textContent = value;
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Makes `list`'s children one per item, in the items' order, keyed by `key(item)`: a child whose
 *  key is already there is kept — the same element, updated in place by `update` — so a link a
 *  person is pressing is not swapped under the pointer by a redraw; a new key is built by `build`.
 *  Children already in their place are not moved. */
export function keyed(list, items, key, build, update = () => {}) {
  const existing = new Map([...list.children].map((child) => [child.dataset.key, child]));
  items.forEach((item, index) => {
    const name = String(key(item));
    let child = existing.get(name);
    if (child) {
      update(child, item);
    } else {
      child = build(item);
      child.dataset.key = name;
    }
    existing.delete(name);
    if (list.children[index] !== child) list.insertBefore(child, list.children[index] ?? null);
  });
  for (const gone of existing.values()) gone.remove();
}

/** Replaces what `element` holds. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

// Made once: toLocale…String(options) builds a formatter per call, a cost a page of rows pays
// a hundred times over.
const clockFormat = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
const dayFormat = new Intl.DateTimeFormat([], { year: "numeric", month: "short", day: "numeric" });

/** "2026-12-01T18:37:10.123Z" → "18:37:10" (this browser's time zone). */
export function clock(iso) {
  return clockFormat.format(new Date(iso));
}

/** This browser's time zone, sent with the questions whose answers say which clock to write
 *  with (`clock`: "time" or "date", the server's `StretchClock`), so days are the viewer's. */
export const zone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";

/** An instant as the answer's `clock` says: "time" → "18:37:10", "date" → "Dec 1, 2026 18:37:10". */
export function stamp(iso, clockKind) {
  return clockKind === "date" ? when(iso) : clock(iso);
}

/** A date and time in this browser's time zone. */
export function when(iso) {
  const date = new Date(iso);
  return `${dayFormat.format(date)} ${clockFormat.format(date)}`;
}

/** 0.0123 → "12 ms", 2.5 → "2.5 s". */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "unknown";
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.floor(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** 1 → "1 connection", 2 → "2 connections". */
export function count(number, noun) {
  return `${number} ${noun}${number === 1 ? "" : "s"}`;
}

/** Says `text` to a screen reader without moving focus. */
export function announce(text) {
  const announcer = document.getElementById("announcer");
  if (announcer) announcer.textContent = text;
}

/** The card every screen shows when its question could not be answered. */
export function errorCard(title, error, retry) {
  return h("section", { class: "card error-card", role: "alert", "aria-labelledby": "error-title" },
    h("h2", { id: "error-title" }, h("span", { class: "icon", "aria-hidden": "true" }, "⚠ "), title),
    h("p", {}, error.message),
    retry ? h("button", { type: "button", on: { click: retry } }, "Try again") : null);
}

/** A definition list from [[term, value], …]; a value may be an element. dt and dd are the
 *  list's own children (no wrapper), as assistive technology expects; CSS lays them out. */
export function facts(rows, className = "facts") {
  return h("dl", { class: className }, rows.filter(Boolean).map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
}

/** A sentence of the commands' (which begin in lower case) as a screen starts one. */
export const capitalised = (text) => text ? text[0].toUpperCase() + text.slice(1) : text;

/** A download as a button-styled link, and beside it where a refusal is said: the file is fetched
 *  first, so a download that cannot be made says why in the server's sentence. */
export function downloadLink(path, filename, text, attributes = {}) {
  const said = h("span", { class: "download-problem", role: "alert" });
  const link = h("a", { class: "button", href: path, download: filename, ...attributes, on: { click: async (event) => {
    event.preventDefault();
    said.textContent = "";
    try {
      await getDownload(path, filename);
    } catch (error) {
      said.textContent = `${filename} could not be downloaded: ${error.message}`;
    }
  } } }, text);
  return [link, said];
}
