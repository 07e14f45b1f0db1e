/**
 * A run the browser fitted itself, as the `run` trait a player draws (`mountPlayer`'s spec, `RUN_VERSION`).
 *
 * What Python puts in the trait (`perceptron_lib.player.browser.run_trait`), made here from `fitPerceptron`'s
 * result: the step numbers (`core.frames.step_numbers`: the states, the example of each update, the ringed and the
 * crossed examples at each step), the words of each step (`readout.state_lines` and `alt_text`, ported in
 * `words.js`, with the editor's summary lines after them), and the view (`DataPanel.view_for`). The per-step
 * lists are filled when a step is first shown (`lazySteps`): an edit of many points costs the fit and one frame,
 * not the words of every step.
 */

import { answersErrors, answersLine, answersSpec, fitAveraged } from "./answers_fit.js";
import { BROWSER_PANELS } from "./claims.js";
import { boundaryInView, boundaryNote } from "./lift_boundary.js";
import { liftedSpec } from "./lift_panel.js";
import { summarize } from "./max_margin.js";
import { dot, fitPerceptron, isMistake, norm } from "./perceptron.js";
import { RUN_VERSION } from "./player.js";
import { altText, readoutNum, stateLines, summaryLines } from "./words.js";

/** The padding around the data in the data panel's view, a fraction of the data's span (`DataPanel.pad`). */
export const VIEW_PAD = 0.12;

/**
 * The settings of the editor's fit, as Python names them (`fit_perceptron`'s keyword arguments), as
 * `fitPerceptron`'s options.
 * @param {object} s eta, max_epochs, order, rng, w0, b0, fit_bias, update_on, margin
 * @returns {object}
 */
export function fitOptions(s) {
  const out = {
    eta: s.eta ?? 1,
    maxEpochs: s.max_epochs ?? 1000,
    order: s.order ?? "cyclic",
    seed: s.rng ?? 0,
    b0: s.b0 ?? 0,
    fitBias: s.fit_bias ?? true,
    updateOn: s.update_on ?? "nonpositive",
    margin: s.margin ?? 0,
  };
  if (s.w0 !== undefined && s.w0 !== null) out.w0 = s.w0;
  return out;
}

/**
 * The run on the points: `fitPerceptron`, or with the recipe of an averaged fit (`AnswersFit.browser()`)
 * `fitAveraged` with its epochs and `fit_averaged`'s defaults, or the start state of no update when there are no
 * points (`own_data.empty_run`).
 * @param {number[][]} X
 * @param {number[]} y
 * @param {object} settings Python's names
 * @param {{kind: string, epochs: number} | null} [fit] the editor's fit recipe (`options.fit`)
 * @returns {object}
 */
export function editorFit(X, y, settings, fit = null) {
  const options = fitOptions(settings);
  if (X.length && fit?.kind === "averaged") return fitAveraged(X, y, {}, fit.epochs);
  if (X.length) return fitPerceptron(X, y, options);
  const w0 = (options.w0 ?? [0, 0]).slice();
  const history = { w: [w0], b: [options.b0], i: [], epoch: [], marginBefore: [], marginAfter: [] };
  const s = { ...options, w0 };
  return { w: w0.slice(), b: options.b0, mistakes: 0, epochs: 0, converged: true, cycle: null, history, settings: s };
}

/**
 * The data panel's view of points (`DataPanel.view_for` in its plain mode): the points padded, the origin too
 * (with room around it) for a run through the origin from b = 0; [-1, 1] on both axes for no points.
 * @param {number[][]} X
 * @param {{fitBias: boolean, b0: number}} settings
 * @returns {{xlim: number[], ylim: number[]}}
 */
export function viewFor(X, { fitBias, b0 }) {
  let lo = X.length ? [0, 1].map((j) => Math.min(...X.map((p) => p[j]))) : [-1, -1];
  let hi = X.length ? [0, 1].map((j) => Math.max(...X.map((p) => p[j]))) : [1, 1];
  if (!fitBias && b0 === 0) {
    lo = lo.map((v) => Math.min(v, 0));
    hi = hi.map((v) => Math.max(v, 0));
    const room = 0.3 * Math.max(hi[0] - lo[0], hi[1] - lo[1]);
    lo = lo.map((v) => Math.min(v, -room));
    hi = hi.map((v) => Math.max(v, room));
  }
  let span = [0, 1].map((j) => (hi[j] > lo[j] ? hi[j] - lo[j] : 1.0));
  const most = Math.max(...span);
  span = span.map((v) => Math.max(v, 0.25 * most));
  const lim = (j) => {
    const mid = (lo[j] + hi[j]) / 2;
    const half = span[j] * (0.5 + VIEW_PAD);
    return [mid - half, mid + half];
  };
  return { xlim: lim(0), ylim: lim(1) };
}

/**
 * A list of `length` entries, each made by `make(k)` when first read (and kept): it reads as an array.
 * @param {number} length
 * @param {(k: number) => any} make
 * @returns {any[]}
 */
export function lazySteps(length, make) {
  return new Proxy(new Array(length), {
    get(target, prop, receiver) {
      if (typeof prop === "string" && /^\d+$/.test(prop)) {
        const k = Number(prop);
        if (k < length) {
          if (!(k in target)) target[k] = make(k);
          return target[k];
        }
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

/**
 * The examples state (w, b) gets wrong: its mistake test with threshold 0 (`frames.mistakes_at_each_step`).
 * @param {number[]} w
 * @param {number} b
 * @param {number[][]} X
 * @param {number[]} y
 * @param {string} updateOn
 * @returns {number[]}
 */
export function wrongAt(w, b, X, y, updateOn) {
  const nw = norm(w);
  const out = [];
  for (let i = 0; i < X.length; i++) {
    if (isMistake(dot(X[i], w) + b, y[i], updateOn, 0, nw * norm(X[i]) + Math.abs(b))) out.push(i);
  }
  return out;
}

/**
 * The `run` trait of a run the browser fitted on the editor's points.
 * @param {object} run `editorFit`'s result
 * @param {number[][]} X the points as fitted
 * @param {number[]} y
 * @param {{style: object, view: object, separator: string, hint: string, recipes: (object|null)[],
 *   lift: (string|null), readout: (string|null)}} look the preset's style, the view, the word for what separates, the words the picture's
 *   name ends with (what a click does), the recipe of each of the editor's panels (null: the browser cannot compute
 *   it; `browserPanels`), and "bowl" when X is lifted (x1, x2, x1² + x2²): then each state's circle in the view
 *   and the data panel's note on it (`liftedSteps`), as Python's `run_trait` sends them; `readout` "answers" puts
 *   the four answers' line after each step's headline (`AnswersFit.readout`, for a run of `fitAveraged`);
 *   `summary`, when given, the summary's numbers (the library's, `libraryRunSpec`) instead of `summarize`'s
 * @returns {object}
 */
export function editorRunSpec(run, X, y, look) {
  const h = run.history;
  const K = h.i.length;
  const updateOn = run.settings.updateOn;
  const summary = look.summary ?? summarize(X, y, run);
  const notes = summaryLines(summary, look.separator);
  const mistakes = lazySteps(K + 1, (k) => wrongAt(h.w[k], h.b[k], X, y, updateOn));
  const tail = look.hint ? ` ${look.hint}` : "";
  const answers = look.readout === "answers" && run.averaged && y.length ? answersErrors(run, X, y) : null;
  const words = (k) => {
    const lines = stateLines(run, X, y, k, mistakes[k].length);
    if (answers) lines.splice(1, 0, answersLine(y.length, k, answers));
    return lines.concat(notes);
  };
  return {
    version: RUN_VERSION,
    K,
    X,
    y,
    w: h.w,
    b: h.b,
    i: [-1, ...h.i],
    ring: lazySteps(K + 1, (k) => (k === 0 ? [] : [h.i[k - 1]])),
    mistakes,
    eta: run.settings.eta,
    update_on: updateOn,
    fit_bias: run.settings.fitBias,
    method: "online",
    lines: lazySteps(K + 1, words),
    alt: lazySteps(K + 1, (k) => altText(run, y.length, k, mistakes[k].length) + tail),
    view: look.view,
    style: look.style,
    crossed: updateOn === "negative" ? "wrong side" : "mistake",
    panels: browserPanels(run, X, y, look.recipes ?? [], look.style, mistakes),
    summary,
    summaryNotes: notes,
    notes, // the summary's lines; for lifted points the data panel's note at each step, as Python's `notes`
    ...(look.lift ? liftedSteps(h.w, h.b, look.view) : {}),
  };
}

/** The panels the browser computes for a run of its own, by the kind of their recipe: `claims.js`'s, the lifted
 * view (`lift_panel.js`) and lesson 06's four answers (`answers_fit.js`). */
export const BROWSER_KINDS = {
  ...BROWSER_PANELS,
  answers: (run, X, y, recipe, style) => answersSpec(run, X, y, recipe, style, { lazySteps, viewFor }),
  lifted: (run, X, y, recipe, style, mistakes) => liftedSpec(run, X, y, recipe, style, mistakes, lazySteps),
};

/**
 * The specs of the editor's panels that the browser computes for a run of its own (`BROWSER_KINDS`, by the kind
 * of the recipe Python sent); a panel it cannot compute (no recipe: it needs the kernel) is left out.
 * @param {object} run `editorFit`'s result
 * @param {number[][]} X
 * @param {number[]} y
 * @param {(object|null)[]} recipes
 * @param {object} style
 * @param {number[][]} [mistakes] the examples each state gets wrong (`wrongAt`), for the panels that word them
 * @returns {object[]}
 */
export function browserPanels(run, X, y, recipes, style, mistakes = []) {
  return recipes.flatMap((r) =>
    r && BROWSER_KINDS[r.kind] ? [BROWSER_KINDS[r.kind](run, X, y, r, style, mistakes)] : [],
  );
}

/**
 * What a data panel of lifted points draws at each step (`browser._lifted_boundaries`): the state's boundary in the
 * view (`boundaryInView`, rounded to 1e-6 as Python rounds it) and the panel's note (`boundaryNote`).
 * The editor draws Python's run in its own view with these too (Python cut its circles to its view).
 * @param {number[][]} W the states' w (each of length 3)
 * @param {number[]} B their b
 * @param {{xlim: number[], ylim: number[]}} view
 * @returns {{mode: string, curves: number[][][][], notes: string[]}}
 */
export function liftedSteps(W, B, view) {
  const round = (v) => Math.round(v * 1e6) / 1e6;
  const curve = (k) =>
    W[k].some((v) => v !== 0)
      ? boundaryInView(W[k], B[k], view.xlim, view.ylim).map((p) => p.map(([a, b]) => [round(a), round(b)]))
      : [];
  return {
    mode: "lifted",
    curves: lazySteps(W.length, curve),
    notes: lazySteps(W.length, (k) => boundaryNote(W[k], B[k], view.xlim, view.ylim, k === 0)),
  };
}

/** How a packed array's numbers are read (`library_run.ARRAYS`): bytes per number and the DataView getter. */
const DTYPES = { "<f8": [8, "getFloat64"], "<i4": [4, "getInt32"] };

/**
 * A packed array of a lean trait (`library_run.packed`: `{shape, dtype, data}`, `data` its little-endian bytes, a
 * DataView in anywidget's model as ipywidgets puts a binary buffer back) as a plain array, nested by rows for a
 * shape of two; anything else (a plain array, null) as it is.
 * @param {any} v
 * @param {string} name the key, for the error
 * @returns {any}
 */
export function unpack(v, name = "array") {
  if (v === null || typeof v !== "object" || Array.isArray(v) || !("shape" in v)) return v;
  const reader = DTYPES[v.dtype];
  const dv = dataView(v.data);
  const flat = v.shape.length === 1;
  const [rows, cols] = flat ? [v.shape[0], 1] : v.shape;
  if (!reader || dv === null || v.shape.length > 2 || dv.byteLength !== rows * cols * reader[0]) {
    throw new Error(`the run's ${name} is not a packed array of its shape ${JSON.stringify(v.shape)} (${v.dtype})`);
  }
  const [size, get] = reader;
  const at = (j) => dv[get](j * size, true);
  const out = new Array(rows);
  for (let r = 0; r < rows; r++) {
    if (flat) out[r] = at(r);
    else {
      const row = new Array(cols);
      for (let c = 0; c < cols; c++) row[c] = at(r * cols + c);
      out[r] = row;
    }
  }
  return out;
}

/** A DataView of binary data (a DataView, a typed array's view, an ArrayBuffer), or null. */
function dataView(d) {
  if (d instanceof DataView) return d;
  if (ArrayBuffer.isView(d)) return new DataView(d.buffer, d.byteOffset, d.byteLength);
  return d instanceof ArrayBuffer ? new DataView(d) : null;
}

/** The keys of a lean trait's packed arrays (`library_run.ARRAYS`). */
export const LIBRARY_ARRAYS = ["X", "y", "w", "b", "i", "epoch", "margin_before", "margin_after"];

/**
 * A lean trait with its packed arrays read (`unpack`; `averaged.t` too); any other trait as it is.
 * @param {object} msg a `run` trait
 * @returns {object}
 */
export function libraryNumbers(msg) {
  if (msg?.form !== "library") return msg;
  const out = { ...msg };
  for (const key of LIBRARY_ARRAYS) out[key] = unpack(msg[key], key);
  if (msg.averaged) out.averaged = { ...msg.averaged, t: unpack(msg.averaged.t, "averaged.t") };
  return out;
}

/**
 * The run of a lean `run` trait (`perceptron_lib.player.library_run.library_trait`: the library's run, without its
 * words or panels) as `fitPerceptron` returns a run, so that the library's states are worded and drawn as the
 * browser's own run is.
 * @param {object} msg the lean trait (its `form` is "library"), its arrays read (`libraryNumbers`)
 * @returns {object}
 */
export function libraryRun(msg) {
  const s = msg.settings;
  const history = {
    w: msg.w,
    b: msg.b,
    i: msg.i,
    epoch: msg.epoch,
    marginBefore: msg.margin_before,
    marginAfter: msg.margin_after,
  };
  const settings = {
    eta: s.eta,
    order: s.order,
    w0: msg.w[0],
    b0: msg.b[0],
    fitBias: s.fit_bias,
    updateOn: s.update_on,
    margin: s.margin,
  };
  const [w, b] = [msg.w[msg.K], msg.b[msg.K]];
  const run = { w: w.slice(), b, mistakes: msg.mistakes, epochs: msg.epochs, converged: msg.converged };
  return { ...run, cycle: msg.cycle, history, settings, ...(msg.averaged ? { averaged: msg.averaged } : {}) };
}

/**
 * The spec of the library's run from its lean trait: the run (`libraryRun`, its arrays read by `libraryNumbers`)
 * and the library's summary numbers (JSON's null for NaN read back as NaN) through `editorRunSpec`, with the
 * editor's `look`.
 * @param {object} trait the lean trait
 * @param {object} look as `editorRunSpec`'s
 * @returns {object} the spec, its `form` "library"
 */
export function libraryRunSpec(trait, look) {
  const msg = libraryNumbers(trait);
  const nan = (v) => v ?? Number.NaN;
  const m = msg.summary;
  const summary = { ...m, R: nan(m.R), gamma: nan(m.gamma), bound: nan(m.bound), boundPlain: nan(m.boundPlain) };
  return { ...editorRunSpec(libraryRun(msg), msg.X, msg.y, { ...look, summary }), form: "library" };
}

/**
 * True when `a` and `b` hold the same numbers: `Object.is` on every leaf (-0 is not 0, NaN is NaN), arrays of the
 * same length entry by entry, and an object's keys those of `a` (`b` may hold more).
 * @param {any} a
 * @param {any} b
 * @returns {boolean}
 */
export function sameNumbers(a, b) {
  if (Object.is(a, b)) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let j = 0; j < a.length; j++) if (!sameNumbers(a[j], b[j])) return false;
    return true;
  }
  return Object.keys(a).every((key) => sameNumbers(a[key], b[key]));
}

/**
 * True when the library's run (a lean trait, its arrays read, and its spec `libraryRunSpec`) draws exactly what the
 * page's own run (`mine`: `editorFit`'s result and its spec) drew: the same points as fitted and, number for number,
 * every state, update and epoch, the settings the words read, the end, the cycle and the averaged fit's counts; the
 * same view; and where the two languages' last bits may differ, the same words: each update's margins as the
 * readout writes them (`readoutNum`; the dot products' sums are rounded in another order) and the summary's lines
 * (`summaryLines`: the best margin of the page's solver against scipy's). Then every step the player draws from its
 * spec reads as the library's would, and the editor need not draw the library's run again (`editor.js` `adopt`).
 * @param {{run: object, spec: object}} mine
 * @param {object} msg the lean trait, `libraryNumbers` read
 * @param {object} lib `libraryRunSpec` of it
 * @returns {boolean}
 */
export function sameAsMine(mine, msg, lib) {
  const { run, spec } = mine;
  if (msg.form !== "library" || msg.K !== spec.K || !sameNumbers(lib.view, spec.view)) return false;
  if (!sameNumbers(msg.X, spec.X) || !sameNumbers(msg.y, spec.y)) return false;
  const theirs = libraryRun(msg);
  const h = theirs.history;
  const bare = (r) => ({ ...r, history: { ...r.history, marginBefore: null, marginAfter: null } });
  if (!sameNumbers(bare(theirs), bare(run))) return false;
  const worded = (a, b) =>
    a.length === b.length && a.every((v, j) => Object.is(v, b[j]) || readoutNum(v) === readoutNum(b[j]));
  return (
    worded(h.marginBefore, run.history.marginBefore) &&
    worded(h.marginAfter, run.history.marginAfter) &&
    sameNumbers(lib.summaryNotes, spec.summaryNotes)
  );
}
