// Find: players, leagues and tournaments by name. Signed in, the search covers the clubs you
// belong to (their members by name, their leagues and those leagues' tournaments: the API shows
// a club's lists to its members only); everyone also finds the players, leagues and tournaments
// of the latest public games. `#/find?league=<id>` opens one league: its seasons and
// tournaments, with links to their standings, tables and games.

import { h, mount } from "../dom.js";
import { href } from "../location.js";
import { profile } from "../me.js";
import { current } from "../session.js";
import { load } from "../status.js";
import { leagueView } from "./find/league.js";
import { publicIndex, searchClubs } from "./find/search.js";
import { leagueList, playerList, tournamentList } from "./find/results.js";

function searchForm(q) {
  const input = h("input", { type: "search", id: "find-q", name: "q", value: q, autocomplete: "off", placeholder: "a name, or part of one" });
  return h(
    "form",
    {
      class: "inline find-form",
      role: "search",
      "aria-label": "Find players, leagues and tournaments",
      onsubmit: (event) => {
        event.preventDefault();
        window.location.hash = href("/find", { q: input.value.trim() });
      },
    },
    h("label", { for: "find-q" }, "Name contains", input),
    h("button", { type: "submit", class: "button" }, "Find"),
  );
}

function section(id, title, body) {
  return h("section", { class: "find-section", "aria-labelledby": id }, h("h2", { id }, title), body);
}

async function find(q, signal) {
  const loaded = current() ? await profile({ signal }) : null;
  const [mine, seen] = await Promise.all([
    loaded ? searchClubs(loaded.clubs, q, signal) : null,
    publicIndex(q, signal),
  ]);
  return { loaded, mine, seen };
}

function answer(q, { loaded, mine, seen }) {
  const note = loaded
    ? loaded.clubs.length
      ? h("p", { class: "muted" }, `Searching your clubs (${loaded.clubs.map((c) => c.name).join(", ")}) and the latest public games.`)
      : h("p", { class: "muted" }, "You are in no club yet, so this searches the latest public games only.")
    : h(
        "p",
        { class: "muted", "data-testid": "find-public-note" },
        "Searching the latest public games. ",
        h("a", { href: href("/signin", { next: q ? `/find?q=${encodeURIComponent(q)}` : "/find" }) }, "Sign in"),
        " to search the members, leagues and tournaments of your clubs.",
      );
  return h(
    "div",
    null,
    note,
    section("find-players", "Players", playerList(mine, seen)),
    section("find-leagues", "Leagues", leagueList(mine, seen)),
    section("find-tournaments", "Tournaments", tournamentList(mine, seen)),
  );
}

export function renderFind(main, { params, signal }) {
  const q = (params.get("q") ?? "").trim();
  const league = params.get("league");
  const body = h("div", { "data-testid": "find-results" });
  mount(
    main,
    h("header", { class: "page-head" }, h("h1", null, "Find"), h("p", { class: "muted" }, "Players, leagues and tournaments by name.")),
    searchForm(q),
    body,
  );
  if (league) {
    load(body, "the league", () => leagueView.load(league, signal), (data) => leagueView.render(data, league), signal);
    return;
  }
  load(body, q ? `what matches “${q}”` : "what there is to find", () => find(q, signal), (data) => answer(q, data), signal);
}
