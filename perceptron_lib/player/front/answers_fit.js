/**
 * Lesson 06's four answers for a run the browser fitted itself (an editor with no kernel): the averaged fit of
 * `core.averaged.fit_averaged`, the overlay spec that `AnswersPanel.front` makes in Python and the readout line of
 * `AnswersFit.readout`, computed here from the browser's run.
 *
 * The numbers are the library's: the averaged line just after each update (`AveragedRun.averages`), the pocket
 * among states 0..k (`step_errors`: the first of the fewest training errors), and the vote of states 0..k weighted
 * by the examples each survived (`vote_counts_at`), traced on the same grid as Python traces it (`answers_vote.js`).
 * Every score is exact at 0 as `perceptron.scores` makes it (`isZero`, sgn(0) = -1, a tied vote -1). A Chromium
 * test holds all of it equal to Python's.
 */

import { gridOf, levelPieces, voteLabels } from "./answers_vote.js";
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
 * @param {number} size |w| |x| + |b|
 * @returns {number}
 */
function exactScore(w, b, x, size) {
  const s = dot(x, w) + b;
  return isZero(s, size) ? 0 : s;
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
  const kept = ERRORS_OF.get(run);
  if (kept?.X === X && kept.y === y) return kept.errors;
  const errors = countErrors(run, X, y);
  ERRORS_OF.set(run, { X, y, errors });
  return errors;
}

/** The counts of each run made so far on its points (the spec and the readout both read them). */
const ERRORS_OF = new WeakMap();

/**
 * `answersErrors`, counted.
 * @param {object} run
 * @param {number[][]} X
 * @param {number[]} y
 * @returns {object}
 */
function countErrors(run, X, y) {
  const h = run.history;
  const t = run.averaged.t;
  const out = { current: [], averaged: [], pocket: [], vote: [], pocketK: [] };
  const [n, sums] = [y.length, {}];
  for (const name of ["sumS", "sumV", "sumZ"]) sums[name] = new Float64Array(n);
  const lengths = X.map(norm);
  let best = 0;
  for (let k = 0; k < h.w.length; k++) {
    const [w, b, nw] = [h.w[k], h.b[k], norm(h.w[k])];
    const Z = lengths.map((nx) => nw * nx + Math.abs(b)); // each score's size, |w| |x| + |b|
    const S = X.map((x, i) => exactScore(w, b, x, Z[i]));
    const weight = k < t.length ? t[k] - (k ? t[k - 1] : 1) : 0; // examples before the next update
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
  const labels = voteLabels(h, run.averaged.t, gridOf(gx, gy));
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
