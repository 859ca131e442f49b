// Leagues, seasons, tournaments and rounds by name. A person navigates by names (the club's
// "Saloon League", its "Spring" season, the "Tuesday Nights" tournament, "Round 2"), never by
// ids: the ids travel in the address only, and every heading, link and picker shows the name the
// API gives (`leagues`: the leagues the reader may read, by club; `league`: one league's seasons
// and tournaments). A league the reader may not read, or no league at all, is said in words.

import { h } from "./dom.js";
import { href } from "./location.js";
import { query } from "./graphql.js";
import { current } from "./session.js";
import { empty } from "./status.js";

const PAGE = 100;
const MAX_PAGES = 5; // 500 leagues: more than a page can usefully list

/** Every league the reader may read (public ones, and their clubs' own), by club then name. */
export async function readableLeagues() {
  const leagues = [];
  let offset = 0;
  for (let page = 0; page < MAX_PAGES && offset !== null; page += 1) {
    const data = await query("dashboard/Leagues", "DashboardLeagues", { limit: PAGE, offset });
    leagues.push(...data.leagues.items);
    offset = data.leagues.nextOffset;
  }
  return leagues;
}

/** The API's refusal of a league in plain words, or null for any other failure. */
export function refusalWords(error) {
  const status = error?.errors?.[0]?.extensions?.problem?.status ?? null;
  if (status === 401) return "This league is for its club's members only: sign in as one of them to see it.";
  if (status === 403) return "This league is for its club's members only, and you are not one of its members.";
  if (status === 404) return "There is no such league: the link may be wrong or out of date.";
  return null;
}

/**
 * One league with its seasons and tournaments, or `{refused}` (the words why) when the reader
 * may not read it or it does not exist; any other failure is thrown (the page offers a retry).
 */
export async function leagueOrRefusal(leagueId) {
  try {
    const data = await query("dashboard/Leagues", "DashboardLeague", { leagueId });
    return { league: data.league };
  } catch (error) {
    const refused = refusalWords(error);
    if (refused === null) throw error;
    return { refused };
  }
}

/** What the page shows instead of a league it cannot read, with the way back to a list. */
export function refusedNotice(words, backPath, backLabel) {
  return h(
    "div",
    { class: "notice error", role: "alert", "data-testid": "cannot-read" },
    h("p", null, words),
    h("p", null, h("a", { href: href(backPath) }, backLabel)),
  );
}

export const gameWords = (gameType) => (gameType === "cards" ? "BANG! the card game" : "BANG! The Dice Game");

export function seasonName(league, seasonId) {
  return league.seasons.find((s) => s.seasonId === seasonId)?.name ?? "a season";
}

export function tournamentName(league, tournamentId) {
  return league.tournaments.find((t) => t.tournamentId === tournamentId)?.name ?? "a tournament";
}

/** "Spring of Saloon League", "Tuesday Nights (Spring) of Saloon League", "Saloon League, all seasons". */
export function scopeWords(league, params) {
  const tournament = params.get("tournament");
  const season = params.get("season");
  if (tournament) {
    const t = league.tournaments.find((x) => x.tournamentId === tournament);
    return `${tournamentName(league, tournament)}${t ? ` (${seasonName(league, t.seasonId)})` : ""} of ${league.name}`;
  }
  if (season) return `${seasonName(league, season)} of ${league.name}`;
  return `${league.name}, all seasons`;
}

/**
 * The leagues to pick from, grouped under their club's name: each league's name links to
 * `linkFor(league)`. Nothing to list says why (signed out: only public leagues are listed).
 */
export function leagueList(leagues, linkFor) {
  if (!leagues.length) {
    return empty(current() ? "There is no league you may read yet." : "There is no public league yet. Sign in to see your clubs' leagues.");
  }
  const clubs = new Map();
  for (const league of leagues) {
    if (!clubs.has(league.club.clubId)) clubs.set(league.club.clubId, { club: league.club, leagues: [] });
    clubs.get(league.club.clubId).leagues.push(league);
  }
  return h(
    "div",
    { class: "league-list", "data-testid": "league-list" },
    [...clubs.values()].map(({ club, leagues: ofClub }) =>
      h(
        "section",
        { class: "panel", "data-club": club.clubId },
        h("h2", null, club.name),
        h(
          "ul",
          null,
          ofClub.map((league) =>
            h(
              "li",
              { "data-league": league.leagueId },
              h("a", { href: linkFor(league) }, league.name),
              h("span", { class: "muted" }, ` · ${gameWords(league.gameType)} · ${league.seasons} season${league.seasons === 1 ? "" : "s"}`),
            ),
          ),
        ),
      ),
    ),
  );
}

/** A link that says whether it is the page shown (`aria-current`). */
function placeLink(label, to, shown) {
  return h("a", { href: to, "aria-current": shown ? "page" : null }, label);
}

/**
 * The league's seasons and tournaments by name, each a link to `path` scoped to it (and "All
 * seasons"): the picker of the standings page.
 */
export function scopeLinks(league, path, params) {
  const season = params.get("season");
  const tournament = params.get("tournament");
  const base = { league: league.leagueId };
  return h(
    "nav",
    { class: "scope-links", "aria-label": `Seasons and tournaments of ${league.name}`, "data-testid": "scope-links" },
    h("p", null, placeLink("All seasons", href(path, base), !season && !tournament)),
    league.seasons.length
      ? h(
          "ul",
          null,
          league.seasons.map((s) =>
            h(
              "li",
              { "data-season": s.seasonId },
              placeLink(s.name, href(path, { ...base, season: s.seasonId }), season === s.seasonId && !tournament),
              s.closed ? h("span", { class: "muted" }, " (closed)") : null,
              tournamentsOf(league, s.seasonId, path, tournament),
            ),
          ),
        )
      : h("p", { class: "muted" }, "No season opened yet."),
  );
}

function tournamentsOf(league, seasonId, path, shown) {
  const tournaments = league.tournaments.filter((t) => t.seasonId === seasonId);
  if (!tournaments.length) return null;
  return h(
    "ul",
    null,
    tournaments.map((t) =>
      h(
        "li",
        { "data-tournament": t.tournamentId },
        placeLink(t.name, href(path, { league: league.leagueId, tournament: t.tournamentId }), shown === t.tournamentId),
        h("span", { class: "muted" }, ` · ${t.rounds} round${t.rounds === 1 ? "" : "s"} seated`),
      ),
    ),
  );
}

/**
 * A league picker by name for a part of a page (a player's head-to-head): a select of the
 * leagues the reader may read and, once a league is chosen, of its seasons. Choosing navigates
 * to `path` with `keep`'s params and the league (and season). `onLeague(league)` is told the
 * chosen league once it is read.
 */
export function leagueSelectForm(path, params, keep, { signal, onLeague = () => {} } = {}) {
  const shownLeague = params.get("league") ?? "";
  const shownSeason = params.get("season") ?? "";
  const leagueSelect = h("select", { id: "pick-league", name: "league", "data-testid": "pick-league" }, h("option", { value: "" }, "Choose a league"));
  const seasonSelect = h("select", { id: "pick-season", name: "season", "data-testid": "pick-season" }, h("option", { value: "" }, "All seasons"));
  const seasonLabel = h("label", { for: "pick-season", hidden: true }, "Season ", seasonSelect);
  leagueSelect.addEventListener("change", () => {
    seasonLabel.hidden = true; // another league's seasons are not this one's
    seasonSelect.value = "";
  });
  const form = h(
    "form",
    {
      class: "inline scope",
      role: "search",
      "aria-label": "Which league",
      onsubmit: (event) => {
        event.preventDefault();
        window.location.hash = href(path, { ...keep, league: leagueSelect.value || null, season: seasonSelect.value || null });
      },
    },
    h("label", { for: "pick-league" }, "League ", leagueSelect),
    seasonLabel,
    h("button", { type: "submit", class: "button" }, "Show"),
  );
  readableLeagues()
    .then((leagues) => {
      if (signal?.aborted) return;
      leagueSelect.append(
        ...leagues.map((l) => h("option", { value: l.leagueId, selected: l.leagueId === shownLeague }, `${l.name} (${l.club.name})`)),
      );
    })
    .catch(() => {}); // the list stays empty; the page's own reads say what failed
  if (shownLeague) {
    leagueOrRefusal(shownLeague)
      .then(({ league }) => {
        if (!league || signal?.aborted) return;
        seasonSelect.append(...league.seasons.map((s) => h("option", { value: s.seasonId, selected: s.seasonId === shownSeason }, s.name)));
        seasonLabel.hidden = !league.seasons.length;
        onLeague(league);
      })
      .catch(() => {});
  }
  return form;
}
