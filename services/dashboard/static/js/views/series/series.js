// A legacy series (UA5): its players, each game linked to its live view or its replay, the
// Sheriff chain (who was Sheriff in each game and why), what the series waits for before its
// next game (with the controls for whoever must answer), the decisions so far, the standing,
// and once it is closed its seed and the series audit's verdict. The page reads the series over
// GraphQL and follows it by asking again every few seconds while it is open, so a game ending or
// another player's decision shows without a reload.

import { get, post } from "../../api.js";
import { h, mount, table } from "../../dom.js";
import { query } from "../../graphql.js";
import { holds, mayOrganise, profile } from "../../me.js";
import { current } from "../../session.js";
import { empty, load } from "../../status.js";
import { actionForm, disclosure, textInput } from "../organise/forms.js";
import { decisionControls, questionText } from "./decide.js";

const enc = encodeURIComponent;
const FOLLOW_MS = 2_500;
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

const HOW = {
  dealt: () => "dealt",
  killer: (prev) => `eliminated the Sheriff of game ${prev}`,
  drawn: () => "drawn: nobody eliminated the Sheriff",
};

function sheriffHow(series, game) {
  if (game.sheriffBy === "designated") {
    const before = series.games.find((g) => g.number === game.number - 1);
    const by = before?.sheriff?.displayName ?? "the Sheriff";
    return before?.sheriff?.memberId === game.sheriff?.memberId ? `${by} survived and kept the star` : `designated by ${by}`;
  }
  return (HOW[game.sheriffBy] ?? (() => game.sheriffBy ?? ""))(game.number - 1);
}

function gameLinks(game, me, series) {
  const id = enc(game.gameId);
  const links = [];
  if (game.status === "ended") links.push(h("a", { href: `#/game/${id}/replay`, "data-testid": "series-game-link" }, "Replay"));
  else {
    links.push(h("a", { href: `#/game/${id}/live`, "data-testid": "series-game-link" }, "Watch live"));
    const seated = game.seats.some((s) => s.member?.memberId === me);
    if (seated && series.mode === "online") links.push(" · ", h("a", { href: `#/game/${id}/play` }, "Your seat"));
    if (series.mode === "table") links.push(" · ", h("a", { href: `#/game/${id}/table` }, "Keep score"));
  }
  return links;
}

function gamesSection(series, me) {
  if (!series.games.length) return empty("No game yet.");
  return table({
    caption: "The games, in order",
    testid: "series-games",
    rows: series.games,
    rowAttrs: (g) => ({ "data-game": g.gameId, "data-status": g.status }),
    columns: [
      { label: "Game", value: (g) => `${g.number} · ${g.gameId}` },
      { label: "Status", value: (g) => (g.status === "ended" ? "Ended" : "Being played") },
      {
        label: "Sheriff",
        value: (g) => (g.sheriff ? `${g.sheriff.displayName}${g.seats.some((s) => s.sheriff && s.legacyBonus) ? " (+1 life)" : ""}` : "–"),
      },
      { label: "Won", value: (g) => (g.winners.length ? g.winners.map((w) => w.displayName).join(", ") : "–") },
      { label: "", value: (g) => gameLinks(g, me, series) },
    ],
  });
}

function chainSection(series) {
  const links = series.games.filter((g) => g.sheriff);
  if (!links.length) return null;
  return h(
    "section",
    { "aria-labelledby": "chain-head" },
    h("h2", { id: "chain-head" }, "The Sheriff chain"),
    h(
      "ol",
      { class: "series-chain", "data-testid": "series-chain" },
      links.map((g) =>
        h("li", { "data-game": g.gameId }, h("strong", null, `Game ${g.number}: ${g.sheriff.displayName}`), ` (${sheriffHow(series, g)})`),
      ),
    ),
  );
}

function askedSection(series, { me, keepsScore, onDone }) {
  const asked = series.asked;
  let body;
  if (series.status === "closed") body = empty("The series is closed.");
  else if (!asked) {
    const last = series.games[series.games.length - 1];
    body = empty(last && last.status !== "ended" ? `Game ${last.number} is being played; the series asks its questions once it is over.` : "Nothing is asked now.");
  } else {
    const mine = !asked.draw && asked.member?.memberId === me;
    const mayAnswer = mine || (series.mode === "table" && keepsScore);
    const waiting = asked.draw ? "the table's scorekeeper" : asked.member?.displayName ?? asked.seat;
    body = h(
      "div",
      { "data-testid": "series-asked", "data-ask": asked.ask, "data-seat": asked.seat, "data-mine": mine ? "true" : "false" },
      h("p", null, questionText(series, asked)),
      mayAnswer ? decisionControls(series, asked, onDone) : h("p", { class: "muted" }, `Waiting for ${waiting}.`),
    );
  }
  return h("section", { class: "panel", "aria-labelledby": "asked-head" }, h("h2", { id: "asked-head" }, "Before the next game"), body);
}

function decisionsSection(series) {
  if (!series.decisions.length) return null;
  return h(
    "section",
    { "aria-labelledby": "decisions-head" },
    h("h2", { id: "decisions-head" }, "Decisions and draws"),
    table({
      caption: "Between the games, in the order they were made",
      testid: "series-decisions",
      rows: series.decisions,
      columns: [
        { label: "Before game", numeric: true, value: (d) => d.number },
        { label: "What", value: (d) => d.entry },
        { label: "By", value: (d) => (d.by === "series-seed" ? "drawn from the series seed" : d.byName ?? "the table's scorekeeper") },
      ],
    }),
  );
}

function standingSection(series) {
  return h(
    "section",
    { "aria-labelledby": "standing-head" },
    h("h2", { id: "standing-head" }, "Standing"),
    table({
      caption: "Wins in the series' finished games",
      testid: "series-standing",
      rows: series.standing,
      columns: [
        { label: "Player", value: (s) => h("a", { href: `#/player/${enc(s.member.memberId)}` }, s.member.displayName) },
        { label: "Games", numeric: true, value: (s) => s.games },
        { label: "Wins", numeric: true, value: (s) => s.wins },
      ],
    }),
  );
}

function auditSection(series, signal) {
  const body = h("div");
  load(
    body,
    "the series audit",
    () => get(`/series/${enc(series.id)}/audit`, { signal }),
    (audit) =>
      h(
        "div",
        { class: `notice ${audit.clean ? "done" : "error"}`, "data-testid": "series-audit", "data-clean": audit.clean ? "true" : "false" },
        h("p", null, h("strong", null, audit.clean ? "Clean. " : "Not clean. "), audit.verdict),
        h("p", { class: "muted" }, `${plural(audit.games.length, "game")} audited, ${plural(audit.links_checked, "link")} checked, ${plural(audit.draws_rederived, "draw")} re-derived from the seed.`),
      ),
    signal,
  );
  return h("section", { class: "panel", "aria-labelledby": "audit-head" }, h("h2", { id: "audit-head" }, "Audit of the whole series"), body);
}

function closeForm(series, reload) {
  const reason = textInput("Why (optional)", { maxlength: 200 });
  return disclosure(
    "Close the series",
    h("p", { class: "muted" }, "No game follows; online, the series seed is revealed so anyone can check every draw."),
    actionForm({
      label: "Close the series",
      testid: "close-series",
      fields: [reason],
      submit: "Close",
      send: (id) => post(`/series/${enc(series.id)}/close`, { command_id: id, reason: reason.control.value }),
      done: () => reload(),
    }),
  );
}

function page(series, { me, loaded, signal, reload }) {
  const keepsScore = holds(loaded, series.clubId, "scorekeeper", "organiser", "admin");
  const organises = mayOrganise(loaded, series.clubId);
  return h(
    "div",
    { class: "series", "data-testid": "series-page", "data-status": series.status, "data-games": series.games.length },
    h(
      "header",
      { class: "page-head" },
      h("h1", null, `Series ${series.id}`),
      h(
        "p",
        { class: "muted" },
        `A legacy series (${series.ruleset}), ${series.mode}, of `,
        h("a", { href: `#/club/${enc(series.clubId)}` }, "its club"),
        `: ${series.status === "open" ? "open" : "closed"}. Players: ${series.members.map((m) => m.displayName).join(", ")}.`,
      ),
      series.seedCommitment ? h("p", { class: "muted" }, "Seed commitment: ", h("code", null, series.seedCommitment)) : null,
      series.seed ? h("p", { class: "muted", "data-testid": "series-seed" }, "Seed (revealed): ", h("code", null, series.seed)) : null,
    ),
    askedSection(series, { me, keepsScore, onDone: reload }),
    h("section", { "aria-labelledby": "games-head" }, h("h2", { id: "games-head" }, "Games"), gamesSection(series, me)),
    chainSection(series),
    decisionsSection(series),
    standingSection(series),
    series.status === "closed" ? auditSection(series, signal) : null,
    organises && series.status === "open" ? h("section", { class: "panel org-tools" }, h("h2", null, "Organise"), closeForm(series, reload)) : null,
  );
}

export function renderSeries(main, { args, signal }) {
  const [seriesId] = args;
  const me = current()?.account?.account_id ?? null;
  const body = h("div");
  mount(main, body);
  let shown = null;
  let loaded = null;
  const fetchSeries = async () => (await query("dashboard/Series", "DashboardSeries", { id: seriesId })).series;
  // a read after the page is drawn (a poll, the reload after a decision) answers null when a
  // newer read was asked meanwhile: an older series answering last must not replace a newer one
  let reads = 0;
  const fetchNewest = async () => {
    const ticket = (reads += 1);
    const series = await fetchSeries();
    return ticket === reads ? series : null;
  };
  const show = (series) => {
    shown = JSON.stringify(series);
    return page(series, { me, loaded, signal, reload });
  };
  async function reload() {
    const series = await fetchNewest();
    if (series && !signal.aborted) mount(body, show(series));
  }
  load(
    body,
    "the series",
    async () => {
      const [profiled, series] = await Promise.all([profile({ signal }).catch(() => null), fetchSeries()]);
      loaded = profiled;
      return series;
    },
    show,
    signal,
  );
  // follow the series while it is open: a game ending, or a decision made elsewhere, shows here
  const timer = window.setInterval(async () => {
    if (signal.aborted || shown === null || JSON.parse(shown).status === "closed") return;
    if (body.querySelector("[data-testid=series-decide] button:disabled, form[data-testid=close-series] button:disabled")) return;
    try {
      const series = await fetchNewest();
      if (series && !signal.aborted && JSON.stringify(series) !== shown) mount(body, show(series));
    } catch {
      // a missed poll is retried at the next tick
    }
  }, FOLLOW_MS);
  return () => window.clearInterval(timer);
}

