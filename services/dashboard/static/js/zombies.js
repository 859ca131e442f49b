// UA4, "Undead or Alive?": the Boneyard, the outbreak and the zombies, for the seat page (REST,
// snake_case), the scorekeeper's page and the live and replay views (board.js `restBoard`).
// Everything here is public by the rulings (§UA4): a Boneyard card is face up once revealed, a
// zombie and the Zombie Master are known to all since the outbreak. Nothing is inferred: the
// hands a card shows come from the deck's own table, a card of another deck is named by its id.

import { h } from "./dom.js";

// boneyard-1 (services/game/rules/dice/undead/zombies.py BONEYARD_DECKS): card id → hands shown.
const BONEYARD_1 = {};
[
  [2, 0],
  [6, 1],
  [3, 2],
].forEach(([count, hands]) => {
  for (let i = 0; i < count; i += 1) BONEYARD_1[`b${String(Object.keys(BONEYARD_1).length + 1).padStart(2, "0")}`] = hands;
});

const read = (object, snake, camel) => object?.[snake] ?? object?.[camel];
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The hands a Boneyard card shows (0, 1, 2), or null when the deck is not one this page knows. */
export function boneyardHands(card, deck = "boneyard-1") {
  const hands = deck === "boneyard-1" ? BONEYARD_1[card] : undefined;
  return hands ?? null;
}

/** "b10 (2 hands)", "b01 (no hands)"; a card of an unknown deck by its id. */
export function boneyardCardName(card, deck = "boneyard-1") {
  const hands = boneyardHands(card, deck);
  if (hands === null) return String(card);
  return `${card} (${hands ? plural(hands, "hand") : "no hands"})`;
}

/** Whether this game plays UA4 (the state has a Boneyard, even an emptied one). */
export function playsZombies(state) {
  return Boolean(state?.boneyard);
}

export const outbreakTurn = (state) => read(state, "outbreak_turn", "outbreakTurn") ?? null;
export const isZombie = (player) => Boolean(player?.zombie);
export const isZombieMaster = (player) => Boolean(read(player, "zombie_master", "zombieMaster"));

// Before an outbreak, the players alive are the ones the hands are counted against.
const aliveCount = (state) => (state.players ?? []).filter((p) => p.alive).length;

/**
 * The Boneyard (before an outbreak) or the outbreak (after one) as <div><dt><dd> pairs for a
 * <dl class="facts">; nothing in a game without UA4.
 */
export function tableZombies(state) {
  const boneyard = state?.boneyard;
  if (!boneyard) return [];
  const turn = outbreakTurn(state);
  if (turn !== null) {
    const zombies = state.players.filter(isZombie).map((p) => p.id);
    const master = state.players.find(isZombieMaster);
    const who = [zombies.length ? `zombies ${zombies.join(", ")}` : "no zombie", master ? `Zombie Master ${master.id}` : "no Zombie Master"];
    return [
      h(
        "div",
        null,
        h("dt", null, "Outbreak"),
        h("dd", { "data-testid": "outbreak-fact", "data-turn": String(turn) }, `since turn ${turn}: ${who.join(", ")}; the Boneyard is out of the game`),
      ),
    ];
  }
  const faceUp = boneyard.face_up ?? boneyard.faceUp ?? [];
  const known = faceUp.every((c) => boneyardHands(c, boneyard.deck) !== null);
  const hands = faceUp.reduce((sum, c) => sum + (boneyardHands(c, boneyard.deck) ?? 0), 0);
  // a no-hands card stays face up only until the end of the turn it was revealed in
  const blocked = faceUp.some((c) => boneyardHands(c, boneyard.deck) === 0);
  const alive = aliveCount(state);
  const cards = faceUp.length
    ? h("span", { class: "boneyard-cards" }, ` · face up: ${faceUp.map((c) => boneyardCardName(c, boneyard.deck)).join(", ")}`)
    : null;
  const count = known
    ? h(
        "span",
        { class: "boneyard-count", "data-testid": "boneyard-hands", "data-hands": String(hands), "data-alive": String(alive) },
        ` · ${plural(hands, "hand")} showing vs ${alive} alive (an outbreak when more)`,
      )
    : null;
  const noHands = blocked
    ? h("strong", { class: "boneyard-blocked", "data-testid": "boneyard-no-hands" }, " · no hands: no outbreak this turn")
    : null;
  return [
    h(
      "div",
      null,
      h("dt", null, "Boneyard"),
      h(
        "dd",
        { "data-testid": "boneyard", "data-pile": String(boneyard.pile), "data-face-up": faceUp.join(" ") },
        `${boneyard.pile} face down`,
        cards,
        count,
        noHands,
      ),
    ),
  ];
}

/** The outbreak as a banner above the table, once it has begun; null before or without UA4. */
export function outbreakBanner(state) {
  const turn = outbreakTurn(state);
  if (turn === null || !state?.boneyard) return null;
  const zombies = state.players.filter(isZombie).map((p) => p.id);
  const master = state.players.find(isZombieMaster);
  return h(
    "p",
    { class: "notice outbreak-banner", "data-testid": "outbreak", role: "note" },
    h("strong", null, `Zombie outbreak on turn ${turn}! `),
    zombies.length ? `${zombies.join(", ")} ${zombies.length === 1 ? "is a zombie" : "are zombies"}` : "No zombie rose",
    master ? `; ${master.id} is the Zombie Master` : "",
    ". Zombies and the Zombie Master win when every survivor is out; the survivors, when every zombie and the Master are.",
  );
}

/**
 * A seat's zombie mark: "Zombie" (3 base dice, no arrows, never heals, no ability) or "Zombie
 * Master" (keeps his dice, life and ability, plays with the zombies); null otherwise.
 */
export function zombieBadge(player) {
  if (isZombie(player)) {
    return h(
      "div",
      { class: "seat-flag zombie", "data-testid": "zombie", title: "Back from the Boneyard: 3 base dice, takes no arrows, never heals, no character ability" },
      "Zombie",
      h("span", { class: "zombie-rules" }, " · 3 dice, no arrows, no healing"),
    );
  }
  if (isZombieMaster(player)) {
    return h(
      "div",
      { class: "seat-flag zombie-master", "data-testid": "zombie-master", title: "The Renegade alive at the outbreak: plays with the zombies, keeps his dice, life and ability" },
      "Zombie Master",
    );
  }
  return null;
}

/** An eliminated seat before an outbreak keeps a turn: one Boneyard reveal. */
export function boneyardTurnNote(player, state) {
  if (player.alive || !state?.boneyard || outbreakTurn(state) !== null) return null;
  return h("span", { class: "boneyard-turn muted", "data-testid": "boneyard-turn" }, " · reveals a Boneyard card on his turn");
}

/**
 * "Zombies and the Zombie Master win", "Survivors win", "Outlaws win", "Law wins"; `lower`: as an
 * event line writes it (trace.py's "law wins", "zombies and the Zombie Master win").
 */
export function sideWins(side, lower = false) {
  const named = side === "zombies" || side === "zombie_master" ? "zombies and the Zombie Master" : side;
  const words = `${named} ${named === "law" || named === "renegade" || named === "deputy" || named === "outlaw" ? "wins" : "win"}`;
  return lower ? words : words.charAt(0).toUpperCase() + words.slice(1);
}

/** A seat's goal once the outbreak has changed the sides. */
export function zombieGoal(player, state) {
  if (outbreakTurn(state) === null) return null;
  if (isZombie(player)) return "You are a zombie: with the Zombie Master, eliminate every survivor.";
  if (isZombieMaster(player)) return "You are the Zombie Master: with the zombies, eliminate every survivor.";
  // a survivor out of the game still shares the survivors' win
  return "Zombie outbreak: with the other survivors, eliminate every zombie and the Zombie Master.";
}
