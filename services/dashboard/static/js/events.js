// One readable line per game event for the replay timeline and the live feed, in the words of
// services/game/records/trace.py ("p3 lost 1 life (shoot1 from p1)"). Roles an event carries
// are shown only when the server sent them: a redacted role is null and reads "?", a redacted
// special role is left out. An event type this page does not know (a module added later) still
// gets a line: its name in words and its plain fields, never nothing.
//
// The replay goes further: the server redacts events as the game stands *now* (a finished game
// shows every role), but the table on screen stands at event v. Given `seen` (seenOnBoard(the
// table at v)), a line names a role or a special role card only if that table shows the
// player's, whatever the event carries: the timeline, past and future events alike, never tells
// more than the board beside it.

import { sideWins } from "./zombies.js";
import { faceWords } from "./dice-faces.js";
import { properName } from "./dom.js";

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const list = (values) => (values ?? []).join(" ");
// Dice as people count them, from 1 (the engine's indexes are 0-based), and faces in the
// page's words ("Shoot 1", "Beer"), never the engine's ("shoot1").
const die = (index) => `die ${Number(index) + 1}`;
const dice = (indexes) => {
  const numbers = (indexes ?? []).map((i) => Number(i) + 1);
  return `${numbers.length === 1 ? "die" : "dice"} ${numbers.join(", ")}`;
};
const face = (value) => faceWords(value);
const faces = (values) => (values ?? []).map(faceWords).join(", ");
const words = (value) => String(value ?? "").replaceAll("_", " ");

// What took or gave a life, and why arrows moved: services/game/audit/words.py's words.
const CAUSES = {
  shoot1: "a Shoot 1",
  shoot2: "a Shoot 2",
  gatling: "the Gatling",
  bullet: "a bullet",
  indian_attack: "the Indian attack",
  dynamite: "the dynamite",
  duel: "a duel",
  price: "the price of Chuck Wengam's die",
};
const GAINS = {
  beer: "a beer",
  turn_start_heal: "Sid Ketchum's heal",
  end_of_turn_heal: "Suzy Lafayette's ability",
  elimination_reward: "Vulture Sam's reward",
  three_shots_heal: "Doc Holyday's shots",
  whiskey: "a whiskey",
};
const ARROW_REASONS = {
  roll: "roll",
  instead_of_life: "instead of losing life",
  hit_back: "for hitting El Gringo",
  rage: "a Rage card's arrow",
  gatling: "the Gatling",
  discard_on_loss: "for the life just lost",
  removed_by_gatling_face: "Kit Carlson's Gatling",
};
const FINAL = { stopped: "kept", no_rerolls_left: "no rerolls left", three_dynamite: "three dynamite" };
const DECLINED = {
  apache_take_chief: "to take the Chief's Arrow from its holder",
  double_shot: "to spend a beer to double a shot",
  arrows_instead: "to take arrows instead of losing life",
  discard_arrows: "to discard arrows for the life just lost",
  remove_arrows: "to make players return arrows",
};
const cause = (value) => CAUSES[value] ?? words(value);
const by = (what, source) => (source ? `${cause(what)} from ${source}` : cause(what));
const gain = (what, source) => `${GAINS[what] ?? words(what)}${source ? ` from ${source}` : ""}`;
const arrowReason = (value) => ARROW_REASONS[value] ?? words(value);

const CARDS = {
  l_ours: "L'Ours",
  le_bien: "Le Bien",
  le_doc: "Le Doc",
  le_juge: "Le Juge",
  le_joueur: "Le Joueur",
  le_mauvais: "Le Mauvais",
  le_vilain: "Le Vilain",
  main_droite: "La Main Droite du Diable",
  main_gauche: "La Main Gauche du Diable",
};
const card = (value) => CARDS[value] ?? String(value ?? "?");

/** What a table shows: each player's role and special role card, null where it is hidden. */
export function seenOnBoard(state) {
  const roles = {};
  const specials = {};
  // UA2: the Rage cards that table shows face up (the discards) or to this viewer (his own)
  const cards = new Set(state?.rage?.discard ?? []);
  for (const player of state?.players ?? []) {
    roles[player.id] = player.role ?? null;
    specials[player.id] = player.specialRole ?? null;
    for (const card of player.rageCards ?? []) cards.add(card);
  }
  return { roles, specials, cards };
}

/** Nothing shown yet (the table at v is still loading): every role reads "?". */
export const NOTHING_SEEN = Object.freeze({ roles: {}, specials: {}, cards: new Set() });

// The event's own role for `player`, unless the table at v hides that player's role.
function roleIn(seen, player, value) {
  if (seen && !seen.roles[player]) return "?";
  return value ?? "?";
}

function specialIn(seen, player, value) {
  if (seen && !seen.specials[player]) return null;
  return value ?? null;
}

const seat = (s, seen) => {
  const special = specialIn(seen, s.player, s.special);
  return `${s.player} ${roleIn(seen, s.player, s.role)}${special ? ` (${card(special)})` : ""} ${properName(s.character)}`;
};

// Who won says which side they were on: named only once the table shows every role.
function gameOver(e, seen) {
  const roles = seen ? Object.values(seen.roles) : [];
  if (seen && (!roles.length || roles.some((r) => !r))) return "game over";
  const after = e.outbreak_turn ? ` after the outbreak of turn ${e.outbreak_turn}` : "";
  return e.winning_side
    ? `game over${after}: ${sideWins(e.winning_side, true)} (${(e.winners ?? []).join(" ")})`
    : "game over: nobody wins";
}

const DESCRIBE = {
  GameCreated: (e) => {
    const modules = e.ruleset?.modules ?? [];
    const rules = `${e.ruleset?.game_type ?? "dice"}${modules.length ? ` ${modules.join(" ")}` : " (base game)"}`;
    return `game created (${e.mode ?? "online"}, ${e.player_count ?? "?"} players, ${rules})`;
  },
  PlayerJoined: (e) => `${e.name ?? "a player"} joined`,
  SeatsDealt: () => "seats dealt",
  SeedRevealed: () => "dice seed revealed",
  SeatReplaced: (e) => `${e.member_id ? e.name : "a bot"} took over seat ${e.player} in turn ${e.turn}`,
  GameStarted: (e, seen) =>
    `game started: ${(e.seats ?? []).map((s) => seat(s, seen)).join(", ")}${e.arrow_pile !== undefined ? `; arrow pile ${e.arrow_pile}` : ""}`,
  TurnStarted: (e) => `turn ${e.turn}: ${e.player}`,
  DiceRolled: (e) => `${e.player}'s roll ${e.roll}${(e.dice ?? []).length === 5 ? "" : ` (${dice(e.dice)})`}: ${faces(e.faces)}`,
  RerollChosen: (e) => `${e.player} rerolls ${dice(e.dice)}`,
  DiceFinalized: (e) => `${e.player}'s final dice: ${faces(e.faces)} (${FINAL[e.reason] ?? words(e.reason)})`,
  ArrowTaken: (e) => `${e.player} took an arrow (${arrowReason(e.reason)})`,
  // OS1, the Saloon dice; OS2, the Chief's Arrow (trace.py's words)
  SaloonDieChosen: (e) => `${e.player} rolls ${e.die ? `the ${words(e.die)} die` : "no Saloon die"}`,
  BrokenArrowUsed: (e) => (e.target ? `${e.player}'s broken arrow: ${e.target} returns an arrow` : `${e.player}'s broken arrow: nobody holds an arrow`),
  BulletHit: (e) => `${e.player} is hit by a bullet`,
  ChiefArrowTaken: (e) => `${e.player} took the Chief's Arrow (${arrowReason(e.reason)})`,
  ArrowTokenChosen: (e) => `${e.player} chooses ${e.chief ? "the Chief" : "a regular arrow"}`,
  // OS3, the special roles: a use reveals the card
  RolePowerUsed: (e, seen) => {
    const shown = specialIn(seen, e.player, e.role);
    return shown ? `${e.player} reveals ${card(shown)} and uses it` : `${e.player} reveals a special role and uses it`;
  },
  RoleUseCancelled: (e) => `${e.player} cancels ${e.cancelled}'s power`,
  WindowPassed: (e) => `nobody uses a special role (${String(e.window ?? "").replace(/^role_window_/, "").replaceAll("_", " ")})`,
  SheriffChanged: (e, seen) =>
    roleIn(seen, e.player, "sheriff") === "?" ? "the Sheriff's star changes hands" : `${e.player} becomes the Sheriff, ${e.previous} a Deputy`,
  ArrowsSwapped: (e) => `arrows swapped between ${e.first} and ${e.second}`,
  DieFaceSet: (e) => `${e.player} sets ${die(e.die)} to ${face(e.face)}`,
  RerollForced: (e) => `${e.player} forces ${e.target} to reroll`,
  GainHeld: (e) => `${e.player}'s gain of ${e.amount} held`,
  GainCancelled: (e) => `${e.player} cancels ${e.target}'s gain`,
  GainsReleased: () => "held gains released",
  EliminationsHeld: (e) => `eliminations held: ${list(e.players)}`,
  EliminationPrevented: (e) => `${e.player} saves ${e.target} at ${e.life} life`,
  EliminationsReleased: () => "held eliminations released",
  ExtraTurnGranted: (e) => `${e.player} will take an extra turn`,
  ExtraTurnTaken: (e) => `${e.player} takes an extra turn`,
  // OS5, the Ghost
  BecameGhost: (e) => `${e.player} becomes the Ghost`,
  GhostTokenGiven: (e) => `${e.player} gives the ${face(e.face)} Ghost token${e.x2 ? " and the ×2 token" : ""} to ${e.target}`,
  GhostDiceSet: (e) => `${e.player}'s Ghost token sets ${dice(e.dice)} to ${face(e.face)}`,
  GhostTokensReturned: (e) => `${e.player}'s Ghost tokens go back`,
  // UA2, Rage cards: a drawn card is face down, so its line never names it (even when the server
  // sent it to its holder): the holder reads it on his own seat, nobody else anywhere
  RageDrawn: (e) => `${e.player} draws a Rage card, face down${e.reshuffled ? " (the discards reshuffled first)" : ""}`,
  // the replay names revealed cards only once its table shows them (a later reveal of a card
  // still face down at that step is not told early)
  RageRevealed: (e, seen) => {
    const cards = e.cards ?? [];
    const named = !seen || (seen.cards && cards.every((c) => seen.cards.has(c)));
    return `${e.player} reveals ${plural(cards.length, "Rage card")}${named && cards.length ? `: ${list(cards)}` : ""}`;
  },
  RageReturned: (e) => `${e.player}'s ${plural(e.count, "face-down Rage card")} go to the discards unseen`,
  // UA4, the Boneyard (face up once revealed) and the zombie outbreak
  BoneyardRevealed: (e) =>
    `${e.player} reveals Boneyard card ${e.card} (${e.hands ? plural(e.hands, "hand") : "no hands: no outbreak this turn"})`,
  BoneyardShuffled: (e) => `Boneyard ${list(e.cards)} shuffled back`,
  OutbreakTriggered: (e) => `outbreak coming: ${plural(e.hands, "hand")} showing, ${e.alive} alive`,
  OutbreakBegan: (e) =>
    `OUTBREAK! ${list(e.zombies)} rise as zombies with ${e.life} life${e.master ? `; ${e.master} is the Zombie Master` : ""}`,
  // UA3, the new posse (the Rage card Pat moves or Pixie keeps is never named: face down)
  ShotHealed: (e) => `${e.player} heals ${e.target} for a shot`,
  ShotHealDeclined: (e) => `${e.player} heals nobody for a shot`,
  SecondHealGiven: (e) => `${e.player} gives the second heal of the beer on ${die(e.die)} to ${e.target}`,
  SecondHealDeclined: (e) => `${e.player} gives the second heal of the beer on ${die(e.die)} to nobody`,
  DynamiteConverted: (e) => `${e.player} turns ${die(e.die)}'s dynamite into a beer`,
  ConvertDeclined: (e) => `${e.player} keeps the dynamite`,
  DieBought: (e) => `${e.player} pays 1 life to set ${die(e.die)} to ${face(e.face)}`,
  DieNotBought: (e) => `${e.player} sets no die`,
  RageMoved: (e) => `${e.player} moves a face-down Rage card from ${e.giver} to ${e.taker}`,
  RageMoveDeclined: (e) => `${e.player} moves no Rage card`,
  RageKept: (e) => `${e.player} keeps one of the two Rage cards drawn, face down`,
  DuelThrowHeld: (e) => `${e.player} may throw the Duel die again`,
  DuelThrowRerolled: (e) => `${e.player} throws the Duel die again`,
  DuelThrowKept: (e) => `${e.player} lets the throw stand`,
  // UA1, duels and wound tokens (face up once drawn)
  WoundDrawn: (e) => (e.kept === false ? `${e.player} draws a ${face(e.card)} wound token, already held: back to the pile` : `${e.player} draws a ${face(e.card)} wound token`),
  WoundOwed: (e) => `${e.player} must draw a wound token`,
  WhiskeyDrunk: (e) => `${e.player} drinks a whiskey`,
  WhiskeyRage: (e) => `${e.player} holds no wound token: the whiskey draws a Rage card`,
  WoundDiscarded: (e) => `${e.player} discards the ${face(e.token)} wound token`,
  WoundsApplied: (e) => ((e.dice ?? []).length ? `${e.player}'s wound tokens cancel ${dice(e.dice)}` : `${e.player}'s wound tokens cancel no die`),
  WoundDynamiteSet: (e) => `${e.player}'s dynamite wound token counts as a dynamite`,
  WoundsReturned: (e) => `${e.player}'s wound tokens go back to the pile${(e.tokens ?? []).length ? ` (${faces(e.tokens)})` : ""}`,
  DuelChallenged: (e) => `${e.player} challenges ${e.target} to a duel`,
  DuelThrown: (e) => `${e.player} throws ${face(e.face)}${e.face === "duel" ? " (the duel goes on)" : ""}`,
  DuelLost: (e) => `${e.player} loses the duel to ${e.winner}`,
  DuelLossSettled: (e) => `${e.player}'s duel loss applies`,
  DuelsUnused: (e) => `${e.player}'s other duels find nobody left to challenge`,
  ArrowsReturned: (e) => `${e.player} returned ${plural(e.count, "arrow")} (${arrowReason(e.reason)})`,
  IndiansAttacked: () => "Indians attack",
  AllArrowsReturned: () => "all arrows back to the pile",
  DynamiteExploded: (e) => `dynamite explodes on ${e.player}`,
  ShotDoubled: (e) => `${e.player} doubles the shot of ${die(e.shot_die)} with the beer of ${die(e.beer_die)}`,
  AbilityDeclined: (e) => `${e.player} declines ${DECLINED[e.decision] ?? words(e.decision)}`,
  ArrowsInsteadChosen: (e) =>
    e.count === 0 ? `${e.player} loses life rather than take arrows` : `${e.player} takes ${plural(e.count, "arrow")} instead of losing life (${e.step === "shots" ? "the shots" : cause(e.step)})`,
  ChiefArrowsInsteadChosen: (e) => `${e.player} takes ${plural(e.count, "arrow")}, the Chief's Arrow first, instead of losing life`,
  ShotsFired: (e) => `${e.player} fires the shots`,
  GatlingFired: (e) => `${e.player} fires the gatling`,
  TargetChosen: (e) =>
    e.die === null || e.die === undefined
      ? `${e.player} chooses ${e.target} to gain 1 life`
      : `${e.player} aims ${die(e.die)}${e.as_face ? ` as a ${face(e.as_face)}` : ""} at ${e.target}`,
  LifeLost: (e) => `${e.player} lost ${e.amount} life (${by(e.cause, e.source)})`,
  LifeGained: (e) => `${e.player} gained ${e.amount} life (${gain(e.cause, e.source)})`,
  ArrowsRemoved: (e) => `${e.player} removes an arrow from ${(e.from_players ?? []).join(" ")}`,
  PlayerEliminated: (e, seen) =>
    `${e.player} (${roleIn(seen, e.player, e.role)}) eliminated ${e.source ? `by ${e.source} (${cause(e.cause)})` : `by ${cause(e.cause)}`} on turn ${e.turn}`,
  TurnEnded: (e) => `${e.player} ends the turn`,
  GameEnded: (e, seen) => gameOver(e, seen),
  // the lifecycle's own facts (services/game/application/lifecycle.py)
  DecisionTimedOut: (e) => `${e.player} ran out of time: the default answer was played for them`,
  GameAbandoned: (e) => `the game was abandoned${e.reason ? ` (${words(e.reason)})` : ""}`,
  EntryTakenBack: (e) =>
    e.from_version === e.to_version
      ? `the scorekeeper took back an entry (event ${e.from_version} no longer counts)`
      : `the scorekeeper took back an entry (events ${e.from_version} to ${e.to_version} no longer count)`,
};

// Fields of an unknown event that may say who holds which role: left out of the replay's line.
const ROLE_LIKE = /role|special|side|winner|result|team|card/;

// "GainsReleased" -> "gains released"; with its plain fields: "gains released (player p2)".
function generic(type, data, seen) {
  const words = String(type)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
  const entries = Object.entries(data ?? {}).filter(([key]) => !(seen && ROLE_LIKE.test(key)));
  const fields = entries
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== "object")
    .map(([key, value]) => `${key.replaceAll("_", " ")} ${value}`);
  const lists = entries
    .filter(([, value]) => Array.isArray(value) && value.every((v) => typeof v !== "object"))
    .map(([key, value]) => `${key.replaceAll("_", " ")} ${value.join(" ")}`);
  const all = [...fields, ...lists];
  return all.length ? `${words} (${all.join(", ")})` : words;
}

/** UA4's outbreak events stand out in a feed or a timeline (a class for a banner-like line). */
export function eventClass(event) {
  if (event?.type === "OutbreakBegan") return "event-outbreak";
  if (event?.type === "OutbreakTriggered") return "event-outbreak-coming";
  if (event?.type === "BoneyardRevealed") return "event-boneyard";
  return null;
}

/**
 * The line for one event. `seen` (optional, from seenOnBoard): name only the roles that table
 * shows; without it, the event's roles as the server sent them (the live feed, which is now).
 */
export function describeEvent(event, seen) {
  const describe = DESCRIBE[event.type];
  if (!describe) return generic(event.type, event.data, seen); // an event type added later still gets a line
  try {
    return describe(event.data ?? {}, seen);
  } catch {
    return generic(event.type, event.data, seen);
  }
}
