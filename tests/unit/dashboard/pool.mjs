// Runs the ratings pool picker (js/pool.js) on a DOM and a fetch made here: which pool a page asks
// the API for, how it names it, and which pools the picker offers a reader signed out and signed
// in (the reader's own clubs, by name). Prints what each case came to (JSON): what
// test_pool_js.py checks.
import { FakeElement, findAll } from "./fake_dom.mjs";

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const { boardPoolOf, poolOf, poolPicker, poolWords } = await import("../../../services/dashboard/static/js/pool.js");

function offered(form) {
  return findAll(form, (e) => e.tagName === "OPTION").map((o) => [o.attributes.value, o.textContent, "selected" in o.attributes]);
}

async function picker(query) {
  const params = new URLSearchParams(query);
  const names = [];
  const form = poolPicker("/leaderboard", params, { league: "tuesday", role: null }, { onClubName: (n) => names.push(n) });
  const before = offered(form);
  await settle();
  const select = findAll(form, (e) => e.tagName === "SELECT")[0];
  select.value = "home";
  form.listeners.submit({ preventDefault() {} });
  const picked = window.location.hash;
  select.value = "";
  form.listeners.submit({ preventDefault() {} });
  return { before, after: offered(form), names, picked, global: window.location.hash };
}

const out = {
  pools: [poolOf(new URLSearchParams("")), poolOf(new URLSearchParams("club=home"))],
  boards: ["", "league=tuesday", "league=tuesday&club=home"].map((q) => boardPoolOf(new URLSearchParams(q))),
  leagueWords: poolWords(new URLSearchParams("league=tuesday")),
  words: [poolWords(new URLSearchParams("")), poolWords(new URLSearchParams("club=home")), poolWords(new URLSearchParams("club=home"), "Home Saloon")],
};
out.signedOut = await picker("club=away");

// signed in: /me and /me/clubs answer the reader's clubs
const session = JSON.stringify({ token: "t0k3n", account: { account_id: "ann" } });
window.localStorage = { getItem: () => session, setItem() {}, removeItem() {} };
globalThis.fetch = async (url) => {
  const path = new URL(url, "http://dashboard.test/").pathname;
  const body =
    path === "/me/clubs"
      ? [{ club_id: "home", name: "Home Saloon", roles: [] }, { club_id: "gulch", name: "Dry Gulch", roles: [] }]
      : { account_id: "ann", display_name: "Ann" };
  return { status: 200, ok: true, headers: { get: () => "application/json" }, json: async () => body, text: async () => JSON.stringify(body) };
};
out.signedIn = await picker("club=home");
process.stdout.write(JSON.stringify(out));
