// A club's legacy series (UA5) on its page: the list, a page at a time over GraphQL, each linked
// to its own page; and for the club's organisers and admins the form that opens an online series
// of some of its members (its game 1 is dealt at once). A table series, whose first game's seats
// are dealt at the table, is opened through the API (docs/series.md).

import { get, post } from "../../api.js";
import { h, mount, table } from "../../dom.js";
import { query } from "../../graphql.js";
import { empty, load } from "../../status.js";
import { actionForm, disclosure, problemNotice, textInput } from "../organise/forms.js";

const enc = encodeURIComponent;
const PAGE = 20;
const MODULES = [
  ["UA1", "UA1 duels (needs UA2)"],
  ["UA2", "UA2 Rage cards"],
  ["UA3", "UA3 characters"],
  ["UA4", "UA4 zombie outbreak (4+ players)"],
];

function waitingFor(series) {
  if (series.status === "closed") return "closed";
  if (series.asked) return `waiting for ${series.asked.member?.displayName ?? "the scorekeeper"}`;
  const last = series.games[series.games.length - 1];
  return last ? `game ${last.number} ${last.status === "ended" ? "over" : "being played"}` : "";
}

function seriesList(clubId, signal) {
  const body = h("div");
  const rows = [];
  const more = h("div");
  const render = () =>
    rows.length
      ? table({
          caption: "The club's legacy series, oldest first",
          testid: "club-series",
          rows,
          rowAttrs: (s) => ({ "data-series": s.id }),
          columns: [
            { label: "Series", value: (s) => h("a", { href: `#/series/${enc(s.id)}` }, s.id) },
            { label: "Players", value: (s) => s.members.map((m) => m.displayName).join(", ") },
            { label: "Games", numeric: true, value: (s) => s.games.length },
            { label: "Now", value: waitingFor },
          ],
        })
      : empty("No series yet.");
  const fetchPage = async (after) =>
    (await query("dashboard/Series", "DashboardClubSeries", { clubId, first: PAGE, after })).clubSeries;
  const showMore = (page) => {
    mount(
      more,
      page.hasNextPage
        ? h(
            "button",
            {
              type: "button",
              class: "button",
              onclick: async (event) => {
                const button = event.currentTarget;
                button.disabled = true;
                let next;
                try {
                  next = await fetchPage(page.endCursor);
                } catch (error) {
                  // said beside the button, which stays for another try
                  button.disabled = false;
                  if (!signal?.aborted) more.append(problemNotice(error));
                  return;
                }
                if (signal?.aborted) return;
                rows.push(...next.series);
                mount(body, render(), more);
                showMore(next);
              },
            },
            "More series",
          )
        : null,
    );
  };
  load(
    body,
    "the club's series",
    () => fetchPage(null),
    (page) => {
      rows.push(...page.series);
      showMore(page);
      return [render(), more];
    },
    signal,
  );
  return body;
}

function openForm(clubId, signal) {
  const seriesId = textInput("Series id (letters, digits, - and _)", { required: true, maxlength: 60, pattern: "[A-Za-z0-9_-]{1,60}", name: "series_id" });
  const modules = MODULES.map(([id, label]) => {
    const box = h("input", { type: "checkbox", value: id, name: "module" });
    return { id, box, node: h("label", { class: "check" }, box, ` ${label}`) };
  });
  const moduleSet = h("fieldset", null, h("legend", null, "Modules (UA5 always)"), modules.map((m) => m.node));
  const players = h("fieldset", { "data-testid": "series-players" }, h("legend", null, "Players (3 to 8)"), h("p", { class: "muted" }, "Loading the members…"));
  get(`/clubs/${enc(clubId)}/members?limit=100`, { signal })
    .then((page) =>
      mount(
        players,
        h("legend", null, "Players (3 to 8)"),
        page.items.map((m) =>
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "player", value: m.member_id, "data-name": m.display_name }), ` ${m.display_name}`),
        ),
      ),
    )
    .catch((error) => mount(players, h("legend", null, "Players"), h("p", { class: "notice error" }, error.message)));
  return disclosure(
    "Open a legacy series",
    h("p", { class: "muted" }, "An online series of games with the same players (Undead or Alive, UA5): game 1 is dealt now; between games the players decide who is Sheriff and which characters they keep."),
    actionForm({
      label: "Open a legacy series",
      testid: "open-series",
      fields: [seriesId, { label: null, control: moduleSet }, { label: null, control: players }],
      submit: "Open the series",
      send: (id) =>
        post("/series", {
          command_id: id,
          series_id: seriesId.control.value.trim(),
          club_id: clubId,
          mode: "online",
          modules: [...modules.filter((m) => m.box.checked).map((m) => m.id), "UA5"],
          members: [...players.querySelectorAll("input[name=player]:checked")].map((box) => ({ member_id: box.value, name: box.dataset.name })),
        }),
      done: (answer) => {
        window.location.hash = `#/series/${enc(answer.series_id)}`;
      },
    }),
  );
}

/** The club page's series section: the list, and the opening form for those who organise. */
export function seriesSection(clubId, { organises, signal }) {
  return h(
    "section",
    { "aria-labelledby": "series-head" },
    h("h2", { id: "series-head" }, "Legacy series"),
    organises ? openForm(clubId, signal) : null,
    seriesList(clubId, signal),
  );
}
