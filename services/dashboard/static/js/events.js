// One readable line per game event for the replay timeline, in the words of
// services/game/records/trace.py ("p3 lost 1 life (shoot1 from p1)"). Roles an event carries
// are shown only when the server sent them: a redacted role is null and reads "?".

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const role = (value) => value ?? "?";
const by = (cause, source) => (source ? `${cause} from ${source}` : String(cause));

const DESCRIBE = {
  GameCreated: (e) => `game created (${e.mode ?? "online"}, ${e.player_count ?? "?"} players)`,
  PlayerJoined: (e) => `${e.name ?? e.member_id ?? "a player"} joined`,
  SeatsDealt: () => "seats dealt",
  SeedRevealed: () => "dice seed revealed",
  GameStarted: (e) =>
    `game started: ${(e.seats ?? []).map((s) => `${s.player} ${role(s.role)} ${s.character}`).join(", ")}`,
  TurnStarted: (e) => `turn ${e.turn}: ${e.player}`,
  DiceRolled: (e) => `${e.player} roll ${e.roll}: ${(e.faces ?? []).join(" ")}`,
  RerollChosen: (e) => `${e.player} rerolls ${(e.dice ?? []).join(" ")}`,
  DiceFinalized: (e) => `${e.player} final dice: ${(e.faces ?? []).join(" ")} (${e.reason})`,
  ArrowTaken: (e) => `${e.player} took an arrow (${e.reason})`,
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

export function describeEvent(event) {
  const describe = DESCRIBE[event.type];
  if (!describe) return event.type; // an event type added later still gets a line
  try {
    return describe(event.data ?? {});
  } catch {
    return event.type;
  }
}
