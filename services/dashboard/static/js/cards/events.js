// The card game's events in words, one line each, for the seat page's feed, the live view and
// the replay's timeline. A card an event names only to some (a card drawn, a card taken from a
// hand, a shuffle's order) comes null to everybody else, and its line then says "a card": the
// line never knows more than the viewer. Roles follow `seen` (the table beside the line) as the
// dice game's lines do (events.js): a replay names a role only once its table shows it.

import { describeEvent as describeOther } from "../events.js";
import { titleCase } from "../dom.js";
import { cardOf, cardWords, characterName } from "./deck.js";
import { sideWords } from "./table.js";

const card = (id) => (id === null || id === undefined ? "a card" : cardWords(cardOf(id)));
const cards = (n) => `${n} ${n === 1 ? "card" : "cards"}`;
const role = (seen, player, value) => {
  if (seen && !seen.roles?.[player]) return "?";
  return value ? titleCase(value) : "?";
};

const REASONS = {
  deal: "the deal",
  phase: "phase 1",
  black_jack: "Black Jack",
  kit_carlson: "Kit Carlson",
  stagecoach: "Stagecoach",
  wells_fargo: "Wells Fargo",
  reward: "the reward for an Outlaw",
  bart_cassidy: "Bart Cassidy",
  suzy_lafayette: "Suzy Lafayette",
};
const CHECKS = { dynamite: "the Dynamite", jail: "the Jail", barrel: "a Barrel", jourdonnais: "Jourdonnais' Barrel" };
const PHASES = { setup: "sets up", start: "starts the turn", draw: "draws (phase 1)", play: "plays cards (phase 2)", discard: "discards (phase 3)", over: "the game is over" };

function checkOutcome(e) {
  if (e.reason === "dynamite") return e.success ? "the Dynamite explodes" : "the Dynamite does not explode";
  if (e.reason === "jail") return e.success ? "escapes the Jail" : "stays in Jail (turn skipped)";
  return e.success ? "a Missed! effect" : "no effect";
}

const DESCRIBE = {
  GameStarted: (e, seen) =>
    `game started: ${(e.seats ?? []).map((s) => `${s.player} ${role(seen, s.player, s.role)} ${characterName(s.character)}`).join(", ")}${e.eight_players ? " (8 players, two Renegades)" : ""}${e.position ? ", from a mid-game position" : ""}`,
  DeckShuffled: (e) => ((e.order ?? []).length ? `the deck is shuffled (${cards(e.order.length)})` : "the deck is shuffled in an unknown order"),
  TopCardNamed: (e) => (e.seen_by ? `${e.seen_by} takes ${card(e.card)} from the deck` : `${card(e.card)} is turned up from the deck`),
  HandsDealt: (e) => `hands dealt: ${(e.hands ?? []).map(([p, hand]) => `${p} ${cards(hand.length)}`).join(", ")}`,
  CardDrawn: (e) => `${e.player} draws ${card(e.card)}${e.from_discard ? " from the discard pile" : ""} (${REASONS[e.reason] ?? e.reason})`,
  DrawsOwed: (e) => `${e.player} is to draw ${cards(e.count)} (${REASONS[e.reason] ?? e.reason})`,
  DrawsForfeited: (e) => `${e.player} draws nothing: the deck and the discard pile are empty`,
  TurnStarted: (e) => `turn ${e.turn}: ${e.player}'s turn`,
  PhaseBegan: (e) => `${e.player} ${PHASES[e.phase] ?? e.phase}`,
  DrawSourceChosen: (e) =>
    `${e.player} draws the first card from ${e.from_player ? `${e.from_player}'s hand` : e.from_discard ? "the discard pile" : "the deck"}`,
  KitLooked: (e) => `${e.player} (Kit Carlson) looks at ${card(e.card)}`,
  KitReturned: (e) => `${e.player} (Kit Carlson) puts ${card(e.card)} back on the deck`,
  CardShown: (e) => `${e.player} shows ${card(e.card)}`,
  CheckBegan: (e) => `${e.player} draws! for ${CHECKS[e.reason] ?? e.reason}`,
  CardFlipped: (e) => `${e.player} flips ${card(e.card)}`,
  CheckResolved: (e) => `${e.player}'s draw!${e.card !== null && e.card !== undefined ? ` is ${card(e.card)}` : " finds no card"}: ${checkOutcome(e)}`,
  DynamitePassed: (e) => `the Dynamite passes from ${e.player} to ${e.to}`,
  CardPlayed: (e) => {
    let line = `${e.player} plays ${card(e.card)}${e.as_bang ? " as a BANG!" : ""}`;
    if (e.target) line += e.target_card !== null && e.target_card !== undefined ? ` on ${e.target}'s ${card(e.target_card)}` : ` on ${e.target}`;
    return line;
  },
  Responded: (e) => `${e.player} answers with ${card(e.card)}`,
  Passed: (e) => `${e.player} does not answer${e.automatic ? " (no other option)" : ""}${e.timeout ? " (time ran out)" : ""}`,
  SidKetchumHealed: (e) => `${e.player} (Sid Ketchum) discards ${card(e.cards?.[0])} and ${card(e.cards?.[1])} to regain 1 life`,
  CardDiscarded: (e) => `${e.player} discards ${card(e.card)}`,
  CardTaken: (e) =>
    `${e.player} takes ${card(e.card)} from ${e.from_player}'s ${e.hand_card || e.random ? "hand" : "cards in play"}${e.random ? " at random" : ""}`,
  StoreCardRevealed: (e) => `the General Store shows ${card(e.card)}`,
  StoreCardPicked: (e) => `${e.player} takes ${card(e.card)} from the General Store`,
  CardResolved: (e) => (e.card === null || e.card === undefined ? "the explosion is resolved" : `${card(e.card)} goes to the discard pile`),
  LifeLost: (e) => `${e.player} loses ${e.amount} life${e.source ? ` (from ${e.source})` : ""}`,
  LifeGained: (e) => `${e.player} regains ${e.amount} life`,
  PlayEnded: (e) => `${e.player} ends the play`,
  PlayerEliminated: (e) =>
    `${e.player} is eliminated (${e.role ? titleCase(e.role) : "?"})${e.cause === "dynamite" ? " by the Dynamite" : e.cause === "self" ? " by his own Duel" : e.by ? ` by ${e.by}` : ""}`,
  ResolutionEnded: () => "the card is resolved",
  TurnEnded: (e) => `${e.player}'s turn ends`,
  GameEnded: (e, seen) => {
    const roles = seen ? Object.values(seen.roles ?? {}) : [];
    if (seen && (!roles.length || roles.some((r) => !r))) return `game over on turn ${e.turn}`;
    const winners = (e.results ?? []).filter((r) => r.won).map((r) => r.player);
    return `game over on turn ${e.turn}: ${sideWords(e.winner)} (${winners.join(" ")})`;
  },
};

/** What a card table shows of the roles (for the replay's lines). */
export function seenOnCardBoard(state) {
  const roles = {};
  for (const p of state?.players ?? []) roles[p.id] = p.role ?? null;
  return { roles, specials: {}, cards: new Set() };
}

/** The line for one event of a card game (its own events `cards.*`, or the game's common ones). */
export function describeCardEvent(event, seen) {
  const type = String(event.type ?? "");
  if (!type.startsWith("cards.")) {
    if (type === "SeedRevealed") return "seed revealed (every shuffle and random pick can be checked)";
    return describeOther(event, seen);
  }
  const describe = DESCRIBE[type.slice("cards.".length)];
  if (!describe) return describeOther({ ...event, type: type.slice("cards.".length) }, seen);
  try {
    return describe(event.data ?? {}, seen);
  } catch {
    return describeOther({ ...event, type: type.slice("cards.".length) }, seen);
  }
}
