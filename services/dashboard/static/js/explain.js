// Rules explained where they matter: a character's ability, a special role card (OS3), a card of
// the card game. `explained(name, text)` is the name itself with a `title` (a mouse hover) inside
// a <details> whose <summary> is the name: a tap, a click, or Enter/Space on the focused name
// shows the text under it (a native disclosure, keyboard accessible, no script). The texts live
// in one table per game type: DICE_RULES here, the card game's in cards/deck.js (ABILITIES,
// CARD_TEXTS).

import { h } from "./dom.js";

/** BANG! The Dice Game: every character's ability (base game, OS4, UA3) and OS3's special roles. */
export const DICE_RULES = {
  characters: {
    bart_cassidy: "May take an arrow instead of losing a life (not to the Indians or the dynamite).",
    black_jack: "May reroll dynamite (not when three or more are showing).",
    calamity_janet: "May use a 1 as a 2 and a 2 as a 1.",
    el_gringo: "When a player makes him lose life, that player takes an arrow.",
    jesse_jones: "At 4 life or less, a beer he drinks himself heals 2.",
    jourdonnais: "Never loses more than 1 life to an Indian attack.",
    kit_carlson: "For each Gatling rolled, may make any player return an arrow.",
    lucky_duke: "May make one extra reroll.",
    paul_regret: "Never loses life to the Gatling.",
    pedro_ramirez: "Each time he loses a life, may return one of his arrows.",
    rose_doolan: "Her 1s and 2s reach one seat further.",
    sid_ketchum: "At the start of his turn, a player of his choice gains 1 life.",
    slab_the_killer: "Once a turn, may spend a beer to double a 1 or a 2.",
    suzy_lafayette: "With no 1 and no 2 in her final dice, she gains 2 life.",
    vulture_sam: "Each time another player is eliminated, gains 2 life.",
    willy_the_kid: "Fires the Gatling with two Gatlings instead of three.",
    // OS4, A Posse of New Characters
    apache_kid: "For each arrow he rolls, may take the Chief's Arrow from its holder instead.",
    bill_noface: "His arrows wait until his last roll: only his final dice's arrows count.",
    doc_holyday: "Using three or more shots in a turn heals him 2.",
    elena_fuente: "For each roll with arrows, may give one of them to another player.",
    jose_delgado: "Rolls a Saloon die beside the five base dice.",
    molly_stark: "May lose, in another player's place, the life that player must lose.",
    tequila_joe: "Rolls a Saloon die beside the five base dice.",
    vera_custer: "The shots hitting her in a turn's shots cost her one life less.",
    // UA3, A New Posse in Town
    belle_star: "After each roll, may turn one dynamite into a beer.",
    chuck_wengam: "Once a turn, may pay 1 life to set one of his dice to any face of that die.",
    greg_digger: "Each beer he uses heals twice: the second heal to a player of his choice.",
    herb_hunter: "Whoever loses 2 life or more during his turn draws a wound token.",
    pat_brennan: "At the start of his turn, may move a face-down Rage card from one player to another.",
    pixie_pete: "Draws two Rage cards for each one he must draw, and keeps one.",
    sam_the_healer: "For each 1 he uses, may make a player gain 1 life.",
    sean_mallory: "Once a turn, may throw a losing Duel die again.",
  },
  specialRoles: {
    l_ours: "The Sheriff's card, shown from the start: the Sheriff has 3 more life.",
    le_bien: "Once a game, at the start of a turn: this Deputy becomes the Sheriff, the Sheriff a Deputy.",
    le_vilain: "Once a game, at the start of a turn: swap all the arrows of two players.",
    le_doc: "Once a game, after a roll: set one die of the player whose turn it is to a face of that die.",
    le_joueur: "Once a game, when the dice are final: the player whose turn it is rerolls them, and that roll is his last.",
    le_juge: "Once a game, after another special role is used: cancel it.",
    le_mauvais: "Once a game, before gains of life apply: cancel every gain of one player.",
    main_gauche: "Once a game, when players fall to 0 life: save one, who stays in with 2 life.",
    main_droite: "Once a game, at the end of a turn: take an extra turn.",
  },
};

/** The name, explained: a hover `title` and a <details> that shows `text` on a tap or a key. */
export function explained(name, text, { testid = null } = {}) {
  if (!text) return name;
  return h(
    "details",
    { class: "explain", "data-testid": testid },
    h("summary", { title: text }, name),
    h("p", { class: "explain-text" }, text),
  );
}

/** A dice character's name with its ability. */
export const diceCharacter = (id, name) => explained(name, DICE_RULES.characters[id] ?? null, { testid: "explain-character" });

/** An OS3 special role card's name with its power. */
export const specialRole = (id, name) => explained(name, DICE_RULES.specialRoles[id] ?? null, { testid: "explain-special-role" });

/** After a special role's badge (whose own text stays its name): "what it does", tap to show. */
export function specialRoleNote(id) {
  const text = DICE_RULES.specialRoles[id];
  if (!text) return null;
  return h(
    "details",
    { class: "explain explain-more", "data-testid": "explain-special-role" },
    h("summary", { title: text }, "what it does"),
    h("p", { class: "explain-text" }, text),
  );
}

/** A special role's power, for a badge's hover title. */
export const specialRoleText = (id) => DICE_RULES.specialRoles[id] ?? null;
