// Play an online card game from your seat (#/game/<id>/play when the game's type is `cards`).
// As the dice seat page (views/play.js): GET /games/{id} with the session answers the game as
// this account may see it — its own role and its own hand, every other hand a count — and,
// when this seat must decide, the engine's `legal_commands`; a move is POST
// /games/{id}/commands with the command as listed and the version decided on, so a page that
// fell behind is refused in the API's words, never wrong. The subscription wakes it up.

import { h, mount, titleCase } from "../dom.js";
import { href } from "../location.js";
import { commandId, get, post } from "../api.js";
import { current } from "../session.js";
import { failure, loading } from "../status.js";
import { follow } from "../seat/feed.js";
import { ABILITIES, characterName } from "./deck.js";
import { cardFacts, cardSeats, myHand, seatLabel, sideWords } from "./table.js";
import { decisionPanel, decisionWords } from "./decisions.js";
import { gameLog } from "../game-log.js";
import { refreshYourMove } from "../your-move.js";
import { ratingChange } from "../rating-change.js";

const GOALS = {
  sheriff: "Eliminate the Outlaws and the Renegade.",
  deputy: "Protect the Sheriff: eliminate the Outlaws and the Renegade.",
  outlaw: "Eliminate the Sheriff.",
  renegade: "Be the last one standing.",
};

/** "1:05" for 65 seconds. */
function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function timeLeftText(deadline) {
  if (!deadline) return null;
  const left = (Date.parse(deadline) - Date.now()) / 1000;
  return left > 0 ? `${clock(left)} left before the default answer is played` : "Time is up: the default answer is being played";
}

// Every update redraws the page; a keyboard user keeps their place: the control that had the
// focus (same command or same test id) gets it back, else the decision's first option does.
function focusKey(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  return { testid: active.dataset.testid ?? null, option: active.dataset.option ?? null };
}

function refocus(root, key) {
  const same = [...root.querySelectorAll("button")].find(
    (b) => (key.option && b.dataset.option === key.option) || (key.testid && b.dataset.testid === key.testid),
  );
  const next = same && !same.disabled ? same : root.querySelector("[data-testid=decision] button:not([disabled])");
  next?.focus();
  return Boolean(next);
}

export function renderCardPlay(main, { args: [gameId], signal }) {
  const who = current();
  const gamePath = `/games/${encodeURIComponent(gameId)}`;
  const head = h(
    "header",
    { class: "page-head" },
    h("h1", null, "Your seat"),
    h("p", { class: "muted play-game-id" }, "BANG! (the card game) · game ", h("code", null, gameId)),
  );
  if (!who) {
    mount(main, head, h("p", { class: "notice", "data-testid": "sign-in-first" }, "Sign in to play your seat. ", h("a", { href: href("/signin") }, "Sign in")));
    return null;
  }
  const myId = who.account.account_id;
  const connection = h("span", { class: "badge", role: "status", "data-testid": "connection", "data-state": "connecting" }, "connecting");
  head.append(
    h("p", null, "Live updates: ", connection, " · ",
      h("a", { href: href(`/game/${encodeURIComponent(gameId)}/live`) }, "Watch view"), " · ",
      h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay")),
  );
  const root = h("div", { class: "play card-play", "data-testid": "play", "data-game-type": "cards" }, loading("the game"));
  // the whole log, from the events as the API redacts them for this seat
  const log = gameLog(gameId, { signal, cards: true });
  mount(main, head, root, log.node);

  const model = { state: null, busy: false, refusal: null, readError: null };
  let countdown = null; // the "time left" node, ticked every second
  let ratings = null; // a finished game's rating changes (rating-change.js)
  let pendingFocus = null; // where the keyboard was when a redraw had nothing to focus
  const ui = { picked: new Set(), choice: { value: null }, toggle: (id) => {
    if (ui.picked.has(id)) ui.picked.delete(id);
    else ui.picked.add(id);
    redraw();
  } };

  const apply = (state) => {
    const shown = model.state;
    if (shown && state.version < shown.version) return;
    if (!shown || state.version !== shown.version) ui.picked = new Set();
    model.state = state;
    model.readError = null;
    redraw();
    log.update(state);
  };
  let reading = null;
  let again = false;
  const refresh = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = get(gamePath, { signal })
      .then(apply)
      .catch((error) => {
        if (signal.aborted || error.name === "AbortError") return;
        model.readError = error;
        redraw();
      })
      .finally(() => {
        reading = null;
        if (again && !signal.aborted) {
          again = false;
          refresh();
        }
      });
  };


  const send = async (command) => {
    if (model.busy || !model.state || !command) return;
    model.busy = true;
    model.refusal = null;
    redraw();
    try {
      const answer = await post(`${gamePath}/commands`, { command, command_id: commandId("play"), expected_version: model.state.version });
      model.busy = false;
      if (!signal.aborted) apply(answer.state);
      refreshYourMove(); // the title's "Your move" count changes with the move
    } catch (error) {
      model.busy = false;
      if (signal.aborted || error.name === "AbortError") return;
      model.refusal = error.message; // the referee's words
      redraw();
      refresh();
    }
  };

  const join = async () => {
    model.busy = true;
    redraw();
    try {
      await post(`${gamePath}/players`, { command_id: commandId("join") });
      model.refusal = null;
    } catch (error) {
      if (signal.aborted) return;
      model.refusal = error.message; // the API's words
    } finally {
      model.busy = false;
      if (!signal.aborted) refresh();
    }
  };

  function redraw() {
    if (signal.aborted) return;
    const state = model.state;
    if (!state) {
      if (model.readError) mount(root, failure("the game", model.readError, refresh));
      return;
    }
    const mine = state.players.find((p) => p.member_id === myId) ?? null;
    const deciding = (state.legal_commands ?? []).length > 0;
    root.dataset.version = String(state.version);
    root.dataset.status = state.status;
    root.dataset.busy = model.busy ? "true" : "false";
    root.dataset.deciding = deciding ? "true" : "false";
    if (mine) root.dataset.seat = mine.id;
    const idle = !document.activeElement || document.activeElement === document.body;
    const focused = focusKey(root) ?? (idle ? pendingFocus : null);
    pendingFocus = null;
    countdown = null;
    mount(
      root,
      roleBanner(state, mine),
      situation(state, mine, deciding),
      model.refusal ? h("p", { class: "notice error", role: "alert", "data-testid": "form-error" }, model.refusal) : null,
      model.readError ? h("p", { class: "notice error", role: "alert", "data-testid": "read-error" }, `Could not read the game: ${model.readError.message}`) : null,
      deciding ? decisionPanel(state, { send, busy: model.busy, ui, title: titleCase(decisionWords(state.awaiting?.decision)) }) : null,
      mine ? myHand(mine) : null,
      h(
        "section",
        { class: "panel play-table", "aria-label": "The table" },
        cardFacts(state, [h("div", null, h("dt", null, "Event"), h("dd", { "data-testid": "version" }, String(state.version)))]),
        cardSeats(state, mine?.id ?? null),
      ),
    );
    if (focused && !refocus(root, focused)) pendingFocus = focused; // all disabled while a move is sent
  }

  function timer(state) {
    const text = timeLeftText(state.deadline);
    if (!text) return null;
    countdown = h("span", { class: "play-time", "data-testid": "time-left", "data-deadline": state.deadline }, ` ${text}.`);
    return countdown;
  }

  function roleBanner(state, mine) {
    if (state.status === "lobby") return null;
    if (!mine) return h("p", { class: "notice play-role", "data-testid": "not-seated" }, "You have no seat in this game: you are watching it.");
    const role = mine.role;
    return h(
      "section",
      { class: `play-role play-role-${role ?? "hidden"}`, "data-testid": "my-role", "aria-label": "Your role" },
      h("p", { class: "play-role-title" }, "Your role: ", h("strong", { "data-testid": "my-role-name" }, role ? titleCase(role) : "not dealt yet")),
      role ? h("p", { class: "play-role-goal", "data-testid": "my-goal" }, GOALS[role] ?? "") : null,
      h("p", { class: "play-role-more" }, `You are ${mine.id}, playing ${characterName(mine.character)}`,
        ABILITIES[mine.character] ? ` (${ABILITIES[mine.character]})` : "",
        state.status === "ended" ? ". The game is over: every role is shown." : ". Only you see your role and your hand."),
    );
  }

  function situation(state, mine, deciding) {
    if (state.status === "ended") {
      const result = state.result ?? {};
      const winners = (result.results ?? []).filter((r) => r.won).map((r) => r.player);
      const you = mine ? (winners.includes(mine.id) ? " You won." : " You lost.") : "";
      ratings ??= ratingChange(gameId, signal); // read once, kept across redraws
      return h(
        "div",
        null,
        h("p", { class: "notice result", "data-testid": "result", role: "status" }, `Game over: ${sideWords(result.winner)} (${winners.map((s) => seatLabel(state, s)).join(", ")}).${you}`),
        ratings,
      );
    }
    if (state.status === "lobby") {
      const joined = state.joined ?? [];
      const inIt = joined.some((j) => j.member_id === myId);
      return h(
        "section",
        { class: "panel", "data-testid": "lobby" },
        h("h2", null, "Waiting for players"),
        h("p", null, `${joined.length} of ${state.player_count} have joined: `, joined.map((j) => j.name).join(", ") || "nobody yet", "."),
        inIt
          ? h("p", { class: "muted" }, "You have joined. The cards are dealt when the table is full.")
          : h("button", { type: "button", class: "button", "data-testid": "join", disabled: model.busy, onclick: join }, "Join this game"),
      );
    }
    if (state.status !== "ongoing") return h("p", { class: "notice", "data-testid": "result" }, `This game is ${state.status}: it has no result.`);
    const awaiting = state.awaiting;
    if (deciding) {
      return h("p", { class: "notice play-yours", "data-testid": "your-decision", role: "status" },
        h("strong", null, state.active_player === mine?.id ? "Your turn: " : "Your decision: "), decisionWords(awaiting?.decision), ".", timer(state));
    }
    return h(
      "p",
      { class: "notice play-waiting", "data-testid": "turn-message", role: "status" },
      h("strong", null, "Whose turn: "),
      h("span", { "data-testid": "whose-turn" }, seatLabel(state, state.active_player)),
      ". ",
      awaiting
        ? awaiting.player === "table"
          ? "The server is dealing the cards."
          : `Waiting for ${seatLabel(state, awaiting.player)} to ${decisionWords(awaiting.decision)}.`
        : "",
      timer(state),
    );
  }

  const setConnection = (status) => {
    connection.textContent = status;
    connection.dataset.state = status === "offline" || status === "reconnecting" ? "disconnected" : status;
  };
  refresh();
  const stop = follow(gameId, { lastVersion: () => model.state?.version ?? 0, onWake: refresh, onStatus: setConnection });
  const ticker = setInterval(() => {
    if (countdown && model.state?.deadline) countdown.textContent = ` ${timeLeftText(model.state.deadline)}.`;
  }, 1000);
  return () => {
    stop();
    clearInterval(ticker);
  };
}
