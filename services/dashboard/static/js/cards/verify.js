// Verify a card game yourself (#/game/<id>/verify for a card game). As for a dice game
// (views/verify.js), the page trusts the server for nothing but the stored bytes: it fetches the
// game's published chain (GET /games/{id}/chain; a game in progress publishes none, so its public
// events) and recomputes here the hash chain (chain.js), the seed's commitment and every deck the
// server shuffled (`shuffles-1`, services/game/fairness/shuffles.py: the k-th card event's deck
// is a Fisher–Yates shuffle of its cards sorted by id, read from HMAC-SHA256(seed, label)). The
// cards taken at random from a hand depend on that hand, which this page does not follow: those
// picks, the deal and the legality of every move are the server audit's (on the replay page).

import { h, mount } from "../dom.js";
import { href } from "../location.js";
import { GRAPHQL_PATH } from "../graphql.js";
import { load } from "../status.js";
import { checkChain } from "../chain.js";
import { verifyCardGame } from "./verify-cards.js";

const PAGE = 1000;
const API_ROOT = GRAPHQL_PATH.replace(/\/graphql\/?$/, "");

async function getJson(path) {
  let response;
  try {
    response = await fetch(`${API_ROOT}${path}`, { headers: { accept: "application/json" } });
  } catch (error) {
    throw new Error(`the server did not answer (${error.message})`);
  }
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function pages(path) {
  const answers = [];
  for (let next = 1; ; ) {
    const { status, body } = await getJson(`${path}?from_version=${next}&limit=${PAGE}`);
    if (status !== 200) return { status, body, answers };
    answers.push(body);
    const got = Array.isArray(body) ? body : body?.events ?? [];
    if (got.length < PAGE) return { status, body, answers };
    next += got.length;
  }
}

const check = (name, passed, detail) => ({ name, passed, detail });

export function renderCardVerify(main, { args: [gameId], signal }) {
  const body = h("div", { "data-testid": "verify" });
  mount(
    main,
    h("header", { class: "page-head" },
      h("h1", null, "Verify game ", h("code", null, gameId)),
      h("p", null, "BANG! (the card game) · ", h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay and audit"))),
    body,
  );
  load(
    body,
    "the game's published events",
    async () => {
      const base = `/games/${encodeURIComponent(gameId)}`;
      const chained = await pages(`${base}/chain`);
      let events;
      let chainCheck;
      if (chained.status === 200) {
        const chain = { ...chained.answers[0], events: chained.answers.flatMap((a) => a.events) };
        const result = await checkChain(chain, gameId);
        events = result.events;
        chainCheck = result.ok
          ? check("hash chain", true, `recomputed here: each of the ${result.events.length} events' stored bytes hashes to its stored hash and the next event's link, the last to the stream head`)
          : check("hash chain", false, result.problem.words);
      } else {
        const feed = await pages(`${base}/events`);
        if (feed.status !== 200) throw new Error(feed.body?.detail ?? `the events answered HTTP ${feed.status}`);
        events = feed.answers.flat();
        chainCheck = check("hash chain", null, `not published: ${chained.body?.detail ?? "the game is not finished"}`);
      }
      return verifyCardGame([...events].sort((a, b) => a.version - b.version), chainCheck);
    },
    ({ checks, ok, first }) =>
      h(
        "div",
        null,
        h("div", { class: `verdict ${ok === false ? "verdict-dirty" : ok ? "verdict-clean" : ""}`, role: "status", "data-testid": "verify-result", "data-state": ok === true ? "clean" : ok === false ? "dirty" : "pending" },
          h("strong", null, "Checked in your browser: "),
          h("span", { "data-testid": "verify-verdict" }, ok === false ? `does not match: ${first}` : ok ? "matches: the seed matches its commitment and every deck is the one it gives" : "nothing to re-derive yet")),
        h("table", { class: "data verify-checks", "data-testid": "verify-checks" },
          h("thead", null, h("tr", null, h("th", { scope: "col" }, "Check"), h("th", { scope: "col" }, "Result"), h("th", { scope: "col" }, "Finding"))),
          h("tbody", null, checks.map((c) => {
            // a check that does not apply (a table game has no seed) is neither passed nor failed
            const said = c.applicable === false ? "not applicable" : c.passed === true ? "passed" : c.passed === false ? "failed" : "not checked";
            return h("tr", { "data-check": c.name, "data-state": said === "passed" ? "ok" : said },
              h("th", { scope: "row" }, c.name), h("td", null, said), h("td", { "data-testid": "verify-finding" }, c.detail));
          }))),
      ),
    signal,
  );
}
