// A player's page: rating and record, their latest games, the rating by date as a line chart
// (overall and one line per role played, with a table twin), the ratings per role, and
// head-to-head records in a league.

import { formatNumber, h, mount, table, titleCase } from "../dom.js";
import { href } from "../location.js";
import { query } from "../graphql.js";
import { lineChart } from "../chart.js";
import { empty, load } from "../status.js";
import { scopeOf } from "../scope.js";
import { leagueSelectForm } from "../places.js";
import { poolOf, poolPicker, poolWords } from "../pool.js";
import { get } from "../api.js";
import { current } from "../session.js";
import { utcMinute } from "../when.js";
import { gamesTable } from "./find/games-table.js";

function summary(profile) {
  const fact = (label, value, testid) => h("div", null, h("dt", null, label), h("dd", { "data-testid": testid }, value));
  return h(
    "dl",
    { class: "summary" },
    fact("Rating", formatNumber(profile.rating), "rating"),
    fact("Games", profile.games, "games"),
    fact("Wins", profile.wins, "wins"),
    profile.provisional ? fact("Status", h("span", { class: "badge provisional", "data-testid": "provisional" }, "provisional"), "status") : null,
  );
}

/** A point's instant in milliseconds, or null for a game rated before the API kept dates. */
const when = (point) => (point.endedAt ? Date.parse(point.endedAt) : null);

function series(line) {
  const key = line.role ? line.role.toLowerCase() : "overall";
  const label = line.role ? titleCase(line.role) : "Overall";
  return {
    key,
    label,
    points: line.points
      .filter((p) => when(p) !== null)
      .map((p) => ({
        x: when(p),
        y: p.rating,
        title: `${label}: ${formatNumber(p.rating)} after game ${p.gameId}, ${utcMinute(p.endedAt)}`,
        data: { game: p.gameId, ended: p.endedAt, rating: String(p.rating) },
      })),
  };
}

/** The chart's words for a screen reader: the span of dates and where the overall rating went. */
function describe(profile) {
  const overall = profile.history.find((line) => !line.role)?.points.filter((p) => p.endedAt) ?? [];
  if (!overall.length) return null;
  const first = overall[0];
  const last = overall.at(-1);
  return `${overall.length} rated games from ${utcMinute(first.endedAt)} to ${utcMinute(last.endedAt)}; ` +
    `the overall rating went from ${formatNumber(first.rating)} to ${formatNumber(last.rating)}.`;
}

/** The same points as a table, one row per rated game: the chart's accessible twin. */
function historyTable(profile) {
  const overall = profile.history.find((line) => !line.role)?.points ?? [];
  const roleOf = new Map();
  for (const line of profile.history.filter((l) => l.role)) {
    for (const p of line.points) roleOf.set(p.gameId, { role: line.role, rating: p.rating });
  }
  return h(
    "details",
    { class: "chart-table" },
    h("summary", null, "The rating history as a table"),
    h("div", { class: "table-scroll" }, table({
      testid: "rating-history",
      caption: "Ratings after each rated game, oldest first (dates in UTC).",
      rows: overall,
      rowAttrs: (p) => ({ "data-game": p.gameId, "data-ended": p.endedAt ?? "" }),
      columns: [
        { label: "Game ended", value: (p) => (p.endedAt ? h("time", { datetime: p.endedAt }, utcMinute(p.endedAt)) : "not recorded") },
        { label: "Game", value: (p) => h("a", { href: `#/game/${encodeURIComponent(p.gameId)}/replay` }, p.gameId) },
        { label: "Role", value: (p) => titleCase(roleOf.get(p.gameId)?.role) || "–" },
        { label: "Overall", numeric: true, value: (p) => formatNumber(p.rating) },
        { label: "Role rating", numeric: true, value: (p) => formatNumber(roleOf.get(p.gameId)?.rating) },
      ],
    })),
  );
}

/** One line per role played, over the overall rating drawn thin as the context, by the date each
 *  game ended: a role's history has a point only for the games played in that role. */
function historyChart(profile) {
  const lines = profile.history.filter((line) => line.points.length > 0).map(series);
  if (!profile.history.some((line) => line.role && line.points.length)) return empty("No rated game yet, so no history to draw.");
  const undated = (profile.history.find((line) => !line.role)?.points ?? []).filter((p) => !p.endedAt).length;
  const note = undated
    ? h("p", { class: "muted", "data-testid": "undated" }, `${undated} game(s) rated before dates were kept are listed in the table but not drawn.`)
    : null;
  if (!lines.some((line) => line.key !== "overall" && line.points.length)) return h("div", null, note, historyTable(profile));
  return lineChart({
    series: [...lines.filter((l) => l.key === "overall"), ...lines.filter((l) => l.key !== "overall")],
    testid: "rating-chart",
    title: `Rating by date, overall and per role, of ${profile.displayName}`,
    description: describe(profile),
    xLabel: "Date the game ended (UTC)",
    yLabel: "Rating",
    time: true,
    after: [note, historyTable(profile)],
  });
}

function rolesTable(profile) {
  return table({
    testid: "roles",
    rows: profile.roles,
    columns: [
      { label: "Role", value: (r) => h("span", { class: `role role-${r.role.toLowerCase()}` }, titleCase(r.role)) },
      { label: "Rating", numeric: true, value: (r) => formatNumber(r.rating) },
      { label: "Games", numeric: true, value: (r) => r.games },
      { label: "Wins", numeric: true, value: (r) => r.wins },
      { label: "", value: (r) => (r.provisional ? h("span", { class: "badge provisional" }, "provisional") : "") },
    ],
  });
}

function profileView(profile) {
  if (!profile) return empty("This player has no rated game yet.");
  return h(
    "div",
    null,
    summary(profile),
    h("section", { class: "panel", "aria-labelledby": "history-heading" }, h("h2", { id: "history-heading" }, "Rating by date"), historyChart(profile)),
    h("section", { "aria-labelledby": "roles-heading" }, h("h2", { id: "roles-heading" }, "Ratings per role"), rolesTable(profile)),
  );
}

function headToHead(records, params) {
  if (!records.length) return empty("No games against anybody in this league yet.");
  return table({
    testid: "head-to-head",
    caption: "Games at the same table; a win is being on the winning side.",
    rows: records,
    rowAttrs: (r) => ({ "data-opponent": r.opponentId }),
    columns: [
      { label: "Opponent", value: (r) => h("a", { href: href(`/player/${encodeURIComponent(r.opponentId)}`, scopeOf(params)) }, r.opponentName) },
      { label: "Games together", numeric: true, value: (r) => r.games },
      { label: "Won", numeric: true, value: (r) => r.wins },
      { label: "Their wins", numeric: true, value: (r) => r.opponentWins },
      { label: "Balance", numeric: true, value: (r) => (r.wins - r.opponentWins > 0 ? "+" : "") + (r.wins - r.opponentWins) },
    ],
  });
}

/** Their latest games (GET /members/{id}, public), with a link to all of them. */
function recentGames(answer, memberId) {
  const items = answer.games.items;
  if (!items.length) return empty("No games yet.");
  return h(
    "div",
    null,
    gamesTable(items, {
      accountId: current()?.account?.account_id ?? null,
      player: memberId,
      caption: `The latest games of ${answer.display_name}, newest first`,
      testid: "player-games",
    }),
    h("p", null, h("a", { href: href("/games", { player: memberId }), "data-testid": "all-games" }, `All games of ${answer.display_name}`)),
  );
}

export function renderPlayer(main, { args: [memberId], params, signal }) {
  const profile = h("div", null);
  const records = h("div", null);
  const games = h("div", null);
  const league = params.get("league");
  // the id until the name arrives (and for an id nobody knows): the name is what a person reads
  const name = h("span", { "data-testid": "player-name", "data-member": memberId }, memberId);
  const which = h("p", { "data-testid": "pool-words" }, poolWords(params));
  const path = `/player/${encodeURIComponent(memberId)}`;
  const h2h = h("h2", { id: "h2h-heading" }, "Head-to-head");
  mount(
    main,
    h(
      "header",
      { class: "page-head" },
      h("h1", null, "Player ", name),
      which,
      poolPicker(path, params, scopeOf(params), { signal, onClubName: (club) => mount(which, poolWords(params, club)) }),
    ),
    profile,
    h("section", { "aria-labelledby": "games-heading" }, h("h2", { id: "games-heading" }, "Latest games"), games),
    h(
      "section",
      { "aria-labelledby": "h2h-heading" },
      h2h,
      leagueSelectForm(path, params, scopeOf(params), { signal, onLeague: (found) => mount(h2h, `Head-to-head in ${found.name}`) }),
      records,
    ),
  );
  query("dashboard/Player", "DashboardMember", { memberId })
    .then((data) => mount(name, data.member.displayName))
    .catch(() => {});
  load(games, "their games", () => get(`/members/${encodeURIComponent(memberId)}`, { signal }), (answer) => recentGames(answer, memberId), signal);
  load(profile, "the rating profile", () => query("dashboard/Player", "DashboardPlayerRating", { memberId, pool: poolOf(params) }), (data) => profileView(data.playerRating), signal);
  if (!league) {
    mount(records, empty("Choose a league to see head-to-head records there."));
    return;
  }
  load(
    records,
    "the head-to-head records",
    () => query("dashboard/Player", "DashboardHeadToHead", { leagueId: league, memberId, seasonId: params.get("season") || null }),
    (data) => headToHead(data.leagueHeadToHead, params),
    signal,
  );
}
