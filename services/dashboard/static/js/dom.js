// Building DOM nodes without innerHTML: every name and id shown comes from the API, so text
// always goes in as text nodes and can never be parsed as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "style") {
      // through the CSSOM: the API's Content-Security-Policy refuses style attributes in markup
      node.style.cssText = String(value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("td", {class: "num"}, "12"). */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  apply(node, attrs);
  return append(node, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  apply(node, attrs);
  return append(node, children);
}

/** Replace everything inside `node` with `children`. */
export function mount(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** A table from column specs: [{label, value: row => text|node, numeric}]. */
export function table({ caption, columns, rows, rowAttrs, testid }) {
  return h(
    "table",
    { class: "data", "data-testid": testid },
    caption ? h("caption", null, caption) : null,
    h("thead", null, h("tr", null, columns.map((c) => h("th", { scope: "col", class: c.numeric ? "num" : null }, c.label)))),
    h(
      "tbody",
      null,
      rows.map((row, index) =>
        h(
          "tr",
          rowAttrs ? rowAttrs(row, index) : null,
          columns.map((c) => h("td", { class: c.numeric ? "num" : null }, c.value(row, index))),
        ),
      ),
    ),
  );
}

export function formatNumber(value, digits = 0) {
  if (value === null || value === undefined || Number.isNaN(Number(value))) return "–";
  return Number(value).toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "sheriff" → "Sheriff", "calamity_janet" → "Calamity janet"; GraphQL enums come upper case ("SHERIFF"). */
export function titleCase(word) {
  if (!word) return "";
  const lower = String(word).toLowerCase().replaceAll("_", " ");
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** "calamity_janet" → "Calamity Janet": a character's name. */
export function properName(word) {
  return String(word ?? "")
    .split(/[_\s]+/)
    .filter(Boolean)
    .map(titleCase)
    .join(" ");
}
