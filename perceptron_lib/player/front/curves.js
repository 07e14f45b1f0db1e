/**
 * A chart beside the data panel, drawn in SVG: the curves along a run that the kernel's panels draw with
 * matplotlib (`LossPanel`, `ClaimsPanel`, `EpochPanel`, `CurvesPanel`). Its spec (`panel_specs.chart` in Python)
 * holds every number; `buildChart` draws the parts that stay (axes, ticks, fixed lines) and `draw(k)` empties the
 * step's own groups and fills them from the spec at k alone: lines revealed up to k, bars at k, the cursor, the
 * dots on it, the title.
 */

import { legendList } from "./controls.js";
import { ticks } from "./geometry.js";
import { fmt, PT, svgEl } from "./scene.js";

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
  let t = ticks(lo, hi, most);
  if (integer && t.decimals > 0) {
    const values = [];
    for (let v = Math.ceil(lo); v <= hi; v++) values.push(v);
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
function chartLayout(spec, style) {
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
function drawChartAxes(doc, g, grid, spec, style, tf) {
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
  const name = { "text-anchor": "middle", fill: "#000000", "font-size": fmt(labelPx) };
  // the y label no longer than the axes (about 0.58 em a letter), down to the preset's least text
  const yPx = Math.max(style.text_px || 11, Math.min(labelPx, tf.height / (0.58 * Math.max(1, spec.ylabel.length))));
  const xName = svgEl(
    doc,
    "text",
    { x: fmt(tf.width / 2), y: fmt(tf.height + tickLen + tickPx * 1.2 + labelPx), ...name },
    g,
  );
  xName.textContent = spec.xlabel;
  const yx = fmt(-tickLen - tickPx * 2.7 - yPx * 0.3);
  const yName = svgEl(
    doc,
    "text",
    {
      x: yx,
      y: fmt(tf.height / 2),
      transform: `rotate(-90 ${yx} ${fmt(tf.height / 2)})`,
      ...name,
      "font-size": fmt(yPx),
    },
    g,
  );
  yName.textContent = spec.ylabel;
}

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
