/**
 * The geometry of lesson 05's lifted view (`lifted.js` draws with it): the projection that turns the box on the
 * screen, ported line for line from `perceptron_lib.core.lift_projection` (`view_axes`, `project`, `picture_size`), and
 * which side of a plane a point is on as the viewer sees it. Pure functions of numbers.
 */

/** Degrees a key press turns or tilts the view. */
export const TURN_STEP = 5;

/**
 * The screen's right, up and toward-the-viewer directions (`core.lift_projection.view_axes`), angles in degrees.
 * @param {number} elev
 * @param {number} azim
 * @returns {number[][]}
 */
export function viewAxes(elev, azim) {
  const e = (elev * Math.PI) / 180;
  const a = (azim * Math.PI) / 180;
  return [
    [-Math.sin(a), Math.cos(a), 0],
    [-Math.sin(e) * Math.cos(a), -Math.sin(e) * Math.sin(a), Math.cos(e)],
    [Math.cos(e) * Math.cos(a), Math.cos(e) * Math.sin(a), Math.sin(e)],
  ];
}

/**
 * The projection of a view (`core.lift_projection.project`): a point (x1, x2, z) to [right px, down px, depth], in a
 * picture `size` px tall and `pictureSize` wide.
 * @param {number[][]} box three [low, high]
 * @param {number[]} aspect the box's shape on the screen
 * @param {number} elev
 * @param {number} azim
 * @param {number} size the picture's height, px
 * @returns {(p: number[]) => number[]}
 */
export function projection(box, aspect, elev, azim, size) {
  const R = viewAxes(elev, azim);
  const mid = box.map(([lo, hi]) => (lo + hi) / 2);
  const per = box.map(([lo, hi], i) => aspect[i] / (hi - lo));
  const scale = size / Math.hypot(aspect[0], aspect[1], aspect[2]);
  const width = pictureSize(aspect, size)[0];
  return (p) => {
    const u = [0, 1, 2].map((i) => (p[i] - mid[i]) * per[i]);
    const s = R.map((r) => r[0] * u[0] + r[1] * u[1] + r[2] * u[2]);
    return [width / 2 + scale * s[0], size / 2 - scale * s[1], s[2]];
  };
}

/**
 * The picture the box fits at every angle (`core.lift_projection.picture_size`): [width, height], px.
 * @param {number[]} aspect
 * @param {number} size its height
 * @returns {number[]}
 */
export function pictureSize(aspect, size) {
  return [(size * Math.hypot(aspect[0], aspect[1])) / Math.hypot(aspect[0], aspect[1], aspect[2]), size];
}

/**
 * Which side of the plane <w, p> + b = 0 a point is on as seen from the viewer: true when the plane stands between
 * it and the viewer (drawn before the plane, seen through its tint). The view direction is taken into the data's
 * units (the box is shaped for the screen), so "between" is along the ray the projection follows.
 * @param {number[]} w
 * @param {number} b
 * @param {number[][]} box
 * @param {number[]} aspect
 * @param {number[]} toward the third row of `viewAxes`
 * @returns {(p: number[]) => boolean}
 */
export function behindPlane(w, b, box, aspect, toward) {
  const d = toward.map((t, i) => (t * (box[i][1] - box[i][0])) / aspect[i]);
  const facing = w[0] * d[0] + w[1] * d[1] + w[2] * d[2];
  return (p) => facing * (w[0] * p[0] + w[1] * p[1] + w[2] * p[2] + b) < 0;
}

/**
 * An angle in [-180, 180): the azimuth after any number of turns.
 * @param {number} a
 * @returns {number}
 */
export function wrapAngle(a) {
  return ((((a + 180) % 360) + 360) % 360) - 180;
}
