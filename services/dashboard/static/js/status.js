// Loading and error states, the same on every page: a page shows a spinner-free "Loading …"
// line while its queries run and a message with a retry button when one fails.

import { h, mount } from "./dom.js";

export function loading(what) {
  return h("p", { class: "notice loading", role: "status", "data-testid": "loading" }, `Loading ${what}…`);
}

export function failure(what, error, retry) {
  return h(
    "div",
    { class: "notice error", role: "alert", "data-testid": "error" },
    h("p", null, h("strong", null, `Could not load ${what}. `), error?.message ?? String(error)),
    retry ? h("button", { type: "button", class: "button", onclick: retry }, "Try again") : null,
  );
}

export function empty(message) {
  return h("p", { class: "notice empty", "data-testid": "empty" }, message);
}

/**
 * Show `what` loading in `container`, run `task`, then mount what `render(data)` returns.
 * `signal` is the page's AbortSignal: an answer arriving after the user moved on is dropped.
 */
export async function load(container, what, task, render, signal) {
  const attempt = async () => {
    mount(container, loading(what));
    let data;
    try {
      data = await task();
    } catch (error) {
      if (!signal?.aborted) mount(container, failure(what, error, attempt));
      return;
    }
    if (!signal?.aborted) mount(container, render(data));
  };
  await attempt();
}
