// A tournament's rounds: each table with its seated members in seat order, the Sheriff
// marked, the game (live or replay) and its winning side; and who sat out with a bye. Reached by
// names only: the leagues the reader may read, then a league's tournaments, then its rounds
// ("Round 2" shows that round alone: `&round=2`).

import { h, mount, titleCase } from "../dom.js";
import { href } from "../location.js";
import { query } from "../graphql.js";
import { empty, load } from "../status.js";
import { scopeOf } from "../scope.js";
import { gameWords, leagueList, leagueOrRefusal, readableLeagues, refusedNotice, seasonName } from "../places.js";

/** Member ids (for links) and their display names (to show), side by side. */
function people(ids, names) {
  return ids.map((memberId, i) => ({ memberId, displayName: names[i] }));
}

function personLink(person, params) {
  return h("a", { href: href(`/player/${encodeURIComponent(person.memberId)}`, scopeOf(params)) }, person.displayName);
}

function seating(seated, params) {
  const game = seated.gameId;
  return h(
    "li",
    { class: "seating", "data-testid": "table" },
    h("h3", null, `Table ${seated.table}`),
    h(
      "ol",
      { "aria-label": `Table ${seated.table}, seat order` },
      people(seated.members, seated.memberNames).map((player) => {
        const sheriff = player.memberId === seated.sheriff;
        return h(
          "li",
          { class: sheriff ? "sheriff" : null, "data-testid": sheriff ? "sheriff" : "seated", "data-member": player.memberId },
          personLink(player, params),
          sheriff ? h("span", { class: "star", title: "Sheriff", "aria-label": "(Sheriff)" }, " ★ Sheriff") : null,
        );
      }),
    ),
    game
      ? h(
          "p",
          null,
          seated.winningSide ? h("span", { "data-testid": "winner" }, `${titleCase(seated.winningSide)} won. `) : h("span", { class: "muted" }, "In play. "),
          ...(seated.replayable === false
            ? // a card game played on cardboard: known from its result sheet, nothing to replay
              [h("span", { class: "badge", "data-testid": "not-replayable" }, seated.shownAs ?? "result sheet — not replayable")]
            : [
                h("a", { href: href(`/game/${encodeURIComponent(game)}/replay`) }, "Replay"),
                " · ",
                h("a", { href: href(`/game/${encodeURIComponent(game)}/live`) }, "Live"),
              ]),
        )
      : h("p", { class: "muted" }, "No game created yet."),
  );
}

function roundLinks(tournament, params) {
  const shown = params.get("round");
  const base = { league: params.get("league"), tournament: params.get("tournament"), club: params.get("club") };
  const link = (label, round) =>
    h("a", { href: href("/tournament", { ...base, round }), "aria-current": (shown ?? "") === (round ?? "") ? "page" : null }, label);
  return h(
    "nav",
    { class: "scope-links", "aria-label": `Rounds of ${tournament.name}`, "data-testid": "round-links" },
    h("ul", { class: "inline-list" }, h("li", null, link("All rounds", null)), tournament.rounds.map((r) => h("li", { "data-round": r.round }, link(`Round ${r.round}`, String(r.round))))),
  );
}

function rounds(league, tournament, params) {
  if (!tournament) return empty(`There is no such tournament in ${league.name}.`);
  const shown = params.get("round");
  const listed = shown ? tournament.rounds.filter((r) => String(r.round) === shown) : tournament.rounds;
  return h(
    "div",
    { class: "rounds" },
    h(
      "p",
      { class: "muted", "data-testid": "tournament-game-type", "data-game-type": tournament.gameType },
      `${tournament.name} · ${gameWords(tournament.gameType)} · ${seasonName(league, tournament.seasonId)} of ${league.name} (${league.club.name}) · `,
      h("a", { href: href("/standings", { ...scopeOf(params), round: null }) }, "standings"),
      " · ",
      h("a", { href: href("/tournament", { league: league.leagueId }) }, `other tournaments of ${league.name}`),
    ),
    tournament.rounds.length ? roundLinks(tournament, params) : null,
    !tournament.rounds.length
      ? empty("No round has been seated yet.")
      : !listed.length
        ? empty(`${tournament.name} has no round ${shown} yet.`)
        : listed.map((round) =>
            h(
              "section",
              { class: "panel", "data-testid": "round", "aria-labelledby": `round-${round.round}` },
              h("h2", { id: `round-${round.round}` }, `Round ${round.round}`),
              h("ul", { class: "round-tables" }, round.tables.map((t) => seating(t, params))),
              round.byes.length
                ? h("p", { "data-testid": "byes" }, "Bye: ", people(round.byes, round.byeNames).flatMap((p, i) => (i ? [", ", personLink(p, params)] : [personLink(p, params)])))
                : null,
            ),
          ),
  );
}

/** A league's tournaments by name, under their season's name: the picker of this page. */
function tournamentList(league) {
  if (!league.tournaments.length) return empty(`${league.name} has no tournament yet.`);
  return h(
    "div",
    { "data-testid": "tournament-list" },
    league.seasons
      .filter((s) => league.tournaments.some((t) => t.seasonId === s.seasonId))
      .map((s) =>
        h(
          "section",
          { class: "panel", "data-season": s.seasonId },
          h("h2", null, s.name),
          h(
            "ul",
            null,
            league.tournaments
              .filter((t) => t.seasonId === s.seasonId)
              .map((t) =>
                h(
                  "li",
                  { "data-tournament": t.tournamentId },
                  h("a", { href: href("/tournament", { league: league.leagueId, tournament: t.tournamentId }) }, t.name),
                  h("span", { class: "muted" }, ` · ${t.rounds} round${t.rounds === 1 ? "" : "s"} seated`),
                ),
              ),
          ),
        ),
      ),
  );
}

export function renderTournament(main, { params, signal }) {
  const leagueId = params.get("league");
  const tournamentId = params.get("tournament");
  const title = h("h1", null, "Tournaments");
  const words = h("p", { class: "muted", "data-testid": "scope" }, leagueId ? "" : "Pick a league, then one of its tournaments.");
  const body = h("div", null);
  mount(main, h("header", { class: "page-head" }, title, words), body);
  if (!leagueId) {
    load(body, "the leagues", readableLeagues, (leagues) => leagueList(leagues, (l) => href("/tournament", { league: l.leagueId })), signal);
    return;
  }
  load(
    body,
    tournamentId ? "the tournament" : "the league's tournaments",
    async () => {
      const [found, data] = await Promise.all([
        leagueOrRefusal(leagueId),
        tournamentId
          ? query("dashboard/Tournament", "DashboardTournament", { leagueId, tournamentId }).catch((error) => ({ error }))
          : null,
      ]);
      if (found.refused) return found;
      if (data?.error) throw data.error;
      return { league: found.league, tournament: data?.leagueTournament ?? null };
    },
    ({ refused, league, tournament }) => {
      if (refused) return refusedNotice(refused, "/tournament", "Pick another league");
      if (!tournamentId) {
        mount(title, `Tournaments of ${league.name}`);
        mount(words, `${league.club.name} · ${gameWords(league.gameType)} · `, h("a", { href: href("/tournament") }, "Other leagues"));
        return tournamentList(league);
      }
      mount(title, tournament ? tournament.name : "Tournaments");
      mount(words, tournament ? `A tournament of ${league.name}` : "");
      return rounds(league, tournament, params);
    },
    signal,
  );
}
