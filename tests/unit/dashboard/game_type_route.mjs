// Runs the router's choice between the dice and the card views (js/cards/route.js) on a DOM and a
// fetch made here: the game's type is read first, and a read that got a server error (or no
// answer) must not be taken for a dice game. Prints what each case came to (JSON): what
// test_game_type_route_js.py checks.
import { FakeElement, findAll } from "./fake_dom.mjs";

const { byGameType } = await import("../../../services/dashboard/static/js/cards/route.js");
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const reply = (status, body) => ({ status, ok: status < 400, json: async () => body });

const moved = [];
globalThis.window = { location: { replace: (to) => moved.push(to) } };

/** The page for a game whose reads answer `answers` in turn (a 200's body: `bodies`' next, else
 * a card game); "Try again" clicked when shown. */
async function outcome(answers, bodies = []) {
  const queue = [...answers];
  const given = [...bodies];
  moved.length = 0;
  globalThis.fetch = async () => {
    const next = queue.shift();
    if (next === "offline") throw new TypeError("Failed to fetch");
    if (next === undefined) return reply(404, { detail: "no league scheduled it" });
    return reply(next, next === 200 ? given.shift() ?? { game_id: "g1", game_type: "cards" } : { detail: `HTTP ${next} here` });
  };
  const drawn = [];
  const render = byGameType(() => drawn.push("dice"), () => drawn.push("cards"));
  const main = new FakeElement("main");
  render(main, { args: ["g1"], params: new URLSearchParams(), signal: new AbortController().signal });
  await settle();
  const first = { drawn: [...drawn], said: main.textContent };
  const retry = findAll(main, (e) => e.tagName === "BUTTON" && e.textContent === "Try again")[0];
  retry?.click();
  await settle();
  return { first, retried: Boolean(retry), drawn, moved: [...moved] };
}

process.stdout.write(
  JSON.stringify({
    serverError: await outcome([503, 200]),
    offline: await outcome(["offline", 200]),
    unknown: await outcome([404]),
    cards: await outcome([200]),
    scheduled: await outcome([404, 200], [{ game_id: "g1", league_id: "l1", tournament_id: "t 1", round: 2, table: 3, mode: "table" }]),
  }),
);
