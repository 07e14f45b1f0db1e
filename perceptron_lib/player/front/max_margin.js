/**
 * What the editor's readout says about the student's points, in the browser: R, whether a line (or a
 * plane of the lift) separates them, the best margin gamma, and the mistake bound, as
 * `core.own_data.summarize` states them with `core.margins` and `core.bounds`.
 *
 * The best margin is exact: the separator of largest margin is found from the point of least length
 * in a convex hull (Wolfe's algorithm), which ends on a handful of support points and solves a small
 * linear system on them. Through the origin that hull is the one of the points y_i x_i, and gamma is
 * its distance from 0; with an offset it is the hull of the differences p - q of a point of class +1
 * and one of class -1 (never formed: Wolfe only asks which difference reaches furthest against a
 * direction), and gamma is half its distance from 0, the gap between the two classes' hulls. No
 * point of the hull nearer 0 means no separator: 0 lies in it.
 *
 * Its answer carries a certificate a test can check with no solver: the dual variables alpha_i >= 0
 * of the hard-margin SVM, with w/gamma = sum_i alpha_i y_i x_i, sum_i alpha_i y_i = 0 (with an offset)
 * and sum_i alpha_i = 1/gamma^2; with the margins y_i(<w, x_i> + b) >= gamma of the unit separator
 * (w, b), this proves no unit separator does better.
 */

import { dot, norm } from "./perceptron.js";

/** Wolfe stops when no vertex lies nearer 0, along the current point, than this fraction of the data's size. */
const WOLFE_TOL = 1e-13;
/** Margins at most this fraction of R are no margin: the points are not separable. */
const SEPARABLE_TOL = 1e-10;
const MAX_WOLFE_STEPS = 10000;

/**
 * The lift (x1, x2) -> (x1, x2, x1^2 + x2^2) of lesson 05 (`core.kernels.lift`).
 * @param {number[][]} X
 * @returns {number[][]}
 */
export function lift(X) {
  return X.map((x) => [...x, dot(x, x)]);
}

/**
 * The data radius R = max_i |x_i| (`core.margins.radius`); 0 for no points.
 * @param {number[][]} X
 * @returns {number}
 */
export function radius(X) {
  return X.reduce((r, x) => Math.max(r, norm(x)), 0);
}

/**
 * Solves the small square system A u = r by Gaussian elimination with partial pivoting.
 * @param {number[][]} A m x m
 * @param {number[]} r
 * @returns {number[] | null} null when a pivot vanishes (the system is singular)
 */
export function solve(A, r) {
  const M = A.map((row, i) => [...row, r[i]]);
  for (let c = 0; c < r.length; c++) {
    if (!eliminate(M, c)) return null;
  }
  const u = new Array(r.length).fill(0);
  for (let i = r.length - 1; i >= 0; i--) {
    u[i] = (M[i][r.length] - M[i].slice(i + 1, r.length).reduce((a, v, k) => a + v * u[i + 1 + k], 0)) / M[i][i];
  }
  return u;
}

/**
 * One column of Gaussian elimination on the augmented matrix M (changed in place): the largest pivot
 * of column c moved to row c and column c cleared below it.
 * @param {number[][]} M
 * @param {number} c
 * @returns {boolean} false when the column has no usable pivot (the system is singular)
 */
function eliminate(M, c) {
  let p = c;
  for (let i = c + 1; i < M.length; i++) if (Math.abs(M[i][c]) > Math.abs(M[p][c])) p = i;
  const scale = Math.max(...M.map((row) => Math.abs(row[c])));
  if (scale === 0 || Math.abs(M[p][c]) <= 1e-14 * scale) return false;
  [M[c], M[p]] = [M[p], M[c]];
  for (let i = c + 1; i < M.length; i++) {
    const f = M[i][c] / M[c][c];
    for (let j = c; j < M[i].length; j++) M[i][j] -= f * M[c][j];
  }
  return true;
}

/**
 * The weights mu (summing to 1) of the point of least length in the affine hull of the points S.
 * @param {number[][]} S
 * @returns {number[] | null} null when S is affinely dependent
 */
function affineMinimizer(S) {
  const [s0, ...rest] = S;
  if (!rest.length) return [1];
  const D = rest.map((s) => s.map((v, j) => v - s0[j]));
  const c = solve(
    D.map((a) => D.map((b) => dot(a, b))),
    D.map((a) => -dot(a, s0)),
  );
  return c === null ? null : [1 - c.reduce((a, v) => a + v, 0), ...c];
}

/**
 * sum_j lam_j S_j.
 * @param {number[][]} S
 * @param {number[]} lam
 * @returns {number[]}
 */
function combine(S, lam) {
  return S[0].map((_, k) => S.reduce((a, s, j) => a + lam[j] * s[k], 0));
}

/**
 * One minor cycle of Wolfe: from weights lam on S (the newest at 0) to the corral's affine minimizer,
 * dropping points whose weight reaches 0 on the way.
 * @param {{S: number[][], ids: any[], lam: number[]}} c
 * @returns {{S: number[][], ids: any[], lam: number[]} | null} null if the points became affinely dependent
 */
function toCorral(c) {
  let { S, ids, lam } = c;
  for (;;) {
    const mu = affineMinimizer(S);
    if (mu === null) return null;
    if (mu.every((v) => v > 0)) return { S, ids, lam: mu };
    const { theta, out } = firstToZero(lam, mu);
    const moved = lam.map((l, j) => (j === out ? 0 : (1 - theta) * l + theta * mu[j]));
    const keep = moved.map((l) => l > 0);
    const total = moved.reduce((a, v) => a + Math.max(v, 0), 0);
    S = S.filter((_, j) => keep[j]);
    ids = ids.filter((_, j) => keep[j]);
    lam = moved.filter((_, j) => keep[j]).map((v) => v / total);
  }
}

/**
 * On the segment from weights lam (all >= 0) to mu (some <= 0), the first weight to reach 0.
 * @param {number[]} lam
 * @param {number[]} mu
 * @returns {{theta: number, out: number}} the fraction of the way, and which weight
 */
function firstToZero(lam, mu) {
  let [theta, out] = [1, -1];
  for (let j = 0; j < mu.length; j++) {
    if (mu[j] > 0) continue;
    const t = lam[j] / (lam[j] - mu[j] || 1); // lam_j = mu_j = 0: at once
    if (out < 0 || t < theta) [theta, out] = [t, j];
  }
  return { theta, out };
}

/**
 * Wolfe's algorithm: the point of least length in the convex hull of a set of vertices given by an
 * oracle (the vertex v with the least <x, v>).
 * @param {(x: number[]) => {v: number[], id: any}} farthest
 * @param {{v: number[], id: any}} start a vertex
 * @param {number} size an upper bound of the vertices' lengths
 * @returns {{x: number[], ids: any[], lam: number[]}} x = sum_j lam_j v(ids_j), lam > 0, sum 1
 */
export function minNormPoint(farthest, start, size) {
  let c = { S: [start.v], ids: [start.id], lam: [1] };
  let x = start.v.slice();
  for (let it = 0; it < MAX_WOLFE_STEPS; it++) {
    const { v, id } = farthest(x);
    const xx = dot(x, x);
    if (xx === 0 || xx - dot(x, v) <= WOLFE_TOL * Math.sqrt(xx) * size) break;
    if (c.ids.some((k) => String(k) === String(id))) break; // a corral point again: nothing left but rounding
    const next = toCorral({ S: [...c.S, v], ids: [...c.ids, id], lam: [...c.lam, 0] });
    if (next === null || next.ids[next.ids.length - 1] !== id) break; // v brought nothing beyond rounding
    c = next;
    x = combine(c.S, c.lam);
  }
  return { x, ids: c.ids, lam: c.lam };
}

/**
 * The example i with the least <d, s_i x_i> among `idx` (s = +1 or -1), first on ties.
 * @param {number[][]} X
 * @param {number[]} idx
 * @param {number[]} d
 * @param {number} s
 * @returns {number}
 */
function leastAlong(X, idx, d, s) {
  let best = idx[0];
  let bestValue = s * dot(d, X[best]);
  for (const i of idx) {
    const value = s * dot(d, X[i]);
    if (value < bestValue) [best, bestValue] = [i, value];
  }
  return best;
}

/**
 * The separator of largest margin (`core.margins.max_margin_separator`), or none, with its certificate.
 *
 * Through the origin (fitBias false) or with an offset (fitBias true, which needs both classes).
 * @param {number[][]} X n points of any dimension (2, or 3 when lifted)
 * @param {number[]} y labels +1 or -1
 * @param {{fitBias: boolean}} options
 * @returns {{separable: boolean, w: number[] | null, b: number, gamma: number, alpha: number[],
 *   support: number[], upper: number}} w of length 1, gamma = min_i y_i(<w, x_i> + b) (NaN when not
 *   separable); upper >= the best margin (|hull point|, or half of it): gamma <= best <= upper; alpha
 *   the dual variables, nonzero on the support points
 */
export function maxMarginSeparator(X, y, { fitBias }) {
  const n = X.length;
  const all = Array.from({ length: n }, (_, i) => i);
  const pos = all.filter((i) => y[i] > 0);
  const neg = all.filter((i) => y[i] < 0);
  if (fitBias && (!pos.length || !neg.length)) {
    throw new RangeError("with an offset the best margin needs points of both classes (one class has none).");
  }
  const R = radius(X);
  let hull;
  if (fitBias) {
    const vertex = (p, q) => ({ v: X[p].map((v, k) => v - X[q][k]), id: [p, q] });
    const farthest = (d) => vertex(leastAlong(X, pos, d, 1), leastAlong(X, neg, d, -1));
    hull = minNormPoint(farthest, vertex(pos[0], neg[0]), 2 * R);
  } else {
    const vertex = (i) => ({ v: X[i].map((v) => y[i] * v), id: i });
    const farthest = (d) => vertex(leastSigned(X, y, d));
    hull = minNormPoint(farthest, vertex(0), R);
  }
  return separatorFromHull(X, y, hull, fitBias, R);
}

/**
 * The i with the least <d, y_i x_i>, first on ties.
 * @param {number[][]} X
 * @param {number[]} y
 * @param {number[]} d
 * @returns {number}
 */
function leastSigned(X, y, d) {
  let best = 0;
  let bestValue = y[0] * dot(d, X[0]);
  for (let i = 1; i < X.length; i++) {
    const value = y[i] * dot(d, X[i]);
    if (value < bestValue) [best, bestValue] = [i, value];
  }
  return best;
}

/**
 * The unit separator, its margin and the dual variables from the hull's least point.
 * @param {number[][]} X
 * @param {number[]} y
 * @param {{x: number[], ids: any[], lam: number[]}} hull
 * @param {boolean} fitBias
 * @param {number} R
 * @returns {ReturnType<typeof maxMarginSeparator>}
 */
function separatorFromHull(X, y, hull, fitBias, R) {
  const length = norm(hull.x);
  const upper = fitBias ? length / 2 : length;
  const none = { separable: false, w: null, b: 0, gamma: Number.NaN, alpha: [], support: [], upper };
  if (!(upper > SEPARABLE_TOL * Math.max(R, Number.MIN_VALUE))) return none;
  const w = hull.x.map((v) => v / length);
  const along = X.map((x) => dot(w, x));
  let b = 0;
  if (fitBias) {
    const lowPos = Math.min(...along.filter((_, i) => y[i] > 0));
    const highNeg = Math.max(...along.filter((_, i) => y[i] < 0));
    b = -(lowPos + highNeg) / 2;
  }
  const gamma = Math.min(...along.map((a, i) => y[i] * (a + b)));
  if (!(gamma > SEPARABLE_TOL * R)) return none;
  // w_QP = w / upper = c x with c = 2 / |x|^2 (offset) or 1 / |x|^2; alpha_i = c * (weight of i in x)
  const scale = (fitBias ? 2 : 1) / (length * length);
  const alpha = new Array(X.length).fill(0);
  hull.ids.forEach((id, j) => {
    for (const i of fitBias ? id : [id]) alpha[i] += scale * hull.lam[j];
  });
  const support = alpha.flatMap((a, i) => (a > 0 ? [i] : []));
  return { separable: true, w, b, gamma, alpha, support, upper };
}

/**
 * Whether a line (plane) separates the points strictly (`core.margins.is_separable`).
 * @param {number[][]} X
 * @param {number[]} y
 * @param {{fitBias: boolean}} options
 * @returns {boolean}
 */
export function isSeparable(X, y, { fitBias }) {
  if (fitBias && (!y.includes(1) || !y.includes(-1))) return true;
  return maxMarginSeparator(X, y, { fitBias }).separable;
}

/**
 * The readout's facts (`core.own_data.summarize`) about points (as fitted: lifted if the run was) and a run.
 *
 * separable is null when the question does not arise (no points, or one class only); gamma, bound and
 * boundPlain are NaN unless separable. bound is the bound that holds for the run: (R/gamma)^2 through
 * the origin, (b*^2 + 1)(1 + R^2)/gamma^2 with an offset (b* the best separator's offset, w of length
 * 1: `core.bounds.offset_mistake_bound`); boundPlain is (R/gamma)^2 in both cases.
 * @param {number[][]} X
 * @param {number[]} y
 * @param {{mistakes: number, converged: boolean, epochs: number, cycle: object | null,
 *   settings: {fitBias: boolean}}} run
 * @returns {object}
 */
export function summarize(X, y, run) {
  const fitBias = run.settings.fitBias;
  const nPos = y.filter((v) => v > 0).length;
  const nNeg = y.length - nPos;
  const R = radius(X);
  const out = {
    n: y.length,
    nPos,
    nNeg,
    separable: null,
    fitBias,
    R,
    gamma: Number.NaN,
    bound: Number.NaN,
    boundPlain: Number.NaN,
    separator: null,
    mistakes: run.mistakes,
    converged: run.converged,
    epochs: run.epochs,
    cycle: run.cycle,
  };
  if (!nPos || !nNeg) return out;
  const sep = maxMarginSeparator(X, y, { fitBias });
  out.separable = sep.separable;
  if (!sep.separable) return out;
  const plain = (R / sep.gamma) ** 2;
  const bound = fitBias ? ((sep.b * sep.b + 1) * (1 + R * R)) / sep.gamma ** 2 : plain;
  return { ...out, gamma: sep.gamma, bound, boundPlain: plain, separator: sep };
}
