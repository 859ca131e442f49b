// The page's address: the hash holds a path and a query ("#/game/g1/replay?v=12").

const DEFAULT_PATH = "/leaderboard";

export function parseHash(hash) {
  const raw = hash.replace(/^#/, "") || DEFAULT_PATH;
  const [path, search = ""] = raw.split("?");
  return { path, params: new URLSearchParams(search) };
}

/** Change the URL's query without re-rendering the page (e.g. the replay slider's position). */
export function replaceParams(params) {
  const { path } = parseHash(window.location.hash);
  const search = params.toString();
  history.replaceState(null, "", `#${path}${search ? `?${search}` : ""}`);
}

/** A hash link: href("/standings", {league: "l1"}) → "#/standings?league=l1"; empty values are left out. */
export function href(path, params) {
  const search = new URLSearchParams(Object.entries(params ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== ""));
  const query = search.toString();
  return `#${path}${query ? `?${query}` : ""}`;
}

/** Render the current page again from scratch (a retry after a lost live connection). */
export function rerender() {
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}
