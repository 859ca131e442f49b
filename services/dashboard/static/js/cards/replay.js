// The replay of a card game (#/game/<id>/replay): the game's event list (GraphQL gameEvents,
// redacted for this viewer), the table at each step (REST GET /games/{id}/versions/{v}, the
// server's fold up to that event, redacted as of then) and the audit's verdict (GraphQL audit,
// which re-derives every shuffle and random pick from the revealed seed). The browser never
// replays the rules; every line is worded with what the table at that step shows of the roles.

import { h, mount } from "../dom.js";
import { href, replaceParams } from "../location.js";
import { query } from "../graphql.js";
import { get } from "../api.js";
import { empty, failure, load, loading } from "../status.js";
import { icon } from "../icons.js";
import { cardBoard } from "./table.js";
import { describeCardEvent, seenOnCardBoard } from "./events.js";

const PAGE = 500;
const NOTHING_SEEN = Object.freeze({ roles: {}, specials: {}, cards: new Set() });

async function allEvents(gameId) {
  const events = [];
  for (;;) {
    const data = await query("dashboard/GameEvents", "DashboardGameEvents", { id: gameId, fromVersion: events.length + 1, limit: PAGE });
    events.push(...data.gameEvents);
    if (data.gameEvents.length < PAGE) return events;
  }
}

function auditPanel(audit) {
  return h(
    "div",
    { class: `verdict ${audit.clean ? "verdict-clean" : "verdict-dirty"}`, role: "status" },
    h("span", { class: "verdict-mark" }, icon(audit.clean ? "check" : "cross")),
    h("strong", null, "Audit: "),
    h("span", { "data-testid": "audit-verdict" }, audit.verdict),
    audit.ruleset ? h("span", { class: "muted", "data-testid": "audit-ruleset" }, ` · replayed with ${audit.ruleset}${audit.derivations ? `, seed: ${audit.derivations}` : ""}`) : null,
    audit.firstDivergence ? h("p", { "data-testid": "audit-divergence" }, audit.firstDivergence) : null,
  );
}

function stepper(events, gameId, initial, signal) {
  const last = events.length;
  const states = new Map();
  let position = Math.min(Math.max(initial, 1), last);
  let wanted = position;
  const slider = h("input", { type: "range", min: 1, max: last, value: position, id: "replay-slider", "data-testid": "replay-slider", "aria-valuetext": "" });
  const counter = h("output", { for: "replay-slider", "data-testid": "replay-position" });
  const currentLine = h("p", { class: "current-event", "data-testid": "current-event", "aria-live": "polite" });
  const table = h("div", { class: "replay-table", "data-testid": "replay-table" });
  const lines = events.map(() => h("span", { class: "event-line" }));
  const timeline = h(
    "ol",
    { class: "timeline", "data-testid": "timeline", "aria-label": "Events" },
    events.map((event, index) =>
      h("li", { "data-version": event.version, "data-type": event.type },
        h("button", { type: "button", class: "link", onclick: () => go(event.version) }, h("span", { class: "muted" }, `#${event.version} `), lines[index])),
    ),
  );
  const button = (label, text, target, shape, after = false) =>
    h("button", { type: "button", class: "button", "aria-label": label, "data-testid": `replay-${label.toLowerCase().split(" ")[0]}`, onclick: () => go(target()) },
      after ? null : icon(shape), text, after ? icon(shape) : null);

  function describeAll(version, seen) {
    events.forEach((event, index) => {
      lines[index].textContent = describeCardEvent(event, seen);
    });
    currentLine.textContent = describeCardEvent(events[version - 1], seen);
  }

  async function show(version) {
    wanted = version;
    slider.value = String(version);
    counter.textContent = `Event ${version} of ${last}`;
    slider.setAttribute("aria-valuetext", counter.textContent);
    describeAll(version, states.has(version) ? seenOnCardBoard(states.get(version)) : NOTHING_SEEN);
    for (const item of timeline.children) {
      const on = Number(item.dataset.version) === version;
      item.classList.toggle("current", on);
      if (on) {
        item.setAttribute("aria-current", "step");
        item.scrollIntoView({ block: "nearest" });
      } else item.removeAttribute("aria-current");
    }
    if (!states.has(version)) {
      if (!table.firstChild) mount(table, loading("the table"));
      try {
        states.set(version, await get(`/games/${encodeURIComponent(gameId)}/versions/${version}`, { signal }));
      } catch (error) {
        if (wanted === version && !signal.aborted && error.name !== "AbortError") mount(table, failure(`the table at event ${version}`, error, () => show(version)));
        return;
      }
    }
    if (wanted === version && !signal.aborted) {
      const state = states.get(version);
      const batch = state.version > version
        ? h("p", { class: "muted", "data-testid": "batch-note" }, `Events ${version}–${state.version} came from one command together; the table is shown as it stood after event ${state.version}.`)
        : null;
      describeAll(version, seenOnCardBoard(state));
      mount(table, batch, state.players?.length ? cardBoard(state) : h("p", { class: "muted" }, "The cards are not dealt yet at this step."));
      table.dataset.version = String(version);
    }
  }

  function go(version) {
    position = Math.min(Math.max(version, 1), last);
    replaceParams(new URLSearchParams({ v: String(position) }));
    show(position);
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  show(position);
  return h(
    "div",
    { class: "replay card-replay" },
    h("div", { class: "controls", role: "group", "aria-label": "Replay controls" },
      button("First event", " First", () => 1, "first"),
      button("Previous event", " Prev", () => position - 1, "previous"),
      h("label", { for: "replay-slider", class: "visually-hidden" }, "Event"),
      slider,
      button("Next event", "Next ", () => position + 1, "next", true),
      button("Last event", "Last ", () => last, "last", true),
      counter),
    currentLine,
    h("div", { class: "replay-body" }, table, h("section", { class: "panel timeline-panel" }, h("h2", null, "Events"), timeline)),
  );
}

export function renderCardReplay(main, { args: [gameId], params, signal }) {
  const audit = h("div", { class: "audit", "data-testid": "audit" });
  const body = h("div", null);
  mount(
    main,
    h("header", { class: "page-head" },
      h("h1", null, "Replay ", h("code", null, gameId)),
      h("p", null, "BANG! (the card game) · ", h("a", { href: href(`/game/${encodeURIComponent(gameId)}/live`) }, "Live view"))),
    audit,
    body,
  );
  load(audit, "the audit verdict", () => query("dashboard/Audit", "DashboardAudit", { id: gameId }), (data) => auditPanel(data.audit), signal);
  load(body, "the game's events", () => allEvents(gameId),
    (events) => (events.length ? stepper(events, gameId, Number(params.get("v") ?? 1), signal) : empty("This game has no events yet.")), signal);
}
