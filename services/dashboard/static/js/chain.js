// The event store's hash chain (docs/event-store.md, event_store/hashing.py), recomputed in the
// browser with WebCrypto from what `GET /games/{id}/chain` publishes: each event's stored bytes
// and the hashes the store kept. Every link is recomputed here and compared with the stored hash,
// the next event's `prev_hash` and the stream head; the first broken link is named in plain
// words, with the same kinds as the store's own check (`ChainBreak`: missing, relinked, edited,
// head). Only the bytes that hash correctly are then read as the game (JSON parsed here). No DOM:
// the unit tests run this module under node beside the Python store.

export const CHAIN_FORMAT = "bang-event-v1";
const GENESIS = new Uint8Array(32); // the `prev_hash` of event 1: 32 zero bytes
const HEX = /^[0-9a-f]*$/;
const encoder = new TextEncoder();

export class ChainFormatError extends Error {
  constructor(message) {
    super(message);
    this.name = "ChainFormatError";
  }
}

const subtle = () => {
  const found = globalThis.crypto?.subtle;
  if (!found) throw new ChainFormatError("this browser offers no WebCrypto here (it needs https or localhost), so no hash can be recomputed");
  return found;
};

function fromHex(hex, bytes, what) {
  if (typeof hex !== "string" || hex.length !== 2 * bytes || !HEX.test(hex)) {
    throw new ChainFormatError(`${what} is not ${2 * bytes} lower-case hexadecimal digits`);
  }
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function uuidBytes(id, what) {
  const hex = typeof id === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) ? id.replace(/-/g, "") : null;
  if (!hex) throw new ChainFormatError(`${what} is not a UUID`);
  return fromHex(hex, 16, what);
}

function u32(n) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function u64(n) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** With its length first (u32), as the store writes every variable-length field. */
const sized = (bytes) => [u32(bytes.length), bytes];

/**
 * The exact bytes the store hashes for one event: the format tag, the previous hash, the stream,
 * version, event id, type, stored schema version, data and metadata (the stored JSON text as
 * UTF-8), integers unsigned big-endian, each string after its length.
 */
export function linkBytes(stream, event, prevHash) {
  const what = `event ${event.version}`;
  if (!Number.isSafeInteger(event.version) || event.version < 1) throw new ChainFormatError(`${what}: its version is not a positive whole number`);
  if (!Number.isInteger(event.schema_version) || event.schema_version < 0 || event.schema_version > 0xffffffff) {
    throw new ChainFormatError(`${what}: its schema version is not a whole number`);
  }
  for (const field of ["type", "data", "metadata"]) {
    if (typeof event[field] !== "string") throw new ChainFormatError(`${what}: its ${field} is not text`);
  }
  return concat([
    encoder.encode(CHAIN_FORMAT),
    prevHash,
    ...sized(encoder.encode(stream)),
    u64(event.version),
    uuidBytes(event.event_id, `${what}'s id`),
    ...sized(encoder.encode(event.type)),
    u32(event.schema_version),
    ...sized(encoder.encode(event.data)),
    ...sized(encoder.encode(event.metadata)),
  ]);
}

/** SHA-256 of one event's bytes, hex. */
export async function linkHash(stream, event, prevHash) {
  return toHex(new Uint8Array(await subtle().digest("SHA-256", linkBytes(stream, event, prevHash))));
}

const range = (first, last) => (first === last ? `event ${first} is` : `events ${first} to ${last} are`);

function missing(first, nextPresent, why) {
  const last = nextPresent - 1;
  return { kind: "missing", version: first, lastMissing: last, words: `${range(first, last)} missing from the chain (${why})` };
}

/**
 * Recompute the chain of `chain` (the answer of `GET /games/{gameId}/chain`, all pages' events
 * together). Answers {ok, problem, head, events}: `problem` is the first broken link
 * ({kind, version, words}) or null; `events` are the published events read from their bytes
 * ({version, type, data}), every one of them, so that the other checks still say what an edit
 * changed (as the audit does).
 */
export async function checkChain(chain, gameId) {
  const stream = `game-${gameId}`;
  const found = (problem) => ({ ok: false, problem, head: chain?.head ?? null, events: [] });
  if (chain?.format !== CHAIN_FORMAT) return found({ kind: "format", version: null, words: `the chain is in format ${JSON.stringify(chain?.format)}, not ${CHAIN_FORMAT}: it cannot be recomputed here` });
  if (chain.stream !== stream) return found({ kind: "stream", version: null, words: `the chain published is the stream ${JSON.stringify(chain.stream)}, not this game's (${stream})` });
  const events = [...(chain.events ?? [])].sort((a, b) => a.version - b.version);
  let problem = null;
  let expected = 1;
  let prev = GENESIS;
  for (const event of events) {
    const v = event.version;
    if (v < expected) {
      problem = { kind: "duplicate", version: v, words: `event ${v} was published twice` };
      break;
    }
    if (v !== expected) {
      problem = missing(expected, v, "deleted?");
      break;
    }
    try {
      const linked = fromHex(event.prev_hash, 32, `event ${v}'s previous hash`);
      if (!same(linked, prev)) {
        const words = v === 1 ? "event 1 does not start the chain: its previous hash is not the genesis value (32 zero bytes)" : `event ${v} does not link to event ${v - 1}: its previous hash is not event ${v - 1}'s hash (the history before it rewritten?)`;
        problem = { kind: "relinked", version: v, words };
        break;
      }
      const stored = fromHex(event.hash, 32, `event ${v}'s hash`);
      if ((await linkHash(stream, event, prev)) !== toHex(stored)) {
        problem = { kind: "edited", version: v, words: `event ${v}'s hash does not match its content (edited after it was stored?)` };
        break;
      }
      prev = stored;
    } catch (error) {
      if (!(error instanceof ChainFormatError)) throw error;
      problem = { kind: "unreadable", version: v, words: error.message };
      break;
    }
    expected += 1;
  }
  const last = expected - 1;
  const head = chain.head;
  if (!problem) {
    if (!head) {
      problem = { kind: "head", version: null, words: "the server published no stream head: a deleted tail could not be seen" };
    } else if (head.version > last) {
      problem = missing(last + 1, head.version + 1, `the stream head is event ${head.version}`);
    } else if (head.version !== last || head.hash !== toHex(prev)) {
      problem = { kind: "head", version: last, words: `the stream head (event ${head.version}) does not match the last event (event ${last}): edited?` };
    }
  }
  return { ok: !problem, problem, head, events: events.map(readEvent) };
}

/** One event's stored data, parsed here (null when the bytes are not a JSON object). */
function readEvent(event) {
  let data = null;
  try {
    const parsed = typeof event.data === "string" ? JSON.parse(event.data) : null;
    data = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : null;
  } catch {
    data = null;
  }
  return { version: event.version, type: event.type, data };
}
