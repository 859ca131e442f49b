// Runs a club's list of legacy series (views/series/club-series.js) on a DOM and a fetch made
// here: the "More series" button's read failing must be said beside the button, and a second
// click while a page is being read must not add that page twice. Prints what the list shows
// (JSON): what test_club_series_more_js.py checks.
import { FakeElement, findAll } from "./fake_dom.mjs";

const one = (id) => ({ id, members: [], games: [], status: "open", asked: null });
let release;
const answers = [
  { series: [one("a")], hasNextPage: true, endCursor: "c1" },
  "fails",
  { series: [one("b")], hasNextPage: false, endCursor: null, held: true },
];
globalThis.fetch = async (url) => {
  if (String(url).endsWith(".graphql")) return { ok: true, status: 200, text: async () => "query { x }" };
  const next = answers.shift();
  if (next === undefined) return { ok: true, status: 200, json: async () => ({ data: { clubSeries: { series: [one("extra")], hasNextPage: false } } }) };
  if (next === "fails") return { ok: false, status: 503, json: async () => ({ errors: [{ message: "the database is away" }] }) };
  if (next.held) await new Promise((resolve) => (release = resolve));
  return { ok: true, status: 200, json: async () => ({ data: { clubSeries: next } }) };
};

const { seriesSection } = await import("../../../services/dashboard/static/js/views/series/club-series.js");
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const more = (node) => findAll(node, (e) => e.tagName === "BUTTON" && e.textContent === "More series")[0] ?? null;
const listed = (node) => findAll(node, (e) => e.attributes["data-series"] !== undefined).map((e) => e.attributes["data-series"]);

const section = seriesSection("c1", { organises: false, signal: new AbortController().signal });
await settle();
more(section).click(); // its read fails
await settle();
const failed = { said: section.textContent.includes("the database is away"), button: Boolean(more(section)), listed: listed(section) };
more(section).click(); // read again, slow to answer
more(section).click(); // clicked again meanwhile
await settle();
release();
await settle();
process.stdout.write(JSON.stringify({ failed, listed: listed(section) }));
