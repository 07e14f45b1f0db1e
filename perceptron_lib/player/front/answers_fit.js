/**
 * Lesson 06's four answers for a run the browser fitted itself (an editor with no kernel): the averaged fit of
 * `core.averaged.fit_averaged`, the overlay spec that `AnswersPanel.front` makes in Python and the readout line of
 * `AnswersFit.readout`, computed here from the browser's run.
 *
 * The numbers are the library's: the averaged line just after each update (`AveragedRun.averages`), the pocket
 * among states 0..k (`step_errors`: the first of the fewest training errors), and the vote of states 0..k weighted
 * by the examples each survived (`vote_counts_at`), traced on the same grid as Python traces it. Every score is
 * exact at 0 as `perceptron.scores` makes it (`isZero`, sgn(0) = -1, a tied vote -1). The vote's boundary is
 * traced by marching squares with contourpy's conventions (each crossing at its edge's midpoint, the +1 side on a
 * piece's left, a saddle cell keeping its two +1 corners apart) and its pieces put in the canonical order Python
 * puts contourpy's in (`averaged._canonical_pieces`). A Chromium test holds all of it equal to Python's.
 */

import { pcg64, permutation } from "./numpy_random.js";
import { checkPoints, dot, fitSettings, isMistake, isZero, norm, step, updateMargins } from "./perceptron.js";

/**
 * `fit_averaged(X, y, epochs=epochs, **options)`: the online perceptron for exactly `epochs` passes (no stop at
 * convergence or at a cycle), with t, the number of examples seen at each update.
 * @param {number[][]} X
 * @param {number[]} y
 * @param {object} options `fitPerceptron`'s options (eta, order, seed, w0, b0, fitBias, updateOn, margin)
 * @param {number} epochs
 * @returns {object} a run as `fitPerceptron` returns it (cycle null, epochs = `epochs`) with `averaged: {t, seen}`
 */
export function fitAveraged(X, y, options, epochs) {
  checkPoints(X, y);
  const n = X.length;
  const s = fitSettings(X[0].length, { ...options, maxEpochs: epochs });
  const gen = s.order === "random" ? pcg64(s.seed) : null;
  const cyclic = Array.from({ length: n }, (_, i) => i);
  const h = { w: [s.w0.slice()], b: [s.b0], i: [], epoch: [] };
  const t = [];
  let [w, b, seen, last] = [h.w[0], h.b[0], 0, 0];
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const before = h.i.length;
    for (const i of gen === null ? cyclic : permutation(gen, n)) {
      seen += 1;
      const next = step(w, b, X[i], y[i], s);
      if (!next.updated) continue;
      [w, b] = [next.w, next.b];
      h.w.push(w);
      h.b.push(b);
      h.i.push(i);
      h.epoch.push(epoch);
      t.push(seen);
    }
    last = h.i.length - before;
  }
  const { before, after } = updateMargins(h.w, h.b, h.i, X, y);
  const history = { ...h, marginBefore: before, marginAfter: after };
  const run = { w: w.slice(), b, mistakes: h.i.length, epochs, converged: last === 0, cycle: null, history };
  return { ...run, settings: s, averaged: { t, seen } };
}

/**
 * The averaged line just after each update (`AveragedRun.averages`, the same sums in the same order).
 * @param {{w: number[][], b: number[]}} h the run's history
 * @param {number[]} t the examples seen at each update
 * @returns {{W: number[][], B: number[]}}
 */
export function averagedLines(h, t) {
  const W = [h.w[0].slice()];
  const B = [h.b[0]];
  const cw = h.w[0].map(() => 0);
  let [cb, prev] = [0, 1];
  for (let k = 1; k <= t.length; k++) {
    const d = t[k - 1] - prev;
    prev = t[k - 1];
    for (let j = 0; j < cw.length; j++) cw[j] += d * h.w[k - 1][j];
    cb += d * h.b[k - 1];
    W.push(cw.map((c, j) => (c + h.w[k][j]) / t[k - 1]));
    B.push((cb + h.b[k]) / t[k - 1]);
  }
  return { W, B };
}

/**
 * A state's score at x, exact at 0 (`perceptron.scores`).
 * @param {number[]} w
 * @param {number} b
 * @param {number[]} x
 * @returns {number}
 */
function exactScore(w, b, x) {
  const s = dot(x, w) + b;
  return isZero(s, norm(w) * norm(x) + Math.abs(b)) ? 0 : s;
}

/**
 * One state's counts on the points (`step_errors` row k): its own errors, and the averaged line's and the vote's
 * from the weighted sums over the states before it (`sumS`, `sumV`; the averaged sum exact at 0 within ZERO_TOL of
 * `sumZ`, the weighted sum of the scores' sizes), which then take this state with `weight`.
 * @param {number[]} S the state's exact scores on the points
 * @param {number[]} Z their sizes, |w| |x| + |b|
 * @param {number[]} y
 * @param {string} rule update_on
 * @param {{sumS: Float64Array, sumV: Float64Array, sumZ: Float64Array}} sums changed in place
 * @param {number} weight this state's weight once the next state exists (0 for the last)
 * @returns {number[]} [current, averaged, vote]
 */
function stateCounts(S, Z, y, rule, sums, weight) {
  const counts = [0, 0, 0];
  for (let i = 0; i < y.length; i++) {
    const sign = S[i] > 0 ? 1 : -1;
    counts[0] += isMistake(S[i], y[i], rule, 0, 0) ? 1 : 0;
    counts[1] += isMistake(sums.sumS[i] + S[i], y[i], rule, 0, sums.sumZ[i] + Z[i]) ? 1 : 0;
    counts[2] += (sums.sumV[i] + sign > 0 ? 1 : -1) !== y[i] ? 1 : 0;
    sums.sumS[i] += weight * S[i];
    sums.sumV[i] += weight * sign;
    sums.sumZ[i] += weight * Z[i];
  }
  return counts;
}

/**
 * The training errors of the four answers just after each update, and the pocket's state (`step_errors`).
 * @param {object} run `fitAveraged`'s result
 * @param {number[][]} X
 * @param {number[]} y
 * @returns {{current: number[], averaged: number[], pocket: number[], vote: number[], pocketK: number[]}}
 */
export function answersErrors(run, X, y) {
  const h = run.history;
  const t = run.averaged.t;
  const out = { current: [], averaged: [], pocket: [], vote: [], pocketK: [] };
  const [n, sums] = [y.length, {}];
  for (const name of ["sumS", "sumV", "sumZ"]) sums[name] = new Float64Array(n);
  let best = 0;
  for (let k = 0; k < h.w.length; k++) {
    const S = X.map((x) => exactScore(h.w[k], h.b[k], x));
    const weight = k < t.length ? t[k] - (k ? t[k - 1] : 1) : 0; // examples before the next update
    const Z = X.map((x) => norm(h.w[k]) * norm(x) + Math.abs(h.b[k]));
    const [current, averaged, vote] = stateCounts(S, Z, y, run.settings.updateOn, sums, weight);
    out.current.push(current);
    if (current < out.current[best]) best = k; // the first of the fewest: a later state must have fewer
    out.averaged.push(averaged);
    out.vote.push(vote);
    out.pocketK.push(best);
    out.pocket.push(out.current[best]);
  }
  return out;
}

/**
 * numpy's `np.round(v, 5)`: v * 1e5 rounded half to even, divided by 1e5.
 * @param {number} v
 * @returns {number}
 */
function round5(v) {
  const s = v * 1e5;
  const f = Math.floor(s);
  const r = s - f > 0.5 || (s - f === 0.5 && f % 2 !== 0) ? f + 1 : f;
  return r / 1e5;
}

/**
 * numpy's `linspace(start, stop, num)`: i * step + start, the last exactly `stop`.
 * @param {number} start
 * @param {number} stop
 * @param {number} num
 * @returns {number[]}
 */
function gridLine(start, stop, num) {
  const step = (stop - start) / (num - 1);
  return Array.from({ length: num }, (_, i) => (i === num - 1 ? stop : i * step + start));
}

/**
 * The grid's cells cut by the level: for each edge where a piece enters a cell, the edge where it leaves (-1: none),
 * with the +1 side on its left; a saddle cell keeps its two +1 corners apart (its middle, 0, is not above the level).
 * Horizontal edges (i, j)-(i + 1, j) are numbered first, j (nx - 1) + i, then vertical ones (i, j)-(i, j + 1).
 * @param {number} nx
 * @param {number} ny
 * @param {Int8Array} z
 * @returns {Int32Array}
 */
function levelSteps(nx, ny, z) {
  const H = ny * (nx - 1);
  const next = new Int32Array(H + nx * (ny - 1)).fill(-1);
  for (let j = 0; j < ny - 1; j++) {
    for (let i = 0; i < nx - 1; i++) {
      const c = [j * nx + i, j * nx + i + 1, (j + 1) * nx + i + 1, (j + 1) * nx + i].map((q) => z[q] > 0);
      if (c.every((v) => v === c[0])) continue;
      cellSteps(c, [j * (nx - 1) + i, H + j * nx + i + 1, (j + 1) * (nx - 1) + i, H + j * nx + i], next);
    }
  }
  return next;
}

/**
 * One cell's steps: each edge that goes, counter-clockwise, from a + corner to a - corner leads to the nearest edge
 * before it that goes from - to + (so a saddle's two + corners are cut off apart).
 * @param {boolean[]} c the corners above the level, counter-clockwise from (i, j)
 * @param {number[]} e the edges' numbers: bottom, right, top, left
 * @param {Int32Array} next changed in place
 */
function cellSteps(c, e, next) {
  for (let k = 0; k < 4; k++) {
    if (!c[k] || c[(k + 1) % 4]) continue;
    let m = (k + 3) % 4;
    while (c[m]) m = (m + 3) % 4;
    next[e[k]] = e[m];
  }
}

/**
 * The pieces of the level 0 of labels ±1 on a grid, as contourpy's `lines(0.0)` gives them (each crossing at its
 * edge's midpoint, the +1 side on the left, closed pieces ending where they start), in canonical order: each
 * closed piece from its least point by (x, y), the pieces sorted by their first point.
 * @param {number[]} gx the grid's x, nx of them
 * @param {number[]} gy its y, ny
 * @param {Int8Array} z labels, row j of nx values at gy[j]
 * @returns {number[][][]} pieces of points [x, y]
 */
export function levelPieces(gx, gy, z) {
  const [nx, ny] = [gx.length, gy.length];
  const H = ny * (nx - 1);
  const next = levelSteps(nx, ny, z);
  const entered = new Uint8Array(next.length);
  for (const q of next) if (q !== -1) entered[q] = 1;
  const at = (q) => {
    if (q < H) return [0.5 * gx[q % (nx - 1)] + 0.5 * gx[(q % (nx - 1)) + 1], gy[Math.floor(q / (nx - 1))]];
    const [i, j] = [(q - H) % nx, Math.floor((q - H) / nx)];
    return [gx[i], 0.5 * gy[j] + 0.5 * gy[j + 1]];
  };
  const follow = (q0) => {
    const piece = [];
    for (let q = q0; q !== -1; ) {
      piece.push(at(q));
      const after = next[q];
      next[q] = -1;
      q = after;
    }
    return piece;
  };
  const pieces = [];
  for (let q = 0; q < next.length; q++) if (next[q] !== -1 && !entered[q]) pieces.push(follow(q));
  for (let q = 0; q < next.length; q++) {
    if (next[q] === -1) continue;
    const ring = follow(q).slice(0, -1); // back at q (whose step is gone: it ends there), once round
    const first = ring.reduce((a, p, j) => (byPlace(p, ring[a]) < 0 ? j : a), 0);
    const turned = ring.slice(first).concat(ring.slice(0, first));
    pieces.push(turned.concat([turned[0]]));
  }
  return pieces.sort((a, b) => byPlace(a[0], b[0]));
}

/**
 * The order of points by x, then y.
 * @param {number[]} p
 * @param {number[]} q
 * @returns {number}
 */
function byPlace(p, q) {
  return p[0] - q[0] || p[1] - q[1];
}

/**
 * The vote's labels on the grid just after each update k, made on demand: from the sums of the states' weighted
 * signs kept every 16 states, or from the step made last when k comes after it (stepping forward costs one state).
 * @param {{w: number[][], b: number[]}} h
 * @param {number[]} t
 * @param {number[][]} grid
 * @returns {(k: number) => Int8Array}
 */
function voteLabels(h, t, grid) {
  const sizes = Float64Array.from(grid, norm);
  const signs = (k) => {
    const [w, b, nw] = [h.w[k], h.b[k], norm(h.w[k])];
    return Int8Array.from(grid, (x, q) => {
      const s = dot(x, w) + b; // `exactScore`, with the grid's lengths kept
      return s > 0 && !isZero(s, nw * sizes[q] + Math.abs(b)) ? 1 : -1;
    });
  };
  const weight = (j) => t[j] - (j ? t[j - 1] : 1);
  const marks = [new Int32Array(grid.length)]; // marks[c]: the sum over states j < 16 c
  let last = { k: 0, sum: marks[0] }; // the sum over states j < last.k
  return (k) => {
    const c = Math.min(Math.floor(k / 16), marks.length - 1);
    const from = last.k <= k && last.k >= 16 * c ? last : { k: 16 * c, sum: marks[c] };
    const sum = from.sum.slice();
    for (let j = from.k; j < k; j++) {
      const s = signs(j);
      for (let q = 0; q < sum.length; q++) sum[q] += weight(j) * s[q];
      if ((j + 1) % 16 === 0 && marks.length === (j + 1) / 16) marks.push(sum.slice());
    }
    last = { k, sum };
    const s = signs(k);
    return Int8Array.from(sum, (v, q) => (v + s[q] > 0 ? 1 : -1));
  };
}

/**
 * A dash pattern at a line width, as `panel_specs.dash` makes it (null: solid).
 * @param {number[] | null} pattern
 * @param {number} width
 * @param {boolean} scaled matplotlib's lines.scale_dashes
 * @returns {number[] | null}
 */
function answersDash(pattern, width, scaled) {
  return pattern ? pattern.map((p) => Math.round(p * (scaled ? width : 1) * 1e4) / 1e4) : null;
}

/**
 * The overlay spec of `AnswersPanel.front` for a run `fitAveraged` made: the averaged and pocket lines at each
 * step and the vote's boundary pieces (made when a step is first drawn).
 * @param {object} run `fitAveraged`'s result (a run without `averaged` has no answers: an empty overlay)
 * @param {number[][]} X
 * @param {number[]} y
 * @param {object} recipe `AnswersPanel.browser()`: looks, grid, reach, name, scale_dashes
 * @param {object} style the preset's sizes (`line_width`)
 * @param {{lazySteps: Function, viewFor: Function}} tools from `runspec.js`
 * @returns {object}
 */
export function answersSpec(run, X, y, recipe, style, tools) {
  const h = run.history;
  const K = h.w.length - 1;
  const looks = ["averaged", "pocket", "vote"].map((name) => {
    const [color, pattern, factor] = recipe.looks[name];
    const width = style.line_width * factor;
    return { name, color, width, dash: answersDash(pattern, width, recipe.scale_dashes) };
  });
  const spec = { kind: "answers", shape: "overlay", K, lines: [], legend: [], name: recipe.name, paths: [] };
  if (!run.averaged || !y.length) return spec;
  spec.legend = looks.map((l) => ({
    label: l.name === "vote" ? "vote" : `${l.name} line`,
    ...{ color: l.color, width: l.width, dash: l.dash, marker: null, shape: "line", alpha: 1 },
  }));
  const { W, B } = averagedLines(h, run.averaged.t);
  const pk = answersErrors(run, X, y).pocketK;
  const line = (look, w, b) => ({ w, b, moving: true, color: look.color, width: look.width, dash: look.dash });
  spec.lines = [
    { ...line(looks[0], W, B), cls: "pp-averaged" },
    {
      ...line(
        looks[1],
        pk.map((j) => h.w[j]),
        pk.map((j) => h.b[j]),
      ),
      cls: "pp-pocket",
    },
  ];
  const { xlim, ylim } = tools.viewFor(X, run.settings);
  const g = gridLine(-recipe.reach, 1 + recipe.reach, recipe.grid);
  const gx = g.map((v) => xlim[0] + v * (xlim[1] - xlim[0]));
  const gy = g.map((v) => ylim[0] + v * (ylim[1] - ylim[0]));
  const labels = voteLabels(
    h,
    run.averaged.t,
    gy.flatMap((b) => gx.map((a) => [a, b])),
  );
  const pieces = tools.lazySteps(K + 1, (k) => levelPieces(gx, gy, labels(k)).map((p) => p.flat().map(round5)));
  const vote = looks[2];
  spec.paths = [{ pieces, color: vote.color, width: vote.width, dash: vote.dash, cls: "pp-vote" }];
  return spec;
}

/**
 * The readout's line on the four answers at step k (`AnswersFit.readout` inserts it after the headline).
 * @param {number} n the number of points
 * @param {number} k
 * @param {object} errors `answersErrors`
 * @returns {string}
 */
export function answersLine(n, k, errors) {
  const when = k === 0 ? "at the start" : `after update ${k}`;
  const e = (name) => errors[name][k];
  return (
    `Training errors of the ${n} points ${when}: current line ${e("current")}, averaged line ${e("averaged")}, ` +
    `pocket (state ${errors.pocketK[k]}) ${e("pocket")}, vote ${e("vote")}.`
  );
}
