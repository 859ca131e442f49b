// A tournament's rounds: each table with its seated members in seat order, the Sheriff
// marked, the game (live or replay) and its winning side; and who sat out with a bye.

import { h, mount, titleCase } from "../dom.js";
import { href } from "../location.js";
import { query } from "../graphql.js";
import { empty, load } from "../status.js";
import { scopeForm, scopeOf } from "../scope.js";

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

function rounds(tournament, params) {
  if (!tournament) return empty("There is no such tournament in this league.");
  if (!tournament.rounds.length) return empty("No round has been seated yet.");
  return h(
    "div",
    { class: "rounds" },
    h(
      "p",
      { class: "muted", "data-testid": "tournament-game-type", "data-game-type": tournament.gameType },
      `${tournament.name} · ${tournament.gameType === "cards" ? "BANG! the card game" : "BANG! The Dice Game"} · season ${tournament.seasonId} · `,
      h("a", { href: href("/standings", scopeOf(params)) }, "standings"),
    ),
    tournament.rounds.map((round) =>
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

export function renderTournament(main, { params, signal }) {
  const form = scopeForm("/tournament", params, ["league", "tournament"], { required: ["league", "tournament"] });
  const league = params.get("league");
  const tournament = params.get("tournament");
  const head = h("header", { class: "page-head" }, h("h1", null, tournament ? `Tournament ${tournament}` : "Tournaments"));
  if (!league || !tournament) {
    mount(main, head, form, empty("Enter a league id and a tournament id to see its rounds and tables."));
    return;
  }
  const body = h("div", null);
  mount(main, head, form, body);
  load(
    body,
    "the tournament",
    () => query("dashboard/Tournament", "DashboardTournament", { leagueId: league, tournamentId: tournament }),
    (data) => rounds(data.leagueTournament, params),
    signal,
  );
}
