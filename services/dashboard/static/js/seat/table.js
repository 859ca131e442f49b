// The table as one seat sees it: every player's card (role "?" while the rules hide it: the
// API already left it out), the dice with their kinds, and, while this seat aims a die, the
// seats it may hit highlighted, each with a button that aims it there.

import { h, properName, titleCase } from "../dom.js";
import { die, specialRoleName } from "../board.js";
import { seatUndead } from "../undead.js";
import { boneyardTurnNote, isZombie, isZombieMaster, zombieBadge } from "../zombies.js";

function roleBadge(role) {
  return h(
    "span",
    { class: `role role-${role ?? "hidden"}`, "data-testid": "seat-role", "aria-label": role ? `Role: ${titleCase(role)}` : "Role hidden" },
    role ? titleCase(role) : "?",
  );
}

function flags(player, state, mine) {
  if (player.ghost) return h("span", { class: "seat-flag ghost" }, "Ghost");
  // UA4: before an outbreak an eliminated seat keeps a Boneyard turn; a zombie out again is out for good
  if (!player.alive) return h("span", { class: "seat-flag out" }, isZombie(player) ? "Out for good" : "Eliminated", boneyardTurnNote(player, state));
  if (state.status === "ongoing" && state.active_player === player.id) {
    return h("span", { class: "seat-flag turn" }, mine ? "Your turn" : "Their turn");
  }
  return null;
}

/**
 * One player's card. `me`: this page's seat id; `aim`: {verb, command} when this seat is a
 * legal target of the die being aimed; `send(command)` plays a command.
 */
function seatCard(player, state, { me, aim, send, busy }) {
  const mine = player.id === me;
  const classes = ["seat", "play-seat", mine ? "seat-mine" : "", aim ? "seat-target" : "", player.alive ? "" : "seat-out",
    isZombie(player) ? "seat-zombie" : "", isZombieMaster(player) ? "seat-zombie-master" : "",
    state.status === "ongoing" && state.active_player === player.id ? "seat-active" : ""].filter(Boolean).join(" ");
  return h(
    "li",
    { class: classes, "data-testid": `seat-${player.id}`, "data-seat": player.id },
    h(
      "div",
      { class: "seat-head" },
      h("span", { class: "seat-id" }, player.id),
      h("span", { class: "seat-name" }, player.name ?? "—", mine ? " (you)" : ""),
      roleBadge(player.role),
      player.special_role ? h("span", { class: "special", "data-testid": "special-role" }, specialRoleName(player.special_role)) : null,
    ),
    // a plain zombie's character card went back at his elimination (§UA4)
    h("div", { class: "seat-character" }, isZombie(player) ? `no character (a zombie; was ${properName(player.character)})` : properName(player.character)),
    h(
      "div",
      { class: "play-seat-stats" },
      h("span", null, "Life ", h("strong", { "data-testid": "life" }, String(player.life)), ` / ${player.max_life}`),
      h("span", null, "Arrows ", h("strong", { "data-testid": "arrows" }, String(player.arrows)),
        state.chief_holder === player.id ? " incl. the Chief's" : "", isZombie(player) ? " · a zombie takes none" : ""),
    ),
    seatUndead(player, state),
    zombieBadge(player),
    flags(player, state, mine),
    aim
      ? h(
          "button",
          {
            type: "button",
            class: "button aim",
            "data-testid": `aim-${player.id}`,
            "data-option": aim.command.text,
            disabled: busy,
            onclick: () => send(aim.command.text),
          },
          `${aim.verb} ${player.id}`,
        )
      : null,
  );
}

/** The seats, clockwise. `targets`: seat id → command for the die being aimed (may be empty). */
export function seats(state, { me, targets, verb, send, busy }) {
  return h(
    "ol",
    { class: "seats play-seats", "aria-label": "Players, clockwise", "data-testid": "seats" },
    state.players.map((player) => {
      const command = targets.get(player.id);
      return seatCard(player, state, { me, aim: command ? { verb, command } : null, send, busy });
    }),
  );
}

/**
 * The dice. While this seat may reroll, each rerollable die is a toggle button
 * (aria-pressed); `picked` is the set of dice chosen to reroll, `toggle(i)` flips one.
 */
export function dice(state, { rerollable, picked, toggle, busy }) {
  if (!state.dice?.length) return h("p", { class: "muted" }, "No dice on the table yet.");
  return h(
    "ul",
    { class: "dice play-dice", "aria-label": "Dice", "data-testid": "dice" },
    state.dice.map((face, index) => {
      const node = die(face, state.dice_kinds?.[index] ?? "base", (state.dice_preset ?? []).includes(index));
      node.dataset.index = String(index);
      if (!rerollable?.has(index)) return node;
      const chosen = picked.has(index);
      const button = h(
        "button",
        {
          type: "button",
          class: `die-toggle${chosen ? " die-picked" : ""}`,
          "aria-pressed": chosen ? "true" : "false",
          "data-testid": `reroll-die-${index}`,
          title: chosen ? `Die ${index + 1}: will be rerolled` : `Die ${index + 1}: kept (press to reroll it)`,
          disabled: busy,
          onclick: () => toggle(index),
        },
        ...node.childNodes,
        h("span", { class: "die-choice" }, chosen ? "Reroll" : "Keep"),
      );
      node.replaceChildren(button);
      node.classList.add("die-choosable");
      return node;
    }),
  );
}
