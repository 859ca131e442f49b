// Reads cases (JSON) on stdin, checks each with the dashboard's chain.js (and, for "verify",
// verify-game.js on the chain's own bytes), prints the results (JSON) on stdout: what
// test_chain_js.py compares with the Python store and audit.
import { readFileSync } from "node:fs";
import { checkChain, linkHash } from "../../../services/dashboard/static/js/chain.js";
import { verifyGame } from "../../../services/dashboard/static/js/verify-game.js";

const GENESIS = new Uint8Array(32);
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const c of cases) {
  if (c.kind === "hashes") {
    // each event's hash over the previous one's, as the browser computes it
    const hashes = [];
    let prev = GENESIS;
    for (const event of c.chain.events) {
      const hash = await linkHash(c.chain.stream, event, prev);
      hashes.push(hash);
      prev = Uint8Array.from(hash.match(/../g), (b) => parseInt(b, 16));
    }
    out.push(hashes);
  } else if (c.kind === "chain") {
    const result = await checkChain(c.chain, c.gameId);
    out.push({ ok: result.ok, problem: result.problem, events: result.events });
  } else {
    const result = await verifyGame({ gameId: c.gameId, chain: c.chain, record: c.record ?? null });
    out.push({ ok: result.ok, verdict: result.verdict, checks: result.checks, rolls: result.rolls });
  }
}
process.stdout.write(JSON.stringify(out));
