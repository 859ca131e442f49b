// A league's scheduled table game, before and as it starts (#/league/<id>/start?tournament=…
// &round=…&table=…): when and how the table plays (the schedule's date and time, rules and
// decision timer), its players in the seating's order with the rotation's Sheriff, and, for
// whoever may start it (its scorekeeper, a referee, an organiser or an admin of the club; the
// API decides), "Start this game": either the seats as dealt at the physical table (each
// player's role and character, clockwise), or dealt by the server, each player then reading
// his own role on his own seat page. One POST to …/tables/{table}/game/start; then the
// keep-score page opens on the game it created.

import { get, post } from "../../api.js";
import { h, mount, titleCase } from "../../dom.js";
import { href } from "../../location.js";
import { holds, keepsScoreOf, profile } from "../../me.js";
import { rulesetWords } from "../../ruleset-picker.js";
import { current } from "../../session.js";
import { empty, load } from "../../status.js";
import { actionForm, select } from "./forms.js";

const enc = encodeURIComponent;
const ROLES = ["sheriff", "deputy", "outlaw", "renegade"];
const CHARACTERS = [
  "bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones", "jourdonnais",
  "kit_carlson", "lucky_duke", "paul_regret", "pedro_ramirez", "rose_doolan", "sid_ketchum",
  "slab_the_killer", "suzy_lafayette", "vulture_sam", "willy_the_kid",
];
const words = (id) => titleCase(id.replaceAll("_", " "));

/** The schedule's date and time in the reader's own time zone, in words. */
export function whenWords(iso) {
  if (!iso) return "No date set";
  const at = new Date(iso);
  return at.toLocaleString(undefined, { weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** The decision timer in words. */
export function timerWords(seconds) {
  if (!seconds) return "No decision timer";
  return seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? "" : "s"} per decision` : `${seconds} seconds per decision`;
}

function details(tableRow, game, gameType) {
  return h(
    "dl",
    { class: "facts", "data-testid": "schedule-details" },
    h("dt", null, "When"),
    h("dd", { "data-testid": "schedule-when" }, whenWords(game.starts_at)),
    h("dt", null, "Where"),
    h("dd", null, game.mode === "table" ? "At a physical table, its dice entered by the scorekeeper" : "Online"),
    h("dt", null, "Rules"),
    h("dd", { "data-testid": "schedule-rules" }, game.ruleset ? rulesetWords(game.ruleset) : rulesetWords(gameType === "cards" ? "cards" : "dice")),
    h("dt", null, "Decision timer"),
    h("dd", { "data-testid": "schedule-timer" }, timerWords(game.decision_timeout_seconds)),
    h("dt", null, "Players"),
    h(
      "dd",
      null,
      h(
        "ol",
        { class: "seat-list", "data-testid": "schedule-players" },
        tableRow.members.map((m) =>
          h("li", { "data-member": m.member_id }, m.display_name, tableRow.sheriff?.member_id === m.member_id ? h("span", { class: "role role-sheriff" }, " ★ Sheriff") : null),
        ),
      ),
    ),
  );
}

/** "Start this game": the seats entered as dealt at the table, or dealt by the server. */
function startForm(path, tableRow, game) {
  const how = select(
    "Who deals the roles and characters?",
    [
      ["table", "They were dealt at the table: I enter each seat"],
      ["server", "The server deals them: each player reads his own role on his phone"],
    ],
    { "data-testid": "start-deal" },
  );
  const people = tableRow.members.map((m) => [m.member_id, m.display_name]);
  // one row per seat, clockwise from the first: who sits there, his role and his character
  const seats = tableRow.members.map((m, i) => {
    const who = select(`Seat ${i + 1}: player`, people, { "data-testid": "start-player", "data-seat": i + 1 });
    const role = select(`Seat ${i + 1}: role`, ROLES.map((r) => [r, titleCase(r)]), { "data-testid": "start-role", "data-seat": i + 1 });
    const character = select(`Seat ${i + 1}: character`, CHARACTERS.map((c) => [c, words(c)]), { "data-testid": "start-character", "data-seat": i + 1 });
    who.control.value = m.member_id;
    role.control.value = tableRow.sheriff?.member_id === m.member_id ? "sheriff" : "outlaw";
    character.control.value = CHARACTERS[i % CHARACTERS.length];
    return { who, role, character };
  });
  const seatRows = h(
    "fieldset",
    { class: "start-seats", "data-testid": "start-seats" },
    h("legend", null, "The seats, clockwise, as dealt at the table"),
    seats.map((s, i) =>
      h("div", { class: "sheet-seat", "data-seat": i + 1 }, h("strong", null, `Seat ${i + 1}`), " ", s.who.label, s.who.control, " ", s.role.label, s.role.control, " ", s.character.label, s.character.control),
    ),
  );
  how.control.addEventListener("change", () => {
    seatRows.hidden = how.control.value !== "table";
  });
  const form = actionForm({
    label: "Start this game",
    testid: "start-game",
    fields: [how],
    submit: "Start this game",
    send: (id) => {
      const body = { command_id: id };
      if (how.control.value === "table") {
        body.seats = seats.map((s) => ({ member_id: s.who.control.value, role: s.role.control.value, character: s.character.control.value }));
      }
      return post(path, body);
    },
    done: (answer) => {
      window.location.hash = `#/game/${enc(answer.game_id)}/table`;
      return `Game ${answer.game_id} has started.`;
    },
  });
  form.insertBefore(seatRows, form.querySelector("button[type=submit]"));
  return h("section", { class: "panel", "aria-labelledby": "start-title" }, h("h2", { id: "start-title" }, "Start this game"), form);
}

export function renderStartGame(main, { args, params, signal }) {
  const [leagueId] = args;
  const tournamentId = params.get("tournament");
  const round = Number(params.get("round"));
  const table = Number(params.get("table"));
  if (!current()) {
    window.location.hash = href("/signin", { next: `/league/${leagueId}/start?tournament=${tournamentId}&round=${round}&table=${table}` });
    return;
  }
  const body = h("div");
  mount(main, body);
  load(
    body,
    "the scheduled game",
    async () => {
      const loaded = await profile({ signal });
      const league = await get(`/leagues/${enc(leagueId)}`, { signal });
      const rounds = (await get(`/leagues/${enc(leagueId)}/tournaments/${enc(tournamentId)}/rounds?limit=100`, { signal })).items;
      const tableRow = rounds.find((r) => r.round === round)?.tables.find((t) => t.table === table) ?? null;
      return { loaded, league, tableRow };
    },
    ({ loaded, league, tableRow }) => {
      const head = h(
        "header",
        { class: "page-head" },
        h("h1", null, `Table ${table}, round ${round}`),
        h("p", { class: "muted" }, h("a", { href: `#/league/${enc(leagueId)}` }, league.name), ` · tournament ${tournamentId}`),
      );
      if (!tableRow) return h("div", null, head, empty(`Round ${round} has no table ${table} in this tournament.`));
      const game = tableRow.game;
      if (!game) return h("div", null, head, empty("No game is scheduled at this table yet."));
      const clubId = league.club.club_id;
      const path = `/leagues/${enc(leagueId)}/tournaments/${enc(tournamentId)}/rounds/${round}/tables/${table}/game/start`;
      const mayStart = keepsScoreOf(loaded, game.game_id) || holds(loaded, clubId, "admin", "organiser", "referee");
      let next;
      if (game.status !== null) {
        next = h(
          "p",
          { "data-testid": "game-started" },
          `Game ${game.game_id} has started. `,
          mayStart ? h("a", { href: `#/game/${enc(game.game_id)}/table`, class: "button" }, "Keep score") : null,
          tableRow.members.some((m) => m.member_id === loaded.account.account_id)
            ? h("a", { href: `#/game/${enc(game.game_id)}/play`, class: "button" }, "Your seat")
            : null,
          " ",
          h("a", { href: `#/game/${enc(game.game_id)}/live` }, "Watch"),
        );
      } else if (game.mode !== "table") {
        next = empty("An online game is created when it is scheduled.");
      } else if (mayStart && !game.voided) {
        next = startForm(path, tableRow, game);
      } else {
        next = empty("Its scorekeeper starts it when the table sits down.");
      }
      return h("div", { class: "organise", "data-testid": "scheduled-game" }, head, h("section", { class: "panel" }, details(tableRow, game, league.game_type)), next);
    },
    signal,
  );
}
