// Runs the series page's decision controls (views/series/decide.js) on a DOM made here: a
// decision the API stored, after which the page could not read the series again, must not leave
// the controls disabled for good (the page's poll waits while they are, so it never redrew).
// Prints what each case came to (JSON): what test_series_decide_js.py checks.
class FakeNode {
  constructor() {
    this.childNodes = [];
  }
  append(...children) {
    this.childNodes.push(...children);
  }
  replaceChildren(...children) {
    this.childNodes = [...children];
  }
  get textContent() {
    return this.childNodes.map((c) => c.textContent).join("");
  }
}
class FakeText extends FakeNode {
  constructor(text) {
    super();
    this.text = text;
  }
  get textContent() {
    return this.text;
  }
}
class FakeElement extends FakeNode {
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.attributes = {};
    this.dataset = {};
    this.listeners = {};
    this.disabled = false;
  }
  setAttribute(key, value) {
    this.attributes[key] = value;
  }
  addEventListener(type, listener) {
    this.listeners[type] = listener;
  }
  click() {
    this.listeners.click?.({ preventDefault() {} });
  }
}
globalThis.Node = FakeNode;
globalThis.document = {
  createElement: (tag) => new FakeElement(tag),
  createElementNS: (_, tag) => new FakeElement(tag),
  createTextNode: (text) => new FakeText(text),
};
globalThis.window = {
  addEventListener() {},
  localStorage: { getItem: () => null, setItem() {}, removeItem() {} },
  crypto: globalThis.crypto,
};

// as in a browser, a promise nobody awaits that fails does not stop the page
process.on("unhandledRejection", () => {});

const { decisionControls } = await import("../../../services/dashboard/static/js/views/series/decide.js");

const buttonsOf = (node) =>
  (node.tagName === "BUTTON" ? [node] : []).concat(...(node.childNodes ?? []).map(buttonsOf));
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

const series = {
  id: "s1",
  games: [{ number: 1, seats: [{ seat: "p1", character: "black_jack", member: { memberId: "a1", displayName: "Ann" } }] }],
};
const asked = { ask: "keep_character", seat: "p1", member: { memberId: "a1", displayName: "Ann" }, among: [] };

async function outcome({ status, reread }) {
  let posts = 0;
  globalThis.fetch = async () => {
    posts += 1;
    return { status, ok: status < 400, json: async () => (status < 400 ? { ok: true } : { detail: "not your question" }) };
  };
  const onDone = async () => {
    if (reread === "fails") throw new Error("the server did not answer");
  };
  const controls = decisionControls(series, asked, onDone);
  const buttons = buttonsOf(controls);
  buttons[0].click();
  const during = buttons.map((b) => b.disabled);
  await settle();
  return { posts, during, after: buttons.map((b) => b.disabled), said: controls.textContent };
}

process.stdout.write(
  JSON.stringify({
    stored: await outcome({ status: 201, reread: "ok" }),
    storedUnread: await outcome({ status: 201, reread: "fails" }),
    refused: await outcome({ status: 409, reread: "ok" }),
  }),
);
