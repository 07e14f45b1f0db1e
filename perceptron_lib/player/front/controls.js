/**
 * The player's parts around the picture, as plain DOM: the buttons, the speed choice, the "update k" box,
 * the legend, the readout, and the look of them all (`CSS`). Nothing here knows the step: `player.js`
 * wires these to the frame on show.
 */

import { markerPath, PT, svgEl } from "./scene.js";

/** The speed choices: label and time between steps while playing, ms (the player's `interval_ms` is one of them by default). */
export const SPEEDS = [
  ["0.5/s", 2000],
  ["1/s", 1000],
  ["2/s", 500],
  ["4/s", 250],
  ["10/s", 100],
  ["20/s", 50],
];

/** The keys said under the controls (the picture listens only while it has the focus or the pointer). */
export const KEY_HELP =
  "Keys, with the picture focused or the pointer on it: ← → step, Home / End go to the ends, space plays and " +
  "pauses. Tab moves on, and every other key is left to the page.";

/** The player's look; every rule is under the root class, so nothing outside the widget changes. */
export const CSS = `
.perceptron-browserplayer { font-family: system-ui, sans-serif; color: #000; background: #fff; line-height: 1.4; }
.perceptron-browserplayer .pp-controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 6px; }
.perceptron-browserplayer button, .perceptron-browserplayer select, .perceptron-browserplayer input {
  font: inherit; font-size: 0.95em; color: #000; background: #f2f2f2; border: 1px solid #595959; border-radius: 4px;
  padding: 4px 10px; min-height: 32px; box-sizing: border-box; }
.perceptron-browserplayer input { width: 5em; background: #fff; }
.perceptron-browserplayer button:disabled { color: #4d4d4d; background: #fafafa; border: 1px dashed #8c8c8c; }
/* Play reads Pause while playing: as wide as "Pause" (with the padding and border), so that the speed and the k box
   beside it stay put (they moved 17 px: tester 6) */
.perceptron-browserplayer .pp-controls button[aria-pressed] { min-width: calc(3em + 22px); }
.perceptron-browserplayer :focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
.perceptron-browserplayer label { display: inline-flex; gap: 4px; align-items: center; }
.perceptron-browserplayer .pp-body { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.perceptron-browserplayer .pp-picture { display: inline-block; max-width: 100%; }
.perceptron-browserplayer .pp-picture svg { display: block; max-width: 100%; height: auto; }
.perceptron-browserplayer .pp-legend { display: flex; flex-wrap: wrap; gap: 2px 14px; margin: 2px 0 0; padding: 0;
  list-style: none; max-width: 30em; }
.perceptron-browserplayer .pp-legend li { display: inline-flex; gap: 5px; align-items: center; }
.perceptron-browserplayer .pp-side { flex: 1 1 18em; min-width: 16em; max-width: 40em; display: flex;
  flex-direction: column; gap: 8px; }
.perceptron-browserplayer .pp-side .pp-legend { max-width: none; }
/* lecture: 4 lines at least (fitColumn puts the column's panels under tabs where it leaves the readout less) */
.perceptron-browserplayer.pp-large .pp-side .pp-readout { min-height: 5.2em; overflow-y: auto; }
/* lecture: lines set closer (a deck's slide shows the whole readout at 20 px, with no scrolling) */
.perceptron-browserplayer.pp-large .pp-readout { line-height: 1.3; }
/* lecture: the column takes the width a wider window gives (its legend and readout wrap less, and a chart that did not
   fit beside the picture may fit again: side.js fitColumn) */
.perceptron-browserplayer.pp-large .pp-side { max-width: 60em; }
.perceptron-browserplayer .pp-panel svg { display: block; max-width: 100%; height: auto; }
.perceptron-browserplayer .pp-panel .pp-legend li { white-space: pre-line; }
.perceptron-browserplayer .pp-readout { max-width: 34em; font-size: 1.05em; line-height: 1.45;
  font-variant-numeric: tabular-nums; }
.perceptron-browserplayer .pp-readout p { margin: 0; line-height: inherit; }
.perceptron-browserplayer .pp-keyhelp { font-size: 0.85em; color: #444; margin: 4px 0 0; max-width: 40em; }
.perceptron-browserplayer .pp-keys summary { cursor: pointer; padding: 4px 6px; }
.perceptron-browserplayer .pp-keys[open] { flex-basis: 100%; }
.perceptron-browserplayer.pp-large :is(.pp-controls, .pp-controls *, .pp-keyhelp, .pp-tabs [role="tab"]) {
  font-size: var(--pp-text); }
.perceptron-browserplayer.pp-large .pp-controls { margin-bottom: 2px; }
/* lecture: the key help opens over the picture, not as a line that pushes the picture down (a 1280x720 view: 646-701
   px of 599 with it open) */
.perceptron-browserplayer.pp-large .pp-keys { position: relative; }
.perceptron-browserplayer.pp-large .pp-keys[open] { flex-basis: auto; }
.perceptron-browserplayer.pp-large .pp-keys[open] > .pp-keyhelp { position: absolute; top: 100%; right: 0; z-index: 2;
  width: 24em; max-width: 80vw; margin: 0; padding: 6px 10px; color: #000; background: #fff; border: 1px solid #595959;
  border-radius: 4px; box-shadow: 0 2px 6px rgb(0 0 0 / 25%); }
.perceptron-browserplayer .pp-tabs { display: flex; flex-wrap: wrap; gap: 4px; border-bottom: 2px solid #595959; }
.perceptron-browserplayer .pp-tabs [role="tab"] { border-radius: 4px 4px 0 0; margin-bottom: -2px; }
.perceptron-browserplayer .pp-tabs [aria-selected="true"] { background: #fff; border-bottom: 2px solid #fff;
  font-weight: bold; }
/* a tall panel under a tab: with the tabs and the headline above it, in a 1280x720 view (lesson 02's switch: 587 px
   of 599, its choice above the column) */
.perceptron-browserplayer .pp-tabpanel .pl-picture svg, .perceptron-browserplayer .pp-tabpanel svg.pp-contour {
  max-height: 340px; width: auto; }
/* lecture: 312 px (its 20 px choice and tabs above: 02's switch 620 px of 599 with 340) */
.perceptron-browserplayer.pp-large .pp-tabpanel :is(.pl-picture svg, svg.pp-contour) { max-height: 312px; }
.perceptron-browserplayer .pp-side.pp-on-panel > :not(.pp-tabs, .pp-readout, .pp-tabpanel) { display: none; }
.perceptron-browserplayer.pp-large .pp-side.pp-on-panel > .pp-readout { min-height: 0 !important; max-height: none !important;
  overflow: visible;
  flex-shrink: 0; }
.perceptron-browserplayer .pp-side.pp-on-panel > .pp-readout > p:not(:first-child) { display: none; }
/* a narrow widget (a phone, pp-narrow: player.js): its controls and readout no smaller than the page's 16 px body,
   its legend 14 px (at 16 px it took a third row, and the lifted view's plane went off the screen Step is on); on a
   touch-only screen the keys' help is left out (aria-describedby still reads it) */
.perceptron-browserplayer.pp-narrow :is(button, select, input, label) { font-size: max(16px, var(--pp-text, 0px)); }
.perceptron-browserplayer.pp-narrow .pp-readout { font-size: max(16px, var(--pp-text, 0px)) !important; }
.perceptron-browserplayer.pp-narrow .pp-legend { font-size: max(14px, var(--pp-text, 0px)) !important; }
.perceptron-browserplayer.pp-narrow .pp-keyhelp { font-size: 14px; }
@media (hover: none) and (pointer: coarse) { .perceptron-browserplayer .pp-keyhelp, .perceptron-browserplayer
  .pp-keys { display: none; } }
`;

/**
 * A new HTML element with attributes and text.
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string>} attrs
 * @param {string} [text]
 * @returns {HTMLElement}
 */
export function htmlEl(doc, tag, attrs = {}, text = "") {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

/**
 * The controls row: Reset, Back, Step, End, Play (a toggle: aria-pressed), the speed and the "update k" box.
 * @param {Document} doc
 * @param {number} K the last step
 * @param {number} intervalMs the speed to select (added to the choices if it is not one)
 * @returns {{row: HTMLElement, reset: HTMLButtonElement, back: HTMLButtonElement, step: HTMLButtonElement, end: HTMLButtonElement, play: HTMLButtonElement, speed: HTMLSelectElement, box: HTMLInputElement}}
 */
export function buildControls(doc, K, intervalMs) {
  const row = htmlEl(doc, "div", { class: "pp-controls" });
  const button = (text, title) => {
    const b = htmlEl(doc, "button", { type: "button", title }, text);
    row.appendChild(b);
    return b;
  };
  const reset = button("Reset", "back to the start (Home)");
  const back = button("Back", "one update back (←)");
  const step = button("Step", "one update on (→)");
  const end = button("End", "to the last update (End)");
  const play = button("Play", "play and pause (space)");
  play.setAttribute("aria-pressed", "false");
  const speedLabel = htmlEl(doc, "label", {}, "speed ");
  const speed = htmlEl(doc, "select", {});
  const choices = SPEEDS.some(([, ms]) => ms === intervalMs)
    ? SPEEDS
    : [...SPEEDS, [`${num3(1000 / intervalMs)}/s`, intervalMs]];
  for (const [label, ms] of [...choices].sort((a, b) => b[1] - a[1])) {
    const option = htmlEl(doc, "option", { value: String(ms) }, label);
    option.selected = ms === intervalMs;
    speed.appendChild(option);
  }
  speedLabel.appendChild(speed);
  const boxLabel = htmlEl(doc, "label", {}, `update k (of ${K}) `);
  const box = htmlEl(doc, "input", { type: "number", min: "0", step: "1", value: "0", inputmode: "numeric" });
  boxLabel.appendChild(box);
  row.append(speedLabel, boxLabel);
  const controls = { row, reset, back, step, end, play, speed, box };
  setSteps(controls, K);
  return controls;
}

/**
 * The controls' words and limits for a run of K updates (the box's label and its max): a new run keeps the controls.
 * @param {{box: HTMLInputElement}} controls from `buildControls`
 * @param {number} K
 */
export function setSteps(controls, K) {
  controls.box.parentNode.firstChild.textContent = `update k (of ${K}) `;
  controls.box.max = String(K);
}

/**
 * Three significant digits, as Python's "{:.3g}" writes a speed.
 * @param {number} v
 * @returns {string}
 */
function num3(v) {
  return String(Number(v.toPrecision(3)));
}

/**
 * A legend swatch: a small SVG of a line, an arrow or a marker (hidden from assistive technology: the words say it).
 * @param {Document} doc
 * @param {(svg: SVGElement) => void} draw
 * @returns {SVGElement}
 */
function swatch(doc, draw) {
  const svg = svgEl(doc, "svg", {
    width: 28,
    height: 16,
    viewBox: "0 0 28 16",
    "aria-hidden": "true",
    focusable: "false",
  });
  draw(svg);
  return svg;
}

/**
 * A legend of a panel's entries (`panel_specs.legend_entry`): a line (dashed, with a marker) or a bar, and its words.
 * @param {Document} doc
 * @param {object[]} entries
 * @param {number} px its text size, CSS px
 * @returns {HTMLElement}
 */
export function legendList(doc, entries, px) {
  const list = htmlEl(doc, "ul", { class: "pp-legend", "aria-label": "legend" });
  list.style.fontSize = `${px}px`;
  for (const e of entries) {
    const item = htmlEl(doc, "li");
    item.append(swatch(doc, entrySwatch(doc, e)), doc.createTextNode(e.label));
    list.appendChild(item);
  }
  return list;
}

/**
 * How a legend entry's swatch is drawn.
 * @param {Document} doc
 * @param {object} e an entry
 * @returns {(svg: SVGElement) => void}
 */
function entrySwatch(doc, e) {
  return (svg) => {
    if (e.shape === "bar") {
      svgEl(doc, "rect", { x: 7, y: 2, width: 14, height: 12, fill: e.color, stroke: "#000000" }, svg);
      return;
    }
    if (e.width > 0) {
      const dash = e.dash
        ? { "stroke-dasharray": e.dash.map((v) => String(Math.round(v * PT * 10) / 10)).join(" ") }
        : {};
      svgEl(
        doc,
        "line",
        {
          x1: 1,
          y1: 8,
          x2: 27,
          y2: 8,
          stroke: e.color,
          "stroke-width": String(Math.min(4, e.width * PT)),
          opacity: e.alpha,
          ...dash,
        },
        svg,
      );
    }
    if (e.marker === "s") svgEl(doc, "rect", { x: 10.5, y: 4.5, width: 7, height: 7, fill: e.color }, svg);
    else if (e.marker === "o") svgEl(doc, "circle", { cx: 14, cy: 8, r: 3.8, fill: e.color }, svg);
  };
}

/**
 * The legend under the picture (`DataPanel._legend`): the classes, the boundaries, the arrows, the ring, the
 * crosses, and the lines the overlays draw on the data panel (`extra`: legend entries).
 * @param {Document} doc
 * @param {object} spec the run
 * @param {object[]} [extra]
 * @returns {HTMLElement}
 */
export function buildLegend(doc, spec, extra = []) {
  const s = spec.style;
  const c = s.colors;
  const lw = (v) => String(Math.min(4, v * PT));
  const line = (color, width, dash) => (svg) =>
    svgEl(
      doc,
      "line",
      {
        x1: 2,
        y1: 8,
        x2: 26,
        y2: 8,
        stroke: color,
        "stroke-width": lw(width),
        ...(dash ? { "stroke-dasharray": "5 3" } : {}),
      },
      svg,
    );
  const arrowSwatch = (color, width) => (svg) => {
    svgEl(doc, "line", { x1: 2, y1: 8, x2: 19, y2: 8, stroke: color, "stroke-width": lw(width) }, svg);
    svgEl(doc, "polygon", { points: "27,8 18,3.5 18,12.5", fill: color }, svg);
  };
  const small = { ...s, marker_size: 60 };
  const entries = [
    [s.labels.pos, (svg) => svgEl(doc, "path", { d: markerPath(14, 8, true, small), fill: c.pos }, svg)],
    [s.labels.neg, (svg) => svgEl(doc, "path", { d: markerPath(14, 8, false, small), fill: c.neg }, svg)],
    ["boundary", line(c.boundary, s.line_width, false)],
    ["boundary before", line(c.prev, s.thin_width, true)],
    // no arrows on lifted points (w has 3 numbers; the data panel shows 2), as `DataPanel` draws none
    ...(spec.mode === "lifted"
      ? []
      : [
          ["w", arrowSwatch(c.w, s.arrow_width)],
          ["w before", arrowSwatch(c.prev, s.thin_width)],
          ["η·y·x", arrowSwatch(c.update, s.arrow_width)],
        ]),
    [
      "current",
      (svg) => svgEl(doc, "circle", { cx: 14, cy: 8, r: 6, fill: "none", stroke: c.ring, "stroke-width": 2 }, svg),
    ],
    [
      spec.crossed,
      (svg) => svgEl(doc, "path", { d: "M9,3L19,13M9,13L19,3", stroke: c.mistake, "stroke-width": 1.8 }, svg),
    ],
  ];
  const list = htmlEl(doc, "ul", { class: "pp-legend", "aria-label": "legend" });
  // lecture: a little under the preset's legend size (it stands beside the picture), never under text_px
  const px = s.legend_size * PT;
  list.style.fontSize = `${s.text_px > 0 ? Math.max(s.text_px, 0.85 * px) : px}px`;
  for (const [label, draw] of entries) {
    const item = htmlEl(doc, "li");
    item.append(swatch(doc, draw), doc.createTextNode(label));
    list.appendChild(item);
  }
  for (const e of extra) {
    const item = htmlEl(doc, "li");
    item.append(swatch(doc, entrySwatch(doc, e)), doc.createTextNode(e.label));
    list.appendChild(item);
  }
  return list;
}

/**
 * Lecture: end the readout's box on a whole line. Where the readout does not fit in the column beside the picture it
 * scrolls in its box, and a box that ends mid-line (the live deck's 1280x720 slide) cut the last line in half: the box
 * is then cut to the whole lines it holds (never under its min-height, in lines). A readout that fits keeps no height.
 * Nothing changes while the column shows a panel (the CSS shows only the headline there, with no height set).
 * @param {HTMLElement} readout
 * @param {HTMLElement} side the column (`.pp-side`)
 */
export function wholeLines(readout, side) {
  if (side.classList.contains("pp-on-panel")) return;
  const look = side.ownerDocument.defaultView.getComputedStyle(readout);
  const line = Number.parseFloat(look.lineHeight);
  const was = readout.style.maxHeight;
  readout.style.maxHeight = "";
  const box = readout.clientHeight; // the height the column gives it
  if (!(line > 0) || readout.scrollHeight <= box + 1) return;
  const least = Math.max(1, Math.round(Number.parseFloat(look.minHeight) / line) || 1); // its min-height, in lines
  const whole = `${Math.max(least, Math.floor((box + 0.5) / line)) * line}px`;
  readout.style.maxHeight = whole === was ? was : whole;
}

/**
 * Show the readout lines of a step: the first (the headline) bold, one paragraph a line.
 * @param {HTMLElement} readout the live region
 * @param {string[]} lines
 */
export function showReadout(readout, lines) {
  const doc = readout.ownerDocument;
  const paragraphs = lines.map((text, j) => {
    const p = htmlEl(doc, "p");
    if (j === 0) p.appendChild(htmlEl(doc, "b", {}, text));
    else p.textContent = text;
    return p;
  });
  readout.replaceChildren(...paragraphs);
}

/** A tab's name for a panel of each kind (the tab picker of the lecture preset's column, `buildTabs`). */
export const TAB_NAMES = {
  lifted: "3-D view",
  contour: "loss map",
  claims: "claims chart",
  loss: "loss chart",
  epochs: "chart",
  curves: "chart",
};

/**
 * The tab picker of the column beside the picture (lecture preset: a projector has no room for the readout and a
 * tall panel one under the other). The first tab shows the column as it is (the edits, the legend, the readout);
 * each other tab shows one panel, and of the readout only its headline, which stays in view whatever tab is shown.
 * Keyboard: the tabs are one stop of Tab; ← → Home End move between them and show the one reached.
 * @param {Document} doc
 * @param {HTMLElement} side the column (`.pp-side`); it gets the class `pp-on-panel` while a panel is shown
 * @param {HTMLElement} readout the readout, shown whole under the first tab
 * @param {{el: HTMLElement, name: string}[]} shown the panels, each with its tab's name
 * @param {{id: string, first: string, keep: HTMLElement}} names a prefix of the page-unique ids, the first tab's
 *   name, and an element that outlives the player (its `el`): the tab shown is written on it, so that a player
 *   mounted again there (a run switch's next run) with the same panels shows the same tab
 * @returns {{parts: HTMLElement[], pick: (j: number) => void, picked: () => number}} `parts`: the
 *   tab list first in the column, the panels' holders last (placed here)
 */
export function buildTabs(doc, side, readout, shown, { id, first, keep }) {
  const names = [first, ...shown.map((p) => p.name)].join("|");
  const list = htmlEl(doc, "div", {
    class: "pp-tabs",
    role: "tablist",
    "aria-label": "shown beside the picture",
    "data-own-keys": "ArrowLeft ArrowRight Home End",
  });
  if (!readout.id) readout.id = `${id}-readout`;
  const holders = shown.map((p, j) => {
    const holder = htmlEl(doc, "div", { class: "pp-tabpanel", role: "tabpanel", id: `${id}-tab${j + 1}-panel` });
    holder.setAttribute("aria-labelledby", `${id}-tab${j + 1}`);
    holder.appendChild(p.el);
    return holder;
  });
  const tabs = [first, ...shown.map((p) => p.name)].map((name, j) => {
    const tab = htmlEl(doc, "button", { type: "button", role: "tab", id: `${id}-tab${j}` }, name);
    tab.setAttribute("aria-controls", j === 0 ? readout.id : holders[j - 1].id);
    list.appendChild(tab);
    return tab;
  });
  let on = 0;
  const choose = (j) => {
    on = Math.min(Math.max(j, 0), tabs.length - 1);
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === on));
      tab.tabIndex = i === on ? 0 : -1;
    });
    holders.forEach((h, i) => {
      h.hidden = i + 1 !== on;
    });
    side.classList.toggle("pp-on-panel", on > 0);
    keep.dataset.ppTab = `${names}#${on}`;
  };
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  list.addEventListener("click", (event) => {
    const j = tabs.indexOf(event.target.closest?.("[role='tab']"));
    if (j >= 0) choose(j);
  });
  list.addEventListener("keydown", (event) => {
    const to = { Home: 0, End: tabs.length - 1 }[event.key] ?? (event.key in moves ? on + moves[event.key] : null);
    if (to === null || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    choose((to + tabs.length) % tabs.length);
    tabs[on].focus();
  });
  const [kept, j] = (keep.dataset.ppTab ?? "").split("#");
  choose(kept === names ? Number(j) : 0);
  side.prepend(list);
  side.append(...holders);
  return { parts: [list, ...holders], pick: choose, picked: () => on, count: tabs.length };
}
