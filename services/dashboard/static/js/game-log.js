// The game log: every event of a game so far, newest first, in players' names and plain words,
// on the seat page, the scorekeeper's page and the watch page (dice and cards). It is built
// only from the events the API gives this viewer (GET /games/{id}/events, redacted for them by
// services/game/edge/visibility.py) and worded by the one place the pages word events
// (events.js, cards/events.js): a seat's log never knows more than that seat may see, and two
// games differing only in what this viewer may not see give the same log
// (tests/integration/hidden_info/test_game_log_non_interference.py).
//
// The whole log is kept (the list scrolls inside its box; nothing is cut off) and grows as the
// page reads the game again: `update(state)` fetches only the events after the last one shown.

import { get } from "./api.js";
import { h, mount } from "./dom.js";
import { describeEvent, eventClass } from "./events.js";
import { describeCardEvent } from "./cards/events.js";

const PAGE = 1000; // the API's page of events (EVENTS_PAGE_LIMIT)

/** Seat ids ("p3") in a line, replaced by the player's name where the game has one. */
export function named(text, players) {
  const names = new Map((players ?? []).filter((p) => p?.name).map((p) => [p.id, p.name]));
  if (!names.size) return text;
  return String(text).replace(/\bp\d+\b/g, (seat) => names.get(seat) ?? seat);
}

/** The log's lines, newest first: {version, type, text, cls}. A pure function of what it is given. */
export function logLines(events, { players = [], cards = false } = {}) {
  const describe = cards ? describeCardEvent : describeEvent;
  return [...events]
    .sort((a, b) => b.version - a.version)
    .map((event) => ({ version: event.version, type: event.type, text: named(describe(event), players), cls: eventClass(event) }));
}

/**
 * A game log for `gameId` that follows the page: `node` to place once on the page (outside the
 * part the page redraws, so the list keeps its scroll), `update(state)` after each read of the
 * game (its `version` and `players`). Requests are cancelled with `signal`.
 */
export function gameLog(gameId, { signal, cards = false } = {}) {
  const list = h("ol", { class: "game-log-list", "data-testid": "game-log", tabindex: "0", "aria-label": "Every event so far, newest first" });
  const note = h("p", { class: "muted game-log-note", role: "status" }, "Loading the game log …");
  const node = h("section", { class: "panel game-log", "aria-labelledby": "game-log-head" }, h("h2", { id: "game-log-head" }, "Game log"), note, list);
  const events = [];
  let players = [];
  let reading = null;
  let wanted = 0;

  const draw = () => {
    mount(
      list,
      logLines(events, { players, cards }).map((line) =>
        h("li", { class: line.cls, "data-version": String(line.version) }, h("span", { class: "muted" }, `${line.version}. `), line.text),
      ),
    );
    note.textContent = events.length ? `${events.length} ${events.length === 1 ? "event" : "events"}, newest first.` : "Nothing has happened yet.";
  };

  const read = async () => {
    const path = `/games/${encodeURIComponent(gameId)}/events`;
    while (!signal?.aborted) {
      const last = events.length ? events[events.length - 1].version : 0;
      if (last >= wanted) break;
      const page = await get(`${path}?from_version=${last + 1}&limit=${PAGE}`, { signal });
      const fresh = page.filter((event) => event.version > last && event.version <= wanted);
      if (!fresh.length) break;
      events.push(...fresh);
    }
  };

  const update = (state) => {
    if (!state) return;
    players = state.players ?? players;
    wanted = Math.max(wanted, Number(state.version ?? 0));
    if (reading) return; // the read under way goes on to `wanted`
    const before = events.length;
    let ok = false;
    reading = read()
      .then(() => {
        ok = true;
        if (!signal?.aborted) draw();
      })
      .catch((error) => {
        if (error.name !== "AbortError" && !signal?.aborted) note.textContent = `Could not read the game log: ${error.message}`;
      })
      .finally(() => {
        reading = null;
        const last = events.length ? events[events.length - 1].version : 0;
        // a newer version asked for while this read ran: read on (never again after a failure or no progress)
        if (ok && events.length > before && !signal?.aborted && last < wanted) update({ players, version: wanted });
      });
  };

  return { node, update };
}
