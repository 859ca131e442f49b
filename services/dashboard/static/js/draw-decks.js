// What each random draw of an Undead or Alive game was among, followed from the game's own
// events: the browser's copy of the rules' draws table (services/game/rules/dice/undead/draws.py
// and the modules that register in it: rage.py, duels.py, characters.py, zombies.py). The engine lists the cards a draw is
// among from its state; here the same list is kept from the stored events, which a finished
// online game publishes whole (its chain: every Rage card drawn included, face-down cards being
// public once the game is over). No DOM; the unit tests compare it with the engine, draw by draw.
//
// A deck here: the ruleset data table that names its version, the deck name (the stream label
// draws-1 reads) per version, the cards it starts with, and per event type how that event
// changes it; an event type with `draw` records a draw: {player, card} and the deck state before
// it give {deck, number, cards}. A game whose ruleset names a deck table this page cannot follow
// (a new module's deck, a new deck version) is refused by name, never passed unchecked.

const RAGE_1 = Object.freeze(Array.from({ length: 18 }, (_, i) => `r${String(i + 1).padStart(2, "0")}`));

/** UA1's 15 wound tokens by symbol, in the order a draw lists them (duels.WOUND_TOKENS). */
const WOUND_TOKENS_UA1_1 = Object.freeze([["beer", 3], ["shoot1", 5], ["shoot2", 5], ["dynamite", 2]]);

/** The Duel die's faces (duels.DUEL_FACES): a roll-off throw is a draw among them, `duel` twice. */
const DUEL_FACES_UA1_1 = Object.freeze(["arrow", "dynamite", "gatling", "whiskey", "duel", "duel"]);

/** UA4's Boneyard, 11 cards in deck order (zombies.BONEYARD_DECKS): b01-b02 no hands, b03-b08 one, b09-b11 two. */
const BONEYARD_1 = Object.freeze(Array.from({ length: 11 }, (_, i) => `b${String(i + 1).padStart(2, "0")}`));

const take = (list, item) => {
  const i = list.indexOf(item);
  if (i < 0) return false;
  list.splice(i, 1);
  return true;
};

export const DECKS = Object.freeze({
  // UA2: the Rage cards (rage.py). Drawn among the pile, or every discard once it is empty (the
  // reshuffle), in deck order; revealed and returned cards go to the discards.
  "rage-deck": {
    versions: { "rage-1": { deck: "rage-1", cards: RAGE_1 } },
    start: ({ deck, cards }) => ({ deck, order: cards, pile: [...cards], discard: [], hands: {}, draws: 0 }),
    events: {
      RageDrawn: {
        draw: (s) => ({ deck: s.deck, number: s.draws, cards: s.order.filter((c) => (s.pile.length ? s.pile : s.discard).includes(c)) }),
        apply(s, d) {
          if (d.reshuffled) [s.pile, s.discard] = [s.discard, []];
          if (!take(s.pile, d.card)) return `Rage card ${d.card} is not in the pile to draw from`;
          (s.hands[d.player] ??= []).push(d.card);
          s.draws += 1;
          return null;
        },
      },
      RageRevealed: {
        apply(s, d) {
          s.discard.push(...(s.hands[d.player] ?? []));
          delete s.hands[d.player];
          return null;
        },
      },
      RageKept: {
        // UA3's Pixie Pete drew two and kept one: the other goes back into the pile
        apply(s, d) {
          if (!take(s.hands[d.player] ?? [], d.returned)) return `${d.player} holds no Rage card ${d.returned} to put back`;
          s.pile.push(d.returned);
          return null;
        },
      },
      RageMoved: {
        // UA3's Pat Brennan: one face-down card (the giver's `slot`-th) to the taker's hand
        apply(s, d) {
          const [card] = (s.hands[d.giver] ?? []).splice(d.slot, 1);
          if (card === undefined) return `${d.giver} holds no Rage card ${d.slot + 1} to give`;
          (s.hands[d.taker] ??= []).push(card);
          return null;
        },
      },
      RageReturned: {
        apply(s, d) {
          s.discard.push(...(s.hands[d.player] ?? []));
          delete s.hands[d.player];
          return null;
        },
      },
    },
  },
  // UA1: the wound tokens (duels.py), face down by symbol; a token drawn while its holder has
  // that symbol already goes back at once (kept: false).
  "wound-tokens": {
    versions: { "ua1-1": { deck: "wound-tokens-ua1-1", tokens: WOUND_TOKENS_UA1_1 } },
    start: ({ deck, tokens }) => ({ deck, order: tokens.map(([t]) => t), pile: Object.fromEntries(tokens), held: {}, draws: 0 }),
    events: {
      WoundDrawn: {
        draw: (s) => ({ deck: s.deck, number: s.draws, cards: s.order.flatMap((t) => Array(Math.max(0, s.pile[t] ?? 0)).fill(t)) }),
        apply(s, d) {
          s.draws += 1;
          if (d.kept === false) return null;
          if (!(s.pile[d.card] > 0)) return `no ${d.card} wound token is left to draw`;
          s.pile[d.card] -= 1;
          (s.held[d.player] ??= []).push(d.card);
          return null;
        },
      },
      WoundsReturned: {
        apply(s, d) {
          for (const t of s.held[d.player] ?? []) s.pile[t] += 1;
          delete s.held[d.player];
          return null;
        },
      },
      WoundDiscarded: {
        apply(s, d) {
          if (!take(s.held[d.player] ?? [], d.token)) return `${d.player} holds no ${d.token} wound token to put back`;
          s.pile[d.token] += 1;
          return null;
        },
      },
    },
  },
  // UA1: the roll-off throws of the Duel die (duels.py), each a draw among its six faces.
  "duel-dice": {
    versions: { "ua1-1": { deck: "duel-die-ua1-1", cards: DUEL_FACES_UA1_1 } },
    start: ({ deck, cards }) => ({ deck, cards, draws: 0 }),
    events: {
      DuelThrown: {
        draw: (s) => ({ deck: s.deck, number: s.draws, cards: s.cards }),
        card: (d) => d.face,
        apply(s) {
          s.draws += 1;
          return null;
        },
      },
    },
  },
  // UA4: the Boneyard (zombies.py). Each reveal is among the cards face down, in deck order; the
  // no-hands cards revealed in a turn go back at its end; the outbreak takes every card away.
  boneyard: {
    versions: { "boneyard-1": { deck: "boneyard-1", cards: BONEYARD_1 } },
    start: ({ deck, cards }) => ({ deck, order: cards, pile: [...cards], draws: 0 }),
    events: {
      BoneyardRevealed: {
        draw: (s) => ({ deck: s.deck, number: s.draws, cards: s.order.filter((c) => s.pile.includes(c)) }),
        apply(s, d) {
          if (!take(s.pile, d.card)) return `Boneyard card ${d.card} is not face down to be revealed`;
          s.draws += 1;
          return null;
        },
      },
      BoneyardShuffled: {
        apply(s, d) {
          s.pile.push(...(d.cards ?? []));
          return null;
        },
      },
      OutbreakBegan: {
        apply(s) {
          s.pile = []; // the Boneyard is out of the game
          return null;
        },
      },
    },
  },
});

/** The ruleset data tables that are never drawn from at random (characters dealt by the deal
 * derivation, dice rolled by the dice derivation, cards chosen by the players): any other table a
 * game names that this page has no deck for is refused by name (a new module's deck until it is
 * written here), never passed unchecked. */
export const NOT_DRAWN_TABLES = Object.freeze([
  "characters", "characters-os4", "characters-ua3", "dice", "ghost-tokens", "saloon-dice", "special-roles",
]);

/**
 * The draws of a game's events, each {event, player, card, deck, number, cards} in order, or
 * {stop} naming why they cannot be followed (a deck this page does not know, an event the deck
 * cannot have come from). `events` are the game's events sorted by version, `ruleset` its
 * GameCreated ruleset.
 */
export function drawsOf(events, ruleset) {
  const data = ruleset?.data ?? {};
  const decks = {};
  for (const table of Object.keys(data).sort()) {
    const known = DECKS[table];
    if (!known) {
      if (!NOT_DRAWN_TABLES.includes(table)) {
        return { draws: [], stop: `this page cannot follow the draws of the ${table} deck (${data[table]}) yet: it knows ${Object.keys(DECKS).join(", ")}` };
      }
      continue;
    }
    const version = known.versions[data[table]];
    if (!version) {
      return { draws: [], stop: `this page knows the ${table} deck ${Object.keys(known.versions).join(", ")} only, not ${data[table]}` };
    }
    decks[table] = known.start(version);
  }
  const handlers = {};
  for (const [table, state] of Object.entries(decks)) {
    for (const [type, handler] of Object.entries(DECKS[table].events)) handlers[type] = { state, handler };
  }
  const draws = [];
  let started = false;
  for (const e of events) {
    if (e.type === "GameStarted") started = true; // the rules follow the game from its start
    const found = started ? handlers[e.type] : undefined;
    if (!found) continue;
    const { state, handler } = found;
    const d = e.data ?? {};
    if (handler.draw) {
      const card = handler.card ? handler.card(d) : d.card;
      if (card === undefined || card === null) return { draws, stop: `event ${e.version}: the card drawn is not published` };
      draws.push({ event: e.version, type: e.type, player: d.player ?? null, card, ...handler.draw(state) });
    }
    const problem = handler.apply(state, d);
    if (problem) return { draws, stop: `event ${e.version}: ${problem}` };
  }
  return { draws, stop: null };
}
