// What the signed-in person may do, asked of the API once per page load: GET /me and
// GET /me/clubs. Pages use it only to decide what to *offer* (a button, a form); the API still
// decides every write, and a refusal is shown in its words.

import { get } from "./api.js";
import { cachedProfile, current, refreshAccount, setCachedProfile } from "./session.js";

/** {account, clubs: [{club_id, name, roles: [{role, game_id}]}]} or null when signed out. */
export async function profile({ signal } = {}) {
  if (!current()) return null;
  const known = cachedProfile();
  if (known) return known;
  const [account, clubs] = await Promise.all([get("/me", { signal }), get("/me/clubs", { signal })]);
  refreshAccount(account);
  const loaded = { account, clubs };
  setCachedProfile(loaded);
  return loaded;
}

/** The roles held in one club (names only; a scorekeeper's game scope is in `roles` itself). */
export function rolesIn(loaded, clubId) {
  const club = loaded?.clubs.find((c) => c.club_id === clubId);
  return new Set((club?.roles ?? []).map((grant) => grant.role));
}

export function holds(loaded, clubId, ...roles) {
  const held = rolesIn(loaded, clubId);
  return roles.some((role) => held.has(role));
}

/** May organise a club's leagues (the API's rule: admin or organiser). */
export const mayOrganise = (loaded, clubId) => holds(loaded, clubId, "admin", "organiser");

/** Is scorekeeper of this one table game in some club (a game-scoped grant). */
export function keepsScoreOf(loaded, gameId) {
  return (loaded?.clubs ?? []).some((club) =>
    club.roles.some((grant) => grant.role === "scorekeeper" && grant.game_id === gameId),
  );
}
