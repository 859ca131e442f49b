// The new-game page (#/new-game): any game, from the browser. Online or at a table; the dice
// game with any module set a table may combine (OS1–OS5, UA1–UA5 as this server plays them) or
// the card game (8 players as its option); the seats from one of your clubs' members by name; at
// a table each seat's role and character (the API deals only online games), and optionally the
// position the game stands at ("we are already playing": new-game-position.js); online, the
// decision timer. The choices come from the API (GET /rulesets, GET /rulesets/seats), which
// also says in its words why a set is not allowed at a size; POST /games decides, and a refusal
// is shown in its words. Created, the page goes to the game: online its seat and lobby page,
// at a table the keep-score page.

import { ApiError, commandId, get, post, problemSlug } from "../api.js";
import { h, mount, properName, titleCase } from "../dom.js";
import { href } from "../location.js";
import { profile } from "../me.js";
import { current } from "../session.js";
import { load } from "../status.js";
import { problemNotice } from "./organise/forms.js";
import { emptyPosition, positionForm, positionJson, positionProblem, resizePosition } from "./new-game-position.js";

const enc = encodeURIComponent;

function rulesetText(model) {
  if (model.gameType === "cards") return model.eight ? "cards eight_players" : "cards";
  return ["dice", ...[...model.modules].sort()].join(" ");
}

function radios(name, legend, options, chosen, onPick, testid) {
  return h(
    "fieldset",
    { class: "choice-row", "data-testid": testid },
    h("legend", null, legend),
    options.map(([value, label]) => {
      const input = h("input", { type: "radio", name, value, checked: value === chosen, id: `${name}-${value}` });
      input.addEventListener("change", () => input.checked && onPick(value));
      return h("span", { class: "check" }, input, h("label", { for: `${name}-${value}` }, label));
    }),
  );
}

function selectBox(label, options, chosen, onPick, attrs = {}) {
  const select = h(
    "select",
    attrs,
    options.map(([value, words]) => h("option", { value, selected: String(value) === String(chosen) }, words)),
  );
  select.addEventListener("change", () => onPick(select.value));
  return h("label", { class: "field" }, h("span", null, label), select);
}

/** The dice game's modules as checkboxes, each with what it needs; one this server does not play is shown, not offered. */
function moduleBoxes(gameType, model, onChange) {
  const expansions = new Map();
  for (const m of gameType.modules) {
    if (!expansions.has(m.expansion)) expansions.set(m.expansion, []);
    expansions.get(m.expansion).push(m);
  }
  return [...expansions].map(([expansion, modules]) =>
    h(
      "fieldset",
      { class: "checks", "data-testid": `modules-${expansion.toLowerCase().replaceAll(" ", "-")}` },
      h("legend", null, expansion),
      modules.map((m) => {
        const id = `module-${m.id}`;
        const box = h("input", { type: "checkbox", id, value: m.id, checked: model.modules.has(m.id), disabled: !m.played });
        box.addEventListener("change", () => {
          if (box.checked) model.modules.add(m.id);
          else model.modules.delete(m.id);
          onChange();
        });
        const notes = [
          m.requires.length ? `needs ${m.requires.join(", ")}` : null,
          m.min_players > 3 ? `${m.min_players}+ players` : null,
          m.played ? null : "not played by this server yet",
        ].filter(Boolean);
        return h("span", { class: "check" }, box, h("label", { for: id }, `${m.id} · ${m.name}`, notes.length ? h("span", { class: "muted" }, ` (${notes.join("; ")})`) : null));
      }),
    ),
  );
}

function fillSeats(model) {
  const choices = model.seatChoices;
  const count = model.players;
  const seats = model.seats.slice(0, count);
  while (seats.length < count) seats.push({ member: "", role: "", character: "", special: "" });
  if (choices) {
    const used = new Set();
    seats.forEach((seat, i) => {
      if (!choices.roles.includes(seat.role)) seat.role = choices.roles[i];
      if (!choices.characters.some((c) => c.id === seat.character) || used.has(seat.character)) {
        seat.character = choices.characters.find((c) => !used.has(c.id) && !seats.some((s) => s.character === c.id))?.id ?? choices.characters[i]?.id ?? "";
      }
      used.add(seat.character);
    });
    const specials = choices.special_roles;
    const taken = new Set();
    for (const seat of seats) {
      if (!specials.length) {
        seat.special = "";
        continue;
      }
      const fits = specials.find((c) => c.id === seat.special && c.role === seat.role && !taken.has(c.id));
      seat.special = fits ? fits.id : specials.find((c) => c.role === seat.role && !taken.has(c.id))?.id ?? "";
      taken.add(seat.special);
    }
  }
  model.seats = seats;
  model.position = resizePosition(model.position, count);
}

/**
 * Give seat `i` the role or character `value` as cards are dealt: the seat that held it takes
 * this seat's, so the table still holds each role its size deals and each character once.
 */
function swap(seats, i, key, value) {
  const other = seats.findIndex((s, j) => j !== i && s[key] === value);
  if (other >= 0) seats[other][key] = seats[i][key];
  seats[i][key] = value;
}

function memberName(model, id) {
  return model.members.find((m) => m.member_id === id)?.display_name ?? "";
}

export function renderNewGame(main, { signal }) {
  if (!current()) {
    window.location.hash = href("/signin", { next: "/new-game" });
    return;
  }
  const body = h("div", { class: "new-game" });
  mount(main, h("header", { class: "page-head" }, h("h1", null, "New game"), h("p", { class: "muted" }, "Online, or at a table: the dice game with its expansions, or the card game.")), body);
  load(
    body,
    "the rules and your clubs",
    async () => {
      const [rulesets, loaded] = await Promise.all([get("/rulesets", { signal }), profile({ signal })]);
      return { rulesets, loaded };
    },
    ({ rulesets, loaded }) => newGameForm(rulesets, loaded, signal),
    signal,
  );
}

function newGameForm(rulesets, loaded, signal) {
  const me = loaded.account;
  const clubs = loaded.clubs;
  const model = {
    mode: "online",
    gameType: "dice",
    players: 4,
    modules: new Set(),
    eight: false,
    clubId: clubs[0]?.club_id ?? "",
    members: [],
    picked: new Set([me.account_id]),
    timer: "",
    seats: [],
    started: false,
    position: emptyPosition(4),
    seatChoices: null,
    refusal: null,
  };
  const typeOf = () => rulesets.game_types.find((t) => t.game_type === model.gameType);

  const rulesPart = h("div", { class: "new-game-rules" });
  const checkLine = h("p", { class: "ruleset-check", role: "status", "data-testid": "ruleset-check" });
  const peoplePart = h("div", { class: "new-game-people" });
  const positionPart = h("div", { class: "new-game-position" });
  const outcome = h("div", { class: "form-outcome", "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "button primary", "data-testid": "create-game" }, "Create the game");
  let pending = commandId("new");
  let asked = 0;

  // the rules' answer for this set at this size: the seats' choices, or why not in the API's words
  const checkRuleset = async () => {
    const ask = (asked += 1);
    const text = rulesetText(model);
    try {
      const choices = await get(`/rulesets/seats?ruleset=${enc(text)}&players=${model.players}`, { signal });
      if (ask !== asked) return;
      model.seatChoices = choices;
      model.refusal = null;
      checkLine.className = "ruleset-check ok";
      checkLine.textContent = `${typeOf().name}${model.gameType === "dice" && model.modules.size ? ` with ${[...model.modules].sort().join(", ")}` : ""}, ${model.players} players: the rules allow it.`;
    } catch (error) {
      if (ask !== asked || error.name === "AbortError") return;
      model.seatChoices = null; // no seats to offer for a game the rules do not allow
      model.refusal = error.message;
      checkLine.className = "ruleset-check refused";
      checkLine.textContent = error instanceof ApiError ? error.message : `The rules could not be asked: ${error.message}`;
    }
    fillSeats(model);
    drawPeople();
  };

  const loadMembers = async () => {
    if (!model.clubId) {
      model.members = [];
      drawPeople();
      return;
    }
    try {
      const page = await get(`/clubs/${enc(model.clubId)}/members?limit=100`, { signal });
      model.members = page.items;
    } catch (error) {
      if (error.name === "AbortError") return;
      model.members = [];
      mount(outcome, problemNotice(error));
    }
    model.picked = new Set([...model.picked].filter((id) => model.members.some((m) => m.member_id === id)));
    drawPeople();
  };

  function drawRules() {
    const type = typeOf();
    const sizes = [];
    for (let n = type.min_players; n <= type.max_players; n += 1) sizes.push([String(n), `${n} players`]);
    if (model.players < type.min_players || model.players > type.max_players) model.players = Math.max(type.min_players, Math.min(model.players, type.max_players));
    mount(
      rulesPart,
      radios("mode", "Where you play", [["online", "Online (the server deals and rolls)"], ["table", "At a table (you keep the score of real dice or cards)"]], model.mode, (v) => {
        model.mode = v;
        drawRules();
        drawPeople();
      }, "mode"),
      radios("game-type", "Which game", rulesets.game_types.map((t) => [t.game_type, t.name]), model.gameType, (v) => {
        model.gameType = v;
        model.eight = v === "cards" && model.players === 8;
        drawRules();
        checkRuleset();
      }, "game-type"),
      selectBox("How many players", sizes, model.players, (v) => {
        model.players = Number(v);
        if (model.gameType === "cards") model.eight = model.players === 8;
        drawRules();
        checkRuleset();
      }, { "data-testid": "player-count" }),
      model.gameType === "dice"
        ? h("div", { class: "modules" }, h("p", { class: "muted" }, "Expansion modules (none: the base game)"), moduleBoxes(type, model, checkRuleset))
        : type.options.map((o) => {
            const box = h("input", { type: "checkbox", id: `option-${o.id}`, checked: model.eight });
            box.addEventListener("change", () => {
              model.eight = box.checked;
              checkRuleset();
            });
            return h("p", { class: "check" }, box, h("label", { for: `option-${o.id}` }, `${o.name} (${o.players} players)`));
          }),
      checkLine,
    );
  }

  function clubPicker() {
    if (!clubs.length) return h("p", { class: "notice" }, "You are in no club yet: the players are picked from a club's members. ", h("a", { href: "#/clubs/new" }, "Found a club"), " or ask an organiser for an invite.");
    return selectBox("The club whose members play", clubs.map((c) => [c.club_id, c.name]), model.clubId, (v) => {
      model.clubId = v;
      loadMembers();
    }, { "data-testid": "club" });
  }

  function onlinePeople() {
    const boxes = model.members.map((m) => {
      const id = `member-${m.member_id}`;
      const box = h("input", { type: "checkbox", id, checked: model.picked.has(m.member_id) });
      box.addEventListener("change", () => {
        if (box.checked) model.picked.add(m.member_id);
        else model.picked.delete(m.member_id);
      });
      return h("span", { class: "check" }, box, h("label", { for: id }, m.display_name, m.member_id === me.account_id ? " (you)" : ""));
    });
    const timer = h("input", { type: "number", min: "1", inputmode: "numeric", value: model.timer, "data-testid": "timer", id: "decision-timer" });
    timer.addEventListener("input", () => (model.timer = timer.value));
    return [
      h(
        "fieldset",
        { class: "checks", "data-testid": "members" },
        h("legend", null, `The players known now (up to ${model.players}; the others join from the game's page)`),
        boxes.length ? boxes : h("p", { class: "muted" }, "No members to pick."),
      ),
      h("label", { class: "field", for: "decision-timer" }, h("span", null, "Decision time limit in seconds (empty: none)"), timer),
    ];
  }

  function tablePeople() {
    const choices = model.seatChoices;
    if (!choices) return h("p", { class: "muted" }, "Pick a game the rules allow to seat its players.");
    const seatable = model.members.filter((m) => m.member_id !== me.account_id);
    const rows = model.seats.map((seat, i) => {
      const cells = [
        selectBox(`Seat ${i + 1}: player`, [["", "— pick a player —"], ...seatable.map((m) => [m.member_id, m.display_name])], seat.member, (v) => {
          seat.member = v;
          drawPosition();
        }, { "data-testid": `seat-${i + 1}-player` }),
        selectBox(`Seat ${i + 1}: role`, [...new Set(choices.roles)].map((r) => [r, titleCase(r)]), seat.role, (v) => {
          swap(model.seats, i, "role", v);
          fillSeats(model);
          drawPeople();
        }, { "data-testid": `seat-${i + 1}-role` }),
        selectBox(`Seat ${i + 1}: character`, choices.characters.map((c) => [c.id, c.name]), seat.character, (v) => {
          swap(model.seats, i, "character", v);
          drawPeople();
        }, { "data-testid": `seat-${i + 1}-character` }),
      ];
      if (choices.special_roles.length) {
        cells.push(selectBox(`Seat ${i + 1}: special role card`, choices.special_roles.filter((c) => c.role === seat.role).map((c) => [c.id, properName(c.id)]), seat.special, (v) => (seat.special = v), { "data-testid": `seat-${i + 1}-special` }));
      }
      return h("fieldset", { class: "seat-row", "data-testid": `seat-${i + 1}` }, h("legend", null, `Seat ${i + 1}`), cells);
    });
    const already = h("input", { type: "checkbox", id: "already-playing", checked: model.started, "data-testid": "already-playing" });
    already.addEventListener("change", () => {
      model.started = already.checked;
      drawPosition();
    });
    return [
      h("p", { class: "muted" }, "Clockwise from seat 1, with the roles and characters dealt at the table. You keep the score, so you do not sit at it."),
      rows,
      h("p", { class: "check" }, already, h("label", { for: "already-playing" }, "We are already playing: start from where the game stands")),
    ];
  }

  function drawPeople() {
    mount(peoplePart, h("h2", null, "Players"), clubPicker(), model.mode === "online" ? onlinePeople() : tablePeople());
    drawPosition();
  }

  function drawPosition() {
    if (model.mode !== "table" || !model.started || !model.seatChoices) {
      mount(positionPart);
      return;
    }
    const seats = model.seats.map((s) => ({ ...s, name: memberName(model, s.member) }));
    mount(
      positionPart,
      h("h2", null, "Where the game stands"),
      positionForm({ gameType: model.gameType, modules: model.modules, seats, characters: model.seatChoices.characters, position: model.position }),
    );
  }

  function request() {
    const ruleset = model.gameType === "cards" ? { game_type: "cards", options: model.eight ? ["eight_players"] : [] } : { game_type: "dice", modules: [...model.modules].sort() };
    const asked = { command_id: pending, mode: model.mode, player_count: model.players, ruleset };
    if (model.mode === "online") {
      asked.members = model.members.filter((m) => model.picked.has(m.member_id)).map((m) => ({ member_id: m.member_id, name: m.display_name }));
      if (model.timer !== "") asked.options = { decision_timeout_seconds: Number(model.timer) };
      return { asked };
    }
    const empty = model.seats.findIndex((s) => !s.member);
    if (empty >= 0) return { problem: `Pick the player of seat ${empty + 1}.` };
    asked.seats = model.seats.map((s) => ({
      member_id: s.member,
      name: memberName(model, s.member),
      role: s.role,
      character: s.character,
      ...(s.special ? { special: s.special } : {}),
    }));
    if (model.started) {
      const named = model.seats.map((s) => ({ name: memberName(model, s.member) }));
      const problem = positionProblem(model.gameType, named, model.position);
      if (problem) return { problem };
      asked.position = positionJson(model.gameType, model.seatChoices.seat_ids, model.position);
    }
    return { asked };
  }

  const form = h(
    "form",
    {
      class: "org-form stacked new-game-form",
      "aria-label": "New game",
      "data-testid": "new-game",
      onsubmit: async (event) => {
        event.preventDefault();
        mount(outcome);
        const { asked, problem } = request();
        if (problem) {
          mount(outcome, h("p", { class: "notice error", role: "alert", "data-testid": "form-error" }, problem));
          return;
        }
        submit.disabled = true;
        let created;
        try {
          created = await post("/games", asked, { signal });
        } catch (error) {
          submit.disabled = false;
          if (error.name === "AbortError") return;
          if (problemSlug(error) === "command-id-reused") pending = commandId("new");
          mount(outcome, problemNotice(error));
          return;
        }
        pending = commandId("new");
        const id = enc(created.game_id);
        window.location.hash = model.mode === "online" ? `#/game/${id}/play` : `#/game/${id}/table`;
      },
    },
    h("section", null, h("h2", null, "The game"), rulesPart),
    h("section", null, peoplePart),
    h("section", null, positionPart),
    submit,
    outcome,
  );
  drawRules();
  drawPeople();
  checkRuleset();
  loadMembers();
  return form;
}
