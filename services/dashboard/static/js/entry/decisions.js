// The decision the engine awaits, as choices: the engine's own legal commands (GET
// /games/{id}.legal_commands, in their text form) become buttons. The scorekeeper records what
// happened at the table, so a choice the engine would not allow is still offered where a person
// could plausibly make it (a die that may not be rerolled, a player out of range): the legal
// ones are highlighted, and the engine's referee message says why another one is refused.

import { h, properName } from "../dom.js";
import { die, faceLabel } from "../board.js";
import { declineWords, keepLabel } from "../seat/decisions.js";
import { rageCardName } from "../undead.js";
import { boneyardCardName } from "../zombies.js";

// What a decision aiming at a player (no die) is for, on its row.
const ABILITY_ROWS = {
  duel_target: "Duel (UA1)",
  sam_heal: "Sam the Healer heals",
  greg_heal: "Greg Digger's second heal",
  turn_start_heal: "Heal",
};

const TARGET = /^(\S+) target(?: (\d+))? (\S+)(?: as (\S+))?$/;

/** A legal command's parts when it aims something at a player ("p2 target 0 p1 as shoot2"). */
export function parseTarget(text) {
  const match = TARGET.exec(text);
  if (!match) return null;
  return { player: match[1], die: match[2] === undefined ? null : Number(match[2]), target: match[3], asFace: match[4] ?? null };
}

/** The seats some legal command aims at: highlighted on the table. */
export function legalTargets(state) {
  const seats = new Set();
  for (const text of state.legal_commands ?? []) {
    const aim = parseTarget(text);
    if (aim) seats.add(aim.target);
    const words = text.split(" ");
    if (["remove", "take-loss", "give-arrow", "ghost-give"].includes(words[1])) {
      for (const word of words.slice(2)) if (/^p\d+$/.test(word)) seats.add(word);
    }
  }
  return seats;
}

function seatName(state, seat) {
  const player = state.players.find((p) => p.id === seat);
  return player ? `${seat} ${player.name ?? ""}`.trim() : seat;
}

/** A command in words a scorekeeper reads at a glance ("p2 target 0 p1" → "Die 1 at p1 Ada"). */
export function describeCommand(text, state) {
  const words = text.split(" ");
  const [, verb, ...args] = words;
  const aim = parseTarget(text);
  if (aim) {
    const where = aim.die === null ? "" : `Die ${aim.die + 1} at `;
    return `${where}${seatName(state, aim.target)}${aim.asFace ? ` (as ${faceLabel(aim.asFace)})` : ""}`;
  }
  switch (verb) {
    case "draw":
      return drawWords(args[0], state);
    case "discard-wound":
      return `Discard the ${faceLabel(args[0])} wound token`;
    case "move-rage": // UA3 Pat Brennan: a card by its place in a hand
      return `Move ${seatName(state, args[0])}'s Rage card ${Number(args[2]) + 1} to ${seatName(state, args[1])}`;
    case "set": // UA3 Chuck Wengam pays for it; Belle Star's dynamite-to-beer is free
      return state.awaiting?.decision === "belle_convert"
        ? `Turn die ${Number(args[0]) + 1}'s dynamite into a beer`
        : `Pay 1 life: set die ${Number(args[0]) + 1} to ${faceLabel(args[1])}`;
    case "keep": // UA3 Pixie Pete: the card by its place among the two just drawn
      return keepLabel(state, words[0], Number(args[0]));
    case "reroll-throw": // UA3 Sean Mallory
      return "Throw the Duel die again";
    case "stop":
      return "Stop: keep these dice";
    case "reroll":
      return `Reroll ${args.map((d) => `die ${Number(d) + 1}`).join(", ")}`;
    case "decline":
      return declineWords(state.awaiting?.decision);
    case "pass":
      return "Nobody reveals a role: pass";
    case "saloon":
      return args[0] === "none" ? "Roll five base dice" : `Roll the ${properName(args[0])} die`;
    case "arrow":
      return args[0] === "chief" ? "Take the Chief's Arrow" : "Take a regular arrow";
    case "double":
      return `Double die ${Number(args[0]) + 1} with the beer of die ${Number(args[1]) + 1}`;
    case "arrows-instead":
      return `Take ${args[0]} arrow${args[0] === "1" ? "" : "s"} instead of life${args[1] === "chief" ? " (the Chief's first)" : ""}`;
    case "discard":
      return `Discard ${args[0]} arrow${args[0] === "1" ? "" : "s"}`;
    case "remove":
      return `Remove an arrow from ${args.map((seat) => seatName(state, seat)).join(", ")}`;
    case "give-arrow":
      return `Give the arrow to ${seatName(state, args[0])}${args[1] === "chief" ? " (the Chief's)" : ""}`;
    case "seize-chief":
      return "Seize the Chief's Arrow";
    case "take-loss":
      return `Take ${seatName(state, args[0])}'s loss`;
    case "ghost-give":
      return `Give ${faceLabel(args[0])}${args[2] === "x2" ? " ×2" : ""} to ${seatName(state, args[1])}`;
    case "use":
      return `${words[0]} reveals ${properName(args[0])}${args.length > 1 ? `: ${args.slice(1).join(" ")}` : ""}`;
    default:
      return text;
  }
}

/**
 * A whole entry in words, for the take-back button and the last entry's line: whose it is and
 * what it was ("Ada (p2) rolled 1, 1, Beer, Arrow, Dynamite"; "Ada (p2): Die 1 at p1 Bob"),
 * never its text form. A roll is a RollDice entry ({faces}) or its text ("p2 roll …").
 */
export function entryWords(command, state) {
  if (command && typeof command === "object") {
    return `${seatName(state, command.player)} rolled ${(command.faces ?? []).map(faceLabel).join(", ")}`;
  }
  const [player, verb, ...args] = String(command ?? "").split(" ");
  if (verb === "roll") return `${seatName(state, player)} rolled ${args.map(faceLabel).join(", ")}`;
  // a decision is read as the state that awaited it would read it
  return `${seatName(state, player)}: ${describeCommand(String(command), state)}`;
}

// Undead or Alive's random draws, entered from the table: the Rage card drawn (UA2), the wound
// token drawn or the Duel die thrown (UA1).
function drawWords(card, state) {
  switch (state.awaiting?.decision) {
    case "duel_throw":
      return `Threw ${faceLabel(card)}`;
    case "wound_draw":
      return `Drew the ${faceLabel(card)} wound token`;
    case "rage_draw":
      return `Drew Rage card ${rageCardName(card, state.rage?.deck)}`;
    case "boneyard_draw":
      return `Revealed Boneyard card ${boneyardCardName(card, state.boneyard?.deck)}`;
    default:
      return `Drew ${card}`;
  }
}

function choice(text, label, onEnter, { legal = true, testid = null } = {}) {
  return h(
    "button",
    {
      type: "button",
      class: `button choice${legal ? " legal" : " not-legal"}`,
      "data-testid": testid,
      "data-command": [text].flat().join(" · "),
      title: legal ? "A legal choice" : "The rules may not allow this: the engine will say",
      onclick: () => onEnter(text),
    },
    legal ? h("span", { class: "legal-mark", "aria-hidden": "true" }, "✓ ") : null,
    label,
    legal ? h("span", { class: "visually-hidden" }, " (legal)") : null,
  );
}

// reroll_or_stop: a toggle per die the rules let be rolled again (the question's `dice`, as the
// engine's legal rerolls list them); a die the rules keep (dynamite, a Ghost-preset die) is shown
// but cannot be picked. "Reroll" with the dice picked, and "Stop".
function rerollChoice(state, onEnter) {
  const q = state.awaiting;
  const picked = new Set();
  const rerollable = new Set(q.dice);
  for (const text of state.legal_commands ?? []) {
    const [, verb, ...args] = text.split(" ");
    if (verb === "reroll") args.forEach((d) => rerollable.add(Number(d)));
  }
  const submit = h("button", { type: "button", class: "button primary", disabled: true }, "Reroll the dice picked");
  const update = () => {
    submit.disabled = picked.size === 0;
    submit.textContent = picked.size ? `Reroll ${picked.size} ${picked.size === 1 ? "die" : "dice"}` : "Reroll the dice picked";
  };
  submit.addEventListener("click", () => onEnter(`${q.player} reroll ${[...picked].sort((a, b) => a - b).join(" ")}`));
  const toggles = state.dice.map((face, index) => {
    const button = h(
      "button",
      {
        type: "button",
        class: `die-toggle${rerollable.has(index) ? " legal" : " not-legal"}`,
        "aria-pressed": "false",
        "data-testid": `reroll-die-${index}`,
        "aria-label": `Die ${index + 1}: ${faceLabel(face)}${rerollable.has(index) ? "" : " (the rules keep it)"}`,
        disabled: !rerollable.has(index),
        title: rerollable.has(index) ? null : `Die ${index + 1} stays: the rules keep ${faceLabel(face).toLowerCase()}`,
      },
      h("ul", { class: "dice", "aria-hidden": "true" }, die(face, state.dice_kinds?.[index] ?? "base")),
    );
    button.addEventListener("click", () => {
      if (!rerollable.has(index)) return;
      if (picked.has(index)) picked.delete(index);
      else picked.add(index);
      button.setAttribute("aria-pressed", String(picked.has(index)));
      update();
    });
    return h("li", null, button);
  });
  return h(
    "div",
    { class: "decision", "data-testid": "reroll-choice" },
    h("p", null, `Which dice does ${q.player} roll again? ${q.rolls_left} roll${q.rolls_left === 1 ? "" : "s"} left.`),
    h("ul", { class: "die-toggles", "aria-label": "Dice to reroll" }, toggles),
    h(
      "div",
      { class: "entry-actions" },
      submit,
      " ",
      choice(`${q.player} stop`, describeCommand(`${q.player} stop`, state), onEnter, { testid: "stop" }),
    ),
  );
}

// Several dice aimed at the same player is the common case at a table: one click enters them
// all, one command per die in the order of the dice (a refusal stops at that die).
function allAtOnce(state, aims, dice, onEnter) {
  if (dice.length < 2 || dice.includes(null)) return null;
  const plain = aims.filter((a) => !a.asFace);
  const common = [...new Set(plain.map((a) => a.target))].filter((seat) => dice.every((index) => plain.some((a) => a.die === index && a.target === seat)));
  if (!common.length) return null;
  return h(
    "div",
    { class: "target-row target-all", "data-testid": "target-all" },
    h("div", { class: "target-die" }, h("strong", null, `All ${dice.length} dice at`)),
    h(
      "div",
      { class: "target-buttons" },
      common.map((seat) => {
        const texts = dice.map((index) => plain.find((a) => a.die === index && a.target === seat).text);
        return choice(texts, seatName(state, seat), onEnter, { testid: `aim-all-${seat}` });
      }),
    ),
  );
}

// A decision that aims dice (or an ability) at players: one row per die, a button per living
// player, the legal targets highlighted and listed first.
function targetChoice(state, legal, onEnter) {
  const q = state.awaiting;
  const aims = legal.filter((text) => parseTarget(text)).map((text) => ({ text, ...parseTarget(text) }));
  const rest = legal.filter((text) => !parseTarget(text));
  const dice = [...new Set(aims.map((a) => a.die))];
  const living = state.players.filter((p) => p.alive).map((p) => p.id);
  return h(
    "div",
    { class: "decision", "data-testid": "target-choice" },
    h("p", null, `Where does ${q.player} aim? Legal targets are marked ✓.`),
    allAtOnce(state, aims, dice, onEnter),
    dice.map((index) => {
      const mine = aims.filter((a) => a.die === index);
      const covered = new Set(mine.map((a) => a.target));
      const others = living.filter((seat) => !covered.has(seat));
      const base = index === null ? `${q.player} target` : `${q.player} target ${index}`;
      return h(
        "div",
        { class: "target-row", "data-testid": index === null ? "target-ability" : `target-die-${index}` },
        h(
          "div",
          { class: "target-die" },
          index === null
            ? h("span", null, ABILITY_ROWS[q.decision] ?? "Ability")
            : h("ul", { class: "dice", "aria-label": `Die ${index + 1}` }, die(state.dice[index], state.dice_kinds?.[index] ?? "base")),
        ),
        h(
          "div",
          { class: "target-buttons" },
          mine.map((a) => choice(a.text, `${seatName(state, a.target)}${a.asFace ? ` as ${faceLabel(a.asFace)}` : ""}`, onEnter, { testid: `aim-${a.die ?? "x"}-${a.target}${a.asFace ? `-${a.asFace}` : ""}` })),
          others.map((seat) => choice(`${base} ${seat}`, seatName(state, seat), onEnter, { legal: false, testid: `aim-${index ?? "x"}-${seat}` })),
        ),
      );
    }),
    rest.length ? h("div", { class: "choice-list" }, rest.map((text) => choice(text, describeCommand(text, state), onEnter))) : null,
  );
}

/** The choices of the awaited decision (not the dice: dice-entry.js enters those). */
export function decisionEntry(state, onEnter) {
  const q = state.awaiting;
  const legal = state.legal_commands ?? [];
  if (q.decision === "reroll_or_stop") return rerollChoice(state, onEnter);
  if (legal.some((text) => parseTarget(text))) return targetChoice(state, legal, onEnter);
  if (!legal.length) {
    return h("p", { class: "notice", "data-testid": "no-choices" }, `The engine lists no choices for ${q.player}'s ${q.decision.replaceAll("_", " ")}.`);
  }
  return h(
    "div",
    { class: "decision", "data-testid": "choices" },
    h("div", { class: "choice-list" }, legal.map((text) => choice(text, describeCommand(text, state), onEnter))),
  );
}
