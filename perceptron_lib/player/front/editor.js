/**
 * The point editor in the browser: an anywidget front end (`export default { render }`) for
 * `perceptron_lib.player.browser_editor.BrowserEditor`.
 *
 * The browser owns the points while the student edits. Every edit (a click, a drag, an alt-click, the keyboard
 * cursor, Undo, Redo, Start again, Clear, Load) goes through `edits.js` (the rules of `core.edits`), is fitted here
 * (`fitPerceptron`, with the `settings` Python sent), drawn at once (`mountPlayer` with the spec of
 * `runspec.js`), announced in the message line (a polite live region), and then sent to Python as the `points`
 * trait, with the step shown (`k`), in one message. With a kernel, Python fits the same points with the library and
 * sets `run`: the picture and the readout then show the library's numbers (the spec is replaced; the cursor, the
 * selection, the step and the focus stay). Python may also set `points` (a load), `lesson` and `settings`.
 */

import { htmlEl } from "./controls.js";
import { buildEditorControls, drawMarks, EDIT_HINT, EDITOR_CSS } from "./editor_ui.js";
import {
  addPoint,
  clearPoints,
  loadPoints,
  loadPointsText,
  movePoint,
  redoEdit,
  removePoint,
  startAgain,
  startEdits,
  undoEdit,
} from "./edits.js";
import { lift } from "./max_margin.js";
import { pointsLiteral, snapPoint } from "./own_data.js";
import { clampStep, mountPlayer } from "./player.js";
import { BROWSER_KINDS, editorFit, editorRunSpec, fitOptions, liftedSteps, viewFor } from "./runspec.js";
import { markerPath, PT } from "./scene.js";
import { ownNum } from "./words.js";

/** A press within this many CSS px of a point's marker (beyond its own radius) is on the point. */
export const HIT_SLACK_PX = 4;
/** How long the browser's run shows before the editor says that some panels wait for a kernel, ms. */
export const KERNEL_WAIT_MS = 1500;
/** A press and a release further apart than this (CSS px) is a drag, not a click. */
export const DRAG_PX = 4;

/** The editors of this page so far, shared by every copy of this module (each widget evaluates its own copy). */
const EDITORS = Symbol.for("perceptron_lib.editor.mounted");

/**
 * True when the run spec was fitted on exactly these points.
 * @param {object} spec
 * @param {{X: number[][], y: number[]}} points
 * @returns {boolean}
 */
export function fittedOn(spec, points) {
  const { X, y } = points;
  if (!spec || spec.X.length !== X.length) return false;
  return X.every((p, i) => spec.X[i][0] === p[0] && spec.X[i][1] === p[1] && spec.y[i] === y[i]);
}

/**
 * The widest side of a view.
 * @param {{xlim: number[], ylim: number[]}} view
 * @returns {number}
 */
function spanOf(view) {
  return Math.max(view.xlim[1] - view.xlim[0], view.ylim[1] - view.ylim[0]);
}

/**
 * A point written for a message: "(0.5, 1.25)".
 * @param {number[]} p
 * @returns {string}
 */
function where(p) {
  return `(${ownNum(p[0])}, ${ownNum(p[1])})`;
}

/**
 * Build the editor into `el`. Returns its handle: `unmount()`, and for tests and benchmarks `state()` (the edit
 * state), `player()` (the player's handle) and `spec()` (the run on show).
 * @param {object} model anywidget's model
 * @param {HTMLElement} el
 * @returns {{unmount: () => void, state: () => object, player: () => object, spec: () => object}}
 */
export function mountEditor(model, el) {
  const doc = el.ownerDocument;
  const win = doc.defaultView;
  globalThis[EDITORS] = (globalThis[EDITORS] ?? 0) + 1;
  const id = `perceptron-editor-${globalThis[EDITORS]}`;
  const ui = buildEditorControls(doc, id);
  const slot = htmlEl(doc, "div", { class: "pe-player" });
  const root = htmlEl(doc, "div", { class: "perceptron-browsereditor", id });
  const note = htmlEl(doc, "p", { class: "pe-kernel-note", hidden: "" });
  root.append(htmlEl(doc, "style", {}, EDITOR_CSS), ui.row, ui.cursorRow, ui.message, note, slot, ui.foot);
  el.replaceChildren(root);

  const options = model.get("options");
  const lesson = model.get("lesson");
  let settings = model.get("settings");
  let state = startEdits(lesson[0], lesson[1], options.max_points);
  const sent = model.get("points");
  if (!fittedOn({ X: sent[0], y: sent[1] }, state)) state = Object.freeze({ ...state, X: sent[0], y: sent[1] });
  let spec = model.get("run");
  const style = spec.style;
  if (style.text_px > 0) {
    root.classList.add("pe-large");
    root.style.setProperty("--pp-text", `${style.text_px}px`);
  }
  let view = spec.view;
  const kept = { undo: [], redo: [] }; // the view and the step beside each edit of the history
  let [label, selected, cursor, press, pointerOn, player] = [1, null, null, null, false, null];

  // with `options.lift` ("bowl") the points are fitted lifted, (x1, x2, x1² + x2²), as Python fits them
  const fitted = () => (options.lift ? lift(state.X) : state.X);
  const own = () =>
    editorRunSpec(editorFit(fitted(), state.y, settings), fitted(), state.y, {
      style,
      view,
      separator: options.separator,
      hint: options.hint,
      recipes: options.panels ?? [],
      lift: options.lift ?? null,
    });
  /** Python's run in the editor's view: a run on lifted points gets its circles cut to that view. */
  const inView = (next) => {
    const same = ["xlim", "ylim"].every((a) => next.view[a].every((v, j) => v === view[a][j]));
    return next.mode === "lifted" && !same
      ? { ...next, view, ...liftedSteps(next.w, next.b, view) }
      : { ...next, view };
  };
  // panels the browser cannot compute for its own run (they need Python): a note if Python's run does not come
  const kernelOnly = (options.panels ?? []).some((r) => !r || !BROWSER_KINDS[r.kind]);
  let noteTimer = null;
  const waitNote = (whose) => {
    win.clearTimeout(noteTimer);
    note.hidden = true;
    if (!kernelOnly || whose !== "browser") return;
    noteTimer = win.setTimeout(() => {
      note.textContent = options.kernel_note ?? "Some panels need Python: they show when a kernel runs.";
      note.hidden = root.dataset.run !== "browser";
    }, KERNEL_WAIT_MS);
  };
  const say = (text, problem = false) => {
    ui.message.textContent = problem ? `Not done: ${text} Your points are as they were.` : text;
    ui.message.classList.toggle("pe-problem", problem);
  };
  const marks = () => drawMarks(player.scene, cursor, selected === null ? null : state.X[selected]);

  /** Draw `next` at step k (the player's `setRun`: the same elements, so the focus and the pointer stay), keeping
   * the cursor and the selection. The root's `data-run` says whose run is drawn: "browser" (fitted here) or
   * "library" (Python's). */
  const show = (next, k, whose = "browser") => {
    root.dataset.run = whose;
    waitNote(whose);
    spec = next;
    if (model.get("k") !== k) model.set("k", k);
    if (player === null) {
      player = mountPlayer(model, slot, spec);
      const help = player.picture.getAttribute("aria-describedby");
      player.picture.setAttribute("aria-describedby", `${help} ${id}-help`);
    } else player.setRun(spec, k);
    if (selected !== null && selected >= state.y.length) selected = null;
    marks();
    ui.undo.disabled = !state.undo.length;
    ui.redo.disabled = !state.redo.length;
  };
  /** Fit the points here, draw the run at step k (default: the end, or the same step), send the points. */
  const refit = (said, k = null) => {
    const next = own();
    const at = k ?? (ui.stay.checked ? clampStep(player.shown(), next.K) : next.K);
    show(next, at);
    say(said ? `${said} ${next.summaryNotes[1] ?? next.summaryNotes[0]}` : EDIT_HINT);
    model.set("points", [state.X, state.y]); // the page is whole before Python is told
    model.save_changes();
  };
  /** One edit: the new state from `change(state)`, or a message saying why not (the points stay). */
  const edit = (change, said, fit = false) => {
    let next;
    try {
      next = change(state);
    } catch (exc) {
      say(exc.message, true);
      return;
    }
    kept.undo.push({ view, k: player.shown() });
    kept.redo = [];
    state = next;
    selected = null;
    if (fit) view = viewFor(state.X, fitOptions(settings));
    refit(typeof said === "function" ? said() : said);
  };
  const walk = (step, from, to, said) => {
    if (!state[from].length) return say(`Nothing to ${from}.`, true);
    to.push({ view, k: player.shown() });
    const back = from === "undo" ? kept.undo.pop() : kept.redo.pop();
    state = step(state);
    selected = null;
    view = back.view;
    refit(said, back.k);
  };
  const add = (p, c) =>
    edit(
      (s) => addPoint(s, p, c, spanOf(view)),
      () => `Added point ${state.y.length - 1} at ${where(state.X[state.y.length - 1])}, class ${c > 0 ? "+1" : "−1"}.`,
    );
  const remove = (i) => edit((s) => removePoint(s, i), `Removed point ${i}; points after it are numbered one less.`);

  // ---------------------------------------------------------------- the pointer on the picture
  const locate = (event) => {
    const plot = player.scene.svg.querySelector(".pp-plot");
    const m = plot.getScreenCTM();
    const q = new win.DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
    const { tf } = player.scene;
    const data = [spec.view.xlim[0] + q.x / tf.unit, spec.view.ylim[1] - q.y / tf.unit];
    const scale = Math.hypot(m.a, m.b); // screen px per px of the plot
    const radius = ((Math.sqrt(style.marker_size * 1.25) * PT) / 2) * scale + HIT_SLACK_PX;
    let [hit, best] = [null, Number.POSITIVE_INFINITY];
    state.X.forEach((p, i) => {
      const d = Math.hypot(tf.x(p[0]) - q.x, tf.y(p[1]) - q.y) * scale;
      if (d <= radius && d < best) [hit, best] = [i, d];
    });
    return { data, hit, q, inside: q.x >= 0 && q.x <= tf.width && q.y >= 0 && q.y <= tf.height };
  };
  const onDown = (event) => {
    if (!player.scene.svg.contains(event.target) || event.button !== 0) return;
    const at = locate(event);
    press = { hit: at.hit, x: event.clientX, y: event.clientY };
    if (at.hit !== null) player.scene.svg.setPointerCapture?.(event.pointerId);
    player.picture.focus({ preventScroll: true });
  };
  const onMove = (event) => {
    if (press === null || press.hit === null) return;
    const { q } = locate(event);
    const marker = player.scene.svg.querySelector(`path.pp-point[data-i="${press.hit}"]`);
    marker?.setAttribute("d", markerPath(q.x, q.y, state.y[press.hit] > 0, style));
  };
  const onUp = (event) => {
    if (press === null) return;
    const p = press;
    press = null;
    const at = locate(event);
    const moved = Math.hypot(event.clientX - p.x, event.clientY - p.y) > DRAG_PX;
    if (p.hit !== null) return releasePoint(p.hit, at, moved, event);
    if (!at.inside) return say("That click is outside the plot; click inside the axes to add a point.", true);
    add(at.data, label * (event.shiftKey ? -1 : 1));
  };
  const releasePoint = (i, at, moved, event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return remove(i);
    if (moved && !at.inside) {
      show(spec, player.shown(), root.dataset.run); // the point back where it was
      return say("That drop is outside the plot, so the point stayed where it was.", true);
    }
    if (moved)
      return edit(
        (s) => movePoint(s, i, at.data, spanOf(view)),
        () => `Moved point ${i} to ${where(state.X[i])}.`,
      );
    selected = selected === i ? null : i;
    marks();
    if (selected === null) return say(`Point ${i} no longer selected.`);
    say(
      `Point ${i} selected: ${where(state.X[i])}, class ${state.y[i] > 0 ? "+1" : "−1"}. ` +
        "Delete removes it; drag it to move it.",
    );
  };
  const onCancel = () => {
    if (press?.hit != null) {
      show(spec, player.shown(), root.dataset.run);
      say("The drag left the picture, so the point stayed where it was.", true);
    }
    press = null;
  };

  // ---------------------------------------------------------------- the keyboard cursor and the keys
  const setCursor = (p) => {
    const { xlim, ylim } = view;
    cursor = [Math.min(Math.max(p[0], xlim[0]), xlim[1]), Math.min(Math.max(p[1], ylim[0]), ylim[1])];
    ui.cx.value = String(cursor[0]);
    ui.cy.value = String(cursor[1]);
    marks();
  };
  const toggleCursor = (on) => {
    ui.cursor.setAttribute("aria-pressed", String(on));
    ui.cursorRow.hidden = !on;
    if (!on) {
      cursor = null;
      marks();
      return say("Keyboard cursor hidden.");
    }
    const span = spanOf(view);
    ui.cx.step = ui.cy.step = String(snapPoint([span / 40, 0], span)[0]);
    setCursor(snapPoint([(view.xlim[0] + view.xlim[1]) / 2, (view.ylim[0] + view.ylim[1]) / 2], span));
    say(
      "Keyboard cursor at the centre: the arrow keys (picture focused or pointer on it) or the two boxes move it, " +
        "Enter or 'Add here' adds a point, Delete or 'Remove nearest' removes one, Escape hides it.",
    );
  };
  const removeNearest = () => {
    if (!state.y.length) return say("There are no points to remove.", true);
    let best = 0;
    state.X.forEach((p, i) => {
      const [a, b] = [state.X[best], p];
      if (Math.hypot(b[0] - cursor[0], b[1] - cursor[1]) < Math.hypot(a[0] - cursor[0], a[1] - cursor[1])) best = i;
    });
    remove(best);
  };
  const cursorKey = (key, shift) => {
    const step = (shift ? 0.125 : 1 / 40) * spanOf(view);
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (key in moves) setCursor(snapPoint([cursor[0] + moves[key][0], cursor[1] + moves[key][1]], spanOf(view)));
    else if (key === "Enter") add(cursor, label);
    else if (key === "Delete" || key === "Backspace") removeNearest();
    else if (key === "Escape") toggleCursor(false);
    else return false;
    return true;
  };
  const handles = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const onPicture = player.picture.contains(event.target);
    if (!(onPicture || pointerOn)) return false;
    return onPicture || !event.target?.closest?.("input, textarea, select, button, [contenteditable]");
  };
  const onKey = (event) => {
    if (!handles(event)) return;
    let done = false;
    if (cursor !== null) done = cursorKey(event.key, event.shiftKey);
    else if ((event.key === "Delete" || event.key === "Backspace") && selected !== null) {
      remove(selected);
      done = true;
    }
    if (done) {
      event.preventDefault();
      event.stopImmediatePropagation(); // the player's keys (← →) wait while the cursor has them
    }
  };

  // ---------------------------------------------------------------- wiring
  const on = (node, type, handler) => node.addEventListener(type, handler);
  const setLabel = (c) => {
    label = c;
    ui.pos.setAttribute("aria-pressed", String(c > 0));
    ui.neg.setAttribute("aria-pressed", String(c < 0));
  };
  setLabel(1);
  on(ui.pos, "click", () => setLabel(1));
  on(ui.neg, "click", () => setLabel(-1));
  on(ui.undo, "click", () => walk(undoEdit, "undo", kept.redo, "Undone."));
  on(ui.redo, "click", () => walk(redoEdit, "redo", kept.undo, "Redone."));
  on(ui.again, "click", () => edit(startAgain, "Back to the lesson's data.", true));
  on(ui.clear, "click", () => edit(clearPoints, "Cleared."));
  on(ui.copy, "click", () => copyPoints());
  on(ui.cursor, "click", () => toggleCursor(cursor === null));
  on(ui.addHere, "click", () => add(cursor, label));
  on(ui.removeNear, "click", removeNearest);
  for (const box of [ui.cx, ui.cy]) {
    on(box, "input", () => {
      const p = [Number(ui.cx.value), Number(ui.cy.value)];
      if (cursor !== null && p.every((v) => ui.cx.value !== "" && ui.cy.value !== "" && Number.isFinite(v))) {
        cursor = p;
        marks();
      }
    });
  }
  on(ui.load, "click", () =>
    edit(
      (s) => loadPointsText(s, ui.text.value),
      () => `Loaded ${state.y.length} points from the box.`,
      true,
    ),
  );
  const copyPoints = () => {
    const span = spanOf(view);
    const text = pointsLiteral(
      state.X.map((p) => snapPoint(p, span)),
      state.y,
    );
    ui.text.value = text;
    ui.more.open = true;
    const fallback = () => {
      ui.text.focus();
      ui.text.select();
      say(
        "The page may not use the clipboard here: the points are in the box below, selected. Copy them with " +
          "Ctrl+C (⌘C on a Mac) into a code cell; 'Load' reads the box back.",
      );
    };
    const clip = win.navigator.clipboard;
    if (!clip) return fallback();
    clip
      .writeText(text)
      .then(
        () =>
          say(
            "The points are on the clipboard as Python (and in the box below): paste them into a code cell. " +
              "'Load' reads the box back.",
          ),
        fallback,
      );
  };
  on(slot, "pointerdown", onDown);
  on(slot, "pointermove", onMove);
  on(slot, "pointerup", onUp);
  on(slot, "pointercancel", onCancel);
  on(slot, "pointerover", (event) => {
    pointerOn = player.picture.contains(event.target);
  });
  on(slot, "pointerleave", () => {
    pointerOn = false;
  });
  win.addEventListener("keydown", onKey, true); // before the player's own keys: see onKey

  const fromPython = {
    "change:points": () => {
      const [X, y] = model.get("points");
      if (!fittedOn({ X, y }, state)) edit((s) => loadPoints(s, X, y), `Loaded ${y.length} points.`, true);
    },
    "change:lesson": () => {
      const [X, y] = model.get("lesson");
      state = Object.freeze({ ...state, lesson: { X, y } });
    },
    "change:settings": () => {
      settings = model.get("settings");
      refit("Fitted again with the new settings.");
    },
    "change:run": () => {
      const next = model.get("run");
      if (fittedOn(next, state)) show(inView(next), clampStep(player.shown(), next.K), "library");
    },
  };
  for (const [event, handler] of Object.entries(fromPython)) model.on(event, handler);

  if (fittedOn(spec, state)) show(spec, clampStep(model.get("k"), spec.K), "library");
  else show(own(), clampStep(model.get("k"), Number.MAX_SAFE_INTEGER));
  say(EDIT_HINT);

  const unmount = () => {
    win.clearTimeout(noteTimer);
    win.removeEventListener("keydown", onKey, true);
    for (const [event, handler] of Object.entries(fromPython)) model.off(event, handler);
    player.unmount();
    root.remove();
  };
  return { unmount, state: () => state, player: () => player, spec: () => spec };
}

/**
 * anywidget's entry: the editor.
 * @param {{model: object, el: HTMLElement}} view
 * @returns {() => void} the clean-up anywidget calls when the view goes
 */
function renderEditor({ model, el }) {
  return mountEditor(model, el).unmount;
}

export default { render: renderEditor };
