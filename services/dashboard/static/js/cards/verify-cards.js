// The checks of "verify a card game yourself" (no DOM; cards/verify.js is the page): the seed's
// commitment and every deck the server shuffled, re-derived by `shuffles-1`
// (services/game/fairness/shuffles.py): the deck following the game's k-th card event is a
// Fisher–Yates shuffle of its cards sorted by id, read from the stream HMAC-SHA256(key=seed,
// msg="shuffles-1:deck:" + k as 8 bytes + counter as 8 bytes). A node test compares it with the
// Python derivation.

import { ByteStream, commitment, hexToBytes } from "../fairness.js";
import { cardOf, cardWords } from "./deck.js";

const check = (name, passed, detail) => ({ name, passed, detail });

/** shuffles-1's stream label for the input following the game's `at`-th card event. */
export function shuffleLabel(kind, at) {
  const text = new TextEncoder().encode(`shuffles-1:${kind}:`);
  const label = new Uint8Array(text.length + 8);
  label.set(text);
  new DataView(label.buffer).setBigUint64(text.length, BigInt(at));
  return label;
}

/** The new deck (top card first) shuffles-1 gives `cards` after the game's `at`-th card event. */
export async function deriveDeck(seed, at, cards) {
  return new ByteStream(seed, shuffleLabel("deck", at)).shuffle([...cards].sort((a, b) => a - b));
}

/** The checks of a card game's events (each {version, type, data}), sorted, and its chain's own check. */
export async function verifyCardGame(events, chainCheck) {
  const checks = [chainCheck];
  const created = events.find((e) => e.type === "GameCreated")?.data ?? null;
  const revealed = events.find((e) => e.type === "SeedRevealed");
  let seed = null;
  if (!created) checks.push(check("seed commitment", false, "event 1 does not create the game"));
  else if (created.mode !== "online") checks.push({ ...check("seed commitment", true, "cards entered at the table: there is no seed to check"), applicable: false });
  else if (!revealed) checks.push(check("seed commitment", null, "not yet: the seed is revealed when the game ends"));
  else {
    seed = hexToBytes(revealed.data.seed);
    const mine = await commitment(seed);
    const ok = mine === created.seed_commitment;
    checks.push(check("seed commitment", ok, ok ? "the revealed seed's SHA-256 is the commitment published in event 1" : `event ${revealed.version}: the revealed seed's SHA-256 is ${mine.slice(0, 16)}…, event 1 published ${String(created.seed_commitment).slice(0, 16)}…`));
    if (!ok) seed = null;
  }
  const version = created?.fairness?.shuffles ?? null;
  if (seed && version !== "shuffles-1") {
    checks.push(check("decks", null, `this page derives shuffles-1 only, the game records ${version ?? "none"}`));
  } else if (seed) {
    let k = 0;
    let decks = 0;
    let problem = null;
    for (const event of events) {
      if (!String(event.type).startsWith("cards.")) continue;
      if (event.type === "cards.DeckShuffled" && (event.data.order ?? []).length) {
        const order = event.data.order;
        const derived = await deriveDeck(seed, k, order);
        decks += 1;
        const at = derived.findIndex((card, i) => card !== order[i]);
        if (at >= 0) {
          problem = `event ${event.version}: the deck puts ${cardWords(cardOf(order[at]))} at place ${at + 1} from the top, but the seed gives ${cardWords(cardOf(derived[at]))} (shuffles-1, after card event ${k})`;
          break;
        }
      }
      k += 1;
    }
    checks.push(check("decks", problem === null, problem ?? `${decks} ${decks === 1 ? "deck" : "decks"} re-derived here from the seed (shuffles-1): every card in its place`));
  } else {
    checks.push(check("decks", null, "not checked: no revealed seed to re-derive from"));
  }
  checks.push(check("random picks and the deal", null, "re-derived by the server's audit (a pick depends on the hand at that moment, which this page does not follow)"));
  const failures = checks.filter((c) => c.passed === false);
  return { checks, ok: failures.length ? false : seed ? true : null, first: failures[0]?.detail ?? null };
}

