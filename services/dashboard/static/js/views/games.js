// Games: every game the directory lists (GET /games, public), newest first, filtered by state,
// league, player and the day it was created, a page at a time (the API's next_offset). The
// filters live in the address (#/games?state=finished&player=…), so a filtered list can be
// shared and reloaded. Each row links to what fits: play, keep score, watch, replay, verify.
// The league is picked by name; a player filter comes from a link on their name.

import { get } from "../api.js";
import { h, mount } from "../dom.js";
import { href } from "../location.js";
import { current } from "../session.js";
import { empty, load } from "../status.js";
import { dayAfter } from "../when.js";
import { gamesTable } from "./find/games-table.js";
import { readableLeagues } from "../places.js";

const STATES = ["lobby", "ongoing", "finished", "abandoned"];
const PAGE = 20;
const FILTERS = ["state", "league", "player", "from", "to"];

/** The page's filters from the address: what the form shows and what the API is asked. */
function filtersOf(params) {
  const wanted = Object.fromEntries(FILTERS.map((name) => [name, (params.get(name) ?? "").trim()]));
  const limit = Number.parseInt(params.get("limit") ?? "", 10);
  const offset = Number.parseInt(params.get("offset") ?? "", 10);
  return { ...wanted, limit: limit > 0 ? limit : PAGE, offset: offset > 0 ? offset : 0 };
}

/** The API's query: `to` is exclusive there, while a person's "until" includes that day. */
function apiPath(f) {
  const search = new URLSearchParams({ limit: String(f.limit), offset: String(f.offset) });
  if (f.state) search.set("state", f.state);
  if (f.league) search.set("league", f.league);
  if (f.player) search.set("player", f.player);
  if (f.from) search.set("from", f.from);
  if (f.to) search.set("to", dayAfter(f.to));
  return `/games?${search}`;
}

function pageLink(f, offset) {
  return href("/games", { ...f, offset: offset || null, limit: f.limit === PAGE ? null : f.limit });
}

function field(label, control) {
  return h("label", { for: control.id }, label, control);
}

function filterForm(f, signal) {
  const state = h(
    "select",
    { id: "games-state", name: "state" },
    h("option", { value: "" }, "Any state"),
    STATES.map((s) => h("option", { value: s, selected: s === f.state }, s.charAt(0).toUpperCase() + s.slice(1))),
  );
  // a league by its name (the leagues the reader may read, places.js); a player by a link from
  // their name (their page, a game's row), never by typing an id
  const league = h("select", { id: "games-league", name: "league" }, h("option", { value: "" }, "Any league"));
  if (f.league) league.append(h("option", { value: f.league, selected: true }, "the league in the address"));
  readableLeagues()
    .then((leagues) => {
      if (signal?.aborted) return;
      const known = leagues.find((l) => l.leagueId === f.league);
      if (known) league.querySelector(`option[value="${CSS.escape(f.league)}"]`)?.remove();
      league.append(...leagues.map((l) => h("option", { value: l.leagueId, selected: l.leagueId === f.league }, `${l.name} (${l.club.name})`)));
    })
    .catch(() => {}); // the list keeps "Any league" (and the one in the address); the games still load
  const from = h("input", { type: "date", id: "games-from", name: "from", value: f.from });
  const to = h("input", { type: "date", id: "games-to", name: "to", value: f.to });
  return h(
    "form",
    {
      class: "inline filters",
      role: "search",
      "aria-label": "Filter the games",
      "data-testid": "game-filters",
      onsubmit: (event) => {
        event.preventDefault();
        const values = { state: state.value, league: league.value, player: f.player, from: from.value, to: to.value };
        window.location.hash = href("/games", { ...values, limit: f.limit === PAGE ? null : f.limit });
      },
    },
    field("State", state),
    field("League", league),
    field("Created from", from),
    field("until (inclusive)", to),
    h("button", { type: "submit", class: "button" }, "Show games"),
    FILTERS.some((name) => f[name]) ? h("a", { href: "#/games", class: "clear" }, "Clear filters") : null,
  );
}

/** Who a player filter names: the id is what the API takes, the name is what a person reads. */
function playerName(container, memberId, signal) {
  get(`/members/${encodeURIComponent(memberId)}`, { signal })
    .then((answer) =>
      mount(container, "Games of ", h("a", { href: href(`/player/${encodeURIComponent(memberId)}`), "data-testid": "filter-player-name" }, answer.display_name)),
    )
    .catch((error) => {
      if (error.name !== "AbortError") mount(container, h("span", { class: "notice error", role: "alert" }, error.message));
    });
}

function pager(f, page) {
  const older = page.next_offset;
  const newer = f.offset > 0 ? Math.max(0, f.offset - f.limit) : null;
  const first = f.offset + 1;
  const last = f.offset + page.items.length;
  return h(
    "nav",
    { class: "pager", "aria-label": "Pages of games" },
    newer !== null ? h("a", { href: pageLink(f, newer), class: "button", rel: "prev" }, "← Newer") : null,
    h("span", { class: "muted", "data-testid": "page-range" }, `Games ${first}–${last}`),
    older !== null && older !== undefined ? h("a", { href: pageLink(f, older), class: "button", rel: "next" }, "Older →") : null,
  );
}

function results(f, page) {
  if (!page.items.length) {
    return empty(f.offset ? "No more games." : "No game matches these filters.");
  }
  return h(
    "div",
    null,
    gamesTable(page.items, {
      accountId: current()?.account?.account_id ?? null,
      player: f.player || null,
      caption: "Games, newest first; ★ marks the winners once a game has ended",
      testid: "games",
    }),
    pager(f, page),
  );
}

export function renderGames(main, { params, signal }) {
  const f = filtersOf(params);
  const list = h("div", { "data-testid": "games-list" });
  const who = h("p", { class: "filter-player" });
  mount(
    main,
    h("header", { class: "page-head" }, h("h1", null, "Games"), h("p", { class: "muted" }, "Every game, newest first. Hidden roles stay hidden.")),
    filterForm(f, signal),
    f.player ? who : null,
    list,
  );
  if (f.player) playerName(who, f.player, signal);
  load(list, "the games", () => get(apiPath(f), { signal }), (page) => results(f, page), signal);
}
