/**
 * The pointer on the editor's picture: a click or a tap adds a point (shift-click: the other class), a press on a
 * point then a release selects it, a drag moves it, alt-click removes it ('Remove point' removes the selected one, by
 * any pointer). A mouse's press is on a point when it lands within the point's marker and `HIT_SLACK_PX` more (a few
 * pixels, whatever the panel's size); a finger's (or a pen's) within `TOUCH_HIT_PX` of its centre (a 40 px target,
 * WCAG 2.5.8 asks 24), the nearest point winning, so that a tap beside a point selects it and a tap in empty space
 * still adds one. A finger also moves further before its press counts as a drag (`TOUCH_DRAG_PX`).
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
/** A finger's (or pen's) press within this many CSS px of a point's centre is on it (at least the mouse's radius). */
export const TOUCH_HIT_PX = 20;
/** A finger's press and release further apart than this (CSS px) is a drag, not a tap (a tap wobbles more). */
export const TOUCH_DRAG_PX = 10;

/**
 * True for a pointer that is not a mouse: a finger or a pen (`PointerEvent.pointerType`).
 * @param {{pointerType?: string}} event
 * @returns {boolean}
 */
export function isTouch(event) {
  return event.pointerType === "touch" || event.pointerType === "pen";
}

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
 * axes, and the point it is on (the nearest within its marker's radius plus `HIT_SLACK_PX` screen px; for a finger
 * or a pen, within `TOUCH_HIT_PX` if that is more), or null.
 * @param {object} scene the player's scene (`svg`, `tf`)
 * @param {object} spec the run on show (its `view` and `style`)
 * @param {number[][]} X the points
 * @param {{clientX: number, clientY: number, pointerType?: string}} event
 * @returns {{data: number[], hit: number | null, q: DOMPoint, inside: boolean, centre: number[] | null}} `centre`:
 *   the point hit's centre in client px (a drag keeps the point where it was under the pointer, not under its tip)
 */
export function locate(scene, spec, X, event) {
  const plot = scene.svg.querySelector(".pp-plot");
  const m = plot.getScreenCTM();
  const win = scene.svg.ownerDocument.defaultView;
  const q = new win.DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
  const { tf } = scene;
  const data = [spec.view.xlim[0] + q.x / tf.unit, spec.view.ylim[1] - q.y / tf.unit];
  const scale = Math.hypot(m.a, m.b); // screen px per px of the plot
  const marker = ((Math.sqrt(spec.style.marker_size * 1.25) * PT) / 2) * scale + HIT_SLACK_PX;
  const radius = isTouch(event) ? Math.max(marker, TOUCH_HIT_PX) : marker;
  let [hit, best] = [null, Number.POSITIVE_INFINITY];
  X.forEach((p, i) => {
    const d = Math.hypot(tf.x(p[0]) - q.x, tf.y(p[1]) - q.y) * scale;
    if (d <= radius && d < best) [hit, best] = [i, d];
  });
  const inside = q.x >= 0 && q.x <= tf.width && q.y >= 0 && q.y <= tf.height;
  if (hit === null) return { data, hit, q, inside, centre: null };
  const c = new win.DOMPoint(tf.x(X[hit][0]), tf.y(X[hit][1])).matrixTransform(m);
  return { data, hit, q, inside, centre: [c.x, c.y] };
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
  /** Where the pressed point goes with the pointer at `event`: it keeps its offset from the press. */
  const dragged = (event) =>
    at({ clientX: event.clientX + press.off[0], clientY: event.clientY + press.off[1], pointerType: "mouse" });
  /** A click or a tap on point i: selected (or no longer, if it was), said with what removes it for this pointer. */
  const select = (i, touch) => {
    ed.marked.selected = ed.marked.selected === i ? null : i;
    ed.marks();
    if (ed.marked.selected === null) return ed.say(`Point ${i} no longer selected.`);
    const { X, y } = ed.state();
    ed.say(
      `Point ${i} selected: ${where(X[i])}, class ${y[i] > 0 ? "+1" : "−1"}. ` +
        `${touch ? "'Remove point'" : "'Remove point' or Delete"} removes it; drag it to move it.`,
    );
  };
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
    select(i, isTouch(event));
  };
  const down = (event) => {
    const player = ed.player();
    if (!player.scene.svg.contains(event.target) || event.button !== 0) return;
    const spot = at(event);
    const [x, y] = [event.clientX, event.clientY];
    const off = spot.centre === null ? [0, 0] : [spot.centre[0] - x, spot.centre[1] - y];
    press = { hit: spot.hit, x, y, off, drag: isTouch(event) ? TOUCH_DRAG_PX : DRAG_PX };
    if (spot.hit !== null) player.scene.svg.setPointerCapture?.(event.pointerId);
    player.picture.focus({ preventScroll: true });
  };
  const move = (event) => {
    if (press === null || press.hit === null) return;
    if (Math.hypot(event.clientX - press.x, event.clientY - press.y) <= press.drag) return; // a tap's wobble
    const { q } = dragged(event);
    const marker = ed.player().scene.svg.querySelector(`path.pp-point[data-i="${press.hit}"]`);
    marker?.setAttribute("d", markerPath(q.x, q.y, ed.state().y[press.hit] > 0, ed.spec().style));
  };
  const up = (event) => {
    if (press === null) return;
    const p = press;
    const moved = Math.hypot(event.clientX - p.x, event.clientY - p.y) > p.drag;
    if (p.hit !== null) {
      const spot = dragged(event);
      press = null;
      return release(p.hit, spot, moved, event);
    }
    press = null;
    const spot = at(event);
    if (!spot.inside) {
      const word = isTouch(event) ? "tap" : "click";
      return ed.say(`That ${word} is outside the plot; ${word} inside the axes to add a point.`, true);
    }
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
