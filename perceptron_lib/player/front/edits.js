/**
 * The editor's edits in the browser: `perceptron_lib.core.edits`, rule for rule and message for message.
 *
 * A state holds the student's points `X` (pairs) and labels `y` (+1, -1), the lesson's points (`lesson`, where
 * "Start again" goes back to), the undo and redo histories (`undo`, `redo`: the points before each edit, the
 * latest last) and `maxPoints`. Each edit returns a new frozen state whose undo history ends with the points
 * before it and whose redo history is empty; `undoEdit` and `redoEdit` walk the history. An edit the rules refuse
 * throws an Error with a sentence for the student, and the state given stays what it was.
 *
 * `tests/test_browser_editor_front.py` replays the same random edits here and in Python and compares every state
 * and every message.
 */

import { conflictPair, MAX_POINTS, parsePoints, pointsLiteral, pyFloatRepr, snapPoint } from "./own_data.js";

/** A point within this fraction of the view's span of another is on top of it (`edits.ON_TOP`). */
export const ON_TOP = 1 / 200;

/**
 * A frozen state.
 * @param {object} fields
 * @returns {Readonly<{X: number[][], y: number[], lesson: {X: number[][], y: number[]}, undo: object[], redo: object[], maxPoints: number}>}
 */
function frozen(fields) {
  return Object.freeze(fields);
}

/**
 * Points from outside (a load, the lesson's) read as "Copy points" writes them (`edits._checked`).
 * @param {number[][]} X
 * @param {number[]} y
 * @param {number} maxPoints
 * @returns {{X: number[][], y: number[]}}
 */
function fromOutside(X, y, maxPoints) {
  const bad = [...new Set(y.filter((v) => v !== 1 && v !== -1))].sort((a, b) => a - b).slice(0, 3);
  if (bad.length) throw new Error(`every label must be 1 or -1; got [${bad.map(pyFloatRepr).join(", ")}].`);
  return parsePoints(pointsLiteral(X, y), maxPoints);
}

/**
 * Refuses one spot with two labels.
 * @param {number[][]} X
 * @param {number[]} y
 */
function refuseConflict(X, y) {
  const pair = conflictPair(X, y);
  if (pair !== null) {
    throw new Error(
      `Points ${pair[0]} and ${pair[1]} are at the same spot with opposite labels: no line ` +
        "(and no perceptron) can get both right. Move one of them.",
    );
  }
}

/**
 * The editor at the lesson's points, with no history (`edits.start`).
 * @param {number[][]} X
 * @param {number[]} y
 * @param {number} [maxPoints]
 */
export function startEdits(X, y, maxPoints = MAX_POINTS) {
  if (!(Number.isInteger(maxPoints) && maxPoints >= 1)) {
    throw new Error(`max_points must be a whole number >= 1; got ${maxPoints}.`);
  }
  if (y.length > maxPoints) {
    throw new Error(
      `the lesson's data have ${y.length} points but max_points is ${maxPoints}: give max_points of at least ` +
        `${y.length}.`,
    );
  }
  const points = X.length === 0 && y.length === 0 ? { X: [], y: [] } : fromOutside(X, y, maxPoints);
  refuseConflict(points.X, points.y);
  return frozen({ ...points, lesson: points, undo: [], redo: [], maxPoints });
}

/**
 * The state with points (X, y): the points before go on the undo history, the redo history empties.
 * @param {object} state
 * @param {number[][]} X
 * @param {number[]} y
 * @param {object} [changes]
 */
function edited(state, X, y, changes = {}) {
  if (y.length > state.maxPoints)
    throw new Error(`The editor keeps at most ${state.maxPoints} points; got ${y.length}.`);
  refuseConflict(X, y);
  return frozen({ ...state, X, y, undo: [...state.undo, { X: state.X, y: state.y }], redo: [], ...changes });
}

/**
 * A position from a click: two finite numbers rounded to the view (`edits._spot`).
 * @param {number[]} x
 * @param {number} span
 * @returns {number[]}
 */
function spot(x, span) {
  if (!(Number.isFinite(span) && span > 0)) {
    throw new Error(`span (the view's width) must be a number > 0; got ${pyFloatRepr(span)}.`);
  }
  if (x.length !== 2 || !x.every(Number.isFinite)) {
    throw new Error(`a point needs two finite numbers; got [${x.map(pyFloatRepr).join(", ")}].`);
  }
  return snapPoint(x, span).map((v) => v + 0);
}

/**
 * The first point within ON_TOP * span of x (other than `skip`), or null.
 * @param {number[][]} X
 * @param {number[]} x
 * @param {number} span
 * @param {number} [skip]
 * @returns {number | null}
 */
export function onTop(X, x, span, skip = -1) {
  for (let j = 0; j < X.length; j++) {
    if (j !== skip && Math.hypot(X[j][0] - x[0], X[j][1] - x[1]) <= ON_TOP * span) return j;
  }
  return null;
}

/**
 * A point's number, checked.
 * @param {object} state
 * @param {number} i
 * @returns {number}
 */
function indexOf(state, i) {
  const n = state.y.length;
  if (!Number.isInteger(i) || i < 0 || i >= n) {
    const where = n === 0 ? "there are no points" : `the points are numbered 0 to ${n - 1}`;
    throw new Error(`There is no point ${i}; ${where}.`);
  }
  return i;
}

/**
 * Add a point at x (rounded to the view of width `span`) of class `label` (> 0: +1, else -1).
 * @param {object} state
 * @param {number[]} x
 * @param {number} label
 * @param {number} span
 */
export function addPoint(state, x, label, span) {
  const p = spot(x, span);
  const c = label > 0 ? 1 : -1;
  const j = onTop(state.X, p, span);
  if (j !== null) {
    const other = state.y[j] !== c ? "of the other class " : "";
    throw new Error(
      `There is already a point ${other}there (point ${j}); a point on top of another tells the perceptron ` +
        "nothing new. Click a little further away.",
    );
  }
  if (state.y.length >= state.maxPoints) {
    throw new Error(`The editor keeps at most ${state.maxPoints} points; remove some first.`);
  }
  return edited(state, [...state.X, p], [...state.y, c]);
}

/**
 * Move point i to x (rounded to the view of width `span`).
 * @param {object} state
 * @param {number} i
 * @param {number[]} x
 * @param {number} span
 */
export function movePoint(state, i, x, span) {
  const at = indexOf(state, i);
  const p = spot(x, span);
  const j = onTop(state.X, p, span, at);
  if (j !== null) throw new Error(`Point ${at} would land on point ${j}; drop it a little further away.`);
  return edited(
    state,
    state.X.map((q, k) => (k === at ? p : q)),
    state.y,
  );
}

/**
 * Remove point i (the points after it are numbered one less).
 * @param {object} state
 * @param {number} i
 */
export function removePoint(state, i) {
  const at = indexOf(state, i);
  return edited(
    state,
    state.X.filter((_, k) => k !== at),
    state.y.filter((_, k) => k !== at),
  );
}

/**
 * What the editor says after point i was removed, `n` points left: the renumbering only where there are points
 * after it (the last point's removal said "points after it are numbered one less" of none).
 * @param {number} i
 * @param {number} n
 * @returns {string}
 */
export function removedWords(i, n) {
  return i < n ? `Removed point ${i}; points after it are numbered one less.` : `Removed point ${i}.`;
}

/**
 * Remove every point.
 * @param {object} state
 */
export function clearPoints(state) {
  return edited(state, [], []);
}

/**
 * Back to the lesson's points.
 * @param {object} state
 */
export function startAgain(state) {
  return edited(state, state.lesson.X, state.lesson.y);
}

/**
 * Replace every point; with `lesson` they become the lesson's points too.
 * @param {object} state
 * @param {number[][]} X
 * @param {number[]} y
 * @param {boolean} [lesson]
 */
export function loadPoints(state, X, y, lesson = false) {
  const p = fromOutside(X, y, state.maxPoints);
  return edited(state, p.X, p.y, lesson ? { lesson: p } : {});
}

/**
 * Replace every point by those in `text`, as "Copy points" writes them.
 * @param {object} state
 * @param {string} text
 */
export function loadPointsText(state, text) {
  const p = parsePoints(text, state.maxPoints);
  return edited(state, p.X, p.y);
}

/**
 * Back to the points before the last edit; the edit goes on the redo history.
 * @param {object} state
 */
export function undoEdit(state) {
  if (!state.undo.length) throw new Error("Nothing to undo.");
  const last = state.undo[state.undo.length - 1];
  return frozen({
    ...state,
    X: last.X,
    y: last.y,
    undo: state.undo.slice(0, -1),
    redo: [...state.redo, { X: state.X, y: state.y }],
  });
}

/**
 * Do the edit undone last again.
 * @param {object} state
 */
export function redoEdit(state) {
  if (!state.redo.length) throw new Error("Nothing to redo.");
  const last = state.redo[state.redo.length - 1];
  return frozen({
    ...state,
    X: last.X,
    y: last.y,
    undo: [...state.undo, { X: state.X, y: state.y }],
    redo: state.redo.slice(0, -1),
  });
}
