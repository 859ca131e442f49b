// League standings: points first, then the documented tie-breaks, for a season, a tournament
// or the whole league.

import { formatNumber, h, mount, table } from "../dom.js";
import { href } from "../location.js";
import { query } from "../graphql.js";
import { empty, load } from "../status.js";
import { scopeForm, scopeOf } from "../scope.js";

const TIE_BREAKS =
  "Ranked by points, then Buchholz (the summed mean points of the opponents met), head-to-head among the tied, " +
  "wins as Renegade, fewer games, member id. A forfeit or no-show is a game lost without points.";

function standingsTable(standings, params) {
  if (!standings.lines.length) return empty("Nobody is enrolled here yet.");
  // a league's games are rated in its club's pool (pool.js), so a player's page opened from
  // here shows that pool
  const scope = { ...scopeOf(params), club: standings.clubId };
  const player = (line) => h("a", { href: href(`/player/${encodeURIComponent(line.memberId)}`, scope) }, line.displayName);
  return table({
    testid: "standings",
    caption: TIE_BREAKS,
    rows: standings.lines,
    rowAttrs: (line) => ({ "data-member": line.memberId }),
    columns: [
      { label: "Rank", numeric: true, value: (l) => l.rank },
      { label: "Player", value: player },
      { label: "Points", numeric: true, value: (l) => h("strong", null, l.points) },
      { label: "Games", numeric: true, value: (l) => l.games },
      { label: "Wins", numeric: true, value: (l) => l.wins },
      { label: "Buchholz", numeric: true, value: (l) => formatNumber(l.buchholz, 2) },
      { label: "Head-to-head", numeric: true, value: (l) => l.headToHead },
      { label: "Renegade wins", numeric: true, value: (l) => l.renegadeWins },
      { label: "Survived", numeric: true, value: (l) => l.survivals },
      { label: "As Sheriff", numeric: true, value: (l) => l.sheriffGames },
      { label: "Byes", numeric: true, value: (l) => l.byes },
      { label: "Forfeits", numeric: true, value: (l) => l.forfeits },
    ],
  });
}

function scopeTitle(params) {
  const league = params.get("league");
  if (params.get("tournament")) return `Tournament ${params.get("tournament")} of league ${league}`;
  if (params.get("season")) return `Season ${params.get("season")} of league ${league}`;
  return `League ${league}, all seasons`;
}

export function renderStandings(main, { params, signal }) {
  const form = scopeForm("/standings", params, ["league", "season", "tournament"], { required: ["league"] });
  const league = params.get("league");
  if (!league) {
    mount(main, h("header", { class: "page-head" }, h("h1", null, "Standings")), form, empty("Enter a league id to see its standings."));
    return;
  }
  const body = h("div", null);
  const tournament = params.get("tournament");
  mount(
    main,
    h(
      "header",
      { class: "page-head" },
      h("h1", null, "Standings"),
      h("p", { class: "muted", "data-testid": "scope" }, scopeTitle(params)),
      tournament ? h("p", null, h("a", { href: href("/tournament", scopeOf(params)) }, "Rounds and tables")) : null,
    ),
    form,
    body,
  );
  load(
    body,
    "the standings",
    () =>
      query("dashboard/Standings", "DashboardStandings", {
        leagueId: league,
        seasonId: params.get("season") || null,
        tournamentId: tournament || null,
      }),
    (data) => standingsTable(data.leagueStandings, params),
    signal,
  );
}
