// Which league, season or tournament a page shows. The ids travel in the address
// (#/standings?league=saloon&season=s1) and links between pages carry them along; a person
// never reads or types one: the pages pick leagues, seasons and tournaments by name (places.js).

/** The scope params worth carrying in links to other pages. */
export function scopeOf(params) {
  return {
    league: params.get("league"),
    season: params.get("season"),
    tournament: params.get("tournament"),
    club: params.get("club"), // whose ratings (pool.js)
  };
}
