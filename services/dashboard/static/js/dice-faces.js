// The dice faces drawn in SVG. Emoji and symbol glyphs depend on the fonts of the machine (the
// Beer face was an empty box in headless Chromium); a drawing does not. Each face is a name (its
// accessible name, "Beer", "1", "Beer ×2") and a drawing in a 40×40 box; a double face (OS1) is
// its single face drawn twice, side by side. A face this page has no drawing for (a later module's)
// still shows its name. Colours are classes (df-*) styled in dashboard.css with the palette.

import { s, titleCase } from "./dom.js";

const line = (d, cls = "df-line") => s("path", { d, class: cls });

function beer() {
  return [
    s("rect", { x: 9, y: 13, width: 17, height: 21, rx: 2, class: "df-brass df-edge" }),
    line("M13 18 v12 M17.5 18 v12 M22 18 v12", "df-thin"),
    line("M26 17 h3.5 a3.5 3.5 0 0 1 3.5 3.5 v5 a3.5 3.5 0 0 1 -3.5 3.5 h-3.5"),
    s("circle", { cx: 12, cy: 12, r: 4, class: "df-paper df-edge" }),
    s("circle", { cx: 18, cy: 10.5, r: 4.5, class: "df-paper df-edge" }),
    s("circle", { cx: 23.5, cy: 12, r: 4, class: "df-paper df-edge" }),
  ];
}

function arrow() {
  return [
    line("M8 32 L29 11"),
    s("polygon", { points: "34,6 22,10 30,18", class: "df-red df-edge" }),
    line("M8 32 l-1 -7 M8 32 l7 1 M12 28 l-1 -7 M12 28 l7 1", "df-line df-red-line"),
  ];
}

function brokenArrow() {
  return [
    line("M6 30 L14 22 M22 18 L29 11"),
    line("M15 18 l2 3 l1 -3 l2 2 M16 24 l2 -2 l1 3 l2 -3", "df-thin df-red-line"),
    s("polygon", { points: "34,6 22,10 30,18", class: "df-red df-edge" }),
    line("M6 30 l-1 -7 M6 30 l7 1", "df-line df-red-line"),
  ];
}

function dynamite() {
  return [
    line("M19.5 15 q0 -6 6 -8", "df-thin"),
    s("polygon", { points: "27,2 28.5,5.5 32,6 29,8 30,12 27,9.5 24,12 25,8 22,6 25.5,5.5", class: "df-brass df-edge" }),
    s("rect", { x: 8.5, y: 15, width: 7, height: 20, rx: 2, class: "df-red df-edge" }),
    s("rect", { x: 16, y: 15, width: 7, height: 20, rx: 2, class: "df-red df-edge" }),
    s("rect", { x: 23.5, y: 15, width: 7, height: 20, rx: 2, class: "df-red df-edge" }),
    s("rect", { x: 7.5, y: 22, width: 24, height: 4, class: "df-ink" }),
  ];
}

function gatling() {
  return [
    s("rect", { x: 4, y: 11, width: 27, height: 2.5, class: "df-ink" }),
    s("rect", { x: 4, y: 15, width: 27, height: 2.5, class: "df-ink" }),
    s("rect", { x: 4, y: 19, width: 27, height: 2.5, class: "df-ink" }),
    s("rect", { x: 4, y: 9.5, width: 3, height: 13, class: "df-brass df-edge" }),
    s("rect", { x: 24, y: 9, width: 11, height: 14, rx: 2, class: "df-saddle df-edge" }),
    line("M35 16 h3 v6", "df-thin"),
    s("circle", { cx: 22, cy: 29, r: 6.5, class: "df-none df-edge-thick" }),
    line("M22 22.5 v13 M15.5 29 h13 M17.4 24.4 l9.2 9.2 M26.6 24.4 l-9.2 9.2", "df-thin"),
  ];
}

function bullseye(number) {
  return () => [
    s("circle", { cx: 20, cy: 20, r: 16, class: "df-paper df-edge" }),
    s("circle", { cx: 20, cy: 20, r: 12, class: "df-none df-red-ring" }),
    s("text", { x: 20, y: 20, class: "df-number", "text-anchor": "middle", "dominant-baseline": "central" }, number),
  ];
}

function bullet() {
  return [
    s("path", { d: "M14 29 V17 Q20 3 26 17 V29 Z", class: "df-brass df-edge" }),
    s("rect", { x: 12.5, y: 29, width: 15, height: 5, rx: 1, class: "df-saddle df-edge" }),
    line("M17 18 Q18.5 11 20 9", "df-thin df-paper-line"),
  ];
}

function whiskey() {
  return [
    s("path", { d: "M17 4 h6 v9 q6 3 6 9 v12 a2 2 0 0 1 -2 2 h-14 a2 2 0 0 1 -2 -2 v-12 q0 -6 6 -9 z", class: "df-saddle df-edge" }),
    s("rect", { x: 16.5, y: 2.5, width: 7, height: 3, class: "df-ink" }),
    s("rect", { x: 13, y: 22, width: 14, height: 8, class: "df-paper df-edge" }),
    s("text", { x: 20, y: 26, class: "df-tiny", "text-anchor": "middle", "dominant-baseline": "central" }, "XXX"),
  ];
}

// A six-shooter pointing right (barrel, cylinder, grip, trigger guard); the Duel face is two,
// facing each other.
function pistol() {
  return [
    s("rect", { x: 15, y: 0, width: 19, height: 4, rx: 1 }),
    s("rect", { x: 8, y: -1.5, width: 10, height: 8, rx: 2 }),
    s("path", { d: "M8 4 L15 6 L10 17 L3 15 Z" }),
    s("path", { d: "M13 6.5 q1 5 5 4", class: "df-none df-thin-edge" }),
  ];
}

function duel() {
  return [
    s("g", { class: "df-ink df-edge", transform: "translate(1 4) scale(.8)" }, pistol()),
    s("g", { class: "df-saddle df-edge", transform: "translate(39 21) scale(-.8 .8)" }, pistol()),
  ];
}

const FACES = {
  arrow: { name: "Arrow", draw: arrow },
  dynamite: { name: "Dynamite", draw: dynamite },
  // the die shows "1" and that is its name; in a sentence ("die 2 (Shoot 1)") it needs a word
  shoot1: { name: "1", words: "Shoot 1", draw: bullseye("1") },
  shoot2: { name: "2", words: "Shoot 2", draw: bullseye("2") },
  beer: { name: "Beer", draw: beer },
  gatling: { name: "Gatling", draw: gatling },
  // Old Saloon (OS1): the Loudmouth and Coward dice
  broken_arrow: { name: "Broken arrow", draw: brokenArrow },
  bullet: { name: "Bullet", draw: bullet },
  // the Duel dice of a later expansion (Undead or Alive, UA1)
  whiskey: { name: "Whiskey", draw: whiskey },
  duel: { name: "Duel", draw: duel },
};

// "beerx2" is "beer" twice: each symbol aimed and used on its own, so it is drawn twice.
function parts(face) {
  const known = FACES[face];
  if (known) return { words: known.name, ...known, double: false };
  const single = /^(.+)x2$/.exec(String(face ?? ""));
  const base = single && FACES[single[1]];
  if (base) return { name: `${base.name} ×2`, words: `${base.words ?? base.name} ×2`, draw: base.draw, double: true };
  return { name: titleCase(face), words: titleCase(face), draw: null, double: false };
}

/** The face's name, its accessible name too: "Beer", "1", "Beer ×2"; an unknown face its own words. */
export function faceName(face) {
  return parts(face).name;
}

/** The face in words for a sentence or a button: "Shoot 1", "Beer ×2" (its name where that reads well). */
export function faceWords(face) {
  return parts(face).words;
}

/** A double face (OS1's shoot1x2, beerx2, ...): two symbols on one die. */
export function isDouble(face) {
  return parts(face).double;
}

// The small letter in the corner that tells the kinds apart without colour: L, C, D.
function kindLetter(kind, width) {
  if (!kind || kind === "base") return null;
  return s(
    "g",
    { class: `df-kind-mark df-kind-${kind}`, "aria-hidden": "true" },
    s("circle", { cx: width - 5, cy: 5, r: 5, class: "df-kind-badge" }),
    s("text", { x: width - 5, y: 5, class: "df-kind", "text-anchor": "middle", "dominant-baseline": "central" }, kind[0].toUpperCase()),
  );
}

function drawing(face) {
  const { draw, double } = parts(face);
  if (!draw) {
    // no picture: a question mark, and the name beside the die says what it is
    return [s("text", { x: 20, y: 20, class: "df-number", "text-anchor": "middle", "dominant-baseline": "central" }, "?")];
  }
  // a double face is two whole symbols side by side (the box is twice as wide)
  return double ? [s("g", null, draw()), s("g", { transform: "translate(40 0)" }, draw())] : draw();
}

/** One face as an <svg role="img"> named by its face ("Beer ×2"), marked with the die's kind. */
export function faceSvg(face, kind = "base") {
  const name = faceName(face);
  const width = isDouble(face) ? 80 : 40;
  return s(
    "svg",
    {
      class: `die-face${width > 40 ? " die-face-double" : ""}`,
      viewBox: `0 0 ${width} 40`,
      role: "img",
      "aria-label": name,
      "data-testid": "die-face",
      focusable: "false",
    },
    s("title", null, name),
    drawing(face),
    kindLetter(kind, width),
  );
}
