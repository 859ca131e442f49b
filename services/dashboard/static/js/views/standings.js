// League standings: points first, then the documented tie-breaks, for a season, a tournament
// or the whole league. Without a league the page lists the leagues the reader may read by name;
// with one, its seasons and tournaments by name pick the scope (places.js).

import { formatNumber, h, mount, table } from "../dom.js";
import { href } from "../location.js";
import { query } from "../graphql.js";
import { empty, load } from "../status.js";
import { scopeOf } from "../scope.js";
import { leagueList, leagueOrRefusal, readableLeagues, refusedNotice, scopeLinks, scopeWords } from "../places.js";

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

export function renderStandings(main, { params, signal }) {
  const leagueId = params.get("league");
  const title = h("h1", null, "Standings");
  const scope = h("p", { class: "muted", "data-testid": "scope" }, leagueId ? "" : "Pick a league to see its standings.");
  const body = h("div", null);
  mount(main, h("header", { class: "page-head" }, title, scope), body);
  if (!leagueId) {
    load(body, "the leagues", readableLeagues, (leagues) => leagueList(leagues, (l) => href("/standings", { league: l.leagueId })), signal);
    return;
  }
  const tournament = params.get("tournament");
  load(
    body,
    "the standings",
    async () => {
      const found = await leagueOrRefusal(leagueId);
      if (found.refused) return found;
      const data = await query("dashboard/Standings", "DashboardStandings", {
        leagueId,
        seasonId: params.get("season") || null,
        tournamentId: tournament || null,
      });
      return { league: found.league, standings: data.leagueStandings };
    },
    ({ refused, league, standings }) => {
      if (refused) {
        mount(scope, "");
        return refusedNotice(refused, "/standings", "Pick another league");
      }
      mount(title, `Standings: ${league.name}`);
      mount(
        scope,
        scopeWords(league, params),
        ` · ${league.club.name} · `,
        tournament ? [h("a", { href: href("/tournament", scopeOf(params)) }, "Rounds and tables"), " · "] : null,
        h("a", { href: href("/standings") }, "Other leagues"),
      );
      return [scopeLinks(league, "/standings", params), standingsTable(standings, params)];
    },
    signal,
  );
}
