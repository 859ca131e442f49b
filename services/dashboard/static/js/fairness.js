// The seed derivations of an online game, written once more in JavaScript from docs/audit.md,
// and the checks a browser makes with them. Nothing here trusts what the server computed: the
// revealed seed, its commitment, the deal and every roll are read from the game's published
// events and record, and everything derived from the seed is derived here, with WebCrypto
// (SHA-256, HMAC-SHA256). No DOM: the unit tests run this module under node beside the Python
// derivations (services/game/fairness), seed for seed.
//
// Each version's tables are its own ordered literals, exactly as the Python ones: a new
// character, face or card is a new version, never an edit of one below.

const subtle = () => {
  const found = globalThis.crypto?.subtle;
  if (!found) {
    throw new FairnessError(
      "this browser offers no WebCrypto here (it needs a secure page: https, or localhost), so nothing can be re-derived",
    );
  }
  return found;
};

export class FairnessError extends Error {
  constructor(message) {
    super(message);
    this.name = "FairnessError";
  }
}

// --- bytes ---------------------------------------------------------------------------------------

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new FairnessError("the revealed seed is not hexadecimal");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const utf8 = (text) => new TextEncoder().encode(text);

/** What an online game publishes before it starts: SHA-256 of the seed, in hex. */
export async function commitment(seed) {
  return bytesToHex(new Uint8Array(await subtle().digest("SHA-256", seed)));
}

// --- streams (streams.py) ------------------------------------------------------------------------

export const DICE_LABEL = "";
export const DEAL_LABEL = "deal";
export const SPECIAL_ROLES_LABEL = "special-roles";

/** The `label` byte stream of `seed`: block c = HMAC-SHA256(key=seed, msg=label + c as 8 bytes big-endian).
 * `label` is text (its UTF-8) or bytes. */
export class ByteStream {
  constructor(seed, label) {
    if (!seed?.length) throw new FairnessError("a seed must not be empty");
    this.seed = seed;
    this.label = typeof label === "string" ? utf8(label) : Uint8Array.from(label);
    this.counter = 0;
    this.buffer = [];
    this.key = null;
  }

  async block() {
    this.key ??= await subtle().importKey("raw", this.seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const message = new Uint8Array(this.label.length + 8);
    message.set(this.label);
    new DataView(message.buffer).setBigUint64(this.label.length, BigInt(this.counter));
    this.counter += 1;
    return new Uint8Array(await subtle().sign("HMAC", this.key, message));
  }

  async take(n) {
    while (this.buffer.length < n) this.buffer.push(...(await this.block()));
    return this.buffer.splice(0, n);
  }

  /** An integer in 0..k-1, every one equally likely: 4 bytes big-endian, rejected at or above (2**32 // k) * k. */
  async below(k) {
    if (!(Number.isInteger(k) && k > 0 && k <= 2 ** 32)) throw new FairnessError(`below(${k}) is not defined`);
    const limit = Math.floor(2 ** 32 / k) * k;
    for (;;) {
      const [a, b, c, d] = await this.take(4);
      const x = a * 2 ** 24 + b * 2 ** 16 + c * 2 ** 8 + d;
      if (x < limit) return x % k;
    }
  }

  /** Fisher–Yates from the end: for i from n-1 down to 1, swap i with below(i + 1). */
  async shuffle(items) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

// --- dice-1, dice-2 (dice.py, dice_kinds.py) -----------------------------------------------------

const ACCEPT_BELOW = 252; // 6 × 42: bytes 252..255 are skipped, so every index has probability 1/6

export const DICE_1_FACES = Object.freeze(["arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling"]);

export const DICE_2_FACES = Object.freeze({
  base: Object.freeze(["arrow", "dynamite", "shoot1", "shoot2", "beer", "gatling"]),
  loudmouth: Object.freeze(["arrow", "dynamite", "bullet", "shoot1x2", "shoot2x2", "gatlingx2"]),
  coward: Object.freeze(["arrow", "dynamite", "shoot1", "beer", "beerx2", "broken_arrow"]),
  duel: Object.freeze(["arrow", "dynamite", "gatling", "whiskey", "duel", "duel"]),
});

/** The accepted-byte stream of a seed (the empty label), each accepted byte read as an index 0..5. */
export class IndexStream {
  constructor(seed) {
    this.bytes = new ByteStream(seed, DICE_LABEL);
    this.pending = [];
    this.dealt = 0;
  }

  async indices(count) {
    while (this.pending.length < count) {
      for (const b of await this.bytes.take(32)) if (b < ACCEPT_BELOW) this.pending.push(b % 6);
    }
    this.dealt += count;
    return this.pending.splice(0, count);
  }
}

/**
 * A dice derivation's face stream: roll(kinds) → the faces of dice of those kinds, in order.
 * dice-1 rolls base dice only; dice-2 reads the same indices on the table of each die's kind.
 */
export function diceStream(version, seed) {
  const known = DICE[version];
  if (!known) throw new FairnessError(unknown("dice", version));
  const stream = new IndexStream(seed);
  return {
    version,
    get facesDealt() {
      return stream.dealt;
    },
    async roll(kinds) {
      for (const kind of kinds) {
        if (!(kind in known.tables)) {
          const kindsKnown = Object.keys(known.tables);
          throw new FairnessError(
            kindsKnown.length === 1 ? `${version} rolls ${kindsKnown[0]} dice only, not a ${kind} die` : `${version} has no ${kind} die (kinds: ${kindsKnown.join(", ")})`,
          );
        }
      }
      const indices = await stream.indices(kinds.length);
      return kinds.map((kind, i) => known.tables[kind][indices[i]]);
    },
  };
}

const DICE = Object.freeze({
  "dice-1": { tables: Object.freeze({ base: DICE_1_FACES }) },
  "dice-2": { tables: DICE_2_FACES },
});

// --- deal-1, deal-2 (deal.py, deal_pool.py) ------------------------------------------------------

export const DEAL_1_CHARACTERS = Object.freeze([
  "bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones", "jourdonnais",
  "kit_carlson", "lucky_duke", "paul_regret", "pedro_ramirez", "rose_doolan", "sid_ketchum",
  "slab_the_killer", "suzy_lafayette", "vulture_sam", "willy_the_kid",
]);

export const DEAL_1_ROLES = Object.freeze({
  3: ["deputy", "outlaw", "renegade"],
  4: ["sheriff", "renegade", "outlaw", "outlaw"],
  5: ["sheriff", "renegade", "outlaw", "outlaw", "deputy"],
  6: ["sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy"],
  7: ["sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"],
  8: ["sheriff", "renegade", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"],
});

export const DEAL_2_ROLES = DEAL_1_ROLES; // written again in deal_pool.py, the same table

export const DEAL_2_CHARACTERS = Object.freeze({
  "characters dice-base-1": DEAL_1_CHARACTERS,
  "characters-os4 os4-1": Object.freeze([
    "jose_delgado", "tequila_joe", "apache_kid", "bill_noface", "elena_fuente", "vera_custer",
    "doc_holyday", "molly_stark",
  ]),
});

export const DEAL_2_TABLE_ORDER = Object.freeze(["characters", "characters-os4"]);

export const DEAL_2_NEEDS = Object.freeze({ jose_delgado: "OS1", tequila_joe: "OS1", apache_kid: "OS2" });

// --- deal-3 (deal_pool_3.py): deal-2's algorithm over deal-2's tables plus UA3's ------------------

const UA3_CHARACTERS = Object.freeze([
  "belle_star", "chuck_wengam", "greg_digger", "herb_hunter", "pat_brennan", "pixie_pete",
  "sam_the_healer", "sean_mallory",
]);

// ua3-2 changes Greg Digger's rule, not who is dealt: the same eight in the same order
export const DEAL_3_CHARACTERS = Object.freeze({
  ...DEAL_2_CHARACTERS,
  "characters-ua3 ua3-1": UA3_CHARACTERS,
  "characters-ua3 ua3-2": UA3_CHARACTERS,
});

export const DEAL_3_TABLE_ORDER = Object.freeze(["characters", "characters-os4", "characters-ua3"]);

export const DEAL_3_NEEDS = Object.freeze({
  ...DEAL_2_NEEDS,
  herb_hunter: "UA1",
  sean_mallory: "UA1",
  pat_brennan: "UA2",
  pixie_pete: "UA2",
});

/** A pool-dealing version's pool: the ruleset's character tables in that version's order, without
 * characters whose module is absent; a table or table version the version does not hold is refused. */
function poolOf(version, ruleset, characters, order, needs) {
  const data = ruleset?.data ?? { characters: "dice-base-1" };
  const modules = new Set(ruleset?.modules ?? []);
  for (const name of Object.keys(data).sort()) {
    if ((name === "characters" || name.startsWith("characters-")) && !order.includes(name)) {
      throw new FairnessError(`${version} has no character table '${name}' (tables: ${order.join(", ")})`);
    }
  }
  const pool = [];
  for (const name of order) {
    const tableVersion = data[name];
    if (tableVersion === undefined) continue;
    const table = characters[`${name} ${tableVersion}`];
    if (!table) throw new FairnessError(`${version} has no version '${tableVersion}' of the character table '${name}'`);
    pool.push(...table.filter((c) => !(c in needs) || modules.has(needs[c])));
  }
  return pool;
}

/** deal-2's pool: the ruleset's character tables in DEAL_2_TABLE_ORDER, without characters whose module is absent. */
export function characterPool(ruleset) {
  return poolOf("deal-2", ruleset, DEAL_2_CHARACTERS, DEAL_2_TABLE_ORDER, DEAL_2_NEEDS);
}

/** deal-3's pool: deal-2's with the UA3 characters' table. */
export function characterPool3(ruleset) {
  return poolOf("deal-3", ruleset, DEAL_3_CHARACTERS, DEAL_3_TABLE_ORDER, DEAL_3_NEEDS);
}

async function dealWith(version, roleTables, pool, seed, members, sheriffMember) {
  const n = members.length;
  const table = roleTables[n];
  if (!table) throw new FairnessError(`${version} deals 3 to 8 players, not ${n}`);
  if (pool.length < n) throw new FairnessError(`${version}: the pool holds ${pool.length} characters, ${n} players need one each`);
  const stream = new ByteStream(seed, DEAL_LABEL);
  const seated = await stream.shuffle(members);
  let roles;
  if (sheriffMember !== null && sheriffMember !== undefined && table.includes("sheriff")) {
    const rest = [...table];
    rest.splice(rest.indexOf("sheriff"), 1);
    const others = await stream.shuffle(rest);
    roles = seated.map((m) => (m === sheriffMember ? "sheriff" : others.shift()));
  } else {
    roles = await stream.shuffle(table);
  }
  const characters = (await stream.shuffle(pool)).slice(0, n);
  return { seated, roles, characters };
}

const DEALS = Object.freeze({
  "deal-1": async (seed, members, sheriffMember, ruleset) => {
    const pool = characterPool(ruleset);
    if (pool.join() !== DEAL_1_CHARACTERS.join()) {
      throw new FairnessError(`deal-1 deals the 16 base characters only, not the pool of ${rulesetText(ruleset)}`);
    }
    return dealWith("deal-1", DEAL_1_ROLES, DEAL_1_CHARACTERS, seed, members, sheriffMember);
  },
  "deal-2": async (seed, members, sheriffMember, ruleset) =>
    dealWith("deal-2", DEAL_2_ROLES, characterPool(ruleset), seed, members, sheriffMember),
  "deal-3": async (seed, members, sheriffMember, ruleset) =>
    dealWith("deal-3", DEAL_2_ROLES, characterPool3(ruleset), seed, members, sheriffMember),
});

// --- roles-os3-1 (special_roles.py) --------------------------------------------------------------

export const ROLES_OS3_1_ORDER = Object.freeze(["sheriff", "deputy", "outlaw", "renegade"]);

export const ROLES_OS3_1_CARDS = Object.freeze({
  sheriff: ["l_ours"],
  deputy: ["le_bien", "le_doc", "le_juge"],
  outlaw: ["le_joueur", "le_mauvais", "le_vilain"],
  renegade: ["main_droite", "main_gauche"],
});

const SPECIAL_ROLES = Object.freeze({
  "roles-os3-1": {
    data: ["special-roles", "os3-1"],
    async deal(seed, roles) {
      const unknownRoles = [...new Set(roles.filter((r) => !(r in ROLES_OS3_1_CARDS)))].sort();
      if (unknownRoles.length) throw new FairnessError(`roles-os3-1 has no cards for the role ${unknownRoles.join(", ")}`);
      const stream = new ByteStream(seed, SPECIAL_ROLES_LABEL);
      const specials = roles.map(() => null);
      for (const role of ROLES_OS3_1_ORDER) {
        const cards = await stream.shuffle(ROLES_OS3_1_CARDS[role]);
        const holders = roles.flatMap((r, i) => (r === role ? [i] : []));
        if (holders.length > cards.length) {
          throw new FairnessError(`roles-os3-1 has ${cards.length} ${role} cards for ${holders.length} ${role} seats`);
        }
        holders.forEach((seat, i) => {
          specials[seat] = cards[i];
        });
      }
      return specials;
    },
  },
});

// --- draws-1 (draws.py): a card drawn at random among the cards there to be drawn ---------------
//
// The n-th draw (from 0) from deck D reads its own stream, label "draws-1:" + D + ":" + n as 8
// bytes big-endian, and takes cards[below(cards.length)]: `cards` are the cards the draw is among,
// in the deck's own order, a card repeated as often as it is there. Generic over the deck: the
// deck's name is only the stream's label (UA2's rage-1, UA1's wound tokens and duel throws, UA4's
// Boneyard alike); which cards a draw is among is the rules' part (draw-decks.js).

export const DRAWS_1 = "draws-1";

/** The stream label of the `number`-th draw (from 0) from `deck`, as bytes. */
export function drawLabel(deck, number) {
  if (!(Number.isSafeInteger(number) && number >= 0)) throw new FairnessError(`draw number ${number} is not a whole number from 0`);
  const head = utf8(`${DRAWS_1}:${deck}:`);
  const label = new Uint8Array(head.length + 8);
  label.set(head);
  new DataView(label.buffer).setBigUint64(head.length, BigInt(number));
  return label;
}

const DRAWS = Object.freeze({
  "draws-1": async (seed, deck, number, cards) => {
    if (!cards?.length) throw new FairnessError(`draws-1: draw ${number} from ${deck} has no card to draw`);
    return cards[await new ByteStream(seed, drawLabel(deck, number)).below(cards.length)];
  },
});

/** The card a draw derivation gives: the `number`-th draw from `deck`, among `cards` (exactly draws.draw). */
export async function drawCard(version, seed, deck, number, cards) {
  const derive = DRAWS[version];
  if (!derive) throw new FairnessError(unknown("draws", version));
  return derive(seed, deck, number, cards);
}

// --- the registry (registry.py) ------------------------------------------------------------------

export const DERIVATIONS = Object.freeze({
  deal: Object.keys(DEALS),
  dice: Object.keys(DICE),
  draws: Object.keys(DRAWS),
  special_roles: Object.keys(SPECIAL_ROLES),
});

function unknown(kind, version) {
  return `unknown ${kind} derivation '${version}' (known: ${[...DERIVATIONS[kind]].sort().join(", ")})`;
}

export function rulesetText(ruleset) {
  return [ruleset?.game_type ?? "dice", ...(ruleset?.modules ?? [])].join(" ");
}

/** The versions a game recorded; a game stored before versions were recorded used deal-1 dice-1. */
export function fairnessOf(recorded) {
  return {
    deal: recorded?.deal ?? "deal-1",
    dice: recorded?.dice ?? "dice-1",
    special_roles: recorded?.special_roles ?? null,
    draws: recorded?.draws ?? null,
  };
}

export function fairnessText(fairness) {
  return [fairness.deal, fairness.dice, fairness.special_roles, fairness.draws].filter(Boolean).join(" ");
}

/**
 * The whole deal of an online game by the versions it recorded: {seated, roles, characters,
 * specials} (specials null without OS3), exactly registry.deal_seats.
 */
export async function dealGame(fairness, seed, members, sheriffMember, ruleset) {
  const deal = DEALS[fairness.deal];
  if (!deal) throw new FairnessError(unknown("deal", fairness.deal));
  const dealt = await deal(seed, members, sheriffMember, ruleset);
  const os3 = (ruleset?.modules ?? []).includes("OS3");
  const version = fairness.special_roles;
  if (!os3) {
    if (version) throw new FairnessError(`the game records the special-role deal ${version}, but ${rulesetText(ruleset)} has no OS3`);
    return { ...dealt, specials: null };
  }
  if (!version) throw new FairnessError(`${rulesetText(ruleset)} has special roles (OS3), but the game records no special-role deal`);
  const derivation = SPECIAL_ROLES[version];
  if (!derivation) throw new FairnessError(unknown("special_roles", version));
  const [table, wanted] = derivation.data;
  const has = ruleset?.data?.[table];
  if (has !== wanted) throw new FairnessError(`${version} deals the ${table} cards ${wanted}, not ${has ?? "none"}`);
  return { ...dealt, specials: await derivation.deal(seed, dealt.roles) };
}
