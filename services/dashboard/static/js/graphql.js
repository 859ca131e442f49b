// The dashboard's only way to the server: the named operations of graphql/operations/, fetched
// as text and posted unchanged. No query strings live in this code, so what CI validates
// against the schema is exactly what runs. A signed-in browser sends its session, so the answers
// are redacted for that person (your own role, your legal moves).

import { authHeaders } from "./session.js";

const meta = (name, fallback) => document.querySelector(`meta[name="${name}"]`)?.content || fallback;

export const GRAPHQL_PATH = meta("bang-graphql-path", "/graphql");
const OPERATIONS_PATH = meta("bang-operations-path", "/dashboard/operations");

const documents = new Map();

export class GraphQLRequestError extends Error {
  constructor(message, { errors = [], status = null } = {}) {
    super(message);
    this.name = "GraphQLRequestError";
    this.errors = errors;
    this.status = status;
  }
}

/**
 * The text of an operation document: "dashboard/Game" is graphql/operations/dashboard/Game.graphql.
 * A document may hold several named operations (sharing a fragment); the caller names one.
 */
export async function loadDocument(path) {
  if (!documents.has(path)) {
    const loading = fetch(`${OPERATIONS_PATH}/${path}.graphql`).then(async (response) => {
      if (!response.ok) {
        throw new GraphQLRequestError(`operation document ${path} is not served (HTTP ${response.status})`, {
          status: response.status,
        });
      }
      return response.text();
    });
    // A failed load is not cached, so a retry button can try again.
    loading.catch(() => documents.delete(path));
    documents.set(path, loading);
  }
  return documents.get(path);
}

function describeErrors(errors) {
  return errors.map((e) => e.message ?? String(e)).join("; ");
}

/** Run the query `operationName` of document `path`; resolves to `data`, rejects with GraphQLRequestError. */
export async function query(path, operationName, variables = {}) {
  const document = await loadDocument(path);
  let response;
  try {
    response = await fetch(GRAPHQL_PATH, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...authHeaders() },
      body: JSON.stringify({ query: document, operationName, variables }),
    });
  } catch (error) {
    throw new GraphQLRequestError(`the server did not answer (${error.message})`);
  }
  let payload;
  try {
    payload = await response.json();
  } catch {
    throw new GraphQLRequestError(`the server answered HTTP ${response.status} without JSON`, {
      status: response.status,
    });
  }
  if (payload.errors?.length) {
    throw new GraphQLRequestError(describeErrors(payload.errors), { errors: payload.errors, status: response.status });
  }
  if (!response.ok || !payload.data) {
    throw new GraphQLRequestError(`the server answered HTTP ${response.status}`, { status: response.status });
  }
  return payload.data;
}

export function websocketUrl() {
  const url = new URL(GRAPHQL_PATH, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}
