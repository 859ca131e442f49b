// Play an online game from your seat (#/game/<id>/play). The page reads only the public API:
// GET /games/{id} answers the game as this account may see it (its own role, nobody else's
// hidden one) and, when this seat must decide, the engine's `legal_commands`; a move is POST
// /games/{id}/commands with the command exactly as the engine listed it and the version the
// page decided on, so a page that fell behind is refused (in the API's words), never wrong.
// Live updates come over the subscription (seat/feed.js), which survives a dropped connection.

import { h, mount, properName, titleCase } from "../dom.js";
import { href } from "../location.js";
import { commandId, get, post } from "../api.js";
import { current } from "../session.js";
import { failure, loading } from "../status.js";
import { specialRoleName } from "../board.js";
import { controls, decisionWords, label, rerollText } from "../seat/decisions.js";
import { aimTitle, aimVerb, currentAim, targetsOf } from "../seat/targets.js";
import { dice, seats } from "../seat/table.js";
import { follow } from "../seat/feed.js";
import { gameLog } from "../game-log.js";
import { refreshYourMove } from "../your-move.js";
import { diceCharacter, specialRoleNote } from "../explain.js";
import { ratingChange } from "../rating-change.js";
import { tableUndead } from "../undead.js";
import { isZombie, isZombieMaster, outbreakBanner, sideWins, zombieGoal } from "../zombies.js";

const GOALS = {
  sheriff: "Eliminate the Outlaws and the Renegade.",
  deputy: "Protect the Sheriff: eliminate the Outlaws and the Renegade.",
  outlaw: "Eliminate the Sheriff.",
  renegade: "Be the last one standing.",
};
const CONNECTION_WORDS = { connecting: "connecting", live: "live", reconnecting: "reconnecting…", offline: "offline", "game over": "game over" };

function seatLabel(state, seatId) {
  const player = state.players.find((p) => p.id === seatId);
  return player?.name ? `${player.name} (${seatId})` : seatId;
}

/** "1:05" for 65 seconds. */
function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Every update redraws the page; a keyboard user keeps their place: the control that had the
// focus (same test id or same command) gets it back, else the page's first option does.
function focusKey(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  return { testid: active.dataset.testid ?? null, option: active.dataset.option ?? null };
}

/** Focus the control `key` names (or the first option); false when none may take it yet. */
function refocus(root, key) {
  const same = [...root.querySelectorAll("button")].find(
    (b) => (key.testid && b.dataset.testid === key.testid) || (key.option && b.dataset.option === key.option),
  );
  const next = same && !same.disabled ? same : root.querySelector("[data-option]:not([disabled])");
  next?.focus();
  return Boolean(next);
}

function rollsLeft(count) {
  if (!count) return null;
  return h("span", { class: "muted" }, ` · ${count} ${count === 1 ? "reroll" : "rerolls"} left`);
}

function timeLeftText(deadline) {
  if (!deadline) return null;
  const left = (Date.parse(deadline) - Date.now()) / 1000;
  return left > 0 ? `${clock(left)} left before the default answer is played` : "Time is up: the default answer is being played";
}

export function renderPlay(main, { args: [gameId], signal }) {
  const who = current();
  const gamePath = `/games/${encodeURIComponent(gameId)}`;
  const head = h(
    "header",
    { class: "page-head" },
    h("h1", null, "Your seat"),
    h("p", { class: "muted play-game-id" }, "Game ", h("code", null, gameId)),
  );
  if (!who) {
    mount(
      main,
      head,
      h("p", { class: "notice", "data-testid": "sign-in-first" }, "Sign in to play your seat. ", h("a", { href: href("/signin") }, "Sign in")),
    );
    return null;
  }
  const myId = who.account.account_id;
  const connection = h("span", { class: "badge", role: "status", "data-testid": "connection", "data-state": "connecting" }, "connecting");
  head.append(
    h(
      "p",
      null,
      "Live updates: ",
      connection,
      " · ",
      h("a", { href: href(`/game/${encodeURIComponent(gameId)}/live`) }, "Watch view"),
      " · ",
      h("a", { href: href(`/game/${encodeURIComponent(gameId)}/replay`) }, "Replay"),
    ),
  );
  const root = h("div", { class: "play", "data-testid": "play" }, loading("the game"));
  // the log sits outside the part every update redraws, so its list keeps its scroll
  const log = gameLog(gameId, { signal });
  mount(main, head, root, log.node);

  const model = { state: null, picked: new Set(), aim: null, busy: false, refusal: null, readError: null };
  let countdown = null; // the "time left" node, ticked every second
  let ratings = null; // a finished game's rating changes (rating-change.js)
  let pendingFocus = null; // where the keyboard was when a redraw had nothing to focus

  // --- reading ---------------------------------------------------------------------------------
  const apply = (state) => {
    const shown = model.state;
    if (shown && state.version < shown.version) return; // an older answer overtaken by a newer one
    if (!shown || state.version !== shown.version) {
      model.picked = new Set();
      model.aim = null;
    }
    model.state = state;
    model.readError = null;
    redraw();
    log.update(state);
  };
  let reading = null;
  let again = false;
  const refresh = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = get(gamePath, { signal })
      .then(apply)
      .catch((error) => {
        if (signal.aborted || error.name === "AbortError") return;
        model.readError = error;
        if (error.status === 404) stop?.(); // no such game: nothing to follow
        redraw();
      })
      .finally(() => {
        reading = null;
        if (again && !signal.aborted) {
          again = false;
          refresh();
        }
      });
  };

  // --- writing ---------------------------------------------------------------------------------
  const send = async (command) => {
    if (model.busy || !model.state) return;
    model.busy = true;
    model.refusal = null;
    redraw();
    try {
      const answer = await post(`${gamePath}/commands`, {
        command,
        command_id: commandId("play"),
        expected_version: model.state.version,
      });
      model.refusal = null;
      model.busy = false;
      if (!signal.aborted) apply(answer.state);
      refreshYourMove(); // the title's "Your move" count changes with the move
    } catch (error) {
      model.busy = false;
      if (signal.aborted || error.name === "AbortError") return;
      model.refusal = error.message; // the referee's words, shown until the next move
      redraw();
      refresh(); // the game may have moved on: decide again on what it is now
    }
  };
  const join = async () => {
    model.busy = true;
    redraw();
    try {
      await post(`${gamePath}/players`, { command_id: commandId("join") });
      model.refusal = null;
    } catch (error) {
      if (signal.aborted) return;
      model.refusal = error.message;
    } finally {
      model.busy = false;
      if (!signal.aborted) refresh();
    }
  };

  // --- drawing ---------------------------------------------------------------------------------
  function redraw() {
    if (signal.aborted) return;
    const state = model.state;
    if (!state) {
      if (model.readError) mount(root, failure("the game", model.readError, refresh));
      return;
    }
    root.dataset.version = String(state.version);
    root.dataset.status = state.status;
    root.dataset.busy = model.busy ? "true" : "false";
    const mine = state.players.find((p) => p.member_id === myId) ?? null;
    const deciding = (state.legal_commands ?? []).length > 0;
    root.dataset.deciding = deciding ? "true" : "false";
    const c = deciding ? controls(state) : null;
    const aim = c ? currentAim(c.aims, model.aim) : null;
    const targets = aim ? targetsOf(aim) : new Map();
    countdown = null;
    const idle = !document.activeElement || document.activeElement === document.body;
    const focused = focusKey(root) ?? (idle ? pendingFocus : null);
    pendingFocus = null;
    mount(
      root,
      roleBanner(state, mine),
      situation(state, mine, deciding),
      outbreakBanner(state),
      model.refusal ? h("p", { class: "notice error", role: "alert", "data-testid": "form-error" }, model.refusal) : null,
      model.readError ? h("p", { class: "notice error", role: "alert", "data-testid": "read-error" }, `Could not read the game: ${model.readError.message}`) : null,
      c ? decisionPanel(state, c, aim) : null,
      h(
        "section",
        { class: "panel play-table", "aria-label": "The table" },
        facts(state),
        h("h2", { class: "play-dice-heading" }, "Dice", rollsLeft(state.awaiting?.rolls_left)),
        dice(state, { rerollable: c?.reroll?.rerollable, picked: model.picked, toggle, busy: model.busy }),
        seats(state, { me: mine?.id, targets, verb: aimVerb(aim, state.awaiting?.decision), send, busy: model.busy }),
      ),
    );
    if (focused && !refocus(root, focused)) pendingFocus = focused; // all disabled while a move is sent
  }

  const toggle = (index) => {
    if (model.picked.has(index)) model.picked.delete(index);
    else model.picked.add(index);
    redraw();
  };

  function roleBanner(state, mine) {
    if (!mine) {
      return h("p", { class: "notice play-role", "data-testid": "not-seated" }, "You have no seat in this game: you are watching it.");
    }
    const role = mine.role;
    return h(
      "section",
      { class: `play-role play-role-${role ?? "hidden"}`, "data-testid": "my-role", "aria-label": "Your role" },
      h("p", { class: "play-role-title" }, "Your role: ", h("strong", { "data-testid": "my-role-name" }, role ? titleCase(role) : "not dealt yet")),
      role ? h("p", { class: "play-role-goal", "data-testid": "my-goal" }, zombieGoal(mine, state) ?? GOALS[role] ?? "") : null,
      h(
        "p",
        { class: "play-role-more" },
        // a plain zombie's character card went back at his elimination (§UA4)
        isZombie(mine) ? `You are ${mine.name ?? mine.id} (${mine.id}), a zombie without a character` : `You are ${mine.name ?? mine.id} (${mine.id}), playing `,
        isZombie(mine) ? "" : diceCharacter(mine.character, properName(mine.character)),
        mine.special_role ? `, with the special role ${specialRoleName(mine.special_role)}` : "",
        mine.special_role ? specialRoleNote(mine.special_role) : "",
        state.status === "ended"
          ? ". The game is over: every role is shown."
          : isZombie(mine) || isZombieMaster(mine)
            ? ". Since the outbreak your role is shown to everyone."
            : ". Only you see your role.",
      ),
    );
  }

  function situation(state, mine, deciding) {
    if (state.status === "ended") {
      const result = state.result ?? {};
      const side = result.winning_side;
      const winners = (result.winners ?? []).map((seat) => seatLabel(state, seat)).join(", ");
      const you = mine ? ((result.winners ?? []).includes(mine.id) ? " You won." : " You lost.") : "";
      ratings ??= ratingChange(gameId, signal); // read once, kept across redraws
      return h(
        "div",
        null,
        h(
          "p",
          { class: "notice result", "data-testid": "result", role: "status" },
          side ? `Game over: ${sideWins(side)} (${winners}).${you}` : `Game over: nobody wins.${you}`,
        ),
        ratings,
      );
    }
    if (state.status === "abandoned") {
      return h("p", { class: "notice", "data-testid": "result" }, "This game was abandoned: it has no result.");
    }
    if (state.status === "lobby") {
      const joined = state.joined ?? [];
      const inIt = joined.some((j) => j.member_id === myId);
      return h(
        "section",
        { class: "panel", "data-testid": "lobby" },
        h("h2", null, "Waiting for players"),
        h("p", null, `${joined.length} of ${state.player_count} have joined: `, joined.map((j) => j.name).join(", ") || "nobody yet", "."),
        inIt
          ? h("p", { class: "muted" }, "You have joined. The game starts when the table is full.")
          : h("button", { type: "button", class: "button", "data-testid": "join", disabled: model.busy, onclick: join }, "Join this game"),
      );
    }
    const awaiting = state.awaiting;
    const active = state.active_player;
    if (deciding) {
      const yours = active === mine?.id;
      return h(
        "p",
        { class: "notice play-yours", "data-testid": "your-decision", role: "status" },
        h("strong", null, yours ? "Your turn: " : "Your decision: "),
        decisionWords(awaiting?.decision),
        ".",
        timer(state),
      );
    }
    const awaitedName = awaiting ? seatLabel(state, awaiting.player) : null;
    const window = /^role_window_/.test(awaiting?.decision ?? "");
    return h(
      "p",
      { class: "notice play-waiting", "data-testid": "turn-message", role: "status" },
      h("strong", null, "Whose turn: "),
      h("span", { "data-testid": "whose-turn" }, active ? seatLabel(state, active) : "—"),
      ". ",
      awaiting
        ? awaiting.decision === "roll"
          ? `The dice are being rolled for ${awaitedName}.`
          : window
            ? `The table may ${decisionWords(awaiting.decision)}.`
            : `Waiting for ${awaitedName} to ${decisionWords(awaiting.decision)}.`
        : "",
      timer(state),
    );
  }

  function timer(state) {
    const text = timeLeftText(state.deadline);
    if (!text) return null;
    countdown = h("span", { class: "play-time", "data-testid": "time-left", "data-deadline": state.deadline }, ` ${text}.`);
    return countdown;
  }

  function facts(state) {
    const active = state.players.find((p) => p.id === state.active_player);
    return h(
      "dl",
      { class: "facts" },
      h("div", null, h("dt", null, "Turn"), h("dd", { "data-testid": "turn" }, state.turn ?? "—")),
      state.status === "ongoing" && active
        ? h("div", null, h("dt", null, "Playing"), h("dd", { "data-testid": "active-player" }, seatLabel(state, active.id)))
        : null,
      h("div", null, h("dt", null, "Arrow pile"), h("dd", { "data-testid": "arrow-pile" }, state.arrow_pile ?? "—")),
      ...tableUndead(state),
      h("div", null, h("dt", null, "Event"), h("dd", { "data-testid": "version" }, String(state.version))),
      h("div", null, h("dt", null, "Rules"), h("dd", null, state.ruleset?.modules?.length ? state.ruleset.text : "base game")),
    );
  }

  function option(command, state, extra = {}) {
    return h(
      "button",
      { type: "button", class: "button option", "data-option": command.text, disabled: model.busy, onclick: () => send(command.text), ...extra },
      label(command, state),
    );
  }

  function decisionPanel(state, c, aim) {
    const me = state.awaiting?.player;
    const parts = [];
    if (c.reroll) {
      const picked = [...model.picked];
      const text = picked.length ? rerollText(me, picked) : null;
      const allowed = text !== null && c.reroll.rerolls.has(text);
      parts.push(
        h(
          "div",
          { class: "play-reroll" },
          h("p", null, c.reroll.rerollable.size ? "Press the dice you want to roll again, then Reroll; or keep them all." : "No die may be rerolled."),
          h(
            "div",
            { class: "play-options" },
            c.reroll.stop ? option(c.reroll.stop, state, { "data-testid": "keep" }) : null,
            c.reroll.rerollable.size
              ? h(
                  "button",
                  {
                    type: "button",
                    class: "button option",
                    "data-testid": "reroll",
                    "data-option": allowed ? text : null,
                    disabled: model.busy || !allowed,
                    onclick: () => send(text),
                  },
                  picked.length ? `Reroll ${picked.length} ${picked.length === 1 ? "die" : "dice"}` : "Reroll",
                )
              : null,
          ),
        ),
      );
    }
    for (const group of c.aims) {
      const current = group === aim;
      parts.push(
        h(
          "div",
          { class: `play-aim${current ? " play-aim-current" : ""}`, "data-testid": `aim-group-${group.key}` },
          h(
            "h3",
            null,
            aimTitle(group, state.awaiting?.decision),
            current
              ? h("span", { class: "muted" }, " · its targets are highlighted on the table")
              : h("button", { type: "button", class: "linkish", onclick: () => ((model.aim = group.key), redraw()) }, " show its targets on the table"),
          ),
          h("div", { class: "play-options" }, group.options.map((o) => option(o, state))),
        ),
      );
    }
    if (c.others.length) {
      parts.push(h("div", { class: "play-options", "data-testid": "other-options" }, c.others.map((o) => option(o, state))));
    }
    return h(
      "section",
      { class: "panel play-decision", "data-testid": "decision", "aria-label": "Your decision" },
      h("h2", null, titleCase(decisionWords(state.awaiting?.decision))),
      ...parts,
    );
  }

  // --- live ------------------------------------------------------------------------------------
  const setConnection = (status) => {
    connection.textContent = CONNECTION_WORDS[status] ?? status;
    connection.dataset.state = status === "offline" || status === "reconnecting" ? "disconnected" : status;
    connection.dataset.connection = status;
  };
  let stop = null;
  refresh();
  stop = follow(gameId, { lastVersion: () => model.state?.version ?? 0, onWake: refresh, onStatus: setConnection });
  const ticker = setInterval(() => {
    if (countdown && model.state?.deadline) countdown.textContent = ` ${timeLeftText(model.state.deadline)}.`;
  }, 1000);
  return () => {
    stop();
    clearInterval(ticker);
  };
}
