// Small icons drawn in SVG rather than symbol glyphs (★ ✔ ✘ ◀ ▶), which some fonts draw as
// emoji and some as empty boxes. Each is decoration (aria-hidden): the text beside it says the
// same thing.

import { s } from "./dom.js";

const SHAPES = {
  star: () => s("polygon", { points: "8,0.5 10.2,5.6 15.6,5.8 11.4,9.3 12.8,14.8 8,11.8 3.2,14.8 4.6,9.3 0.4,5.8 5.8,5.6" }),
  check: () => s("path", { d: "M2 8.5 L6.2 12.5 L14 3.5", fill: "none", stroke: "currentColor", "stroke-width": 2.6, "stroke-linecap": "round", "stroke-linejoin": "round" }),
  cross: () => s("path", { d: "M3 3 L13 13 M13 3 L3 13", fill: "none", stroke: "currentColor", "stroke-width": 2.6, "stroke-linecap": "round" }),
  previous: () => s("polygon", { points: "12,2 12,14 3,8" }),
  next: () => s("polygon", { points: "4,2 4,14 13,8" }),
  first: () => s("path", { d: "M2 2 h2.5 v12 h-2.5 z M14 2 v12 L5.5 8 z" }),
  last: () => s("path", { d: "M11.5 2 h2.5 v12 h-2.5 z M2 2 v12 L10.5 8 z" }),
};

/** An inline 1em icon in the text's colour: icon("check"). */
export function icon(name, extraClass = "") {
  return s(
    "svg",
    { class: `icon icon-${name}${extraClass ? ` ${extraClass}` : ""}`, viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false", fill: "currentColor" },
    SHAPES[name](),
  );
}
