// The single-page app's router: the URL hash names the page (#/player/alice,
// #/game/g1/replay?v=12), so every view has a link that can be shared and reloaded, and the
// server only ever serves one page.

import { mount } from "./dom.js";
import { parseHash } from "./location.js";
import { failure } from "./status.js";
import { renderLeaderboard } from "./views/leaderboard.js";
import { renderStandings } from "./views/standings.js";
import { renderPlayer } from "./views/player.js";
import { renderTournament } from "./views/tournament.js";
import { renderGames } from "./views/games.js";
import { renderLive } from "./views/live.js";
import { renderReplay } from "./views/replay.js";

const ROUTES = [
  { pattern: /^\/leaderboard$/, nav: "leaderboard", title: "Leaderboards", render: renderLeaderboard },
  { pattern: /^\/standings$/, nav: "standings", title: "Standings", render: renderStandings },
  { pattern: /^\/player\/([^/]+)$/, nav: "leaderboard", title: "Player", render: renderPlayer },
  { pattern: /^\/tournament$/, nav: "tournament", title: "Tournaments", render: renderTournament },
  { pattern: /^\/games$/, nav: "games", title: "Games", render: renderGames },
  { pattern: /^\/game\/([^/]+)\/live$/, nav: "games", title: "Live game", render: renderLive },
  { pattern: /^\/game\/([^/]+)\/replay$/, nav: "games", title: "Replay", render: renderReplay },
];
let current = null; // {controller, cleanup}

function highlight(nav) {
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function route() {
  current?.controller.abort();
  current?.cleanup?.();
  const main = document.getElementById("main");
  const { path, params } = parseHash(window.location.hash);
  const controller = new AbortController();
  current = { controller, cleanup: null };
  const match = ROUTES.map((r) => ({ r, m: path.match(r.pattern) })).find((x) => x.m);
  if (!match) {
    highlight(null);
    document.title = "Not found · bang-league";
    mount(main, failure("this page", new Error(`there is no page at ${path}`)));
    return;
  }
  highlight(match.r.nav);
  document.title = `${match.r.title} · bang-league`;
  const args = match.m.slice(1).map(decodeURIComponent);
  const cleanup = match.r.render(main, { args, params, signal: controller.signal });
  current.cleanup = typeof cleanup === "function" ? cleanup : null;
}

window.addEventListener("hashchange", route);
route();
