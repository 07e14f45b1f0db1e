/**
 * The pointer on the editor's picture: a click adds a point (shift-click: the other class), a press on a point then
 * a release selects it, a drag moves it, alt-click removes it. A press is on a point when it lands within the
 * point's marker and `HIT_SLACK_PX` more (a few pixels, whatever the panel's size).
 *
 * `pointerGestures(ed)` gives the handlers for the slot that holds the picture; `ed` is the editor's handle
 * (`editor.js`): its points, view, run and player, and what it can do (`add`, `remove`, `edit`, `say`, ...).
 */

import { movePoint } from "./edits.js";
import { markerPath, PT } from "./scene.js";
import { ownNum } from "./words.js";

/** A press within this many CSS px of a point's marker (beyond its own radius) is on the point. */
export const HIT_SLACK_PX = 4;
/** A press and a release further apart than this (CSS px) is a drag, not a click. */
export const DRAG_PX = 4;

/**
 * The widest side of a view.
 * @param {{xlim: number[], ylim: number[]}} view
 * @returns {number}
 */
export function spanOf(view) {
  return Math.max(view.xlim[1] - view.xlim[0], view.ylim[1] - view.ylim[0]);
}

/**
 * A point written for a message: "(0.5, 1.25)".
 * @param {number[]} p
 * @returns {string}
 */
export function where(p) {
  return `(${ownNum(p[0])}, ${ownNum(p[1])})`;
}

/**
 * Where a pointer event falls on the picture: in data coordinates, in the plot's pixels (`q`), whether inside the
 * axes, and the point it is on (the nearest within its marker's radius plus `HIT_SLACK_PX` screen px), or null.
 * @param {object} scene the player's scene (`svg`, `tf`)
 * @param {object} spec the run on show (its `view` and `style`)
 * @param {number[][]} X the points
 * @param {{clientX: number, clientY: number}} event
 * @returns {{data: number[], hit: number | null, q: DOMPoint, inside: boolean}}
 */
export function locate(scene, spec, X, event) {
  const plot = scene.svg.querySelector(".pp-plot");
  const m = plot.getScreenCTM();
  const win = scene.svg.ownerDocument.defaultView;
  const q = new win.DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
  const { tf } = scene;
  const data = [spec.view.xlim[0] + q.x / tf.unit, spec.view.ylim[1] - q.y / tf.unit];
  const scale = Math.hypot(m.a, m.b); // screen px per px of the plot
  const radius = ((Math.sqrt(spec.style.marker_size * 1.25) * PT) / 2) * scale + HIT_SLACK_PX;
  let [hit, best] = [null, Number.POSITIVE_INFINITY];
  X.forEach((p, i) => {
    const d = Math.hypot(tf.x(p[0]) - q.x, tf.y(p[1]) - q.y) * scale;
    if (d <= radius && d < best) [hit, best] = [i, d];
  });
  return { data, hit, q, inside: q.x >= 0 && q.x <= tf.width && q.y >= 0 && q.y <= tf.height };
}

/**
 * The editor's pointer handlers: `down`, `move`, `up` and `cancel` (for the slot's pointer events).
 * @param {object} ed the editor's handle (`editor.js`)
 * @returns {{down: (e: PointerEvent) => void, move: (e: PointerEvent) => void, up: (e: PointerEvent) => void,
 *   cancel: () => void}}
 */
export function pointerGestures(ed) {
  let press = null;
  const at = (event) => locate(ed.player().scene, ed.spec(), ed.state().X, event);
  const release = (i, spot, moved, event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return ed.remove(i);
    if (moved && !spot.inside) {
      ed.redraw(); // the point back where it was
      return ed.say("That drop is outside the plot, so the point stayed where it was.", true);
    }
    if (moved)
      return ed.edit(
        (s) => movePoint(s, i, spot.data, spanOf(ed.view())),
        () => `Moved point ${i} to ${where(ed.state().X[i])}.`,
      );
    ed.marked.selected = ed.marked.selected === i ? null : i;
    ed.marks();
    if (ed.marked.selected === null) return ed.say(`Point ${i} no longer selected.`);
    const { X, y } = ed.state();
    ed.say(
      `Point ${i} selected: ${where(X[i])}, class ${y[i] > 0 ? "+1" : "−1"}. Delete removes it; drag it to move it.`,
    );
  };
  const down = (event) => {
    const player = ed.player();
    if (!player.scene.svg.contains(event.target) || event.button !== 0) return;
    const spot = at(event);
    press = { hit: spot.hit, x: event.clientX, y: event.clientY };
    if (spot.hit !== null) player.scene.svg.setPointerCapture?.(event.pointerId);
    player.picture.focus({ preventScroll: true });
  };
  const move = (event) => {
    if (press === null || press.hit === null) return;
    const { q } = at(event);
    const marker = ed.player().scene.svg.querySelector(`path.pp-point[data-i="${press.hit}"]`);
    marker?.setAttribute("d", markerPath(q.x, q.y, ed.state().y[press.hit] > 0, ed.spec().style));
  };
  const up = (event) => {
    if (press === null) return;
    const p = press;
    press = null;
    const spot = at(event);
    const moved = Math.hypot(event.clientX - p.x, event.clientY - p.y) > DRAG_PX;
    if (p.hit !== null) return release(p.hit, spot, moved, event);
    if (!spot.inside) return ed.say("That click is outside the plot; click inside the axes to add a point.", true);
    ed.add(spot.data, ed.label() * (event.shiftKey ? -1 : 1));
  };
  const cancel = () => {
    if (press?.hit != null) {
      ed.redraw();
      ed.say("The drag left the picture, so the point stayed where it was.", true);
    }
    press = null;
  };
  return { down, move, up, cancel };
}
