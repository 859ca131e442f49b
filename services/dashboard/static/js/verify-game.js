// "Verify a game yourself": the checks the browser makes on a finished online game, from what
// the server publishes (its stored events with their hashes, and its record) and the derivations
// of fairness.js. The same checks as the server's audit (docs/audit.md: chain, seed commitment,
// deal, rolls), each made again here: nothing the server computed is taken on trust, only the
// bytes it stored. The hash chain is recomputed first (chain.js), and the game the other checks
// read is those very bytes, parsed here. No DOM.
//
// A game that is not finished publishes no chain (a hash over a hidden role could be matched by
// trying the few roles): then the public event list is read, and the chain check says why not.

import { checkChain } from "./chain.js";
import { drawsOf } from "./draw-decks.js";
import { FairnessError, commitment, dealGame, diceStream, drawCard, fairnessOf, fairnessText, hexToBytes, rulesetText } from "./fairness.js";

export const CHAIN = "hash chain";
export const NUMBERING = "event numbers";
export const COMMITMENT = "seed commitment";
export const DEAL = "deal";
export const ROLLS = "rolls";
export const DRAWS = "draws";
export const RECORD = "record";

const ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
const ordinal = (n) => ORDINALS[n] ?? `${n}th`;
const titleCase = (id) => String(id).replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());

const SPECIAL_NAMES = {
  l_ours: "L'Ours",
  le_bien: "Le Bien",
  le_doc: "Le Doc",
  le_juge: "Le Juge",
  le_joueur: "Le Joueur",
  le_mauvais: "Le Mauvais",
  le_vilain: "Le Vilain",
  main_droite: "La Main Droite du Diable",
  main_gauche: "La Main Gauche du Diable",
};
const specialWords = (card) => (card ? SPECIAL_NAMES[card] ?? titleCase(card) : "no special role");
const dieKindWords = (kind) => (kind === "base" ? "a base die" : `the ${titleCase(kind)} die`);

/** OS1's hand (saloon_dice._with_saloon_die): the Saloon die takes the last base die's place, last, unless the
 * character adds it (OS4); UA1's hand keeps its Duel dice (2 base + 2 Duel + the Saloon die). */
const ADDS_SALOON_DIE = { jose_delgado: "loudmouth", tequila_joe: "coward" };
const BASE_HAND = Object.freeze(["base", "base", "base", "base", "base"]);
const DUEL_HAND = Object.freeze(["base", "base", "base", "duel", "duel"]);

function handWith(hand, character, die) {
  if (!die) return hand;
  const rolled = [...hand];
  if (ADDS_SALOON_DIE[character] !== die) rolled.splice(rolled.lastIndexOf("base"), 1);
  return [...rolled, die];
}

const passed = (name, detail) => ({ name, passed: true, detail });
const failed = (name, detail) => ({ name, passed: false, detail });
const unavailable = (name, detail) => ({ name, passed: null, detail });
/** A check that does not apply to this game (a table game has no seed): nothing failed. */
const notApplicable = (name, detail) => ({ name, passed: true, applicable: false, detail });

/** The parts of a stream the checks read (audit/stream.py's layout). */
export function parseEvents(events) {
  const game = { created: null, joined: [], dealt: null, started: null, ended: null, revealed: null, abandoned: null, rolls: [] };
  let hand = BASE_HAND;
  let kinds = hand;
  let turn = null;
  const characters = {};
  for (const e of events) {
    const data = e.data ?? {};
    switch (e.type) {
      case "GameCreated":
        if (e.version === 1) {
          game.created = { version: e.version, ...data };
          // UA1: every turn rolls 3 base dice and 2 Duel dice (duels.DUEL_HAND)
          if ((data.ruleset?.modules ?? []).includes("UA1")) hand = DUEL_HAND;
        }
        break;
      case "PlayerJoined":
        if (!game.started) game.joined.push(data.member_id);
        break;
      case "SeatsDealt":
        game.dealt ??= { version: e.version, members: data.members ?? [] };
        break;
      case "GameStarted":
        if (!game.started) {
          game.started = { version: e.version, seats: data.seats ?? [], position: data.position ?? null };
          for (const seat of game.started.seats) characters[seat.player] = seat.character;
        }
        break;
      case "TurnStarted":
        turn = data.turn;
        kinds = hand; // a new turn's hand, until a Saloon die is chosen (OS1)
        break;
      case "SaloonDieChosen":
        kinds = handWith(hand, characters[data.player], data.die);
        break;
      case "DiceRolled":
        game.rolls.push({
          number: game.rolls.length + 1,
          event: e.version,
          player: data.player,
          turn,
          roll: data.roll,
          dice: data.dice ?? [],
          faces: data.faces ?? [],
          kinds: (data.dice ?? []).map((i) => kinds[i] ?? null),
        });
        break;
      case "GameEnded":
        game.ended ??= { version: e.version };
        break;
      case "SeedRevealed":
        game.revealed ??= { version: e.version, seed: data.seed };
        break;
      case "GameAbandoned":
        game.abandoned ??= { version: e.version };
        break;
      default:
        break;
    }
  }
  return game;
}

function checkNumbering(events) {
  for (let i = 0; i < events.length; i += 1) {
    if (events[i].version !== i + 1) {
      return failed(NUMBERING, `event ${i + 1} is missing from the published events (event ${events[i].version} comes after event ${i})`);
    }
  }
  return passed(NUMBERING, `events 1 to ${events.length} were published, none missing and none twice`);
}

/** The chain check, and the events the other checks read: the chain's own bytes when it was published. */
async function chainCheck(chain, chainRefusal, events, gameId) {
  if (!chain) {
    const why = chainRefusal ? `not published: ${chainRefusal}` : "not published for this game";
    return { check: unavailable(CHAIN, why), events };
  }
  const result = await checkChain(chain, gameId);
  if (!result.ok) return { check: failed(CHAIN, result.problem.words), events: result.events };
  const n = result.events.length;
  const detail = `recomputed here: the SHA-256 of each of the ${n} events' stored bytes is its stored hash and the next event's link, and event ${n}'s is the stream head (${result.head.hash.slice(0, 16)}…)`;
  return { check: passed(CHAIN, detail), events: result.events };
}

async function checkCommitment(game) {
  const created = game.created;
  if (!created) return { check: failed(COMMITMENT, "event 1 does not create the game: its commitment is unknown"), seed: null };
  if (created.mode !== "online") {
    return { check: notApplicable(COMMITMENT, "dice entered at the table: there is no seed to check"), seed: null };
  }
  if (!created.seed_commitment) return { check: failed(COMMITMENT, "event 1: this online game published no seed commitment"), seed: null };
  if (!game.revealed) {
    if (game.ended) return { check: failed(COMMITMENT, "the game ended but its seed was never revealed"), seed: null };
    const why = game.abandoned ? "the game was abandoned before it ended: its seed stays secret" : "not yet: the seed is revealed when the game ends";
    return { check: passed(COMMITMENT, why), seed: null, pending: true };
  }
  let seed;
  try {
    seed = hexToBytes(game.revealed.seed);
  } catch {
    return { check: failed(COMMITMENT, `event ${game.revealed.version}: the revealed seed is not hexadecimal`), seed: null };
  }
  const mine = await commitment(seed);
  if (mine !== created.seed_commitment) {
    return {
      check: failed(COMMITMENT, `event ${game.revealed.version}: the revealed seed does not match the commitment published in event 1 (its SHA-256 is ${mine.slice(0, 16)}…, event 1 published ${created.seed_commitment.slice(0, 16)}…)`),
      seed: null,
    };
  }
  return {
    check: passed(COMMITMENT, `SHA-256 of the seed revealed in event ${game.revealed.version} is ${mine.slice(0, 16)}…, the commitment published in event 1`),
    seed,
  };
}

function seatsProblem(started, dealt) {
  const n = started.version;
  if (started.position) return `event ${n}: an online game starts from its first turn, but this one starts from a position`;
  if (started.seats.length !== dealt.seated.length) return `event ${n}: the game started with ${started.seats.length} seats; the seed deals ${dealt.seated.length}`;
  for (let i = 0; i < started.seats.length; i += 1) {
    const got = started.seats[i];
    const p = `p${i + 1}`;
    if (got.player !== p) return `event ${n}: seat ${p} is played by ${got.player}`;
    if (got.character !== dealt.characters[i]) return `event ${n}: ${p} plays ${titleCase(got.character)}, but the seed deals ${p} ${titleCase(dealt.characters[i])}`;
    if (got.role !== dealt.roles[i]) return `event ${n}: ${p} is the ${titleCase(got.role ?? "hidden")}, but the seed deals ${p} the ${titleCase(dealt.roles[i])}`;
    const special = dealt.specials ? dealt.specials[i] : null;
    if ((got.special ?? null) !== special) return `event ${n}: ${p} holds ${specialWords(got.special)}, but the seed deals ${p} ${specialWords(special)}`;
  }
  return null;
}

async function checkDeal(game, seed, fairness) {
  const created = game.created;
  if (!game.dealt || !game.started) return { check: failed(DEAL, "the published events hold no deal (SeatsDealt and GameStarted) to check"), dealt: null };
  const versions = [fairness.deal, fairness.special_roles].filter(Boolean).join(" ");
  let dealt;
  try {
    dealt = await dealGame(fairness, seed, game.joined, created.sheriff_member ?? null, created.ruleset);
  } catch (error) {
    if (!(error instanceof FairnessError)) throw error;
    return { check: failed(DEAL, `${versions} cannot deal this game (${rulesetText(created.ruleset)}): ${error.message}`), dealt: null };
  }
  if (game.dealt.members.join(" ") !== dealt.seated.join(" ")) {
    const detail = `event ${game.dealt.version}: the players were seated as ${game.dealt.members.join(" ")}, but the seed seats them as ${dealt.seated.join(" ")}`;
    return { check: failed(DEAL, detail), dealt };
  }
  const problem = seatsProblem(game.started, dealt);
  if (problem) return { check: failed(DEAL, problem), dealt };
  const what = dealt.specials ? "roles, special roles" : "roles";
  const detail = `re-derived from the seed (${versions}): the seat order of event ${game.dealt.version} and the ${what} and characters of event ${game.started.version} are the ones the seed deals`;
  return { check: passed(DEAL, detail), dealt };
}

export function describeRoll(roll) {
  return `roll ${roll.number} (${roll.player}'s ${ordinal(roll.roll)} roll${roll.turn ? ` of turn ${roll.turn}` : ""}, event ${roll.event})`;
}

/** The first die of `shown` that differs from `derived`, in words; null when they are the same. */
function rollProblem(roll, shown, derived, what) {
  if (shown.length !== derived.length) return `${what} shows ${shown.length} faces (${shown.join(" ")}); the seed gives ${derived.length} (${derived.join(" ")})`;
  const i = shown.findIndex((face, k) => face !== derived[k]);
  if (i < 0) return null;
  const kind = roll.kinds[i];
  // dice are numbered from 1 for people (the record's indices count from 0)
  const number = roll.dice[i] + 1;
  const die = kind && kind !== "base" ? `die ${number}, ${dieKindWords(kind)},` : `die ${number}`;
  return `${what}, ${die} shows ${shown[i]}; the seed gives ${derived[i]} (rolled ${shown.join(" ")}, the seed gives ${derived.join(" ")})`;
}

async function deriveRolls(game, seed, version) {
  const dice = diceStream(version, seed);
  const derived = [];
  for (const roll of game.rolls) {
    if (roll.kinds.some((k) => k === null)) {
      return { derived, stop: `event ${roll.event} rolls dice the rules do not have at that point (dice ${roll.dice.map((d) => d + 1).join(" ")})` };
    }
    try {
      derived.push(await dice.roll(roll.kinds));
    } catch (error) {
      if (!(error instanceof FairnessError)) throw error;
      return { derived, stop: `event ${roll.event}: ${version} cannot roll these dice: ${error.message}` };
    }
  }
  return { derived, stop: null, facesDealt: dice.facesDealt };
}

function checkRolls(game, derivedRolls, version) {
  const { derived, stop } = derivedRolls;
  for (let n = 0; n < derived.length; n += 1) {
    const roll = game.rolls[n];
    const problem = rollProblem(roll, roll.faces, derived[n], describeRoll(roll));
    if (problem) return failed(ROLLS, problem);
  }
  if (stop) return failed(ROLLS, stop);
  const faces = derived.reduce((sum, r) => sum + r.length, 0);
  return passed(ROLLS, `${derived.length} rolls (${faces} faces) re-derived from the seed (${version}): every face matches`);
}

const DRAW_WORDS = {
  RageDrawn: (card) => `drew the Rage card ${card}`,
  WoundDrawn: (card) => `drew a ${card} wound token`,
  DuelThrown: (card) => `threw ${card} with the Duel die`,
  BoneyardRevealed: (card) => `revealed the Boneyard card ${card}`,
};
const drewWords = (d, card) => (DRAW_WORDS[d.type] ?? ((c) => `drew ${c}`))(card);

/** A draw in words: "event 57: p3 drew the Rage card r07 (draw 4 of rage-1, among 12 cards)". */
export function describeDraw(d) {
  const counts = new Map();
  for (const c of d.cards) counts.set(c, (counts.get(c) ?? 0) + 1);
  const among = counts.size === d.cards.length ? `among ${d.cards.length} cards` : `among ${[...counts].map(([c, n]) => (n === 1 ? c : `${n} ${c}`)).join(", ")}`;
  return `event ${d.event}: ${d.player ?? "someone"} ${drewWords(d, d.card)} (draw ${d.number} of ${d.deck}, ${among})`;
}

/**
 * Every card drawn at random (UA2's Rage cards, UA1's wound tokens and duel throws): the game's
 * draw derivation must give each, from the seed, its deck, its number in the game and the cards
 * it was among, those followed here from the game's own events (draw-decks.js). Null when the
 * game draws nothing and records no draw derivation.
 */
async function checkDraws(events, game, seed, version) {
  const { draws, stop } = drawsOf(events, game.created?.ruleset);
  if (!version) {
    if (!draws.length && !stop) return { check: null, count: 0 };
    const first = draws[0];
    const why = first ? `event ${first.event}: a card drawn at random, but the game records no draw derivation` : stop;
    return { check: failed(DRAWS, why), count: 0 };
  }
  const decks = {};
  for (const d of draws) {
    let wanted;
    try {
      wanted = await drawCard(version, seed, d.deck, d.number, d.cards);
    } catch (error) {
      if (!(error instanceof FairnessError)) throw error;
      return { check: failed(DRAWS, `event ${d.event}: ${version} cannot make this draw: ${error.message}`), count: 0 };
    }
    if (wanted !== d.card) {
      return { check: failed(DRAWS, `${describeDraw(d)}, but the seed gives ${wanted} (${version})`), count: 0 };
    }
    decks[d.deck] = (decks[d.deck] ?? 0) + 1;
  }
  if (stop) return { check: failed(DRAWS, stop), count: 0 };
  const each = Object.entries(decks).map(([deck, n]) => `${n} from ${deck}`).join(", ");
  const detail = `${draws.length} draw${draws.length === 1 ? "" : "s"} re-derived from the seed (${version})${each ? `: ${each}` : ""}; every card matches`;
  return { check: passed(DRAWS, detail), count: draws.length, draws };
}

/** The rolls of a record's inputs, in order: "p1 roll arrow beer" or {type: "RollDice", player, faces}. */
export function recordRolls(record) {
  const out = [];
  for (const input of record?.inputs ?? []) {
    if (typeof input === "string") {
      const [player, verb, ...faces] = input.split(" ");
      if (verb === "roll") out.push({ player, faces });
    } else if (input?.type === "RollDice") {
      out.push({ player: input.player, faces: [...(input.faces ?? [])] });
    }
  }
  return out;
}

/** The draws of a record's inputs, in order: "p1 draw r07" or {type: "DrawCard", player, card}. */
export function recordDraws(record) {
  const out = [];
  for (const input of record?.inputs ?? []) {
    if (typeof input === "string") {
      const [player, verb, card] = input.split(" ");
      if (verb === "draw") out.push({ player, card });
    } else if (input?.type === "DrawCard") {
      out.push({ player: input.player, card: input.card });
    }
  }
  return out;
}

function checkRecord(record, game, dealt, derivedRolls, draws = null) {
  if (!record) return unavailable(RECORD, "no record was published for this game");
  const options = record.options ?? {};
  if (options.seed !== game.revealed?.seed) return failed(RECORD, "the record's seed is not the seed the events reveal");
  if (options.seed_commitment !== game.created.seed_commitment) return failed(RECORD, "the record's seed commitment is not the one event 1 published");
  if (dealt) {
    const seats = record.seats ?? [];
    for (let i = 0; i < Math.max(seats.length, dealt.roles.length); i += 1) {
      const got = seats[i] ?? {};
      const p = `p${i + 1}`;
      if (got.character !== dealt.characters[i]) return failed(RECORD, `the record's ${p} plays ${titleCase(got.character ?? "nobody")}, but the seed deals ${p} ${titleCase(dealt.characters[i] ?? "nobody")}`);
      if (got.role !== dealt.roles[i]) return failed(RECORD, `the record's ${p} is the ${titleCase(got.role ?? "nobody")}, but the seed deals ${p} the ${titleCase(dealt.roles[i] ?? "nobody")}`);
    }
  }
  const rolls = recordRolls(record);
  const { derived } = derivedRolls;
  for (let n = 0; n < Math.min(rolls.length, derived.length); n += 1) {
    const roll = game.rolls[n];
    const problem = rollProblem(roll, rolls[n].faces, derived[n], `the record's ${describeRoll(roll)}`);
    if (problem) return failed(RECORD, problem);
  }
  if (rolls.length !== game.rolls.length) return failed(RECORD, `the record holds ${rolls.length} rolls, the events ${game.rolls.length}`);
  if (!draws) return passed(RECORD, `the record's seed, seats and ${rolls.length} rolls are the ones the seed gives`);
  // the draws, once the events' draws are the seed's: the record's must be the same, in order
  const entered = recordDraws(record);
  for (let n = 0; n < Math.min(entered.length, draws.length); n += 1) {
    const [got, d] = [entered[n], draws[n]];
    if (got.card !== d.card || got.player !== d.player) {
      return failed(RECORD, `the record's draw ${n + 1} is ${got.player} ${got.card}, but ${describeDraw(d)}, as the seed gives`);
    }
  }
  if (entered.length !== draws.length) return failed(RECORD, `the record holds ${entered.length} draws, the events ${draws.length}`);
  return passed(RECORD, `the record's seed, seats, ${rolls.length} rolls and ${draws.length} draws are the ones the seed gives`);
}

/**
 * Verify a game from its published chain (`GET /games/{id}/chain`: the stored events and their
 * hashes) or, while it publishes none (`chainRefusal`: the API's words), its public events
 * (`GET /games/{id}/events`), and, when it has one, its record (`GET /games/{id}/record`).
 * Answers {checks, ok, verdict, firstDivergence, fairness, ruleset, rolls}: ok is true when
 * every check that could run passed, false when one failed, null when there is nothing to
 * re-derive yet.
 */
export async function verifyGame({ gameId, chain = null, chainRefusal = null, events = [], record = null }) {
  const { check: chained, events: read } = await chainCheck(chain, chainRefusal, events, gameId);
  const sorted = [...read].sort((a, b) => a.version - b.version);
  const game = parseEvents(sorted);
  const fairness = fairnessOf(game.created?.fairness);
  const checks = [chained, checkNumbering(sorted)];
  const { check, seed, pending } = await checkCommitment(game);
  checks.push(check);
  let derivedRolls = { derived: [], stop: null };
  let drawn = 0;
  if (seed) {
    const { check: deal, dealt } = await checkDeal(game, seed, fairness);
    derivedRolls = await deriveRolls(game, seed, fairness.dice);
    checks.push(deal, checkRolls(game, derivedRolls, fairness.dice));
    const { check: draws, count, draws: followed } = await checkDraws(sorted, game, seed, fairness.draws);
    if (draws) checks.push(draws);
    drawn = count;
    checks.push(checkRecord(record, game, dealt, derivedRolls, followed ?? null));
  } else {
    const why = check.passed ? check.detail : "not checked: there is no trustworthy seed to re-derive from";
    checks.push({ name: DEAL, passed: check.passed ? null : false, detail: why }, { name: ROLLS, passed: check.passed ? null : false, detail: why });
    if (fairness.draws) checks.push({ name: DRAWS, passed: check.passed ? null : false, detail: why });
  }
  const failures = checks.filter((c) => c.passed === false);
  const first = failures[0]?.detail ?? null;
  let ok;
  let verdict;
  if (failures.length) {
    ok = false;
    // a check that could not run because of an earlier problem fails without counting as another
    const more = failures.filter((c) => !c.detail.startsWith("not checked")).length - 1;
    verdict = `does not match: ${first}${more ? ` (${more} more check${more === 1 ? "" : "s"} failed)` : ""}`;
  } else if (!seed) {
    ok = null;
    verdict = pending ? "nothing to re-derive yet: the seed is revealed when the game ends" : `nothing to re-derive: ${check.detail}`;
  } else {
    ok = true;
    const n = derivedRolls.derived.length;
    const held = chained.passed ? "the hash chain holds, " : "";
    const cards = fairness.draws ? ` and ${drawn} draw${drawn === 1 ? "" : "s"}` : "";
    verdict = `matches: ${held}the seed matches its commitment, and the deal and all ${n} rolls${cards} are the ones it gives`;
  }
  return {
    ok,
    verdict,
    firstDivergence: first,
    checks,
    fairness: fairnessText(fairness),
    ruleset: rulesetText(game.created?.ruleset),
    rolls: game.rolls.length,
    draws: drawn,
    events: sorted.length,
    source: chain ? "chain" : "events",
  };
}
