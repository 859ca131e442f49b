// One address, two games: #/game/<id>/play, /live, /replay and /table show a dice game or a card
// game. The game's type is a public fact of its REST view (`game_type`), read once before the
// page is drawn; a card game goes to the card views (js/cards/), anything else — a dice game,
// or a game the API refuses to show, whose own page then says why — to the dice views as before.
// A read that got no answer or a server error is shown with a retry: it says nothing of the type.
// A league game scheduled and not created yet (404, but `GET /games/{id}/schedule` knows it)
// opens its table's schedule page instead, where its scorekeeper starts it.

import { get } from "../api.js";
import { mount } from "../dom.js";
import { href } from "../location.js";
import { failure, loading } from "../status.js";

/** A game id a league scheduled whose game does not exist yet: go to its table's schedule page
 * (#/league/<id>/start?…) and say true; false when no league scheduled it (or it is not ours to
 * read), so the page says the API's own words about the missing game. */
async function scheduled(gameId, signal) {
  try {
    const where = await get(`/games/${encodeURIComponent(gameId)}/schedule`, { signal });
    window.location.replace(href(`/league/${encodeURIComponent(where.league_id)}/start`, { tournament: where.tournament_id, round: where.round, table: where.table }));
    return true;
  } catch {
    return false;
  }
}

/** A page renderer that draws `cards(main, context)` for a card game, else `dice(main, context)`. */
export function byGameType(dice, cards) {
  return (main, context) => {
    const [gameId] = context.args;
    let cleanup = null;
    let stopped = false;
    const gone = () => stopped || context.signal.aborted;
    const read = () => {
      mount(main, loading("the game"));
      get(`/games/${encodeURIComponent(gameId)}`, { signal: context.signal })
        .then(
          (state) => (state?.game_type === "cards" ? cards : dice),
          (error) => {
            // a league game scheduled but not created yet (a table game starts when its
            // scorekeeper starts it): its table's schedule page, which starts it
            if (error?.status === 404) return scheduled(gameId, context.signal).then((moved) => (moved ? null : dice));
            // a game the API refuses to show (unknown, a bad id): the dice page says why, as
            // before; no answer or a server error says nothing of the game's type, so it is
            // shown here with a retry, not taken for a dice game
            if (error?.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) return dice;
            if (error?.name !== "AbortError" && !gone()) mount(main, failure("the game", error, read));
            return null;
          },
        )
        .then((chosen) => {
          if (!chosen || gone()) return;
          try {
            const drawn = chosen(main, context);
            cleanup = typeof drawn === "function" ? drawn : null;
          } catch (error) {
            // drawn after a read, a page's error would otherwise leave "Loading…" up for good
            mount(main, failure("the game", error));
            throw error;
          }
        });
    };
    read();
    return () => {
      stopped = true;
      cleanup?.();
    };
  };
}
