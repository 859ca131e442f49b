// Keeping score at a physical table (#/game/<id>/table): one screen per turn. Whose turn it
// is and their dice; the dice the engine awaits are entered face by face (entry/dice-entry.js),
// then each decision from the engine's legal options (entry/decisions.js). Every entry is one
// POST /games/{id}/commands made on the version shown, so a refusal (the engine's referee
// message, shown in its words) changes nothing, and the latest entry of a turn can be taken
// back while the next turn has not started (a correction event: history is never edited).

import { ApiError, commandId, get, post } from "../api.js";
import { board, restBoard } from "../board.js";
import { h, mount, properName, titleCase } from "../dom.js";
import { href } from "../location.js";
import { profile } from "../me.js";
import { current } from "../session.js";
import { failure, loading } from "../status.js";
import { subscribe } from "../subscription.js";
import { gameLog } from "../game-log.js";
import { ratingChange } from "../rating-change.js";
import { sideWins } from "../zombies.js";
import { diceEntry } from "../entry/dice-entry.js";
import { decisionEntry, entryWords, legalTargets } from "../entry/decisions.js";
import { decisionWords } from "../seat/decisions.js";

// The API says whether this caller enters the game (`may_enter`: its creator or its scheduled
// scorekeeper); it still decides every entry, and a refusal is shown in its words.
function mayEnter(state, loaded) {
  return Boolean(loaded) && state.mode === "table" && state.may_enter === true;
}

function seatLine(state, seat) {
  const player = state.players.find((p) => p.id === seat);
  if (!player) return seat ?? "—";
  const role = player.role ? ` · ${titleCase(player.role)}` : "";
  return `${player.id} ${player.name ?? ""} — ${properName(player.character)}${role}`;
}

function turnHead(state) {
  const q = state.awaiting;
  const who = q?.player; // the seat, as this page's heading names it beside the player's name
  const what = !q
    ? null
    : q.decision === "roll"
      ? `Enter the ${q.dice.length === state.dice.length ? "" : `${q.dice.length} `}dice ${who} rolled`
      : `${who} decides: ${decisionWords(q.decision)}`;
  if (state.status === "ended") {
    return h("div", { class: "turn-head" }, h("h2", { "data-testid": "turn-head" }, `Game over after turn ${state.turn ?? "—"}`));
  }
  return h(
    "div",
    { class: "turn-head" },
    h("h2", { "data-testid": "turn-head", tabindex: "-1" }, `Turn ${state.turn ?? "—"} · `, h("span", { "data-testid": "whose-turn" }, seatLine(state, state.active_player))),
    what ? h("p", { class: "turn-what", "data-testid": "entering" }, what) : null,
  );
}

function resultText(state) {
  const result = state.result;
  if (!result) return "The game has ended.";
  const side = result.winning_side;
  const named = (seat) => {
    const player = state.players.find((p) => p.id === seat);
    return player?.name ? `${seat} ${player.name}` : seat;
  };
  const winners = (result.winners ?? []).map(named).join(", ");
  return side ? `${sideWins(side)} (${winners}).` : "Nobody wins.";
}

export function renderTable(main, { args: [gameId], signal }) {
  const path = `/games/${encodeURIComponent(gameId)}`;
  const area = h("div", null, loading("the table"));
  mount(
    main,
    h(
      "header",
      { class: "page-head table-page-head" },
      h("h1", null, "Keep score ", h("code", null, gameId)),
      h(
        "p",
        null,
        h("a", { href: href(`/game/${encodeURIComponent(gameId)}/live`) }, "Watch live"),
        " · ",
        h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay"),
      ),
    ),
    area,
  );
  const log = gameLog(gameId, { signal }); // every event so far: what the entries did
  main.append(log.node);

  let state = null;
  let loaded = null;
  let busy = false;
  let ratings = null; // a finished game's rating changes (rating-change.js), kept across redraws
  const errorSlot = h("div", { class: "entry-error" });
  const lastEntry = h("p", { class: "muted last-entry", role: "status", "data-testid": "last-entry" });

  const showError = (error) => {
    const again = error instanceof ApiError && error.status === 409
      ? h("button", { type: "button", class: "button", onclick: () => refresh() }, "Load the game again")
      : null;
    mount(errorSlot, h("div", { class: "notice error", role: "alert", "data-testid": "form-error" }, h("p", null, error.message), again));
  };

  // One entry: the command made on the version shown. A refusal leaves the page as it was
  // (what was picked stays picked) with the engine's words above it.
  // Several commands (the same target for several dice) go one after the other, each on the
  // version the previous one answered; a refusal stops there, and the page shows the game as
  // the entries before it left it.
  const send = async (commands, said) => {
    if (busy) return;
    busy = true;
    area.setAttribute("aria-busy", "true");
    let version = state.version;
    let done = 0;
    try {
      for (const command of commands) {
        const answer = await post(`${path}/commands`, { command, command_id: commandId("table"), expected_version: version }, { signal });
        version = answer.version;
        done += 1;
      }
      mount(errorSlot);
      lastEntry.textContent = said;
      await refresh();
    } catch (error) {
      if (error.name === "AbortError" || signal.aborted) return;
      if (done) await refresh();
      showError(error);
    } finally {
      busy = false;
      area.removeAttribute("aria-busy");
    }
  };

  const enterText = (texts) => send([texts].flat(), `Entered: ${[texts].flat().map((text) => entryWords(text, state)).join("; ")}`);
  const enterRoll = (faces) => {
    const player = state.awaiting.player;
    return send([{ type: "RollDice", player, faces }], `Entered: ${entryWords({ player, faces }, state)}`);
  };
  const takeBack = () => send([{ type: "TakeBack" }], `Taken back: ${entryWords(state.take_back.command, state)}`);

  const takeBackBar = () => {
    if (!state.take_back) return null;
    return h(
      "div",
      { class: "take-back" },
      h(
        "button",
        { type: "button", class: "button take-back-button", "data-testid": "take-back", onclick: takeBack },
        `Take back: ${entryWords(state.take_back.command, state)}`,
      ),
      h("span", { class: "muted" }, " A correction: the entry stays in the history, marked taken back."),
    );
  };

  const entryPanel = () => {
    const q = state.awaiting;
    if (state.status === "ended") {
      return h(
        "div",
        { class: "notice result", "data-testid": "table-result" },
        h("p", null, resultText(state)),
        h("p", null, h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay the game")),
        (ratings ??= ratingChange(gameId, signal)),
      );
    }
    if (!q) return h("p", { class: "notice" }, `This game is ${state.status}: nothing to enter.`);
    return q.decision === "roll" ? diceEntry(state, enterRoll) : decisionEntry(state, enterText);
  };

  // The table, its legal targets outlined (the same seats the target buttons mark ✓).
  const table = () => {
    const drawn = board(restBoard(state), { explain: true });
    // the modules' words are for looking up, not for every turn: one line to open
    const detail = drawn.querySelector('[data-testid="ruleset-detail"]');
    if (detail) {
      const more = h("details", { class: "rules-more" }, h("summary", null, "The rules in full"));
      detail.replaceWith(more);
      more.append(detail);
    }
    for (const seat of legalTargets(state)) {
      drawn.querySelector(`[data-testid="seat-${seat}"]`)?.classList.add("seat-legal-target");
    }
    return drawn;
  };

  const draw = () => {
    if (state.mode !== "table") {
      mount(
        area,
        h("p", { class: "notice" }, "This is an online game: its players decide and the server rolls. ", h("a", { href: href(`/game/${encodeURIComponent(gameId)}/live`) }, "Watch it live"), "."),
      );
      return;
    }
    const keeper = mayEnter(state, loaded);
    mount(
      area,
      h(
        "section",
        { class: "table-entry", "aria-label": "This turn", "data-testid": "table-entry", "data-version": String(state.version) },
        turnHead(state),
        errorSlot,
        keeper ? takeBackBar() : null,
        keeper || state.status === "ended" // the result (and its rating changes) is everyone's
          ? entryPanel()
          : h(
              "p",
              { class: "notice", "data-testid": "not-keeper" },
              current()
                ? "Only this game's scorekeeper enters its dice and decisions: at a league table, the member named to keep its score; at a friendly table, whoever created it."
                : h("span", null, h("a", { href: href("/signin", { next: `/game/${gameId}/table` }) }, "Sign in"), " to keep score."),
            ),
        lastEntry,
      ),
      table(),
    );
    // the new turn's heading takes the focus (read out, and Tab goes on to its choices); the
    // dice form then moves it to its first die
    if (keeper) area.querySelector('[data-testid="turn-head"]')?.focus({ preventScroll: true });
  };

  // `newer`: redraw only for a game that moved on (an entry from another device), so faces
  // picked here are not wiped by the echo of this page's own entry.
  const refresh = async ({ newer = false } = {}) => {
    try {
      const [fresh, me] = await Promise.all([get(path, { signal }), loaded ? loaded : profile({ signal })]);
      if (signal.aborted || (newer && state && fresh.version <= state.version)) return;
      state = fresh;
      log.update(fresh);
      loaded = me;
      draw();
    } catch (error) {
      if (error.name !== "AbortError" && !signal.aborted && !newer) mount(area, failure("the table", error, refresh));
    }
  };
  refresh();

  // Another device keeping the same table (the creator and the scorekeeper) moves the game on:
  // the subscription says so, and this page reads the new state. Without it an entry made on a
  // stale page is still refused (expected_version), only later.
  const connection = h("span", { class: "badge", "data-testid": "connection", role: "status" }, "connecting");
  main.querySelector(".page-head p")?.append(" · ", connection);
  const stop = subscribe(
    "dashboard/LiveGame",
    "DashboardLiveGame",
    { id: gameId, fromVersion: null },
    {
      onStatus: (status) => {
        connection.textContent = status;
        connection.dataset.state = status;
      },
      onNext: () => {
        if (!busy && !signal.aborted) refresh({ newer: true });
      },
      onComplete: () => {
        if (!signal.aborted) refresh({ newer: true });
      },
      onError: () => {
        connection.textContent = "not live: reload to see other devices' entries";
      },
    },
  );
  return stop;
}
