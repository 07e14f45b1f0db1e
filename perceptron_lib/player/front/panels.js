/**
 * The panels beside the data panel: the registry `PANEL_KINDS` (kind -> build) and the overlays drawn on the data
 * panel itself.
 *
 * Each entry of the run's `panels` (made once in Python by a kernel panel's `front`, `panel_specs.FrontPanel`)
 * names its `kind`; `build(doc, run, panelSpec, scene)` returns `{el, draw(k), legend}`: `el` the panel's element
 * (null for an overlay, which draws into the data panel's `scene.overlay` group), `draw(k)` a pure function of k
 * (it empties what it drew and draws step k from the spec), `legend` the entries an overlay adds to the data
 * panel's legend.
 */

import { buildContour } from "./contour.js";
import { buildChart } from "./curves.js";
import { boundarySegment, pageNumber } from "./geometry.js";
import { buildLifted } from "./lifted.js";
import { fmt, PT, svgEl } from "./scene.js";

/**
 * An overlay: lines <w, x> + b = 0 on the data panel, fixed ones drawn once, moving ones at each step.
 * @param {Document} doc
 * @param {object} run the widget's `run` trait
 * @param {object} spec the overlay's spec (`panel_specs.overlay`)
 * @param {object} scene the data panel (`buildScene`)
 * @returns {{el: null, draw: (k: number) => void, legend: object[]}}
 */
export function buildOverlay(doc, run, spec, scene) {
  const { tf } = scene;
  const group = svgEl(doc, "g", { class: `pp-overlay pp-overlay-${spec.kind}` }, scene.overlay);
  const fixed = svgEl(doc, "g", { class: "pp-overlay-fixed" }, group);
  const moving = svgEl(doc, "g", { class: "pp-overlay-moving" }, group);
  const drawLine = (g, w, b, ln) => {
    const seg = boundarySegment(w, b, run.view);
    if (seg === null) return;
    svgEl(
      doc,
      "line",
      {
        class: ln.cls,
        x1: fmt(tf.x(seg[0][0])),
        y1: fmt(tf.y(seg[0][1])),
        x2: fmt(tf.x(seg[1][0])),
        y2: fmt(tf.y(seg[1][1])),
        stroke: ln.color,
        "stroke-width": fmt(ln.width * PT),
        ...(ln.dash ? { "stroke-dasharray": ln.dash.map((v) => fmt(v * PT)).join(" ") } : {}),
      },
      g,
    );
  };
  for (const ln of spec.lines) if (!ln.moving) drawLine(fixed, ln.w, ln.b, ln);
  const paths = spec.paths?.length ? clippedGroup(doc, group, tf) : null;
  const draw = (k) => {
    moving.replaceChildren();
    for (const ln of spec.lines) if (ln.moving) drawLine(moving, ln.w[k], ln.b[k], ln);
    if (paths !== null) drawPaths(doc, paths, spec.paths, k, tf);
  };
  return { el: null, draw, legend: spec.legend };
}

/**
 * A group of the overlay clipped to the plot (a path traced on a grid wider than the view).
 * @param {Document} doc
 * @param {SVGElement} parent
 * @param {object} tf
 * @returns {SVGElement}
 */
function clippedGroup(doc, parent, tf) {
  const id = `pp-overlay-clip-${pageNumber("overlay-clip")}`;
  const clip = svgEl(doc, "clipPath", { id }, parent);
  svgEl(doc, "rect", { x: 0, y: 0, width: fmt(tf.width), height: fmt(tf.height) }, clip);
  return svgEl(doc, "g", { class: "pp-overlay-paths", "clip-path": `url(#${id})` }, parent);
}

/**
 * An overlay's curves at step k (its spec's `paths`, as `AnswersPanel.front` sends the vote's boundary: the pieces
 * of a curve at each step, each a flat list x0, y0, x1, y1, ... in data units), drawn into `g` (emptied first).
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {object[]} paths
 * @param {number} k
 * @param {object} tf
 */
function drawPaths(doc, g, paths, k, tf) {
  g.replaceChildren();
  for (const p of paths) {
    const d = p.pieces[k]
      .map((flat) => {
        const pts = [];
        for (let j = 0; j < flat.length; j += 2)
          pts.push(`${j ? "L" : "M"}${fmt(tf.x(flat[j]))},${fmt(tf.y(flat[j + 1]))}`);
        return pts.join("");
      })
      .join("");
    if (!d) continue;
    const dash = p.dash ? { "stroke-dasharray": p.dash.map((v) => fmt(v * PT)).join(" ") } : {};
    svgEl(
      doc,
      "path",
      { class: p.cls, d, fill: "none", stroke: p.color, "stroke-width": fmt(p.width * PT), ...dash },
      g,
    );
  }
}

/**
 * A chart in axes of its own (`curves.js`).
 * @param {Document} doc
 * @param {object} run
 * @param {object} spec
 * @returns {{el: HTMLElement, draw: (k: number) => void, legend: object[]}}
 */
function chartPanel(doc, run, spec) {
  const chart = buildChart(doc, run, spec);
  return { el: chart.el, draw: chart.draw, legend: [] };
}

/** The panels the browser draws, by the `kind` their spec names. */
export const PANEL_KINDS = {
  loss: chartPanel,
  claims: chartPanel,
  epochs: chartPanel,
  curves: chartPanel,
  averaged: buildOverlay,
  max_margin: buildOverlay,
  answers: buildOverlay,
  lifted: buildLifted,
  contour: buildContour,
};

/**
 * Build the run's panels (its `panels` list); an unknown kind is a clear error.
 * @param {Document} doc
 * @param {object} run
 * @param {object} scene
 * @returns {{el: HTMLElement | null, draw: (k: number) => void, legend: object[]}[]}
 */
export function buildPanels(doc, run, scene) {
  return (run.panels ?? []).map((spec, j) => {
    const build = PANEL_KINDS[spec.kind];
    if (!build) {
      throw new Error(
        `panels[${j}] has kind ${JSON.stringify(spec.kind)}; this front end draws ${Object.keys(PANEL_KINDS).join(", ")}.`,
      );
    }
    if (spec.K !== run.K)
      throw new Error(`panels[${j}] (${spec.kind}) has K = ${spec.K} but the run has K = ${run.K}.`);
    return build(doc, run, spec, scene);
  });
}
