// "We are already playing: here is where we are": the part of the new-game page that states a
// table game's position, and builds the record format's `position` (docs/game-records.md) that
// POST /games takes. Seats are shown by their players' names, dice numbered from 1; the seat ids
// (p1, p2, …, as GET /rulesets/seats gives them) appear only in what is sent. The API reads the
// position with the records' own readers and refuses it in its words (a 422 invalid-position).

import { h } from "../dom.js";
import { DECK, cardWords } from "../cards/deck.js";
import { faceWords } from "../dice-faces.js";

const BASE_FACES = ["arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling"];
const OS1_FACES = ["broken_arrow", "bullet", "shoot1x2", "shoot2x2", "beerx2", "gatlingx2"];
const UA1_FACES = ["whiskey", "duel"];

/** A fresh position: every seat at full life, nothing held, the first seat to play turn 1. */
export function emptyPosition(count) {
  return {
    rows: Array.from({ length: count }, () => ({ life: "", arrows: "0", hand: [], inPlay: [] })),
    active: 0,
    turn: "1",
    dice: ["", "", "", "", ""],
    rollsUsed: "1",
    discard: [],
  };
}

/** Keep what was entered for the seats that remain when the table size changes. */
export function resizePosition(position, count) {
  const rows = position.rows.slice(0, count);
  while (rows.length < count) rows.push({ life: "", arrows: "0", hand: [], inPlay: [] });
  return { ...position, rows, active: Math.min(position.active, count - 1) };
}

/** A seat's life when nobody says otherwise: the character's, the Sheriff's bonus added. */
export function fullLife(gameType, seat, characters, players) {
  const character = characters.find((c) => c.id === seat.character);
  if (!character) return "";
  const bonus = seat.role === "sheriff" ? (gameType === "cards" ? 1 : players > 3 ? 2 : 0) : 0;
  return String(character.life + bonus);
}

function numberField(label, value, onInput, attrs = {}) {
  const input = h("input", { type: "number", inputmode: "numeric", value, min: "0", ...attrs });
  input.addEventListener("input", () => onInput(input.value));
  return h("label", { class: "pos-field" }, h("span", null, label), input);
}

function cardPicker(label, chosen, onChange, testid) {
  const select = h(
    "select",
    { multiple: true, size: "4", "data-testid": testid, "aria-label": label },
    DECK.slice(1).map((card) => h("option", { value: String(card.id), selected: chosen.includes(card.id) }, cardWords(card))),
  );
  select.addEventListener("change", () => onChange([...select.selectedOptions].map((o) => Number(o.value))));
  return h("label", { class: "pos-field pos-cards" }, h("span", null, label), select);
}

function diceFaces(modules) {
  return [...BASE_FACES, ...(modules.has("OS1") ? OS1_FACES : []), ...(modules.has("UA1") ? UA1_FACES : [])];
}

/**
 * The position form. `seats`: [{name, role, character}] clockwise; `position`: the values,
 * changed in place as they are entered. Every field has a label a screen reader says.
 */
export function positionForm({ gameType, modules, seats, characters, position }) {
  const players = seats.length;
  const rows = seats.map((seat, i) => {
    const row = position.rows[i];
    const who = seat.name || `Seat ${i + 1}`;
    const full = fullLife(gameType, seat, characters, players);
    // full life until somebody says otherwise (and again after the character changes)
    if ((row.life === "" || row.auto) && full !== "") Object.assign(row, { life: full, auto: true });
    const setLife = (v) => Object.assign(row, { life: v, auto: false });
    const fields = [numberField(`${who}: life`, row.life, setLife, { "data-testid": `pos-life-${i + 1}` })];
    if (gameType === "dice") {
      fields.push(numberField(`${who}: arrows`, row.arrows, (v) => (row.arrows = v), { "data-testid": `pos-arrows-${i + 1}` }));
    } else {
      fields.push(cardPicker(`${who}: hand`, row.hand, (v) => (row.hand = v), `pos-hand-${i + 1}`));
      fields.push(cardPicker(`${who}: cards in play`, row.inPlay, (v) => (row.inPlay = v), `pos-in-play-${i + 1}`));
    }
    return h("fieldset", { class: "pos-seat", "data-testid": `pos-seat-${i + 1}` }, h("legend", null, who), fields);
  });

  const active = h(
    "select",
    { "data-testid": "pos-active" },
    seats.map((seat, i) => h("option", { value: String(i), selected: i === position.active }, seat.name || `Seat ${i + 1}`)),
  );
  active.addEventListener("change", () => (position.active = Number(active.value)));
  const turnFields = [
    h("label", { class: "pos-field" }, h("span", null, "Whose turn it is"), active),
    numberField("Turn number", position.turn, (v) => (position.turn = v), { min: "1", "data-testid": "pos-turn" }),
  ];

  let diceFields = null;
  if (gameType === "dice") {
    const faces = diceFaces(modules);
    const dice = position.dice.map((face, d) => {
      const select = h(
        "select",
        { "data-testid": `pos-die-${d + 1}` },
        h("option", { value: "" }, "not rolled"),
        faces.map((f) => h("option", { value: f, selected: f === face }, faceWords(f))),
      );
      select.addEventListener("change", () => (position.dice[d] = select.value));
      return h("label", { class: "pos-field" }, h("span", null, `Die ${d + 1}`), select);
    });
    const rolls = h(
      "select",
      { "data-testid": "pos-rolls-used" },
      ["1", "2", "3", "4"].map((n) => h("option", { value: n, selected: n === position.rollsUsed }, n)),
    );
    rolls.addEventListener("change", () => (position.rollsUsed = rolls.value));
    diceFields = h(
      "fieldset",
      { class: "pos-dice" },
      h("legend", null, "The dice showing (optional: leave them unrolled to start the turn from its beginning)"),
      dice,
      h("label", { class: "pos-field" }, h("span", null, "Rolls used so far"), rolls),
    );
  }
  const discard =
    gameType === "cards"
      ? h(
          "fieldset",
          { class: "pos-discard" },
          h("legend", null, "The discard pile (the deck holds every card placed nowhere; its order is not asked)"),
          cardPicker("Discard pile, bottom first", position.discard, (v) => (position.discard = v), "pos-discard"),
        )
      : null;
  return h(
    "div",
    { class: "position-form", "data-testid": "position-form" },
    h("p", { class: "muted" }, "Say where the game stands: each player's life and ", gameType === "dice" ? "arrows" : "cards", ", whose turn it is and its number."),
    h("div", { class: "pos-seats" }, rows),
    h("div", { class: "pos-turn" }, turnFields),
    diceFields,
    discard,
  );
}

/**
 * What the page can tell before asking the API, in plain words (a die by its number from 1, a
 * player by name); the API still checks everything else and says why in its words.
 */
export function positionProblem(gameType, seats, position) {
  for (const [i, row] of position.rows.entries()) {
    const who = seats[i]?.name || `Seat ${i + 1}`;
    if (!/^\d+$/.test(String(row.life))) return `Say how much life ${who} has (a whole number, 0 if out of the game).`;
    if (gameType === "dice" && !/^\d*$/.test(String(row.arrows))) return `Say how many arrows ${who} holds (a whole number).`;
  }
  if (!/^[1-9]\d*$/.test(String(position.turn))) return "Say the turn's number (1 or more).";
  if (gameType === "dice") {
    const set = position.dice.filter((face) => face !== "").length;
    if (set > 0 && set < 5) {
      const missing = position.dice.findIndex((face) => face === "");
      return `Die ${missing + 1} is not set: set all five dice showing, or none to start the turn from its beginning.`;
    }
  }
  return null;
}

const asNumber = (value) => (value === "" || value === null || value === undefined ? NaN : Number(value));

/** The record format's `position` for these values: players by seat id (`seatIds`). */
export function positionJson(gameType, seatIds, position) {
  const players = position.rows.map((row, i) => {
    const entry = { player: seatIds[i], life: asNumber(row.life) };
    if (gameType === "dice") entry.arrows = asNumber(row.arrows || "0");
    else Object.assign(entry, { hand: row.hand, in_play: row.inPlay });
    return entry;
  });
  const json = { players, active_player: seatIds[position.active], turn: asNumber(position.turn) };
  if (gameType === "cards") {
    json.discard = position.discard;
    json.deck = "unknown"; // a real table does not know its deck's order: each card is named as it is turned up
    return json;
  }
  if (position.dice.some((face) => face !== "")) {
    json.dice = position.dice.map((face) => face || null);
    json.rolls_used = asNumber(position.rollsUsed);
  }
  return json;
}
