/**
 * The lifted view's spec (`LiftedPanel.front`, kind "lifted", drawn by `lifted.js`) for a run the browser fitted
 * itself: the box (`lift_view.view_box`), each state's plane cut to it (`plane_polygon`), the bowl's wire mesh
 * (`bowl_mesh`), the bowl's sections (`bowl_section`, in `lift_boundary.js`) and the sentence of each step
 * (`LiftedPanel._words`), ported line for line and held equal to Python's by a Chromium test.
 */

import { bowlSection, circleFromPlane, evenSteps, sectionPieces } from "./lift_boundary.js";
import { pyG } from "./words.js";

/**
 * The box (rows (low, high) for x1, x2, z) around the lifted points, each side padded by `pad` of its length.
 * @param {number[][]} Z
 * @param {number} [pad]
 * @returns {number[][]}
 */
export function viewBox(Z, pad = 0.08) {
  if (!Z.length) {
    return [
      [-1, 1],
      [-1, 1],
      [0, 2],
    ];
  }
  return [0, 1, 2].map((j) => {
    const [lo, hi] = [Math.min(...Z.map((p) => p[j])), Math.max(...Z.map((p) => p[j]))];
    const room = pad * (hi > lo ? hi - lo : 1);
    return [lo - room, hi + room];
  });
}

/** The part of the convex polygon (rows (u, v)) where its affine function `dep` is <= bound (or >= bound). */
function clipHalfplane(poly, dep, bound, keepBelow) {
  const [out, val] = [[], []];
  const ins = dep.map((v) => (keepBelow ? v <= bound : v >= bound));
  const n = poly.length;
  for (let a = 0; a < n; a++) {
    const b = (a + 1) % n;
    if (ins[a]) {
      out.push(poly[a]);
      val.push(dep[a]);
    }
    if (ins[a] !== ins[b]) {
      const t = (bound - dep[a]) / (dep[b] - dep[a]);
      out.push([poly[a][0] + t * (poly[b][0] - poly[a][0]), poly[a][1] + t * (poly[b][1] - poly[a][1])]);
      val.push(bound);
    }
  }
  return [out, val];
}

/**
 * The polygon where the plane <w, p> + b = 0 meets the box, its vertices in order (`lift_view.plane_polygon`).
 * @param {number[]} w
 * @param {number} b
 * @param {number[][]} B
 * @returns {number[][]} 0 or 3..6 vertices (x1, x2, z)
 */
export function planePolygon(w, b, B) {
  if (w.every((v) => v === 0) || !w.every(Number.isFinite) || !Number.isFinite(b)) return [];
  let d = 0;
  for (let j = 1; j < 3; j++) if (Math.abs(w[j]) > Math.abs(w[d])) d = j;
  const [u, v] = [0, 1, 2].filter((j) => j !== d);
  const coef = [-w[u] / w[d], -w[v] / w[d]];
  const cst = -b / w[d];
  const [[u0, u1], [v0, v1]] = [B[u], B[v]];
  let poly = [
    [u0, v0],
    [u1, v0],
    [u1, v1],
    [u0, v1],
  ];
  const near = 1e-12 * (B[d][1] - B[d][0]);
  let dep = poly.map((p) => {
    const z = p[0] * coef[0] + p[1] * coef[1] + cst;
    if (Math.abs(z - B[d][0]) <= near) return B[d][0];
    return Math.abs(z - B[d][1]) <= near ? B[d][1] : z;
  });
  for (const [bound, below] of [
    [B[d][1], true],
    [B[d][0], false],
  ]) {
    if (!poly.length) break;
    [poly, dep] = clipHalfplane(poly, dep, bound, below);
  }
  if (poly.length < 3) return [];
  let P = poly.map((p, j) => {
    const q = [0, 0, 0];
    [q[u], q[v], q[d]] = [p[0], p[1], Math.min(Math.max(dep[j], B[d][0]), B[d][1])];
    return q;
  });
  const longest = Math.max(...B.map((r) => r[1] - r[0]));
  const tol = 1e-12 * longest;
  const gap = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  P = P.filter((p, j) => gap(p, P[(j - 1 + P.length) % P.length]) > tol);
  if (P.length < 3) return [];
  const sub = (p, q) => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
  let most = 0;
  for (let j = 1; j < P.length - 1; j++) {
    const [e1, e2] = [sub(P[j], P[0]), sub(P[j + 1], P[0])];
    most = Math.max(
      most,
      Math.hypot(e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]),
    );
  }
  return most <= tol * longest ? [] : P;
}

/**
 * The bowl's wire mesh cut to the box (`lift_view.bowl_mesh`): rings, then spokes.
 * @param {number[][]} B
 * @returns {number[][][]}
 */
export function bowlMesh(B, rings = 6, spokes = 24, samples = 96) {
  if (B[2][1] <= 0) return [];
  const [rLo, rHi] = [Math.sqrt(Math.max(B[2][0], 0)), Math.sqrt(B[2][1])];
  const mesh = [];
  for (const r of evenSteps(rLo, rHi, rings + 2).slice(1, -1)) {
    const ring = (a) => [r * Math.cos(a), r * Math.sin(a), r * r];
    mesh.push(...sectionPieces(ring, evenSteps(0, 2 * Math.PI, samples + 1), B));
  }
  for (const a of evenSteps(0, 2 * Math.PI, spokes, false)) {
    const spoke = (s) => [s * Math.cos(a), s * Math.sin(a), s * s];
    mesh.push(...sectionPieces(spoke, evenSteps(rLo, rHi, Math.max(Math.floor(samples / 4), 2)), B));
  }
  return mesh;
}

/** The last box's mesh, rounded to 1e-6 as Python rounds it: the page's own run and the library's after an edit,
 * and every edit inside the points' box, share one box (the mesh is read, never changed). */
let lastMesh = { box: null, mesh: null };

/**
 * `bowlMesh(B)` with each coordinate rounded to 1e-6 (`LiftedPanel.front`), made once per box.
 * @param {number[][]} B
 * @returns {number[][][]}
 */
export function roundedMesh(B) {
  const same = lastMesh.box?.every((row, j) => Object.is(row[0], B[j][0]) && Object.is(row[1], B[j][1]));
  if (!same) {
    const round = (v) => Math.round(v * 1e6) / 1e6;
    lastMesh = { box: B.map((row) => row.slice()), mesh: bowlMesh(B).map((p) => p.map((q) => q.map(round))) };
  }
  return lastMesh.mesh;
}

/** `LiftedPanel._words`: the lifted picture at step k in one sentence. */
function liftedWords(w, b, k, n, inView, wrong) {
  const head = `The ${n} lifted points on the bowl z = x₁² + x₂²`;
  const where = k === 0 ? "at the start" : `after update ${k}`;
  if (w.every((v) => v === 0)) return `${head}; w = 0 ${where}: no plane.`;
  const plane = `${head} and the plane ${where}, w = (${w.map((v) => pyG(v, 3)).join(", ")}), b = ${pyG(b, 3)}`;
  const curve = circleFromPlane(w, b);
  let meets = "it stands upright (w₃ = 0) and cuts the bowl above a line";
  if (curve.kind === "circle") {
    const c = curve.center.map((v) => v.toFixed(2)).join(", ");
    meets = `it cuts the bowl above the circle of radius ${curve.radius.toFixed(2)} about (${c})`;
  } else if (curve.kind === "point") meets = "it touches the bowl at one point";
  else if (curve.kind === "empty") meets = `it misses the bowl: every point gets ${w[2] > 0 ? "+1" : "−1"}`;
  return `${plane}: ${meets}${inView ? "" : ", outside the view's box"}; mistakes now: ${wrong} of ${n}.`;
}

/**
 * `LiftedPanel.front` for a run the browser fitted on lifted points Z (x1, x2, x1² + x2²).
 * @param {object} run `fitPerceptron`'s result (w of length 3)
 * @param {number[][]} Z
 * @param {number[]} _y the labels (the run spec's: the view reads them there)
 * @param {object} recipe `LiftedPanel.browser()`: title, view, aspect, size_px by preset, colors, plane_alpha
 * @param {object} style the preset's style (the run trait's)
 * @param {number[][]} wrong the examples each state gets wrong (the run spec's `mistakes`)
 * @param {(n: number, make: (k: number) => any) => any[]} [lazySteps] how the per-step lists are made (runspec.js
 *   passes its `lazySteps`: each step when first shown; the default makes every step now)
 * @returns {object}
 */
export function liftedSpec(
  run,
  Z,
  _y,
  recipe,
  style,
  wrong,
  lazySteps = (n, make) => Array.from({ length: n }, (_, k) => make(k)),
) {
  const h = run.history;
  const round = (v) => Math.round(v * 1e6) / 1e6;
  const box = viewBox(Z);
  // per step, made when the step is first shown (`lazySteps`): an edit of many updates costs one step's geometry
  const planes = lazySteps(h.w.length, (k) => planePolygon(h.w[k], h.b[k], box));
  return {
    kind: "lifted",
    K: h.w.length - 1,
    title: recipe.title,
    view: recipe.view,
    aspect: recipe.aspect,
    box,
    points: Z,
    bowl: roundedMesh(box),
    planes,
    sections: lazySteps(h.w.length, (k) => bowlSection(h.w[k], h.b[k], box).map((p) => p.map((q) => q.map(round)))),
    alt: lazySteps(h.w.length, (k) => liftedWords(h.w[k], h.b[k], k, Z.length, planes[k].length > 0, wrong[k].length)),
    size_px: recipe.size_px[style.legend_size > 12 ? "lecture" : "notebook"],
    colors: recipe.colors,
    plane_alpha: recipe.plane_alpha,
  };
}
