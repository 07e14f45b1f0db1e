/**
 * The controlled player in the browser: an anywidget front end (`export default { render }`) for
 * `perceptron_lib.player.browser_switch.BrowserControlled`.
 *
 * The fit's settings (data set, order, seed, start w₁ w₂ b, η, the test) sit beside the picture, or under it where
 * the widget is narrow; in the page's order they come after the player's buttons and its picture, before its readout,
 * as they are seen (Tab: Step, ..., the picture, the settings, the readout). A change is fitted here at once
 * (`fitPerceptron`: the library's step rule, numpy's random order) and shown where the student was (`keptStep`: the
 * same update k, the new run's last if it has fewer, its end if the student was at the end), with the words of
 * `words.js` (the library's `state_lines` and `alt_text`, ported); then the new `settings` go to the model, one
 * message. A setting that does nothing with the others as they are (the seed in cyclic order) is disabled, and says
 * why. With a kernel, Python fits them with the library and sends its run (`run`, with the `settings` it was fitted
 * for), which replaces the browser's, words and all, at the step shown. With no kernel the browser's run stays.
 * While the browser's own run is on show, its steps are its own: `k` goes to the model only for a run Python made
 * (a `k` of a run Python has not seen would be refused).
 */

import { htmlEl } from "./controls.js";
import { keepControlKeys } from "./geometry.js";
import { fitPerceptron } from "./perceptron.js";
import { clampStep, mountPlayer, RUN_VERSION } from "./player.js";
import { wrongAt } from "./runspec.js";
import { besideCss } from "./switch.js";
import { altText, stateLines } from "./words.js";

/**
 * The run of `settings` fitted here, in the `run` trait's format (`browser.run_trait`), words included.
 * @param {{label: string, X: number[][], y: number[], view: object}} data the data set
 * @param {object} settings the controls' values (`BrowserControlled`'s `SETTINGS`)
 * @param {{max_epochs: number}} fixed the settings the controls do not show
 * @param {object} style the preset's sizes and colours (from the run Python sent)
 * @returns {object}
 */
export function browserRun(data, settings, fixed, style) {
  const fit = fitPerceptron(data.X, data.y, {
    eta: settings.eta,
    maxEpochs: fixed.max_epochs,
    order: settings.order,
    seed: settings.seed,
    w0: [settings.w1, settings.w2],
    b0: settings.b,
    updateOn: settings.test,
  });
  const h = fit.history;
  const mistakes = h.w.map((w, k) => wrongAt(w, h.b[k], data.X, data.y, settings.test));
  return {
    version: RUN_VERSION,
    K: h.i.length,
    X: data.X,
    y: data.y,
    w: h.w,
    b: h.b,
    i: [-1, ...h.i],
    ring: [[], ...h.i.map((i) => [i])],
    mistakes,
    eta: settings.eta,
    update_on: settings.test,
    fit_bias: true,
    method: "online",
    view: data.view,
    style,
    crossed: settings.test === "negative" ? "wrong side" : "mistake",
    panels: [],
    lines: mistakes.map((wrong, k) => stateLines(fit, data.X, data.y, k, wrong.length)),
    alt: mistakes.map((wrong, k) => altText(fit, data.y.length, k, wrong.length)),
    settings: { ...settings },
  };
}

/**
 * The settings' controls: a select for a choice, a number box for the seed, a range over listed values for a start
 * or η (its value written beside it). `onChange(name, value, final)` is called on every change; `final` is false
 * while a slider is dragged or a number typed (the browser refits) and true when it is let go (then Python hears).
 * A control whose spec has `used_with` ({name, value, note}: the seed, used by random order only) is disabled while
 * the setting `name` is not `value`, its `note` shown beside it (and part of its name): `enable(settings)`.
 * @param {Document} doc
 * @param {object[]} controls the specs (`BrowserControlled.controls`)
 * @param {object} settings the values shown first
 * @param {(name: string, value: *, final: boolean) => void} onChange
 * @returns {{el: HTMLElement, show: (settings: object) => void, enable: (settings: object) => void}}
 */
export function buildSettings(doc, controls, settings, onChange) {
  const el = htmlEl(doc, "fieldset", { class: "pc-settings" });
  el.appendChild(htmlEl(doc, "legend", {}, "Run settings (each change fits the run again)"));
  const enables = [];
  const shows = controls.map((c) => {
    const label = htmlEl(doc, "label", { class: `pc-${c.kind}` }, `${c.label} `);
    el.appendChild(label);
    if (c.kind === "int") {
      const box = htmlEl(doc, "input", { type: "number", min: String(c.min), max: String(c.max), step: "1" });
      const cell = htmlEl(doc, "span", { class: "pc-cell" });
      cell.appendChild(box);
      label.appendChild(cell);
      const when = c.used_with;
      if (when) {
        const note = htmlEl(doc, "span", { class: "pc-note" }, `(${when.note})`);
        cell.appendChild(note);
        enables.push((s) => {
          box.disabled = s[when.name] !== when.value;
          note.hidden = !box.disabled;
        });
      }
      const read = (final) => {
        const v = Number(box.value);
        if (box.value !== "" && Number.isInteger(v) && v >= c.min && v <= c.max) onChange(c.name, v, final);
      };
      box.addEventListener("input", () => read(false));
      box.addEventListener("change", () => read(true));
      return (s) => {
        if (Number(box.value) !== s[c.name] || box.value === "") box.value = String(s[c.name]);
      };
    }
    const values = c.options.map((o) => o[1]);
    const index = (v) => Math.max(0, values.indexOf(v));
    if (c.kind === "select") {
      const select = htmlEl(doc, "select");
      select.append(...c.options.map(([text], j) => htmlEl(doc, "option", { value: String(j) }, text)));
      label.appendChild(select);
      select.addEventListener("change", () => onChange(c.name, values[Number(select.value)], true));
      return (s) => {
        select.value = String(index(s[c.name]));
      };
    }
    const range = htmlEl(doc, "input", { type: "range", min: "0", max: String(values.length - 1), step: "1" });
    const out = htmlEl(doc, "output", { "aria-hidden": "true" });
    label.append(range, out);
    const say = () => {
      const text = c.options[Number(range.value)][0];
      out.textContent = text;
      range.setAttribute("aria-valuetext", text);
    };
    range.addEventListener("input", () => {
      say();
      onChange(c.name, values[Number(range.value)], false);
    });
    range.addEventListener("change", () => onChange(c.name, values[Number(range.value)], true));
    return (s) => {
      range.value = String(index(s[c.name]));
      say();
    };
  });
  const enable = (s) => {
    for (const f of enables) f(s);
  };
  const show = (s) => {
    for (const f of shows) f(s);
    enable(s);
  };
  show(settings);
  return { el, show, enable };
}

/**
 * The look: the settings beside the picture, above the readout, where the widget is wide enough (a notebook with
 * its file browser open at 1440x900: `besideCss`), one row a setting; narrower, under the picture, above the
 * readout. They are in the player's body, after its figure (`mountControlled`), in the cell `besideCss` gives them.
 */
export const CONTROLLED_CSS = `
.perceptron-browsercontrolled { container-type: inline-size; }
.perceptron-browsercontrolled .pc-settings { font-family: system-ui, sans-serif; color: #000; line-height: 1.3;
  border: 1px solid #8c8c8c; border-radius: 4px; margin: 0 0 6px; padding: 2px 8px 6px; min-width: 0;
  display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center; }
.perceptron-browsercontrolled .pc-settings legend { padding: 0 4px; font-size: 0.9em; }
.perceptron-browsercontrolled .pc-settings label { display: inline-flex; gap: 5px; align-items: center; }
.perceptron-browsercontrolled .pc-settings select, .perceptron-browsercontrolled .pc-settings input[type=number] {
  font: inherit; font-size: 0.95em; color: #000; background: #fff; border: 1px solid #595959; border-radius: 4px;
  padding: 2px 6px; min-height: 30px; }
.perceptron-browsercontrolled .pc-settings input[type=number] { width: 4.5em; }
.perceptron-browsercontrolled .pc-settings .pc-cell { display: inline-flex; gap: 6px; align-items: center; }
.perceptron-browsercontrolled .pc-settings .pc-note { color: #444; }
.perceptron-browsercontrolled .pc-settings .pc-note[hidden] { display: none; }
.perceptron-browsercontrolled .pc-settings input:disabled { color: #6b6b6b; background: #f2f2f2; border-color: #9a9a9a; }
.perceptron-browsercontrolled .pc-settings input[type=range] { width: 8em; accent-color: #0072B2; padding: 0;
  border: 0; min-height: 0; background: none; } /* not the player's box round its own inputs */
.perceptron-browsercontrolled .pc-settings output { min-width: 2.6em; font-variant-numeric: tabular-nums; }
.perceptron-browsercontrolled .pc-settings :focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
.perceptron-browsercontrolled.pp-large .pc-settings :is(legend, label, select, input, output) {
  font-size: var(--pp-text); }
@container (min-width: 56em) {
  .perceptron-browsercontrolled .pp-grid .pc-settings { display: grid; grid-template-columns: auto minmax(0, 1fr) auto;
    gap: 3px 8px; }
  .perceptron-browsercontrolled .pp-grid .pc-settings :is(select, .pc-cell) { grid-column: 2 / -1;
    justify-self: start; max-width: 100%; }
  .perceptron-browsercontrolled .pp-grid .pc-settings label { display: contents; }
  .perceptron-browsercontrolled .pp-grid .pc-settings input[type=range] { width: 100%; }
}
${besideCss("perceptron-browsercontrolled", "pc-settings")}
@container (min-width: 56em) {
  .perceptron-browsercontrolled .pp-grid .pp-body > .pc-settings { grid-column: 2; grid-row: 1; position: relative;
    z-index: 1; margin: 0 0 10px; }
}
`;

/**
 * Where the student is, to keep through a new run: update k, or the end (`Infinity`) when k is the run's last.
 * @param {number} k the update shown
 * @param {number} K the run's number of updates
 * @returns {number}
 */
export function placeOf(k, K) {
  return k >= K ? Number.POSITIVE_INFINITY : k;
}

/**
 * The update a new run of K updates is shown at, for a student at `place` (`placeOf`): the same update k, the run's
 * last if it has fewer, its end for a student who was at the end. A setting that leaves the run as it was (the
 * same K) leaves the student where they were.
 * @param {number} place
 * @param {number} K
 * @returns {number}
 */
export function keptStep(place, K) {
  return Math.min(place, K);
}

const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((n) => a[n] === b[n]);

/**
 * Build the controlled player into `el`. Returns `{unmount, player: () => handle, change, shownRun}`.
 * @param {{get: Function, set: Function, on: Function, off: Function, save_changes: Function}} model
 * @param {HTMLElement} el
 * @returns {{unmount: () => void, player: () => object, change: Function, shownRun: () => object}}
 */
export function mountControlled(model, el) {
  const doc = el.ownerDocument;
  const datasets = model.get("datasets");
  const style = model.get("run").style;
  let settings = { ...model.get("settings") };
  // The player's model: `k` is the widget's while Python's run is on show, the browser's own otherwise.
  const local = { k: Number(model.get("k")), kernel: true, listeners: [], dirty: false };
  let spec = model.get("run");
  // where the student went (a step, Play, the box, Python's `k`): kept through a new run (`keptStep`)
  let place = placeOf(local.k, spec.K);
  const proxy = {
    get: (name) => (name === "k" ? local.k : model.get(name)),
    set: (name, value) => {
      if (name === "k") [local.k, place] = [value, placeOf(value, spec.K)];
      if (name === "k" && !local.kernel) return;
      model.set(name, value);
      local.dirty = true;
    },
    save_changes: () => {
      if (local.dirty) model.save_changes();
      local.dirty = false;
    },
    on: (event, cb) => {
      if (event === "change:k") local.listeners.push(cb);
    },
    off: (event, cb) => {
      if (event === "change:k") local.listeners = local.listeners.filter((f) => f !== cb);
    },
  };
  const root = htmlEl(doc, "div", { class: "perceptron-browsercontrolled" });
  if (style.text_px > 0) {
    root.classList.add("pp-large");
    root.style.setProperty("--pp-text", `${style.text_px}px`);
  }
  const holder = htmlEl(doc, "div", { class: "pp-holder" });
  let player = null;
  /** Show `run` at step k: the first in a new player, with the settings between its picture and its column (the
   * page's order is the order seen); the next in the same elements (`setRun`: the focus, in a setting too, stays). */
  const show = (run, kernel, k) => {
    spec = run;
    local.kernel = kernel;
    local.k = clampStep(k, run.K);
    if (player !== null) return player.setRun(run, local.k);
    player = mountPlayer(proxy, holder, run);
    player.root.querySelector(".pp-figure").after(form.el);
  };
  const tellK = (k) => {
    if (Number(model.get("k")) === k) return;
    model.set("k", k);
    model.save_changes();
  };
  /** A setting changed here: fitted and shown at once; the model hears the settings when the change is final. */
  const change = (name, value, final) => {
    const next = { ...settings, [name]: value };
    const kernelRun = model.get("run");
    if (same(next, kernelRun.settings) && !local.kernel) {
      const k = keptStep(place, kernelRun.K);
      show(kernelRun, true, k); // back to the settings of Python's run: Python's run again
      tellK(k);
    } else if (!same(next, spec.settings)) {
      const data = datasets.find((d) => d.label === next.data);
      const run = browserRun(data, next, model.get("fit"), style);
      show(run, false, keptStep(place, run.K));
    }
    settings = next;
    form.enable(settings);
    if (final && !same(settings, model.get("settings"))) {
      model.set("settings", { ...settings });
      model.save_changes();
    }
  };
  const form = buildSettings(doc, model.get("controls"), settings, change);
  const grid = htmlEl(doc, "div", { class: "pp-grid" });
  grid.append(holder); // the settings go into the player (`show`)
  root.append(htmlEl(doc, "style", {}, CONTROLLED_CSS), grid);
  el.replaceChildren(root);
  show(spec, true, local.k);

  /** Python's run: it replaces the browser's when it is of the settings on show (an older one is let go). */
  const onRun = () => {
    const run = model.get("run");
    if (!same(run.settings, settings)) return;
    const k = local.kernel ? Number(model.get("k")) : clampStep(player.shown(), run.K);
    show(run, true, k);
    tellK(k);
  };
  /** Settings set in Python: shown in the controls; Python's run follows. */
  const onSettings = () => {
    const s = model.get("settings");
    if (same(s, settings)) return;
    settings = { ...s };
    form.show(settings);
  };
  const onK = () => {
    const k = Number(model.get("k"));
    if (!local.kernel || k === local.k) return;
    [local.k, place] = [k, placeOf(k, spec.K)];
    for (const cb of local.listeners) cb();
  };
  model.on("change:run", onRun);
  model.on("change:settings", onSettings);
  model.on("change:k", onK);
  const unmount = () => {
    model.off("change:run", onRun);
    model.off("change:settings", onSettings);
    model.off("change:k", onK);
    player.unmount();
    root.remove();
  };
  return { unmount, player: () => player, change, shownRun: () => spec };
}

/**
 * anywidget's entry.
 * @param {{model: object, el: HTMLElement}} view
 * @returns {() => void}
 */
function renderControlled({ model, el }) {
  keepControlKeys(el);
  const mounted = mountControlled(model, el);
  return () => mounted.unmount();
}

export default { render: renderControlled };
