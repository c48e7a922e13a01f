// The Timeline's place: what it shows (its `state`: filters, search, zoom, the picked stretch —
// every field, whatever fields it has) in the address, #/timeline?…, so back, forward, reload and
// a shared link bring it back (address.js writes and reads it); and, in the history entry of that
// address, how far down the person was: the pages loaded, the scroll, the connection they opened
// and where its row stood — so going back from a connection returns to the same rows, scrolled as
// they were, that row focused.

import { encode, decode, split } from "./address.js";

const isStretch = (value) => value !== null && typeof value === "object" && !Number.isNaN(Date.parse(value.from))
  && !Number.isNaN(Date.parse(value.to));
const words = (value) => value.every((item) => typeof item === "string");

/** What the Timeline's own fields must look like to be taken from an address (any other field is
 *  taken when it has its default's kind). */
const checks = {
  range: (value) => value === null || (isStretch(value) && ["zoom", "bar", "sweep"].includes(value.kind)),
  zoom: (value) => value.every(isStretch),
  protocols: words, statuses: words,
  cursor: (value) => value === null || Number.isInteger(value),
  group: (value) => ["", "host", "program"].includes(value),
  // The server names the keys and refuses an unknown one; an address only has to look like one.
  sort: (value) => value === "" || /^[a-z]+(:(asc|desc))?$/.test(value),
};

/** The place of `state` (the Timeline's module state, as it starts: its defaults), leaving out
 *  `answered`: the fields its answers fill in, not what a person picked. */
export function timelinePlace(state, answered) {
  const defaults = structuredClone(state);
  const query = () => encode(state, defaults, answered);
  /** The address for the state now: bare at the defaults, else with its query. */
  const hash = () => (query() ? `#/timeline?${query()}` : "#/timeline");

  /** Takes the place the address names. A bare #/timeline the person came to (a link, the
   *  navigation) is the Timeline where they left it; an entry this screen wrote keeps its query
   *  in its history state too. */
  function take() {
    const asked = split(location.hash).query;
    const kept = history.state?.timeline;
    if (asked === "" && !kept) return;
    const read = decode(asked || kept?.query || "", defaults, answered, checks);
    for (const name of Object.keys(read)) if (!answered.includes(name)) state[name] = read[name];
    if (state.range?.kind === "zoom" && state.zoom.length === 0) state.range = null;   // a zoom needs its level
  }

  /** One visit's keeper of the entry's memory: `list` is the drawn list (its links carry
   *  data-flow). Call `listed(true)` when a new list is asked for, `listed(false)` when an older
   *  page joins it, `restore(loadList)` then `land()` to come back, `stop()` when the screen goes. */
  function keeper(list) {
    const saved = history.state?.timeline ?? null;
    const memory = { query: query(), pages: 1, scrollY: 0, flow: null, offset: null };
    let alive = true, scrolling = null;
    const keep = () => {
      if (alive && location.hash.startsWith("#/timeline")) {
        history.replaceState({ ...(history.state ?? {}), timeline: { ...memory } }, "", location.href);
      }
    };
    if (location.hash !== hash()) history.replaceState(history.state, "", hash());

    const onClick = (event) => {
      const link = event.target.closest?.("a[data-flow]");
      if (!link) return;
      Object.assign(memory, { flow: Number(link.dataset.flow), offset: link.closest("li").getBoundingClientRect().top,
                              scrollY: window.scrollY });
      keep();
    };
    const onScroll = () => {
      clearTimeout(scrolling);
      scrolling = setTimeout(() => { memory.scrollY = window.scrollY; keep(); }, 150);
    };
    list.addEventListener("click", onClick);
    window.addEventListener("scroll", onScroll, { passive: true });

    return {
      /** A list is asked for anew (another place: a new history entry, which back returns from;
       *  `replacing`, the entry's own address corrected: a search refused goes back to the last),
       *  or an older page joined it. */
      listed(anew, { replacing = false } = {}) {
        if (!anew) { memory.pages += 1; keep(); return; }
        Object.assign(memory, { query: query(), pages: 1, scrollY: 0, flow: null, offset: null });
        if (hash() === location.hash || !location.hash.startsWith("#/timeline")) keep();
        else if (replacing) history.replaceState({ ...(history.state ?? {}), timeline: { ...memory } }, "", hash());
        else history.pushState({ timeline: { ...memory } }, "", hash());
      },
      /** Loads as many pages as the entry remembers (`loadList(after)` answers the next cursor). */
      async restore(loadList) {
        let next = await loadList(null);
        for (let page = 1; page < (saved?.pages ?? 1) && next && alive; page += 1) next = await loadList(next);
      },
      /** Once all above the list is drawn too: scrolls as it was, or to the row opened, focused
       *  (its burst opened). */
      land() {
        if (!alive || !saved) return;
        const link = saved.flow === null ? null : list.querySelector(`a[data-flow="${saved.flow}"]`);
        if (!link) {
          window.scrollTo(0, saved.scrollY ?? 0);
        } else {
          const burst = link.closest("details");
          if (burst) burst.open = true;
          window.scrollBy(0, link.closest("li").getBoundingClientRect().top - (saved.offset ?? 0));
          link.focus({ preventScroll: true });
          Object.assign(memory, { flow: saved.flow, offset: saved.offset });
        }
        memory.scrollY = window.scrollY;
        keep();
      },
      stop() {
        alive = false;
        list.removeEventListener("click", onClick);
        window.removeEventListener("scroll", onScroll);
        clearTimeout(scrolling);
      },
    };
  }

  return { take, keeper };
}
