// The dashboard's game log (services/dashboard/static/js/game-log.js `logLines`) under node, on
// one viewer's answers: reads {state, events} (the bodies of GET /games/{id} and GET
// /games/{id}/events as that viewer got them) on stdin and prints the log's lines, newest
// first, one a line: what the seat, scorekeeper and watch pages show as the game log.
globalThis.window = { addEventListener() {}, localStorage: { getItem: () => null } };
const { logLines } = await import("../../../services/dashboard/static/js/game-log.js");

let text = "";
for await (const chunk of process.stdin) text += chunk;
const { state, events } = JSON.parse(text);
const lines = logLines(events, { players: state.players ?? [], cards: state.game_type === "cards" });
process.stdout.write(lines.map((line) => `${line.version}. ${line.text}`).join("\n"));
