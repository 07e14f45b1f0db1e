/**
 * A run switch in the browser: an anywidget front end (`export default { render }`) for
 * `perceptron_lib.player.browser_switch.BrowserSwitch`.
 *
 * Python sends every run once (`runs`: each in the `run` trait's format of `BrowserPlayer`, all on one view and
 * one value range per curve panel). A labelled radio group, drawn as segmented buttons beside the picture (under it
 * where the widget is narrow), chooses the run; in the page's order it comes after the player's buttons and its
 * picture, before the column beside it, as it is seen (Tab: Step, ..., the picture, the choice, the readout). The
 * player (`mountPlayer`) shows the chosen run at the step shown before, clamped to its last, in the same elements
 * (`setRun`: a choice made by the keyboard keeps the focus). A choice sends the model one message: `choice`, with
 * `k` when the clamp changed it. The arrows move along the group, as in any radio group; Tab leaves it.
 */

import { htmlEl } from "./controls.js";
import { keepControlKeys, pageNumber } from "./geometry.js";
import { clampStep, mountPlayer } from "./player.js";
import { VIEW_RESERVE } from "./side.js";

/**
 * CSS that puts the element of class `item`, placed in the player's body right after its figure (`.pp-figure`),
 * beside the player's picture, above its side column (charts and readout), in a widget of class `root` at least
 * 56em wide. The widget's grid is passed down through the player's boxes (CSS subgrid), which keep their places in
 * the page's tree and their boxes: the page's order stays the order seen (the player's buttons, its picture, `item`,
 * the column). Narrower, `item` comes under the picture, over the column. The picture is never taller than the
 * window allows (`VIEW_RESERVE`); in the lecture preset the player holds its column, from its own top under `item`,
 * to the picture's bottom (`side.js` fitColumn).
 * @param {string} root
 * @param {string} item
 * @returns {string}
 */
export function besideCss(root, item) {
  const r = `.${root} .pp-grid`;
  const sub = "display: grid; grid-template: subgrid / subgrid; margin: 0;";
  return `
.${root} { container-type: inline-size; }
@container (min-width: 56em) {
  ${r} { display: grid; column-gap: 16px; align-items: start; grid-template-columns: max-content minmax(16em, 34em);
    grid-template-rows: auto auto 1fr auto; }
  ${r} > .pp-holder, ${r} .perceptron-browserplayer { grid-column: 1 / 3; grid-row: 1 / 5; ${sub} }
  ${r} .pp-controls { grid-column: 1 / 3; grid-row: 1; }
  ${r} .pp-body { grid-column: 1 / 3; grid-row: 2 / 4; ${sub} }
  ${r} .pp-figure { grid-column: 1; grid-row: 1 / 3; }
  ${r} .pp-body > :not(.pp-figure) { grid-column: 2; grid-row: 2; max-width: none; min-width: 0; }
  ${r} .pp-large .pp-body { grid-row: 2 / 5; }
  ${r} .pp-body > .pp-panel { grid-column: 1 / 3; grid-row: 3; margin-top: 8px; }
  ${r} .pp-body > .${item} { grid-column: 2; grid-row: 1; position: relative; z-index: 1; margin: 0 0 10px; }
}
.${root} .pp-picture svg { width: auto; max-height: calc(100vh - ${VIEW_RESERVE}px); }`;
}

/** The switch's look: the choices as one row of joined buttons; the chosen one filled, bold and ticked. */
export const SWITCH_CSS = `
.perceptron-choice { font-family: system-ui, sans-serif; color: #000; line-height: 1.4; border: 0; padding: 0;
  margin: 0 0 6px; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 0; min-width: 0; }
.perceptron-choice legend { float: left; padding: 0; margin-right: 10px; font-weight: 600; }
.perceptron-choice label { position: relative; display: inline-flex; align-items: center; min-height: 32px;
  padding: 3px 12px; background: #f2f2f2; border: 1px solid #595959; margin-left: -1px; cursor: pointer; }
.perceptron-choice label:first-of-type { border-radius: 4px 0 0 4px; margin-left: 0; }
.perceptron-choice label:last-of-type { border-radius: 0 4px 4px 0; }
.perceptron-choice input { position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }
.perceptron-choice label:has(input:checked) { background: #0072B2; color: #fff; font-weight: 700; z-index: 1; }
.perceptron-choice label:has(input:checked)::before { content: "✓ "; white-space: pre; }
.perceptron-choice label:has(input:focus-visible) { outline: 3px solid #000; outline-offset: 2px; z-index: 2; }
.perceptron-choice.pp-large { font-size: var(--pp-text); }
`;

/**
 * The choice: a fieldset (its legend the `description`) of radio inputs, one per label, the `chosen` one checked.
 * @param {Document} doc
 * @param {string[]} labels
 * @param {string} description
 * @param {number} chosen
 * @returns {{group: HTMLFieldSetElement, inputs: HTMLInputElement[]}}
 */
export function buildChoice(doc, labels, description, chosen) {
  const name = `perceptron-choice-${pageNumber("choice")}`;
  const group = htmlEl(doc, "fieldset", { class: "perceptron-choice" });
  group.appendChild(htmlEl(doc, "legend", {}, description));
  const inputs = labels.map((text, j) => {
    const input = htmlEl(doc, "input", { type: "radio", name, value: String(j) });
    input.checked = j === chosen;
    const label = htmlEl(doc, "label");
    label.append(input, doc.createTextNode(text));
    group.appendChild(label);
    return input;
  });
  return { group, inputs };
}

/**
 * Check the switch's runs: at least one, one label each, every run one this front end draws.
 * @param {object[]} runs
 * @param {string[]} labels
 */
function checkRuns(runs, labels) {
  if (!Array.isArray(runs) || runs.length === 0 || runs.length !== labels.length) {
    throw new Error(`the switch has ${runs?.length} runs and ${labels?.length} labels; it needs one label per run.`);
  }
}

/**
 * Build the switch of the model's runs into `el`. Returns `{unmount, player: () => handle, choose}`.
 * @param {{get: Function, set: Function, on: Function, off: Function, save_changes: Function}} model
 * @param {HTMLElement} el
 * @returns {{unmount: () => void, player: () => object, choose: (j: number) => void}}
 */
export function mountSwitch(model, el) {
  const doc = el.ownerDocument;
  const runs = model.get("runs");
  const labels = model.get("labels");
  checkRuns(runs, labels);
  let current = Math.min(Math.max(Number(model.get("choice")) || 0, 0), runs.length - 1);
  const { group, inputs } = buildChoice(doc, labels, model.get("description"), current);
  const style = runs[0].style;
  if (style.text_px > 0) {
    group.classList.add("pp-large");
    group.style.setProperty("--pp-text", `${style.text_px}px`);
  }
  const holder = htmlEl(doc, "div", { class: "pp-holder" });
  const grid = htmlEl(doc, "div", { class: "pp-grid" });
  grid.append(holder); // the choice goes into the player, after its picture
  const root = htmlEl(doc, "div", { class: "perceptron-browserswitch" });
  root.append(htmlEl(doc, "style", {}, SWITCH_CSS + besideCss("perceptron-browserswitch", "perceptron-choice")), grid);
  el.replaceChildren(root);
  // in the lecture preset the player holds its column, under the choice, to the picture's bottom (`side.js`)
  const player = mountPlayer(model, holder, runs[current], () => runs); // in a deck: held as tall as the tallest run
  player.root.querySelector(".pp-figure").after(group);

  /** Show run j at step k in the player's elements (the focus, on the choice too, stays), the choice marked. */
  const show = (j, k) => {
    current = j;
    inputs[j].checked = true;
    player.setRun(runs[j], k);
  };
  /** The student's choice: run j at the step shown now (clamped), drawn, then one message to the model. */
  const choose = (j) => {
    if (j === current || !(j >= 0 && j < runs.length)) return;
    const k = clampStep(player.shown(), runs[j].K);
    current = j; // before the model hears: its echo of `choice` is this choice
    model.set("choice", j);
    if (model.get("k") !== k) model.set("k", k); // the player's `go` finds k told: no message of its own
    show(j, k);
    model.save_changes();
  };
  const onInput = (event) => choose(Number(event.target.value));
  for (const input of inputs) input.addEventListener("change", onInput);
  /** A choice made in Python (`select`): its `k` comes with it. */
  const onModelChoice = () => {
    const j = Number(model.get("choice"));
    if (j === current || !(j >= 0 && j < runs.length)) return;
    show(j, Number(model.get("k")));
  };
  model.on("change:choice", onModelChoice);
  const unmount = () => {
    model.off("change:choice", onModelChoice);
    player.unmount();
    root.remove();
  };
  return { unmount, player: () => player, choose };
}

/**
 * anywidget's entry.
 * @param {{model: object, el: HTMLElement}} view
 * @returns {() => void} the clean-up anywidget calls when the view goes
 */
function renderSwitch({ model, el }) {
  keepControlKeys(el);
  let mounted = mountSwitch(model, el);
  const onRuns = () => {
    mounted.unmount();
    mounted = mountSwitch(model, el);
  };
  model.on("change:runs", onRuns);
  return () => {
    model.off("change:runs", onRuns);
    mounted.unmount();
  };
}

export default { render: renderSwitch };
