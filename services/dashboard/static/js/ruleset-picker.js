// The ruleset of a new game, picked by name: the dice game's expansion modules (Old Saloon,
// Undead or Alive) as checkboxes, or the card game's one option (eight players with two
// Renegades). It only gathers the choice; whether the rules allow the set at that table size,
// and whether this server plays it, is the API's 422 in its own words (`invalid-ruleset`).
// Reusable: any form that creates or schedules a game mounts `picker.node` and sends
// `picker.value()` as its `ruleset`.

import { h } from "./dom.js";

/** The dice game's modules a league game may use (UA5, the legacy series, is a series' own). */
export const DICE_MODULES = [
  ["Old Saloon", [
    ["OS1", "The Loudmouth and the Coward (its two dice)"],
    ["OS2", "The Arrow of the Indian Chief"],
    ["OS3", "Special roles"],
    ["OS4", "A posse of new characters"],
    ["OS5", "The Ghost"],
  ]],
  ["Undead or Alive", [
    ["UA1", "Look me in the eyes (duels)"],
    ["UA2", "Two bullets are enough (Rage cards)"],
    ["UA3", "A new posse in town (characters)"],
    ["UA4", "Undead or alive? (the zombie outbreak)"],
  ]],
];

export const CARD_OPTIONS = [["eight_players", "Eight players, with two Renegades"]];

let pickers = 0;

/**
 * A ruleset picker for `gameType` ("dice" or "cards"): {node, picked(), value(), words()}. `value()` is the
 * API's `ruleset` ({game_type, modules} or {game_type, options}); `words()` the choice in plain
 * words ("Old Saloon: OS1, OS2" / "the base game").
 */
export function rulesetPicker(gameType = "dice", { legend = "Rules" } = {}) {
  pickers += 1;
  const groups = gameType === "cards" ? [["Options", CARD_OPTIONS]] : DICE_MODULES;
  const boxes = [];
  const node = h(
    "fieldset",
    { class: "checks ruleset-picker", "data-testid": "ruleset-picker" },
    h("legend", null, legend, h("span", { class: "muted" }, gameType === "cards" ? " (BANG! the card game)" : " (the base dice game unless you add modules)")),
    groups.map(([title, choices]) =>
      h(
        "div",
        { class: "ruleset-group" },
        h("p", { class: "muted" }, title),
        choices.map(([id, words]) => {
          const inputId = `ruleset-${pickers}-${id}`;
          const box = h("input", { id: inputId, type: "checkbox", value: id, "data-module": id });
          boxes.push({ id, words, box });
          return h("div", { class: "check" }, box, h("label", { for: inputId }, `${id}: ${words}`));
        }),
      ),
    ),
  );
  const picked = () => boxes.filter((b) => b.box.checked).map((b) => b.id);
  return {
    node,
    /** The module or option ids ticked, in the picker's order. */
    picked,
    value() {
      return gameType === "cards" ? { game_type: "cards", options: picked() } : { game_type: "dice", modules: picked() };
    },
    words() {
      const ids = picked();
      if (!ids.length) return gameType === "cards" ? "the base card game" : "the base game";
      return ids.join(", ");
    },
  };
}

/** `Ruleset.text` ("dice OS1 OS2", "cards eight_players") in plain words for a page. */
export function rulesetWords(text) {
  if (!text) return "the base game";
  const [gameType, ...rest] = text.split(" ");
  const names = Object.fromEntries([...DICE_MODULES.flatMap(([, c]) => c), ...CARD_OPTIONS]);
  const game = gameType === "cards" ? "BANG! the card game" : "BANG! The Dice Game";
  if (!rest.length) return `${game}, base rules`;
  return `${game} with ${rest.map((id) => (names[id] ? `${id} (${names[id]})` : id)).join(", ")}`;
}
