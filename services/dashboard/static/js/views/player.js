// A player's page: rating and record, the rating history per role as a line chart (one line
// per role played), the ratings per role, and head-to-head records in a league.

import { formatNumber, h, mount, table, titleCase } from "../dom.js";
import { href } from "../location.js";
import { query } from "../graphql.js";
import { lineChart } from "../chart.js";
import { empty, load } from "../status.js";
import { scopeForm, scopeOf } from "../scope.js";

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

function series(line) {
  const key = line.role ? line.role.toLowerCase() : "overall";
  const label = line.role ? titleCase(line.role) : "Overall";
  return {
    key,
    label,
    points: line.points.map((p) => ({ x: p.gameNumber, y: p.rating, title: `${label}: ${formatNumber(p.rating)} after game ${p.gameId}` })),
  };
}

/** One line per role played, over the overall rating drawn thin as the context: a role's
 *  history has a point only for the games played in that role, so alone it can be one dot. */
function historyChart(profile) {
  const lines = profile.history.filter((line) => line.points.length > 0).map(series);
  if (!lines.some((line) => line.key !== "overall")) return empty("No rated game yet, so no history to draw.");
  return lineChart({
    series: [...lines.filter((l) => l.key === "overall"), ...lines.filter((l) => l.key !== "overall")],
    testid: "rating-chart",
    title: `Rating history per role of ${profile.memberId}`,
    xLabel: "Rated game number (all games of the league)",
    yLabel: "Rating",
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
    h("section", { class: "panel", "aria-labelledby": "history-heading" }, h("h2", { id: "history-heading" }, "Rating history per role"), historyChart(profile)),
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
      { label: "Opponent", value: (r) => h("a", { href: href(`/player/${encodeURIComponent(r.opponentId)}`, scopeOf(params)) }, r.opponentId) },
      { label: "Games together", numeric: true, value: (r) => r.games },
      { label: "Won", numeric: true, value: (r) => r.wins },
      { label: "Their wins", numeric: true, value: (r) => r.opponentWins },
      { label: "Balance", numeric: true, value: (r) => (r.wins - r.opponentWins > 0 ? "+" : "") + (r.wins - r.opponentWins) },
    ],
  });
}

export function renderPlayer(main, { args: [memberId], params, signal }) {
  const profile = h("div", null);
  const records = h("div", null);
  const league = params.get("league");
  mount(
    main,
    h("header", { class: "page-head" }, h("h1", null, "Player ", h("span", { "data-testid": "player-id" }, memberId))),
    profile,
    h(
      "section",
      { "aria-labelledby": "h2h-heading" },
      h("h2", { id: "h2h-heading" }, league ? `Head-to-head in league ${league}` : "Head-to-head"),
      scopeForm(`/player/${encodeURIComponent(memberId)}`, params, ["league", "season"], { required: ["league"] }),
      records,
    ),
  );
  load(profile, "the rating profile", () => query("dashboard/Player", "DashboardPlayerRating", { memberId }), (data) => profileView(data.playerRating), signal);
  if (!league) {
    mount(records, empty("Enter a league id to see head-to-head records there."));
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
