// Runs the legacy series page (views/series/series.js) on a DOM and a fetch made here. The page
// reads the series again every few seconds; a read that answers after a newer one (a slow poll
// overtaken by the next, or by the reload after a decision) must not put the older series back.
// Prints what the page shows (JSON): what test_series_poll_js.py checks.
import { FakeElement, findAll } from "./fake_dom.mjs";

const ticks = [];
window.setInterval = (callback) => ticks.push(callback) && ticks.length;
window.clearInterval = () => {};

const series = (games) => ({
  id: "s1", clubId: "c1", ruleset: "UA5", mode: "online", status: "open", members: [], seedCommitment: null, seed: null,
  asked: null, decisions: [], standing: [],
  games: Array.from({ length: games }, (_, i) => ({
    number: i + 1, gameId: `s1.g${i + 1}`, status: "ongoing", seats: [], winners: [], sheriff: null, sheriffBy: "dealt",
  })),
});
// the page's reads answer: 1 game (the first draw), 1 game once released (a slow poll), 2 games
let release;
const held = new Promise((resolve) => (release = resolve));
const answers = [{ games: 1 }, { games: 1, held: true }, { games: 2 }];
globalThis.fetch = async (url) => {
  if (String(url).endsWith(".graphql")) return { ok: true, status: 200, text: async () => "query { x }" };
  const next = answers.shift();
  if (next.held) await held;
  return { ok: true, status: 200, json: async () => ({ data: { series: series(next.games) } }) };
};

const { renderSeries } = await import("../../../services/dashboard/static/js/views/series/series.js");
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const games = (main) => findAll(main, (e) => e.attributes["data-testid"] === "series-page").map((e) => e.attributes["data-games"]);

const main = new FakeElement("main");
const stop = renderSeries(main, { args: ["s1"], signal: new AbortController().signal });
await settle();
const first = games(main);
ticks[0](); // a poll, slow to answer
await settle();
ticks[0](); // the next poll: the series has a game more
await settle();
const newer = games(main);
release();
await settle();
const afterOlder = games(main);
stop();
process.stdout.write(JSON.stringify({ first, newer, afterOlder }));
