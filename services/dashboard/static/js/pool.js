// Which ratings a page shows: the global pool or one club's (docs/ratings.md, "What is rated:
// pools"). A rating moves only for games nobody can make up alone, so a player has one rating
// in the global pool (online games on this server, every seat played by its own account) and
// one in each club whose league games they played. The club travels in the address
// (#/leaderboard?club=<club id>); this small form picks it among the reader's own clubs.

import { h } from "./dom.js";
import { href } from "./location.js";
import { profile } from "./me.js";

/** The pool the API is asked for: `global`, or `club:<id>` when the address names a club. */
export function poolOf(params) {
  const club = params.get("club");
  return club ? `club:${club}` : "global";
}

/**
 * The pool a leaderboard asks for: as `poolOf`, but a league's board with no club named is the
 * league's club's (null: the API takes the league's club, where its games are rated).
 */
export function boardPoolOf(params) {
  return !params.get("club") && params.get("league") ? null : poolOf(params);
}

/** What the shown pool is, in plain words (`clubName` once known; never the club's id). */
export function poolWords(params, clubName = null) {
  const club = params.get("club");
  if (!club && !params.get("league")) return "Global ratings: online games played on this server, every seat by its own player.";
  if (clubName) return `Ratings of the club ${clubName}: its league games only.`;
  return club ? "Ratings of one club: its league games only." : "Ratings of the league's club: its league games only.";
}

/**
 * A form that picks the pool: "Global" or one of the signed-in reader's clubs (and the club the
 * address names, if it is not one of theirs). Picking one navigates to `path` with `keep`'s
 * params and the club. `onClubName(name)` is told the shown club's name once it is known.
 */
export function poolPicker(path, params, keep, { signal, onClubName = () => {} } = {}) {
  const shown = params.get("club") ?? "";
  const select = h("select", { id: "pool-club", name: "club", "data-testid": "pool" });
  const option = (value, label) => h("option", { value, selected: value === shown }, label);
  const draw = (clubs) =>
    select.replaceChildren(option("", "Global (online games)"), ...clubs.map((c) => option(c.club_id, c === addressed ? c.name : `Club ${c.name}`)));
  const addressed = { club_id: shown, name: "the club in the address" }; // its name is not ours to know
  draw(shown ? [addressed] : []);
  const form = h(
    "form",
    {
      class: "inline scope",
      role: "search",
      "aria-label": "Whose ratings",
      onsubmit: (event) => {
        event.preventDefault();
        window.location.hash = href(path, { ...keep, club: select.value || null });
      },
    },
    h("label", { for: "pool-club" }, "Ratings of ", select),
    h("button", { type: "submit", class: "button", "data-testid": "pool-pick" }, "See ratings"),
  );
  profile({ signal })
    .then((loaded) => {
      const mine = loaded?.clubs ?? [];
      const named = mine.find((c) => c.club_id === shown);
      draw(shown && !named ? [addressed, ...mine] : mine);
      if (named) onClubName(named.name);
    })
    .catch(() => {}); // signed out, or /me unreachable: the global pool and the named club stay
  return form;
}
