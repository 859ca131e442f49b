// Just enough of a browser for the dashboard's modules under node: elements built by dom.js's
// h() and mount(), a window with an empty localStorage and crypto. Import it first.
class FakeNode {
  constructor() {
    this.childNodes = [];
    this.parentNode = null;
  }
  adopt(children) {
    for (const c of children) c.parentNode = this;
    return children;
  }
  append(...children) {
    this.childNodes.push(...this.adopt(children));
  }
  prepend(...children) {
    this.childNodes.unshift(...this.adopt(children));
  }
  replaceChildren(...children) {
    this.childNodes = this.adopt([...children]);
  }
  remove() {
    if (this.parentNode) this.parentNode.childNodes = this.parentNode.childNodes.filter((c) => c !== this);
    this.parentNode = null;
  }
  get children() {
    return this.childNodes.filter((c) => c instanceof FakeElement);
  }
  get lastElementChild() {
    return this.children.at(-1) ?? null;
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
export class FakeElement extends FakeNode {
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
    if (this.disabled) return; // as a browser: a disabled control is not clicked
    this.listeners.click?.({ preventDefault() {}, currentTarget: this, target: this });
  }
  querySelector() {
    return null; // no selectors here: a page asking finds nothing
  }
}

/** Every element under `node` (itself included) that `test(element)` accepts. */
export function findAll(node, test) {
  const own = node instanceof FakeElement && test(node) ? [node] : [];
  return own.concat(...(node.childNodes ?? []).map((c) => findAll(c, test)));
}

globalThis.Node = FakeNode;
globalThis.document = {
  createElement: (tag) => new FakeElement(tag),
  createElementNS: (_, tag) => new FakeElement(tag),
  createTextNode: (text) => new FakeText(text),
  querySelector: () => null,
};
globalThis.window = {
  addEventListener() {},
  removeEventListener() {},
  localStorage: { getItem: () => null, setItem() {}, removeItem() {} },
  crypto: globalThis.crypto,
  location: { href: "http://dashboard.test/" },
  setInterval: (...args) => setInterval(...args),
  clearInterval: (id) => clearInterval(id),
};
// as in a browser, a promise nobody awaits that fails does not stop the page
process.on("unhandledRejection", () => {});
