// "Your move": the signed-in player's online games that await a decision of their seat
// (GET /me/awaiting, which says only what each game's own seat page says to them). Asked again
// every POLL_MS while signed in; the tab's title counts them on every page ("(1) Your move —
// Your page · bang-league"), the home page lists them, and a browser notification says so when a
// game starts awaiting you, once you allowed notifications (asked only when you click the
// button for it: a browser refuses, and people dislike, a request nobody asked for).

import { get } from "./api.js";
import { h, mount } from "./dom.js";
import { href } from "./location.js";
import { current, onChange } from "./session.js";
import { decisionWords } from "./seat/decisions.js";
import { decisionWords as cardDecisionWords } from "./cards/decisions.js";

const POLL_MS = 15000;

let items = [];
let known = null; // "game@version" already seen awaiting (null until the first answer: no notification for those)
let base = document.title;
let timer = null;
const listeners = new Set();

/** The page's own title with the count in front while something awaits you. */
export function pageTitle(title) {
  base = title;
  return items.length ? `(${items.length}) Your move — ${title}` : title;
}

function showTitle() {
  document.title = pageTitle(base);
}

/** What the game awaits of you, in words: "choose whom each shot hits". */
export function awaitedWords(item) {
  return item.game_type === "cards" ? cardDecisionWords(item.decision) : decisionWords(item.decision);
}

function where(item) {
  const league = item.league;
  return league ? `${league.name}, round ${league.round}, table ${league.table}` : "Friendly game";
}

function notify(fresh) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted" || !fresh.length) return;
  const first = fresh[0];
  const note = new Notification(fresh.length === 1 ? "Your move" : `Your move in ${fresh.length} games`, {
    body: `${where(first)}: ${awaitedWords(first)}.`,
    tag: `your-move-${first.game_id}`,
  });
  note.onclick = () => {
    window.focus();
    window.location.hash = href(`/game/${encodeURIComponent(first.game_id)}/play`);
  };
}

let polling = null;
let again = false;

// One read at a time: a poll asked for while one runs is made once it ends (never two timers).
function poll() {
  if (polling) {
    again = true;
    return polling;
  }
  polling = read().finally(() => {
    polling = null;
    if (again) {
      again = false;
      poll();
    }
  });
  return polling;
}

async function read() {
  clearTimeout(timer);
  if (!current()) {
    items = [];
    known = null;
  } else {
    try {
      const answer = await get("/me/awaiting");
      items = answer.items ?? [];
      const keys = new Set(items.map((i) => `${i.game_id}@${i.version}`));
      if (known) notify(items.filter((i) => !known.has(`${i.game_id}@${i.version}`)));
      known = keys;
    } catch {
      // a failed read keeps what was shown; the next poll tries again
    }
  }
  showTitle();
  for (const listener of listeners) listener(items);
  if (current()) timer = setTimeout(poll, POLL_MS);
}

/** Start following (main.js, once): at once, then every POLL_MS, and at every sign-in or out. */
export function startYourMove() {
  onChange(() => poll());
  poll();
}

/** Ask again now (a page that just moved, the home page opening). */
export const refreshYourMove = () => poll();

/** The home page's list, kept current while `signal` lives. */
export function yourMoveSection(signal) {
  const list = h("div", { "data-testid": "your-move" });
  const draw = (awaited) => {
    const permission = typeof Notification === "undefined" ? "unsupported" : Notification.permission;
    mount(
      list,
      awaited.length
        ? h(
            "ul",
            { class: "your-move-list" },
            awaited.map((item) =>
              h(
                "li",
                { "data-game": item.game_id },
                h("a", { href: href(`/game/${encodeURIComponent(item.game_id)}/play`), class: "button" }, "Play your move"),
                " ",
                h("strong", null, where(item)),
                `: ${awaitedWords(item)}. With ${item.players.map((p) => p.display_name).join(", ")}.`,
              ),
            ),
          )
        : h("p", { class: "muted" }, "No game awaits you now."),
      permission === "default"
        ? h(
            "button",
            {
              type: "button",
              class: "linkish",
              "data-testid": "notify-me",
              onclick: () => Notification.requestPermission().then(() => draw(items)),
            },
            "Notify me when a game awaits my move",
          )
        : permission === "granted"
          ? h("p", { class: "muted" }, "This browser tells you when a game starts awaiting your move.")
          : null,
    );
  };
  listeners.add(draw);
  signal.addEventListener("abort", () => listeners.delete(draw));
  draw(items);
  poll();
  return h("section", { "aria-labelledby": "your-move-head" }, h("h2", { id: "your-move-head" }, "Your move"), list);
}
