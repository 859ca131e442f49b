// The card game's table, drawn from the REST game view (GET /games/{id}, /versions/{v}) exactly
// as the server redacted it: each seat's life, role when public, character, hand count and
// cards in play; the deck's count, the discard pile's top, the General Store, the card being
// resolved; distance hints from the viewer's seat; and the viewer's own hand, which the API
// sends to its holder only. Nothing here works out a hidden card: a null stays unshown.

import { h, titleCase } from "../dom.js";
import { ABILITIES, CARD_TEXTS, cardName, cardNode, cardOf, cardOfText, characterName, WEAPON_RANGE } from "./deck.js";
import { explained } from "../explain.js";

const PHASES = { setup: "Setting up", start: "Start of turn (Dynamite, Jail)", draw: "Drawing (phase 1)", play: "Playing cards (phase 2)", discard: "Discarding (phase 3)", over: "Game over" };
const SIDES = { law: "The Sheriff and his Deputies win", outlaws: "The Outlaws win", renegade: "The Renegade wins" };

export const sideWords = (side) => SIDES[side] ?? `${titleCase(side)} win`;

export function seatLabel(state, seatId) {
  if (seatId === "table") return "the table";
  const player = state?.players?.find((p) => p.id === seatId);
  return player?.name ? `${player.name} (${seatId})` : String(seatId ?? "?");
}

/** The cards a seat has in play, each with its id when the view gives one. */
export function inPlayCards(player) {
  const ids = player.in_play_ids ?? [];
  return (player.in_play ?? []).map((text, i) => cardOf(ids[i]) ?? cardOfText(text));
}

/** The viewer's own hand (ids and texts come to the holder only); [] for anybody else. */
export function handCards(player) {
  if (!player?.hand) return [];
  const ids = player.hand_ids ?? [];
  return player.hand.map((text, i) => cardOf(ids[i]) ?? cardOfText(text));
}

const has = (player, name) => inPlayCards(player).some((c) => c?.name === name);

/** The card game's distance from seat `a` to seat `b` (living players; Mustang, Scope, Paul Regret, Rose Doolan). */
export function distance(state, a, b) {
  if (a === b) return 0;
  const living = state.players.filter((p) => p.alive || p.id === a || p.id === b).map((p) => p.id);
  const i = living.indexOf(a);
  const j = living.indexOf(b);
  if (i < 0 || j < 0) return null;
  const steps = (((j - i) % living.length) + living.length) % living.length;
  const seats = Math.min(steps, living.length - steps);
  const pa = state.players.find((p) => p.id === a);
  const pb = state.players.find((p) => p.id === b);
  const mustang = Number(has(pb, "mustang")) + Number(pb.character === "paul_regret");
  const scope = Number(has(pa, "scope")) + Number(pa.character === "rose_doolan");
  return Math.max(1, seats + mustang - scope);
}

export function weaponRange(player) {
  for (const card of inPlayCards(player)) if (card && WEAPON_RANGE[card.name]) return WEAPON_RANGE[card.name];
  return 1; // the Colt .45 on every board
}

function roleBadge(role) {
  return h(
    "span",
    { class: `role role-${role ?? "hidden"}`, "data-testid": "seat-role", "aria-label": role ? `Role: ${titleCase(role)}` : "Role hidden" },
    role ? titleCase(role) : "?",
  );
}

function seatFlag(player, state, me) {
  if (!player.alive) return h("span", { class: "seat-flag out" }, "Eliminated");
  if (state.status === "ongoing" && state.active_player === player.id) {
    return h("span", { class: "seat-flag turn" }, player.id === me ? "Your turn" : "Their turn");
  }
  if (state.status === "ongoing" && state.awaiting?.player === player.id) return h("span", { class: "seat-flag waiting" }, "Deciding");
  return null;
}

function distanceHint(state, player, me) {
  const mine = state.players.find((p) => p.id === me);
  if (!mine || player.id === me || !player.alive || !mine.alive || state.status !== "ongoing") return null;
  const d = distance(state, me, player.id);
  if (d === null) return null;
  const reach = d <= weaponRange(mine);
  return h(
    "div",
    { class: `card-distance${reach ? " card-in-range" : ""}`, "data-testid": "distance", "data-distance": d, "data-in-range": String(reach) },
    `Distance ${d} from you · ${reach ? "in your BANG! range" : "out of your BANG! range"}`,
  );
}

function seatCard(player, state, me) {
  const inPlay = inPlayCards(player);
  const classes = ["seat", "card-seat", player.id === me ? "seat-mine" : "", player.alive ? "" : "seat-out",
    state.status === "ongoing" && state.active_player === player.id ? "seat-active" : ""].filter(Boolean).join(" ");
  return h(
    "li",
    { class: classes, "data-testid": `seat-${player.id}`, "data-seat": player.id },
    h(
      "div",
      { class: "seat-head" },
      h("span", { class: "seat-id" }, player.id),
      h("span", { class: "seat-name" }, player.name ?? "—", player.id === me ? " (you)" : ""),
      roleBadge(player.role),
    ),
    h("div", { class: "seat-character", title: ABILITIES[player.character] ?? "" }, characterName(player.character),
      ABILITIES[player.character] ? h("span", { class: "muted" }, ` — ${ABILITIES[player.character]}`) : null),
    h(
      "div",
      { class: "play-seat-stats" },
      h("span", null, "Life ", h("strong", { "data-testid": "life" }, String(player.life)), ` / ${player.max_life}`),
      h("span", null, "Cards in hand ", h("strong", { "data-testid": "hand-count" }, String(player.hand_count ?? 0))),
    ),
    h(
      "div",
      { class: "card-in-play", "data-testid": "in-play" },
      inPlay.length ? [h("span", { class: "muted" }, "In play: "), inPlay.map((c) => cardNode(c))] : h("span", { class: "muted" }, "Nothing in play"),
    ),
    // a hand the API sent for this seat to this viewer (a table's scorekeeper); the viewer's own is drawn apart
    player.hand?.length && player.id !== me
      ? h("div", { class: "card-in-play", "data-testid": "seat-hand" }, h("span", { class: "muted" }, "Hand: "), handCards(player).map((c) => cardNode(c)))
      : null,
    distanceHint(state, player, me),
    seatFlag(player, state, me),
  );
}

function resolvingWords(state) {
  const r = state.resolving;
  if (!r) return null;
  const card = cardOf(r.card);
  const what = card ? cardNode(card) : r.name ? cardName({ name: r.name }) : "Dynamite's explosion";
  return h("span", { "data-testid": "resolving" }, what, r.source ? ` by ${seatLabel(state, r.source)}` : "", r.target ? ` on ${seatLabel(state, r.target)}` : "");
}

/** The facts above the seats: turn, phase, deck, discard pile, General Store, what resolves. */
export function cardFacts(state, extra = []) {
  const discard = state.discard ?? [];
  const discardIds = state.discard_ids ?? [];
  const last = discard.length - 1;
  const top = discard.length ? cardOf(discardIds[last]) ?? cardOfText(discard[last]) : null;
  const storeIds = state.general_store_ids ?? [];
  const store = (state.general_store ?? []).map((text, i) => cardOf(storeIds[i]) ?? cardOfText(text));
  const kit = state.kit_carlson;
  const fact = (label, value, testid) => h("div", null, h("dt", null, label), h("dd", { "data-testid": testid }, value));
  return h(
    "dl",
    { class: "facts card-facts" },
    fact("Turn", String(state.turn ?? "—"), "turn"),
    state.status === "ongoing" && state.active_player ? fact("Playing", seatLabel(state, state.active_player), "active-player") : null,
    state.status === "ongoing" ? fact("Phase", PHASES[state.phase] ?? state.phase ?? "—", "phase") : null,
    state.status === "ended" && state.result ? fact("Result", sideWords(state.result.winner), "result-fact") : null,
    fact("Deck", `${state.deck ?? 0} cards`, "deck-count"),
    fact("Discard pile", top ? [cardNode(top), h("span", { class: "muted" }, ` on top of ${discard.length}`)] : "empty", "discard-top"),
    store.length ? fact("General Store", store.map((c) => cardNode(c)), "general-store") : null,
    state.resolving && state.status === "ongoing" ? fact("Resolving", resolvingWords(state), "resolving-fact") : null,
    kit ? fact("Kit Carlson looks at", kit.cards ? kit.cards.map((id) => cardNode(cardOf(id))) : `${kit.count} cards (face down to you)`, "kit-look") : null,
    ...extra,
  );
}

/** The seats, clockwise; `me`: the viewer's seat id (distance hints, "you"), or null. */
export function cardSeats(state, me) {
  return h("ol", { class: "seats card-seats", "aria-label": "Players, clockwise", "data-testid": "seats" }, state.players.map((p) => seatCard(p, state, me)));
}

/** The viewer's own hand as card faces (nothing for a seat whose hand the API did not send). */
// Under a card of your hand: "what it does", tap (or Enter) to show (explain.js's disclosure).
function cardNote(card) {
  const text = card ? CARD_TEXTS[card.name] : null;
  return text ? explained("what it does", text, { testid: "explain-card" }) : null;
}

export function myHand(player) {
  const cards = handCards(player);
  return h(
    "section",
    { class: "panel card-hand", "data-testid": "my-hand", "aria-label": "Your hand" },
    h("h2", null, `Your hand (${cards.length})`),
    cards.length
      ? h("ul", { class: "card-list" }, cards.map((c) => h("li", null, cardNode(c, { "data-testid": "hand-card" }), cardNote(c))))
      : h("p", { class: "muted" }, "No cards in your hand."),
  );
}

/** A whole table for a spectator or the replay: facts and seats, no hand (no viewer's seat). */
export function cardBoard(state) {
  return h("div", { class: "board card-board", "data-testid": "board", "data-version": state.version }, cardFacts(state), cardSeats(state, null));
}
