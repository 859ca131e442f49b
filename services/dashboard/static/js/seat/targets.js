// Aiming: a die awaiting a target (or an ability's target) and the seats it may hit. The table
// highlights exactly those seats and each gets a button that sends the one legal command
// aiming that die at it; nothing here decides what is legal, it only regroups legal_commands.

import { faceLabel } from "../board.js";

/** The aim group being chosen: the one picked on the page, else the lowest die awaiting one. */
export function currentAim(aims, picked) {
  return aims.find((aim) => aim.key === picked) ?? aims[0] ?? null;
}

/**
 * seat id → the command aiming `aim` at it (the plain one first; Calamity Janet's "as shoot2"
 * variant stays a button of its own in the panel).
 */
export function targetsOf(aim) {
  const bySeat = new Map();
  for (const option of aim?.options ?? []) {
    const known = bySeat.get(option.target);
    if (!known || (known.asFace && !option.asFace)) bySeat.set(option.target, option);
  }
  return bySeat;
}

/** "Die 3: 1", "Die 1: Beer", "Your ability's target": what an aim group is, for its heading (dice from 1). */
export function aimTitle(aim, decision) {
  if (aim.die === null) {
    if (decision === "duel_target") return "Whom to duel (UA1)";
    if (decision === "sam_heal") return "Whom to heal for the shot (Sam the Healer)";
    if (decision === "greg_heal") return "Who gets the beer's second heal (Greg Digger)";
    return "Your ability's target";
  }
  return aim.face ? `Die ${aim.die + 1}: ${faceLabel(aim.face)}` : `Die ${aim.die + 1}`;
}

/** What aiming at a seat does, for the seat's button: healing faces help, others hurt. */
export function aimVerb(aim, decision) {
  if (decision === "beer_target") return "Give the beer to";
  if (decision === "turn_start_heal" || decision === "sam_heal" || decision === "greg_heal") return "Heal";
  if (decision === "duel_target") return "Duel";
  if (aim?.face && /beer/.test(aim.face)) return "Give the beer to";
  return aim?.die === null ? "Choose" : "Shoot";
}
