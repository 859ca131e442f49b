// Which league, season or tournament a page shows. The API has no query that lists leagues,
// so the ids travel in the address (#/standings?league=saloon&season=s1) and this small form
// edits them; links between pages carry them along.

import { h } from "./dom.js";
import { href } from "./location.js";

const LABELS = { league: "League id", season: "Season id", tournament: "Tournament id" };

/**
 * A GET-like form over the hash: `fields` names the params it edits, `required` those the page
 * cannot do without. Submitting navigates to `path` with the values.
 */
export function scopeForm(path, params, fields, { required = [] } = {}) {
  const inputs = fields.map((name) =>
    h("input", { type: "text", name, id: `scope-${name}`, value: params.get(name) ?? "", required: required.includes(name), autocomplete: "off" }),
  );
  const form = h(
    "form",
    {
      class: "inline scope",
      role: "search",
      "aria-label": "Choose what to show",
      onsubmit: (event) => {
        event.preventDefault();
        const values = Object.fromEntries(inputs.map((input) => [input.name, input.value.trim()]));
        window.location.hash = href(path, values);
      },
    },
    fields.map((name, i) => h("label", { for: `scope-${name}` }, LABELS[name] ?? name, inputs[i])),
    h("button", { type: "submit", class: "button" }, "Show"),
  );
  return form;
}

/** The scope params worth carrying in links to other pages. */
export function scopeOf(params) {
  return {
    league: params.get("league"),
    season: params.get("season"),
    tournament: params.get("tournament"),
    club: params.get("club"), // whose ratings (pool.js)
  };
}
