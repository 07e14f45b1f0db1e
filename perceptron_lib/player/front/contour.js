/**
 * Lesson 01's map of the loss over (w1, w2) in SVG (panel kind "contour"): the filled bands and contour lines of
 * the loss at one b, the zero-loss set hatched, each example's kink line with its label, a colour bar, and the run's
 * path up to step k with a star at w_k.
 *
 * Python (`ContourPathPanel.front`, numbers from `perceptron_lib.core.contours`) sends every shape in (w1, w2): one
 * layer per distinct b of the run, `layer_of[k]` the one shown at step k. Here they are only mapped to pixels and
 * drawn; `draw(k)` is a pure function of k.
 */

import { drawChartAxes, textPx } from "./chart_axes.js";
import { pageNumber } from "./geometry.js";
import { fmt, PT, svgEl } from "./scene.js";

/**
 * An SVG path through points (a ring closed with Z).
 * @param {number[][]} P points (w1, w2)
 * @param {object} tf
 * @param {boolean} close
 * @returns {string}
 */
function pathOf(P, tf, close) {
  const d = P.map((p, j) => `${j ? "L" : "M"}${fmt(tf.x(p[0]))},${fmt(tf.y(p[1]))}`).join("");
  return close ? `${d}Z` : d;
}

/**
 * matplotlib's "*" marker: a five-pointed star of `size` points across (inner radius 0.381966 of the outer).
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @returns {string}
 */
export function starPath(x, y, size) {
  const R = (size * PT) / 2;
  const corners = [];
  for (let j = 0; j < 10; j++) {
    const r = j % 2 ? R * 0.381966 : R;
    const t = Math.PI / 2 + (j * Math.PI) / 5;
    corners.push(`${j ? "L" : "M"}${fmt(x + r * Math.cos(t))},${fmt(y - r * Math.sin(t))}`);
  }
  return `${corners.join("")}Z`;
}

/**
 * One b's layer: bands, lines, the hatched zero-loss set, kink lines and their labels.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {object} layer
 * @param {object} spec
 * @param {object} tf
 * @param {string} hatchId
 * @param {SVGElement} labels the group of the labels (outside the clip)
 */
function drawLayer(doc, g, layer, spec, tf, hatchId, labels) {
  const look = spec.look;
  for (const band of layer.bands) {
    const d = band.rings.map((r) => pathOf(r, tf, true)).join("");
    svgEl(doc, "path", { class: "pc-band", d, fill: band.color, "fill-rule": "evenodd", stroke: "none" }, g);
  }
  if (layer.lines.length) {
    const d = layer.lines.map((ln) => pathOf(ln, tf, false)).join("");
    svgEl(
      doc,
      "path",
      {
        class: "pc-lines",
        d,
        fill: "none",
        stroke: look.line,
        "stroke-width": fmt(look.line_width * PT),
        "stroke-opacity": look.line_alpha,
      },
      g,
    );
  }
  if (layer.zero.length) {
    const d = layer.zero.map((r) => pathOf(r, tf, true)).join("");
    svgEl(doc, "path", { class: "pc-zero", d, fill: `url(#${hatchId})`, "fill-rule": "evenodd", stroke: "none" }, g);
  }
  const px = look.label_size * PT;
  for (const kink of layer.kinks) {
    svgEl(
      doc,
      "path",
      {
        class: "pc-kink",
        "data-i": kink.i,
        d: pathOf(kink.seg, tf, false),
        stroke: look.line,
        "stroke-width": fmt(look.kink_width * PT),
        "stroke-dasharray": look.kink_dash.map((v) => fmt(v * PT)).join(" "),
      },
      g,
    );
    const [x, y] = [tf.x(kink.at[0]), tf.y(kink.at[1])];
    const mark = svgEl(doc, "g", { class: "pc-kink-label", "data-i": kink.i }, labels);
    svgEl(
      doc,
      "circle",
      { cx: fmt(x), cy: fmt(y), r: fmt(px * 0.75), fill: "#FFFFFF", opacity: look.label_alpha },
      mark,
    );
    const t = svgEl(
      doc,
      "text",
      { x: fmt(x), y: fmt(y + px * 0.35), "text-anchor": "middle", fill: "#000000", "font-size": fmt(px) },
      mark,
    );
    t.textContent = String(kink.i);
  }
}

/**
 * How wide a line of the SVG's text is, px (the canvas's measure of its font; about 0.6 em a letter without one).
 * @param {Document} doc
 * @param {string} text
 * @param {number} px
 * @returns {number}
 */
function textWidth(doc, text, px) {
  const ctx = doc.createElement("canvas").getContext?.("2d");
  if (!ctx) return 0.6 * px * text.length;
  ctx.font = `${px}px "DejaVu Sans", Verdana, sans-serif`;
  return ctx.measureText(text).width;
}

/**
 * Words broken into lines no wider than `most` px (a longer word stands alone).
 * @param {Document} doc
 * @param {string} text
 * @param {number} px
 * @param {number} most
 * @returns {string[]}
 */
function wrapWords(doc, text, px, most) {
  const lines = [];
  for (const word of text.split(" ").filter(Boolean)) {
    const last = lines.length ? `${lines[lines.length - 1]} ${word}` : null;
    if (last !== null && textWidth(doc, last, px) <= most) lines[lines.length - 1] = last;
    else lines.push(word);
  }
  return lines;
}

/**
 * The colour bar right of the plot: a band per level (equal lengths, as matplotlib's), the extension's triangle,
 * ticks and the loss's name.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {object} bar the spec's `colorbar`
 * @param {object} style
 * @param {number} side the plot's side, px
 * @param {number} x0 the bar's left edge
 */
function drawColorbar(doc, g, bar, style, side, x0) {
  const height = side * 0.85;
  const width = height / 20;
  const top = (side - height) / 2;
  const n = bar.colors.length - (bar.extend ? 1 : 0);
  const band = height / n;
  for (let j = 0; j < n; j++) {
    const y = top + height - (j + 1) * band;
    const at = { x: fmt(x0), y: fmt(y), width: fmt(width), height: fmt(band + 0.3) };
    svgEl(doc, "rect", { class: "pc-bar-band", ...at, fill: bar.colors[j] }, g);
  }
  const edge = { fill: "none", stroke: "#000000", "stroke-width": fmt(style.spine_width * PT) };
  if (bar.extend) {
    const tip = top - band * 0.9;
    const d = `M${fmt(x0)},${fmt(top)}L${fmt(x0 + width / 2)},${fmt(tip)}L${fmt(x0 + width)},${fmt(top)}Z`;
    svgEl(doc, "path", { class: "pc-extend", d, fill: bar.colors[n] }, g);
    const outline = `M${fmt(x0)},${fmt(top + height)}V${fmt(top)}L${fmt(x0 + width / 2)},${fmt(tip)}L${fmt(x0 + width)},${fmt(top)}V${fmt(top + height)}Z`;
    svgEl(doc, "path", { d: outline, ...edge }, g);
  } else {
    svgEl(doc, "rect", { x: fmt(x0), y: fmt(top), width: fmt(width), height: fmt(height), ...edge }, g);
  }
  const tickPx = textPx(style, "tick_size");
  const tickLen = (3 + 2 * style.spine_width) * PT;
  bar.ticks.forEach((f, j) => {
    const y = top + height - f * height;
    svgEl(doc, "line", { x1: fmt(x0 + width), x2: fmt(x0 + width + tickLen), y1: fmt(y), y2: fmt(y), ...edge }, g);
    const t = svgEl(
      doc,
      "text",
      { class: "pc-tick", x: fmt(x0 + width + tickLen + 3), y: fmt(y + tickPx * 0.35), "font-size": fmt(tickPx) },
      g,
    );
    t.textContent = bar.labels[j].replace("-", "−");
  });
  const labelPx = textPx(style, "label_size") * 0.9;
  const lx = fmt(x0 + width + tickLen + tickPx * 2.2 + labelPx);
  const cy = fmt(side / 2);
  const name = svgEl(
    doc,
    "text",
    { class: "pc-bar-label", x: lx, y: cy, "text-anchor": "middle", "font-size": fmt(labelPx) },
    g,
  );
  name.setAttribute("transform", `rotate(-90 ${lx} ${cy})`);
  name.textContent = bar.label;
  return width + tickLen + tickPx * 2.2 + labelPx * 1.4;
}

/**
 * Build the panel: its element and `draw(k)`.
 * @param {Document} doc
 * @param {object} run the widget's `run` trait
 * @param {object} spec the panel's spec (`ContourPathPanel.front`)
 * @returns {{el: HTMLElement, draw: (k: number) => void, legend: object[]}}
 */
export function buildContour(doc, run, spec) {
  const style = run.style;
  const side = spec.size_px;
  const titlePx = textPx(style, "title_size");
  const titleLines = Math.max(...spec.titles.map((t) => t.split("\n").length));
  const tickPx = textPx(style, "tick_size");
  const labelPx = textPx(style, "label_size");
  const notePx = textPx(style, "legend_size"); // the legend's size: in the lecture preset, no text under 18 px
  const axisBottom = (3 + 2 * style.spine_width) * PT + tickPx * 1.25 + labelPx * 1.3 + 2;
  const left = tickPx * 3.2 + labelPx * 1.3 + 6;
  // the note on the numbers: in the lecture preset under the axis name w₁, as in the kernel's still (the map has a
  // tab of its own there); in the notebook's, beside the colour bar, where the column has room (under the map it
  // took the player past the 779 px of a 1440x900 JupyterLab's view)
  const under = style.legend_size > 12;
  const m = { left, top: titlePx * 1.25 * titleLines + 8, bottom: axisBottom };
  const [x0, x1] = spec.xlim;
  const [y0, y1] = spec.ylim;
  const tf = {
    m,
    width: side,
    height: side,
    x: (v) => ((v - x0) / (x1 - x0)) * side,
    y: (v) => side - ((v - y0) / (y1 - y0)) * side,
  };
  const svg = svgEl(doc, "svg", { class: "pp-chart pp-contour", role: "img", focusable: "false" });
  svg.style.fontFamily = "DejaVu Sans, Verdana, sans-serif";
  const id = `pc-${pageNumber("contour")}`;
  const defs = svgEl(doc, "defs", {}, svg);
  const clip = svgEl(doc, "clipPath", { id: `${id}-clip` }, defs);
  svgEl(doc, "rect", { x: 0, y: 0, width: fmt(side), height: fmt(side) }, clip);
  const hatch = svgEl(
    doc,
    "pattern",
    { id: `${id}-hatch`, patternUnits: "userSpaceOnUse", width: 8, height: 8, patternTransform: "rotate(45)" },
    defs,
  );
  const hatchLine = { stroke: spec.look.line, "stroke-width": fmt(spec.look.hatch_width * PT) };
  svgEl(doc, "line", { x1: 0, y1: 0, x2: 0, y2: 8, ...hatchLine }, hatch);
  const plot = svgEl(doc, "g", { class: "pp-plot", transform: `translate(${fmt(m.left)},${fmt(m.top)})` }, svg);
  const inside = svgEl(doc, "g", { "clip-path": `url(#${id}-clip)` }, plot);
  const layerGroups = spec.layers.map((layer) => {
    const g = svgEl(doc, "g", { class: "pc-layer", "data-b": layer.b }, inside);
    const labels = svgEl(doc, "g", { class: "pc-labels" });
    drawLayer(doc, g, layer, spec, tf, `${id}-hatch`, labels);
    return { g, labels };
  });
  const path = svgEl(doc, "g", { class: "pc-path" }, inside);
  const labelsRoot = svgEl(doc, "g", { class: "pc-labels-root" }, plot);
  for (const lg of layerGroups) labelsRoot.appendChild(lg.labels);
  const point = svgEl(doc, "g", { class: "pc-point-group" }, plot);
  drawChartAxes(doc, svgEl(doc, "g", { class: "pp-axes" }, plot), svgEl(doc, "g", {}), spec, style, tf);
  const barGroup = svgEl(doc, "g", { class: "pc-colorbar" }, plot);
  const barWidth = drawColorbar(doc, barGroup, spec.colorbar, style, side, side + 14);
  const noteLeft = side + 14 + barWidth + notePx * 0.4;
  // under the plot: centred on it, as wide as the picture leaves on both sides
  const most = under ? 2 * Math.min(left + side / 2, side / 2 + 14 + barWidth) - notePx : notePx * 12;
  const note = wrapWords(doc, (spec.note ?? []).join(" "), notePx, most);
  if (under && note.length) m.bottom += notePx * (1.25 * note.length + 0.2);
  const noteWidth =
    under || !note.length ? 0 : notePx * 0.4 + Math.max(...note.map((line) => textWidth(doc, line, notePx)));
  const width = m.left + side + 14 + barWidth + 4 + noteWidth;
  const height = m.top + side + m.bottom;
  svg.setAttribute("viewBox", `0 0 ${fmt(width)} ${fmt(height)}`);
  svg.setAttribute("width", fmt(width));
  svg.setAttribute("height", fmt(height));
  const title = svgEl(
    doc,
    "text",
    { class: "pp-chart-title", x: fmt(side / 2), y: fmt(-m.top + titlePx * 1.05), "text-anchor": "middle" },
    plot,
  );
  title.setAttribute("font-size", fmt(titlePx));
  if (note.length) {
    // what the numbers are: example indices i, not steps k
    const x = under ? side / 2 : noteLeft;
    const y = under ? side + axisBottom + notePx * 0.9 : side / 2 - (notePx * 1.25 * (note.length - 1)) / 2;
    const anchor = under ? "middle" : "start";
    const words = svgEl(doc, "text", { class: "pc-note", x: fmt(x), y: fmt(y), "text-anchor": anchor }, plot);
    words.setAttribute("font-size", fmt(notePx));
    note.forEach((line, j) => {
      const span = svgEl(doc, "tspan", { x: fmt(x), dy: j === 0 ? 0 : "1.25em" }, words);
      span.textContent = line;
    });
  }
  const shownKinks = spec.layers.map((layer) => layer.kinks.map((kink) => kink.i).join(", "));
  const el = doc.createElement("div");
  el.className = "pp-panel pp-panel-contour";
  el.appendChild(svg);
  const look = spec.look;

  /** Step k: the layer of b_k, the title, the path w_0..w_k and the star at w_k. */
  const draw = (k) => {
    const shown = spec.layer_of[k];
    layerGroups.forEach((lg, j) => {
      const display = j === shown ? "inline" : "none";
      lg.g.setAttribute("display", display);
      lg.labels.setAttribute("display", display);
    });
    const text = spec.titles[k];
    title.replaceChildren();
    text.split("\n").forEach((line, j) => {
      const span = svgEl(doc, "tspan", { x: fmt(side / 2), dy: j === 0 ? 0 : "1.2em" }, title);
      span.textContent = line;
    });
    const kinks =
      note.length && shownKinks[shown]
        ? `; dashed lines labelled i = ${shownKinks[shown]}: the kink lines ⟨w, xᵢ⟩ + b = 0 of those examples`
        : "";
    const name = `${spec.name}: ${text.replace(/\n/g, " ")}${kinks}; dots: w at steps 0 to ${k}`;
    svg.setAttribute("aria-label", `${name}, w at step ${k} starred`);
    path.replaceChildren();
    const W = spec.W.slice(0, k + 1);
    svgEl(
      doc,
      "path",
      {
        class: "pc-path-line",
        d: pathOf(W, tf, false),
        fill: "none",
        stroke: look.path,
        "stroke-width": fmt(look.path_width * PT),
        "stroke-linejoin": "round",
      },
      path,
    );
    const r = (look.path_marker * PT) / 2;
    for (const w of W) {
      svgEl(
        doc,
        "circle",
        {
          class: "pc-vertex",
          cx: fmt(tf.x(w[0])),
          cy: fmt(tf.y(w[1])),
          r: fmt(r),
          fill: look.path,
          stroke: look.path_edge,
          "stroke-width": fmt(look.path_edge_width * PT),
        },
        path,
      );
    }
    point.replaceChildren();
    svgEl(
      doc,
      "path",
      {
        class: "pc-point",
        d: starPath(tf.x(spec.W[k][0]), tf.y(spec.W[k][1]), look.point_size),
        fill: look.point_face,
        stroke: look.point_edge,
        "stroke-width": fmt(look.point_edge_width * PT),
      },
      point,
    );
  };
  // tall: in the lecture preset the player shows it under a tab of the column beside the data panel (`buildTabs`),
  // whose readout's headline then stays in a projector's view (over the loss chart it pushed the headline to 808 px
  // of a 599 px view; on a row of its own under the picture, lesson 02's methods switch took a deck slide at 0.68)
  // in the notebook preset it comes after the readout in that column (underReadout), as the lifted view does: over
  // it the map and the loss chart pushed a run switch's headline to 686 px of a 599 px view (lesson 02's methods)
  return { el, draw, legend: [], tall: true, underReadout: true };
}
