/**
 * A chart beside the data panel, drawn in SVG: the curves along a run that the kernel's panels draw with
 * matplotlib (`LossPanel`, `ClaimsPanel`, `EpochPanel`, `CurvesPanel`). Its spec (`panel_specs.chart` in Python)
 * holds every number; `buildChart` draws the parts that stay (axes, ticks, fixed lines) and `draw(k)` empties the
 * step's own groups and fills them from the spec at k alone: lines revealed up to k, bars at k, the cursor, the
 * dots on it, the title.
 */

import { chartLayout, drawChartAxes, textPx } from "./chart_axes.js";
import { legendList } from "./controls.js";
import { fmt, PT, svgEl } from "./scene.js";

/**
 * An SVG path through the points 0..n-1 of a line (a gap at each missing value).
 * @param {object} ln
 * @param {number} n
 * @param {object} tf
 * @returns {string}
 */
export function linePath(ln, n, tf) {
  let d = "";
  let pen = false;
  for (let j = 0; j < n; j++) {
    const v = ln.y[j];
    if (v === null || ln.x[j] === null) {
      pen = false;
      continue;
    }
    d += `${pen ? "L" : "M"}${fmt(tf.x(ln.x[j]))},${fmt(tf.y(v))}`;
    pen = true;
  }
  return d;
}

/**
 * A marker's path centred at (x, y): "o" a circle, "s" a square; `size` is its width in points.
 * @param {string} marker
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @returns {string}
 */
export function markerShape(marker, x, y, size) {
  const h = (size * PT) / 2;
  if (marker === "s") return `M${fmt(x - h)},${fmt(y - h)}h${fmt(2 * h)}v${fmt(2 * h)}h${fmt(-2 * h)}Z`;
  return `M${fmt(x - h)},${fmt(y)}a${fmt(h)},${fmt(h)} 0 1,0 ${fmt(2 * h)},0a${fmt(h)},${fmt(h)} 0 1,0 ${fmt(-2 * h)},0Z`;
}

/**
 * A line's first n points: the stroke and its markers.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {object} ln
 * @param {number} n
 * @param {object} tf
 * @param {number} j the line's index (its class)
 */
function drawChartLine(doc, g, ln, n, tf, j) {
  const group = svgEl(doc, "g", { class: `pp-line pp-line-${j}`, opacity: ln.alpha }, g);
  const d = linePath(ln, n, tf);
  if (d) {
    svgEl(
      doc,
      "path",
      {
        d,
        fill: "none",
        stroke: ln.color,
        "stroke-width": fmt(ln.width * PT),
        "stroke-linejoin": "round",
        ...(ln.dash ? { "stroke-dasharray": ln.dash.map((v) => fmt(v * PT)).join(" ") } : {}),
      },
      group,
    );
  }
  if (!ln.marker) return;
  for (let i = 0; i < n; i++) {
    if (ln.y[i] === null) continue;
    svgEl(
      doc,
      "path",
      { class: "pp-marker", d: markerShape(ln.marker, tf.x(ln.x[i]), tf.y(ln.y[i]), ln.marker_size), fill: ln.color },
      group,
    );
  }
}

/**
 * Build a chart: its element (the SVG and its legend) and `draw(k)`.
 * @param {Document} doc
 * @param {object} run the widget's `run` trait
 * @param {object} spec the chart's spec
 * @returns {{el: HTMLElement, draw: (k: number) => void, svg: SVGElement, tf: object}}
 */
export function buildChart(doc, run, spec) {
  const style = run.style;
  const tf = chartLayout(spec, style);
  const { m } = tf;
  const width = m.left + tf.width + m.right;
  const height = m.top + tf.height + m.bottom;
  const svg = svgEl(doc, "svg", {
    class: `pp-chart pp-chart-${spec.kind}`,
    viewBox: `0 0 ${fmt(width)} ${fmt(height)}`,
    width: fmt(width),
    height: fmt(height),
    role: "img",
    focusable: "false",
  });
  svg.style.fontFamily = "DejaVu Sans, Verdana, sans-serif";
  const clipId = `pp-clip-${Math.random().toString(36).slice(2, 10)}`;
  const clip = svgEl(doc, "clipPath", { id: clipId }, svgEl(doc, "defs", {}, svg));
  svgEl(doc, "rect", { x: 0, y: 0, width: fmt(tf.width), height: fmt(tf.height) }, clip);
  const plot = svgEl(doc, "g", { class: "pp-plot", transform: `translate(${fmt(m.left)},${fmt(m.top)})` }, svg);
  const inside = svgEl(doc, "g", { "clip-path": `url(#${clipId})` }, plot);
  const grid = svgEl(doc, "g", { class: "pp-grid" }, inside);
  const fixed = svgEl(doc, "g", { class: "pp-fixed" }, inside);
  for (const v of spec.vlines) {
    const x = fmt(tf.x(v.x));
    svgEl(
      doc,
      "line",
      {
        class: "pp-vline",
        x1: x,
        x2: x,
        y1: 0,
        y2: fmt(tf.height),
        stroke: v.color,
        "stroke-width": fmt(v.width * PT),
        ...(v.dash ? { "stroke-dasharray": v.dash.map((d) => fmt(d * PT)).join(" ") } : {}),
      },
      fixed,
    );
  }
  const bars = svgEl(doc, "g", { class: "pp-bars" }, inside);
  const whole = svgEl(doc, "g", { class: "pp-whole" }, inside);
  spec.lines.forEach((ln, j) => {
    if (ln.upto === null) drawChartLine(doc, whole, ln, ln.x.length, tf, j);
  });
  const moving = svgEl(doc, "g", { class: "pp-moving" }, inside);
  const cursor = svgEl(doc, "g", { class: "pp-cursor-group" }, plot);
  drawChartAxes(doc, svgEl(doc, "g", { class: "pp-axes" }, plot), grid, spec, style, tf);
  const title = svgEl(
    doc,
    "text",
    {
      class: "pp-chart-title",
      x: fmt(tf.width / 2),
      y: fmt(-m.top + textPx(style, "title_size") * 1.05),
      "text-anchor": "middle",
      fill: "#000000",
      "font-size": fmt(textPx(style, "title_size")),
    },
    plot,
  );
  if (spec.message) {
    const note = svgEl(
      doc,
      "text",
      {
        class: "pp-message",
        x: fmt(tf.width / 2),
        y: fmt(tf.height / 2),
        "text-anchor": "middle",
        fill: "#333333",
        "font-size": fmt(textPx(style, "legend_size")),
      },
      plot,
    );
    spec.message.split("\n").forEach((text, j) => {
      const span = svgEl(doc, "tspan", { x: fmt(tf.width / 2), dy: j === 0 ? 0 : "1.3em" }, note);
      span.textContent = text;
    });
  }
  const el = doc.createElement("div");
  el.className = `pp-panel pp-panel-${spec.kind}`;
  el.appendChild(svg);
  if (spec.legend.length) el.appendChild(legendList(doc, spec.legend, textPx(style, "legend_size")));

  /** Step k: the title, the bars, the lines revealed up to k, the cursor and its dots. */
  const draw = (k) => {
    const text = spec.titles ? spec.titles[k] : (spec.title ?? "");
    title.replaceChildren();
    text.split("\n").forEach((line, j) => {
      const span = svgEl(doc, "tspan", { x: fmt(tf.width / 2), dy: j === 0 ? 0 : "1.2em" }, title);
      span.textContent = line;
    });
    svg.setAttribute("aria-label", text ? `${spec.name}: ${text.replace(/\n/g, " ")}` : spec.name);
    bars.replaceChildren();
    for (const set of spec.bars) {
      set.x.forEach((x, j) => {
        const h = set.heights[k][j];
        const top = tf.y(h);
        svgEl(
          doc,
          "rect",
          {
            class: "pp-bar",
            "data-j": j,
            x: fmt(tf.x(x - set.width / 2)),
            y: fmt(top),
            width: fmt(tf.x(x + set.width / 2) - tf.x(x - set.width / 2)),
            height: fmt(Math.max(0, tf.y(0) - top)),
            fill: set.color,
            stroke: set.edge,
            "stroke-width": fmt(set.edge_width * PT),
          },
          bars,
        );
      });
    }
    moving.replaceChildren();
    spec.lines.forEach((ln, j) => {
      if (ln.upto !== null) drawChartLine(doc, moving, ln, ln.upto[k], tf, j);
    });
    cursor.replaceChildren();
    if (spec.cursor !== null && spec.cursor[k] !== null) {
      const x = fmt(tf.x(spec.cursor[k]));
      svgEl(
        doc,
        "line",
        {
          class: "pp-cursor",
          x1: x,
          x2: x,
          y1: 0,
          y2: fmt(tf.height),
          stroke: spec.cursor_color,
          "stroke-width": fmt(spec.cursor_width * PT),
        },
        cursor,
      );
    }
    spec.lines.forEach((ln, j) => {
      if (ln.dot === null) return;
      const i = ln.dot[k];
      if (i < 0 || ln.y[i] === null) return;
      const y = tf.y(ln.y[i]);
      if (y < -0.5 || y > tf.height + 0.5) return; // off the axes: the readout gives the value
      svgEl(
        doc,
        "path",
        {
          class: `pp-dot pp-dot-${j}`,
          "data-i": i,
          d: markerShape(ln.dot_marker, tf.x(ln.x[i]), y, ln.dot_size),
          fill: ln.dot_face,
          stroke: ln.dot_edge,
          "stroke-width": fmt(ln.dot_edge_width * PT),
        },
        cursor,
      );
    });
  };
  return { el, draw, svg, tf };
}
