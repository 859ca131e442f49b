// One league as its club's members read it (GET /leagues/{id}): its club, seasons with their
// entrants, tournaments with their rounds, and where to go from there. Anyone else is told in
// the API's words, and still gets the public standings and games.

import { get } from "../../api.js";
import { h, table } from "../../dom.js";
import { href } from "../../location.js";
import { empty } from "../../status.js";
import { utcDay } from "../../when.js";

const enc = encodeURIComponent;

function seasons(league) {
  if (!league.seasons.length) return empty("No season yet.");
  return table({
    testid: "league-seasons",
    caption: "Seasons",
    rows: league.seasons,
    rowAttrs: (s) => ({ "data-season": s.season_id }),
    columns: [
      { label: "Season", value: (s) => s.name },
      { label: "Opened", value: (s) => utcDay(s.opened_at) },
      { label: "Entrants", numeric: true, value: (s) => s.entrants },
      { label: "State", value: (s) => (s.closed ? "Closed" : "Open") },
      { label: "", value: (s) => h("a", { href: href("/standings", { league: league.league_id, season: s.season_id }) }, "Standings") },
    ],
  });
}

function tournaments(league) {
  if (!league.tournaments.length) return empty("No tournament yet.");
  const seasonName = (id) => league.seasons.find((s) => s.season_id === id)?.name ?? id;
  return table({
    testid: "league-tournaments",
    caption: "Tournaments",
    rows: league.tournaments,
    rowAttrs: (t) => ({ "data-tournament": t.tournament_id }),
    columns: [
      {
        label: "Tournament",
        value: (t) => h("a", { href: href("/tournament", { league: league.league_id, tournament: t.tournament_id }) }, t.name),
      },
      { label: "Season", value: (t) => seasonName(t.season_id) },
      { label: "Rounds", numeric: true, value: (t) => t.rounds },
      { label: "Opened", value: (t) => utcDay(t.opened_at) },
    ],
  });
}

export const leagueView = {
  load: (leagueId, signal) => get(`/leagues/${enc(leagueId)}`, { signal }),
  render: (league) =>
    h(
      "article",
      { class: "league-card", "data-testid": "league", "data-league": league.league_id },
      h("h2", { "data-testid": "league-name" }, league.name),
      h("p", { class: "muted" }, `${league.club.name} · founded ${utcDay(league.founded_at)}`),
      h(
        "p",
        { class: "actions" },
        h("a", { href: href(`/league/${enc(league.league_id)}`) }, "League page"),
        h("a", { href: href("/standings", { league: league.league_id }) }, "Standings"),
        h("a", { href: href("/games", { league: league.league_id }) }, "Games"),
      ),
      h("h3", null, "Seasons"),
      seasons(league),
      h("h3", null, "Tournaments"),
      tournaments(league),
    ),
};
