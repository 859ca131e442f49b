// A league's page: its seasons (entrants and standings), tournaments and rounds (tables, the
// Sheriff, each table's game with its play, score, watch and replay links, forfeits, byes), for
// every member of its club. Its admins and organisers also get a form for each league action of
// the API (docs/league.md, "Running a league through the API"): open a season, enrol entrants,
// open a tournament, seat a round, schedule a table's game, record a forfeit, close a round or
// a season; referees too may void a game. The API decides each; a refusal shows its words.

import { get, post } from "../../api.js";
import { h, mount, table, titleCase } from "../../dom.js";
import { query } from "../../graphql.js";
import { href } from "../../location.js";
import { holds, keepsScoreOf, mayOrganise, profile } from "../../me.js";
import { current } from "../../session.js";
import { empty, failure, load } from "../../status.js";
import { actionForm, disclosure, doneNotice, labelled, select, textInput, VISIBILITY_CHOICES } from "./forms.js";
import { resultSheetForm } from "./result-sheet.js";
import { timerWords, whenWords } from "./start-game.js";
import { rulesetPicker, rulesetWords } from "../../ruleset-picker.js";
import { seatsPanel } from "./seats.js";

const enc = encodeURIComponent;
const READY_TRIES = 40;
const READY_WAIT_MS = 250;

async function fetchLeague(leagueId, signal) {
  const league = await get(`/leagues/${enc(leagueId)}`, { signal });
  const [rounds, standings] = await Promise.all([
    Promise.all(
      league.tournaments.map((t) =>
        get(`/leagues/${enc(leagueId)}/tournaments/${enc(t.tournament_id)}/rounds?limit=100`, { signal }).then((page) => page.items),
      ),
    ),
    Promise.all(
      league.seasons.map((s) =>
        query("dashboard/Standings", "DashboardStandings", { leagueId, seasonId: s.season_id, tournamentId: null }).then(
          (data) => data.leagueStandings?.lines ?? [],
        ),
      ),
    ),
  ]);
  return {
    league,
    rounds: Object.fromEntries(league.tournaments.map((t, i) => [t.tournament_id, rounds[i]])),
    standings: Object.fromEntries(league.seasons.map((s, i) => [s.season_id, standings[i]])),
  };
}

// --- what everyone sees ---------------------------------------------------------------------

function gameLinks(game, accountId, members, scheduled) {
  if (!game) return h("span", { class: "muted" }, "not scheduled");
  const id = enc(game.game_id);
  const links = [];
  const open = game.status === null || game.status === "lobby" || game.status === "ongoing";
  const seated = members.some((m) => m.member_id === accountId);
  if (open && !game.voided) {
    // a table game not created yet has no keep-score page: its schedule page starts it
    if (game.mode === "table" && game.status === null) links.push(h("a", { href: scheduled, class: "button", "data-testid": "open-schedule" }, "Keep score"));
    else if (game.mode === "table") {
      links.push(h("a", { href: `#/game/${id}/table`, class: "button" }, "Keep score"));
      if (seated) links.push(h("a", { href: `#/game/${id}/play`, class: "button" }, "Your seat"));
    } else if (seated) links.push(h("a", { href: `#/game/${id}/play`, class: "button" }, "Play"));
    if (game.status) links.push(h("a", { href: `#/game/${id}/live` }, "Watch"));
  } else if (game.replayable === false) {
    // a card game played on cardboard: known from its result sheet, with no record to replay
  } else if (game.status) {
    links.push(h("a", { href: `#/game/${id}/replay` }, "Replay"));
    if (game.mode === "online" && game.status === "finished") links.push(h("a", { href: `#/game/${id}/verify` }, "Verify"));
  }
  const state = game.voided ? "voided" : game.status ?? "scheduled";
  return h(
    "div",
    { class: "table-game", "data-testid": "table-game", "data-game": game.game_id, "data-state": state },
    h("code", null, game.game_id),
    " ",
    h("span", { class: "badge", "data-testid": "game-state" }, [titleCase(game.mode ?? "game"), titleCase(state)].join(" · ")),
    game.winning_side ? h("span", { class: "badge", "data-testid": "winning-side" }, `${titleCase(game.winning_side)} won`) : null,
    game.replayable === false ? h("span", { class: "badge", "data-testid": "not-replayable" }, game.shown_as ?? "result sheet — not replayable") : null,
    game.starts_at || game.ruleset || game.decision_timeout_seconds
      ? h(
          "p",
          { class: "muted", "data-testid": "game-schedule" },
          [game.starts_at ? whenWords(game.starts_at) : null, game.ruleset ? rulesetWords(game.ruleset) : null, game.decision_timeout_seconds ? timerWords(game.decision_timeout_seconds) : null]
            .filter(Boolean)
            .join(" · "),
          " ",
          h("a", { href: scheduled }, "Details"),
        )
      : null,
    links.length ? h("span", { class: "actions" }, " ", ...links) : null,
  );
}

function memberList(tableRow) {
  return h(
    "ol",
    { class: "seat-list" },
    tableRow.members.map((m) =>
      h(
        "li",
        null,
        h("a", { href: `#/player/${enc(m.member_id)}` }, m.display_name),
        tableRow.sheriff?.member_id === m.member_id ? h("span", { class: "role role-sheriff", title: "Sheriff" }, "★ Sheriff") : null,
      ),
    ),
  );
}

function standingsOf(lines, leagueId, seasonId) {
  if (!lines.length) return empty("Nobody is enrolled yet.");
  // a phone scrolls the table sideways rather than cutting its last columns
  return h("div", { class: "table-scroll" }, table({
    caption: h("span", null, "Season standings. ", h("a", { href: href("/standings", { league: leagueId, season: seasonId }) }, "Every column and tie-break")),
    testid: "season-standings",
    rows: lines,
    rowAttrs: (l) => ({ "data-member": l.memberId }),
    columns: [
      { label: "Rank", numeric: true, value: (l) => l.rank },
      { label: "Player", value: (l) => h("a", { href: `#/player/${enc(l.memberId)}` }, l.displayName) },
      { label: "Points", numeric: true, value: (l) => h("strong", null, l.points) },
      { label: "Games", numeric: true, value: (l) => l.games },
      { label: "Wins", numeric: true, value: (l) => l.wins },
      { label: "Forfeits", numeric: true, value: (l) => l.forfeits },
    ],
  }));
}

// --- the organiser's forms ------------------------------------------------------------------

function closeButton({ label, testid, send, done }) {
  return actionForm({ label, testid, submit: label, send, done, className: "inline" });
}

const TIMERS = [["", "No decision timer"], ["30", "30 seconds"], ["60", "1 minute"], ["120", "2 minutes"], ["300", "5 minutes"]];

function scheduleForm(ctx, base, tableRow) {
  const when = labelled("Date and time", (id) => h("input", { id, type: "datetime-local", "data-testid": "schedule-when" }));
  const mode = select("Mode", [["online", "Online: each player plays from their own browser"], ["table", "At a physical table, with a scorekeeper"]], { "data-testid": "schedule-mode" });
  // nobody seated at the table keeps its score (he would see every role): the API says so too
  const seated = new Set(tableRow.members.map((m) => m.member_id));
  const keeper = select("Scorekeeper", ctx.clubMembers.filter((m) => !seated.has(m.member_id)).map((m) => [m.member_id, m.display_name]), { "data-testid": "schedule-keeper" });
  const keeperRow = h("div", { class: "field", hidden: true }, keeper.label, keeper.control);
  const rules = rulesetPicker(ctx.cards ? "cards" : "dice");
  const timer = select("Decision timer", TIMERS, { "data-testid": "schedule-timer" });
  mode.control.addEventListener("change", () => {
    keeperRow.hidden = mode.control.value !== "table";
  });
  const form = actionForm({
    label: `Schedule table ${tableRow.table}'s game`,
    testid: "schedule-game",
    fields: [when, mode],
    submit: "Schedule the game",
    className: "stacked",
    send: (id) => {
      const body = { mode: mode.control.value, command_id: id };
      // nothing ticked: the league's own game (a card table of eight: the two-Renegade set)
      if (rules.picked().length) body.ruleset = rules.value();
      if (mode.control.value === "table") body.scorekeeper = keeper.control.value;
      // the local date and time typed, sent as the instant it names (with its UTC offset)
      if (when.control.value) body.starts_at = new Date(when.control.value).toISOString();
      if (timer.control.value) body.options = { decision_timeout_seconds: Number(timer.control.value) };
      return post(`${base}/tables/${tableRow.table}/game`, body);
    },
    done: (answer) =>
      ctx.refreshUntil((data) => {
        const game = tableOf(data, answer.tournament_id, answer.round, answer.table)?.game;
        return game && (!answer.game_created || game.status !== null); // an online game exists at once
      }, `Table ${answer.table}'s game ${answer.game_id} is scheduled.`),
  });
  const submit = form.querySelector("button[type=submit]");
  form.insertBefore(keeperRow, submit);
  form.insertBefore(rules.node, submit);
  form.insertBefore(h("div", { class: "field" }, timer.label, timer.control), submit);
  return disclosure(`Schedule table ${tableRow.table}'s game`, form);
}

function forfeitForm(ctx, base, tableRow) {
  const who = select("Member", tableRow.members.map((m) => [m.member_id, m.display_name]));
  const kind = select("Kind", [["forfeit", "Forfeit"], ["no-show", "No-show"]]);
  const reason = textInput("Reason (optional)", { maxlength: 500 });
  return disclosure(
    `Record a forfeit at table ${tableRow.table}`,
    actionForm({
      label: `Record a forfeit at table ${tableRow.table}`,
      testid: "record-forfeit",
      fields: [who, kind, reason],
      submit: "Record",
      send: (id) =>
        post(`${base}/forfeits`, { table: tableRow.table, member_id: who.control.value, kind: kind.control.value, reason: reason.control.value, command_id: id }),
      done: (answer) =>
        ctx.refreshUntil(
          (data) => tableOf(data, answer.tournament_id, answer.round, answer.table)?.forfeits.some((f) => f.member.member_id === answer.member.member_id),
          `${answer.member.display_name}: ${answer.kind} recorded.`,
        ),
    }),
  );
}

function voidForm(ctx, game) {
  const reason = textInput("Reason", { required: true, maxlength: 500 });
  return disclosure(
    "Void this game",
    actionForm({
      label: `Void game ${game.game_id}`,
      testid: "void-game",
      fields: [reason],
      submit: "Void the game",
      send: (id) => post(`/leagues/${enc(ctx.leagueId)}/games/${enc(game.game_id)}/void`, { reason: reason.control.value, command_id: id }),
      done: (answer) =>
        ctx.refreshUntil(
          (data) => Object.values(data.rounds).flat().some((r) => r.tables.some((t) => t.game?.game_id === answer.game_id && t.game.voided)),
          `Game ${answer.game_id} is void.`,
        ),
    }),
  );
}

function enrolForm(ctx, season, lines) {
  const enrolled = new Set(lines.map((l) => l.memberId));
  const candidates = ctx.clubMembers.filter((m) => !enrolled.has(m.member_id));
  if (!candidates.length) return h("p", { class: "muted" }, "Every club member is enrolled.");
  const boxes = candidates.map((m) =>
    labelled(m.display_name, (id) => h("input", { id, type: "checkbox", value: m.member_id, "data-name": m.display_name })),
  );
  const all = h("button", { type: "button", class: "button link" }, "Select all");
  all.addEventListener("click", () => boxes.forEach((b) => (b.control.checked = true)));
  const form = actionForm({
    label: `Enrol entrants in ${season.name}`,
    testid: "enrol-entrants",
    submit: "Enrol the selected members",
    send: (id) =>
      post(`/leagues/${enc(ctx.leagueId)}/seasons/${enc(season.season_id)}/entrants`, {
        member_ids: boxes.filter((b) => b.control.checked).map((b) => b.control.value),
        command_id: id,
      }),
    done: (answer) =>
      ctx.refreshUntil(
        (data) => {
          // both read models: the standings (the entrants' lines) and the directory (the count)
          const lines = data.standings[answer.season_id] ?? [];
          const listed = data.league.seasons.find((s) => s.season_id === answer.season_id)?.entrants;
          return listed === lines.length && answer.enrolled.every((p) => lines.some((l) => l.memberId === p.member_id));
        },
        `Enrolled: ${answer.enrolled.map((p) => p.display_name).join(", ")}.`,
      ),
  });
  form.insertBefore(
    h("fieldset", { class: "checks" }, h("legend", null, "Club members not yet enrolled"), all, boxes.map((b) => h("div", { class: "check" }, b.control, b.label))),
    form.querySelector("button[type=submit]"),
  );
  return disclosure(`Enrol entrants in ${season.name}`, form);
}

function tournamentForm(ctx, season) {
  const name = textInput("Tournament name", { required: true, maxlength: 100 });
  return disclosure(
    `Open a tournament in ${season.name}`,
    actionForm({
      label: `Open a tournament in ${season.name}`,
      testid: "open-tournament",
      fields: [name],
      submit: "Open the tournament",
      send: (id) => post(`/leagues/${enc(ctx.leagueId)}/seasons/${enc(season.season_id)}/tournaments`, { name: name.control.value, command_id: id }),
      done: (answer) =>
        ctx.refreshUntil((data) => data.league.tournaments.some((t) => t.tournament_id === answer.tournament_id), `Tournament ${answer.name} is open.`),
    }),
  );
}

/** The organiser's choice of who may read the league: its club's members, or anyone. */
function visibilityForm(ctx) {
  const shown = VISIBILITY_CHOICES.find(([value]) => value === ctx.data.league.visibility)?.[1] ?? VISIBILITY_CHOICES[0][1];
  const choice = select("Who may see its standings, rounds and tables", VISIBILITY_CHOICES, { "data-testid": "league-visibility" });
  choice.control.value = ctx.data.league.visibility ?? "members";
  return disclosure(
    `Who may see this league: ${shown.toLowerCase()}`,
    actionForm({
      label: "Who may see this league",
      testid: "set-visibility",
      fields: [choice],
      submit: "Save",
      send: (id) => post(`/leagues/${enc(ctx.leagueId)}/visibility`, { visibility: choice.control.value, command_id: id }),
      done: (answer) => {
        const said = VISIBILITY_CHOICES.find(([value]) => value === answer.visibility)[1];
        return ctx.refreshUntil((data) => data.league.visibility === answer.visibility, `Who may see this league: ${said.toLowerCase()}.`);
      },
    }),
  );
}

function seasonForm(ctx) {
  const name = textInput("Season name", { required: true, maxlength: 100 });
  return disclosure(
    "Open a season",
    actionForm({
      label: "Open a season",
      testid: "open-season",
      fields: [name],
      submit: "Open the season",
      send: (id) => post(`/leagues/${enc(ctx.leagueId)}/seasons`, { name: name.control.value, command_id: id }),
      done: (answer) =>
        ctx.refreshUntil(
          (data) => data.league.seasons.some((s) => s.season_id === answer.season_id) && answer.season_id in data.standings,
          `Season ${answer.name} is open.`,
        ),
    }),
  );
}

/** A card league's table game scheduled for cardboard play, with no result yet, for whoever
 * may enter its sheet (the API decides: organiser, admin, referee or its scorekeeper). */
function sheetWanted(ctx, game) {
  return Boolean(
    ctx.cards && game && game.mode === "table" && game.status === null && !game.voided &&
      (ctx.voids || keepsScoreOf(ctx.loaded, game.game_id)),
  );
}

function sheetForm(ctx, tournament, round, base, tableRow, game) {
  // ready when the directory shows the sheet and the season's standings count the table's game
  const seated = new Set(tableRow.members.map((m) => m.member_id));
  const played = (data) =>
    (data.standings[round.season_id ?? tournament.season_id] ?? []).filter((l) => seated.has(l.memberId)).reduce((n, l) => n + l.games, 0);
  const before = played(ctx.data);
  return resultSheetForm(base, tableRow, game, (answer) =>
    ctx.refreshUntil(
      (data) =>
        tableOf(data, tournament.tournament_id, round.round, tableRow.table)?.game?.replayable === false &&
        played(data) >= before + seated.size,
      `Table ${answer.table}'s result sheet is recorded (${answer.shown_as}).`,
    ),
  );
}

function tableOf(data, tournamentId, round, number) {
  return (data.rounds[tournamentId] ?? []).find((r) => r.round === round)?.tables.find((t) => t.table === number);
}

// --- the page's parts -----------------------------------------------------------------------

function tableCard(ctx, tournament, round, tableRow) {
  const base = `/leagues/${enc(ctx.leagueId)}/tournaments/${enc(tournament.tournament_id)}/rounds/${round.round}`;
  const open = !round.closed;
  const game = tableRow.game;
  return h(
    "article",
    { class: "round-table", "data-testid": "round-table", "data-table": tableRow.table },
    h("h5", null, `Table ${tableRow.table}`),
    memberList(tableRow),
    gameLinks(game, ctx.accountId, tableRow.members, href(`/league/${enc(ctx.leagueId)}/start`, { tournament: tournament.tournament_id, round: round.round, table: tableRow.table })),
    tableRow.forfeits.length
      ? h(
          "ul",
          { class: "forfeits", "data-testid": "forfeits" },
          tableRow.forfeits.map((f) => h("li", null, `${f.member.display_name}: ${f.kind}`, f.reason ? ` (${f.reason})` : "")),
        )
      : null,
    ctx.organises && open && !game ? scheduleForm(ctx, base, tableRow) : null,
    ctx.organises && open ? forfeitForm(ctx, base, tableRow) : null,
    ctx.voids && game && !game.voided && game.mode === "online" && game.status === "ongoing" ? seatsPanel(ctx, game) : null,
    ctx.voids && game && !game.voided ? voidForm(ctx, game) : null,
    sheetWanted(ctx, game) ? sheetForm(ctx, tournament, round, base, tableRow, game) : null,
  );
}

function roundBlock(ctx, tournament, round) {
  const base = `/leagues/${enc(ctx.leagueId)}/tournaments/${enc(tournament.tournament_id)}/rounds/${round.round}`;
  return h(
    "section",
    { class: "round", "data-testid": "round", "data-round": round.round },
    h("h4", null, `Round ${round.round}`, round.closed ? h("span", { class: "badge", "data-testid": "round-closed" }, "closed") : null),
    round.byes.length ? h("p", { class: "muted" }, `Byes: ${round.byes.map((p) => p.display_name).join(", ")}`) : null,
    h("div", { class: "round-tables" }, round.tables.map((t) => tableCard(ctx, tournament, round, t))),
    ctx.organises && !round.closed
      ? closeButton({
          label: `Close round ${round.round}`,
          testid: "close-round",
          send: (id) => post(`${base}/close`, { command_id: id }),
          done: (answer) =>
            ctx.refreshUntil(
              (data) => (data.rounds[answer.tournament_id] ?? []).find((r) => r.round === answer.round)?.closed,
              `Round ${answer.round} is closed.`,
            ),
        })
      : null,
  );
}

function tournamentBlock(ctx, tournament, seasonClosed) {
  const rounds = [...(ctx.data.rounds[tournament.tournament_id] ?? [])].sort((a, b) => b.round - a.round);
  const scope = { league: ctx.leagueId, tournament: tournament.tournament_id };
  return h(
    "section",
    { class: "tournament panel", "data-testid": "tournament", "data-tournament": tournament.tournament_id },
    h("h3", null, tournament.name),
    h(
      "p",
      { class: "muted" },
      `${tournament.rounds} round${tournament.rounds === 1 ? "" : "s"} seated. `,
      h("a", { href: href("/tournament", scope) }, "Tables"),
      " · ",
      h("a", { href: href("/standings", scope) }, "Standings"),
    ),
    ctx.organises && !seasonClosed
      ? actionForm({
          label: `Seat the next round of ${tournament.name}`,
          testid: "seat-round",
          className: "inline",
          submit: "Seat the next round",
          send: (id) => post(`/leagues/${enc(ctx.leagueId)}/tournaments/${enc(tournament.tournament_id)}/rounds`, { command_id: id }),
          done: (answer) =>
            ctx.refreshUntil(
              (data) => (data.rounds[answer.tournament_id] ?? []).some((r) => r.round === answer.round),
              `Round ${answer.round} is seated: ${answer.tables.length} table${answer.tables.length === 1 ? "" : "s"}` +
                (answer.byes.length ? `, byes for ${answer.byes.map((p) => p.display_name).join(", ")}.` : "."),
            ),
        })
      : null,
    rounds.length ? rounds.map((r) => roundBlock(ctx, tournament, r)) : empty("No round seated yet."),
  );
}

function seasonBlock(ctx, season) {
  const lines = ctx.data.standings[season.season_id] ?? [];
  const tournaments = ctx.data.league.tournaments.filter((t) => t.season_id === season.season_id);
  const open = !season.closed;
  return h(
    "section",
    { class: "season", "data-testid": "season", "data-season": season.season_id, "aria-labelledby": `season-${season.season_id}` },
    h(
      "h2",
      { id: `season-${season.season_id}` },
      season.name,
      season.closed ? h("span", { class: "badge", "data-testid": "season-closed" }, "closed") : null,
    ),
    h("p", { class: "muted" }, `${season.entrants} entrant${season.entrants === 1 ? "" : "s"}. `, h("a", { href: href("/leaderboard", { league: ctx.leagueId, season: season.season_id }) }, "Ratings")),
    standingsOf(lines, ctx.leagueId, season.season_id),
    ctx.organises && open
      ? h(
          "div",
          { class: "org-tools" },
          enrolForm(ctx, season, lines),
          tournamentForm(ctx, season),
          closeButton({
            label: `Close the season ${season.name}`,
            testid: "close-season",
            send: (id) => post(`/leagues/${enc(ctx.leagueId)}/seasons/${enc(season.season_id)}/close`, { command_id: id }),
            done: (answer) =>
              ctx.refreshUntil((data) => data.league.seasons.find((s) => s.season_id === answer.season_id)?.closed, `${season.name} is closed.`),
          }),
        )
      : null,
    tournaments.map((t) => tournamentBlock(ctx, t, season.closed)),
  );
}

export function renderLeague(main, { args, signal }) {
  const [leagueId] = args;
  if (!current()) {
    window.location.hash = href("/signin", { next: `/league/${leagueId}` });
    return;
  }
  const flash = h("div", { class: "flash", "aria-live": "polite" });
  const body = h("div");
  mount(main, flash, body);
  let loaded = null;
  let clubMembers = [];

  function draw(data) {
    const clubId = data.league.club.club_id;
    const ctx = {
      leagueId,
      data,
      clubMembers,
      accountId: loaded.account.account_id,
      organises: mayOrganise(loaded, clubId),
      voids: holds(loaded, clubId, "admin", "organiser", "referee"),
      cards: data.league.game_type === "cards",
      loaded,
      refreshUntil,
    };
    const { league } = data;
    return h(
      "div",
      { class: "organise", "data-testid": "league-page" },
      h(
        "header",
        { class: "page-head" },
        h("h1", null, league.name),
        h(
          "p",
          { class: "muted" },
          "A league of ",
          h("a", { href: `#/club/${enc(clubId)}` }, league.club.name),
          ". ",
          h("a", { href: href("/standings", { league: leagueId }) }, "All-seasons standings"),
          " · ",
          h("a", { href: href("/leaderboard", { league: leagueId }) }, "Ratings"),
        ),
      ),
      ctx.organises ? h("div", { class: "panel org-tools", "data-testid": "league-tools" }, visibilityForm(ctx), seasonForm(ctx)) : null,
      league.seasons.length ? league.seasons.map((s) => seasonBlock(ctx, s)) : empty("No season opened yet."),
    );
  }

  /** After a write: fetch until the read models show it (`ready`), redraw, and say what happened. */
  async function refreshUntil(ready, said) {
    let data = null;
    for (let attempt = 0; attempt < READY_TRIES && !signal.aborted; attempt += 1) {
      try {
        data = await fetchLeague(leagueId, signal);
      } catch (error) {
        if (!signal.aborted) mount(flash, failure("the league", error));
        return null;
      }
      if (ready(data)) break;
      await new Promise((resolve) => setTimeout(resolve, READY_WAIT_MS));
    }
    if (signal.aborted || !data) return null;
    mount(body, draw(data));
    mount(flash, doneNotice(said));
    return null;
  }

  load(
    body,
    "the league",
    async () => {
      loaded = await profile({ signal });
      const data = await fetchLeague(leagueId, signal);
      const clubId = data.league.club.club_id;
      if (holds(loaded, clubId, "admin", "organiser", "referee")) clubMembers = (await get(`/clubs/${enc(clubId)}/members?limit=100`, { signal })).items;
      return data;
    },
    draw,
    signal,
  );
}
