// Who you are. The session token the API answered at sign-in lives in localStorage, so every
// tab of this browser is signed in as the same person; signing out anywhere ends it everywhere
// (the "storage" event). Nothing else about you is stored: your account and your clubs' roles
// are asked of the API (GET /me, GET /me/clubs), so a role granted or revoked shows at the next
// page load.

const KEY = "bang-league.session";
const listeners = new Set();
let memo = null; // {token, account, clubs} once /me and /me/clubs answered

function stored() {
  try {
    const value = JSON.parse(window.localStorage.getItem(KEY) ?? "null");
    return value && typeof value.token === "string" ? value : null;
  } catch {
    return null;
  }
}

function notify() {
  for (const listener of listeners) listener(current());
}

window.addEventListener("storage", (event) => {
  if (event.key === KEY) {
    memo = null;
    notify();
  }
});

/** The stored session ({token, account}) or null; the account is what the API answered at sign-in. */
export function current() {
  return stored();
}

export function token() {
  return stored()?.token ?? null;
}

/** The `Authorization` header of this browser's session, or nothing. */
export function authHeaders() {
  const value = token();
  return value ? { authorization: `Bearer ${value}` } : {};
}

export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Keep what POST /sessions (or an invite's acceptance) answered: {token, account}. */
export function remember(answer) {
  window.localStorage.setItem(KEY, JSON.stringify({ token: answer.token, account: answer.account }));
  memo = null;
  notify();
}

/** Forget the session here (the server's copy is ended by the caller first, when it can be). */
export function forget() {
  window.localStorage.removeItem(KEY);
  memo = null;
  notify();
}

/** Replace the remembered account (e.g. after GET /me), keeping the token. */
export function refreshAccount(account) {
  const value = stored();
  if (!value || !account || typeof account.account_id !== "string") return;
  window.localStorage.setItem(KEY, JSON.stringify({ token: value.token, account }));
}

/** Memoised per page load: {account, clubs} with each club's roles; null when signed out. */
export function cachedProfile() {
  return memo;
}

export function setCachedProfile(profile) {
  memo = profile;
}
