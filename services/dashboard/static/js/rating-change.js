// A finished game's rating changes, for its result screen: each player's overall rating before
// and after the game in each pool it was rated in ("Ann Moss 1500.0 → 1512.4 (+12.4), global
// ratings"), or "Not rated" and why (a friendly table game, an imported record …), in the
// ratings' own words (GraphQL `gameRatingChange`, docs/ratings.md). The ratings take a game in
// shortly after it ends: until then the section says so and asks again for a while.

import { query } from "./graphql.js";
import { h, mount } from "./dom.js";

const AGAIN_MS = 3000;
const TRIES = 40; // two minutes

const signed = (n) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(1)}`;
const poolWords = (pool) => (pool === "global" ? "global ratings" : "the club's ratings");

function changes(answer) {
  const byPool = new Map();
  for (const c of answer.changes) byPool.set(c.pool, [...(byPool.get(c.pool) ?? []), c]);
  return [...byPool].map(([pool, rows]) =>
    h(
      "table",
      { class: "rating-change-table" },
      h("caption", null, `Rating change, ${poolWords(pool)}`),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Before"), h("th", { scope: "col" }, "After"), h("th", { scope: "col" }, "Change"))),
      h(
        "tbody",
        null,
        rows.map((c) =>
          h(
            "tr",
            { "data-member": c.memberId, "data-change": String(c.change) },
            h("th", { scope: "row" }, c.displayName),
            h("td", null, c.before.toFixed(1)),
            h("td", null, c.after.toFixed(1)),
            h("td", { class: c.change >= 0 ? "rating-up" : "rating-down" }, signed(c.change)),
          ),
        ),
      ),
    ),
  );
}

/** The section for finished game `gameId`; it fills itself (and stops asking once `signal` aborts). */
export function ratingChange(gameId, signal) {
  const body = h("p", { class: "muted" }, "Reading the rating changes …");
  const node = h("section", { class: "panel rating-change", "data-testid": "rating-change", "aria-labelledby": "rating-change-head" }, h("h2", { id: "rating-change-head" }, "Ratings"), body);
  let tries = 0;
  const read = async () => {
    if (signal?.aborted) return;
    tries += 1;
    try {
      const answer = (await query("dashboard/RatingChange", "DashboardRatingChange", { gameId })).gameRatingChange;
      if (signal?.aborted) return;
      if (answer.rated) {
        node.dataset.rated = "true";
        mount(node, h("h2", { id: "rating-change-head" }, "Ratings"), ...changes(answer));
        return;
      }
      node.dataset.rated = "false";
      mount(node, h("h2", { id: "rating-change-head" }, "Ratings"), h("p", { "data-testid": "not-rated" }, `Not rated: ${answer.reason}.`));
      if (/^not rated yet/.test(answer.reason ?? "") && tries < TRIES) setTimeout(read, AGAIN_MS);
    } catch (error) {
      if (error.name === "AbortError" || signal?.aborted) return;
      body.textContent = `Could not read the rating changes: ${error.message}`;
      if (tries < TRIES) setTimeout(read, AGAIN_MS);
    }
  };
  read();
  return node;
}
