/**
 * The editor's keyboard: the keyboard cursor (a cross in a circle moved by the arrow keys or two number boxes;
 * Enter or "Add here" adds a point at it, Delete or "Remove nearest" removes the nearest point, Escape hides it)
 * and Delete (or the button "Remove point", which a finger can press too) on the selected point. Keys are taken only while the picture has focus or the pointer, and never
 * from a box, a button or a text field that the pointer happens to be over.
 *
 * `editorKeys(ed)` gives the handlers; `ed` is the editor's handle (`editor.js`), `ed.marked.cursor` the cursor.
 */

import { spanOf } from "./editor_pointer.js";
import { snapPoint } from "./own_data.js";

/**
 * The index of the point nearest `p` (the first of equals).
 * @param {number[][]} X
 * @param {number[]} p
 * @returns {number}
 */
export function nearestPoint(X, p) {
  let best = 0;
  X.forEach((q, i) => {
    const a = X[best];
    if (Math.hypot(q[0] - p[0], q[1] - p[1]) < Math.hypot(a[0] - p[0], a[1] - p[1])) best = i;
  });
  return best;
}

/**
 * The keyboard's handlers: `toggle(on)` shows or hides the cursor, `removeNearest()`, `removeSelected()` (the
 * button "Remove point"), `boxInput()` (either number box changed), and `key(event)` (a keydown listened to on the
 * window in the capture phase).
 * @param {object} ed the editor's handle (`editor.js`)
 * @returns {{toggle: (on: boolean) => void, removeNearest: () => void, removeSelected: () => void,
 *   boxInput: () => void, key: (e: KeyboardEvent) => void}}
 */
export function editorKeys(ed) {
  const { ui, marked } = ed;
  const setCursor = (p) => {
    const { xlim, ylim } = ed.view();
    marked.cursor = [Math.min(Math.max(p[0], xlim[0]), xlim[1]), Math.min(Math.max(p[1], ylim[0]), ylim[1])];
    ui.cx.value = String(marked.cursor[0]);
    ui.cy.value = String(marked.cursor[1]);
    ed.marks();
  };
  const toggle = (on) => {
    ui.cursor.setAttribute("aria-pressed", String(on));
    ui.cursorRow.hidden = !on;
    if (!on) {
      marked.cursor = null;
      ed.marks();
      return ed.say("Keyboard cursor hidden.");
    }
    const view = ed.view();
    const span = spanOf(view);
    ui.cx.step = ui.cy.step = String(snapPoint([span / 40, 0], span)[0]);
    setCursor(snapPoint([(view.xlim[0] + view.xlim[1]) / 2, (view.ylim[0] + view.ylim[1]) / 2], span));
    // the focus goes where the cursor's keys work: left on the button, → moved a deck's slide or a page instead
    ed.player().picture.focus({ preventScroll: true });
    ed.say(
      "Keyboard cursor at the centre, the picture focused: the arrow keys or the two boxes move it, " +
        "Enter or 'Add here' adds a point, Delete or 'Remove nearest' removes one, Escape hides it.",
    );
  };
  const removeNearest = () => {
    const { X, y } = ed.state();
    if (!y.length) return ed.say("There are no points to remove.", true);
    ed.remove(nearestPoint(X, marked.cursor));
  };
  /** "Remove point": the selected point goes, and the focus to the picture (the button is disabled after it). */
  const removeSelected = () => {
    if (marked.selected === null) return ed.say("No point is selected: click or tap a point first.", true);
    ed.remove(marked.selected);
    ed.player().picture.focus({ preventScroll: true });
  };
  const cursorKey = (key, shift) => {
    const span = spanOf(ed.view());
    const step = (shift ? 0.125 : 1 / 40) * span;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const c = marked.cursor;
    if (key in moves) setCursor(snapPoint([c[0] + moves[key][0], c[1] + moves[key][1]], span));
    else if (key === "Enter") ed.add(c, ed.label());
    else if (key === "Delete" || key === "Backspace") removeNearest();
    else if (key === "Escape") toggle(false);
    else return false;
    return true;
  };
  const handles = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const onPicture = ed.player().picture.contains(event.target);
    if (!(onPicture || ed.pointerOn())) return false;
    return onPicture || !event.target?.closest?.("input, textarea, select, button, [contenteditable]");
  };
  const key = (event) => {
    if (!handles(event)) return;
    let done = false;
    if (marked.cursor !== null) done = cursorKey(event.key, event.shiftKey);
    else if ((event.key === "Delete" || event.key === "Backspace") && marked.selected !== null) {
      ed.remove(marked.selected);
      done = true;
    }
    if (done) {
      event.preventDefault();
      event.stopImmediatePropagation(); // the player's keys (← →) wait while the cursor has them
    }
  };
  const boxInput = () => {
    const p = [Number(ui.cx.value), Number(ui.cy.value)];
    if (marked.cursor !== null && ui.cx.value !== "" && ui.cy.value !== "" && p.every(Number.isFinite)) {
      marked.cursor = p;
      ed.marks();
    }
  };
  return { toggle, removeNearest, removeSelected, boxInput, key };
}
