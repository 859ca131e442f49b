// A game's table as the server sent it (already redacted): players with life, arrows and
// role, the dice of the turn, whose turn it is. Used by the live and the replay views.
// A role the viewer may not see is null and is shown as "?": nothing here tries to infer it.

import { h, properName, titleCase } from "./dom.js";
import { href } from "./location.js";

const FACE_LABELS = {
  arrow: { symbol: "➶", label: "Arrow" },
  dynamite: { symbol: "✹", label: "Dynamite" },
  shoot1: { symbol: "①", label: "Shoot 1" },
  shoot2: { symbol: "②", label: "Shoot 2" },
  beer: { symbol: "🍺", label: "Beer" },
  gatling: { symbol: "⁂", label: "Gatling" },
};

export function die(face) {
  if (face === null || face === undefined) {
    return h("li", { class: "die die-unrolled", "aria-label": "not rolled" }, h("span", { "aria-hidden": "true" }, "·"));
  }
  const known = FACE_LABELS[face] ?? { symbol: "?", label: face };
  return h(
    "li",
    { class: `die die-${face}`, title: known.label, "data-face": face },
    h("span", { class: "die-symbol", "aria-hidden": "true" }, known.symbol),
    h("span", { class: "die-label" }, known.label),
  );
}

function roleBadge(role) {
  const shown = role ? titleCase(role) : "?";
  return h(
    "span",
    {
      class: `role role-${role ?? "hidden"}`,
      "data-testid": "role",
      title: role ? shown : "Hidden role",
      "aria-label": role ? `Role: ${shown}` : "Role hidden",
    },
    role === "sheriff" ? h("span", { class: "star", "aria-hidden": "true" }, "★ ") : null,
    shown,
  );
}

function lifeBar(life, maxLife) {
  const percent = maxLife > 0 ? Math.max(0, Math.min(100, (life / maxLife) * 100)) : 0;
  return h(
    "div",
    { class: "life" },
    h("span", { class: "life-text" }, "Life ", h("strong", { "data-testid": "life" }, String(life)), ` / ${maxLife}`),
    h(
      "div",
      { class: "bar", role: "meter", "aria-valuemin": 0, "aria-valuemax": maxLife, "aria-valuenow": life, "aria-label": "Life" },
      h("div", { class: "bar-fill", style: `width: ${percent}%` }),
    ),
  );
}

function playerCard(player, state) {
  const active = state.activePlayer === player.id && state.status !== "ended";
  const awaited = state.awaiting?.player === player.id;
  const classes = ["seat", active ? "seat-active" : "", player.alive ? "" : "seat-out"].filter(Boolean).join(" ");
  return h(
    "li",
    { class: classes, "data-testid": `seat-${player.id}`, "aria-current": active ? "true" : null },
    h(
      "div",
      { class: "seat-head" },
      h("span", { class: "seat-id" }, player.id),
      h(
        "span",
        { class: "seat-name" },
        player.memberId ? h("a", { href: href(`/player/${encodeURIComponent(player.memberId)}`) }, player.name ?? player.memberId) : player.name ?? "—",
      ),
      roleBadge(player.role),
    ),
    h("div", { class: "seat-character" }, properName(player.character)),
    lifeBar(player.life, player.maxLife),
    h("div", { class: "seat-arrows" }, "Arrows ", h("strong", { "data-testid": "arrows" }, String(player.arrows))),
    !player.alive ? h("div", { class: "seat-flag out" }, "Eliminated") : null,
    active ? h("div", { class: "seat-flag turn" }, "Their turn") : null,
    awaited && !active ? h("div", { class: "seat-flag waiting" }, "To decide") : null,
  );
}

function resultLine(result) {
  if (!result) return null;
  const side = result.winning_side;
  const winners = (result.winners ?? []).join(", ");
  return h(
    "p",
    { class: "notice result", "data-testid": "result" },
    side ? `Game over: ${titleCase(side)} ${side === "outlaws" ? "win" : "wins"} (${winners}).` : "Game over: nobody wins.",
  );
}

// "dice (base game)", "dice OS1 OS2"; an online game adds the seed derivations an audit re-derives with.
function rulesLine(state) {
  const ruleset = state.ruleset;
  const rules = ruleset && ruleset.modules.length ? ruleset.text : `${state.gameType ?? "dice"} (base game)`;
  return state.fairness ? `${rules} · seed: ${state.fairness}` : rules;
}

export function board(state) {
  const active = state.players.find((p) => p.id === state.activePlayer);
  return h(
    "section",
    { class: "board", "aria-label": "Game table", "data-testid": "board" },
    h(
      "dl",
      { class: "facts" },
      h("div", null, h("dt", null, "Status"), h("dd", { "data-testid": "status" }, titleCase(state.status))),
      h("div", null, h("dt", null, "Turn"), h("dd", { "data-testid": "turn" }, state.turn ?? "—")),
      h(
        "div",
        null,
        h("dt", null, "Whose turn"),
        h("dd", { "data-testid": "active-player" }, active ? `${active.id} ${active.name ?? ""}`.trim() : "—"),
      ),
      h("div", null, h("dt", null, "Arrow pile"), h("dd", { "data-testid": "arrow-pile" }, state.arrowPile ?? "—")),
      h("div", null, h("dt", null, "Event"), h("dd", { "data-testid": "version" }, String(state.version))),
      h("div", null, h("dt", null, "Rules"), h("dd", { "data-testid": "ruleset" }, rulesLine(state))),
    ),
    h(
      "div",
      { class: "dice-row" },
      h("h3", { id: "dice-heading" }, "Dice"),
      state.dice.length
        ? h("ul", { class: "dice", "aria-labelledby": "dice-heading", "data-testid": "dice" }, state.dice.map(die))
        : h("p", { class: "muted" }, "No dice on the table."),
      state.awaiting
        ? h(
            "p",
            { class: "muted", "data-testid": "awaiting" },
            `Waiting for ${state.awaiting.player} to ${state.awaiting.decision.replaceAll("_", " ")}`,
            state.awaiting.rollsLeft ? ` (${state.awaiting.rollsLeft} rolls left)` : "",
            ".",
          )
        : null,
    ),
    resultLine(state.result),
    h("ol", { class: "seats", "aria-label": "Players, clockwise" }, state.players.map((p) => playerCard(p, state))),
  );
}
