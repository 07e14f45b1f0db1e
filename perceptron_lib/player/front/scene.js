/**
 * The data panel drawn in SVG: what `perceptron_lib.player.panels.data.DataPanel` draws with matplotlib.
 *
 * `buildScene` makes the parts that stay for the whole run (axes, ticks, the points) and the empty groups that
 * `drawFrame` (`frame.js`) fills with step k. The run (`spec`) is the widget's `run` trait (see
 * `perceptron_lib.player.browser.BrowserPlayer`); sizes in it are in points, as matplotlib's, and drawn at 4/3
 * CSS px per point. `fmt`, `svgEl` and `PT` are the SVG helpers every drawing module uses.
 */

import { tickLabel, ticksAtLeast, transform } from "./geometry.js";

const SVG = "http://www.w3.org/2000/svg";
/** CSS pixels per point. */
export const PT = 4 / 3;

/**
 * A coordinate as written into the markup: 0.01 px, no "-0".
 * @param {number} v
 * @returns {string}
 */
export function fmt(v) {
  const r = Math.round(v * 100) / 100;
  return String(r === 0 ? 0 : r);
}

/**
 * A new SVG element with attributes.
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
export function svgEl(doc, tag, attrs, parent) {
  const node = doc.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

/** The second caption line's offset from the first, in the caption's em (the lecture preset's two lines). */
export const CAPTION_LEADING = 1.1;

/**
 * The margins around the plot area for the preset's text sizes, CSS px, and the caption's size and lines.
 * Big lecture titles take two short lines at 0.9 of the title size, set close (`CAPTION_LEADING`), and the bottom
 * no more room than the axis name needs: a square view's player then fits the 599 px view of a 1280x720
 * JupyterLab with its 360 px plot.
 * @param {object} style the run's `style`
 * @returns {{left: number, right: number, top: number, bottom: number, titleLines: number, captionPx: number}}
 */
function margins(style) {
  const titleLines = style.title_size <= 16 ? 1 : 2;
  const captionPx = style.title_size * PT * (titleLines === 1 ? 1 : 0.9);
  const two = titleLines === 2;
  return {
    left: style.tick_size * PT * 3.2 + style.label_size * PT * 1.4 + 8,
    right: 14,
    top: two
      ? captionPx * (1.1 + CAPTION_LEADING + 0.22) + style.legend_size * PT * 1.2 + 4
      : captionPx * 1.3 + style.legend_size * PT * 1.4 + 8,
    bottom:
      (3 + 2 * style.spine_width) * PT + style.tick_size * PT * 1.3 + style.label_size * PT * (two ? 1.18 : 1.25) + 2,
    titleLines,
    captionPx,
  };
}

/**
 * The axes: a frame, the lines x1 = 0 and x2 = 0, ticks with labels, and the axis names.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {object} spec
 * @param {ReturnType<typeof transform>} tf
 */
function drawAxes(doc, g, spec, tf) {
  const s = spec.style;
  const { xlim, ylim } = spec.view;
  const tickPx = s.tick_size * PT;
  const tickLen = (3 + 2 * s.spine_width) * PT;
  const zero = { stroke: "#BBBBBB", "stroke-width": fmt(s.thin_width * 0.7 * PT) };
  if (xlim[0] < 0 && xlim[1] > 0)
    svgEl(doc, "line", { x1: fmt(tf.x(0)), x2: fmt(tf.x(0)), y1: 0, y2: fmt(tf.height), ...zero }, g);
  if (ylim[0] < 0 && ylim[1] > 0)
    svgEl(doc, "line", { x1: 0, x2: fmt(tf.width), y1: fmt(tf.y(0)), y2: fmt(tf.y(0)), ...zero }, g);
  const text = { fill: "#000000", "font-size": fmt(tickPx) };
  const line = { stroke: "#000000", "stroke-width": fmt(s.spine_width * PT) };
  const tx = ticksAtLeast(xlim[0], xlim[1], Math.max(3, Math.min(8, Math.floor(tf.width / (tickPx * 4.5)))));
  for (const v of tx.values) {
    const x = fmt(tf.x(v));
    svgEl(doc, "line", { x1: x, x2: x, y1: fmt(tf.height), y2: fmt(tf.height + tickLen), ...line }, g);
    const label = svgEl(doc, "text", { x, y: fmt(tf.height + tickLen + tickPx), "text-anchor": "middle", ...text }, g);
    label.textContent = tickLabel(v, tx.decimals);
  }
  const ty = ticksAtLeast(ylim[0], ylim[1], Math.max(3, Math.min(8, Math.floor(tf.height / (tickPx * 2.5)))));
  for (const v of ty.values) {
    const y = fmt(tf.y(v));
    svgEl(doc, "line", { x1: fmt(-tickLen), x2: 0, y1: y, y2: y, ...line }, g);
    const label = svgEl(
      doc,
      "text",
      { x: fmt(-tickLen - 3), y: fmt(tf.y(v) + tickPx * 0.35), "text-anchor": "end", ...text },
      g,
    );
    label.textContent = tickLabel(v, ty.decimals);
  }
  svgEl(doc, "rect", { x: 0, y: 0, width: fmt(tf.width), height: fmt(tf.height), fill: "none", ...line }, g);
  const labelPx = s.label_size * PT;
  axisNames(doc, g, tf, ["x₁", "x₂"], {
    xBase: tf.height + tickLen + tickPx * 1.3 + labelPx,
    yLeft: -tickLen - tickPx * 3 - labelPx * 0.4,
    px: labelPx,
  });
}

/**
 * The axes' names: the x name centred under the plot on the baseline `at.xBase`, the y name turned upright at
 * `at.yLeft` (left of the plot), `at.px` CSS px (the y name `at.yPx` if given).
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {{width: number, height: number}} tf the plot's size
 * @param {string[]} names [x name, y name]
 * @param {{xBase: number, yLeft: number, px: number, yPx?: number}} at
 */
export function axisNames(doc, g, tf, names, at) {
  const look = { "text-anchor": "middle", fill: "#000000" };
  const xName = svgEl(doc, "text", { x: fmt(tf.width / 2), y: fmt(at.xBase), ...look, "font-size": fmt(at.px) }, g);
  xName.textContent = names[0];
  const yx = fmt(at.yLeft);
  const cy = fmt(tf.height / 2);
  const turn = { transform: `rotate(-90 ${yx} ${cy})`, "font-size": fmt(at.yPx ?? at.px) };
  const yName = svgEl(doc, "text", { x: yx, y: cy, ...look, ...turn }, g);
  yName.textContent = names[1];
}

/**
 * The path of a class's marker centred at (x, y): a triangle for y = +1, a circle for y = -1 (`style.class_style`).
 * @param {number} x
 * @param {number} y
 * @param {boolean} positive
 * @param {object} style
 * @returns {string} an SVG path
 */
export function markerPath(x, y, positive, style) {
  const size = Math.sqrt(style.marker_size * (positive ? 1.25 : 1.0)) * PT; // matplotlib's marker size: points
  const h = size / 2;
  if (positive) return `M${fmt(x)},${fmt(y - h)}L${fmt(x - h)},${fmt(y + h)}L${fmt(x + h)},${fmt(y + h)}Z`;
  return `M${fmt(x - h)},${fmt(y)}a${fmt(h)},${fmt(h)} 0 1,0 ${fmt(2 * h)},0a${fmt(h)},${fmt(h)} 0 1,0 ${fmt(-2 * h)},0Z`;
}

/**
 * The data points, coloured and shaped by class.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {object} spec
 * @param {ReturnType<typeof transform>} tf
 */
function drawPoints(doc, g, spec, tf) {
  const s = spec.style;
  spec.X.forEach((p, i) => {
    const positive = spec.y[i] > 0;
    svgEl(
      doc,
      "path",
      {
        class: positive ? "pp-point pp-pos" : "pp-point pp-neg",
        "data-i": i,
        d: markerPath(tf.x(p[0]), tf.y(p[1]), positive, s),
        fill: positive ? s.colors.pos : s.colors.neg,
        stroke: "#FFFFFF",
        "stroke-width": fmt(s.marker_edge * PT),
      },
      g,
    );
  });
}

/**
 * The scene of a run: the SVG with its axes and points drawn, and the empty groups of a frame.
 * @param {Document} doc
 * @param {object} spec the widget's `run` trait
 * @returns {{svg: SVGElement, spec: object, tf: ReturnType<typeof transform>, under: SVGElement, overlay: SVGElement, over: SVGElement, caption: SVGElement, note: SVGElement}}
 */
export function buildScene(doc, spec) {
  const s = spec.style;
  const tf = transform(spec.view, s.panel_px);
  const m = margins(s);
  const width = m.left + tf.width + m.right;
  const height = m.top + tf.height + m.bottom;
  const svg = svgEl(doc, "svg", {
    class: "pp-scene",
    viewBox: `0 0 ${fmt(width)} ${fmt(height)}`,
    width: fmt(width),
    height: fmt(height),
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.style.fontFamily = "DejaVu Sans, Verdana, sans-serif";
  const plot = svgEl(doc, "g", { class: "pp-plot", transform: `translate(${fmt(m.left)},${fmt(m.top)})` }, svg);
  drawAxes(doc, svgEl(doc, "g", { class: "pp-axes" }, plot), spec, tf);
  const under = svgEl(doc, "g", { class: "pp-under" }, plot);
  const overlay = svgEl(doc, "g", { class: "pp-overlays" }, plot); // the panels' lines on this one (`panels.js`)
  drawPoints(doc, svgEl(doc, "g", { class: "pp-points" }, plot), spec, tf);
  const over = svgEl(doc, "g", { class: "pp-over" }, plot);
  const caption = svgEl(
    doc,
    "text",
    {
      class: "pp-caption",
      x: fmt(tf.width / 2),
      y: fmt(-(m.top - m.captionPx * 1.1)),
      "text-anchor": "middle",
      fill: "#000000",
      "font-size": fmt(m.captionPx),
    },
    plot,
  );
  const note = svgEl(
    doc,
    "text",
    {
      class: "pp-note",
      x: fmt(tf.width),
      y: fmt(-s.legend_size * PT * 0.4),
      "text-anchor": "end",
      fill: "#333333",
      "font-size": fmt(s.legend_size * PT),
    },
    plot,
  );
  // the caption's room in the plot's coordinates: the whole picture, margins included
  const room = { left: -m.left, right: tf.width + m.right, px: m.captionPx };
  return { svg, spec, tf, under, overlay, over, caption, note, titleLines: m.titleLines, room };
}

/** A widget narrower than this, CSS px, is a phone's (`narrowText`): its text is enlarged to stay readable. */
export const PHONE_PX = 500;
/** The least size of a narrow widget's SVG text as shown, CSS px (ticks, axis names, caption, note). */
export const PHONE_SVG_TEXT_PX = 11;

/**
 * On a narrow widget (a phone: `PHONE_PX`), the SVG pictures are shown scaled down (a 560 px scene at 344 px: its
 * 13 px ticks were 8 px); each text of `svg` then gets a size that shows at `PHONE_SVG_TEXT_PX` or more, and its
 * drawn size back where the picture is shown larger again.
 * @param {SVGSVGElement} svg a picture with a `width` (its CSS size); one with no text or no `width` is left
 * @param {boolean} narrow
 */
export function narrowText(svg, narrow) {
  if (!svg.hasAttribute("width") || !svg.querySelector("text")) return;
  const shown = svg.getBoundingClientRect().width;
  const scale = shown / Number(svg.getAttribute("width"));
  for (const text of svg.querySelectorAll("text")) {
    const px = Number(text.getAttribute("font-size"));
    text.style.fontSize =
      narrow && scale > 0 && px * scale < PHONE_SVG_TEXT_PX ? `${fmt(PHONE_SVG_TEXT_PX / scale)}px` : "";
  }
}
