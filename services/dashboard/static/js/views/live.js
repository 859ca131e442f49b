// The live game: the subscription says "a new event happened", then the page reads the game's
// redacted state with the DashboardGame query. Reading the state (rather than folding events
// in the browser) keeps the rules and the redaction on the server, where they belong.

import { h, mount } from "../dom.js";
import { href, rerender } from "../location.js";
import { query } from "../graphql.js";
import { subscribe } from "../subscription.js";
import { board, restBoard } from "../board.js";
import { failure, loading } from "../status.js";
import { describeEvent, eventClass } from "../events.js";
import { get } from "../api.js";
import { playsUndead } from "../undead.js";
import { gameLog } from "../game-log.js";

const RECENT_EVENTS = 8;

export function renderLive(main, { args: [gameId], signal }) {
  const connection = h("span", { class: "badge", "data-testid": "connection", role: "status" }, "connecting");
  const area = h("div", null, loading("the game"));
  const feed = h("ol", { class: "feed", "data-testid": "feed", "aria-label": "Latest events" });
  const log = gameLog(gameId, { signal }); // the whole game, in players' names
  mount(
    main,
    h(
      "header",
      { class: "page-head" },
      h("h1", null, "Live game ", h("code", null, gameId)),
      h("p", null, connection, " ", h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay and audit")),
    ),
    area,
    h("section", { class: "panel" }, h("h2", null, "Latest events"), feed),
    log.node,
  );

  // Undead or Alive's Rage cards, wound tokens and duel are in the REST state only (GraphQL's
  // Game has no fields for them): such a game is read over REST, every other one over GraphQL.
  let undead = null;
  const read = async () => {
    if (undead !== false) {
      const rest = await get(`/games/${encodeURIComponent(gameId)}`);
      undead = playsUndead(rest);
      if (undead) return restBoard(rest);
    }
    return (await query("dashboard/Game", "DashboardGame", { id: gameId })).game;
  };

  // Several events may arrive together; one state read answers all of them.
  let refreshing = null;
  let again = false;
  const refresh = async () => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = read()
      .then((game) => {
        if (signal.aborted) return;
        mount(area, board(game));
        log.update(game);
      })
      .catch((error) => {
        if (!signal.aborted) mount(area, failure("the game", error, refresh));
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
  const stop = subscribe(
    "dashboard/LiveGame",
    "DashboardLiveGame",
    { id: gameId, fromVersion: null },
    {
      onStatus: setStatus,
      onNext: (data) => {
        const event = data.gameEvents;
        feed.prepend(h("li", { class: eventClass(event), "data-type": event.type }, h("span", { class: "muted" }, `#${event.version} `), describeEvent(event)));
        while (feed.children.length > RECENT_EVENTS) feed.lastElementChild.remove();
        refresh();
      },
      onComplete: () => {
        setStatus("game over");
        // a game already over sends nothing new: say where its events are rather than an empty list
        if (!feed.children.length) feed.append(h("li", { class: "muted" }, "No new events: the game is over. Its events are on the replay."));
        refresh();
      },
      onError: (message) => {
        setStatus("disconnected");
        if (!signal.aborted) area.prepend(failure("live updates", new Error(message), rerender));
      },
    },
  );
  return stop;
}
