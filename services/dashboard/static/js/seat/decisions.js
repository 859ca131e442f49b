// The engine's awaited decision, turned into words and choices. Everything here is read from
// what GET /games/{id} answers: `awaiting` (who decides what) and, for the one who decides,
// `legal_commands` in their text form ("p1 reroll 0 2", "p1 target 3 p4", "p1 decline").
// A command is sent back exactly as the engine listed it, so a command type this page has
// never heard of (a later module's) still gets a button, labelled with its text form.

import { faceLabel, specialRoleName } from "../board.js";
import { rageCardName } from "../undead.js";

// What a decision asks, as a sentence about the one who must make it ("… to <what>").
const DECISIONS = {
  roll: "roll the dice",
  reroll_or_stop: "choose which dice to reroll, or keep them",
  shot_target: "choose whom each shot hits",
  beer_target: "choose who drinks each beer",
  turn_start_heal: "choose who gains a life",
  double_shot: "decide whether to double a shot with a beer",
  arrows_instead: "decide whether to take arrows instead of losing life",
  discard_arrows: "decide whether to discard arrows",
  remove_arrows: "choose whose arrows the gatling removes",
  // Undead or Alive: UA1's duels and wound tokens, UA2's Rage cards (draws are the server's online)
  duel_target: "choose whom to duel",
  whiskey_discard: "choose which wound token to discard",
  wound_draw: "draw a wound token",
  duel_throw: "throw the Duel die",
  rage_draw: "draw a Rage card",
  // UA4: an eliminated player's Boneyard reveal (the server's draw online)
  boneyard_draw: "reveal a Boneyard card",
  pat_move: "decide whether to move a face-down Rage card",
  sam_heal: "choose who gains 1 life for the shot (Sam the Healer)",
  greg_heal: "choose who gets the second heal of the beer (Greg Digger)",
  belle_convert: "decide whether to turn a dynamite into a beer (Belle Star)",
  chuck_set: "decide whether to pay 1 life to set a die",
  pixie_keep: "choose which of the two Rage cards drawn to keep",
  sean_reroll: "decide whether to throw the losing Duel die again",
};

// A UA3 character's "no" in the words of what he leaves undone ("Decline" elsewhere).
const DECLINES = {
  sam_heal: "Heal nobody for this shot",
  greg_heal: "Give this beer no second heal",
  belle_convert: "Keep the dynamite",
  chuck_set: "Set no die",
  pat_move: "Move no Rage card",
  sean_reroll: "Let the throw stand",
};

/** What declining `decision` means, in words. */
export function declineWords(decision) {
  return DECLINES[decision] ?? "Decline";
}

/** "reroll_or_stop" → "choose which dice to reroll, or keep them"; an unknown one in its own words. */
export function decisionWords(decision) {
  const window = /^role_window_(.+)$/.exec(decision ?? "");
  if (window) return `answer the special role window (${window[1].replaceAll("_", " ")}), open to the table`;
  return DECISIONS[decision] ?? String(decision ?? "").replaceAll("_", " ");
}

/** A legal command's text form, split: {text, player, verb, args}. */
export function parse(text) {
  const [player, verb, ...args] = String(text).trim().split(/\s+/);
  return { text, player, verb, args };
}

const isDie = (word) => /^\d+$/.test(word);

function dieName(state, index) {
  const face = state.dice?.[index];
  return `die ${index + 1}${face ? ` (${faceLabel(face)})` : ""}`; // people count dice from 1
}

function seatName(state, seat) {
  const player = state.players.find((p) => p.id === seat);
  if (!player) return seat;
  return player.name ? `${player.name} (${seat})` : seat;
}

/**
 * A target command ("p1 target 2 p3", "p1 target p3", "p1 target 2 p3 as shoot2"), read:
 * {die: number|null, target, asFace: string|null}; null when the words are not one.
 */
export function targetOf(command) {
  if (command.verb !== "target") return null;
  let args = command.args;
  let asFace = null;
  if (args.length >= 3 && args[args.length - 2] === "as") {
    asFace = args[args.length - 1];
    args = args.slice(0, -2);
  }
  if (args.length === 1) return { die: null, target: args[0], asFace };
  if (args.length === 2 && isDie(args[0])) return { die: Number(args[0]), target: args[1], asFace };
  return null;
}

/** The words on a command's button; the text form itself when the page does not know the verb. */
export function label(command, state) {
  const a = command.args;
  switch (command.verb) {
    case "stop":
      return "Keep these dice";
    case "reroll":
      return `Reroll ${a.map((i) => dieName(state, Number(i))).join(", ")}`;
    case "decline":
      return declineWords(state.awaiting?.decision);
    case "pass":
      return "Pass";
    case "target": {
      const t = targetOf(command);
      if (!t) break;
      if (t.die === null && state.awaiting?.decision === "duel_target") return `Duel ${seatName(state, t.target)}`;
      const what = t.die === null ? "Choose" : `${dieName(state, t.die)}:`;
      return `${what} ${seatName(state, t.target)}${t.asFace ? ` as ${faceLabel(t.asFace)}` : ""}`;
    }
    case "double":
      return `Double ${dieName(state, Number(a[0]))} with the beer of ${dieName(state, Number(a[1]))}`;
    case "arrows-instead":
      return `Take ${a[0]} arrow${a[0] === "1" ? "" : "s"} instead${a[1] === "chief" ? " (the Chief's Arrow first)" : ""}`;
    case "discard":
      return `Discard ${a[0]} arrow${a[0] === "1" ? "" : "s"}`;
    case "remove":
      return `Remove arrows from ${a.map((s) => seatName(state, s)).join(", ")}`;
    case "saloon":
      return a[0] === "none" ? "Roll the base dice only" : `Roll the ${a[0]} die`;
    case "arrow":
      return a[0] === "chief" ? "Take the Chief's Arrow" : "Take a regular arrow";
    case "ghost-give":
      return `Give the ${faceLabel(a[0])} Ghost token to ${seatName(state, a[1])}${a[2] === "x2" ? " (×2)" : ""}`;
    case "give-arrow":
      return `Give an arrow to ${seatName(state, a[0])}${a[1] === "chief" ? " (the Chief's Arrow)" : ""}`;
    case "discard-wound":
      return `Discard the ${faceLabel(a[0])} wound token`;
    case "move-rage": // UA3 Pat Brennan: a card by its place in a hand, never by its id
      return `Move ${seatName(state, a[0])}'s face-down Rage card ${Number(a[2]) + 1} to ${seatName(state, a[1])}`;
    case "keep": // UA3 Pixie Pete: the card by its place among his two (ids only he is sent)
      return keepLabel(state, command.player, Number(a[0]));
    case "reroll-throw": // UA3 Sean Mallory
      return "Throw the Duel die again";
    case "set": // UA3 Chuck Wengam pays for it; Belle Star's dynamite-to-beer is free
      if (state.awaiting?.decision === "belle_convert") return `Turn ${dieName(state, Number(a[0]))} into a Beer`;
      return `Pay 1 life: set ${dieName(state, Number(a[0]))} to ${faceLabel(a[1])}`;
    case "draw":
      // a random draw entered at a table (the server's own online): what was drawn or thrown
      return state.awaiting?.decision === "duel_throw" ? `Threw ${faceLabel(a[0])}` : `Drew ${a[0]}`;
    case "seize-chief":
      return "Seize the Chief's Arrow";
    case "take-loss":
      return `Lose the life in place of ${seatName(state, a[0])}`;
    case "use": {
      const [role, ...rest] = a;
      const named = rest.map((w) => (isDie(w) ? `die ${Number(w) + 1}` : state.players.some((p) => p.id === w) ? seatName(state, w) : faceLabel(w)));
      return `Reveal ${specialRoleName(role)}${named.length ? `: ${named.join(", ")}` : ""}`;
    }
    default:
      break;
  }
  return command.text;
}

/**
 * Pixie Pete's choice: "Keep r05 (2), put r09 (Beer) back" from his own seat's `rage_choice`,
 * which the server sends to him alone; without it (anyone else) only the card's place.
 */
export function keepLabel(state, seat, slot) {
  const pair = state.players?.find((p) => p.id === seat)?.rage_choice;
  if (!Array.isArray(pair) || pair.length !== 2 || (slot !== 0 && slot !== 1)) {
    return `Keep the ${slot === 0 ? "first" : "second"} Rage card drawn`;
  }
  const deck = state.rage?.deck;
  return `Keep ${rageCardName(pair[slot], deck)}, put ${rageCardName(pair[1 - slot], deck)} back`;
}

/**
 * The controls a decision needs, from its legal commands:
 * - reroll: {rerollable: Set of die indexes, stop: command|null, rerolls: Set of texts}
 * - aims: [{die, face, options: [command + target]}], one group per die (or per ability target)
 * - others: every remaining command, in the engine's order, each a button.
 */
export function controls(state) {
  const commands = (state.legal_commands ?? []).map(parse);
  const reroll = { rerollable: new Set(), stop: null, rerolls: new Set() };
  const aims = new Map();
  const others = [];
  for (const command of commands) {
    if (command.verb === "stop" && command.args.length === 0) {
      reroll.stop = command;
    } else if (command.verb === "reroll" && command.args.every(isDie)) {
      command.args.forEach((i) => reroll.rerollable.add(Number(i)));
      reroll.rerolls.add(rerollText(command.player, command.args.map(Number)));
    } else if (targetOf(command)) {
      const target = targetOf(command);
      const key = target.die === null ? "ability" : `die-${target.die}`;
      if (!aims.has(key)) aims.set(key, { key, die: target.die, face: target.die === null ? null : state.dice?.[target.die], options: [] });
      aims.get(key).options.push({ ...command, ...target });
    } else {
      others.push(command);
    }
  }
  const rolling = reroll.stop !== null || reroll.rerollable.size > 0;
  return { reroll: rolling ? reroll : null, aims: [...aims.values()], others, count: commands.length };
}

/** The text form of a reroll of `dice` (sorted, as the engine lists them). */
export function rerollText(player, dice) {
  return `${player} reroll ${[...dice].sort((x, y) => x - y).join(" ")}`;
}
