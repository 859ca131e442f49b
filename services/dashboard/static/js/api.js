// The REST half of the API, as the browser calls it: JSON in, JSON out, the session's bearer
// token on every request, and a refusal turned into an ApiError carrying the problem details
// the server wrote (RFC 9457: status, type, title, detail, field), so every page shows the
// API's own words.

import { authHeaders, forget } from "./session.js";

export class ApiError extends Error {
  constructor(status, problem) {
    const words = problem?.detail || problem?.title || `the server answered HTTP ${status}`;
    super(words);
    this.name = "ApiError";
    this.status = status;
    this.problem = problem ?? {};
    this.type = problem?.type ?? null;
    this.field = problem?.field ?? null;
  }
}

/** The slug of a problem's `type` ("…/problems/illegal-command" → "illegal-command"). */
export function problemSlug(error) {
  const type = error?.type ?? "";
  return type.split("/").pop() || null;
}

/**
 * `method path` with `body` as JSON; resolves to the answer's JSON (null for 204).
 * A 401 on a request that carried a session means the session ended elsewhere (signed out,
 * expired, password changed): it is forgotten here too, and the page redraws signed out.
 */
export async function request(method, path, body = undefined, { signal } = {}) {
  const headers = { accept: "application/json", ...authHeaders() };
  if (body !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { detail: `the server did not answer (${error.message})` });
  }
  if (response.status === 204) return null;
  let payload = null;
  try {
    payload = await response.json();
  } catch (error) {
    // a page left while the body was still arriving: its reader stops here, and must not take
    // the missing body for an answer of null (a signed-in page once stored a null account so)
    if (error.name === "AbortError" || signal?.aborted) throw error;
    payload = null;
  }
  if (!response.ok) {
    if (response.status === 401 && headers.authorization) forget();
    throw new ApiError(response.status, payload);
  }
  return payload;
}

export const get = (path, options) => request("GET", path, undefined, options);
export const post = (path, body, options) => request("POST", path, body ?? {}, options);
export const put = (path, body, options) => request("PUT", path, body ?? {}, options);
export const del = (path, options) => request("DELETE", path, undefined, options);

/** A fresh id for a command: the API makes every write idempotent by it. */
export function commandId(prefix = "web") {
  const bytes = new Uint8Array(12);
  window.crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
