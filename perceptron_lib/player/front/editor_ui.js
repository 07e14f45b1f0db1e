/**
 * The editor's parts around the player, as plain DOM: the row of edit buttons, the keyboard cursor's boxes, the
 * message line (a polite live region) and what it says (`messageLine`), the "points as text" box, and the marks drawn
 * over the picture (the keyboard cursor, the selected point). Nothing here knows the points: `editor.js` wires these
 * to them.
 */

import { htmlEl } from "./controls.js";
import { fmt, PT, svgEl } from "./scene.js";

/** What a click does, said after the picture's sentence (its accessible name) and in the help. */
export const EDIT_HINT =
  "Click or tap to add a point (shift-click: the other class), drag a point to move it, select one and press " +
  "Remove point.";

/** The keys of the editor, said under its controls. */
export const EDIT_KEY_HELP =
  "With the picture focused or the pointer on it: Delete removes the selected point. With the keyboard cursor " +
  "on: the arrow keys move it (shift: further), Enter adds a point there, Delete removes the nearest, Escape " +
  "hides it. Tab moves on.";

/** The editor's look; every rule is under its root class. */
export const EDITOR_CSS = `
.perceptron-browsereditor { font-family: system-ui, sans-serif; color: #000; background: #fff; line-height: 1.4; }
.perceptron-browsereditor .pe-row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 6px; }
.perceptron-browsereditor .pe-row[hidden] { display: none; }
.perceptron-browsereditor .pe-message { min-height: 1.4em; margin: 2px 0 6px; max-width: 60em; }
.perceptron-browsereditor .pe-message.pe-problem { color: #8a1c00; }
.perceptron-browsereditor .pe-kernel-note { margin: 0 0 6px; max-width: 60em; color: #444; font-style: italic; }
.perceptron-browsereditor .pe-kernel-note[hidden] { display: none; }
.perceptron-browsereditor fieldset { display: inline-flex; gap: 4px; align-items: center; border: 0; margin: 0;
  padding: 0; }
.perceptron-browsereditor legend { float: left; margin-right: 4px; padding: 0; }
.perceptron-browsereditor :is(button, input:not([type=checkbox]), textarea) { font: inherit; font-size: 0.95em;
  color: #000; background: #f2f2f2; border: 1px solid #595959; border-radius: 4px; padding: 4px 10px; min-height: 32px; }
/* the checkbox as a checkbox, beside its words (the boxes' padding made it a wide grey button, its words far off) */
.perceptron-browsereditor input[type=checkbox] { width: 1.1em; height: 1.1em; margin: 0 0.4em 0 0; vertical-align: -0.15em;
  accent-color: #0072B2; }
.perceptron-browsereditor :is(input[type=number], textarea) { background: #fff; }
.perceptron-browsereditor input[type=number] { width: 6em; }
.perceptron-browsereditor button:disabled { color: #6b6b6b; border-color: #9a9a9a; }
.perceptron-browsereditor button[aria-pressed=true] { background: #d7e9f7; border-color: #0072B2; }
.perceptron-browsereditor :focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
.perceptron-browsereditor textarea { width: min(100%, 640px); height: 5em; font-family: monospace; }
.perceptron-browsereditor .pe-keyhelp { font-size: 0.85em; color: #444; margin: 4px 0 0; max-width: 40em; }
.perceptron-browsereditor .pe-foot { display: flex; flex-wrap: wrap; gap: 4px 1.5em; align-items: flex-start; }
.perceptron-browsereditor .pp-figure > .pe-foot { margin-top: 4px; }
.perceptron-browsereditor .pe-beside .pe-message { margin: 0 0 4px; }
.perceptron-browsereditor .pe-keys > summary, .perceptron-browsereditor .pe-more > summary { cursor: pointer; }
.perceptron-browsereditor .pp-scene { touch-action: none; user-select: none; -webkit-user-select: none; }
.perceptron-browsereditor.pe-large :is(.pe-row, .pe-row *, .pe-message, .pe-kernel-note, .pe-keyhelp, .pe-keys, .pe-more, .pe-more *) {
  font-size: var(--pp-text); }
/* lecture: the folded parts opened in the column beside the picture leave the readout one line, the rest scrolling,
   so that the column stays in the picture's height (05's editor at 20 px, points as text open: 630 px of 599) */
.perceptron-browsereditor .pp-large .pp-side:has(.pe-more[open], .pe-keys[open]) > .pp-readout { min-height: 1.3em; }
/* a narrow editor (its player pp-narrow, a phone): its own rows' buttons, fields and messages no smaller than the
   player's (controls.js: 16 px, the page's body) */
.perceptron-browsereditor:has(.pp-narrow) :is(.pe-row, .pe-foot) :is(button, select, input, label, summary),
.perceptron-browsereditor:has(.pp-narrow) .pe-message { font-size: 16px; }
/* a touch-only screen (a phone, a tablet): no keys to tell of, as the player's key help (controls.js) */
@media (hover: none) and (pointer: coarse) { .perceptron-browsereditor .pe-keys { display: none; } }
`;

/** How long a message that reports rather than describes (Copy's) stays, at most, ms. */
export const BRIEF_MS = 10000;

const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);

/**
 * The height the message line keeps (its `min-height`), for two rules. One (`hold`, `release`): a line emptied
 * while the pointer is on the editor keeps its height until the pointer leaves. The other (`measure`, after each
 * message): where the line sits above the picture, it keeps the height of the tallest message it has shown at this
 * width (on a phone the first, the hint, is three lines; an edit's one to three; at 1440 px one or two, as the
 * coordinates' digits go): a shorter message no longer moves the picture up, and a longer one moved it by a line or
 * two between two clicks (390 px wide: about 22 px; tester 6: 18 px on the site's lesson 04 at 1440 px), so that the
 * next click landed elsewhere. So it does in a deck, whose slide reveal.js centres by its height (tester 6: an edit
 * and an Undo moved 06's buttons 14 px). A new width starts again from the message shown. In the lecture column of
 * a notebook or the app a message moves nothing that the student aims at: there only the first rule holds, so that
 * the editor stays as short as it is (it fits the screen).
 * @param {HTMLElement} message the line
 * @param {HTMLElement} root the editor's root
 * @param {Window} win
 * @returns {{hold: () => void, release: () => void, measure: () => void}}
 */
export function keptHeight(message, root, win) {
  let [held, tallest, width] = [0, 0, -1];
  const still = () => message.closest(".reveal") !== null || !message.closest(".pp-side");
  const apply = () => {
    const px = Math.max(held, tallest);
    message.style.minHeight = px > 0 ? `${px}px` : "";
  };
  const own = () => message.getBoundingClientRect().height; // to the layout's own fraction of a px
  const measure = () => {
    if (root.clientWidth === 0) return; // not laid out (a hidden tab): measured when it is
    tallest = still() ? Math.max(tallest, own()) : 0;
    apply();
  };
  const resized = () => {
    if (root.clientWidth === width || root.clientWidth === 0) return;
    width = root.clientWidth;
    tallest = 0;
    apply();
    measure();
  };
  if (win.ResizeObserver) new win.ResizeObserver(resized).observe(root);
  return {
    hold: () => {
      held = own();
      apply();
    },
    release: () => {
      held = 0;
      apply();
    },
    measure,
  };
}

/**
 * The message line's words: `say(text, problem)` puts the result of an edit (or why it was not done) there, until
 * the next message; `sayBriefly(text)` a report of something done beside the points (Copy's "the points are on the
 * clipboard"), which goes at the next thing the student does in the editor (a click, a key: the next edit, a step;
 * not a shortcut such as Ctrl+C) or after `BRIEF_MS`, whichever comes first. The line is a polite live region: each
 * message is read out once, when it is put there; emptying the line says nothing. Emptied while the pointer is on
 * the editor, the line keeps its height until the pointer leaves it (or the next message): the button under the
 * pointer does not move between the press and the click, nor before a second click.
 * @param {HTMLElement} message the line (`buildEditorControls`'s `message`)
 * @param {HTMLElement} root the editor's root: where the student's next action is heard
 * @param {Window} win
 * @param {number} [ms]
 * @returns {{say: (text: string, problem?: boolean) => void, sayBriefly: (text: string) => void}}
 */
export function messageLine(message, root, win, ms = BRIEF_MS) {
  const height = keptHeight(message, root, win);
  let brief = null; // the brief message's timer and listener, while it shows
  const end = () => {
    if (brief === null) return;
    win.clearTimeout(brief.timer);
    root.removeEventListener("pointerdown", brief.next, true);
    win.removeEventListener("keydown", brief.next, true);
    brief = null;
  };
  /** A key for the editor (pressed in it, or with the pointer on it: the player's ← → on the picture), no shortcut
   * (the fallback's own Ctrl+C) nor a modifier pressed alone. */
  const editorKey = (event) =>
    (root.contains(event.target) || root.matches(":hover")) &&
    !(event.ctrlKey || event.metaKey || event.altKey || MODIFIERS.has(event.key));
  const release = () => {
    height.release();
    root.removeEventListener("pointerleave", release);
  };
  const say = (text, problem = false) => {
    end();
    release();
    message.textContent = problem ? `Not done: ${text} Your points are as they were.` : text;
    message.classList.toggle("pe-problem", problem);
    height.measure();
  };
  const sayBriefly = (text) => {
    say(text);
    const next = (event) => {
      if (event?.type === "keydown" && !editorKey(event)) return;
      end();
      if (event?.type === "pointerdown" || root.matches(":hover")) {
        height.hold();
        root.addEventListener("pointerleave", release);
      }
      message.textContent = "";
    };
    brief = { next, timer: win.setTimeout(next, ms) };
    // keys on the window, in the capture phase, as the player's and the editor's own (which stop them there)
    win.addEventListener("keydown", next, true);
    root.addEventListener("pointerdown", next, true);
  };
  return { say, sayBriefly };
}

/**
 * A button with a tooltip.
 * @param {Document} doc
 * @param {Element} parent
 * @param {string} text
 * @param {string} title
 * @returns {HTMLButtonElement}
 */
function button(doc, parent, text, title) {
  const b = htmlEl(doc, "button", { type: "button", title }, text);
  parent.appendChild(b);
  return b;
}

/**
 * The editor's controls: the class of a new point (+1 or −1, two toggle buttons), Undo, Redo, Start again, Clear,
 * Copy points, Keyboard cursor; the cursor's two number boxes with "Add here" and "Remove nearest"; the message
 * line; and, folded, the points as text with Load and the "stay at update k" choice.
 * @param {Document} doc
 * @param {string} id a unique prefix for the elements' ids
 * @returns {object} the elements, by name
 */
export function buildEditorControls(doc, id) {
  const row = htmlEl(doc, "div", { class: "pe-row" });
  const classes = htmlEl(doc, "fieldset", {});
  classes.appendChild(htmlEl(doc, "legend", {}, "new point"));
  const pos = button(doc, classes, "+1", "new points of class +1");
  const neg = button(doc, classes, "−1", "new points of class −1 (or shift-click)");
  pos.setAttribute("aria-label", "class +1");
  neg.setAttribute("aria-label", "class −1");
  row.appendChild(classes);
  const removeOne = button(doc, row, "Remove point", "remove the point selected (Delete; or alt-click a point)");
  const undo = button(doc, row, "Undo", "undo the last edit");
  const redo = button(doc, row, "Redo", "redo the edit undone");
  const again = button(doc, row, "Start again", "back to the lesson's data");
  const clear = button(doc, row, "Clear", "remove every point");
  const copy = button(doc, row, "Copy points", "copy the points as Python, to paste into a cell");
  const cursor = button(doc, row, "Keyboard cursor", "a cursor moved by the arrow keys or two number boxes");
  cursor.setAttribute("aria-pressed", "false");
  const cursorRow = htmlEl(doc, "div", { class: "pe-row pe-cursor-row", hidden: "" });
  const box = (label) => {
    const wrap = htmlEl(doc, "label", {}, `${label} `);
    const input = htmlEl(doc, "input", { type: "number", step: "any" });
    wrap.appendChild(input);
    cursorRow.appendChild(wrap);
    return input;
  };
  const cx = box("cursor x₁");
  const cy = box("cursor x₂");
  const addHere = button(doc, cursorRow, "Add here", "add a point at the cursor (Enter)");
  const removeNear = button(doc, cursorRow, "Remove nearest", "remove the point nearest the cursor (Delete)");
  const message = htmlEl(doc, "div", { class: "pe-message", role: "status", "aria-live": "polite" });
  const more = htmlEl(doc, "details", { class: "pe-more" });
  more.appendChild(htmlEl(doc, "summary", {}, "points as text, options"));
  const text = htmlEl(doc, "textarea", {
    id: `${id}-text`,
    "aria-label": "points as Python",
    placeholder: "X = [[0.5, 1], [-1, 2]]\ny = [1, -1]",
    spellcheck: "false",
  });
  const loadRow = htmlEl(doc, "div", { class: "pe-row" });
  loadRow.appendChild(text);
  const load = button(doc, loadRow, "Load", "replace the points by the ones in the box");
  const stayLabel = htmlEl(doc, "label", {});
  const stay = htmlEl(doc, "input", { type: "checkbox" });
  stayLabel.append(stay, doc.createTextNode(" stay at update k after an edit"));
  more.append(loadRow, stayLabel);
  const help = htmlEl(doc, "p", { class: "pe-keyhelp", id: `${id}-help` }, EDIT_KEY_HELP);
  // folded beside the points as text, so that the editor, whole, fits the screen (the picture names it)
  const keys = htmlEl(doc, "details", { class: "pe-keys" });
  keys.append(htmlEl(doc, "summary", {}, "keys"), help);
  const foot = htmlEl(doc, "div", { class: "pe-foot" });
  foot.append(keys, more);
  return {
    row,
    pos,
    neg,
    removeOne,
    undo,
    redo,
    again,
    clear,
    copy,
    cursor,
    cursorRow,
    cx,
    cy,
    addHere,
    removeNear,
    message,
    more,
    text,
    load,
    stay,
    help,
    foot,
  };
}

/**
 * Draw the marks over the picture: the keyboard cursor (a cross in a circle) and a ring round the selected point.
 * The group is made once per picture and emptied first: the marks are a function of (cursor, selected) alone.
 * @param {object} scene the player's scene (`buildScene`)
 * @param {number[] | null} cursor data coordinates
 * @param {number[] | null} selected the selected point's data coordinates
 */
export function drawMarks(scene, cursor, selected) {
  const doc = scene.svg.ownerDocument;
  const plot = scene.svg.querySelector(".pp-plot");
  let g = plot.querySelector(".pe-marks");
  if (g === null) g = svgEl(doc, "g", { class: "pe-marks" }, plot);
  g.replaceChildren();
  const { tf } = scene;
  const r = (Math.sqrt(scene.spec.style.marker_size * 1.25) * PT) / 2 + 5;
  if (selected !== null) {
    svgEl(
      doc,
      "circle",
      {
        class: "pe-selected",
        cx: fmt(tf.x(selected[0])),
        cy: fmt(tf.y(selected[1])),
        r: fmt(r),
        fill: "none",
        stroke: "#0072B2",
        "stroke-width": 2.5,
        "stroke-dasharray": "4 3",
      },
      g,
    );
  }
  if (cursor !== null) {
    const [x, y] = [tf.x(cursor[0]), tf.y(cursor[1])];
    const look = { stroke: "#000000", "stroke-width": 1.5, fill: "none" };
    svgEl(doc, "circle", { class: "pe-cursor", cx: fmt(x), cy: fmt(y), r: fmt(r), ...look }, g);
    svgEl(
      doc,
      "path",
      { d: `M${fmt(x - 2 * r)},${fmt(y)}H${fmt(x + 2 * r)}M${fmt(x)},${fmt(y - 2 * r)}V${fmt(y + 2 * r)}`, ...look },
      g,
    );
  }
}
