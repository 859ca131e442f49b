// Runs the dashboard's REST reader (api.js) and session store (session.js) against a fetch and a
// localStorage made here, and prints what each case came to (JSON): what test_api_js.py checks.
const storage = new Map();
globalThis.window = {
  addEventListener() {},
  localStorage: {
    getItem: (key) => (storage.has(key) ? storage.get(key) : null),
    setItem: (key, value) => storage.set(key, String(value)),
    removeItem: (key) => storage.delete(key),
  },
};

const { get } = await import("../../../services/dashboard/static/js/api.js");
const { current, refreshAccount, remember } = await import("../../../services/dashboard/static/js/session.js");

/** A 200 answer whose body ends as `body` says: JSON, unreadable text, or aborted mid-way. */
function answer(body, controller) {
  return {
    status: 200,
    ok: true,
    json: async () => {
      if (body === "aborted") {
        controller?.abort();
        throw new DOMException("The user aborted a request.", "AbortError");
      }
      if (body === "garbled") throw new SyntaxError("Unexpected token < in JSON");
      return body;
    },
  };
}

async function outcome(body) {
  const controller = new AbortController();
  globalThis.fetch = async () => answer(body, controller);
  try {
    return { resolved: await get("/me", { signal: controller.signal }) };
  } catch (error) {
    return { rejected: error.name };
  }
}

const account = { account_id: "acc-1", display_name: "Ann" };
remember({ token: "t-1", account });
const kept = [];
for (const replacement of [null, undefined, {}, { account_id: "acc-1", display_name: "Ann B" }]) {
  refreshAccount(replacement);
  kept.push(current().account);
}

process.stdout.write(
  JSON.stringify({
    json: await outcome({ account_id: "acc-1" }),
    garbled: await outcome("garbled"),
    aborted: await outcome("aborted"),
    kept,
  }),
);
