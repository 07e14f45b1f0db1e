/**
 * Lesson 06's vote on a grid, for `answers_fit.js`: the voted perceptron's labels just after each update k at every
 * point of a grid (`vote_regions.vote_labels`: each state's sign, exact at 0 as `perceptron.scores` makes it,
 * weighted by the examples it survived, a tied vote -1), and the boundary between its two labels as contourpy's
 * `lines(0.0)` traces it (`vote_regions.traced_votes`): marching squares, each crossing at its edge's midpoint, the
 * +1 side on a piece's left, a saddle cell keeping its two +1 corners apart, the pieces in the canonical order of
 * `vote_regions.canonical_pieces`. A Chromium test holds both equal to Python's.
 */

import { isZero, norm, ZERO_TOL } from "./perceptron.js";

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
      const q = j * nx + i;
      const sum = z[q] + z[q + 1] + z[q + nx + 1] + z[q + nx];
      if (sum === 4 || sum === -4) continue; // the four corners on one side: no crossing
      const c = [z[q] > 0, z[q + 1] > 0, z[q + nx + 1] > 0, z[q + nx] > 0];
      cellSteps(c, [j * (nx - 1) + i, H + q + 1, (j + 1) * (nx - 1) + i, H + q], next);
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
 * The grid's points row by row (x fastest, as numpy's meshgrid ravels them), with their lengths and each row's
 * longest.
 * @param {number[]} gx increasing
 * @param {number[]} gy
 * @returns {{nx: number, x: Float64Array, y: number[], size: Float64Array, rowMax: number[]}}
 */
export function gridOf(gx, gy) {
  const x = Float64Array.from(gy.flatMap(() => gx));
  const size = x.map((a, q) => norm([a, gy[Math.floor(q / gx.length)]]));
  const rowMax = gy.map((_, r) => Math.max(...size.subarray(r * gx.length, (r + 1) * gx.length)));
  return { nx: gx.length, x, y: gy, size, rowMax };
}

/**
 * Adds `v` to the points [a, e) of the flat grid, in the difference array D (D[a] += v, D[e] -= v).
 * @param {Int32Array} D
 * @param {number} a
 * @param {number} e
 * @param {number} v
 */
function addRange(D, a, e, v) {
  if (a >= e) return;
  D[a] += v;
  D[e] -= v;
}

/**
 * Where state (w, b) scores above 0 on row r of the grid, each score exact at 0 as `exactScore` makes it (the same
 * sums in the same order): adds `v` there, in the difference array D. Along a row the computed score
 * x w0 + (y w1) + b is monotone in x (each rounded step is), so the points above 0 are one end of the row (a
 * binary search finds it); of those, the ones at most the row's largest threshold of zero are tested one by one,
 * from the crossing on, and all the points beyond them lie above every threshold.
 * @param {Int32Array} D
 * @param {number} v
 * @param {{w0: number, A: number, b: number, nw: number, ab: number}} st the state, A = y w1 for this row
 * @param {object} grid `gridOf`
 * @param {number} r
 */
function rowSigns(D, v, st, grid, r) {
  const [nx, o] = [grid.nx, r * grid.nx];
  const score = (i) => grid.x[o + i] * st.w0 + st.A + st.b;
  const up = st.w0 > 0;
  let [lo, hi] = [0, nx]; // the first i where (score > 0) is `up`
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (score(mid) > 0 === up) hi = mid;
    else lo = mid + 1;
  }
  let [a, e] = up ? [lo, nx] : [0, lo];
  const most = ZERO_TOL * (st.nw * grid.rowMax[r] + st.ab);
  while (a < e) {
    const i = up ? a : e - 1;
    const s = score(i);
    if (s > most) break;
    if (!isZero(s, st.nw * grid.size[o + i] + st.ab)) addRange(D, o + i, o + i + 1, v);
    if (up) a += 1;
    else e -= 1;
  }
  addRange(D, o + a, o + e, v);
}

/**
 * Adds `weight` times state (w, b)'s sign at each grid point to the sums {D, base} (changed in place): -weight
 * everywhere (`base`) and 2 weight where the score is above 0 (the difference array D).
 * @param {{D: Int32Array, base: number}} sums
 * @param {number} weight
 * @param {number[]} w
 * @param {number} b
 * @param {object} grid `gridOf`
 */
function addSigns(sums, weight, w, b, grid) {
  sums.base -= weight;
  const st = { w0: w[0], b, nw: norm(w), ab: Math.abs(b) };
  for (let r = 0; r < grid.y.length; r++) rowSigns(sums.D, 2 * weight, { ...st, A: grid.y[r] * w[1] }, grid, r);
}

/**
 * The vote's labels on the grid just after each update k, made on demand: from the sums of the states' weighted
 * signs kept every 16 states, or from the step made last when k comes after it (stepping forward costs one state).
 * @param {{w: number[][], b: number[]}} h
 * @param {number[]} t
 * @param {object} grid `gridOf`
 * @returns {(k: number) => Int8Array}
 */
export function voteLabels(h, t, grid) {
  const weight = (j) => t[j] - (j ? t[j - 1] : 1);
  const copy = (s) => ({ D: s.D.slice(), base: s.base });
  const marks = [{ D: new Int32Array(grid.x.length + 1), base: 0 }]; // marks[c]: the sums over states j < 16 c
  let last = { k: 0, sums: marks[0] }; // the sums over states j < last.k
  return (k) => {
    const c = Math.min(Math.floor(k / 16), marks.length - 1);
    const from = last.k <= k && last.k >= 16 * c ? last : { k: 16 * c, sums: marks[c] };
    const sums = copy(from.sums);
    for (let j = from.k; j < k; j++) {
      addSigns(sums, weight(j), h.w[j], h.b[j], grid);
      if ((j + 1) % 16 === 0 && marks.length === (j + 1) / 16) marks.push(copy(sums));
    }
    last = { k, sums };
    const now = copy(sums);
    addSigns(now, 1, h.w[k], h.b[k], grid);
    const labels = new Int8Array(grid.x.length);
    for (let q = 0, run = now.base; q < labels.length; q++) {
      run += now.D[q];
      labels[q] = run > 0 ? 1 : -1;
    }
    return labels;
  };
}
