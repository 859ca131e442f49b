// Runs the card game's scorekeeper page (js/cards/entry.js) on a DOM, a fetch and a live socket
// made here. Each live event makes the page read the game again; two reads under way at once may
// answer out of order, and the older answer must not replace the newer game on the page (its
// entries would then be made on a version already gone, and refused). Prints what the page shows
// (JSON): what test_card_entry_js.py checks.
import { FakeElement, findAll } from "./fake_dom.mjs";

const sockets = [];
globalThis.WebSocket = class {
  static OPEN = 1;
  constructor() {
    this.readyState = 0;
    this.listeners = {};
    sockets.push(this);
  }
  addEventListener(type, listener) {
    this.listeners[type] = listener;
  }
  send() {}
  close() {
    this.readyState = 3;
  }
  receive(message) {
    this.listeners.message({ data: JSON.stringify(message) });
  }
};

const game = (version) => ({
  game_id: "g1", game_type: "cards", mode: "table", status: "ongoing", version, turn: 1, may_enter: true,
  players: [], awaiting: null, legal_commands: [], active_player: null, deck: 80, discard: [],
});
// the first read (the page opening) answers once released; every later one at once
let release;
const held = new Promise((resolve) => (release = resolve));
let reads = 0;
globalThis.fetch = async (url) => {
  if (String(url).endsWith(".graphql")) return { ok: true, status: 200, text: async () => "subscription { x }" };
  // the page's game log reads the events (none here); only the game's reads are counted
  if (String(url).includes("/events")) return { ok: true, status: 200, json: async () => [] };
  reads += 1;
  const version = reads === 1 ? 5 : 7;
  if (reads === 1) await held;
  return { ok: true, status: 200, json: async () => game(version) };
};

const { renderCardTable } = await import("../../../services/dashboard/static/js/cards/entry.js");
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const shown = (main) => findAll(main, (e) => e.attributes["data-testid"] === "table-entry").map((e) => e.attributes["data-version"]);

const main = new FakeElement("main");
const stop = renderCardTable(main, { args: ["g1"], signal: new AbortController().signal });
await settle();
sockets[0].receive({ type: "connection_ack" });
sockets[0].receive({ type: "next", id: "1", payload: { data: { gameEvents: { type: "cards.TurnEnded", version: 7, data: {} } } } });
await settle();
const afterNewer = shown(main);
release();
await settle();
const afterOlder = shown(main);
stop();
process.stdout.write(JSON.stringify({ reads, afterNewer, afterOlder }));
