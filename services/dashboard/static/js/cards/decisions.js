// The card game's decisions as controls. Every control sends a command exactly as the engine
// listed it in the view's `legal_commands` (text form: `p1 play 12 p3`, `p2 respond 30`,
// `p2 pass`), in words built from the question (`awaiting`) and the cards the viewer may see.
// The one exception is a choice the engine checks but cannot list in full: the cards to
// discard down to the hand limit (every k of n), picked here card by card and checked by the
// API like any command. A scorekeeper's table answers (a shuffle in an unknown order, the
// deck's next card, a card taken at random) are controls too, built the same way.

import { h } from "../dom.js";
import { cardOf, cardNode, cardWords } from "./deck.js";
import { handCards, inPlayCards, seatLabel } from "./table.js";

const ASKED = {
  shuffle: "shuffle a new deck",
  random_card: "take a card at random from a hand",
  top_card: "name the deck's next card",
  draw_source: "choose where the first card comes from",
  kit_return: "put one of the three cards back on the deck",
  draw_result: "choose the draw!'s result",
  play: "play a card or end the play",
  discard: "discard down to the hand limit",
  respond_shot: "answer a BANG!",
  respond_indians: "answer the Indians!",
  respond_duel: "answer the Duel",
  dying: "be saved by a Beer, or die",
  store_pick: "take a card from the General Store",
  discard_order: "order the cards going to the discard pile",
};

/** The awaited decision in words ("answer a BANG!"). */
export const decisionWords = (decision) => ASKED[decision] ?? String(decision ?? "").replaceAll("_", " ");

const PASS = {
  respond_shot: "Take the hit (lose 1 life)",
  respond_indians: "Take the hit (lose 1 life)",
  respond_duel: "Give up the Duel (lose 1 life)",
  dying: "No Beer: be eliminated",
};

/** A command's text split into its words. */
export function parseCommand(text) {
  const [player, verb, ...args] = String(text).trim().split(/\s+/);
  return { text, player, verb, args };
}

function cardInPlay(state, seat, id) {
  const player = state.players.find((p) => p.id === seat);
  return (player ? inPlayCards(player) : []).find((c) => c?.id === Number(id)) ?? cardOf(id);
}

/** One command in words, for the seat or the scorekeeper (`state` names seats and cards). */
export function commandWords(command, state) {
  const { verb, args } = command;
  const decision = state.awaiting?.decision;
  const card = (id) => cardWords(cardOf(id));
  switch (verb) {
    case "play": {
      const [id, target, targetCard] = args;
      if (!target) return `Play ${card(id)}`;
      if (targetCard) return `Play ${card(id)} on ${seatLabel(state, target)}'s ${cardWords(cardInPlay(state, target, targetCard))} (in play)`;
      const name = cardOf(id)?.name;
      if (name === "panic" || name === "cat_balou") return `Play ${card(id)} on a card at random from ${seatLabel(state, target)}'s hand`;
      // Calamity Janet's Missed! played as a BANG!
      return `Play ${card(id)}${name === "missed" ? " as a BANG!" : ""} on ${seatLabel(state, target)}`;
    }
    case "end":
      return "End the play (go to discarding)";
    case "respond": {
      if (decision === "dying") return `Drink ${card(args[0])}`;
      // Calamity Janet answers a shot with a BANG!, Indians! or a Duel with a Missed!
      const name = cardOf(args[0])?.name;
      const as = decision === "respond_shot" && name === "bang" ? " as a Missed!" : decision !== "respond_shot" && name === "missed" ? " as a BANG!" : "";
      return `Answer with ${card(args[0])}${as}`;
    }
    case "pass":
      return PASS[decision] ?? "Pass";
    case "barrel":
      return args[0] === "jourdonnais" ? "Draw! for Jourdonnais' own Barrel" : `Draw! for the Barrel (${card(args[0])})`;
    case "sid":
      return `Sid Ketchum: discard ${card(args[0])} and ${card(args[1])} to regain 1 life`;
    case "discard":
      return `Discard ${args.map(card).join(", ")}`;
    case "pick":
      return `Take ${card(args[0])}`;
    case "kit-return":
      return `Put ${card(args[0])} back on the deck`;
    case "draw-result":
      return `Let ${card(args[0])} be the draw!`;
    case "draw-from":
      if (args[0] === "deck") return "Draw the first card from the deck";
      if (args[0] === "discard") return "Draw the first card from the discard pile";
      return `Draw the first card from ${seatLabel(state, args[0])}'s hand`;
    case "order":
      return `Discard in this order: ${args.map(card).join(", ")} (the last on top)`;
    case "shuffle":
      return args[0] === "unknown" ? "Shuffled: order unknown (name each card as it is drawn)" : "Shuffled in the order listed";
    case "top":
      return `${card(args[0])}`;
    case "random":
      return `${card(args[0])}`;
    default:
      return command.text;
  }
}

/**
 * The awaited seat's options grouped for the page: `cards` (one group per hand card in phase 2,
 * each with its targets), `others` (end, pass, barrels, Sid Ketchum, picks…), `discard` (the
 * hand-limit picker: how many, from which hand) and `table` (a scorekeeper's random answers).
 */
export function cardControls(state) {
  const awaiting = state.awaiting;
  const commands = (state.legal_commands ?? []).map(parseCommand);
  const out = { cards: [], others: [], discard: null, table: null };
  if (!awaiting) return out;
  const decision = awaiting.decision;
  if (awaiting.player === "table") {
    out.table = { decision, options: commands };
    return out;
  }
  const groups = new Map();
  for (const command of commands) {
    if (command.verb === "play") {
      const id = Number(command.args[0]);
      if (!groups.has(id)) groups.set(id, { key: `card-${id}`, card: cardOf(id), options: [] });
      groups.get(id).options.push(command);
    } else if (command.verb === "discard") {
      // listed discards go through the picker, which checks the count; none listed is fine too
    } else {
      out.others.push(command);
    }
  }
  out.cards = [...groups.values()];
  if (decision === "discard") {
    const player = state.players.find((p) => p.id === awaiting.player);
    out.discard = { count: awaiting.count ?? 0, player: awaiting.player, hand: handCards(player) };
  }
  return out;
}

function optionButton(command, state, { send, busy }, label = null) {
  return h(
    "button",
    { type: "button", class: "button option", "data-option": command.text, disabled: busy, onclick: () => send(command.text) },
    label ?? commandWords(command, state),
  );
}

/**
 * The decision panel for the awaited seat. `ui`: {picked: Set of card ids for the discard
 * picker, toggle(id), choice: {value} for a scorekeeper's select}; `send(text)` plays a command.
 */
export function decisionPanel(state, { send, busy, ui, title }) {
  const c = cardControls(state);
  const awaiting = state.awaiting;
  const parts = [];
  const opts = { send, busy };
  for (const group of c.cards) {
    parts.push(
      h(
        "div",
        { class: "card-play-group", "data-testid": `play-${group.key}` },
        h("h3", null, cardNode(group.card)),
        h("div", { class: "play-options" }, group.options.map((o) => optionButton(o, state, opts, commandWords(o, state).replace(`Play ${cardWords(group.card)}`, "Play it")))),
      ),
    );
  }
  if (c.discard) {
    const { count, hand, player } = c.discard;
    const picked = [...ui.picked].filter((id) => hand.some((card) => card?.id === id));
    const text = picked.length === count ? `${player} discard ${picked.join(" ")}` : null;
    parts.push(
      h(
        "div",
        { class: "card-discard", "data-testid": "discard-picker" },
        h("p", null, `Choose ${count} ${count === 1 ? "card" : "cards"} to discard (your hand may hold as many cards as your life).`),
        h(
          "ul",
          { class: "card-list" },
          hand.map((card) =>
            h(
              "li",
              null,
              h(
                "button",
                {
                  type: "button",
                  class: `card-toggle${ui.picked.has(card.id) ? " card-picked" : ""}`,
                  "aria-pressed": ui.picked.has(card.id) ? "true" : "false",
                  "data-testid": `discard-card-${card.id}`,
                  disabled: busy,
                  onclick: () => ui.toggle(card.id),
                },
                cardNode(card),
              ),
            ),
          ),
        ),
        h(
          "button",
          { type: "button", class: "button option", "data-testid": "discard", "data-option": text, disabled: busy || !text, onclick: () => send(text) },
          picked.length === count
            ? `Discard ${picked.length === 1 ? "this card" : `these ${picked.length} cards`}`
            : `Pick ${count - picked.length > 0 ? `${count - picked.length} more` : `${picked.length - count} fewer`} (${picked.length} of the ${count} to discard picked)`,
        ),
      ),
    );
  }
  if (c.table) parts.push(tableAnswer(state, c.table, opts, ui));
  if (c.others.length) parts.push(h("div", { class: "play-options", "data-testid": "other-options" }, c.others.map((o) => optionButton(o, state, opts))));
  return h(
    "section",
    { class: "panel play-decision card-decision", "data-testid": "decision", "data-decision": awaiting?.decision, "aria-label": "Decision" },
    h("h2", null, title ?? `${seatLabel(state, awaiting?.player)}: ${decisionWords(awaiting?.decision)}`),
    awaiting?.count && awaiting.decision === "respond_shot" ? h("p", { class: "muted" }, `Missed! still needed: ${awaiting.count}.`) : null,
    ...parts,
  );
}

// A table game's random answers, entered by the scorekeeper as the table saw them.
function tableAnswer(state, { decision, options }, { send, busy }, ui) {
  if (decision === "shuffle") {
    const unknown = `table shuffle unknown`;
    return h(
      "div",
      { class: "card-table-entry", "data-testid": "shuffle-entry" },
      h("p", null, "The table shuffles a new deck. Its order is not known: each card is named here as it is drawn or turned up."),
      h("button", { type: "button", class: "button option", "data-option": unknown, "data-testid": "shuffle-unknown", disabled: busy, onclick: () => send(unknown) }, "Shuffled: order unknown"),
    );
  }
  const who = state.awaiting?.from_player;
  const question =
    decision === "top_card"
      ? who
        ? `The deck's next card, as ${seatLabel(state, who)} takes it (seen by that player):`
        : "The deck's next card, turned face up:"
      : decision === "random_card"
        ? `The card taken at random from ${seatLabel(state, who)}'s hand:`
        : `${decisionWords(decision)}:`;
  const select = h(
    "select",
    { "data-testid": "table-card", id: "table-card", disabled: busy, onchange: (e) => (ui.choice.value = e.target.value) },
    options.map((o) => h("option", { value: o.text, selected: ui.choice.value === o.text }, commandWords(o, state))),
  );
  if (!options.some((o) => o.text === ui.choice.value)) ui.choice.value = options[0]?.text ?? null;
  return h(
    "div",
    { class: "card-table-entry", "data-testid": "table-answer" },
    h("label", { for: "table-card" }, question),
    " ",
    select,
    " ",
    h("button", { type: "button", class: "button option", "data-testid": "table-enter", disabled: busy || !ui.choice.value, onclick: () => send(ui.choice.value) }, "Enter"),
  );
}
