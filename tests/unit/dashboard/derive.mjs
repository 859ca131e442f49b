// Reads cases (JSON) on stdin, derives each with the dashboard's fairness.js, prints the results
// (JSON) on stdout: what test_fairness_js.py compares with the Python derivations.
import { readFileSync } from "node:fs";
import { drawsOf } from "../../../services/dashboard/static/js/draw-decks.js";
import { commitment, dealGame, diceStream, drawCard, hexToBytes } from "../../../services/dashboard/static/js/fairness.js";

const cases = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const c of cases) {
  const seed = hexToBytes(c.seed);
  try {
    if (c.kind === "commitment") {
      out.push(await commitment(seed));
    } else if (c.kind === "dice") {
      const dice = diceStream(c.version, seed);
      const rolls = [];
      for (const kinds of c.rolls) rolls.push(await dice.roll(kinds));
      out.push(rolls);
    } else if (c.kind === "follow") {
      // the draws of a game's events (a chain's, parsed as verify-game.js reads them)
      const events = c.events ?? c.chain.events.map((e) => ({ version: e.version, type: e.type, data: JSON.parse(e.data) }));
      const ruleset = c.ruleset ?? events.find((e) => e.type === "GameCreated").data.ruleset;
      out.push(drawsOf(events, ruleset));
    } else if (c.kind === "draws") {
      const cards = [];
      for (const d of c.draws) cards.push(await drawCard(c.version, seed, d.deck, d.number, d.cards));
      out.push(cards);
    } else {
      out.push(await dealGame(c.fairness, seed, c.members, c.sheriff, c.ruleset));
    }
  } catch (error) {
    out.push({ error: error.message });
  }
}
process.stdout.write(JSON.stringify(out));
