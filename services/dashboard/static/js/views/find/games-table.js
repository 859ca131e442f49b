// A list of games as the directory answers it (GET /games, /members/{id}): when, where, state,
// who played (linked to their pages, the winners marked once the game's end made them public),
// the winning side, and what the signed-in person can do in each (home.js's actions).

import { h, table, titleCase } from "../../dom.js";
import { href } from "../../location.js";
import { utcMinute } from "../../when.js";
import { gameColumns } from "../home.js";

function players(game) {
  return h(
    "ul",
    { class: "players-inline" },
    game.players.map((p) =>
      h(
        "li",
        { "data-member": p.member_id },
        h("a", { href: href(`/player/${encodeURIComponent(p.member_id)}`) }, p.display_name),
        p.won ? h("span", { class: "won", title: "on the winning side" }, " ★") : null,
      ),
    ),
  );
}

/** rows: the API's game summaries; `player`: a member id whose result gets its own column. */
export function gamesTable(rows, { accountId = null, player = null, caption, testid = "games" }) {
  const home = Object.fromEntries(gameColumns(accountId).map((c) => [c.label, c]));
  const columns = [
    { label: "Created (UTC)", value: (g) => h("time", { datetime: g.created_at }, utcMinute(g.created_at).replace(" UTC", "")) },
    home.Where,
    { label: "State", value: (g) => (g.voided ? `${titleCase(g.status)}, voided` : titleCase(g.status)) },
    { label: "Players", value: players },
    { label: "Winning side", value: (g) => (g.winning_side ? titleCase(g.winning_side) : "–") },
    player
      ? {
          label: "Result",
          value: (g) => {
            const seat = g.players.find((p) => p.member_id === player);
            if (g.status !== "finished" || seat?.won === null || seat?.won === undefined) return "–";
            return seat.won ? "Won" : "Lost";
          },
        }
      : null,
    { label: "Open", value: home[""].value },
  ].filter(Boolean);
  const drawn = table({
    caption,
    columns,
    rows,
    testid,
    rowAttrs: (g) => ({ "data-game": g.game_id, "data-status": g.status, "data-created": g.created_at }),
  });
  // each cell names its column, so a phone can show a row as a card (find.css)
  for (const row of drawn.tBodies[0].rows) {
    [...row.cells].forEach((cell, i) => cell.setAttribute("data-label", columns[i].label));
  }
  return h("div", { class: "table-scroll cards" }, drawn);
}
