// Sign in, and accept an invite: the two ways a person gets a session in this browser.

import { ApiError, del, post } from "../api.js";
import { h, mount } from "../dom.js";
import { current, forget, remember, setCachedProfile } from "../session.js";

function problemBox(error) {
  const words = error instanceof ApiError ? error.message : `Something went wrong: ${error.message}`;
  return h("p", { class: "notice error", role: "alert", "data-testid": "form-error" }, words);
}

/** Where to go after signing in: the page the person was sent from (`?next=`), else their home. */
function destination(params) {
  const next = params.get?.("next");
  return next && next.startsWith("/") ? `#${next}` : "#/home";
}

export function renderSignIn(main, { params }) {
  const who = current();
  if (who) {
    mount(
      main,
      h("header", { class: "page-head" }, h("h1", null, "Signed in")),
      h("p", null, `You are signed in as ${who.account.display_name}.`),
      h("p", null, h("a", { href: "#/home", class: "button" }, "Your page")),
    );
    return;
  }
  const error = h("div", { "aria-live": "assertive" });
  const login = h("input", { id: "signin-login", name: "login", autocomplete: "username", required: true });
  const password = h("input", {
    id: "signin-password",
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
  const submit = h("button", { type: "submit", class: "button primary" }, "Sign in");
  const form = h(
    "form",
    {
      class: "stacked",
      "aria-label": "Sign in",
      onsubmit: async (event) => {
        event.preventDefault();
        submit.disabled = true;
        mount(error);
        try {
          remember(await post("/sessions", { login: login.value, password: password.value }));
          window.location.hash = destination(params);
        } catch (failure) {
          mount(error, problemBox(failure));
          password.select();
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("label", { for: "signin-login" }, "Login name"),
    login,
    h("label", { for: "signin-password" }, "Password"),
    password,
    submit,
  );
  mount(
    main,
    h("header", { class: "page-head" }, h("h1", null, "Sign in")),
    form,
    error,
    h("p", { class: "muted" }, "No account? A club organiser sends you an invite link; open it to choose your password."),
  );
  login.focus();
}

/** End this session on the server, then here (here even when the server cannot be reached). */
export async function signOut() {
  const from = window.location.hash;
  try {
    await del("/sessions/current");
  } catch {
    // an expired or already-ended session is signed out all the same
  }
  // a person who moved on meanwhile (a link followed) stays where they went, signed out
  const moved = window.location.hash !== from;
  forget();
  if (!moved) window.location.hash = "#/signin";
}

export function renderInvite(main, { args }) {
  const [secret] = args;
  const path = `/accounts/invites/${encodeURIComponent(secret)}/accept`;
  const error = h("div", { "aria-live": "assertive" });
  const who = current();
  if (who) {
    // an existing account takes the invite with its session: no second account is made
    const accept = h("button", { type: "button", class: "button primary" }, `Join as ${who.account.display_name}`);
    accept.addEventListener("click", async () => {
      accept.disabled = true;
      mount(error);
      try {
        await post(path);
        setCachedProfile(null); // a new club and role: ask /me/clubs again
        window.location.hash = "#/home";
      } catch (failure) {
        mount(error, problemBox(failure));
        accept.disabled = false;
      }
    });
    mount(
      main,
      h("header", { class: "page-head" }, h("h1", null, "Accept an invite")),
      h("p", null, `You are signed in as ${who.account.display_name}. Accept the invite with this account?`),
      accept,
      error,
      h("p", { class: "muted" }, "To make a new account instead, sign out first."),
    );
    return;
  }
  const field = (id, label, attrs) => [h("label", { for: id }, label), h("input", { id, name: id, ...attrs })];
  const [loginLabel, login] = field("invite-login", "Login name", { autocomplete: "username" });
  const [nameLabel, displayName] = field("invite-name", "Display name (optional)", { autocomplete: "name" });
  const [passwordLabel, password] = field("invite-password", "Choose a password", {
    type: "password",
    autocomplete: "new-password",
    required: true,
    minlength: 10,
  });
  const submit = h("button", { type: "submit", class: "button primary" }, "Create my account");
  mount(
    main,
    h("header", { class: "page-head" }, h("h1", null, "Accept an invite")),
    h("p", null, "Choose how you sign in. Your display name is what other players see."),
    h(
      "form",
      {
        class: "stacked",
        "aria-label": "Accept an invite",
        onsubmit: async (event) => {
          event.preventDefault();
          submit.disabled = true;
          mount(error);
          const body = { password: password.value };
          if (login.value.trim()) body.login = login.value;
          if (displayName.value.trim()) body.display_name = displayName.value;
          try {
            remember(await post(path, body));
            window.location.hash = "#/home";
          } catch (failure) {
            mount(error, problemBox(failure));
          } finally {
            submit.disabled = false;
          }
        },
      },
      loginLabel,
      login,
      nameLabel,
      displayName,
      passwordLabel,
      password,
      h("p", { class: "muted small" }, "At least 10 characters; a long phrase is best."),
      submit,
    ),
    error,
  );
  login.focus();
}
