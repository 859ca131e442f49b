// A club's page: its members (searchable by name) and its leagues, for every member; the forms
// its admins and organisers use (register a member by name, invite someone, found a league) and
// those only its admins use (grant and revoke roles). What is offered comes from your roles
// (me.js); every write is the API's to accept or refuse, and a refusal shows its words.

import { del, get, post } from "../../api.js";
import { h, mount, table, titleCase } from "../../dom.js";
import { href } from "../../location.js";
import { holds, mayOrganise, profile } from "../../me.js";
import { current, setCachedProfile } from "../../session.js";
import { empty, load } from "../../status.js";
import { actionForm, disclosure, inviteBox, problemNotice, select, textInput, VISIBILITY_CHOICES } from "./forms.js";
import { seriesSection } from "../series/club-series.js";

const ROLES = ["admin", "organiser", "referee", "scorekeeper", "player"];
const enc = encodeURIComponent;

function roleChips(member, { isAdmin, revoke }) {
  return h(
    "span",
    { class: "role-chips" },
    member.roles.map((role) =>
      h(
        "span",
        { class: "role-chip", "data-role": role },
        titleCase(role),
        isAdmin
          ? h(
              "button",
              {
                type: "button",
                class: "chip-remove",
                "aria-label": `Revoke ${role} from ${member.display_name}`,
                onclick: () => revoke(member, role),
              },
              "×",
            )
          : null,
      ),
    ),
  );
}

function membersSection(clubId, { isAdmin, signal, onMembers }) {
  const status = h("div", { "aria-live": "polite", "data-testid": "member-status" });
  const list = h("div");
  const search = h("input", { id: "member-search", type: "search", name: "q", autocomplete: "off", placeholder: "part of a name" });
  const refresh = () =>
    load(
      list,
      "the members",
      () => get(`/clubs/${enc(clubId)}/members?limit=100${search.value.trim() ? `&q=${enc(search.value.trim())}` : ""}`, { signal }),
      (page) => {
        if (!search.value.trim()) onMembers(page.items);
        if (!page.items.length) return empty(search.value.trim() ? "Nobody here by that name." : "No members yet.");
        return table({
          caption: page.next_offset === null ? "Members by name, with their roles here" : "The first 100 members; search to narrow",
          testid: "members",
          rows: page.items,
          rowAttrs: (m) => ({ "data-member": m.member_id }),
          columns: [
            { label: "Member", value: (m) => h("a", { href: `#/player/${enc(m.member_id)}` }, m.display_name) },
            { label: "Roles", value: (m) => roleChips(m, { isAdmin, revoke }) },
          ],
        });
      },
      signal,
    );
  async function revoke(member, role) {
    mount(status);
    try {
      await del(`/clubs/${enc(clubId)}/roles/${enc(member.member_id)}/${enc(role)}`);
      setCachedProfile(null);
      mount(status, h("p", { class: "notice done", role: "status", "data-testid": "form-done" }, `${member.display_name} is no longer ${role}.`));
      refresh();
    } catch (error) {
      mount(status, problemNotice(error));
    }
  }
  const form = h(
    "form",
    {
      class: "inline",
      role: "search",
      "aria-label": "Search the members",
      onsubmit: (event) => {
        event.preventDefault();
        refresh();
      },
    },
    h("label", { for: "member-search" }, "Search by name", search),
    h("button", { type: "submit", class: "button" }, "Search"),
  );
  refresh();
  return { node: h("section", { "aria-labelledby": "members-head" }, h("h2", { id: "members-head" }, "Members"), form, status, list), refresh };
}

function leaguesSection(clubId, signal) {
  const body = h("div");
  load(
    body,
    "the leagues",
    () => get(`/clubs/${enc(clubId)}/leagues?limit=100`, { signal }),
    (page) =>
      page.items.length
        ? table({
            caption: "The club's leagues",
            testid: "club-leagues",
            rows: page.items,
            columns: [
              { label: "League", value: (l) => h("a", { href: `#/league/${enc(l.league_id)}` }, l.name) },
              { label: "Seasons", numeric: true, value: (l) => l.seasons },
              { label: "", value: (l) => h("a", { href: href("/standings", { league: l.league_id }) }, "Standings") },
            ],
          })
        : empty("No leagues yet."),
    signal,
  );
  return h("section", { "aria-labelledby": "leagues-head" }, h("h2", { id: "leagues-head" }, "Leagues"), body);
}

/** Wait until the league's page can be read (the directory lists it a moment after founding). */
async function whenListed(leagueId) {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    try {
      return await get(`/leagues/${enc(leagueId)}`);
    } catch (error) {
      if (error.status !== 404) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return null;
}

function organiserForms(clubId, members) {
  const registerName = textInput("Display name", { required: true, maxlength: 100 });
  const inviteName = textInput("Display name", { required: true, maxlength: 100 });
  const inviteLogin = textInput("Login name (optional: they choose one)", { maxlength: 100 });
  const leagueName = textInput("League name", { required: true, maxlength: 100 });
  const gameType = select("Game", [
    ["dice", "BANG! The Dice Game"],
    ["cards", "BANG! the card game"],
  ], { "data-testid": "league-game-type" });
  const readers = select("Who may see its standings, rounds and tables", VISIBILITY_CHOICES, { "data-testid": "league-visibility" });
  return [
    disclosure(
      "Register a member by name",
      h("p", { class: "muted" }, "They are a player at once (you may enrol them now) and get a link to set their own login and password."),
      actionForm({
        label: "Register a member by name",
        testid: "register-member",
        fields: [registerName],
        submit: "Register",
        send: (id) => post(`/clubs/${enc(clubId)}/members`, { display_name: registerName.control.value, command_id: id }),
        done: (answer) => {
          members.refresh();
          registerName.control.value = "";
          return answer.invite ? inviteBox(answer.display_name, answer.invite.token) : `${answer.display_name} is a member.`;
        },
      }),
    ),
    disclosure(
      "Invite someone",
      h("p", { class: "muted" }, "They join the club as a player when they accept the link, with a new account or the one they have."),
      actionForm({
        label: "Invite someone",
        testid: "invite-member",
        fields: [inviteName, inviteLogin],
        submit: "Make an invite link",
        send: () => {
          const body = { display_name: inviteName.control.value };
          if (inviteLogin.control.value.trim()) body.login = inviteLogin.control.value.trim();
          return post(`/clubs/${enc(clubId)}/invites`, body);
        },
        done: (answer) => inviteBox(answer.display_name, answer.token),
      }),
    ),
    disclosure(
      "Found a league",
      actionForm({
        label: "Found a league",
        testid: "found-league",
        fields: [leagueName, gameType, readers],
        submit: "Found the league",
        send: (id) =>
          post(`/clubs/${enc(clubId)}/leagues`, {
            name: leagueName.control.value,
            game_type: gameType.control.value,
            visibility: readers.control.value,
            command_id: id,
          }),
        done: async (answer) => {
          await whenListed(answer.league_id);
          window.location.hash = `#/league/${enc(answer.league_id)}`;
        },
      }),
    ),
  ];
}

/** The club's league table games by name (a scorekeeper's grant may name one): league, round, table. */
async function tableGames(clubId, signal) {
  const leagues = (await get(`/clubs/${enc(clubId)}/leagues?limit=100`, { signal })).items;
  const pages = await Promise.all(leagues.map((l) => get(`/games?league=${enc(l.league_id)}&limit=100`, { signal })));
  return pages
    .flatMap((page) => page.items)
    .filter((g) => g.mode === "table" && g.league)
    .map((g) => [g.game_id, `${g.league.name}, round ${g.league.round}, table ${g.league.table}${g.status === "finished" ? " (finished)" : ""}`]);
}

function grantForm(clubId, members) {
  const who = select("Member", []);
  const role = select("Role", ROLES.map((r) => [r, titleCase(r)]));
  const game = select("For one table game only (a scorekeeper, optional)", [["", "No: every game of the club"]]);
  tableGames(clubId)
    .then((games) => game.control.append(...games.map(([id, label]) => h("option", { value: id }, label))))
    .catch(() => {}); // the grant still works club-wide
  members.onMembers = (items) => {
    const chosen = who.control.value;
    mount(who.control, items.map((m) => h("option", { value: m.member_id }, m.display_name)));
    if (items.some((m) => m.member_id === chosen)) who.control.value = chosen;
  };
  return disclosure(
    "Grant a role",
    actionForm({
      label: "Grant a role",
      testid: "grant-role",
      fields: [who, role, game],
      submit: "Grant",
      send: () => {
        const body = { account_id: who.control.value, role: role.control.value };
        if (game.control.value) body.game_id = game.control.value;
        return post(`/clubs/${enc(clubId)}/roles`, body);
      },
      done: (answer) => {
        setCachedProfile(null);
        members.refresh();
        const name = who.control.selectedOptions[0]?.textContent ?? answer.account_id;
        return answer.granted ? `${name} is now ${answer.role}.` : `${name} was ${answer.role} already.`;
      },
    }),
  );
}

export function renderClub(main, { args, signal }) {
  const [clubId] = args;
  if (!current()) {
    window.location.hash = href("/signin", { next: `/club/${clubId}` });
    return;
  }
  const body = h("div");
  mount(main, body);
  load(
    body,
    "the club",
    async () => {
      const [loaded, club] = await Promise.all([profile({ signal }), get(`/clubs/${enc(clubId)}`, { signal })]);
      return { loaded, club };
    },
    ({ loaded, club }) => {
      const organises = mayOrganise(loaded, clubId);
      const isAdmin = holds(loaded, clubId, "admin");
      const members = { onMembers: () => {}, refresh: () => {} };
      const section = membersSection(clubId, { isAdmin, signal, onMembers: (items) => members.onMembers(items) });
      members.refresh = section.refresh;
      const mine = [...new Set(loaded.clubs.find((c) => c.club_id === clubId)?.roles.map((g) => g.role) ?? [])];
      const tools = [];
      if (organises) tools.push(...organiserForms(clubId, members));
      if (isAdmin) tools.push(grantForm(clubId, members));
      return h(
        "div",
        { class: "organise", "data-testid": "club-page" },
        h(
          "header",
          { class: "page-head" },
          h("h1", null, club.name),
          h(
            "p",
            { class: "muted" },
            `Founded by ${club.founded_by.display_name}. `,
            mine.length ? `Your roles here: ${mine.map(titleCase).join(", ")}.` : "",
          ),
        ),
        tools.length
          ? h("section", { class: "panel org-tools", "aria-labelledby": "tools-head", "data-testid": "club-tools" }, h("h2", { id: "tools-head" }, "Organise"), ...tools)
          : null,
        leaguesSection(clubId, signal),
        seriesSection(clubId, { organises, signal }),
        section.node,
      );
    },
    signal,
  );
}
