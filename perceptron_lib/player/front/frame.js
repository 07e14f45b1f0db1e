/**
 * Step k of the data panel drawn in SVG, into the groups `buildScene` (`scene.js`) left empty: the crosses of the
 * mistakes, the boundary now and before, the arrows of w and of the update, the rings, the caption and the note.
 *
 * `drawFrame(scene, k)` empties the frame's groups first, so frame k is a pure function of k: the same markup
 * whatever was shown before. Sizes in the run are in points, as matplotlib's, drawn at `PT` CSS px per point.
 */

import { boundarySegment, notes, placeArrows } from "./geometry.js";
import { CAPTION_LEADING, fmt, PT, svgEl } from "./scene.js";

/**
 * The x of a caption line centred over the plot, moved only as far as it must so that the line stays in the
 * picture (a narrow view's plot, such as lesson 02's, has more margin on its left than on its right): centred on
 * the picture where it is wider than the plot's room. Its width is the drawn text's where the browser has laid it
 * out, else DejaVu Sans's wide average (0.62 em a character), so a line is never cut.
 * @param {SVGTSpanElement} span the line, with its text
 * @param {{left: number, right: number, px: number}} room
 * @param {number} centre the plot's middle
 * @returns {number}
 */
function captionX(span, room, centre) {
  const drawn = typeof span.getComputedTextLength === "function" ? span.getComputedTextLength() : 0;
  const half = (drawn > 0 ? drawn : span.textContent.length * 0.62 * room.px) / 2 + 2;
  const lo = room.left + half;
  const hi = room.right - half;
  return lo > hi ? (room.left + room.right) / 2 : Math.min(Math.max(centre, lo), hi);
}

/**
 * An arrow from `a` to `e` (pixels): a shaft and a filled head whose first point is the tip.
 * The head is `arrow_head` points long at most, and at most 60% of the arrow (`arrows.ArrowArtist`).
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {number[]} a
 * @param {number[]} e
 * @param {{cls: string, color: string, width: number, head: number}} look widths in points
 */
function arrow(doc, g, a, e, look) {
  const length = Math.hypot(e[0] - a[0], e[1] - a[1]);
  if (!(length > 0) || !Number.isFinite(length)) return;
  const scale = Math.max(2, Math.min(look.head, (0.6 * length) / PT)) * PT; // matplotlib's mutation scale
  const lw = look.width * PT;
  const back = 0.4 * scale + lw;
  const half = 0.2 * scale + lw / 2;
  const u = [(e[0] - a[0]) / length, (e[1] - a[1]) / length];
  const base = [e[0] - u[0] * back, e[1] - u[1] * back];
  const group = svgEl(doc, "g", { class: `pp-arrow ${look.cls}` }, g);
  svgEl(
    doc,
    "line",
    {
      x1: fmt(a[0]),
      y1: fmt(a[1]),
      x2: fmt(base[0] + u[0] * 0.5),
      y2: fmt(base[1] + u[1] * 0.5),
      stroke: look.color,
      "stroke-width": fmt(lw),
      "stroke-linecap": "round",
    },
    group,
  );
  const left = [base[0] - u[1] * half, base[1] + u[0] * half];
  const right = [base[0] + u[1] * half, base[1] - u[0] * half];
  svgEl(
    doc,
    "polygon",
    { points: [e, left, right].map((p) => `${fmt(p[0])},${fmt(p[1])}`).join(" "), fill: look.color },
    group,
  );
}

/**
 * A boundary inside the view: the line <w, x> + b = 0 (`seg`, two points, or null: w = 0 or it misses the view),
 * or for lifted points a list of polylines (a circle or a line cut to the view, from Python's `curves`).
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {number[][] | number[][][] | null} seg
 * @param {ReturnType<typeof transform>} tf
 * @param {Record<string, string>} attrs
 */
function boundary(doc, g, seg, tf, attrs) {
  if (seg === null || seg.length === 0) return;
  const at = (p) => `${fmt(tf.x(p[0]))},${fmt(tf.y(p[1]))}`;
  if (Array.isArray(seg[0][0])) {
    const d = seg.map((piece) => piece.map((p, j) => `${j ? "L" : "M"}${at(p)}`).join("")).join("");
    svgEl(doc, "path", { d, fill: "none", ...attrs }, g);
    return;
  }
  const [x1, y1, x2, y2] = [tf.x(seg[0][0]), tf.y(seg[0][1]), tf.x(seg[1][0]), tf.y(seg[1][1])].map(fmt);
  svgEl(doc, "line", { x1, y1, x2, y2, ...attrs }, g);
}

/**
 * More crosses than this at one step are drawn thin and grey (`drawMistakes`): at w = 0 every point is a mistake,
 * and 40-60 thick black crosses hid the classes' markers in a tangle (lesson 05's editor in a lecture deck).
 */
export const CROWDED_CROSSES = 12;

/**
 * The crosses over the points that fail the run's mistake test at step k (under the points, which show through):
 * every mistake keeps its cross, but where more than `CROWDED_CROSSES` are marked they are thin and grey, so that
 * the classes' markers stay easy to tell apart.
 * @param {Document} doc
 * @param {object} scene
 * @param {number} k
 */
function drawMistakes(doc, scene, k) {
  const { spec, tf, under } = scene;
  const s = spec.style;
  const h = (Math.sqrt(s.mistake_size) * PT) / 2;
  const crowded = spec.mistakes[k].length > CROWDED_CROSSES;
  // crowded: grey, 3.9:1 on white (a mark needs 3:1), 2 px at most (the lecture preset's are 3.5 px)
  const look = crowded
    ? { stroke: "#808080", "stroke-width": fmt(Math.min(2, s.mistake_width * PT)) }
    : { stroke: s.colors.mistake, "stroke-width": fmt(s.mistake_width * PT) };
  for (const i of spec.mistakes[k]) {
    const x = tf.x(spec.X[i][0]);
    const y = tf.y(spec.X[i][1]);
    svgEl(
      doc,
      "path",
      {
        class: crowded ? "pp-cross pp-crowded" : "pp-cross",
        "data-i": i,
        d: `M${fmt(x - h)},${fmt(y - h)}L${fmt(x + h)},${fmt(y + h)}M${fmt(x - h)},${fmt(y + h)}L${fmt(x + h)},${fmt(y - h)}`,
        ...look,
      },
      under,
    );
  }
}

/**
 * The arrows of step k: w from the anchor, and after an update w before (grey) with eta*y*x (purple) from its tip.
 * @param {Document} doc
 * @param {object} scene
 * @param {number} k
 * @returns {number} the arrows' scale
 */
function drawArrows(doc, scene, k) {
  const { spec, tf, over } = scene;
  const s = spec.style;
  const w = spec.w[k];
  const wp = k > 0 ? spec.w[k - 1] : null;
  const { anchor, scale } = placeArrows(w, spec.b[k], wp, spec.view);
  const px = (v) => [tf.x(anchor[0] + scale * v[0]), tf.y(anchor[1] + scale * v[1])];
  const a = px([0, 0]);
  const full = { width: s.arrow_width, head: s.arrow_head };
  if (wp !== null) {
    arrow(doc, over, a, px(wp), { cls: "pp-w-before", color: s.colors.prev, width: s.thin_width, head: s.arrow_head });
    arrow(doc, over, px(wp), px(w), { cls: "pp-update", color: s.colors.update, ...full });
  }
  arrow(doc, over, a, px(w), { cls: "pp-w", color: s.colors.w, ...full });
  return scale;
}

/**
 * The caption over the panel at step k (`DataPanel.update`): "start (k = 0 of K)" or "update k of K: example i, y = +1".
 * @param {object} spec
 * @param {number} k
 * @returns {string[]} its lines
 */
export function caption(spec, k) {
  const i = spec.i[k];
  if (k === 0) return [`start (k = 0 of ${spec.K})`];
  const head = `update ${k} of ${spec.K}:`;
  if (i >= 0) return [head, `example ${i}, y = ${spec.y[i] > 0 ? "+1" : "-1"}`];
  const n = spec.ring[k].length;
  return [head, `${n} example${n === 1 ? "" : "s"}`];
}

/**
 * Draw step k: the groups of a frame are emptied, then filled from the run's numbers at k only.
 * @param {object} scene from `buildScene`
 * @param {number} k 0..K
 */
export function drawFrame(scene, k) {
  const doc = scene.svg.ownerDocument;
  const { spec, tf, over, under } = scene;
  const s = spec.style;
  under.replaceChildren();
  over.replaceChildren();
  drawMistakes(doc, scene, k);
  const dash = `${fmt(4 * s.thin_width * PT)} ${fmt(3 * s.thin_width * PT)}`;
  const lifted = spec.mode === "lifted"; // Python's circles (or lines) in the view, no arrows, Python's notes
  const line = (j) => (lifted ? spec.curves[j] : boundarySegment(spec.w[j], spec.b[j], spec.view));
  if (k > 0) {
    boundary(doc, over, line(k - 1), tf, {
      class: "pp-boundary-before",
      stroke: s.colors.prev,
      "stroke-width": fmt(s.thin_width * PT),
      "stroke-dasharray": dash,
    });
  }
  const seg = line(k);
  boundary(doc, over, seg, tf, {
    class: "pp-boundary",
    stroke: s.colors.boundary,
    "stroke-width": fmt(s.line_width * PT),
  });
  const scale = lifted ? 1 : drawArrows(doc, scene, k);
  const r = (Math.sqrt(s.ring_size) * PT) / 2;
  for (const i of spec.ring[k]) {
    svgEl(
      doc,
      "circle",
      {
        class: "pp-ring",
        "data-i": i,
        cx: fmt(tf.x(spec.X[i][0])),
        cy: fmt(tf.y(spec.X[i][1])),
        r: fmt(r),
        fill: "none",
        stroke: s.colors.ring,
        "stroke-width": fmt(s.ring_width * PT),
      },
      over,
    );
  }
  const lines = caption(spec, k);
  const joined = scene.titleLines === 1 ? [lines.join(" ")] : lines;
  scene.caption.replaceChildren();
  joined.forEach((text, j) => {
    const span = svgEl(
      doc,
      "tspan",
      { x: scene.caption.getAttribute("x"), dy: j === 0 ? 0 : `${CAPTION_LEADING}em` },
      scene.caption,
    );
    span.textContent = text;
    span.setAttribute("x", fmt(captionX(span, scene.room, scene.tf.width / 2)));
  });
  scene.note.textContent = lifted ? spec.notes[k] : notes(spec.w[k], scale, seg).join("; ");
}
