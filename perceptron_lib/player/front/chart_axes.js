/**
 * A chart's axes in SVG (`curves.js` draws what is on them): its text sizes, its scale (linear, or matplotlib's
 * symlog), its ticks, its layout (margins around the plot, the map from data to pixels) and its frame, ticks and
 * axis names. Pure functions of the chart's spec and the preset's sizes.
 */

import { ticksAtLeast } from "./geometry.js";
import { axisNames, fmt, PT, svgEl } from "./scene.js";

/** Superscript digits, for a symlog axis's powers of ten. */
const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

/**
 * A chart's text size, CSS px: the preset's size in points; in the lecture preset (`text_px` > 0) a little smaller
 * (a chart beside the data panel has less room), never under `text_px`.
 * @param {object} style the run's style
 * @param {string} name "tick_size", "label_size", "title_size" or "legend_size"
 * @returns {number}
 */
export function textPx(style, name) {
  const px = style[name] * PT;
  return style.text_px > 0 ? Math.max(style.text_px, 0.78 * px) : px;
}

/**
 * matplotlib's symlog scale (base 10, linthresh 2, linscale 1): linear near 0, logarithmic beyond.
 * @param {number} v
 * @returns {number}
 */
export function symlog(v) {
  const thresh = 2;
  const adj = 1 / (1 - 1 / 10);
  const a = Math.abs(v);
  if (a <= thresh) return v * adj;
  return Math.sign(v) * thresh * (adj + Math.log10(a / thresh));
}

/**
 * A tick label as matplotlib writes it: fixed decimals, the typeset minus sign.
 * @param {number} v
 * @param {number} decimals
 * @returns {string}
 */
function tickText(v, decimals) {
  const text = (v === 0 ? 0 : v).toFixed(decimals);
  return text.startsWith("-") ? `−${text.slice(1)}` : text;
}

/**
 * The ticks of an axis: nice steps on a linear axis (whole numbers only where `integer`), 0 and powers of ten
 * on a symlog one.
 * @param {number[]} lim
 * @param {number} most
 * @param {boolean} integer
 * @param {string} scale
 * @returns {{values: number[], labels: string[]}}
 */
export function axisTicks(lim, most, integer, scale) {
  const [lo, hi] = lim;
  if (scale === "symlog") {
    const values = [0];
    for (let e = 0; e < 16; e++) values.push(10 ** e, -(10 ** e));
    const shown = values.filter((v) => v >= lo && v <= hi).sort((a, b) => a - b);
    return {
      values: shown,
      labels: shown.map((v) =>
        v === 0
          ? "0"
          : `${v < 0 ? "−" : ""}10${[...String(Math.round(Math.log10(Math.abs(v))))].map((c) => SUPERSCRIPT[c]).join("")}`,
      ),
    };
  }
  let t = ticksAtLeast(lo, hi, most);
  if (integer && (t.decimals > 0 || t.values.some((v) => !Number.isInteger(v)))) {
    // whole numbers only (matplotlib's integer locator): a step of 1, 2 or 5 times a power of ten
    let step = 1;
    for (let j = 0; (hi - lo) / step > most - 1; j++) step *= j % 3 === 1 ? 2.5 : 2;
    const values = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) values.push(v);
    t = { values, decimals: 0 };
  }
  return { values: t.values, labels: t.values.map((v) => tickText(v, t.decimals)) };
}

/**
 * The chart's size and its map from data to pixels: the plot `size[0]` wide in all, `size[1]` tall.
 * @param {object} spec the chart's spec
 * @param {object} style the run's style
 * @returns {object}
 */
export function chartLayout(spec, style) {
  const [total, plotHeight] = style.chart_px;
  const titleLines = Math.max(1, ...(spec.titles ?? [spec.title ?? ""]).map((t) => String(t ?? "").split("\n").length));
  const m = {
    left: textPx(style, "tick_size") * 3.2 + textPx(style, "label_size") * 1.3 + 6,
    right: 12,
    top: (spec.title || spec.titles ? textPx(style, "title_size") * 1.25 * titleLines : 0) + 8,
    bottom:
      (3 + 2 * style.spine_width) * PT + textPx(style, "tick_size") * 1.25 + textPx(style, "label_size") * 1.3 + 2,
  };
  const width = total - m.left - m.right;
  const Y = spec.yscale === "symlog" ? symlog : (v) => v;
  const [x0, x1] = spec.xlim;
  const [y0, y1] = spec.ylim.map(Y);
  return {
    m,
    width,
    height: plotHeight,
    x: (v) => ((v - x0) / (x1 - x0)) * width,
    y: (v) => plotHeight - ((Y(v) - y0) / (y1 - y0)) * plotHeight,
  };
}

/**
 * The axes: a frame, ticks with their labels, the axis names.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {object} spec
 * @param {object} style
 * @param {object} tf from `layout`
 */
export function drawChartAxes(doc, g, grid, spec, style, tf) {
  const tickPx = textPx(style, "tick_size");
  const tickLen = (3 + 2 * style.spine_width) * PT;
  const line = { stroke: "#000000", "stroke-width": fmt(style.spine_width * PT) };
  const text = { fill: "#000000", "font-size": fmt(tickPx) };
  if (!spec.message) {
    const tx = axisTicks(
      spec.xlim,
      Math.max(3, Math.min(8, Math.floor(tf.width / (tickPx * 4)))),
      spec.xinteger,
      "linear",
    );
    const gridLine = { stroke: "#DDDDDD", "stroke-width": fmt(style.thin_width * 0.6 * PT) };
    tx.values.forEach((v, j) => {
      const x = fmt(tf.x(v));
      svgEl(doc, "line", { x1: x, x2: x, y1: 0, y2: fmt(tf.height), ...gridLine }, grid);
      svgEl(doc, "line", { x1: x, x2: x, y1: fmt(tf.height), y2: fmt(tf.height + tickLen), ...line }, g);
      const t = svgEl(doc, "text", { x, y: fmt(tf.height + tickLen + tickPx), "text-anchor": "middle", ...text }, g);
      t.textContent = tx.labels[j];
    });
    const most = Math.max(3, Math.min(7, Math.floor(tf.height / (tickPx * 2.2))));
    const ty = axisTicks(spec.ylim, most, spec.yinteger, spec.yscale);
    ty.values.forEach((v, j) => {
      const y = tf.y(v);
      svgEl(doc, "line", { x1: 0, x2: fmt(tf.width), y1: fmt(y), y2: fmt(y), ...gridLine }, grid);
      svgEl(doc, "line", { x1: fmt(-tickLen), x2: 0, y1: fmt(y), y2: fmt(y), ...line }, g);
      const t = svgEl(
        doc,
        "text",
        { x: fmt(-tickLen - 3), y: fmt(y + tickPx * 0.35), "text-anchor": "end", ...text },
        g,
      );
      t.textContent = ty.labels[j];
    });
  }
  svgEl(doc, "rect", { x: 0, y: 0, width: fmt(tf.width), height: fmt(tf.height), fill: "none", ...line }, g);
  const labelPx = textPx(style, "label_size");
  // the y label no longer than the axes (about 0.58 em a letter), down to the preset's least text
  const yPx = Math.max(style.text_px || 11, Math.min(labelPx, tf.height / (0.58 * Math.max(1, spec.ylabel.length))));
  axisNames(doc, g, tf, [spec.xlabel, spec.ylabel], {
    xBase: tf.height + tickLen + tickPx * 1.2 + labelPx,
    yLeft: -tickLen - tickPx * 2.7 - yPx * 0.3,
    px: labelPx,
    yPx,
  });
}
