// The header's corner: who is signed in (with a link to their page and a sign-out button), or
// a sign-in link.

import { h, mount } from "./dom.js";
import { current } from "./session.js";
import { signOut } from "./views/signin.js";

export function renderWho(container) {
  if (!container) return;
  const who = current();
  if (!who) {
    const next = window.location.hash.replace(/^#/, "");
    const query = next && !next.startsWith("/signin") ? `?next=${encodeURIComponent(next)}` : "";
    mount(container, h("a", { href: `#/signin${query}`, class: "button", "data-nav": "me" }, "Sign in"));
    return;
  }
  mount(
    container,
    h("a", { href: "#/new-game", class: "button", "data-testid": "new-game-link", "data-nav": "new-game" }, "New game"),
    h("a", { href: "#/home", "data-testid": "signed-in-as", "data-nav": "me" }, who.account.display_name),
    h("button", { type: "button", class: "button link", onclick: () => signOut() }, "Sign out"),
  );
}
