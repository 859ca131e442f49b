// The live view of a card game (#/game/<id>/live): the subscription says "a new event", the page
// reads the game's REST view as this viewer may see it (a spectator: every hand a count, roles
// "?" until the rules show them) and draws the card table. The rules and the redaction stay on
// the server.

import { h, mount } from "../dom.js";
import { href, rerender } from "../location.js";
import { subscribe } from "../subscription.js";
import { get } from "../api.js";
import { failure, loading } from "../status.js";
import { cardBoard, seatLabel, sideWords } from "./table.js";
import { decisionWords } from "./decisions.js";
import { gameLog } from "../game-log.js";

function awaitingLine(state) {
  if (state.status === "ended") {
    const winners = (state.result?.results ?? []).filter((r) => r.won).map((r) => r.player);
    return h("p", { class: "notice result", "data-testid": "result" }, `Game over: ${sideWords(state.result?.winner)} (${winners.join(", ")}).`);
  }
  const a = state.awaiting;
  if (!a) return null;
  return h("p", { class: "notice", "data-testid": "awaiting" }, a.player === "table" ? "The server is dealing the cards." : `Waiting for ${seatLabel(state, a.player)} to ${decisionWords(a.decision)}.`);
}

export function renderCardLive(main, { args: [gameId], signal }) {
  const connection = h("span", { class: "badge", "data-testid": "connection", role: "status" }, "connecting");
  const area = h("div", null, loading("the game"));
  const log = gameLog(gameId, { signal, cards: true });
  mount(
    main,
    h(
      "header",
      { class: "page-head" },
      h("h1", null, "Live game ", h("code", null, gameId)),
      h("p", null, "BANG! (the card game) · ", connection, " ", h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay and audit")),
    ),
    area,
    log.node,
  );

  let refreshing = null;
  let again = false;
  const refresh = () => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = get(`/games/${encodeURIComponent(gameId)}`, { signal })
      .then((state) => {
        if (signal.aborted) return;
        mount(area, awaitingLine(state), cardBoard(state));
        log.update(state);
      })
      .catch((error) => {
        if (!signal.aborted && error.name !== "AbortError") mount(area, failure("the game", error, refresh));
      })
      .finally(() => {
        refreshing = null;
        if (again && !signal.aborted) {
          again = false;
          refresh();
        }
      });
  };
  const setStatus = (status) => {
    connection.textContent = status;
    connection.dataset.state = status;
  };
  refresh();
  return subscribe(
    "dashboard/LiveGame",
    "DashboardLiveGame",
    { id: gameId, fromVersion: null },
    {
      onStatus: setStatus,
      onNext: () => refresh(),
      onComplete: () => {
        setStatus("game over");
        refresh();
      },
      onError: (message) => {
        setStatus("disconnected");
        if (!signal.aborted) area.prepend(failure("live updates", new Error(message), rerender));
      },
    },
  );
}
