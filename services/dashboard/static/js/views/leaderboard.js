// Leaderboards: overall and one tab per role, with the provisional flag and game counts, of one
// game type (the dice game's ratings or the card game's: a player has one of each) in one pool:
// the global ratings or one club's (pool.js), which the page names and lets the reader pick. A
// role's tab lists only players with rated games in that role, with their count. A ruleset
// filter keeps the players with a rated game under one ruleset (ratings are one across the
// rulesets of a game type, so it narrows who is listed, not what the rating is).

import { formatNumber, h, mount, table, titleCase } from "../dom.js";
import { href } from "../location.js";
import { query } from "../graphql.js";
import { empty, load } from "../status.js";
import { scopeOf } from "../scope.js";
import { boardPoolOf, poolOf, poolPicker, poolWords } from "../pool.js";
import { leagueOrRefusal, refusedNotice, seasonName } from "../places.js";

const TABS = [
  { role: null, label: "Overall" },
  { role: "SHERIFF", label: "Sheriff" },
  { role: "DEPUTY", label: "Deputy" },
  { role: "OUTLAW", label: "Outlaw" },
  { role: "RENEGADE", label: "Renegade" },
];
const GAMES = [
  { game: "dice", type: "DICE", label: "Dice game" },
  { game: "cards", type: "CARDS", label: "Card game" },
];
const LIMIT = 100;
const MODULE_SETS = { OS: "Old Saloon", UA: "Undead or Alive" };

/** A ruleset as a person reads it: "dice" → "Base game", "dice OS1 OS3" → "Old Saloon OS1 OS3". */
export function rulesetWords(ruleset) {
  const [type, ...parts] = ruleset.split(" ");
  if (type === "cards") {
    return parts.includes("eight_players") ? "The card game, 8 players (two Renegades)" : "The card game";
  }
  if (!parts.length) return "Base game";
  const groups = new Map();
  for (const part of parts) {
    const name = MODULE_SETS[part.slice(0, 2)] ?? "modules";
    groups.set(name, [...(groups.get(name) ?? []), part]);
  }
  return [...groups].map(([name, modules]) => `${name} ${modules.join(" ")}`).join(" + ");
}

/** The params every link of the page keeps (a tab keeps the game and ruleset; a game switch drops the ruleset). */
function keep(params) {
  return { ...scopeOf(params), game: params.get("game"), ruleset: params.get("ruleset"), role: params.get("role") };
}

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
            href: href("/leaderboard", { ...keep(params), role: tab.role?.toLowerCase() }),
            "aria-selected": String(tab.role === active),
            "data-testid": `tab-${tab.label.toLowerCase()}`,
          },
          tab.label,
        ),
      ),
    ),
  );
}

function gameSwitch(game, params) {
  return h(
    "ul",
    { class: "switch", "aria-label": "Which game's ratings", "data-testid": "game-switch" },
    GAMES.map((g) =>
      h(
        "li",
        null,
        h(
          "a",
          {
            href: href("/leaderboard", { ...keep(params), game: g.game === "dice" ? null : g.game, ruleset: null }),
            "aria-current": g.game === game.game ? "page" : null,
            "data-testid": `game-${g.game}`,
          },
          g.label,
        ),
      ),
    ),
  );
}

/** The ruleset filter: the rulesets the pool has rated games of, by name, with their counts. */
function rulesetPicker(params, rulesets) {
  const shown = params.get("ruleset") ?? "";
  const options = rulesets.some((r) => r.ruleset === shown) || !shown ? rulesets : [{ ruleset: shown, games: 0 }, ...rulesets];
  const select = h(
    "select",
    { id: "pick-ruleset", name: "ruleset", "data-testid": "ruleset" },
    h("option", { value: "", selected: !shown }, "Every ruleset"),
    options.map((r) => h("option", { value: r.ruleset, selected: r.ruleset === shown }, `${rulesetWords(r.ruleset)} (${r.games} game${r.games === 1 ? "" : "s"})`)),
  );
  return h(
    "form",
    {
      class: "inline scope",
      role: "search",
      "aria-label": "Which ruleset",
      onsubmit: (event) => {
        event.preventDefault();
        window.location.hash = href("/leaderboard", { ...keep(params), ruleset: select.value || null });
      },
    },
    h("label", { for: "pick-ruleset" }, "Played under ", select),
    h("button", { type: "submit", class: "button", "data-testid": "ruleset-pick" }, "Filter"),
  );
}

function provisional(row) {
  return row.provisional
    ? h("span", { class: "badge provisional", "data-testid": "provisional", title: "Too few rated games to be settled" }, "provisional")
    : null;
}

function board(rows, role, params) {
  if (!rows.length) return empty(role ? `Nobody has a rated game as ${titleCase(role)} here yet.` : "No rated games here yet.");
  const player = (row) =>
    h("a", { href: href(`/player/${encodeURIComponent(row.memberId)}`, scopeOf(params)) }, row.displayName);
  const columns = [
    { label: "Rank", numeric: true, value: (row) => row.rank },
    { label: "Player", value: (row) => [player(row), " ", provisional(row)] },
    { label: role ? `${titleCase(role)} rating` : "Rating", numeric: true, value: (row) => formatNumber(row.rating) },
    role ? { label: "Overall", numeric: true, value: (row) => formatNumber(row.overallRating) } : null,
    { label: role ? `Games as ${titleCase(role)}` : "Games", numeric: true, value: (row) => row.games },
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

/** Who is listed, in words: everyone rated, or the members of a league (season) or ruleset. */
function narrowedWords(league, params, role) {
  const parts = [];
  const who = role ? `Players with a rated game as ${titleCase(role)}` : "Players with a rated game";
  if (league) parts.push(params.get("season") ? `${seasonName(league, params.get("season"))} of ${league.name}` : league.name);
  if (params.get("ruleset")) parts.push(`under ${rulesetWords(params.get("ruleset"))}`);
  const where = parts.length ? ` in ${parts.join(", ")}` : "";
  return `${who}${where}; each listed by their one rating of this game${role ? " in the role" : ""}.`;
}

export function renderLeaderboard(main, { params, signal }) {
  const requested = params.get("role")?.toUpperCase() ?? null;
  const role = TABS.some((t) => t.role === requested) ? requested : null;
  const game = GAMES.find((g) => g.game === params.get("game")) ?? GAMES[0];
  const leagueId = params.get("league");
  const title = h("h1", { "data-testid": "board-title" }, `Leaderboards · ${game.label}`);
  const which = h("p", { "data-testid": "pool-words" }, poolWords(params));
  const narrowed = h("p", { class: "muted", "data-testid": "narrowed" }, narrowedWords(null, params, role));
  const filters = h("div", null);
  const body = h("div", { role: "tabpanel" });
  const named = (clubName) => {
    mount(which, poolWords(params, clubName));
    mount(title, `Leaderboards · ${game.label} · ${clubName ? `club ${clubName}` : "global"}`);
  };
  mount(
    main,
    h(
      "header",
      { class: "page-head" },
      title,
      which,
      narrowed,
      poolPicker("/leaderboard", params, keep(params), { signal, onClubName: named }),
      filters,
    ),
    gameSwitch(game, params),
    tabs(role, params),
    body,
  );
  if (!params.get("club") && !leagueId) named(null);
  load(
    body,
    "the leaderboard",
    async () => {
      const found = leagueId ? await leagueOrRefusal(leagueId) : {};
      if (found.refused) return found;
      // a league's board shows its club's pool (its games are rated there): named once known
      const pool = found.league && !params.get("club") ? `club:${found.league.club.clubId}` : poolOf(params);
      const [data, rulesets] = await Promise.all([
        query("dashboard/Leaderboard", "DashboardLeaderboard", {
          role,
          leagueId,
          seasonId: params.get("season"),
          ruleset: params.get("ruleset"),
          gameType: game.type,
          limit: LIMIT,
          pool: boardPoolOf(params),
        }),
        query("dashboard/Leaderboard", "DashboardRatingRulesets", { gameType: game.type, pool }).catch(() => null),
      ]);
      return { league: found.league ?? null, rows: data.ratingLeaderboard, rulesets: rulesets?.ratingRulesets ?? [] };
    },
    ({ refused, league, rows, rulesets }) => {
      if (refused) return refusedNotice(refused, "/leaderboard", "The global leaderboards");
      // the league's club is named by the league itself (a reader outside the club knows it so)
      if (league && (!params.get("club") || params.get("club") === league.club.clubId)) named(league.club.name);
      mount(narrowed, narrowedWords(league, params, role));
      mount(filters, rulesetPicker(params, rulesets));
      return board(rows, role, params);
    },
    signal,
  );
}
