// Entering the dice rolled at a physical table: one row per die the engine asked for, each a
// radio group of the faces of that die's kind (the kind comes from the game's state: the rules,
// or the Saloon die chosen this turn, fix it, so the scorekeeper never types it). One click (or
// one key) per die, then Enter: as few actions as the dice themselves.

import { h } from "../dom.js";
import { die, faceLabel } from "../board.js";

// The faces of each kind of die, in the order of the engine's tables (services/game/rules/dice/kinds.py).
export const KIND_FACES = {
  base: ["arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling"],
  loudmouth: ["arrow", "dynamite", "bullet", "shoot1x2", "shoot2x2", "gatlingx2"],
  coward: ["arrow", "dynamite", "shoot1", "beer", "beerx2", "broken_arrow"],
  duel: ["arrow", "dynamite", "gatling", "whiskey", "duel"], // UA1: "duel" is on two of its sides
};

// One key per face, unique within every kind: a double face shares its symbol's key (a Loudmouth
// die has no single 1, so "1" is its "1 ×2"); the Coward's two beers are b and w.
const KEYS = {
  arrow: "a",
  dynamite: "d",
  shoot1: "1",
  shoot2: "2",
  beer: "b",
  gatling: "g",
  bullet: "u",
  shoot1x2: "1",
  shoot2x2: "2",
  gatlingx2: "g",
  beerx2: "w",
  broken_arrow: "k",
  whiskey: "w",
  duel: "v",
};

export function facesOf(kind) {
  return KIND_FACES[kind] ?? KIND_FACES.base;
}

function kindName(kind) {
  return kind && kind !== "base" ? `${kind.charAt(0).toUpperCase()}${kind.slice(1)} die` : "die";
}

// The drawing board.js makes for a die (an <li>), as inline content a <label> may hold.
function faceTile(face, kind) {
  const drawn = die(face, kind);
  return h("span", { class: `${drawn.className} face-tile`, "aria-hidden": "true" }, ...Array.from(drawn.childNodes));
}

function faceOption(index, face, kind, onPick) {
  const id = `die-${index}-${face}`;
  const key = KEYS[face];
  return h(
    "li",
    { class: "face-option" },
    h("input", {
      type: "radio",
      id,
      name: `die-${index}`,
      value: face,
      class: "face-radio",
      "aria-keyshortcuts": key ?? null,
      onchange: () => onPick(index, face),
    }),
    h(
      "label",
      { for: id, class: "face-choice" },
      faceTile(face, kind),
      h("span", { class: "face-name" }, faceLabel(face)),
      key ? h("kbd", { class: "face-key", "aria-hidden": "true" }, key) : null,
    ),
  );
}

function dieRow(index, kind, onPick) {
  return h(
    "fieldset",
    { class: "die-entry", "data-testid": `die-entry-${index}`, "data-die": String(index), "data-kind": kind },
    h("legend", null, `Die ${index + 1}`, kind !== "base" ? h("span", { class: "die-entry-kind" }, ` · ${kindName(kind)}`) : null),
    h(
      "ul",
      { class: "face-options" },
      facesOf(kind).map((face) => faceOption(index, face, kind, onPick)),
    ),
  );
}

// The dice the player keeps this roll: shown, not entered.
function keptDice(state, rolling) {
  const kept = state.dice.map((face, index) => ({ face, index })).filter(({ face, index }) => face && !rolling.includes(index));
  if (!kept.length) return null;
  return h(
    "div",
    { class: "kept-dice" },
    h("span", { class: "muted" }, "Kept: "),
    h(
      "ul",
      { class: "dice", "data-testid": "kept-dice" },
      kept.map(({ face, index }) => die(face, state.dice_kinds?.[index] ?? "base")),
    ),
  );
}

/**
 * The form for the dice the engine awaits (`state.awaiting.dice`). `onEnter(faces)` is called
 * with the faces in the order of those dice; it returns a promise (the page posts the roll).
 */
export function diceEntry(state, onEnter) {
  const rolling = state.awaiting.dice;
  const kinds = rolling.map((index) => state.dice_kinds?.[index] ?? "base");
  const chosen = new Map();
  const count = h("span", { class: "muted", "data-testid": "dice-set", role: "status" });
  const submit = h("button", { type: "submit", class: "button primary", disabled: true }, "Enter the roll");
  const rows = rolling.map((index, position) => dieRow(index, kinds[position], (i, face) => picked(i, face)));

  const update = () => {
    count.textContent = `${chosen.size} of ${rolling.length} dice set`;
    submit.disabled = chosen.size !== rolling.length;
  };
  const focusRow = (position) => {
    const row = rows[position];
    if (!row) {
      submit.focus();
      return;
    }
    (row.querySelector("input:checked") ?? row.querySelector("input")).focus();
  };
  function picked(index, face) {
    chosen.set(index, face);
    update();
  }

  // A face's key sets the focused die (or the first one not set yet) and moves on to the next.
  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Enter" && event.target.type === "radio") {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    if (event.key.length !== 1) return;
    const focusedRow = event.target.closest?.("fieldset.die-entry");
    let position = focusedRow ? rows.indexOf(focusedRow) : rolling.findIndex((index) => !chosen.has(index));
    if (position < 0) position = 0;
    const face = facesOf(kinds[position]).find((f) => KEYS[f] === event.key.toLowerCase());
    if (!face) return;
    event.preventDefault();
    const input = rows[position].querySelector(`input[value="${face}"]`);
    input.checked = true;
    picked(rolling[position], face);
    focusRow(position + 1);
  };

  const form = h(
    "form",
    {
      class: "dice-entry",
      "data-testid": "dice-entry",
      "aria-label": `Dice rolled by ${state.awaiting.player}`,
      onkeydown: onKey,
      onsubmit: async (event) => {
        event.preventDefault();
        if (chosen.size !== rolling.length) return;
        submit.disabled = true;
        try {
          await onEnter(rolling.map((index) => chosen.get(index)));
        } finally {
          update();
        }
      },
    },
    keptDice(state, rolling),
    // the keys are for a keyboard: open on a wide screen, one line to open on a phone's
    h(
      "details",
      { class: "entry-keys", open: !matchMedia("(max-width: 480px)").matches },
      h("summary", null, "Entering by keyboard"),
      h(
      "p",
      { class: "muted entry-hint" },
      "Pick each die's face, or type the key shown under it (",
      h("kbd", null, "1"),
      " ",
      h("kbd", null, "b"),
      " ",
      h("kbd", null, "a"),
      " …), die after die; then Enter.",
      ),
    ),
    rows,
    h("div", { class: "entry-actions" }, submit, " ", count),
  );
  update();
  // focus the first die once the form is on the page
  queueMicrotask(() => focusRow(0));
  return form;
}
