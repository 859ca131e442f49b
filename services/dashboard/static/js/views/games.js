// Games: every game the directory lists (GET /games, public), newest first, filtered by state,
// league, player and the day it was created, a page at a time (the API's next_offset). The
// filters live in the address (#/games?state=finished&player=…), so a filtered list can be
// shared and reloaded. Each row links to what fits: play, keep score, watch, replay, verify.

import { get } from "../api.js";
import { h, mount } from "../dom.js";
import { href } from "../location.js";
import { current } from "../session.js";
import { empty, load } from "../status.js";
import { dayAfter } from "../when.js";
import { gamesTable } from "./find/games-table.js";

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

function filterForm(f) {
  const state = h(
    "select",
    { id: "games-state", name: "state" },
    h("option", { value: "" }, "Any state"),
    STATES.map((s) => h("option", { value: s, selected: s === f.state }, s.charAt(0).toUpperCase() + s.slice(1))),
  );
  const text = (name, value, extra = {}) => h("input", { type: "text", id: `games-${name}`, name, value, autocomplete: "off", ...extra });
  const league = text("league", f.league, { placeholder: "league id" });
  const player = text("player", f.player, { placeholder: "member id" });
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
        const values = { state: state.value, league: league.value.trim(), player: player.value.trim(), from: from.value, to: to.value };
        window.location.hash = href("/games", { ...values, limit: f.limit === PAGE ? null : f.limit });
      },
    },
    field("State", state),
    field("League", league),
    field("Player", player),
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

function openById() {
  const input = h("input", { type: "text", id: "game-id", name: "game", required: true, autocomplete: "off" });
  const open = (view) => (event) => {
    event.preventDefault();
    const id = input.value.trim();
    if (id) window.location.hash = href(`/game/${encodeURIComponent(id)}/${view}`);
  };
  return h(
    "details",
    { class: "open-by-id" },
    h("summary", null, "Open a game by its id"),
    h(
      "form",
      { class: "inline", onsubmit: open("live"), "aria-label": "Open a game" },
      h("label", { for: "game-id" }, "Game id", input),
      h("button", { type: "submit", class: "button" }, "Watch live"),
      h("button", { type: "button", class: "button", onclick: open("replay") }, "Replay and audit"),
    ),
  );
}

export function renderGames(main, { params, signal }) {
  const f = filtersOf(params);
  const list = h("div", { "data-testid": "games-list" });
  const who = h("p", { class: "filter-player" });
  mount(
    main,
    h("header", { class: "page-head" }, h("h1", null, "Games"), h("p", { class: "muted" }, "Every game, newest first. Hidden roles stay hidden.")),
    filterForm(f),
    f.player ? who : null,
    list,
    openById(),
  );
  if (f.player) playerName(who, f.player, signal);
  load(list, "the games", () => get(apiPath(f), { signal }), (page) => results(f, page), signal);
}
