// Undead or Alive on the table: UA2's Rage cards and UA1's duels and wound tokens (UA4's Boneyard
// and zombies: zombies.js), drawn for the
// seat page (REST, snake_case), the scorekeeper's page and the live and replay views (which read
// such a game over REST: GraphQL's Game has no fields for these; board.js `restBoard`).
//
// What a viewer may see is the server's decision: a face-down Rage card comes as a count to
// everyone and as its id (`rage_cards`) to its holder alone. This module names a card only
// when the server sent its id, and only inside the holder's own seat; the discards are face up.

import { h } from "./dom.js";
import { faceName } from "./dice-faces.js";
import { playsZombies, tableZombies } from "./zombies.js";

// rage-1, the rulings' default deck (services/game/rules/dice/undead/rage.py): card id → symbols.
// Another deck version's card is shown by its id alone.
const RAGE_1 = {};
[
  [4, ["shoot1"]],
  [4, ["shoot2"]],
  [2, ["beer"]],
  [2, ["gatling"]],
  [2, ["arrow"]],
  [2, ["shoot1", "beer", "dynamite"]],
  [2, ["shoot2", "gatling"]],
].forEach(([count, symbols]) => {
  for (let i = 0; i < count; i += 1) RAGE_1[`r${String(Object.keys(RAGE_1).length + 1).padStart(2, "0")}`] = symbols;
});

/** "r15 (1, Beer, Dynamite)": a Rage card by its id and, in a known deck, its symbols. */
export function rageCardName(card, deck = "rage-1") {
  const symbols = deck === "rage-1" ? RAGE_1[card] : null;
  return symbols ? `${card} (${symbols.map(faceName).join(", ")})` : String(card);
}

// A field by either spelling: the REST state's snake_case or the GraphQL-shaped camelCase.
const read = (object, snake, camel) => object?.[snake] ?? object?.[camel];

/** Whether this state has anything of Undead or Alive to show. */
export function hasUndead(state) {
  return Boolean(state?.rage || state?.duel || playsZombies(state));
}

/** One seat's Rage cards (UA2) and wound tokens (UA1); null in a game without them. */
export function seatUndead(player, state) {
  const count = read(player, "rage_count", "rageCount");
  const own = read(player, "rage_cards", "rageCards");
  const tokens = read(player, "wound_tokens", "woundTokens");
  const choice = read(player, "rage_choice", "rageChoice"); // Pixie Pete's two cards, his alone
  const deck = state?.rage?.deck;
  const parts = [];
  if (count !== undefined && count !== null) {
    parts.push(
      h(
        "div",
        { class: "seat-rage", "data-testid": "rage-cards", "data-count": String(count) },
        "Rage cards ",
        h("strong", null, String(count)),
        count ? " face down" : "",
        // the holder's own ids, sent to nobody else
        own?.length
          ? h("span", { class: "rage-own", "data-testid": "rage-own" }, `: ${own.map((c) => rageCardName(c, deck)).join("; ")}`)
          : null,
      ),
    );
  }
  if (Array.isArray(choice) && choice.length === 2) {
    parts.push(
      h(
        "div",
        { class: "seat-rage-choice", "data-testid": "rage-choice" },
        "Keep one of ",
        h("strong", null, choice.map((c) => rageCardName(c, deck)).join(" or ")),
        "; the other goes back to the pile",
      ),
    );
  }
  if (tokens) {
    parts.push(
      h(
        "div",
        { class: "seat-wounds", "data-testid": "wound-tokens", "data-tokens": tokens.join(" ") },
        "Wound tokens ",
        tokens.length ? h("strong", null, tokens.map(faceName).join(", ")) : h("span", { class: "muted" }, "none"),
      ),
    );
  }
  return parts.length ? h("div", { class: "seat-undead" }, ...parts) : null;
}

const seatWords = (state, seat) => {
  const player = state.players?.find((p) => p.id === seat);
  return player?.name ? `${seat} ${player.name}` : seat;
};

/** The table's Undead or Alive facts as <div><dt><dd> pairs for a <dl class="facts">. */
export function tableUndead(state) {
  const rage = state?.rage;
  const duel = state?.duel;
  const facts = [];
  if (rage) {
    const discards = rage.discard?.length
      ? h("span", { class: "rage-discards" }, ` · discards ${rage.discard.map((c) => rageCardName(c, rage.deck)).join("; ")}`)
      : null;
    facts.push(h("div", null, h("dt", null, "Rage pile"), h("dd", { "data-testid": "rage-pile", "data-pile": String(rage.pile) }, `${rage.pile} face down`, discards)));
  }
  if (duel) {
    facts.push(h("div", null, h("dt", null, "Wound tokens"), h("dd", { "data-testid": "wound-pile" }, `${duel.wound_pile ?? duel.woundPile} in the pile`)));
    facts.push(h("div", null, h("dt", null, "Duel"), h("dd", { "data-testid": "duel" }, duelWords(state, duel))));
  }
  facts.push(...tableZombies(state));
  return facts;
}

function duelWords(state, duel) {
  if (duel.challenger && duel.target) {
    const next = duel.thrower ? `; ${seatWords(state, duel.thrower)} throws next` : "";
    return `${seatWords(state, duel.challenger)} duels ${seatWords(state, duel.target)}${next}`;
  }
  const challenged = duel.challenged ?? [];
  return challenged.length
    ? `no duel on (challenged this turn: ${challenged.map((seat) => seatWords(state, seat)).join(", ")})`
    : "no duel on";
}

/**
 * Whether a game's ruleset has a module of Undead or Alive: such a game is read over REST, whose
 * view has the Rage cards, wound tokens, duel and Boneyard that GraphQL's Game lacks.
 */
export function playsUndead(game) {
  return (game?.ruleset?.modules ?? []).some((m) => m.startsWith("UA"));
}
