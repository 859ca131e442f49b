// Games: open one by id, live or as a replay. League games are also linked from their
// tournament's tables.

import { h, mount } from "../dom.js";
import { href } from "../location.js";

export function renderGames(main) {
  const input = h("input", { type: "text", id: "game-id", name: "game", required: true, autocomplete: "off" });
  const open = (view) => (event) => {
    event.preventDefault();
    const id = input.value.trim();
    if (id) window.location.hash = href(`/game/${encodeURIComponent(id)}/${view}`);
  };
  mount(
    main,
    h("header", { class: "page-head" }, h("h1", null, "Games")),
    h(
      "form",
      { class: "inline", onsubmit: open("live"), "aria-label": "Open a game" },
      h("label", { for: "game-id" }, "Game id", input),
      h("button", { type: "submit", class: "button" }, "Watch live"),
      h("button", { type: "button", class: "button", onclick: open("replay") }, "Replay and audit"),
    ),
    h(
      "p",
      { class: "muted" },
      "League games are linked from their tournament's tables. Hidden roles show as “?” until the rules reveal them.",
    ),
  );
}
