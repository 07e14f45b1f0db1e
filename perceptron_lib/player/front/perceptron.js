/**
 * The course's perceptron in the browser: the step rule of `perceptron_lib.core.perceptron` and the
 * online fit of `perceptron_lib.core.training.fit_perceptron`, so that a student's edit gets its run
 * with no kernel, and the same run a kernel would compute.
 *
 * The same meaning of zero (`isZero`: within ZERO_TOL of the size of the terms), the same mistake test
 * (`isMistake`), the same update with its cancellation to exact 0 (`step`), the same visiting order
 * (cyclic, or numpy's permutations for a random order: `numpy_random.js`), the same history and the
 * same cycle test (a state repeated, bit for bit, at the end of an epoch). Python's fit skips examples
 * that provably pass with a vectorised pre-filter; that changes its speed, never its run, so here every
 * example simply meets `step`. Points are arrays of numbers (`number[][]`, any dimension: 2, or 3 when
 * lifted), labels +1 or -1.
 */

import { pcg64, permutation } from "./numpy_random.js";

/** A score within ZERO_TOL times the size of its terms is exactly 0 (`core.perceptron.ZERO_TOL`). */
export const ZERO_TOL = 1e-12;
/** The mistake tests the editors offer (`core.perceptron.UPDATE_RULES`). */
export const UPDATE_RULES = ["nonpositive", "negative", "sign"];
/** The visiting orders (`core.training.ORDERS`). */
export const ORDERS = ["cyclic", "random"];

/**
 * The one meaning of zero: `value` lies within ZERO_TOL * `size` of 0.
 * @param {number} value
 * @param {number} size the size of the terms summed into `value`, |w| |x| + |b| for a score
 * @returns {boolean}
 */
export function isZero(value, size) {
  return Math.abs(value) <= ZERO_TOL * size;
}

/**
 * The dot product <a, b>, summed in index order.
 * @param {number[]} a
 * @param {number[]} b
 * @returns {number}
 */
export function dot(a, b) {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j] * b[j];
  return s;
}

/**
 * The length |a|.
 * @param {number[]} a
 * @returns {number}
 */
export function norm(a) {
  return Math.sqrt(dot(a, a));
}

/**
 * The mistake test (`core.perceptron.is_mistake` on one example).
 *
 * The functional margin m = y * score is first set to 0 when it lies within ZERO_TOL * size of 0;
 * then "nonpositive" is m <= margin, "negative" m < margin, "sign" is sgn(score) != y with sgn(0) = -1.
 * @param {number} score <w, x> + b as computed
 * @param {number} y +1 or -1
 * @param {string} updateOn one of UPDATE_RULES
 * @param {number} margin the threshold, >= 0 (0 for "sign")
 * @param {number} size |w| |x| + |b|
 * @returns {boolean}
 */
export function isMistake(score, y, updateOn, margin, size) {
  const m = isZero(y * score, size) ? 0 : y * score;
  if (updateOn === "nonpositive") return m <= margin;
  if (updateOn === "negative") return m < margin;
  if (updateOn === "sign") return m < 0 || (m === 0 && y > 0);
  throw new RangeError(`updateOn must be one of ${UPDATE_RULES.join(", ")}; got ${updateOn}.`);
}

/**
 * b + t, or exactly 0 where it cancels to rounding of its two terms (`core.perceptron._add`).
 * @param {number} b
 * @param {number} t
 * @returns {number}
 */
export function addCancelling(b, t) {
  const total = b + t;
  return isZero(total, Math.abs(b) + Math.abs(t)) ? 0 : total;
}

/**
 * w + t x, each coordinate that cancels to rounding of its two terms set to exactly 0.
 * @param {number[]} w
 * @param {number} t eta * y
 * @param {number[]} x
 * @param {number} bound |w| + |t| |x|, at least every coordinate's size: no coordinate cancels if none is below it
 * @returns {number[]}
 */
function moveWeights(w, t, x, bound) {
  const out = new Array(w.length);
  let least = Number.POSITIVE_INFINITY;
  for (let j = 0; j < w.length; j++) {
    out[j] = w[j] + t * x[j];
    least = Math.min(least, Math.abs(out[j]));
  }
  if (least > ZERO_TOL * bound) return out;
  for (let j = 0; j < w.length; j++) {
    if (isZero(out[j], Math.abs(w[j]) + Math.abs(t) * Math.abs(x[j]))) out[j] = 0;
  }
  return out;
}

/**
 * The perceptron's update rule, once: example (x, y) at state (w, b) (`core.perceptron.step`).
 *
 * On a mistake, w <- w + eta y x and b <- b + eta y (b stays when fitBias is false), with a coordinate
 * that cancels to rounding set to 0; else the state given (its own arrays: nothing here changes an array
 * it is given, so a new one is made only for a new state).
 * @param {number[]} w
 * @param {number} b
 * @param {number[]} x
 * @param {number} y +1 or -1
 * @param {{eta: number, updateOn: string, fitBias: boolean, margin: number}} rule
 * @returns {{w: number[], b: number, updated: boolean}}
 */
export function step(w, b, x, y, rule) {
  const normW = norm(w);
  const normX = norm(x);
  if (!isMistake(dot(x, w) + b, y, rule.updateOn, rule.margin, normW * normX + Math.abs(b))) {
    return { w, b, updated: false };
  }
  const t = rule.eta * y;
  const wNew = moveWeights(w, t, x, normW + Math.abs(t) * normX);
  return { w: wNew, b: rule.fitBias ? addCancelling(b, t) : b, updated: true };
}

/**
 * The settings of a fit with `fit_perceptron`'s defaults filled in, checked.
 * @param {number} d the points' dimension
 * @param {object} options as `fitPerceptron` takes them
 * @returns {{eta: number, maxEpochs: number, order: string, seed: number, w0: number[], b0: number,
 *   fitBias: boolean, updateOn: string, margin: number}}
 */
export function fitSettings(d, options = {}) {
  const s = {
    eta: 1,
    maxEpochs: 1000,
    order: "cyclic",
    seed: 0,
    w0: new Array(d).fill(0),
    b0: 0,
    fitBias: true,
    updateOn: "nonpositive",
    margin: 0,
    ...options,
  };
  const bad = (name, want) => new RangeError(`${name} must be ${want}; got ${JSON.stringify(s[name])}.`);
  if (!(Number.isFinite(s.eta) && s.eta > 0)) throw bad("eta", "a number > 0");
  if (!(Number.isInteger(s.maxEpochs) && s.maxEpochs >= 1)) throw bad("maxEpochs", "a whole number >= 1");
  if (!ORDERS.includes(s.order)) throw bad("order", ORDERS.join(" or "));
  if (!UPDATE_RULES.includes(s.updateOn)) throw bad("updateOn", UPDATE_RULES.join(", "));
  if (!(Number.isFinite(s.margin) && s.margin >= 0)) throw bad("margin", "a number >= 0");
  if (s.updateOn === "sign" && s.margin !== 0) throw bad("margin", "0 with updateOn 'sign' (it has no threshold)");
  if (!(Array.isArray(s.w0) && s.w0.length === d && s.w0.every(Number.isFinite))) {
    throw bad("w0", `${d} finite numbers, one per coordinate of the points`);
  }
  if (!Number.isFinite(s.b0)) throw bad("b0", "a finite number");
  if (typeof s.fitBias !== "boolean") throw bad("fitBias", "true or false");
  return s;
}

/**
 * Checks points and labels at the boundary: n rows of d finite numbers, labels +1 or -1.
 * @param {number[][]} X
 * @param {number[]} y
 */
export function checkPoints(X, y) {
  if (!Array.isArray(X) || X.length === 0) throw new RangeError("X must hold at least one point.");
  const d = X[0].length;
  if (!X.every((x) => Array.isArray(x) && x.length === d && x.every(Number.isFinite))) {
    throw new RangeError(`every point of X must be ${d} finite numbers.`);
  }
  if (!Array.isArray(y) || y.length !== X.length || !y.every((v) => v === 1 || v === -1)) {
    throw new RangeError(`y must hold one label, 1 or -1, per point (${X.length}); got ${JSON.stringify(y)}.`);
  }
}

/**
 * The bytes of a state (w, b), as numpy's `np.append(w, b).tobytes()` tells states apart: -0 is not 0.
 * @param {number[]} w
 * @param {number} b
 * @returns {string}
 */
export function stateKey(w, b) {
  const words = new Uint32Array(new Float64Array([...w, b]).buffer);
  return words.join(",");
}

/**
 * The margins y_i (<w, x_i> + b) of each update, before (rounding around 0 is 0) and after it,
 * as `core.training._online_history` computes them from the stored states.
 * @param {number[][]} W the states' w, K + 1 rows
 * @param {number[]} B the states' b
 * @param {number[]} I the example of each update, K of them
 * @param {number[][]} X
 * @param {number[]} y
 * @returns {{before: number[], after: number[]}}
 */
export function updateMargins(W, B, I, X, y) {
  const before = I.map((i, k) => {
    const score = dot(X[i], W[k]) + B[k];
    return isZero(score, norm(W[k]) * norm(X[i]) + Math.abs(B[k])) ? 0 : y[i] * score;
  });
  const after = I.map((i, k) => y[i] * (dot(X[i], W[k + 1]) + B[k + 1]));
  return { before, after };
}

/**
 * The online perceptron, as `fit_perceptron(X, y, **settings)` runs it.
 *
 * Options (the Python names in camelCase): eta (1), maxEpochs (1000), order ("cyclic" or "random"),
 * seed (the int `rng` of a random order, 0), w0 (zeros), b0 (0), fitBias (true), updateOn
 * ("nonpositive"), margin (0). It stops after an epoch with no update (converged), when the state at
 * the end of an epoch repeats one at the end of an earlier epoch (cyclic order only: a cycle), or
 * after maxEpochs.
 * @param {number[][]} X n points
 * @param {number[]} y n labels, +1 or -1
 * @param {object} [options]
 * @returns {{w: number[], b: number, mistakes: number, epochs: number, converged: boolean,
 *   cycle: {start: number, length: number, mistakesPerCycle: number} | null,
 *   history: {w: number[][], b: number[], i: number[], epoch: number[], marginBefore: number[], marginAfter: number[]},
 *   settings: object}}
 */
export function fitPerceptron(X, y, options = {}) {
  checkPoints(X, y);
  const n = X.length;
  const s = fitSettings(X[0].length, options);
  const gen = s.order === "random" ? pcg64(s.seed) : null;
  const cyclic = Array.from({ length: n }, (_, i) => i);
  const h = { w: [s.w0.slice()], b: [s.b0], i: [], epoch: [] };
  const seen = new Map();
  let [converged, cycle, epoch] = [false, null, 0];
  while (epoch < s.maxEpochs && !converged && cycle === null) {
    epoch += 1;
    const before = h.i.length;
    runEpoch(h, gen === null ? cyclic : permutation(gen, n), epoch, X, y, s);
    converged = h.i.length === before;
    if (!converged && gen === null) cycle = repeated(seen, h, epoch);
  }
  const { before, after } = updateMargins(h.w, h.b, h.i, X, y);
  const history = { ...h, marginBefore: before, marginAfter: after };
  const [w, b] = [h.w[h.w.length - 1], h.b[h.b.length - 1]];
  return { w: w.slice(), b, mistakes: h.i.length, epochs: epoch, converged, cycle, history, settings: s };
}

/**
 * One epoch: `step` on each example in `order`, each update appended to the history `h` (changed in place).
 * @param {{w: number[][], b: number[], i: number[], epoch: number[]}} h
 * @param {number[]} order
 * @param {number} epoch
 * @param {number[][]} X
 * @param {number[]} y
 * @param {{eta: number, updateOn: string, fitBias: boolean, margin: number}} rule
 */
function runEpoch(h, order, epoch, X, y, rule) {
  let [w, b] = [h.w[h.w.length - 1], h.b[h.b.length - 1]];
  for (const i of order) {
    const next = step(w, b, X[i], y[i], rule);
    if (!next.updated) continue;
    [w, b] = [next.w, next.b];
    h.w.push(w);
    h.b.push(b);
    h.i.push(i);
    h.epoch.push(epoch);
  }
}

/**
 * The cycle test at the end of an epoch: the cycle if the state now ended an earlier epoch, else null
 * (and the state is remembered in `seen`, changed in place).
 * @param {Map<string, [number, number]>} seen state key -> [epoch, updates so far]
 * @param {{w: number[][], b: number[], i: number[]}} h
 * @param {number} epoch
 * @returns {{start: number, length: number, mistakesPerCycle: number} | null}
 */
function repeated(seen, h, epoch) {
  const key = stateKey(h.w[h.w.length - 1], h.b[h.b.length - 1]);
  if (!seen.has(key)) {
    seen.set(key, [epoch, h.i.length]);
    return null;
  }
  const [start, mistakesThen] = seen.get(key);
  return { start, length: epoch - start, mistakesPerCycle: h.i.length - mistakesThen };
}
