// A line chart as inline SVG: one <path> per series, axes with round ticks, a legend.
// No library: the machine serving this has no CDN and the dashboard has no build step.

import { h, s, formatNumber } from "./dom.js";

const WIDTH = 720;
const HEIGHT = 320;
const MARGIN = { top: 16, right: 16, bottom: 40, left: 56 };

/** Round tick values covering [min, max], about `count` of them. */
export function ticks(min, max, count = 5) {
  if (min === max) return [min];
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= raw);
  const values = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) values.push(Number(v.toFixed(10)));
  return values;
}

function extent(values, pad) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) {
    lo -= pad;
    hi += pad;
  }
  return [lo, hi];
}

/**
 * series: [{key, label, points: [{x, y, title}]}], x and y numbers.
 * Returns a <figure> holding the SVG and a legend; each series' path has data-series=key.
 */
export function lineChart({ series, title, xLabel, yLabel, testid }) {
  const drawn = series.filter((line) => line.points.length > 0);
  const all = drawn.flatMap((line) => line.points);
  const [xMin, xMax] = extent(all.map((p) => p.x), 1);
  const [yMin, yMax] = extent(all.map((p) => p.y), 10);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (v) => MARGIN.left + ((v - xMin) / (xMax - xMin)) * plotW;
  const y = (v) => MARGIN.top + plotH - ((v - yMin) / (yMax - yMin)) * plotH;

  const yTicks = ticks(yMin, yMax).filter((v) => v >= yMin && v <= yMax);
  const xTicks = ticks(xMin, xMax, 6).filter((v) => v >= xMin && v <= xMax && Number.isInteger(v));

  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: "img",
      "aria-labelledby": `${testid}-title`,
      class: "chart",
      "data-testid": testid,
    },
    s("title", { id: `${testid}-title` }, title),
    yTicks.map((v) =>
      s(
        "g",
        { class: "tick" },
        s("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(v), y2: y(v), class: "grid" }),
        s("text", { x: MARGIN.left - 8, y: y(v), "text-anchor": "end", "dominant-baseline": "middle" }, formatNumber(v)),
      ),
    ),
    xTicks.map((v) =>
      s("text", { x: x(v), y: HEIGHT - MARGIN.bottom + 18, "text-anchor": "middle", class: "tick" }, formatNumber(v)),
    ),
    s("line", { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: HEIGHT - MARGIN.bottom, class: "axis" }),
    s("line", {
      x1: MARGIN.left,
      x2: WIDTH - MARGIN.right,
      y1: HEIGHT - MARGIN.bottom,
      y2: HEIGHT - MARGIN.bottom,
      class: "axis",
    }),
    s("text", { x: MARGIN.left + plotW / 2, y: HEIGHT - 6, "text-anchor": "middle", class: "axis-label" }, xLabel),
    s(
      "text",
      { x: 14, y: MARGIN.top + plotH / 2, "text-anchor": "middle", class: "axis-label", transform: `rotate(-90 14 ${MARGIN.top + plotH / 2})` },
      yLabel,
    ),
    drawn.map((line) =>
      s(
        "g",
        { class: `series series-${line.key}` },
        s("path", {
          d: line.points.map((p, i) => `${i ? "L" : "M"}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" "),
          class: "line",
          "data-series": line.key,
        }),
        line.points.map((p) => s("circle", { cx: x(p.x), cy: y(p.y), r: 4.5 }, s("title", null, p.title ?? `${line.label}: ${formatNumber(p.y)}`))),
      ),
    ),
  );

  const legend = h(
    "ul",
    { class: "legend" },
    drawn.map((line) => h("li", { class: `series-${line.key}` }, h("span", { class: "swatch", "aria-hidden": "true" }), line.label)),
  );
  return h("figure", { class: "chart-figure" }, svg, legend);
}
