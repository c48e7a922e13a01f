// Every request the pages make: same origin, the session cookie, and the header the server
// requires of a page (a cross-site form cannot set it). Errors carry the server's sentence.
// Each answer tells contact.js the server is there (or that it refused this browser's session).

import { heard, refused, unreachable } from "./contact.js";

export class APIError extends Error {
  /** `parameter` and `problem`: the field whose value was refused and what is wrong with it, in
   *  words for beside that field (the answer's own; null when the refusal is not one field's). */
  constructor(status, message, parameter = null, problem = null) {
    super(message);
    this.status = status;
    this.parameter = parameter;
    this.problem = problem;
  }
}

const headers = { "X-TunnelVision": "1" };

/** What every screen says when the app's server does not answer at all. */
export { unreachable };

/** Tells contact.js what an answer says of the server: there, or refusing this browser. */
function noted(response) {
  if (response.status === 401) refused(); else heard();
  return response;
}

async function answer(response) {
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (!response.ok) {
    const sentence = body && typeof body.error === "string" ? body.error
      : `The app's server answered ${response.status} without saying why; try again, or restart 'tunnelvision ui'.`;
    const field = typeof body?.parameter === "string" && typeof body?.problem === "string";
    throw new APIError(response.status, sentence, field ? body.parameter : null, field ? body.problem : null);
  }
  if (body === null) throw new APIError(response.status, "The app's server sent something that is not JSON; restart 'tunnelvision ui'.");
  return body;
}

async function send(path, options) {
  let response;
  try {
    response = noted(await fetch(path, { credentials: "same-origin", ...options, headers: { ...headers, ...(options.headers ?? {}) } }));
  } catch {
    throw new APIError(0, unreachable);
  }
  return answer(response);
}

/** GET path?query → the JSON the matching command prints. Empty query values are left out. */
export function get(path, query = {}) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    search.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  const text = search.toString();
  return send(text ? `${path}?${text}` : path, { method: "GET" });
}

/** POST path with an optional JSON body. */
export function post(path, body) {
  return send(path, {
    method: "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The query parameter by which a deletion agrees to delete audit evidence (EvidenceDeletion.switchName). */
export const includingEvidence = "including-evidence";

/** POST path, a deletion. `agreed`: the person was already told it deletes audit evidence. When
 *  the server refuses because it would delete audit evidence not agreed to (409, naming the
 *  parameter), `ask(problem)` puts its sentence to the person and, on yes, it posts again agreeing.
 *  Null when they said no: nothing was deleted. */
export async function postDeletion(path, ask, agreed = false) {
  if (agreed) return post(`${path}?${includingEvidence}=yes`);
  try {
    return await post(path);
  } catch (error) {
    if (!(error instanceof APIError) || error.status !== 409 || error.parameter !== includingEvidence) throw error;
    return ask(error.problem) ? post(`${path}?${includingEvidence}=yes`) : null;
  }
}

/** POST path and hand the answer over as a file download named `filename`. */
export function postDownload(path, filename) {
  return download(path, filename, "POST");
}

/** GET path and hand the answer over as a file download named `filename`; a refusal throws with
 *  the server's sentence, so the page can say why (a plain link would save the refusal as the file). */
export function getDownload(path, filename) {
  return download(path, filename, "GET");
}

async function download(path, filename, method) {
  let response;
  try {
    response = noted(await fetch(path, { method, credentials: "same-origin", headers }));
  } catch {
    throw new APIError(0, unreachable);
  }
  if (!response.ok) await answer(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
