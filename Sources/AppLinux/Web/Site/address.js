// A screen's state in the address (the hash's query: #/timeline?search=…&zoom=…), so back,
// forward, reload and a shared link bring it back. Generic: every plain field of the state is
// carried without this file knowing it — a field added later travels too — and an address is
// never trusted: a parameter the state has no field for is ignored, and a value that does not
// read as its field's kind (an old link's, a hand-edited one's) leaves that field at its default.
//
// How a value is written: a string field as it is; any other field (boolean, number, array,
// object, null) as JSON. A field at its default is left out, so the plainest place is the
// shortest address.

/** The fields of `state` that go in an address: all but `skip` (what answers fill in, not what a
 *  person picked), and only plain data (no functions). */
function carried(state, skip) {
  return Object.keys(state).filter((name) => !skip.includes(name) && typeof state[name] !== "function");
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** `state` as a query string (no "?"): each carried field that differs from `defaults`. */
export function encode(state, defaults, skip = []) {
  const query = new URLSearchParams();
  for (const name of carried(state, skip)) {
    const value = state[name];
    if (value === undefined || same(value, defaults[name])) continue;
    query.set(name, typeof defaults[name] === "string" && typeof value === "string" ? value : JSON.stringify(value));
  }
  return query.toString();
}

/** The kind a value must have to stand in for `model` (its field's default). */
function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function fits(value, model) {
  const kind = kindOf(value), wanted = kindOf(model);
  // A field whose default is null ("none yet") holds whatever it is set to: a stretch, a number.
  return kind === wanted || wanted === "null" || (wanted === "object" && kind === "null");
}

/** A state read from `query`: a copy of `defaults` with each field the query gives a value of the
 *  right kind for (and that `checks[name]`, when given, accepts) set to it. Never throws. */
export function decode(query, defaults, skip = [], checks = {}) {
  const params = new URLSearchParams(query);
  const state = structuredClone(defaults);
  for (const name of carried(defaults, skip)) {
    if (!params.has(name)) continue;
    const text = params.get(name);
    let value;
    if (typeof defaults[name] === "string") {
      value = text;
    } else {
      try { value = JSON.parse(text); } catch { continue; }
    }
    if (!fits(value, defaults[name])) continue;
    try {
      if (checks[name] && !checks[name](value)) continue;
    } catch {
      continue;
    }
    state[name] = value;
  }
  return state;
}

/** The query of an address like "#/timeline?a=1" ("" when it has none), and its route. */
export function split(hash) {
  const at = hash.indexOf("?");
  return at < 0 ? { route: hash, query: "" } : { route: hash.slice(0, at), query: hash.slice(at + 1) };
}
