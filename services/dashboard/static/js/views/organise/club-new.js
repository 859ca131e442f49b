// Found a club (POST /clubs): anyone signed in may; the founder becomes its admin and lands on
// the club's page to register members and found its leagues.

import { post } from "../../api.js";
import { h, mount } from "../../dom.js";
import { href } from "../../location.js";
import { current, setCachedProfile } from "../../session.js";
import { actionForm, textInput } from "./forms.js";

export function renderNewClub(main) {
  if (!current()) {
    window.location.hash = href("/signin", { next: "/clubs/new" });
    return;
  }
  const name = textInput("Club name", { required: true, maxlength: 100, name: "club-name" });
  mount(
    main,
    h("header", { class: "page-head" }, h("h1", null, "Found a club"), h("p", { class: "muted" }, "You become its admin: you register its members, name its organisers and found its leagues.")),
    actionForm({
      label: "Found a club",
      testid: "found-club",
      fields: [name],
      submit: "Found the club",
      send: () => post("/clubs", { name: name.control.value }),
      done: (club) => {
        setCachedProfile(null); // your roles changed: ask /me/clubs again
        window.location.hash = `#/club/${encodeURIComponent(club.club_id)}`;
      },
    }),
  );
  name.control.focus();
}
