// The activity axis above the timeline: one adjustable element (role="slider") drawn as SVG
// bars. What a bar holds and whether it can be entered come from /api/activity (`canZoom` is the
// command's own rule); this file only turns pointer and key gestures into bar indices.

import { h, stamp } from "./dom.js";

/** "1 s", "5 min", "1 h", "1 day" — the width of one bar, as `tunnelvision activity` names it. */
export function widthName(seconds) {
  if (seconds === 604800) return "1 week";
  if (seconds % 86400 === 0) return seconds === 86400 ? "1 day" : `${seconds / 86400} days`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** A bar's stretch as the API takes it: whole-second UTC instants. */
export function barRange(bar) {
  const start = Date.parse(bar.start);
  return { from: isoSecond(start), to: isoSecond(start + bar.seconds * 1000) };
}

export function isoSecond(milliseconds) {
  return new Date(milliseconds).toISOString().replace(/\.\d+Z$/, "Z");
}

const dragThreshold = 6;   // CSS pixels a pointer moves before a press is a sweep, not a tap

/**
 * Draws `activity` into a new element and reports gestures:
 * onTap(index) — a bar tapped or Enter on the cursor; onSweep(first, last) — whole bars swept.
 * `selected(index)` says which bars the list is filtered to.
 */
export function scrubBar(activity, { selected, onTap, onSweep, cursor: startCursor }) {
  const bars = activity.bars;
  const count = bars.length;
  const width = count * 100, height = 100;
  let cursor = Math.min(Math.max(startCursor ?? count - 1, 0), count - 1);
  let anchor = null;          // where a keyboard sweep started
  let press = null;           // {index, x, dragging, last}

  const rects = bars.map((bar, index) => {
    const tall = activity.busiest > 0 && bar.packets > 0 ? Math.max(4, (bar.packets / activity.busiest) * 92) : 1.5;
    const hit = h("rect", { class: "hit", x: index * 100, y: 0, width: 100, height });
    const drawn = h("rect", { class: bar.packets > 0 ? "bar" : "bar quiet", x: index * 100 + 8, y: height - tall,
                              width: 84, height: tall, "data-index": index, "data-packets": bar.packets,
                              "data-start": bar.start, "data-seconds": bar.seconds, "data-can-zoom": bar.canZoom === true });
    return { hit, drawn };
  });
  const svg = h("svg", { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" },
    rects.map(({ hit, drawn }, index) => h("g", { "data-bar": index }, hit, drawn)));
  const scrub = h("div", {
    class: "scrub", role: "slider", tabindex: 0, "aria-label": "Activity of all connections",
    "aria-valuemin": 1, "aria-valuemax": count, "aria-describedby": "axis-caption axis-keys",
  }, svg);

  function describe() {
    const bar = bars[cursor];
    const range = barRange(bar);
    let text = `Interval ${cursor + 1} of ${count}, ${stamp(range.from, activity.clock)} to ${stamp(range.to, activity.clock)}, `
      + `${bar.packets} packets`;
    if (anchor !== null && anchor !== cursor) text += `; sweeping intervals ${Math.min(anchor, cursor) + 1} to ${Math.max(anchor, cursor) + 1}`;
    scrub.setAttribute("aria-valuenow", cursor + 1);
    scrub.setAttribute("aria-valuetext", text);
  }

  function paint(pending) {
    rects.forEach(({ drawn }, index) => {
      drawn.classList.toggle("selected", selected(index));
      drawn.classList.toggle("cursor", index === cursor);
      drawn.classList.toggle("sweeping", pending !== null && index >= pending[0] && index <= pending[1]);
      drawn.classList.toggle("zoomable", bars[index].canZoom === true);
    });
  }

  function indexAt(clientX) {
    const box = svg.getBoundingClientRect();
    const index = Math.floor(((clientX - box.left) / box.width) * count);
    return Math.min(Math.max(index, 0), count - 1);   // a drag past an edge clamps to it
  }

  scrub.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    scrub.setPointerCapture?.(event.pointerId);
    const index = indexAt(event.clientX);
    press = { index, x: event.clientX, dragging: false, last: index };
    event.preventDefault();
    scrub.focus({ preventScroll: true });
  });
  scrub.addEventListener("pointermove", (event) => {
    if (!press) return;
    if (!press.dragging && Math.abs(event.clientX - press.x) >= dragThreshold) press.dragging = true;
    if (!press.dragging) return;
    press.last = indexAt(event.clientX);
    cursor = press.last;
    describe();
    paint([Math.min(press.index, press.last), Math.max(press.index, press.last)]);
  });
  const finish = (event) => {
    if (!press) return;
    const done = press;
    press = null;
    if (event.type === "pointercancel") { paint(null); return; }
    if (done.dragging) {
      done.last = indexAt(event.clientX);
      onSweep(Math.min(done.index, done.last), Math.max(done.index, done.last));
    } else {
      cursor = done.index;
      onTap(done.index);
    }
  };
  scrub.addEventListener("pointerup", finish);
  scrub.addEventListener("pointercancel", finish);

  scrub.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    if (event.key in moves) {
      if (event.shiftKey) { if (anchor === null) anchor = cursor; } else anchor = null;
      cursor = Math.min(Math.max(cursor + moves[event.key], 0), count - 1);
    } else if (event.key === "Home" || event.key === "End") {
      if (!event.shiftKey) anchor = null; else if (anchor === null) anchor = cursor;
      cursor = event.key === "Home" ? 0 : count - 1;
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (anchor !== null && anchor !== cursor) onSweep(Math.min(anchor, cursor), Math.max(anchor, cursor));
      else onTap(cursor);
      anchor = null;
      return;
    } else if (event.key === "Escape") {
      anchor = null;
    } else {
      return;
    }
    event.preventDefault();
    describe();
    paint(anchor === null ? null : [Math.min(anchor, cursor), Math.max(anchor, cursor)]);
  });

  describe();
  paint(null);
  return scrub;
}
