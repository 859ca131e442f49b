// One readable line per game event for the replay timeline and the live feed, in the words of
// services/game/records/trace.py ("p3 lost 1 life (shoot1 from p1)"). Roles an event carries
// are shown only when the server sent them: a redacted role is null and reads "?", a redacted
// special role is left out. An event type this page does not know (a module added later) still
// gets a line: its name in words and its plain fields, never nothing.

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const role = (value) => value ?? "?";
const by = (cause, source) => (source ? `${cause} from ${source}` : String(cause));
const list = (values) => (values ?? []).join(" ");

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
const seat = (s) => `${s.player} ${role(s.role)}${s.special ? ` (${card(s.special)})` : ""} ${s.character}`;

const DESCRIBE = {
  GameCreated: (e) => {
    const modules = e.ruleset?.modules ?? [];
    const rules = `${e.ruleset?.game_type ?? "dice"}${modules.length ? ` ${modules.join(" ")}` : " (base game)"}`;
    return `game created (${e.mode ?? "online"}, ${e.player_count ?? "?"} players, ${rules})`;
  },
  PlayerJoined: (e) => `${e.name ?? e.member_id ?? "a player"} joined`,
  SeatsDealt: () => "seats dealt",
  SeedRevealed: () => "dice seed revealed",
  GameStarted: (e) =>
    `game started: ${(e.seats ?? []).map(seat).join(", ")}${e.arrow_pile !== undefined ? `; arrow pile ${e.arrow_pile}` : ""}`,
  TurnStarted: (e) => `turn ${e.turn}: ${e.player}`,
  DiceRolled: (e) => `${e.player} roll ${e.roll}${(e.dice ?? []).length === 5 ? "" : ` dice ${list(e.dice)}`}: ${list(e.faces)}`,
  RerollChosen: (e) => `${e.player} rerolls ${(e.dice ?? []).join(" ")}`,
  DiceFinalized: (e) => `${e.player} final dice: ${(e.faces ?? []).join(" ")} (${e.reason})`,
  ArrowTaken: (e) => `${e.player} took an arrow (${e.reason})`,
  // OS1, the Saloon dice; OS2, the Chief's Arrow (trace.py's words)
  SaloonDieChosen: (e) => `${e.player} rolls ${e.die ? `the ${e.die} die` : "no Saloon die"}`,
  BrokenArrowUsed: (e) => (e.target ? `${e.player}'s broken arrow: ${e.target} returns an arrow` : `${e.player}'s broken arrow: nobody holds an arrow`),
  BulletHit: (e) => `${e.player} is hit by a bullet`,
  ChiefArrowTaken: (e) => `${e.player} took the Chief's Arrow (${e.reason})`,
  ArrowTokenChosen: (e) => `${e.player} chooses ${e.chief ? "the Chief" : "a regular arrow"}`,
  // OS3, the special roles: a use reveals the card
  RolePowerUsed: (e) => `${e.player} reveals ${card(e.role)} and uses it`,
  RoleUseCancelled: (e) => `${e.player} cancels ${e.cancelled}'s power`,
  WindowPassed: (e) => `${String(e.window ?? "").replace(/^role_window_/, "").replaceAll("_", " ")} window passes`,
  SheriffChanged: (e) => `${e.player} becomes the Sheriff, ${e.previous} a Deputy`,
  ArrowsSwapped: (e) => `arrows swapped between ${e.first} and ${e.second}`,
  DieFaceSet: (e) => `${e.player} sets die ${e.die} to ${e.face}`,
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
  GhostTokenGiven: (e) => `${e.player} gives the ${e.face} Ghost token${e.x2 ? " and x2" : ""} to ${e.target}`,
  GhostDiceSet: (e) => `${e.player}'s Ghost token sets die ${list(e.dice)} to ${e.face}`,
  GhostTokensReturned: (e) => `${e.player}'s Ghost tokens go back`,
  ArrowsReturned: (e) => `${e.player} returned ${plural(e.count, "arrow")} (${e.reason})`,
  IndiansAttacked: () => "Indians attack",
  AllArrowsReturned: () => "all arrows back to the pile",
  DynamiteExploded: (e) => `dynamite explodes on ${e.player}`,
  ShotDoubled: (e) => `${e.player} doubles die ${e.shot_die} with beer die ${e.beer_die}`,
  AbilityDeclined: (e) => `${e.player} declines ${e.decision}`,
  ArrowsInsteadChosen: (e) => `${e.player} takes ${plural(e.count, "arrow")} instead of life (${e.step})`,
  ShotsFired: (e) => `${e.player} fires the shots`,
  GatlingFired: (e) => `${e.player} fires the gatling`,
  TargetChosen: (e) =>
    e.die === null || e.die === undefined
      ? `${e.player} chooses ${e.target} to gain 1 life`
      : `${e.player} aims die ${e.die}${e.as_face ? ` as ${e.as_face}` : ""} at ${e.target}`,
  LifeLost: (e) => `${e.player} lost ${e.amount} life (${by(e.cause, e.source)})`,
  LifeGained: (e) => `${e.player} gained ${e.amount} life (${by(e.cause, e.source)})`,
  ArrowsRemoved: (e) => `${e.player} removes an arrow from ${(e.from_players ?? []).join(" ")}`,
  PlayerEliminated: (e) =>
    `${e.player} (${role(e.role)}) eliminated ${e.source ? `by ${e.source} (${e.cause})` : `by ${e.cause}`} on turn ${e.turn}`,
  TurnEnded: (e) => `${e.player} ends the turn`,
  GameEnded: (e) =>
    e.winning_side
      ? `game over: ${e.winning_side} ${e.winning_side === "outlaws" ? "win" : "wins"} (${(e.winners ?? []).join(" ")})`
      : "game over: nobody wins",
};

// "GainsReleased" -> "gains released"; with its plain fields: "gains released (player p2)".
function generic(type, data) {
  const words = String(type)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
  const fields = Object.entries(data ?? {})
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== "object")
    .map(([key, value]) => `${key.replaceAll("_", " ")} ${value}`);
  const lists = Object.entries(data ?? {})
    .filter(([, value]) => Array.isArray(value) && value.every((v) => typeof v !== "object"))
    .map(([key, value]) => `${key.replaceAll("_", " ")} ${value.join(" ")}`);
  const all = [...fields, ...lists];
  return all.length ? `${words} (${all.join(", ")})` : words;
}

export function describeEvent(event) {
  const describe = DESCRIBE[event.type];
  if (!describe) return generic(event.type, event.data); // an event type added later still gets a line
  try {
    return describe(event.data ?? {});
  } catch {
    return generic(event.type, event.data);
  }
}
