/**
 * The point editor in the browser: an anywidget front end (`export default { render }`) for
 * `perceptron_lib.player.browser_editor.BrowserEditor`.
 *
 * The browser owns the points while the student edits. Every edit (a click, a drag, an alt-click, the keyboard
 * cursor, Undo, Redo, Start again, Clear, Load) goes through `edits.js` (the rules of `core.edits`), is fitted here
 * (`fitPerceptron`, with the `settings` Python sent), drawn at once (`mountPlayer` with the spec of
 * `runspec.js`) and announced in the message line (a polite live region); the points go to Python (the `points`
 * trait) before the page fits them, so that the kernel's fit runs while the page draws, and the step then shown
 * (`k`) after, in a message of its own if it changed. With a kernel, Python fits the same points with the library and
 * sets `run`: the picture and the readout then show the library's numbers (the spec is replaced; the cursor, the
 * selection, the step and the focus stay). Python may also set `points` (a load), `lesson` and `settings`.
 *
 * Here: the edit state, the run on show and the hand-over to Python. The pointer's gestures are `editor_pointer.js`,
 * the keyboard's `editor_keys.js`, the controls and the marks `editor_ui.js`; they act through the editor's handle
 * `ed` (its points, view, run and player, and `add`, `remove`, `edit`, `say`, `marks`, `redraw`).
 */

import { htmlEl } from "./controls.js";
import { editorKeys } from "./editor_keys.js";
import { pointerGestures, spanOf, where } from "./editor_pointer.js";
import { buildEditorControls, drawMarks, EDIT_HINT, EDITOR_CSS, messageLine } from "./editor_ui.js";
import {
  addPoint,
  clearPoints,
  loadPoints,
  loadPointsText,
  redoEdit,
  removedWords,
  removePoint,
  startAgain,
  startEdits,
  undoEdit,
} from "./edits.js";
import { keepControlKeys } from "./geometry.js";
import { lift } from "./max_margin.js";
import { pointsLiteral, snapPoint } from "./own_data.js";
import { clampStep, mountPlayer } from "./player.js";
import {
  BROWSER_KINDS,
  editorFit,
  editorRunSpec,
  fitOptions,
  libraryNumbers,
  libraryRunSpec,
  liftedSteps,
  sameAsMine,
  viewFor,
} from "./runspec.js";
import { pluralOf } from "./words.js";

/** How long the browser's run shows before the editor says that some panels wait for a kernel, ms. */
export const KERNEL_WAIT_MS = 1500;

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
 * Put the editor's controls where the editor, whole, fits the screen (issue #30: a 1440x900 JupyterLab, a 1280x720
 * projector). Notebook preset: above the player, the folded parts (the keys, the player's with the editor's, and
 * the points as text) under the picture and its legend, where the data panel leaves room (the column beside it may
 * be the taller: the lifted view). Lecture preset (large text, the data panel as tall as the room): beside the
 * picture, at the top of the player's column (`.pp-side`), over its legend and readout, so that only the player's
 * own row of controls sits above the picture; the readout scrolls in that column if it must (`player.js` fitSide).
 * A lecture column that holds a chart (04's claims) is full already: there the controls stay above the player.
 * @param {HTMLElement} edits the edit row, the cursor's row, the message and the kernel note
 * @param {HTMLElement} foot the folded parts
 * @param {HTMLElement} playerRoot the player's root (`mountPlayer`'s `root`)
 * @param {boolean} large the lecture preset
 */
export function placeEdits(edits, foot, playerRoot, large) {
  const side = large ? playerRoot.querySelector(".pp-side") : null;
  // a column that holds a chart (04's claims) has no room left: the readout's headline would go out of view
  if (side === null || side.querySelector(":scope > .pp-panel") !== null) {
    playerRoot.querySelector(".pp-figure")?.append(foot);
    // the player's key help (still the picture's description) folded with the editing keys, not a line under all
    const stepKeys = playerRoot.querySelector(":scope > .pp-keyhelp");
    if (stepKeys) foot.querySelector(".pe-keys > summary").after(stepKeys);
    return;
  }
  edits.classList.add("pe-beside");
  edits.append(foot);
  side.insertBefore(edits, side.querySelector(":scope > .pp-legend"));
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
  const edits = htmlEl(doc, "div", { class: "pe-edits" }); // placed by `placeEdits` once the player is built
  edits.append(ui.row, ui.cursorRow, ui.message, note);
  root.append(htmlEl(doc, "style", {}, EDITOR_CSS), edits, slot);
  el.replaceChildren(root);

  const options = model.get("options");
  const lesson = model.get("lesson");
  let settings = model.get("settings");
  let state = startEdits(lesson[0], lesson[1], options.max_points);
  const sent = model.get("points");
  if (!fittedOn({ X: sent[0], y: sent[1] }, state)) state = Object.freeze({ ...state, X: sent[0], y: sent[1] });
  let spec = libraryNumbers(model.get("run")); // a lean trait's arrays come as binary buffers: read once here
  const style = spec.style;
  if (style.text_px > 0) {
    root.classList.add("pe-large");
    root.style.setProperty("--pp-text", `${style.text_px}px`);
  }
  let view = spec.view;
  const kept = { undo: [], redo: [] }; // the view and the step beside each edit of the history
  let [label, pointerOn, player] = [1, false, null];
  const marked = { selected: null, cursor: null }; // the selected point's index, the keyboard cursor (data)

  // with `options.lift` ("bowl") the points are fitted lifted, (x1, x2, x1² + x2²), as Python fits them
  const fitted = () => (options.lift ? lift(state.X) : state.X);
  const look = () => ({
    style,
    view,
    separator: options.separator,
    hint: options.hint,
    recipes: options.panels ?? [],
    lift: options.lift ?? null,
    readout: options.readout ?? null,
  });
  let mine = { run: null, spec: null }; // the run the page fitted last, and its spec
  const own = () => {
    const X = fitted();
    const run = editorFit(X, state.y, settings, options.fit);
    mine = { run, spec: editorRunSpec(run, X, state.y, look()) };
    return mine.spec;
  };
  /** Python's run in the editor's view: a run on lifted points gets its circles cut to that view. A lean trait
   * (the library's run alone: `library_run.py`) is worded and given its panels here, as the browser's own run. */
  const inView = (next) => {
    if (next.form === "library") return libraryRunSpec(next, look());
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
  const { say, sayBriefly } = messageLine(ui.message, root, win); // Copy's report goes at the next action
  const marks = () => {
    ui.removeOne.disabled = marked.selected === null; // 'Remove point' waits for a point to be selected
    drawMarks(player.scene, marked.cursor, marked.selected === null ? null : state.X[marked.selected]);
  };

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
      placeEdits(edits, ui.foot, player.root, style.text_px > 0);
    } else player.setRun(spec, k);
    if (marked.selected !== null && marked.selected >= state.y.length) marked.selected = null;
    marks();
    ui.undo.disabled = !state.undo.length;
    ui.redo.disabled = !state.redo.length;
  };
  /** The library's run `lib` on show where the page's own run, the same number for number (`sameAsMine`), is
   * drawn: the readout already holds the library's numbers, so nothing is drawn again (the player keeps its spec,
   * which draws every step as `lib` would); the editor's spec and `data-run` become the library's. */
  const adopt = (lib) => {
    root.dataset.run = "library";
    waitNote("library");
    spec = lib;
  };
  /** Send the points, then fit them here and draw the run at step k (default: the end, or the same step), then send
   * that step if it changed: Python fits the points while the page fits and draws its own run. */
  const refit = (said, k = null) => {
    model.set("points", [state.X, state.y]);
    model.save_changes();
    const next = own();
    const at = k ?? (ui.stay.checked ? clampStep(player.shown(), next.K) : next.K);
    const before = model.get("k");
    show(next, at);
    say(said ? `${said} ${next.summaryNotes[1] ?? next.summaryNotes[0]}` : EDIT_HINT);
    if (model.get("k") !== before) model.save_changes(); // the step on show, in a message of its own
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
    marked.selected = null;
    if (fit) view = viewFor(state.X, fitOptions(settings));
    refit(typeof said === "function" ? said() : said);
  };
  const walk = (step, from, to, said) => {
    if (!state[from].length) return say(`Nothing to ${from}.`, true);
    to.push({ view, k: player.shown() });
    const back = from === "undo" ? kept.undo.pop() : kept.redo.pop();
    state = step(state);
    marked.selected = null;
    view = back.view;
    refit(said, back.k);
  };
  const add = (p, c) =>
    edit(
      (s) => addPoint(s, p, c, spanOf(view)),
      () => `Added point ${state.y.length - 1} at ${where(state.X[state.y.length - 1])}, class ${c > 0 ? "+1" : "−1"}.`,
    );
  const remove = (i) =>
    edit(
      (s) => removePoint(s, i),
      () => removedWords(i, state.y.length),
    );

  // ---------------------------------------------------------------- the handle the gestures and keys act through
  const ed = {
    ui,
    marked,
    state: () => state,
    view: () => view,
    spec: () => spec,
    player: () => player,
    label: () => label,
    pointerOn: () => pointerOn,
    say,
    add,
    remove,
    edit,
    marks,
    redraw: () => show(spec, player.shown(), root.dataset.run), // the picture as it was before a gesture
  };
  const pointer = pointerGestures(ed);
  const keys = editorKeys(ed);

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
  on(ui.cursor, "click", () => keys.toggle(marked.cursor === null));
  on(ui.addHere, "click", () => add(marked.cursor, label));
  on(ui.removeNear, "click", keys.removeNearest);
  on(ui.removeOne, "click", keys.removeSelected);
  for (const box of [ui.cx, ui.cy]) on(box, "input", keys.boxInput);
  on(ui.load, "click", () =>
    edit(
      (s) => loadPointsText(s, ui.text.value),
      () => `Loaded ${pluralOf(state.y.length, "point")} from the box.`,
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
      sayBriefly(
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
          sayBriefly(
            "The points are on the clipboard as Python (and in the box below): paste them into a code cell. " +
              "'Load' reads the box back.",
          ),
        fallback,
      );
  };
  on(slot, "pointerdown", pointer.down);
  on(slot, "pointermove", pointer.move);
  on(slot, "pointerup", pointer.up);
  on(slot, "pointercancel", pointer.cancel);
  on(slot, "pointerover", (event) => {
    pointerOn = player.picture.contains(event.target);
  });
  on(slot, "pointerleave", () => {
    pointerOn = false;
  });
  win.addEventListener("keydown", keys.key, true); // before the player's own keys: see editor_keys.js

  const fromPython = {
    "change:points": () => {
      const [X, y] = model.get("points");
      if (!fittedOn({ X, y }, state)) edit((s) => loadPoints(s, X, y), `Loaded ${pluralOf(y.length, "point")}.`, true);
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
      const next = libraryNumbers(model.get("run"));
      if (!fittedOn(next, state)) return;
      const lib = inView(next);
      if (spec === mine.spec && root.dataset.run === "browser" && sameAsMine(mine, next, lib)) return adopt(lib);
      show(lib, clampStep(player.shown(), next.K), "library");
    },
  };
  for (const [event, handler] of Object.entries(fromPython)) model.on(event, handler);

  if (fittedOn(spec, state)) show(inView(spec), clampStep(model.get("k"), spec.K), "library");
  else show(own(), clampStep(model.get("k"), Number.MAX_SAFE_INTEGER));
  say(EDIT_HINT);

  const unmount = () => {
    win.clearTimeout(noteTimer);
    win.removeEventListener("keydown", keys.key, true);
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
  keepControlKeys(el);
  return mountEditor(model, el).unmount;
}

export default { render: renderEditor };
