// Runs the series page's decision controls (views/series/decide.js) on a DOM made here: a
// decision the API stored, after which the page could not read the series again, must not leave
// the controls disabled for good (the page's poll waits while they are, so it never redrew).
// Prints what each case came to (JSON): what test_series_decide_js.py checks.
import { findAll } from "./fake_dom.mjs";

const { decisionControls } = await import("../../../services/dashboard/static/js/views/series/decide.js");

const buttonsOf = (node) => findAll(node, (e) => e.tagName === "BUTTON");
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

const series = {
  id: "s1",
  games: [{ number: 1, seats: [{ seat: "p1", character: "black_jack", member: { memberId: "a1", displayName: "Ann" } }] }],
};
const asked = { ask: "keep_character", seat: "p1", member: { memberId: "a1", displayName: "Ann" }, among: [] };

async function outcome({ status, reread }) {
  let posts = 0;
  globalThis.fetch = async () => {
    posts += 1;
    return { status, ok: status < 400, json: async () => (status < 400 ? { ok: true } : { detail: "not your question" }) };
  };
  const onDone = async () => {
    if (reread === "fails") throw new Error("the server did not answer");
  };
  const controls = decisionControls(series, asked, onDone);
  const buttons = buttonsOf(controls);
  buttons[0].click();
  const during = buttons.map((b) => b.disabled);
  await settle();
  return { posts, during, after: buttons.map((b) => b.disabled), said: controls.textContent };
}

process.stdout.write(
  JSON.stringify({
    stored: await outcome({ status: 201, reread: "ok" }),
    storedUnread: await outcome({ status: 201, reread: "fails" }),
    refused: await outcome({ status: 409, reread: "ok" }),
  }),
);
