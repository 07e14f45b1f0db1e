/**
 * Lesson 04's claims panel for a run the browser fitted itself (an editor with no kernel): the chart spec that
 * `perceptron_lib.player.panels.claims.ClaimsPanel.front` makes in Python, computed here from the browser's run.
 *
 * The numbers are those of `core.proof.trace`: after t mistakes, <u, w_t> (Claim 1, floor t eta gamma) and
 * ||w_t||^2 (Claim 2, ceiling t eta^2 R^2), with u the maximum-margin separator of `max_margin.js` scaled to unit
 * length (for a run with an offset every vector is augmented: x~ = (1, x), w~ = (b, w), u~ along (b*, w*)); the
 * bound is (R / gamma)^2. A Chromium test holds the spec equal to `ClaimsPanel.front` on random sets.
 */

import { maxMarginSeparator, radius } from "./max_margin.js";
import { dot } from "./perceptron.js";
import { ownNum } from "./words.js";

/** The kernel grid of the reference curves (`ClaimsPanel.front`: 400 points from 0 to the axis' end). */
const CLAIMS_GRID = 400;

/**
 * numpy's `linspace(0, stop, num)`: i * step, the last exactly `stop`.
 * @param {number} stop
 * @param {number} num
 * @returns {number[]}
 */
export function linspace(stop, num) {
  const step = stop / (num - 1);
  return Array.from({ length: num }, (_, i) => (i === num - 1 ? stop : i * step));
}

/**
 * matplotlib's dash of a pattern at a line width (`panel_specs.dash`: scaled, rounded to 4 places).
 * @param {number[]} pattern
 * @param {number} width
 * @returns {number[]}
 */
function claimDash(pattern, width) {
  return pattern.map((p) => Math.round(p * width * 1e4) / 1e4);
}

/**
 * The values as JSON claimFloats (`panel_specs.floats`: not finite -> null).
 * @param {number[]} values
 * @returns {(number|null)[]}
 */
function claimFloats(values) {
  return values.map((v) => (Number.isFinite(v) ? v : null));
}

/**
 * `panel_specs.line` with its defaults.
 * @param {number[]} x
 * @param {number[]} y
 * @param {object} o
 * @returns {object}
 */
function claimLine(x, y, o) {
  return {
    x: claimFloats(x),
    y: claimFloats(y),
    color: o.color,
    width: o.width,
    dash: o.dash ?? null,
    label: null,
    alpha: o.alpha ?? 1,
    marker: o.marker ?? null,
    marker_size: o.markerSize ?? 0,
    upto: o.upto ?? null,
    dot: o.dot ?? null,
    dot_size: o.dotSize ?? 0,
    dot_marker: o.dotMarker ?? o.marker ?? "o",
    dot_face: o.dotFace ?? o.color,
    dot_edge: o.dotEdge ?? o.color,
    dot_edge_width: o.dotEdgeWidth ?? 0,
  };
}

/**
 * `panel_specs.legend_entry` of a line.
 * @param {string} label
 * @param {string} color
 * @param {number} width
 * @param {number[]|null} dash
 * @param {string|null} marker
 * @returns {object}
 */
function claimEntry(label, color, width, dash = null, marker = null) {
  return { label, color, width, dash, marker, shape: "line", alpha: 1 };
}

/**
 * The chart's frame (`panel_specs.chart`).
 * @param {object} o
 * @returns {object}
 */
function claimChart(o) {
  return {
    kind: "claims",
    shape: "chart",
    K: o.K,
    title: o.title ?? null,
    titles: o.titles ?? null,
    xlabel: o.xlabel,
    ylabel: o.ylabel,
    xlim: o.xlim,
    ylim: o.ylim,
    lines: o.lines ?? [],
    bars: [],
    vlines: o.vlines ?? [],
    cursor: o.cursor ?? null,
    cursor_color: o.cursorColor,
    cursor_width: o.cursorWidth,
    legend: o.legend ?? [],
    legend_at: "below",
    yscale: "linear",
    xinteger: true,
    yinteger: false,
    name: o.name,
    wide: false,
  };
}

/**
 * The proof's quantities along a run (`proof.trace`), or why there are none.
 * @param {object} run `fitPerceptron`'s result (history w, b; settings eta, fitBias)
 * @param {number[][]} X
 * @param {number[]} y
 * @returns {{why: string} | {t: number[], inner: number[], sqnorm: number[], gamma: number, R: number, eta: number,
 *   bound: number, form: string}}
 */
export function claimsTrace(run, X, y) {
  const nPos = y.filter((v) => v > 0).length;
  if (!y.length) return { why: "no points." };
  if (nPos === 0 || nPos === y.length) return { why: "no points of one class." };
  const h = run.history;
  const { fitBias, eta } = run.settings;
  const none = {
    why: fitBias ? "no line separates these points." : "no line through the origin separates these points.",
  };
  if (h.w[0].some((v) => v !== 0) || h.b[0] !== 0) return none; // the theorem starts from 0 (trace refuses)
  const sep = maxMarginSeparator(X, y, { fitBias });
  if (!sep.separable) return none;
  const Xa = fitBias ? X.map((x) => [1, ...x]) : X;
  const raw = fitBias ? [sep.b, ...sep.w] : sep.w;
  const length = Math.hypot(...raw);
  const v = raw.map((a) => a / length);
  const gamma = Math.min(...Xa.map((x, i) => y[i] * dot(x, v)));
  if (!(gamma > 0)) return none;
  const R = radius(Xa);
  const W = h.w.map((w, k) => (fitBias ? [h.b[k], ...w] : w));
  return {
    t: W.map((_, k) => k),
    inner: W.map((w) => dot(w, v)),
    sqnorm: W.map((w) => dot(w, w)),
    gamma,
    R,
    eta,
    bound: (R / gamma) ** 2,
    form: fitBias ? "offset" : "homogeneous",
  };
}

/**
 * The right end of the t axis (`ClaimsPanel._xmax`).
 * @param {object} recipe show, xmax
 * @param {number} K
 * @param {number} bound
 * @returns {number}
 */
function claimsAxisEnd(recipe, K, bound) {
  if (typeof recipe.xmax === "number") return recipe.xmax;
  if (recipe.xmax === "bound" || recipe.show === "chain" || bound <= 2 * Math.max(K, 1)) return Math.max(K, bound);
  return Math.max(K, 1);
}

/**
 * matplotlib's automatic limits of data lo..hi (`panel_specs.padded`: 5% of the span each side, +-0.5 of none).
 * @param {number} lo
 * @param {number} hi
 * @returns {number[]}
 */
function claimPadded(lo, hi) {
  return hi > lo ? [lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)] : [lo - 0.5, hi + 0.5];
}

/**
 * The panel when the points have no separator: it says why (`ClaimsPanel.front`'s message).
 * @param {number} K
 * @param {string} why
 * @param {string} cursor the cursor's colour
 * @returns {object}
 */
function claimsNone(K, why, cursor) {
  const title = "Claims 1 and 2: no separator";
  const spec = claimChart({ K, title, xlabel: "", ylabel: "", xlim: [0, 1], ylim: [0, 1], name: title });
  Object.assign(spec, { cursor_color: cursor, cursor_width: 0 });
  spec.message = `No margin: ${why}\nThe two claims need a separator with γ > 0.`;
  return spec;
}

/**
 * The claims panel's chart spec for a run the browser fitted (`ClaimsPanel.front`, the same numbers and words).
 * @param {object} run `fitPerceptron`'s result
 * @param {number[][]} X
 * @param {number[]} y
 * @param {object} recipe what `ClaimsPanel.browser_recipe` sent: show, xmax, title, colors, dotted
 * @param {object} style the run spec's style (its sizes in points)
 * @returns {object}
 */
export function claimsSpec(run, X, y, recipe, style) {
  const K = run.history.w.length - 1;
  const tr = claimsTrace(run, X, y);
  const c = recipe.colors;
  if (tr.why) return claimsNone(K, tr.why, c.cursor);
  const sep = style.title_size <= 16 ? " " : "\n";
  const { eta, gamma, R, bound } = tr;
  const xmax = claimsAxisEnd(recipe, K, bound);
  const grid = linspace(xmax, CLAIMS_GRID);
  const markers = K <= 60;
  const ms = Math.sqrt(style.marker_size);
  const [lw, thin] = [style.line_width * 0.8, style.line_width * 0.7];
  const [w_, u_] = tr.form === "offset" ? ["w\u0303", "u\u0303"] : ["w", "u"];
  const at = tr.t;
  const lines = [];
  const legend = [];
  const lows = [];
  const highs = [];
  const reference = (values, color, dash, label) => {
    lines.push(claimLine(grid, values, { color, width: thin, dash }));
    legend.push(claimEntry(label, color, thin, dash));
    lows.push(Math.min(...values));
    highs.push(Math.max(...values));
  };
  const curve = (values, color, marker, label) => {
    lines.push(claimLine(tr.t, values, { color, width: lw, alpha: 0.25 }));
    lines.push(
      claimLine(tr.t, values, {
        color,
        width: lw,
        marker: markers ? marker : null,
        markerSize: ms * 0.6,
        upto: at.map((t) => t + 1),
        dot: at,
        dotMarker: marker,
        dotSize: ms * 1.2,
        dotFace: color,
        dotEdge: c.cursor,
        dotEdgeWidth: style.marker_edge * 3,
      }),
    );
    legend.push(claimEntry(label, color, lw, null, markers ? marker : null));
    lows.push(Math.min(...values));
    highs.push(Math.max(...values));
  };
  const show = recipe.show;
  const floorDash = claimDash([5, 3], thin);
  const ceilingDash = claimDash([1.5, 2], thin);
  if (show === "claims" || show === "claim1" || show === "chain") {
    const label = `t\u2009η\u2009γ${show !== "chain" ? "  (Claim 1: floor)" : ""}`;
    reference(
      grid.map((t) => eta * gamma * t),
      c.inner,
      floorDash,
      label,
    );
    curve(tr.inner, c.inner, "o", `⟨${u_}, ${w_}ₜ⟩`);
  }
  if (show === "claims" || show === "claim2") {
    curve(tr.sqnorm, c.norm, "s", `‖${w_}ₜ‖²`);
    reference(
      grid.map((t) => eta ** 2 * R ** 2 * t),
      c.norm,
      ceilingDash,
      "t\u2009η²R²  (Claim 2: ceiling)",
    );
  }
  if (show === "chain") {
    curve(
      tr.sqnorm.map((v) => Math.sqrt(v)),
      c.norm,
      "s",
      `‖${w_}ₜ‖`,
    );
    reference(
      grid.map((t) => eta * R * Math.sqrt(t)),
      c.norm,
      ceilingDash,
      "η\u2009R\u2009√t",
    );
  }
  const vlines = [];
  if (bound <= xmax * (1 + 1e-9)) {
    const dash = claimDash(recipe.dotted, thin);
    vlines.push({ x: bound, color: c.bound, width: thin, dash, label: null });
    legend.push(claimEntry("t = (R/γ)²", c.bound, thin, dash));
  }
  const fixed = recipe.title ?? null;
  // the bound as the editor's readout beside the panel writes it (`own_data.num`, `ownNum`)
  const titles =
    fixed !== null
      ? null
      : at.map((t) => `t = ${t} mistake${t === 1 ? "" : "s"},${sep}bound (R/γ)² = ${ownNum(bound)}`);
  return claimChart({
    K,
    title: fixed,
    titles,
    xlabel: "mistakes t",
    ylabel: show === "chain" ? "length of w" : "value",
    xlim: [-0.03 * xmax, xmax * 1.03],
    ylim: claimPadded(Math.min(...lows), Math.max(...highs)),
    lines,
    vlines,
    cursor: at,
    cursorColor: c.cursor,
    cursorWidth: style.line_width * 0.9,
    legend,
    name: show === "chain" ? "the chain along the run" : "Claims 1 and 2 along the run",
  });
}

/** The panels an editor can compute for a run it fitted itself, by the `kind` of their recipe. */
export const BROWSER_PANELS = { claims: claimsSpec };
