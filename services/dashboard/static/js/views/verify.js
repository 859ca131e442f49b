// Verify a game yourself: the page fetches a finished online game's stored events with their
// hashes (GET /games/{id}/chain) and its record over REST, recomputes the hash chain and
// re-derives the seed's commitment, the deal and every roll in this browser (chain.js,
// verify-game.js, fairness.js). The server's audit verdict is not read here at all. A game that
// publishes no chain yet (409: not finished) is read from its public event list instead.

import { h, mount } from "../dom.js";
import { href } from "../location.js";
import { GRAPHQL_PATH } from "../graphql.js";
import { load } from "../status.js";
import { verifyGame } from "../verify-game.js";

const PAGE = 1000; // the events route's largest page
const API_ROOT = GRAPHQL_PATH.replace(/\/graphql\/?$/, "");

async function getJson(path) {
  let response;
  try {
    response = await fetch(`${API_ROOT}${path}`, { headers: { accept: "application/json" } });
  } catch (error) {
    throw new Error(`the server did not answer (${error.message})`);
  }
  const body = await response.json().catch(() => null);
  return { status: response.status, body };
}

async function pages(path, what) {
  const answers = [];
  let next = 1;
  for (;;) {
    const { status, body } = await getJson(`${path}?from_version=${next}&limit=${PAGE}`);
    if (status !== 200) return { status, body, answers };
    answers.push(body);
    const got = Array.isArray(body) ? body : body?.events;
    if (!Array.isArray(got)) throw new Error(`the ${what} answered something that is not a list of events`);
    if (got.length < PAGE) return { status, body, answers };
    next += got.length;
  }
}

/** The chain's pages as one chain; the head must be the same on every page (one stream). */
function joined(answers) {
  const heads = new Set(answers.map((a) => JSON.stringify(a.head ?? null)));
  if (heads.size !== 1) throw new Error("the stream head changed between the chain's pages: load the page again");
  return { ...answers[0], events: answers.flatMap((a) => a.events) };
}

async function published(gameId) {
  const base = `/games/${encodeURIComponent(gameId)}`;
  const chained = await pages(`${base}/chain`, "chain");
  let chain = null;
  let chainRefusal = null;
  let events = [];
  if (chained.status === 200) {
    chain = joined(chained.answers);
  } else if (chained.status === 409) {
    // not finished: no chain yet (the API says why); the public events say what may be seen
    chainRefusal = chained.body?.detail ?? "the game is not finished";
    const feed = await pages(`${base}/events`, "events");
    if (feed.status !== 200) throw new Error(feed.body?.detail ?? `the events answered HTTP ${feed.status}`);
    events = feed.answers.flat();
  } else {
    throw new Error(chained.body?.detail ?? `the chain answered HTTP ${chained.status}`);
  }
  // 409 while the game goes on (a record names every role): the checks then say "not yet"
  const { status, body } = await getJson(`${base}/record`);
  const record = status === 200 ? body : null;
  return { chain, chainRefusal, events, record, recordRefusal: status === 200 ? null : body?.detail ?? `HTTP ${status}` };
}

const MARK = { true: ["✔", "passed", "ok"], false: ["✘", "failed", "failed"], null: ["–", "not checked", "not checked"] };
const NOT_APPLICABLE = ["–", "not applicable", "not applicable"];

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

const CAPTIONS = {
  chain: "Each check is made in this browser from the stored events' bytes and the record.",
  events: "Each check is made in this browser from the public events (no chain is published yet).",
};

function checksTable(checks, source) {
  return h(
    "table",
    { class: "data verify-checks", "data-testid": "verify-checks" },
    h("caption", null, CAPTIONS[source]),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, "Check"), h("th", { scope: "col" }, "Result"), h("th", { scope: "col" }, "Finding"))),
    h(
      "tbody",
      null,
      checks.map((c) => {
        const [mark, label, state] = c.applicable === false ? NOT_APPLICABLE : MARK[String(c.passed)];
        return h(
          "tr",
          { "data-check": c.name, "data-state": state },
          h("th", { scope: "row" }, c.name),
          h("td", null, h("span", { "aria-hidden": "true" }, `${mark} `), label),
          h("td", { "data-testid": "verify-finding" }, c.detail),
        );
      }),
    ),
  );
}

function report(result, recordRefusal) {
  const state = result.ok === true ? "clean" : result.ok === false ? "dirty" : "pending";
  return h(
    "div",
    null,
    h(
      "div",
      { class: `verdict ${result.ok === false ? "verdict-dirty" : result.ok ? "verdict-clean" : ""}`, role: "status", "data-testid": "verify-result", "data-state": state },
      h("span", { class: "verdict-mark", "aria-hidden": "true" }, result.ok === false ? "✘" : result.ok ? "✔" : "…"),
      h("strong", null, "Checked in your browser: "),
      h("span", { "data-testid": "verify-verdict" }, result.verdict),
      h("p", { class: "muted", "data-testid": "verify-versions" }, `${plural(result.events, "event")}, ${plural(result.rolls, "roll")}; ruleset ${result.ruleset}; derivations ${result.fairness}`),
      result.firstDivergence ? h("p", { "data-testid": "verify-divergence" }, `First divergence: ${result.firstDivergence}`) : null,
    ),
    checksTable(result.checks, result.source),
    recordRefusal ? h("p", { class: "muted" }, `No record yet: ${recordRefusal}`) : null,
    h(
      "section",
      { class: "panel" },
      h("h2", null, "What this page checks"),
      h(
        "p",
        null,
        "First the hash chain: every stored event's bytes are hashed (SHA-256) here, and each hash must be the one the server stored, the next event's link and, for the last, the stream head — so no stored event was edited, removed or added in the middle. The game checked next is read from those same bytes. The seed revealed at the end must hash to the commitment published when the game was created. From that seed this page derives, by the versions the game recorded, the seat order, every role, special role and character, the face of every die rolled — each die read on the table of its kind — and every card drawn at random (Undead or Alive's Rage cards, wound tokens, duel throws and Boneyard cards: each among the cards there to be drawn at that moment, followed here from the game's own events), and compares them with the stored events and the game record. It trusts the server for nothing but those stored bytes.",
      ),
      h(
        "p",
        null,
        "A game still going on publishes no chain (a hash over a hidden role could be matched by trying the few roles). This page does not check that every decision was legal: the rules replay is the server's audit, on the ",
        h("a", { href: href(`/game/${encodeURIComponent(result.gameId)}/replay`) }, "replay page"),
        ".",
      ),
    ),
  );
}

export function renderVerify(main, { args: [gameId], signal }) {
  const body = h("div", { "data-testid": "verify" });
  mount(
    main,
    h(
      "header",
      { class: "page-head" },
      h("h1", null, "Verify game ", h("code", null, gameId)),
      h("p", null, h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay and audit")),
    ),
    body,
  );
  load(
    body,
    "the game's published events and record",
    async () => {
      const { chain, chainRefusal, events, record, recordRefusal } = await published(gameId);
      if (!chain?.events?.length && !events.length) throw new Error(`game ${gameId} has no events`);
      const result = await verifyGame({ gameId, chain, chainRefusal, events, record });
      return { result: { ...result, gameId }, recordRefusal };
    },
    ({ result, recordRefusal }) => report(result, recordRefusal),
    signal,
  );
}
