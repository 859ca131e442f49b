// Keeping score at a physical card table (#/game/<id>/table for a card game). The scorekeeper
// enters what the table does, one entry at a time, each POST /games/{id}/commands on the version
// shown: the shuffles (a real deck shuffled in an order nobody knows: "order unknown", then each
// card named as it is drawn or turned up), the cards taken at random from a hand, and every
// player's decision from the engine's legal options. A refusal is shown in the API's words and
// changes nothing; the latest entry of a turn can be taken back (a correction event).

import { commandId, get, post } from "../api.js";
import { h, mount } from "../dom.js";
import { href } from "../location.js";
import { current } from "../session.js";
import { failure, loading } from "../status.js";
import { subscribe } from "../subscription.js";
import { cardFacts, cardSeats, seatLabel, sideWords } from "./table.js";
import { commandWords, decisionPanel, decisionWords, parseCommand } from "./decisions.js";

// An entry in words for the take-back button ("Ada (p2): Play BANG! on Bob (p3)"), never its text form.
function entryWords(text, state) {
  const command = parseCommand(text);
  return `${seatLabel(state, command.player)}: ${commandWords(command, state)}`;
}
import { gameLog } from "../game-log.js";


export function renderCardTable(main, { args: [gameId], signal }) {
  const path = `/games/${encodeURIComponent(gameId)}`;
  const area = h("div", null, loading("the game"));
  const log = gameLog(gameId, { signal, cards: true });
  const errorSlot = h("div", { "data-testid": "error-slot" });
  const lastEntry = h("p", { class: "muted", "data-testid": "last-entry", role: "status" });
  mount(
    main,
    h("header", { class: "page-head table-page-head" },
      h("h1", null, "Keep score ", h("code", null, gameId)),
      h("p", null, "BANG! (the card game) at a table · ", h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay"))),
    area,
    log.node,
  );
  let state = null;
  let busy = false;
  const ui = { picked: new Set(), choice: { value: null }, toggle: (id) => {
    if (ui.picked.has(id)) ui.picked.delete(id);
    else ui.picked.add(id);
    draw();
  } };

  const refresh = async () => {
    try {
      const next = await get(path, { signal });
      // every live event reads the game again: an older answer arriving after a newer one is dropped
      if (state && next.version < state.version) return;
      if (!state || next.version !== state.version) {
        ui.picked = new Set();
        ui.choice = { value: null };
      }
      state = next;
      draw();
      log.update(next);
    } catch (error) {
      if (!signal.aborted && error.name !== "AbortError") mount(area, failure("the game", error, refresh));
    }
  };

  const send = async (command, said = null) => {
    if (busy || !command) return;
    busy = true;
    draw();
    try {
      await post(`${path}/commands`, { command, command_id: commandId("table"), expected_version: state.version }, { signal });
      mount(errorSlot);
      lastEntry.textContent = said ?? `Entered: ${typeof command === "string" ? entryWords(command, state) : "the entry"}`;
    } catch (error) {
      if (error.name === "AbortError" || signal.aborted) return;
      mount(errorSlot, h("div", { class: "notice error", role: "alert", "data-testid": "form-error" }, h("p", null, error.message)));
    } finally {
      busy = false;
      await refresh();
    }
  };

  function draw() {
    if (!state || signal.aborted) return;
    if (state.mode !== "table") {
      mount(area, h("p", { class: "notice" }, "This is an online game: its players decide and the server shuffles. ",
        h("a", { href: href(`/game/${encodeURIComponent(gameId)}/live`) }, "Watch it live"), "."));
      return;
    }
    const keeper = state.may_enter === true;
    const q = state.awaiting;
    const panel = state.status === "ended"
      ? h("p", { class: "notice result", "data-testid": "table-result" }, `Game over: ${sideWords(state.result?.winner)}.`)
      : !keeper
        ? h("p", { class: "notice", "data-testid": "not-keeper" }, current() ? "Only this game's scorekeeper enters its cards and decisions: at a league table, the member named to keep its score; at a friendly table, whoever created it." : "Sign in to keep score.")
        : q && (state.legal_commands ?? []).length
          ? decisionPanel(state, { send, busy, ui, title: q.player === "table" ? `The table: ${decisionWords(q.decision)}` : `${seatLabel(state, q.player)}: ${decisionWords(q.decision)}` })
          : h("p", { class: "notice" }, "Nothing to enter now.");
    mount(
      area,
      h(
        "section",
        { class: "table-entry card-entry", "data-testid": "table-entry", "data-version": String(state.version), "data-busy": busy ? "true" : "false" },
        h("h2", { "data-testid": "turn-head" }, state.status === "ended" ? `Game over after turn ${state.turn}` : state.active_player ? `Turn ${state.turn} · ${seatLabel(state, state.active_player)}` : "The deal"),
        errorSlot,
        keeper && state.take_back
          ? h("div", { class: "take-back" },
              h("button", { type: "button", class: "button take-back-button", "data-testid": "take-back", disabled: busy, onclick: () => send({ type: "TakeBack" }, `Taken back: ${entryWords(state.take_back.command, state)}`) },
                `Take back: ${entryWords(state.take_back.command, state)}`))
          : null,
        panel,
        lastEntry,
      ),
      h("section", { class: "panel", "aria-label": "The table" }, cardFacts(state), cardSeats(state, null)),
    );
  }

  refresh();
  return subscribe("dashboard/LiveGame", "DashboardLiveGame", { id: gameId, fromVersion: null }, {
    onStatus: () => {},
    onNext: () => {
      refresh();
    },
    onComplete: () => refresh(),
    onError: () => {},
  });
}
