// Live updates that survive a dropped connection. The subscription only wakes the page up
// ("something happened after version v"); the page then re-reads the game over REST, so a
// missed message never matters: after any drop (the socket closed, the browser went offline)
// the page resubscribes from the last version it showed and reads the state again at once.

import { subscribe } from "../subscription.js";

const RETRY_MS = [500, 1000, 2000, 4000];

/**
 * Follow game `gameId`. `lastVersion()` is the version the page shows; `onWake()` asks it to
 * re-read the state; `onStatus(status)` is "connecting" | "live" | "reconnecting" | "offline" |
 * "game over". Returns stop().
 */
export function follow(gameId, { lastVersion, onWake, onStatus }) {
  let stopSubscription = null;
  let timer = null;
  let attempt = 0;
  let stopped = false;
  let over = false;

  const connect = () => {
    if (stopped || over) return;
    clearTimeout(timer);
    stopSubscription?.();
    const from = lastVersion();
    stopSubscription = subscribe(
      "dashboard/PlayGame",
      "DashboardPlayGame",
      { id: gameId, fromVersion: from ? from + 1 : null },
      {
        onStatus: (status) => {
          if (status === "live") {
            attempt = 0;
            onStatus("live");
            onWake(); // whatever happened while we were away
          } else if (status === "connecting") {
            onStatus(attempt ? "reconnecting" : "connecting");
          }
        },
        onNext: () => onWake(),
        onComplete: () => {
          over = true;
          onStatus("game over");
          onWake();
        },
        onError: () => retry(),
      },
    );
  };

  const retry = () => {
    if (stopped || over) return;
    if (!navigator.onLine) {
      onStatus("offline");
      return; // the "online" event reconnects
    }
    onStatus("reconnecting");
    const wait = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
    attempt += 1;
    clearTimeout(timer);
    timer = setTimeout(connect, wait);
  };

  // Going offline does not always close an open socket; drop it ourselves, and come back
  // (resubscribe + re-read) as soon as the browser is online again.
  const offline = () => {
    stopSubscription?.();
    stopSubscription = null;
    if (!over) onStatus("offline");
  };
  const online = () => {
    attempt = 0;
    connect();
  };
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);

  connect();
  return function stop() {
    stopped = true;
    clearTimeout(timer);
    window.removeEventListener("offline", offline);
    window.removeEventListener("online", online);
    stopSubscription?.();
  };
}
