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
import { renderFind } from "./views/find.js";
import { renderLive } from "./views/live.js";
import { renderReplay } from "./views/replay.js";
import { renderVerify } from "./views/verify.js";
import { renderPlay } from "./views/play.js";
import { renderTable } from "./views/table.js";
import { renderHome } from "./views/home.js";
import { renderInvite, renderSignIn } from "./views/signin.js";
import { renderWho } from "./who.js";
import { renderNewClub } from "./views/organise/club-new.js";
import { renderClub } from "./views/organise/club.js";
import { renderLeague } from "./views/organise/league.js";
import { renderStartGame } from "./views/organise/start-game.js";
import { renderSeries } from "./views/series/series.js";
import { renderNewGame } from "./views/new-game.js";
import { byGameType } from "./cards/route.js";
import { renderCardPlay } from "./cards/play.js";
import { renderCardLive } from "./cards/live.js";
import { renderCardReplay } from "./cards/replay.js";
import { renderCardTable } from "./cards/entry.js";
import { renderCardVerify } from "./cards/verify.js";
import { onChange } from "./session.js";
import { pageTitle, startYourMove } from "./your-move.js";
import "./skip-link.js"; // the skip link moves the focus, not the hash router

const ROUTES = [
  { pattern: /^\/signin$/, nav: "me", title: "Sign in", render: renderSignIn },
  { pattern: /^\/invite\/([^/]+)$/, nav: "me", title: "Accept an invite", render: renderInvite },
  { pattern: /^\/home$/, nav: "me", title: "Your page", render: renderHome },
  { pattern: /^\/clubs\/new$/, nav: "me", title: "Found a club", render: renderNewClub },
  { pattern: /^\/new-game$/, nav: "new-game", title: "New game", render: renderNewGame },
  { pattern: /^\/club\/([^/]+)$/, nav: "me", title: "Club", render: renderClub },
  { pattern: /^\/league\/([^/]+)$/, nav: "standings", title: "League", render: renderLeague },
  { pattern: /^\/league\/([^/]+)\/start$/, nav: "standings", title: "A scheduled table game", render: renderStartGame },
  { pattern: /^\/series\/([^/]+)$/, nav: "me", title: "Legacy series", render: renderSeries },
  { pattern: /^\/leaderboard$/, nav: "leaderboard", title: "Leaderboards", render: renderLeaderboard },
  { pattern: /^\/standings$/, nav: "standings", title: "Standings", render: renderStandings },
  { pattern: /^\/player\/([^/]+)$/, nav: "leaderboard", title: "Player", render: renderPlayer },
  { pattern: /^\/tournament$/, nav: "tournament", title: "Tournaments", render: renderTournament },
  { pattern: /^\/games$/, nav: "games", title: "Games", render: renderGames },
  { pattern: /^\/find$/, nav: "find", title: "Find", render: renderFind },
  { pattern: /^\/game\/([^/]+)\/live$/, nav: "games", title: "Live game", render: byGameType(renderLive, renderCardLive) },
  { pattern: /^\/game\/([^/]+)\/replay$/, nav: "games", title: "Replay", render: byGameType(renderReplay, renderCardReplay) },
  { pattern: /^\/game\/([^/]+)\/verify$/, nav: "games", title: "Verify a game", render: byGameType(renderVerify, renderCardVerify) },
  { pattern: /^\/game\/([^/]+)\/play$/, nav: "games", title: "Your seat", render: byGameType(renderPlay, renderCardPlay) },
  { pattern: /^\/game\/([^/]+)\/table$/, nav: "games", title: "Keep score", render: byGameType(renderTable, renderCardTable) },
];
let current = null; // {controller, cleanup}

function highlight(nav) {
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

let shownPath = null;

function route() {
  current?.controller.abort();
  current?.cleanup?.();
  const main = document.getElementById("main");
  const { path, params } = parseHash(window.location.hash);
  // a keyboard user who followed a link to another page starts on its content, not at the top
  // of the header again; a page that puts the focus on its first field does so after this
  if (shownPath !== null && path !== shownPath) main.focus({ preventScroll: true });
  shownPath = path;
  const controller = new AbortController();
  current = { controller, cleanup: null };
  const match = ROUTES.map((r) => ({ r, m: path.match(r.pattern) })).find((x) => x.m);
  if (!match) {
    highlight(null);
    document.title = pageTitle("Not found · bang-league");
    mount(main, failure("this page", new Error(`there is no page at ${path}`)));
    return;
  }
  highlight(match.r.nav);
  document.title = pageTitle(`${match.r.title} · bang-league`);
  const args = match.m.slice(1).map(decodeURIComponent);
  const cleanup = match.r.render(main, { args, params, signal: controller.signal });
  current.cleanup = typeof cleanup === "function" ? cleanup : null;
}

window.addEventListener("hashchange", route);
// signing in or out (here or in another tab) redraws the header and the page for the new person
onChange(() => {
  renderWho(document.getElementById("who"));
  route();
});
renderWho(document.getElementById("who"));
route();
startYourMove(); // "(1) Your move" in the tab's title, on every page
