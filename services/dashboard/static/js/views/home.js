// Your page: who you are, your clubs and your roles in each, and your games with what you can
// do in them (play your seat, keep score, watch, verify). The hub every signed-in page links back to.

import { get } from "../api.js";
import { h, mount, table, titleCase } from "../dom.js";
import { href } from "../location.js";
import { mayOrganise, profile } from "../me.js";
import { current } from "../session.js";
import { load } from "../status.js";
import { readableLeagues } from "../places.js";
import { yourMoveSection } from "../your-move.js";

function gameActions(game, accountId) {
  const links = [];
  const seated = game.players.some((p) => p.member_id === accountId);
  const id = encodeURIComponent(game.game_id);
  if (game.status === "lobby" || game.status === "ongoing") {
    if (game.mode === "online" && seated) links.push(h("a", { href: `#/game/${id}/play`, class: "button" }, "Play"));
    if (game.mode === "table") links.push(h("a", { href: `#/game/${id}/table`, class: "button" }, "Keep score"));
    links.push(h("a", { href: `#/game/${id}/live` }, "Watch"));
  } else {
    links.push(h("a", { href: `#/game/${id}/replay` }, "Replay"));
    if (game.mode === "online" && game.status === "finished") links.push(h("a", { href: `#/game/${id}/verify` }, "Verify"));
  }
  return h("span", { class: "actions" }, ...links);
}

/** The columns of a list of games, with what the signed-in person can do in each. */
export function gameColumns(accountId) {
  return [
    { label: "Game", value: (g) => h("code", null, g.game_id) },
    {
      label: "Where",
      value: (g) => (g.league ? `${g.league.name} · round ${g.league.round}, table ${g.league.table}` : titleCase(g.mode)),
    },
    { label: "State", value: (g) => titleCase(g.status) },
    { label: "Players", value: (g) => g.players.map((p) => p.display_name).join(", ") },
    { label: "", value: (g) => gameActions(g, accountId) },
  ];
}

function scoreKeeping(loaded) {
  const games = loaded.clubs.flatMap((club) =>
    club.roles.filter((g) => g.role === "scorekeeper" && g.game_id).map((g) => ({ club, game: g.game_id })),
  );
  if (!games.length) return null;
  return h(
    "section",
    { "aria-labelledby": "keeping-head" },
    h("h2", { id: "keeping-head" }, "Tables you keep score at"),
    h(
      "ul",
      { "data-testid": "score-keeping" },
      ...games.map(({ club, game }) => {
        const link = h("a", { href: `#/game/${encodeURIComponent(game)}/table`, "data-game": game }, "Keep score of a table game");
        tableName(game).then((name) => name && mount(link, `Keep score: ${name}`));
        return h("li", null, link, ` (${club.name})`);
      }),
    ),
  );
}

let leagueNames = null; // one read of the leagues' names for the whole list

/** A league table game by name ("Saloon League, round 1, table 2"), or null when unknown. */
async function tableName(gameId) {
  try {
    leagueNames ??= readableLeagues().then((leagues) => new Map(leagues.map((l) => [l.leagueId, l.name])));
    const id = encodeURIComponent(gameId);
    // a league table game not started yet exists only in its league's schedule
    const where = await get(`/games/${id}`).then(
      (game) => game.context ?? {},
      () => get(`/games/${id}/schedule`),
    );
    const names = await leagueNames;
    const league = names.get(where.league_id);
    return league && where.round ? `${league}, round ${where.round}, table ${where.table}` : null;
  } catch {
    leagueNames = null;
    return null; // the link keeps its plain words
  }
}

export function renderHome(main, { signal }) {
  if (!current()) {
    window.location.hash = href("/signin", { next: "/home" });
    return;
  }
  const body = h("div");
  mount(main, body);
  load(
    body,
    "your page",
    async () => {
      const loaded = await profile({ signal });
      const games = await get("/me/games?limit=50", { signal });
      return { loaded, games };
    },
    ({ loaded, games }) => {
      const me = loaded.account;
      return h(
        "div",
        null,
        h(
          "header",
          { class: "page-head" },
          h("h1", null, me.display_name),
          h("p", { class: "muted" }, `Signed in as ${me.login}. `, h("a", { href: `#/player/${encodeURIComponent(me.account_id)}` }, "Your ratings")),
        ),
        yourMoveSection(signal),
        h(
          "section",
          { "aria-labelledby": "clubs-head" },
          h("h2", { id: "clubs-head" }, "Your clubs"),
          loaded.clubs.length
            ? table({
                caption: "Clubs you belong to, and your roles there",
                columns: [
                  { label: "Club", value: (club) => h("a", { href: `#/club/${encodeURIComponent(club.club_id)}` }, club.name) },
                  { label: "Your roles", value: (club) => [...new Set(club.roles.map((g) => g.role))].map(titleCase).join(", ") },
                  {
                    label: "",
                    value: (club) =>
                      h(
                        "a",
                        { href: `#/club/${encodeURIComponent(club.club_id)}` },
                        mayOrganise(loaded, club.club_id) ? "Organise" : "Open",
                      ),
                  },
                ],
                rows: loaded.clubs,
                testid: "my-clubs",
              })
            : h("p", { class: "muted" }, "You are in no club yet. An organiser's invite adds you to theirs."),
          h("p", null, h("a", { href: "#/clubs/new", class: "button" }, "Found a club")),
        ),
        scoreKeeping(loaded),
        h(
          "section",
          { "aria-labelledby": "games-head" },
          h("h2", { id: "games-head" }, "Your games"),
          h("p", null, h("a", { href: "#/new-game", class: "button", "data-testid": "home-new-game" }, "New game")),
          games.items.length
            ? table({
                caption: "Your games, newest first",
                columns: gameColumns(me.account_id),
                rows: games.items,
                testid: "my-games",
              })
            : h("p", { class: "muted" }, "No games yet."),
        ),
      );
    },
    signal,
  );
}
