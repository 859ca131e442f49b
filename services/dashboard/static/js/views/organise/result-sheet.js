// The result sheet of a card game played entirely on cardboard (docs/league.md, "Result
// sheets"): each seat's role and character, the eliminations in the order they happened with
// who eliminated whom, the winning side and its members. One POST to the API's
// …/tables/{table}/result-sheet; the API checks the sheet's consistency and a refusal is shown
// in its words. The game is then known only from its sheet: "result sheet — not replayable".

import { post } from "../../api.js";
import { h, titleCase } from "../../dom.js";
import { actionForm, disclosure, labelled, select } from "./forms.js";

const ROLES = ["sheriff", "deputy", "outlaw", "renegade"];
const CHARACTERS = [
  "bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones", "jourdonnais",
  "kit_carlson", "lucky_duke", "paul_regret", "pedro_ramirez", "rose_doolan", "sid_ketchum",
  "slab_the_killer", "suzy_lafayette", "vulture_sam", "willy_the_kid",
];
const SIDES = [["law", "The Law (Sheriff and Deputies)"], ["outlaws", "The Outlaws"], ["renegade", "The Renegade"]];
const words = (id) => titleCase(id.replaceAll("_", " "));

/**
 * The form for `tableRow` (its members in the order they sat, its Sheriff) whose scheduled
 * table game is `game`; `base` is the round's API path; `done(answer)` redraws the page.
 */
export function resultSheetForm(base, tableRow, game, done) {
  const members = tableRow.members;
  const people = members.map((m) => [m.member_id, m.display_name]);
  const seats = members.map((m, i) => {
    const role = select(`${m.display_name}: role`, ROLES.map((r) => [r, titleCase(r)]), { "data-testid": "sheet-role", "data-member": m.member_id });
    const character = select(`${m.display_name}: character`, CHARACTERS.map((c) => [c, words(c)]), { "data-testid": "sheet-character", "data-member": m.member_id });
    role.control.value = tableRow.sheriff?.member_id === m.member_id ? "sheriff" : i === 0 && !tableRow.sheriff ? "sheriff" : "outlaw";
    character.control.value = CHARACTERS[i % CHARACTERS.length];
    return { member: m, role, character };
  });
  // one row per possible elimination, in order; a row left at "nobody more" ends the list
  const outs = members.slice(0, -1).map((_, i) => ({
    who: select(`Elimination ${i + 1}: who`, [["", "— nobody more —"], ...people], { "data-testid": "sheet-out", "data-n": i + 1 }),
    by: select(`Elimination ${i + 1}: by`, [["", "nobody (Dynamite, his own Duel)"], ...people], { "data-testid": "sheet-by", "data-n": i + 1 }),
    turn: labelled(`Elimination ${i + 1}: turn`, (id) =>
      h("input", { id, type: "number", min: 1, max: 10000, value: 1, "data-testid": "sheet-turn", "data-n": i + 1 }),
    ),
  }));
  const side = select("Winning side", SIDES, { "data-testid": "sheet-side" });
  const winners = members.map((m) =>
    labelled(`${m.display_name} won`, (id) => h("input", { id, type: "checkbox", value: m.member_id, "data-testid": "sheet-winner", "data-member": m.member_id })),
  );
  const fieldset = (legend, fields) => ({
    label: h("fieldset", { class: "sheet-part" }, h("legend", null, legend), fields.flatMap((f) => [f.label, f.control])),
    control: document.createTextNode(""),
  });
  const form = actionForm({
    label: `Result sheet of table ${tableRow.table}`,
    testid: "result-sheet",
    fields: [
      fieldset("Seats, in the order they sat", seats.flatMap((s) => [s.role, s.character])),
      fieldset("Eliminations, in the order they happened", outs.flatMap((o) => [o.who, o.by, o.turn])),
      fieldset("Result", [side, ...winners]),
    ],
    submit: "Record the result sheet",
    send: (id) => {
      const eliminations = [];
      for (const o of outs) {
        if (!o.who.control.value) break;
        const row = { member_id: o.who.control.value, turn: Number(o.turn.control.value) };
        if (o.by.control.value) row.by = o.by.control.value;
        eliminations.push(row);
      }
      return post(`${base}/tables/${tableRow.table}/result-sheet`, {
        seats: seats.map((s) => ({ member_id: s.member.member_id, role: s.role.control.value, character: s.character.control.value })),
        eliminations,
        winning_side: side.control.value,
        winners: winners.filter((w) => w.control.checked).map((w) => w.control.value),
        command_id: id,
      });
    },
    done,
  });
  return disclosure(`Enter table ${tableRow.table}'s result sheet (game ${game.game_id}, played on cardboard)`, form);
}
