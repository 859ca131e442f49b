// The organise pages' forms: one small form per league action, each posting one API call. The
// page offers a form from what it knows of your roles, but the API decides: a refusal is shown
// beside the form in the API's own words, and nothing on the page pretends it happened.

import { ApiError, commandId, problemSlug } from "../../api.js";
import { h, mount } from "../../dom.js";

let fieldCount = 0;

/** Who may read a league, in plain words: its club's members only (the default), or anyone. */
export const VISIBILITY_CHOICES = [
  ["members", "Members of the club only"],
  ["public", "Anyone, signed in or not"],
];

/** A labelled input, select or textarea: [label, control]. `control` is made by `make(id)`. */
export function labelled(text, make) {
  fieldCount += 1;
  const id = `org-field-${fieldCount}`;
  const control = make(id);
  return { label: h("label", { for: id }, text), control };
}

export function textInput(text, attrs = {}) {
  return labelled(text, (id) => h("input", { id, type: "text", autocomplete: "off", ...attrs }));
}

export function select(text, options, attrs = {}) {
  return labelled(text, (id) =>
    h(
      "select",
      { id, ...attrs },
      options.map(([value, label]) => h("option", { value }, label)),
    ),
  );
}

/** The API's words for a refusal (or what went wrong on the way), as every page shows them. */
export function problemNotice(error) {
  const words = error instanceof ApiError ? error.message : `Something went wrong: ${error.message}`;
  return h("p", { class: "notice error", role: "alert", "data-testid": "form-error" }, words);
}

export function doneNotice(words) {
  return h("p", { class: "notice done", role: "status", "data-testid": "form-done" }, words);
}

/**
 * A form that makes one API call: `fields` (from labelled()), a submit button, and a place for
 * the answer. `send(commandId)` makes the call; one command id is kept until it succeeds, so
 * pressing again after a lost answer retries the same command (the API answers it once); once
 * the API says the id was spent on another command (the form was changed since), a new one.
 * `done(answer)` says what happened (a string, shown under the form) or redraws the page.
 */
export function actionForm({ label, fields = [], submit, send, done, testid, className = "stacked" }) {
  let pending = commandId("web");
  const outcome = h("div", { class: "form-outcome", "aria-live": "polite" });
  const button = h("button", { type: "submit", class: "button primary" }, submit);
  const form = h(
    "form",
    {
      class: `org-form ${className}`,
      "aria-label": label,
      "data-testid": testid,
      onsubmit: async (event) => {
        event.preventDefault();
        button.disabled = true;
        mount(outcome);
        let answer;
        try {
          answer = await send(pending);
        } catch (error) {
          if (error.name !== "AbortError") mount(outcome, problemNotice(error));
          // the id was spent on what the form held before (its answer lost): what it holds now
          // is another command, sent under a new id when pressed again
          if (problemSlug(error) === "command-id-reused") pending = commandId("web");
          button.disabled = false;
          return;
        }
        pending = commandId("web");
        button.disabled = false;
        const said = await done(answer, form);
        if (typeof said === "string" && form.isConnected) mount(outcome, doneNotice(said));
        else if (said instanceof Node && form.isConnected) mount(outcome, said);
      },
    },
    fields.flatMap((f) => [f.label, f.control]),
    button,
  );
  form.append(outcome);
  return form;
}

/** A disclosure holding a form: closed by default, so a page of many actions stays readable. */
export function disclosure(summary, ...children) {
  return h("details", { class: "org-action" }, h("summary", null, summary), ...children);
}

/** Poll `fetch` until its answer differs from `before` (the projections catch up in a moment). */
export async function changed(fetch, before, { tries = 30, wait = 300, signal } = {}) {
  let latest = before;
  for (let attempt = 0; attempt < tries; attempt += 1) {
    latest = await fetch();
    if (JSON.stringify(latest) !== JSON.stringify(before) || signal?.aborted) return latest;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return latest;
}

/** The dashboard link of an invite: the invite page of this site with the link's secret. */
export function inviteLink(token) {
  return `${window.location.origin}${window.location.pathname}#/invite/${encodeURIComponent(token)}`;
}

/** Show a fresh invite link with a copy button (the secret is shown once, as the API says). */
export function inviteBox(name, token) {
  const link = inviteLink(token);
  const input = h("input", { type: "text", readonly: true, value: link, "data-testid": "invite-link", "aria-label": `Invite link for ${name}` });
  const copy = h("button", { type: "button", class: "button" }, "Copy");
  copy.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(link);
      copy.textContent = "Copied";
    } catch {
      copy.textContent = "Selected: press Ctrl+C";
    }
  });
  return h(
    "div",
    { class: "notice done invite-box", role: "status", "data-testid": "form-done" },
    h("p", null, `Send this link to ${name}. It is shown only now; with it they choose their own login and password.`),
    h("div", { class: "copy-row" }, input, copy),
  );
}
