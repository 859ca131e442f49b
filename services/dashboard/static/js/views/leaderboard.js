// Leaderboards: overall and one tab per role, with the provisional flag and game counts, of one
// pool: the global ratings or one club's (pool.js), which the page names and lets the reader pick.

import { formatNumber, h, mount, table, titleCase } from "../dom.js";
import { href } from "../location.js";
import { query } from "../graphql.js";
import { empty, load } from "../status.js";
import { scopeOf } from "../scope.js";
import { boardPoolOf, poolPicker, poolWords } from "../pool.js";

const TABS = [
  { role: null, label: "Overall" },
  { role: "SHERIFF", label: "Sheriff" },
  { role: "DEPUTY", label: "Deputy" },
  { role: "OUTLAW", label: "Outlaw" },
  { role: "RENEGADE", label: "Renegade" },
];
const LIMIT = 100;

function tabs(active, params) {
  return h(
    "ul",
    { class: "tabs", role: "tablist", "aria-label": "Leaderboard" },
    TABS.map((tab) =>
      h(
        "li",
        { role: "presentation" },
        h(
          "a",
          {
            role: "tab",
            href: href("/leaderboard", { ...scopeOf(params), role: tab.role?.toLowerCase() }),
            "aria-selected": String(tab.role === active),
            "data-testid": `tab-${tab.label.toLowerCase()}`,
          },
          tab.label,
        ),
      ),
    ),
  );
}

function provisional(row) {
  return row.provisional
    ? h("span", { class: "badge provisional", "data-testid": "provisional", title: "Too few rated games to be settled" }, "provisional")
    : null;
}

function board(rows, role, params) {
  if (!rows.length) return empty(role ? `Nobody has a rated game as ${titleCase(role)} yet.` : "No rated games yet.");
  const player = (row) =>
    h("a", { href: href(`/player/${encodeURIComponent(row.memberId)}`, scopeOf(params)) }, row.displayName);
  const columns = [
    { label: "Rank", numeric: true, value: (row) => row.rank },
    { label: "Player", value: (row) => [player(row), " ", provisional(row)] },
    { label: role ? `${titleCase(role)} rating` : "Rating", numeric: true, value: (row) => formatNumber(row.rating) },
    role ? { label: "Overall", numeric: true, value: (row) => formatNumber(row.overallRating) } : null,
    { label: "Games", numeric: true, value: (row) => row.games },
    { label: "Wins", numeric: true, value: (row) => row.wins },
    { label: "Win rate", numeric: true, value: (row) => (row.games ? `${Math.round((100 * row.wins) / row.games)}%` : "–") },
  ].filter(Boolean);
  return table({
    testid: "leaderboard",
    caption: "Provisional: fewer rated games than the model needs to settle a rating (overall, or in the role).",
    columns,
    rows,
    rowAttrs: (row) => ({ "data-member": row.memberId }),
  });
}

export function renderLeaderboard(main, { params, signal }) {
  const requested = params.get("role")?.toUpperCase() ?? null;
  const role = TABS.some((t) => t.role === requested) ? requested : null;
  const body = h("div", { role: "tabpanel" });
  const league = params.get("league");
  const which = h("p", { "data-testid": "pool-words" }, poolWords(params));
  const keep = { ...scopeOf(params), role: role?.toLowerCase() };
  mount(
    main,
    h(
      "header",
      { class: "page-head" },
      h("h1", null, "Leaderboards"),
      which,
      h("p", { class: "muted" }, league ? `Members with a rated game in league ${league}.` : "Every rated player; ratings are per role and overall."),
      poolPicker("/leaderboard", params, keep, { signal, onClubName: (name) => mount(which, poolWords(params, name)) }),
    ),
    tabs(role, params),
    body,
  );
  load(
    body,
    "the leaderboard",
    () =>
      query("dashboard/Leaderboard", "DashboardLeaderboard", {
        role,
        leagueId: league,
        seasonId: params.get("season"),
        limit: LIMIT,
        pool: boardPoolOf(params),
      }),
    (data) => board(data.ratingLeaderboard, role, params),
    signal,
  );
}
