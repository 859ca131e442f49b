// A line chart as inline SVG: one <path> per series, axes with round ticks, a legend.
// No library: the machine serving this has no CDN and the dashboard has no build step.

import { h, s, formatNumber } from "./dom.js";

const WIDTH = 720;
const HEIGHT = 350;
const MARGIN = { top: 16, right: 24, bottom: 70, left: 70 };

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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// steps a time axis may tick by, smallest first; months and years are approximated by days,
// which is fine for tick placement (labels are formatted from the real instant)
const TIME_STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR,
  DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 365 * DAY];

const UTC_DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const UTC_MONTH = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });
const UTC_TIME = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });

/** Ticks of a time axis (milliseconds since the epoch) over [min, max], about `count` of them,
 *  on round UTC minutes, hours or days; each {value, label}. */
export function timeTicks(min, max, count = 5) {
  if (min === max) return [{ value: min, label: timeLabel(min, DAY) }];
  const step = TIME_STEPS.find((candidate) => (max - min) / candidate <= count) ?? TIME_STEPS.at(-1);
  const values = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) values.push(v);
  return values.map((value) => ({ value, label: timeLabel(value, step) }));
}

/** A tick's words: the day ("23 Nov"), with the time as a second line under a day's steps
 *  (["23 Nov", "08:15"]: two short lines stay apart on a phone), months for long spans. */
export function timeLabel(value, step) {
  const at = new Date(value);
  if (step >= 30 * DAY) return UTC_MONTH.format(at);
  if (step >= DAY) return UTC_DAY.format(at);
  return [UTC_DAY.format(at), UTC_TIME.format(at)];
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

/** A time axis spans at least an hour around its points (a season played in one evening, or
 *  seeded in seconds, still gets readable ticks). */
function timeExtent(values) {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (hi - lo >= HOUR) return [lo, hi];
  const middle = (lo + hi) / 2;
  return [middle - HOUR / 2, middle + HOUR / 2];
}

/**
 * series: [{key, label, points: [{x, y, title, data?}]}], x and y numbers; `time: true` makes x
 * milliseconds since the epoch, ticked by UTC dates. `description` is read by screen readers
 * (the SVG's <desc>); a point's `data` lands on its circle as data-* attributes.
 * Returns a <figure> holding the SVG and a legend; each series' path has data-series=key.
 */
export function lineChart({ series, title, description, xLabel, yLabel, testid, time = false, after = null }) {
  const drawn = series.filter((line) => line.points.length > 0);
  const all = drawn.flatMap((line) => line.points);
  const [xMin, xMax] = time ? timeExtent(all.map((p) => p.x)) : extent(all.map((p) => p.x), 1);
  const [yMin, yMax] = extent(all.map((p) => p.y), 10);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (v) => MARGIN.left + ((v - xMin) / (xMax - xMin)) * plotW;
  const y = (v) => MARGIN.top + plotH - ((v - yMin) / (yMax - yMin)) * plotH;

  const yTicks = ticks(yMin, yMax).filter((v) => v >= yMin && v <= yMax);
  const xTicks = time
    ? timeTicks(xMin, xMax, 5)
    : ticks(xMin, xMax, 6)
        .filter((v) => v >= xMin && v <= xMax && Number.isInteger(v))
        .map((value) => ({ value, label: formatNumber(value) }));

  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: "img",
      "aria-labelledby": `${testid}-title`,
      "data-x-min": time ? new Date(xMin).toISOString() : xMin,
      "data-x-max": time ? new Date(xMax).toISOString() : xMax,
      class: "chart",
      "data-testid": testid,
    },
    s("title", { id: `${testid}-title` }, title),
    description ? s("desc", null, description) : null,
    yTicks.map((v) =>
      s(
        "g",
        { class: "tick" },
        s("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(v), y2: y(v), class: "grid" }),
        s("text", { x: MARGIN.left - 8, y: y(v), "text-anchor": "end", "dominant-baseline": "middle" }, formatNumber(v)),
      ),
    ),
    xTicks.map((tick) =>
      s(
        "text",
        {
          x: x(tick.value),
          y: HEIGHT - MARGIN.bottom + 18,
          // a label near an end of the axis is anchored inside the chart, not cut off by its edge
          "text-anchor": x(tick.value) > WIDTH - 70 ? "end" : x(tick.value) < MARGIN.left + 40 ? "start" : "middle",
          class: "tick x-tick",
          "data-value": time ? new Date(tick.value).toISOString() : tick.value,
        },
        Array.isArray(tick.label)
          ? tick.label.map((line, i) => s("tspan", { x: x(tick.value), dy: i ? "1.15em" : null }, line))
          : tick.label,
      ),
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
      { x: 14, y: MARGIN.top + plotH / 2, "text-anchor": "middle", class: "axis-label y-label", transform: `rotate(-90 14 ${MARGIN.top + plotH / 2})` },
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
        line.points.map((p) =>
          s(
            "circle",
            { cx: x(p.x), cy: y(p.y), r: 4.5, dataset: p.data },
            s("title", null, p.title ?? `${line.label}: ${formatNumber(p.y)}`),
          ),
        ),
      ),
    ),
  );

  const legend = h(
    "ul",
    { class: "legend" },
    drawn.map((line) => h("li", { class: `series-${line.key}` }, h("span", { class: "swatch", "aria-hidden": "true" }), line.label)),
  );
  return h("figure", { class: "chart-figure" }, svg, legend, after);
}
