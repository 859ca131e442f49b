// The question a legacy series waits for between two games (UA5), in words, with the controls to
// answer it for whoever may: the player it asks, or at a table the scorekeeper (who also enters
// the table's draws). Every answer is one POST /series/{id}/decisions; a refusal is shown in the
// API's words and nothing on the page pretends it happened.

import { commandId, post } from "../../api.js";
import { h, mount, properName, titleCase } from "../../dom.js";
import { problemNotice } from "../organise/forms.js";

const enc = encodeURIComponent;

function nameOf(series, seat) {
  const last = series.games[series.games.length - 1];
  const found = last?.seats.find((s) => s.seat === seat);
  return found?.member?.displayName ?? seat;
}

function characterOf(series, seat) {
  const last = series.games[series.games.length - 1];
  return last?.seats.find((s) => s.seat === seat)?.character ?? null;
}

/** The question in words: "Bob Birch (p2) keeps Black Jack or draws another character". */
export function questionText(series, asked) {
  const who = `${asked.member?.displayName ?? nameOf(series, asked.seat)} (${asked.seat})`;
  switch (asked.ask) {
    case "next_sheriff":
      return `${who} survived as Sheriff and names the Sheriff of game ${asked.number}: himself, or another player, who then starts with +1 life.`;
    case "keep_character": {
      const character = characterOf(series, asked.seat);
      return `${who} survived: keeps ${character ? properName(character) : "the same character"}, or draws another one.`;
    }
    case "choose_character":
      return `${who} was eliminated and chooses a character for game ${asked.number} among those not played in the last game.`;
    case "sheriff":
      return `The table draws the Sheriff of game ${asked.number} among the other players.`;
    case "character":
      return `The table draws a new character for ${who}.`;
    case "roles":
      return `The table deals the other roles of game ${asked.number}, in seat order from the new Sheriff, ${who}.`;
    default:
      return `${who}: ${titleCase(asked.ask)}.`;
  }
}

/** The seats after `sheriff` in seat order, wrapping round (a roles deal's order). */
function seatsFrom(series, sheriff) {
  const seats = series.games[series.games.length - 1]?.seats.map((s) => s.seat) ?? [];
  const at = seats.indexOf(sheriff);
  return at < 0 ? seats : [...seats.slice(at + 1), ...seats.slice(0, at)];
}

/**
 * The controls answering `asked` (already known to be the viewer's to answer). `onDone(view)`
 * is called with the API's answer once it is stored.
 */
export function decisionControls(series, asked, onDone) {
  const outcome = h("div", { class: "form-outcome", "aria-live": "polite" });
  const pending = commandId("series");
  let busy = false;
  const buttons = [];
  async function send(fields) {
    if (busy) return;
    busy = true;
    for (const b of buttons) b.disabled = true;
    mount(outcome);
    let answer;
    try {
      answer = await post(`/series/${enc(series.id)}/decisions`, {
        command_id: pending,
        kind: asked.ask,
        seat: asked.seat,
        ...fields,
      });
    } catch (error) {
      if (error.name !== "AbortError") mount(outcome, problemNotice(error));
      busy = false;
      for (const b of buttons) b.disabled = false;
      return;
    }
    try {
      await onDone(answer);
    } catch {
      // stored, but the series could not be read again: the page's next poll shows it (the
      // poll waits while these buttons are disabled, so they must not stay disabled for good)
      mount(outcome, h("p", { class: "muted", "data-testid": "decision-stored" }, "Recorded. The page shows it at its next read."));
    } finally {
      busy = false;
      for (const b of buttons) b.disabled = false;
    }
  }
  const option = (label, value, fields) => {
    const button = h(
      "button",
      { type: "button", class: "button", "data-testid": "series-option", "data-value": value, onclick: () => send(fields) },
      label,
    );
    buttons.push(button);
    return button;
  };
  let controls;
  switch (asked.ask) {
    case "next_sheriff":
      controls = asked.among.map((seat) =>
        option(seat === asked.seat ? `Keep the star yourself (${seat})` : `${nameOf(series, seat)} (${seat})`, seat, { sheriff: seat }),
      );
      break;
    case "keep_character": {
      const character = characterOf(series, asked.seat);
      controls = [
        option(`Keep ${character ? properName(character) : "your character"}`, "yes", { keep: true }),
        option("Draw another character", "no", { keep: false }),
      ];
      break;
    }
    case "choose_character":
    case "character":
      controls = asked.among.map((c) => option(properName(c), c, { character: c }));
      break;
    case "sheriff":
      controls = asked.among.map((seat) => option(`${nameOf(series, seat)} (${seat})`, seat, { seat }));
      break;
    case "roles":
      controls = [rolesForm(series, asked, send, buttons)];
      break;
    default:
      controls = [];
  }
  return h(
    "div",
    { class: "series-decide", "data-testid": "series-decide" },
    h("div", { class: "button-row", role: "group", "aria-label": questionText(series, asked) }, controls),
    outcome,
  );
}

function rolesForm(series, asked, send, buttons) {
  const roles = [...new Set(asked.among)];
  const rows = seatsFrom(series, asked.seat).map((seat, index) => {
    const id = `series-role-${seat}`;
    const control = h("select", { id, "data-seat": seat }, roles.map((r) => h("option", { value: r }, titleCase(r))));
    if (asked.among[index]) control.value = asked.among[index];
    return { seat, control, label: h("label", { for: id }, `${nameOf(series, seat)} (${seat})`) };
  });
  const submit = h("button", { type: "submit", class: "button primary", "data-testid": "series-option", "data-value": "roles" }, "Enter the roles");
  buttons.push(submit);
  return h(
    "form",
    {
      class: "org-form stacked",
      "aria-label": "The roles dealt",
      onsubmit: (event) => {
        event.preventDefault();
        send({ roles: rows.map((r) => r.control.value) });
      },
    },
    rows.flatMap((r) => [r.label, r.control]),
    submit,
  );
}
