// What the Find page asks the API: the clubs' own lists for a member of them (members by name,
// leagues, each league's tournaments) and the latest public games for everyone. Matching a
// league's or tournament's name is done here (the API searches members by name only); nothing
// else is worked out in the browser: every name, count and state is the API's.

import { get } from "../../api.js";

const RECENT = 100; // the latest public games looked through
const LEAGUES_OPENED = 20; // leagues whose tournaments are fetched

export const matches = (q, ...names) => !q || names.some((name) => String(name ?? "").toLowerCase().includes(q.toLowerCase()));

const enc = encodeURIComponent;

/** One club's members (by the API's own name search) and leagues; a refusal is kept, not thrown. */
async function club(club, q, signal) {
  const search = new URLSearchParams({ limit: "50" });
  if (q) search.set("q", q);
  try {
    const [members, leagues] = await Promise.all([
      get(`/clubs/${enc(club.club_id)}/members?${search}`, { signal }),
      get(`/clubs/${enc(club.club_id)}/leagues?limit=100`, { signal }),
    ]);
    return { club, members: members.items, leagues: leagues.items, problem: null };
  } catch (error) {
    if (error.name === "AbortError") throw error;
    return { club, members: [], leagues: [], problem: `${club.name}: ${error.message}` };
  }
}

/** Members, leagues and tournaments of the signed-in person's clubs that match `q`. */
export async function searchClubs(clubs, q, signal) {
  const answers = await Promise.all(clubs.map((c) => club(c, q, signal)));
  const players = new Map();
  for (const { club: c, members } of answers) {
    for (const m of members) {
      const known = players.get(m.member_id) ?? { member_id: m.member_id, display_name: m.display_name, clubs: [] };
      known.clubs.push({ name: c.name, roles: m.roles });
      players.set(m.member_id, known);
    }
  }
  const allLeagues = answers.flatMap((a) => a.leagues);
  const opened = await Promise.all(
    allLeagues.slice(0, LEAGUES_OPENED).map((l) =>
      get(`/leagues/${enc(l.league_id)}`, { signal }).catch((error) => {
        if (error.name === "AbortError") throw error;
        return { ...l, tournaments: [], seasons: [], problem: `${l.name}: ${error.message}` };
      }),
    ),
  );
  const tournaments = opened.flatMap((league) =>
    league.tournaments
      .filter((t) => matches(q, t.name, league.name))
      .map((t) => ({ league, tournament: t, season: league.seasons.find((s) => s.season_id === t.season_id) ?? null })),
  );
  return {
    players: [...players.values()],
    leagues: allLeagues.filter((l) => matches(q, l.name, l.club.name)),
    tournaments,
    problems: [...answers.map((a) => a.problem), ...opened.map((l) => l.problem)].filter(Boolean),
  };
}

/** The players, leagues and tournaments of the latest public games (GET /games) that match `q`. */
export async function publicIndex(q, signal) {
  const page = await get(`/games?limit=${RECENT}`, { signal });
  const players = new Map();
  const leagues = new Map();
  const tournaments = new Map();
  for (const game of page.items) {
    for (const p of game.players) {
      if (matches(q, p.display_name) && !players.has(p.member_id)) players.set(p.member_id, p);
    }
    const l = game.league;
    if (!l) continue;
    if (matches(q, l.name) && !leagues.has(l.league_id)) leagues.set(l.league_id, l);
    const key = `${l.league_id}/${l.tournament_id}`;
    if (!tournaments.has(key)) tournaments.set(key, l);
  }
  // a tournament by its name, never its id: its league's page names it (a public league is
  // anyone's to read; one the reader may not read leaves the tournament unnamed)
  const leagueIds = [...new Set([...tournaments.values()].map((l) => l.league_id))].slice(0, LEAGUES_OPENED);
  const opened = new Map(
    await Promise.all(
      leagueIds.map((id) =>
        get(`/leagues/${enc(id)}`, { signal })
          .then((league) => [id, league])
          .catch((error) => {
            if (error.name === "AbortError") throw error;
            return [id, null];
          }),
      ),
    ),
  );
  const named = [...tournaments.values()].map((l) => {
    const league = opened.get(l.league_id);
    const tournament = league?.tournaments.find((t) => t.tournament_id === l.tournament_id);
    const season = league?.seasons.find((x) => x.season_id === (tournament?.season_id ?? l.season_id));
    return { ...l, tournament_name: tournament?.name ?? null, season_name: season?.name ?? null };
  });
  return {
    players: [...players.values()],
    leagues: [...leagues.values()],
    tournaments: named.filter((l) => matches(q, l.name, l.tournament_name)),
    games: page.items.length,
  };
}
