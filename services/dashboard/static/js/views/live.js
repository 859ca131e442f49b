// The live game: the subscription says "a new event happened", then the page reads the game's
// redacted state with the DashboardGame query. Reading the state (rather than folding events
// in the browser) keeps the rules and the redaction on the server, where they belong.

import { h, mount } from "../dom.js";
import { href, rerender } from "../location.js";
import { query } from "../graphql.js";
import { subscribe } from "../subscription.js";
import { board } from "../board.js";
import { failure, loading } from "../status.js";
import { describeEvent } from "../events.js";

const RECENT_EVENTS = 8;

export function renderLive(main, { args: [gameId], signal }) {
  const connection = h("span", { class: "badge", "data-testid": "connection", role: "status" }, "connecting");
  const area = h("div", null, loading("the game"));
  const feed = h("ol", { class: "feed", "data-testid": "feed", "aria-label": "Latest events" });
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
  );

  // Several events may arrive together; one state read answers all of them.
  let refreshing = null;
  let again = false;
  const refresh = async () => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = query("dashboard/Game", "DashboardGame", { id: gameId })
      .then((data) => {
        if (!signal.aborted) mount(area, board(data.game));
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
        feed.prepend(h("li", null, h("span", { class: "muted" }, `#${event.version} `), describeEvent(event)));
        while (feed.children.length > RECENT_EVENTS) feed.lastElementChild.remove();
        refresh();
      },
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
  return stop;
}
