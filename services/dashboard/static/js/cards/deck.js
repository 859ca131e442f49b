// The 80 cards of BANG! (4th edition base set) as public data, ids 1..80 in the order of
// services/game/rules/cards/deck.py (../shared/rules/card-deck.md's rows): what every player
// knows about the deck, never where a card is. The API names a card by id in commands and
// events and by its text (`bang:AS`) in the game view; both read back to one card here.

import { h } from "../dom.js";

const COPIES = [
  ["bang", "AS AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2C 3C 4C 5C 6C 7C 8C 9C QH KH AH"],
  ["missed", "2S 3S 4S 5S 6S 7S 8S 10C JC QC KC AC"],
  ["beer", "6H 7H 8H 9H 10H JH"],
  ["saloon", "5H"],
  ["stagecoach", "9S 9S"],
  ["wells_fargo", "3H"],
  ["general_store", "9C QS"],
  ["panic", "JH QH AH 8D"],
  ["cat_balou", "KH 9D 10D JD"],
  ["gatling", "10H"],
  ["indians", "KD AD"],
  ["duel", "QD JS 8C"],
  ["barrel", "QS KS"],
  ["scope", "AS"],
  ["mustang", "8H 9H"],
  ["jail", "JS 10S 4H"],
  ["dynamite", "2H"],
  ["volcanic", "10S 10C"],
  ["schofield", "JC QC KS"],
  ["remington", "KC"],
  ["rev_carabine", "AC"],
  ["winchester", "8S"],
];

export const CARD_NAMES = {
  bang: "BANG!",
  missed: "Missed!",
  beer: "Beer",
  saloon: "Saloon",
  stagecoach: "Stagecoach",
  wells_fargo: "Wells Fargo",
  general_store: "General Store",
  panic: "Panic!",
  cat_balou: "Cat Balou",
  gatling: "Gatling",
  indians: "Indians!",
  duel: "Duel",
  barrel: "Barrel",
  scope: "Scope",
  mustang: "Mustang",
  jail: "Jail",
  dynamite: "Dynamite",
  volcanic: "Volcanic",
  schofield: "Schofield",
  remington: "Remington",
  rev_carabine: "Rev. Carabine",
  winchester: "Winchester",
};

export const WEAPON_RANGE = { volcanic: 1, schofield: 2, remington: 3, rev_carabine: 4, winchester: 5 };
const BLUE = new Set(["barrel", "scope", "mustang", "jail", "dynamite", ...Object.keys(WEAPON_RANGE)]);
const SUITS = { S: { sign: "♠", word: "spades" }, H: { sign: "♥", word: "hearts" }, D: { sign: "♦", word: "diamonds" }, C: { sign: "♣", word: "clubs" } };

export const CHARACTERS = {
  bart_cassidy: "Bart Cassidy",
  black_jack: "Black Jack",
  calamity_janet: "Calamity Janet",
  el_gringo: "El Gringo",
  jesse_jones: "Jesse Jones",
  jourdonnais: "Jourdonnais",
  kit_carlson: "Kit Carlson",
  lucky_duke: "Lucky Duke",
  paul_regret: "Paul Regret",
  pedro_ramirez: "Pedro Ramirez",
  rose_doolan: "Rose Doolan",
  sid_ketchum: "Sid Ketchum",
  slab_the_killer: "Slab the Killer",
  suzy_lafayette: "Suzy Lafayette",
  vulture_sam: "Vulture Sam",
  willy_the_kid: "Willy the Kid",
};

/** Each character's ability in a few words (card-deck.md). */
export const ABILITIES = {
  bart_cassidy: "draws a card each time he loses a life point",
  black_jack: "shows his second card drawn: a heart or diamond draws one more",
  calamity_janet: "plays BANG! as Missed! and Missed! as BANG!",
  el_gringo: "takes a card at random from whoever hurts him",
  jesse_jones: "may draw his first card from another player's hand",
  jourdonnais: "has a Barrel of his own",
  kit_carlson: "looks at three cards, keeps two",
  lucky_duke: "flips two cards for a draw! and chooses one",
  paul_regret: "is seen at distance +1",
  pedro_ramirez: "may draw his first card from the discard pile",
  rose_doolan: "sees everyone at distance −1",
  sid_ketchum: "may discard two cards to regain one life",
  slab_the_killer: "needs two Missed! to cancel his BANG!",
  suzy_lafayette: "draws a card when her hand is empty",
  vulture_sam: "takes every card of an eliminated player",
  willy_the_kid: "plays any number of BANG! cards",
};

/** What each card does, in a few words: the card game's one table of card texts (explain.js). */
export const CARD_TEXTS = {
  bang: "Shoot a player within your weapon's reach: he loses 1 life unless he answers with a Missed!. One BANG! a turn.",
  missed: "Cancels a shot at you.",
  beer: "Regain 1 life (not when only two players are left).",
  saloon: "Every player regains 1 life.",
  stagecoach: "Draw 2 cards.",
  wells_fargo: "Draw 3 cards.",
  general_store: "Turn up one card per player still in; each takes one, starting with you.",
  panic: "Take a card from a player at distance 1.",
  cat_balou: "Make any player discard a card of your choice (from his hand at random, or in play).",
  gatling: "A shot at every other player.",
  indians: "Every other player discards a BANG! or loses 1 life.",
  duel: "Challenge a player: in turn each discards a BANG!, starting with him; the first who does not loses 1 life.",
  barrel: "When shot, draw!: a heart cancels the shot.",
  scope: "You see every other player at distance −1.",
  mustang: "The others see you at distance +1.",
  jail: "Play it on another player (never the Sheriff): at his turn's start he draws!; a heart frees him, else he skips the turn.",
  dynamite: "At your turn's start, draw!: a 2 to 9 of spades explodes (3 life lost); else it passes to the next player.",
  volcanic: "A weapon of reach 1: play any number of BANG! a turn.",
  schofield: "A weapon of reach 2.",
  remington: "A weapon of reach 3.",
  rev_carabine: "A weapon of reach 4.",
  winchester: "A weapon of reach 5.",
};

const RANK_TEXT = { 11: "J", 12: "Q", 13: "K", 14: "A" };
const TEXT_RANK = { J: 11, Q: 12, K: 13, A: 14 };

function build() {
  const cards = [null];
  for (const [name, codes] of COPIES) {
    for (const code of codes.split(" ")) {
      const suit = code.slice(-1);
      const rankText = code.slice(0, -1);
      const rank = TEXT_RANK[rankText] ?? Number(rankText);
      const id = cards.length;
      cards.push(Object.freeze({ id, name, suit, rank, rankText: RANK_TEXT[rank] ?? String(rank), text: `${name}:${code}` }));
    }
  }
  return Object.freeze(cards);
}

/** DECK[id] for id 1..80 (DECK[0] is null). */
export const DECK = build();

/** The card of an id (a number or its text), or null for an id nobody may see here (null). */
export function cardOf(id) {
  if (id === null || id === undefined) return null;
  return DECK[Number(id)] ?? null;
}

/**
 * The card of a text form (`bang:AS`). Two copies share a text (the two Stagecoach 9♠): such a
 * card comes back without an id, since the text does not say which copy it is.
 */
export function cardOfText(text) {
  const copies = DECK.filter((c) => c && c.text === text);
  if (copies.length > 1) return Object.freeze({ ...copies[0], id: null });
  return copies[0] ?? null;
}

export const isBlue = (card) => BLUE.has(card?.name);
export const cardName = (card) => CARD_NAMES[card?.name] ?? String(card?.name ?? "?");
export const characterName = (id) => CHARACTERS[id] ?? String(id ?? "?");
export const suitSign = (card) => SUITS[card?.suit]?.sign ?? "?";

/** "BANG! A♠": a card in words, its suit and rank as printed. */
export function cardWords(card) {
  if (!card) return "a card";
  return `${cardName(card)} ${card.rankText}${suitSign(card)}`;
}

/**
 * A card face: its name, rank and suit (the suit named for screen readers, red for ♥ ♦), its
 * id in `data-card-id` and its text in `data-card`. `extra`: more attributes.
 */
export function cardNode(card, extra = {}) {
  if (!card) return h("span", { class: "card card-back", ...extra }, "card");
  const red = card.suit === "H" || card.suit === "D";
  return h(
    "span",
    {
      class: `card${isBlue(card) ? " card-blue" : " card-brown"}${red ? " card-red" : ""}`,
      "data-card-id": card.id ?? null,
      "data-card": card.text,
      title: `${cardName(card)}, ${card.rankText} of ${SUITS[card.suit]?.word ?? card.suit}${isBlue(card) ? " (blue card)" : ""}${CARD_TEXTS[card.name] ? `: ${CARD_TEXTS[card.name]}` : ""}`,
      ...extra,
    },
    h("span", { class: "card-name" }, cardName(card)),
    " ",
    h("span", { class: "card-index", "aria-label": `${card.rankText} of ${SUITS[card.suit]?.word ?? card.suit}` }, card.rankText, suitSign(card)),
  );
}
