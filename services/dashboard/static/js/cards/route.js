// One address, two games: #/game/<id>/play, /live, /replay and /table show a dice game or a card
// game. The game's type is a public fact of its REST view (`game_type`), read once before the
// page is drawn; a card game goes to the card views (js/cards/), anything else — a dice game,
// or a game that cannot be read, whose own page then says why — to the dice views as before.

import { get } from "../api.js";
import { mount } from "../dom.js";
import { failure, loading } from "../status.js";

/** A page renderer that draws `cards(main, context)` for a card game, else `dice(main, context)`. */
export function byGameType(dice, cards) {
  return (main, context) => {
    const [gameId] = context.args;
    let cleanup = null;
    let stopped = false;
    mount(main, loading("the game"));
    get(`/games/${encodeURIComponent(gameId)}`, { signal: context.signal })
      .then((state) => state?.game_type === "cards")
      .catch(() => false)
      .then((isCards) => {
        if (stopped || context.signal.aborted) return;
        try {
          const chosen = (isCards ? cards : dice)(main, context);
          cleanup = typeof chosen === "function" ? chosen : null;
        } catch (error) {
          // drawn after a read, a page's error would otherwise leave "Loading…" up for good
          mount(main, failure("the game", error));
          throw error;
        }
      });
    return () => {
      stopped = true;
      cleanup?.();
    };
  };
}
