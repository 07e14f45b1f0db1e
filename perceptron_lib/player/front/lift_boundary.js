/**
 * The boundary of a run on lifted points in the plane of the data, for a run the browser fitted itself (an editor of
 * lesson 05 with no kernel, or between an edit and Python's run): `core.lift_view.bowl_section`,
 * `boundary_in_view` and `boundary_note`, and `kernels.circle_from_plane`, ported line for line (the
 * same samples and the same bisection, so the same polylines up to rounding; held equal by a Chromium test).
 */

/**
 * The plane <w, p> + b = 0 read back in the plane of the data (`kernels.circle_from_plane`).
 * @param {number[]} w length 3, not all zero
 * @param {number} b
 * @returns {{kind: string, center?: number[], radius?: number}} kind "circle", "point", "empty", "line" or
 *   "overflow" (w3 so small that the curve is a line to machine precision: Python raises, its callers draw it so)
 */
export function circleFromPlane(w, b) {
  const [w1, w2, w3] = w;
  if (w3 === 0) return { kind: "line" };
  const center = [-w1 / (2 * w3) + 0, -w2 / (2 * w3) + 0];
  const r2 = center[0] * center[0] + center[1] * center[1] - b / w3;
  if (!(Number.isFinite(center[0]) && Number.isFinite(center[1]) && Number.isFinite(r2))) return { kind: "overflow" };
  if (r2 < 0) return { kind: "empty", center };
  if (r2 === 0) return { kind: "point", center, radius: 0 };
  return { kind: "circle", center, radius: Math.sqrt(r2) };
}

const inBox = (p, B) => p.every((v, j) => v >= B[j][0] && v <= B[j][1]);

function sectionEdge(curve, tIn, tOut, B) {
  let [a, b] = [tIn, tOut];
  for (let n = 0; n < 60; n++) {
    const mid = (a + b) / 2;
    if (inBox(curve(mid), B)) a = mid;
    else b = mid;
  }
  return a;
}

/**
 * The pieces of the curve `curve(t)` (rows (x, y, z)) inside the box, sampled at `t`, each cut where it leaves the
 * box at the crossing on the curve (`lift_view._pieces_in_box`; the bowl's mesh is cut by it too).
 * @param {(t: number) => number[]} curve
 * @param {number[]} t
 * @param {number[][]} B
 * @returns {number[][][]}
 */
export function sectionPieces(curve, t, B) {
  const ins = t.map((v) => inBox(curve(v), B));
  const pieces = [];
  let cur = [];
  for (let j = 0; j < t.length; j++) {
    if (ins[j]) {
      if (!cur.length && j > 0) cur.push(sectionEdge(curve, t[j], t[j - 1], B));
      cur.push(t[j]);
    } else if (cur.length) {
      cur.push(sectionEdge(curve, t[j - 1], t[j], B));
      pieces.push(cur);
      cur = [];
    }
  }
  if (cur.length) pieces.push(cur);
  return pieces.filter((p) => p.length >= 2).map((p) => p.map(curve));
}

/**
 * numpy's linspace(a, b, n, endpoint): the same numbers (a + j * step, the last one b with the endpoint).
 * @param {number} a
 * @param {number} b
 * @param {number} n
 * @param {boolean} [endpoint]
 * @returns {number[]}
 */
export function evenSteps(a, b, n, endpoint = true) {
  const step = (b - a) / (endpoint ? n - 1 : n);
  return Array.from({ length: n }, (_, j) => (endpoint && j === n - 1 ? b : a + j * step));
}

const onBowl = (x, y) => [x, y, x * x + y * y];

/**
 * Where the plane <w, p> + b = 0 meets the bowl inside the box (`lift_view.bowl_section`).
 * @param {number[]} w length 3
 * @param {number} b
 * @param {number[][]} B three (low, high) pairs
 * @param {number} [samples]
 * @returns {number[][][]} polylines of rows (x1, x2, z)
 */
export function bowlSection(w, b, B, samples = 64) {
  if (w.every((v) => v === 0) || !w.every(Number.isFinite) || !Number.isFinite(b)) return [];
  const curve = circleFromPlane(w, b);
  if (curve.kind === "circle") {
    const [c, r] = [curve.center, curve.radius];
    const on = (t) => onBowl(c[0] + r * Math.cos(t), c[1] + r * Math.sin(t));
    const corners = [0, 1].flatMap((i) => [0, 1].map((j) => [B[0][i], B[1][j]]));
    let t;
    if (c[0] >= B[0][0] && c[0] <= B[0][1] && c[1] >= B[1][0] && c[1] <= B[1][1]) {
      t = evenSteps(0, 2 * Math.PI, samples + 1);
    } else {
      const mean = [0, 1].map((j) => corners.reduce((s, p) => s + p[j], 0) / 4);
      const mid = Math.atan2(mean[1] - c[1], mean[0] - c[0]);
      const mod = (v, m) => {
        const r = v % m; // numpy's mod: fmod, then the divisor's sign
        return r < 0 ? r + m : r;
      };
      const turn = corners.map((p) => mod(Math.atan2(p[1] - c[1], p[0] - c[0]) - mid + Math.PI, 2 * Math.PI) - Math.PI);
      t = evenSteps(mid + Math.min(...turn), mid + Math.max(...turn), samples + 1);
    }
    return sectionPieces(on, t, B);
  }
  if (curve.kind === "line" || curve.kind === "overflow") {
    if (curve.kind === "overflow") return []; // Python's circle_from_plane raises here: its callers draw nothing
    const size = Math.hypot(w[0], w[1]);
    const n = [w[0] / size, w[1] / size];
    const p0 = [(-b / size) * n[0], (-b / size) * n[1]];
    const d = [-n[1], n[0]];
    const centre = [(B[0][0] + B[0][1]) / 2, (B[1][0] + B[1][1]) / 2];
    const reach = Math.hypot(B[0][1] - B[0][0], B[1][1] - B[1][0]);
    const along = (centre[0] - p0[0]) * d[0] + (centre[1] - p0[1]) * d[1];
    const on = (t) => onBowl(p0[0] + t * d[0], p0[1] + t * d[1]);
    return sectionPieces(on, evenSteps(along - reach, along + reach, samples + 1), B);
  }
  return [];
}

/**
 * A lifted state's boundary in the plane of the data, cut to the view (`lift_view.boundary_in_view`).
 * @param {number[]} w
 * @param {number} b
 * @param {number[]} xlim
 * @param {number[]} ylim
 * @param {number} [samples]
 * @returns {number[][][]} polylines of rows (x1, x2)
 */
export function boundaryInView(w, b, xlim, ylim, samples = 96) {
  let top = Number.NEGATIVE_INFINITY;
  for (const x of xlim) for (const y of ylim) top = Math.max(top, x * x + y * y);
  const sort = (l) => [Math.min(...l), Math.max(...l)];
  const B = [sort(xlim), sort(ylim), [-1, top * (1 + 1e-9) + 1]];
  return bowlSection(w, b, B, samples).map((piece) => piece.map((p) => [p[0], p[1]]));
}

/**
 * The data panel's note on a lifted state's boundary in the view (`lift_view.boundary_note`), or "".
 * @param {number[]} w
 * @param {number} b
 * @param {number[]} xlim
 * @param {number[]} ylim
 * @param {boolean} start
 * @returns {string}
 */
export function boundaryNote(w, b, xlim, ylim, start = false) {
  if (w.every((v) => v === 0)) return `w = 0: no boundary${start ? " yet" : ""}`;
  const curve = circleFromPlane(w, b);
  if (curve.kind === "empty") return `no circle: every point gets ${w[2] > 0 ? "+1" : "−1"}`;
  if (!boundaryInView(w, b, xlim, ylim).length) return "boundary outside the view";
  if (curve.kind === "circle") {
    const [x0, x1] = [Math.min(...xlim), Math.max(...xlim)];
    const [y0, y1] = [Math.min(...ylim), Math.max(...ylim)];
    const [[cx, cy], r] = [curve.center, curve.radius];
    if (!(x0 <= cx - r && cx + r <= x1 && y0 <= cy - r && cy + r <= y1)) return "boundary partly outside the view";
  }
  return "";
}
