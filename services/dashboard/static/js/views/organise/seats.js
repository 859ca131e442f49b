// A league game's seats, for its organisers and referees: what keeps the game from moving (a
// member without a login, a seat that keeps running out of time, a decision past its time), a
// login link for a member who has none, and "Replace this seat" (another member, by name, or a
// bot). The API decides each (docs/league.md, "Games that do not stall"); a refusal shows its
// words.

import { get, post } from "../../api.js";
import { h, mount } from "../../dom.js";
import { failure } from "../../status.js";
import { actionForm, disclosure, doneNotice, inviteBox, problemNotice, select, textInput } from "./forms.js";

const enc = encodeURIComponent;
const BOT = "bot";

function seatName(line) {
  return line.member ? line.member.display_name : "a bot";
}

function seatRow(ctx, line, panel) {
  const badges = [];
  if (line.bot) badges.push(h("span", { class: "badge" }, "Bot"));
  if (line.member && !line.has_login) badges.push(h("span", { class: "badge warn", "data-testid": "no-login" }, "No login"));
  if (line.timeouts) {
    const times = line.timeouts === 1 ? "once" : `${line.timeouts} times`;
    badges.push(h("span", { class: "badge warn" }, `Ran out of time ${times}`));
  }
  const outcome = h("div", { "aria-live": "polite" });
  let link = null;
  if (ctx.organises && line.member && !line.has_login) {
    link = h("button", { type: "button", class: "button", "data-testid": "send-login-link" }, `Send ${line.member.display_name} a login link`);
    link.addEventListener("click", async () => {
      link.disabled = true;
      try {
        const sent = await post(`/clubs/${enc(panel.clubId)}/members/${enc(line.member.member_id)}/login-link`);
        mount(outcome, inviteBox(sent.display_name, sent.invite.token));
      } catch (error) {
        mount(outcome, problemNotice(error));
      }
      link.disabled = false;
    });
  }
  return h(
    "li",
    { "data-testid": "game-seat", "data-seat": line.seat },
    h("strong", null, `Seat ${line.seat.slice(1)}: `),
    seatName(line),
    badges.length ? [" ", ...badges] : null,
    link ? [" ", link] : null,
    outcome,
  );
}

function replaceForm(ctx, panel, answer) {
  const seated = new Set(answer.seats.filter((s) => s.member).map((s) => s.member.member_id));
  const seat = select(
    "Seat",
    answer.seats.map((s) => [s.seat, `Seat ${s.seat.slice(1)}: ${seatName(s)}`]),
  );
  if (answer.waiting_on) seat.control.value = answer.waiting_on;
  const others = ctx.clubMembers.filter((m) => !seated.has(m.member_id)).sort((a, b) => a.display_name.localeCompare(b.display_name));
  const who = select("Who takes it over", [...others.map((m) => [m.member_id, m.display_name]), [BOT, "A bot (the server plays the seat)"]]);
  const reason = textInput("Reason (optional)", { maxlength: 500 });
  return disclosure(
    "Replace this seat",
    actionForm({
      label: `Replace a seat of game ${panel.gameId}`,
      testid: "replace-seat",
      fields: [seat, who, reason],
      submit: "Replace this seat",
      send: (id) => {
        const body = { reason: reason.control.value, command_id: id };
        if (who.control.value === BOT) body.bot = true;
        else body.member_id = who.control.value;
        return post(`/leagues/${enc(ctx.leagueId)}/games/${enc(panel.gameId)}/seats/${enc(seat.control.value)}/replace`, body);
      },
      done: async (done) => {
        const taker = done.substitute ? done.substitute.display_name : "A bot";
        await panel.reload(); // the seats as they are now (this form is drawn anew)
        panel.said(`${taker} plays seat ${done.seat.slice(1)} from now on, in place of ${done.replaced ? done.replaced.display_name : "a bot"}.`);
      },
    }),
  );
}

/** The seats panel of an ongoing online league game (organisers and referees of its club). */
export function seatsPanel(ctx, game) {
  const place = h("div");
  const notice = h("div", { "aria-live": "polite" });
  const panel = {
    gameId: game.game_id,
    clubId: ctx.data.league.club.club_id,
    said(words) {
      mount(notice, doneNotice(words));
    },
    async reload() {
      let answer;
      try {
        answer = await get(`/leagues/${enc(ctx.leagueId)}/games/${enc(game.game_id)}/seats`);
      } catch (error) {
        mount(place, failure("the game's seats", error));
        return;
      }
      mount(
        place,
        answer.warnings.length
          ? h(
              "div",
              { class: "notice warn", role: "alert", "data-testid": "game-warnings" },
              h("p", null, h("strong", null, "This game may stall:")),
              h("ul", null, answer.warnings.map((w) => h("li", null, w.charAt(0).toUpperCase() + w.slice(1)))),
            )
          : null,
        h("ul", { class: "seat-list" }, answer.seats.map((line) => seatRow(ctx, line, panel))),
        answer.status === "ongoing" ? replaceForm(ctx, panel, answer) : null,
      );
    },
  };
  panel.reload();
  return h("div", { class: "game-seats", "data-testid": "game-seats", "data-game": game.game_id }, place, notice);
}
