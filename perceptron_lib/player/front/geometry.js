/**
 * The geometry of the data panel in the plane: the view transform, the boundary clipped to the view, where
 * the arrows of a step go and at what scale, the axis ticks, and the panel's notes. Pure functions of
 * numbers: no DOM. These follow `perceptron_lib.player.panels.data.DataPanel` and
 * `perceptron_lib.draw.plotting.boundary_segment` rule for rule, so the browser's picture is the kernel's.
 *
 * A view is `{xlim: [x0, x1], ylim: [y0, y1]}` in data units; a point is `[x1, x2]`.
 */

/** Candidate anchors of the w arrow along the visible boundary, as fractions of its segment (`data._ALONG`). */
export const ALONG = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9, 0.02, 0.98];

/**
 * The next number of `name` in this page (for element ids), shared by every copy of these modules: anywidget
 * evaluates each widget's module apart, and a count per copy gave two widgets of one page the same ids.
 * @param {string} name
 * @returns {number}
 */
export function pageNumber(name) {
  const key = Symbol.for(`perceptron_lib.${name}`);
  globalThis[key] = (globalThis[key] ?? 0) + 1;
  return globalThis[key];
}

/** The keys a presenter's remote sends, which no picture uses: they go on to the page (a deck, JupyterLab's live one). */
const REMOTE_KEYS = new Set(["PageUp", "PageDown"]);

/**
 * Keep a focused picture's plain keys in it: a key without Ctrl, Meta or Alt pressed there goes no further up the
 * page than `node` (Tab and Escape excepted), so a page's one-key shortcuts never act behind it (JupyterLab's command
 * mode: "d d" deletes the cell, "b" adds one). The page listens in the bubble phase (JupyterLab starts with
 * `bubblingKeydown`), after `node`. A key with a modifier (Ctrl+S saves) goes on. In a reveal.js deck, which has no
 * one-key cell commands, a picture's keys it did not use itself (its player takes its own keys before they get here)
 * go on to the deck: S or F still work after a click on the picture. A remote's Page Down and Page Up go on anywhere
 * (JupyterLab's live deck binds them too). A slider's keys do not: its arrows and Page Up/Down move it, and must not
 * turn the slide as well.
 * @param {Element} node
 */
export function keepPlainKeys(node) {
  node.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key === "Tab" || event.key === "Escape") return;
    if (node.tagName !== "INPUT" && (REMOTE_KEYS.has(event.key) || node.closest(".reveal"))) return;
    event.stopPropagation();
  });
}

/** Keys that move a page or a deck (a presenter's remote sends them), which a button or a summary does not use. */
const PAGE_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"]);

/**
 * Keep the plain keys of a widget's own controls in the widget (`el`, its element). JupyterLab's command mode takes a
 * key whose target is not a text box: ArrowDown on a focused slider or select went to the next cell (the control
 * never moved), Enter on a focused button opened a cell's editor, "b" added a cell. A slider's, a select's, a box's
 * keys stay in the widget; a button's or a summary's too, except the keys that move a page (a remote's), which it
 * does not use. Tab, Escape and keys with Ctrl, Meta or Alt go on, and in a reveal.js deck every key does (the
 * deck's `keyboardCondition` decides there).
 * @param {Element} el
 */
export function keepControlKeys(el) {
  el.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key === "Tab" || event.key === "Escape") return;
    const target = event.target;
    if (!target.matches?.("input, select, textarea, button, summary") || el.closest(".reveal")) return;
    if (target.matches("button, summary") && PAGE_KEYS.has(event.key)) return;
    event.stopPropagation();
  });
}

/**
 * A number as a person writes it (`readout.num`): 2 not 2.0, else 4 significant digits (Python's "{:.4g}"). Its one
 * use is an arrow scale's whole m of "1/m" (`fraction`): on an exact tie of a non-integer (4.0625) toFixed rounds half
 * up where Python rounds half to even, so a readout's numbers go through `words.js` `readoutNum` instead.
 * @param {number} v
 * @returns {string}
 */
export function num(v) {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e12) return String(v === 0 ? 0 : v);
  const [mantissa, e] = v.toExponential(3).split("e");
  const exp = Number(e);
  if (exp < -4 || exp >= 4)
    return `${trimZeros(mantissa)}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return trimZeros(v.toFixed(3 - exp));
}

/**
 * "1.500" as "1.5", "2.000" as "2" (what Python's "g" format drops).
 * @param {string} text
 * @returns {string}
 */
function trimZeros(text) {
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/**
 * The largest 1/m <= x with m in 1, 2, 5, 10, 20, 50, ... (1 for x >= 1) (`data._nice_scale`).
 * @param {number} x
 * @returns {number}
 */
export function niceScale(x) {
  const factors = [2.0, 2.5, 2.0];
  let m = 1.0;
  let i = 0;
  while (1.0 / m > x && m < 1e15) {
    m *= factors[i % 3];
    i += 1;
  }
  return 1.0 / m;
}

/**
 * An arrow scale as the panel's note writes it: "2", or "1/10".
 * @param {number} scale
 * @returns {string}
 */
export function fraction(scale) {
  return scale >= 1 ? num(scale) : `1/${num(Math.round(1 / scale))}`;
}

/**
 * The part of the line <w, x> + b = 0 inside the view, or null (w = 0, or the line misses the view).
 * @param {number[]} w
 * @param {number} b
 * @param {{xlim: number[], ylim: number[]}} view
 * @returns {number[][] | null} two points
 */
export function boundarySegment(w, b, view) {
  const nn = w[0] * w[0] + w[1] * w[1];
  if (!Number.isFinite(nn) || nn === 0 || !Number.isFinite(b)) return null;
  const p0 = [(-b * w[0]) / nn, (-b * w[1]) / nn];
  const len = Math.sqrt(nn);
  const d = [-w[1] / len, w[0] / len];
  let t0 = Number.NEGATIVE_INFINITY;
  let t1 = Number.POSITIVE_INFINITY;
  const boxes = [view.xlim, view.ylim];
  for (let axis = 0; axis < 2; axis++) {
    const lo = Math.min(...boxes[axis]);
    const hi = Math.max(...boxes[axis]);
    if (Math.abs(d[axis]) < 1e-15) {
      if (!(lo <= p0[axis] && p0[axis] <= hi)) return null;
      continue;
    }
    const ta = (lo - p0[axis]) / d[axis];
    const tb = (hi - p0[axis]) / d[axis];
    t0 = Math.max(t0, Math.min(ta, tb));
    t1 = Math.min(t1, Math.max(ta, tb));
  }
  if (!(t0 < t1)) return null;
  return [
    [p0[0] + t0 * d[0], p0[1] + t0 * d[1]],
    [p0[0] + t1 * d[0], p0[1] + t1 * d[1]],
  ];
}

/**
 * True when p lies in the view shrunk by `margin` (a fraction of its spans) on every side (`DataPanel._inside`).
 * @param {number[]} p
 * @param {{xlim: number[], ylim: number[]}} view
 * @param {number} margin
 * @returns {boolean}
 */
export function inside(p, view, margin = 0) {
  const [x0, x1] = view.xlim;
  const [y0, y1] = view.ylim;
  const mx = margin * (x1 - x0);
  const my = margin * (y1 - y0);
  return x0 + mx <= p[0] && p[0] <= x1 - mx && y0 + my <= p[1] && p[1] <= y1 - my;
}

/**
 * Where the w arrow may start, best first (`DataPanel.anchors`): the boundary's point nearest the origin,
 * then points along the visible boundary; when the boundary misses the view, the origin or the view's centre.
 * @param {number[]} w
 * @param {number} b
 * @param {{xlim: number[], ylim: number[]}} view
 * @returns {number[][]}
 */
export function anchors(w, b, view) {
  const nn = w[0] * w[0] + w[1] * w[1];
  const a = nn === 0 || !Number.isFinite(nn) || b === 0 ? [0, 0] : [(-b * w[0]) / nn, (-b * w[1]) / nn];
  const seg = boundarySegment(w, b, view);
  if (seg === null) {
    const centre = [(view.xlim[0] + view.xlim[1]) / 2, (view.ylim[0] + view.ylim[1]) / 2];
    return [inside([0, 0], view) ? [0, 0] : centre];
  }
  const along = ALONG.map((t) => [seg[0][0] + t * (seg[1][0] - seg[0][0]), seg[0][1] + t * (seg[1][1] - seg[0][1])]);
  return inside(a, view) ? [a, ...along] : along;
}

/**
 * The arrows' anchor and scale for a step (`DataPanel.place`): every tip inside the view.
 *
 * The scale starts at 1, or at the nice 1/m that fits the longest of w and w before in 40% of the view's
 * shorter side; each anchor is tried, then smaller nice scales down to MIN_ARROW_SCALE of it, then `freeAnchor`.
 * @param {number[]} w the state's w
 * @param {number} b
 * @param {number[] | null} wBefore the state before (null at the start)
 * @param {{xlim: number[], ylim: number[]}} view
 * @returns {{anchor: number[], scale: number}}
 */
export function placeArrows(w, b, wBefore, view) {
  const room = 0.4 * Math.min(view.xlim[1] - view.xlim[0], view.ylim[1] - view.ylim[0]);
  const tips = wBefore === null ? [w] : [w, wBefore];
  const longest = Math.max(...tips.map((t) => Math.hypot(t[0], t[1])));
  const start = longest > room ? niceScale(room / longest) : 1.0;
  let scale = start;
  const starts = anchors(w, b, view);
  while (scale >= MIN_ARROW_SCALE * start) {
    for (const a of starts) {
      if (tips.every((t) => inside([a[0] + scale * t[0], a[1] + scale * t[1]], view, 0.01))) {
        return { anchor: a, scale };
      }
    }
    scale = niceScale(scale * 0.99);
  }
  return freeAnchor(tips, start, view);
}

/** The smallest arrow scale tried on the boundary, as a fraction of the step's own (`data.MIN_ARROW_SCALE`). */
export const MIN_ARROW_SCALE = 1 / 50;

/**
 * Where no anchor on the boundary keeps the arrows in view (`DataPanel._free_anchor`): of the view's centre and
 * the corners of its box 1% in from the edges, the anchor where the tips fit at the largest nice scale (at most
 * `start`); the first such anchor on a tie.
 * @param {number[][]} tips
 * @param {number} start
 * @param {{xlim: number[], ylim: number[]}} view
 * @returns {{anchor: number[], scale: number}}
 */
function freeAnchor(tips, start, view) {
  const mx = 0.01 * (view.xlim[1] - view.xlim[0]);
  const my = 0.01 * (view.ylim[1] - view.ylim[0]);
  const lo = [view.xlim[0] + mx, view.ylim[0] + my];
  const hi = [view.xlim[1] - mx, view.ylim[1] - my];
  const candidates = [[(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2], lo, [hi[0], lo[1]], [lo[0], hi[1]], hi];
  let best = null;
  for (const a of candidates) {
    const room = Math.min(start, ...tips.map((t) => roomAlong(a, t, lo, hi)));
    const scale = room < start ? niceScale(room) : start;
    if (best === null || scale > best.scale) best = { anchor: a, scale };
  }
  return best;
}

/**
 * The largest s with lo <= a + s t <= hi on both axes (Infinity for t = 0).
 * @param {number[]} a
 * @param {number[]} t
 * @param {number[]} lo
 * @param {number[]} hi
 * @returns {number}
 */
function roomAlong(a, t, lo, hi) {
  let room = Number.POSITIVE_INFINITY;
  for (let j = 0; j < 2; j++) {
    if (t[j] !== 0) room = Math.min(room, ((t[j] > 0 ? hi[j] : lo[j]) - a[j]) / t[j]);
  }
  return room;
}

/**
 * The panel's notes at a step (`DataPanel.update`): the arrow scale when not 1, and why no boundary shows.
 * @param {number[]} w
 * @param {number} scale
 * @param {number[][] | null} segment the visible boundary
 * @returns {string[]}
 */
export function notes(w, scale, segment) {
  const out = scale === 1 ? [] : [`arrows ×${fraction(scale)}`];
  const zero = w[0] === 0 && w[1] === 0;
  if (zero) out.push("w = 0: no boundary yet");
  else if (segment === null) out.push("boundary outside the view");
  return out;
}

/**
 * The map from data to the picture's pixels: equal units on both axes (matplotlib's equal aspect with an
 * adjustable box), the view filling `size` pixels on its longer side.
 * @param {{xlim: number[], ylim: number[]}} view
 * @param {number} size the longest side of the plot area, CSS px
 * @returns {{unit: number, width: number, height: number, x: (v: number) => number, y: (v: number) => number}}
 */
export function transform(view, size) {
  const [x0, x1] = view.xlim;
  const [y0, y1] = view.ylim;
  const unit = size / Math.max(x1 - x0, y1 - y0);
  return {
    unit,
    width: (x1 - x0) * unit,
    height: (y1 - y0) * unit,
    x: (v) => (v - x0) * unit,
    y: (v) => (y1 - v) * unit,
  };
}

/**
 * Tick values on [lo, hi]: multiples of 1, 2, 2.5 or 5 times a power of ten, at most `most` of them.
 * @param {number} lo
 * @param {number} hi
 * @param {number} most
 * @returns {{values: number[], decimals: number}}
 */
export function ticks(lo, hi, most = 7) {
  const raw = (hi - lo) / Math.max(1, most - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => (hi - lo) / s <= most - 1) ?? 10 * power;
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (Math.abs(step / power - 2.5) < 1e-9 ? 1 : 0));
  const values = [];
  for (let j = Math.ceil(lo / step - 1e-9); j * step <= hi + 1e-9 * step; j++) {
    values.push(Number((j * step).toFixed(decimals)));
  }
  return { values, decimals };
}

/**
 * `ticks` with at least `least` ticks where a finer step gives them (a wide step on a short axis can leave one tick
 * only, a lone "0" under big lecture text); more than `most` only then, 9 at the most.
 * @param {number} lo
 * @param {number} hi
 * @param {number} most
 * @param {number} least
 * @returns {{values: number[], decimals: number}}
 */
export function ticksAtLeast(lo, hi, most, least = 3) {
  let t = ticks(lo, hi, most);
  for (let m = most + 1; t.values.length < least && m <= 9; m++) t = ticks(lo, hi, m);
  return t;
}

/**
 * A tick label: fixed decimals, with the minus sign that typesetting uses (U+2212), as matplotlib writes it.
 * @param {number} v
 * @param {number} decimals
 * @returns {string}
 */
export function tickLabel(v, decimals) {
  const text = (v === 0 ? 0 : v).toFixed(decimals);
  return text.startsWith("-") ? `−${text.slice(1)}` : text;
}
