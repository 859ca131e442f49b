// The Find page's three lists. Your clubs' finds come first; what only the latest public games
// show follows, marked so (a league's own page is its club's members' to read).

import { h, table, titleCase } from "../../dom.js";
import { href } from "../../location.js";
import { empty } from "../../status.js";

const enc = encodeURIComponent;

function links(...items) {
  return h("span", { class: "actions" }, items.filter(Boolean));
}

function problems(mine) {
  if (!mine?.problems.length) return null;
  return h("ul", { class: "notice error", role: "alert" }, mine.problems.map((p) => h("li", null, p)));
}

export function playerList(mine, seen) {
  const ours = mine?.players ?? [];
  const known = new Set(ours.map((p) => p.member_id));
  const rows = [
    ...ours.map((p) => ({ ...p, where: p.clubs.map((c) => `${c.name} (${c.roles.map(titleCase).join(", ")})`).join("; ") })),
    ...seen.players.filter((p) => !known.has(p.member_id)).map((p) => ({ ...p, where: "latest public games" })),
  ];
  if (!rows.length) return h("div", null, problems(mine), empty("No player matches."));
  return h(
    "div",
    { class: "table-scroll" },
    problems(mine),
    table({
      testid: "found-players",
      caption: "Players by name",
      rows,
      rowAttrs: (p) => ({ "data-member": p.member_id }),
      columns: [
        { label: "Name", value: (p) => h("a", { href: href(`/player/${enc(p.member_id)}`) }, p.display_name) },
        { label: "Found in", value: (p) => p.where },
        { label: "", value: (p) => links(h("a", { href: href("/games", { player: p.member_id }) }, "Games")) },
      ],
    }),
  );
}

export function leagueList(mine, seen) {
  const ours = mine?.leagues ?? [];
  const known = new Set(ours.map((l) => l.league_id));
  const rows = [
    ...ours.map((l) => ({ league_id: l.league_id, name: l.name, where: l.club.name, seasons: l.seasons, open: true })),
    ...seen.leagues
      .filter((l) => !known.has(l.league_id))
      .map((l) => ({ league_id: l.league_id, name: l.name, where: "latest public games", seasons: null, open: false })),
  ];
  if (!rows.length) return empty("No league matches.");
  return h(
    "div",
    { class: "table-scroll" },
    table({
      testid: "found-leagues",
      caption: "Leagues by name",
      rows,
      rowAttrs: (l) => ({ "data-league": l.league_id }),
      columns: [
        {
          label: "League",
          value: (l) => (l.open ? h("a", { href: href("/find", { league: l.league_id }) }, l.name) : l.name),
        },
        { label: "Club", value: (l) => l.where },
        { label: "Seasons", numeric: true, value: (l) => (l.seasons === null ? "–" : l.seasons) },
        {
          label: "",
          value: (l) =>
            links(
              h("a", { href: href("/standings", { league: l.league_id }) }, "Standings"),
              h("a", { href: href("/games", { league: l.league_id }) }, "Games"),
            ),
        },
      ],
    }),
  );
}

export function tournamentList(mine, seen) {
  const ours = (mine?.tournaments ?? []).map(({ league, tournament, season }) => ({
    league_id: league.league_id,
    tournament_id: tournament.tournament_id,
    name: tournament.name,
    league: league.name,
    season: season?.name ?? tournament.season_id,
    rounds: tournament.rounds,
  }));
  const known = new Set(ours.map((t) => `${t.league_id}/${t.tournament_id}`));
  const rows = [
    ...ours,
    ...seen.tournaments
      .filter((l) => !known.has(`${l.league_id}/${l.tournament_id}`))
      .map((l) => ({
        league_id: l.league_id,
        tournament_id: l.tournament_id,
        name: l.tournament_name ?? `a tournament of ${l.name}`,
        league: l.name,
        season: l.season_name ?? "–",
        rounds: null,
      })),
  ];
  if (!rows.length) return empty("No tournament matches.");
  return h(
    "div",
    { class: "table-scroll" },
    table({
      testid: "found-tournaments",
      caption: "Tournaments by name",
      rows,
      rowAttrs: (t) => ({ "data-tournament": t.tournament_id, "data-league": t.league_id }),
      columns: [
        {
          label: "Tournament",
          value: (t) => h("a", { href: href("/tournament", { league: t.league_id, tournament: t.tournament_id }) }, t.name),
        },
        { label: "League", value: (t) => t.league },
        { label: "Season", value: (t) => t.season },
        { label: "Rounds", numeric: true, value: (t) => (t.rounds === null ? "–" : t.rounds) },
        { label: "", value: (t) => links(h("a", { href: href("/games", { league: t.league_id }) }, "Games")) },
      ],
    }),
  );
}
