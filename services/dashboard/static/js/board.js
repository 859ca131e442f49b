// A game's table as the server sent it (already redacted): players with life, arrows and
// role, the dice of the turn, whose turn it is. Used by the live and the replay views.
// A role the viewer may not see is null and is shown as "?": nothing here tries to infer it.

import { h, properName, titleCase } from "./dom.js";
import { href } from "./location.js";
import { faceName, faceSvg, isDouble } from "./dice-faces.js";
import { icon } from "./icons.js";
import { seatUndead, tableUndead } from "./undead.js";
import { boneyardTurnNote, isZombie, outbreakBanner, sideWins, zombieBadge } from "./zombies.js";
import { decisionWords } from "./seat/decisions.js";
import { diceCharacter, specialRoleNote, specialRoleText } from "./explain.js";

/**
 * A face's name, the one its die is read by ("Beer", "1", "Beer ×2"); a face the page has no
 * picture for (a later module's), its own words. In a sentence where a bare "1" would read
 * badly, dice-faces.js `faceWords` says "Shoot 1".
 */
export function faceLabel(face) {
  return faceName(face);
}

// The special role cards of OS3, by the names the audit's words use.
const SPECIAL_ROLES = {
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

export function specialRoleName(card) {
  return SPECIAL_ROLES[card] ?? properName(card);
}

/**
 * One die: its face drawn in SVG (dice-faces.js), named for screen readers ("Beer ×2"), and its
 * kind when it is not a base die (the Saloon dice of OS1 look different from the five base dice:
 * border, colour, a letter and the kind's name). `preset`: a Ghost token set it (OS5), never rolled.
 */
export function die(face, kind = "base", preset = false) {
  const saloon = Boolean(kind) && kind !== "base";
  const kindLabel = saloon ? titleCase(kind) : null;
  const kindClass = `die-kind-${kind || "base"}`;
  if (face === null || face === undefined) {
    return h(
      "li",
      {
        class: `die die-unrolled ${kindClass}${saloon ? " die-saloon" : ""}`,
        "data-kind": kind,
        "aria-label": saloon ? `${kindLabel} die, not rolled` : "not rolled",
      },
      h("span", { class: "die-blank", "aria-hidden": "true" }),
      saloon ? h("span", { class: "die-kind", "data-testid": "die-kind" }, kindLabel) : null,
    );
  }
  const name = faceName(face);
  const double = isDouble(face);
  // a preset die is a Ghost token's (OS5) unless it is a revealed Rage card's symbol or the
  // dynamite wound token (UA2, UA1): those say their kind already
  const ghost = preset && kind !== "rage" && kind !== "wound";
  const title = [saloon ? `${kindLabel} die` : null, name, ghost ? "set by a Ghost token" : null].filter(Boolean).join(": ");
  return h(
    "li",
    {
      class: ["die", `die-${face}`, kindClass, saloon ? "die-saloon" : "", double ? "die-double" : "", preset ? "die-preset" : ""]
        .filter(Boolean)
        .join(" "),
      title,
      "data-face": face,
      "data-kind": kind,
      "data-double": double ? "true" : null,
      "data-preset": preset ? "true" : null,
    },
    saloon ? h("span", { class: "die-kind", "data-testid": "die-kind" }, kindLabel) : null,
    faceSvg(face, kind),
    // the drawing carries the name for screen readers; the caption is for the eyes
    h("span", { class: "die-label", "aria-hidden": "true" }, name),
    ghost ? h("span", { class: "die-kind die-ghost" }, "Ghost") : null,
  );
}

const isOver = (state) => state.status === "ended" || state.status === "abandoned";

function roleBadge(role) {
  const shown = role ? titleCase(role) : "?";
  return h(
    "span",
    {
      class: `role role-${role ?? "hidden"}`,
      "data-testid": "role",
      title: role ? shown : "Hidden role",
      "aria-label": role ? `Role: ${shown}` : "Role hidden",
    },
    role === "sheriff" ? icon("star", "star") : null,
    shown,
  );
}

function lifeBar(life, maxLife) {
  const percent = maxLife > 0 ? Math.max(0, Math.min(100, (life / maxLife) * 100)) : 0;
  return h(
    "div",
    { class: "life" },
    h("span", { class: "life-text" }, "Life ", h("strong", { "data-testid": "life" }, String(life)), ` / ${maxLife}`),
    h(
      "div",
      { class: "bar", role: "meter", "aria-valuemin": 0, "aria-valuemax": maxLife, "aria-valuenow": life, "aria-label": "Life" },
      h("div", { class: "bar-fill", style: `width: ${percent}%` }),
    ),
  );
}

// OS3: a special role card shown once the server sends it (used, L'Ours, the eliminated, or the
// viewer's own); a hidden one is simply absent, never a "?" that would hint at anything.
function specialBadge(card, explain = false) {
  if (!card) return null;
  const name = specialRoleName(card);
  const power = specialRoleText(card);
  const badge = h("span", { class: `special special-${card}`, "data-testid": "special-role", "data-card": card, title: power ? `${name}: ${power}` : `Special role: ${name}` }, name);
  return explain ? [badge, specialRoleNote(card)] : badge;
}

function arrowsLine(player, state) {
  // UA4: a zombie takes no arrows (§UA4): his arrow faces do nothing
  if (isZombie(player)) return h("div", { class: "seat-arrows" }, "Arrows ", h("strong", { "data-testid": "arrows" }, String(player.arrows)), " · a zombie takes none");
  const chief = state.chiefHolder === player.id;
  return h(
    "div",
    { class: "seat-arrows" },
    "Arrows ",
    h("strong", { "data-testid": "arrows" }, String(player.arrows)),
    chief ? h("span", { class: "chief-badge", "data-testid": "chief-badge", title: "Holds the Chief's Arrow (worth 2 in an Indian attack)" }, " incl. the Chief's Arrow") : null,
  );
}

function ghostTokens(player) {
  const tokens = player.ghostTokens ?? [];
  if (!tokens.length) return null;
  return h("div", { class: "seat-ghost-tokens", "data-testid": "ghost-tokens" }, "Ghost tokens: ", tokens.map(faceLabel).join(", "));
}

// UA4: a plain zombie has no character any more (the card went back at his elimination).
function characterLine(player, explain = false) {
  if (isZombie(player)) return h("div", { class: "seat-character" }, "no character (a zombie; was ", properName(player.character), ")");
  const name = properName(player.character);
  return h("div", { class: "seat-character" }, explain ? diceCharacter(player.character, name) : name);
}

function outFlag(player, state) {
  if (player.alive) return null;
  // UA4: a zombie eliminated again is out for good; before an outbreak the eliminated keep a Boneyard turn
  const words = isZombie(player) ? "Out for good" : "Eliminated";
  return h("div", { class: "seat-flag out" }, words, boneyardTurnNote(player, state));
}

function playerCard(player, state, explain = false) {
  const active = state.activePlayer === player.id && !isOver(state);
  const awaited = state.awaiting?.player === player.id;
  const ghost = Boolean(player.ghost);
  const zombie = isZombie(player);
  const classes = ["seat", active ? "seat-active" : "", player.alive ? "" : "seat-out", ghost ? "seat-ghost" : "", zombie ? "seat-zombie" : "",
    player.zombieMaster ? "seat-zombie-master" : ""].filter(Boolean).join(" ");
  return h(
    "li",
    { class: classes, "data-testid": `seat-${player.id}`, "aria-current": active ? "true" : null },
    h(
      "div",
      { class: "seat-head" },
      h("span", { class: "seat-id" }, player.id),
      h(
        "span",
        { class: "seat-name" },
        player.memberId ? h("a", { href: href(`/player/${encodeURIComponent(player.memberId)}`) }, player.name ?? player.memberId) : player.name ?? "—",
      ),
      roleBadge(player.role),
      specialBadge(player.specialRole, explain),
    ),
    characterLine(player, explain),
    lifeBar(player.life, player.maxLife),
    arrowsLine(player, state),
    ghostTokens(player),
    seatUndead(player, state),
    zombieBadge(player),
    ghost
      ? h("div", { class: "seat-flag ghost", "data-testid": "ghost", title: "Out of the game, but keeps a turn: two dice and a Ghost token to give" }, "Ghost")
      : outFlag(player, state),
    active ? h("div", { class: "seat-flag turn" }, "Their turn") : null,
    awaited && !active ? h("div", { class: "seat-flag waiting" }, "To decide") : null,
  );
}

function resultLine(result) {
  if (!result) return null;
  const side = result.winning_side;
  const winners = (result.winners ?? []).join(", ");
  return h(
    "p",
    { class: "notice result", "data-testid": "result" },
    side ? `Game over: ${sideWins(side)} (${winners}).` : "Game over: nobody wins.",
  );
}

// "dice (base game)", "dice OS1 OS2"; an online game adds the seed derivations an audit re-derives with.
function rulesLine(state) {
  const ruleset = state.ruleset;
  const rules = ruleset && ruleset.modules.length ? ruleset.text : `${state.gameType ?? "dice"} (base game)`;
  return state.fairness ? `${rules} · seed: ${state.fairness}` : rules;
}

const MODULE_NAMES = {
  OS1: "the Loudmouth and the Coward",
  OS2: "the Chief's Arrow",
  OS3: "special roles",
  OS4: "new characters",
  OS5: "the Ghost",
  UA1: "duels",
  UA2: "Rage cards",
  UA3: "new characters",
  UA4: "the zombie outbreak",
  UA5: "legacy series",
};

// The versions of the data tables the ruleset plays with ("characters dice-base-1"), and what
// each module is: a game's ruleset is a recorded fact, shown whole.
function rulesDetail(state) {
  const ruleset = state.ruleset;
  if (!ruleset) return null;
  const modules = ruleset.modules.map((m) => (MODULE_NAMES[m] ? `${m} ${MODULE_NAMES[m]}` : m)).join(", ");
  const tables = Object.entries(ruleset.data ?? {})
    .map(([table, version]) => `${table} ${version}`)
    .join(", ");
  const parts = [modules ? `modules: ${modules}` : null, tables ? `tables: ${tables}` : null].filter(Boolean);
  return parts.length ? h("p", { class: "muted rules-detail", "data-testid": "ruleset-detail" }, parts.join(" · ")) : null;
}

// OS3's role windows are put to the whole table (named after the player whose turn it is), and
// never say who could answer: the line says so rather than "waiting for p1".
function awaitingLine(awaiting, state) {
  const window = /^role_window_(.+)$/.exec(awaiting.decision);
  const player = state.players.find((p) => p.id === awaiting.player);
  const who = player?.name ? `${player.name} (${player.id})` : awaiting.player;
  const text = window
    ? `Special role window (${window[1].replaceAll("_", " ")}), on ${who}'s turn: open to the table.`
    : `Waiting for ${who} to ${decisionWords(awaiting.decision)}${awaiting.rollsLeft ? ` (${awaiting.rollsLeft} rolls left)` : ""}.`;
  return h("p", { class: "muted", "data-testid": "awaiting" }, text);
}

// OS2: where the Chief's Arrow is. Shown only in a game that has it (in the pile or held).
function chiefFact(state) {
  if (!state.chiefHolder && !state.chiefInPile) return null;
  const holder = state.players.find((p) => p.id === state.chiefHolder);
  const where = holder ? `${holder.id} ${holder.name ?? ""}`.trim() : "in the pile";
  return h("div", null, h("dt", null, "Chief's Arrow"), h("dd", { "data-testid": "chief-arrow", "data-holder": state.chiefHolder ?? "" }, where));
}

// A game that is over has no turn: the fact beside the status is its outcome instead.
function turnOrOutcome(state) {
  if (isOver(state)) {
    return h("div", null, h("dt", null, "Result"), h("dd", { "data-testid": "outcome" }, outcome(state)));
  }
  const active = state.players.find((p) => p.id === state.activePlayer);
  return h(
    "div",
    null,
    h("dt", null, "Whose turn"),
    h("dd", { "data-testid": "active-player" }, active ? `${active.id} ${active.name ?? ""}`.trim() : "—"),
  );
}

function outcome(state) {
  if (state.status === "abandoned") return "Abandoned";
  const side = state.result?.winning_side;
  if (!state.result) return "Over";
  return side ? sideWins(side) : "Nobody wins";
}

/**
 * The REST state (GET /games/{id}, snake_case) in the shape `board` draws (the GraphQL Game's
 * field names); the REST fields GraphQL lacks (Undead or Alive's) ride along.
 */
export function restBoard(state) {
  const q = state.awaiting;
  return {
    ...state,
    activePlayer: state.active_player,
    arrowPile: state.arrow_pile,
    chiefHolder: state.chief_holder,
    chiefInPile: state.chief_in_pile,
    outbreakTurn: state.outbreak_turn,
    diceKinds: state.dice_kinds,
    dicePreset: state.dice_preset,
    gameType: state.game_type,
    awaiting: q ? { player: q.player, decision: q.decision, rollsLeft: q.rolls_left } : null,
    players: state.players.map((p) => ({
      ...p,
      memberId: p.member_id,
      maxLife: p.max_life,
      specialRole: p.special_role,
      ghostTokens: p.ghost_tokens,
      rageCards: p.rage_cards,
      zombieMaster: p.zombie_master,
    })),
  };
}

/** The table; `explain`: characters and special roles explained (the scorekeeper's page). */
export function board(state, { explain = false } = {}) {
  return h(
    "section",
    { class: "board", "aria-label": "Game table", "data-testid": "board" },
    h(
      "dl",
      { class: "facts" },
      h("div", null, h("dt", null, "Status"), h("dd", { "data-testid": "status" }, titleCase(state.status))),
      h("div", null, h("dt", null, "Turn"), h("dd", { "data-testid": "turn" }, state.turn ?? "—")),
      turnOrOutcome(state),
      h("div", null, h("dt", null, "Arrow pile"), h("dd", { "data-testid": "arrow-pile" }, state.arrowPile ?? "—")),
      chiefFact(state),
      ...tableUndead(state),
      h("div", null, h("dt", null, "Event"), h("dd", { "data-testid": "version" }, String(state.version))),
      h("div", null, h("dt", null, "Rules"), h("dd", { "data-testid": "ruleset" }, rulesLine(state))),
    ),
    rulesDetail(state),
    outbreakBanner(state),
    h(
      "div",
      { class: "dice-row" },
      h("h3", { id: "dice-heading" }, "Dice"),
      // a REST state before the deal (a replay of an Undead or Alive game at event 1) has no dice
      state.dice?.length
        ? h(
            "ul",
            { class: "dice", "aria-labelledby": "dice-heading", "data-testid": "dice" },
            state.dice.map((face, index) => die(face, state.diceKinds?.[index] ?? "base", (state.dicePreset ?? []).includes(index))),
          )
        : h("p", { class: "muted" }, "No dice on the table."),
      state.awaiting && !isOver(state) ? awaitingLine(state.awaiting, state) : null,
    ),
    resultLine(state.result),
    h("ol", { class: "seats", "aria-label": "Players, clockwise" }, state.players.map((p) => playerCard(p, state, explain))),
  );
}
