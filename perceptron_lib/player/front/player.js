/**
 * The stepping player in the browser: an anywidget front end (`export default { render }`).
 *
 * Python (`perceptron_lib.player.browser.BrowserPlayer`) sends the run once, in the `run` trait: the states,
 * the data, the view, the preset's sizes and colours, and the words of every step. Here the browser draws
 * frame k in SVG (`scene.js`, `frame.js`) and steps by itself: Step, Back, Reset, End, Play (timed here), the
 * speed and the "update k" box, and the keys ← → Home End space while the picture has the focus or the pointer.
 * Each new step is drawn at once and then told to the model (`k`, one message), so Python's `k` follows and the
 * picture never waits for Python; a `k` set by Python is drawn when it arrives.
 */

import {
  buildControls,
  buildLegend,
  buildTabs,
  CSS,
  htmlEl,
  KEY_HELP,
  setSteps,
  showReadout,
  TAB_NAMES,
  wholeLines,
} from "./controls.js";
import { drawFrame } from "./frame.js";
import { keepControlKeys, keepPlainKeys } from "./geometry.js";
import { buildPanels } from "./panels.js";
import { buildScene, narrowText, PHONE_PX, PT } from "./scene.js";
import { fitColumn, keepingFocus, panelPlaces, shrinkUnder, tallestReadout, tallestTab, underTab } from "./side.js";

/** The keys the picture uses (`KeyboardEvent.key`); every other key, Tab and Escape among them, goes on. */
export const PLAYER_KEYS = ["ArrowLeft", "ArrowRight", "Home", "End", " "];
/** The run format this front end reads (the `version` of the `run` trait). */
export const RUN_VERSION = 1;

/**
 * The players mounted in this page so far, shared by every copy of this module (anywidget evaluates each widget's
 * module apart: a player and an editor would both count from 1 and give two elements one id).
 */
const MOUNTED = Symbol.for("perceptron_lib.player.mounted");

/**
 * A new number for a player of this page.
 * @returns {number}
 */
function nextPlayer() {
  globalThis[MOUNTED] = (globalThis[MOUNTED] ?? 0) + 1;
  return globalThis[MOUNTED];
}

/**
 * `k` as a whole step in 0..K (a number typed in the box may be anything).
 * @param {number} k
 * @param {number} K
 * @returns {number}
 */
export function clampStep(k, K) {
  const v = Math.round(Number(k));
  return Number.isFinite(v) ? Math.min(Math.max(v, 0), K) : 0;
}

/**
 * True when `key` belongs to the element it was pressed on: every key of a field (typing, its own arrows), space on
 * a button or a link (it presses them), and the keys an element lists in its `data-own-keys` (the lifted view's
 * arrows, which turn it). Then the picture leaves the key alone.
 * @param {EventTarget | null} target
 * @param {string} key
 * @returns {boolean}
 */
function keyBelongsTo(target, key) {
  if (!target || typeof target.closest !== "function") return false;
  const field = "input, textarea, select, [contenteditable=''], [contenteditable='true'], [role='textbox']";
  if (target.closest(field) !== null) return true;
  const owner = target.closest("[data-own-keys]");
  if (owner?.getAttribute("data-own-keys").split(/\s+/).includes(key)) return true;
  return key === " " && target.closest("button, a[href], [role='button']") !== null;
}

/**
 * Check that the run is one this front end draws; a clear error otherwise.
 * @param {object} spec
 */
function checkRun(spec) {
  if (!spec || spec.version !== RUN_VERSION) {
    throw new Error(`the player's run has version ${spec?.version}; this front end reads version ${RUN_VERSION}.`);
  }
  if (spec.w.length !== spec.K + 1 || spec.lines.length !== spec.K + 1 || spec.alt.length !== spec.K + 1) {
    throw new Error(
      `the player's run has K = ${spec.K} but ${spec.w.length} states and ${spec.lines.length} readouts.`,
    );
  }
}

/**
 * Build the player of a run into `el` (by default the model's run; an editor passes the run it computed itself).
 * Returns its handle: `unmount()` removes what it added; `picture` (the focusable element holding the SVG),
 * `scene` (from `buildScene`: its `svg` and `tf`, the map from data to the plot's pixels), `root`, `go(k)` and
 * `shown()` (the step drawn) are for the modules that build on the player (an editor). `setRun(spec, k)` shows
 * another run from step k in the same elements (the focus, listeners and readout stay); it replaces `scene`.
 * @param {{get: Function, set: Function, on: Function, off: Function, save_changes: Function}} model
 * @param {HTMLElement} el
 * @param {object} [first] a run in the `run` trait's format
 * @returns {{unmount: () => void, picture: HTMLElement, scene: object, root: HTMLElement, go: (k: number) => void, shown: () => number, setRun: (spec: object, k?: number) => void}}
 */
export function mountPlayer(model, el, first = model.get("run"), also = () => []) {
  let spec = first;
  const doc = el.ownerDocument;
  const win = doc.defaultView;
  checkRun(spec);
  let K = spec.K;
  const id = `perceptron-player-${nextPlayer()}`;
  const controls = buildControls(doc, K, model.get("interval_ms"));
  let scene = buildScene(doc, spec);
  const picture = htmlEl(doc, "div", {
    class: "pp-picture",
    role: "img",
    tabindex: "0",
    "aria-describedby": `${id}-keys`,
  });
  picture.appendChild(scene.svg);
  let panels = buildPanels(doc, spec, scene);
  let legend = buildLegend(
    doc,
    spec,
    panels.flatMap((p) => p.legend),
  );
  const large = spec.style.text_px > 0; // the lecture preset: big text on a small screen (a projector)
  const figure = htmlEl(doc, "div", { class: "pp-figure" });
  figure.style.maxWidth = `${scene.svg.getAttribute("width")}px`; // the legend wraps under the picture
  const readout = htmlEl(doc, "div", { class: "pp-readout", "aria-live": "polite" });
  // 0.8 of the legend's size (lecture: 19.2 px, its lines set close; a larger one ran off a deck's slide)
  readout.style.fontSize = `${Math.max(14, spec.style.legend_size * PT * 0.8)}px`;
  // beside the data panel: the charts (curves along the run), then the readout; under it on a narrow screen. In
  // the lecture preset the legend goes beside the picture too, so that the picture keeps the screen's height, and
  // a tall panel (the lifted view: `tall`) goes to a tab of the column, so that the readout's first lines stay in view
  const side = htmlEl(doc, "div", { class: "pp-side" });
  const body = htmlEl(doc, "div", { class: "pp-body" });
  body.append(figure, side);
  let charts = [];
  let tabs = null;
  // the panels' places (`panelPlaces`). Lecture: a tall panel (the lifted view, a loss map) and an editor's chart
  // under the column's tabs (`buildTabs`): one under the other they took a 1280x720 view twice over (lesson 05's
  // editor 1107 px of 599). A deck's slide is 1280 px wide, not a notebook's 1180: there a player's tall panel stands
  // after the column as a third column (the deck's CSS), all in view; an editor (its edits in the column) and a run
  // switch (its choice over the column) keep the tabs there: a third column made 02's methods switch's slide 0.68
  const inEditor = el.closest(".perceptron-browsereditor") !== null;
  const inSwitch = el.closest(".perceptron-browserswitch") !== null;
  const inDeck = el.closest(".reveal") !== null;
  const names = { id, first: inEditor ? "edits, readout" : "readout", keep: el }; // first: the column as it was
  let crowded = false; // lecture: the column's panels, legend and readout did not fit beside the picture (fitColumn)
  let under = []; // notebook preset: the panels after the readout (the lifted view: `panelPlaces`)
  let wrapped = false; // the column under the picture (a phone), not beside it (fitColumn): `under` goes first in it
  // notebook, a panel under the readout (the lifted view): the readout keeps the height of its tallest step of
  // these (the end's, with its "End:" line, most often), so that the panel does not move as k does and the column's
  // fit is decided once for the run (an editor's at its end was 843 px of a 779 px view, 762 at its start). In a
  // deck too, where the readout never scrolls: the slide, which reveal.js centres, keeps its height, so Step stays
  // under the presenter's pointer (it moved 27-52 px up at the end of 03's and 05's players, and a click missed).
  // Asked at each fit: a widget manager may draw the player before it puts it into the deck's slide
  // In a deck the height is also that of the tallest run a switch holds (`also`), and it never drops while the
  // column keeps its width (a controlled player's new settings: tester 6, Step moved 25-37 px at a switch's choice),
  // and the column keeps the height of its tallest tab (`tallestTab`: the 3-D view's tab moved Step 27-30 px)
  const onSlide = () => el.closest(".reveal") !== null; // asked each time (see above); `inDeck` is the mount's answer
  const holds = () => onSlide() || (!large && under.length > 0);
  let deckHeld = [0, 0]; // in a deck: the readout's and the column's least heights so far, at `heldWidth`
  const holdReadout = () => {
    readout.style.minHeight = "";
    if (!holds() || wrapped || !readout.isConnected) return;
    const deck = onSlide();
    const specs = deck ? [spec, ...also().filter((s) => s !== spec)] : [spec];
    const tallest = Math.max(
      underTab(tabs, 0, () => tallestReadout(readout, specs, showReadout)),
      deck ? deckHeld[0] : 0,
    );
    if (deck) deckHeld[0] = tallest;
    readout.style.minHeight = tallest > 0 ? `${tallest}px` : ""; // 0: not laid out yet (a hidden tab): fit() asks again
    if (shown >= 0 && shown <= K) showReadout(readout, spec.lines[shown]);
  };
  const holdTabs = () => {
    if (!tabs || wrapped || !onSlide()) return;
    const least = Number.parseFloat(side.style.minHeight) || 0; // fitColumn's: the picture's bottom
    side.style.minHeight = "";
    deckHeld[1] = Math.max(least, deckHeld[1], tallestTab(side, tabs));
    side.style.minHeight = `${deckHeld[1]}px`;
  };
  const placeUnder = () => {
    if (wrapped) side.prepend(...under);
    else side.append(...under);
    holdReadout();
  };
  const placeCharts = () => {
    for (const c of charts) c.remove();
    const drawn = panels.map((p, j) => ({ ...p, name: TAB_NAMES[spec.panels[j].kind] ?? "chart" })).filter((p) => p.el);
    const places = panelPlaces(drawn, { large, inEditor, inSwitch, inDeck, crowded });
    const { tabbed, after, beside } = places;
    under = places.under;
    side.prepend(...beside);
    placeUnder();
    body.append(...after);
    tabs = tabbed.length ? buildTabs(doc, side, readout, tabbed, names) : null;
    if (!tabs) side.classList.remove("pp-on-panel");
    charts = [...beside, ...under, ...after, ...(tabs?.parts ?? [])];
  };
  if (large) {
    // a readout that may scroll (see fitSide) takes the focus, so that the keyboard scrolls it too
    readout.setAttribute("tabindex", "0");
    readout.setAttribute("role", "region"); // a named, focusable box: a region, read as "readout, region"
    readout.setAttribute("aria-label", "readout");
    figure.append(picture);
    side.append(legend, readout);
  } else {
    figure.append(picture, legend);
    side.append(readout);
  }
  placeCharts();
  const root = htmlEl(doc, "div", { class: "perceptron-browserplayer", id });
  if (spec.style.text_px > 0) {
    // the lecture preset: no text of the widget's own under text_px, read from the back of a room
    root.classList.add("pp-large");
    root.style.setProperty("--pp-text", `${spec.style.text_px}px`);
  }
  const keyHelp = htmlEl(doc, "p", { class: "pp-keyhelp", id: `${id}-keys` }, KEY_HELP);
  if (large) {
    // lecture: the key help folded at the end of the controls, so that the picture keeps a projector's height
    const keys = htmlEl(doc, "details", { class: "pp-keys" });
    keys.append(htmlEl(doc, "summary", {}, "Keys"), keyHelp);
    controls.row.appendChild(keys);
    root.append(htmlEl(doc, "style", {}, CSS), controls.row, body);
  } else {
    root.append(htmlEl(doc, "style", {}, CSS), controls.row, body, keyHelp);
  }
  el.replaceChildren(root);
  // lecture: the column beside the picture is no taller than the picture (or LECTURE_SIDE_PX), the readout scrolling
  // in it; panels that leave the readout no room go under tabs (03's per-epoch chart, 04's claims: 607, 612 px of 599),
  // and back beside it when the widget's width changes so that they fit (fitColumn follows the figure and el)
  const crowd = (on) => {
    if (on && !side.querySelector(":scope > .pp-panel")) return false;
    crowded = on;
    placeCharts();
    return on;
  };
  // notebook: the key help under the picture's legend, where a taller column beside it leaves room (a line under
  // both, it took lesson 01's player to 799 px of a 779 px view at its end); under both on a phone; an editor folds it
  const placeKeyHelp = () => !large && !inEditor && (wrapped ? root : figure).append(keyHelp);
  placeKeyHelp();
  // either preset: a column wrapped under the picture (a phone) has its lifted view first, near Step (fitColumn)
  const wrap = (on) => {
    if (on === wrapped) return;
    wrapped = on;
    placeKeyHelp();
    if (under.length) keepingFocus(root, placeUnder);
  };
  const outer = el.closest(".perceptron-browsereditor");
  const shrink = (px) => shrinkUnder(under, px);
  const fitSide = fitColumn({ side, figure, box: el, large, crowd, wrapped: wrap, outer, shrink });
  // lecture: the readout's box, which scrolls, ends on a whole line (a line cut in half looked broken from the room);
  // a narrow widget (a phone): larger buttons, readout and picture text (`pp-narrow`, `narrowText`)
  let heldWidth = -1; // the readout's held height follows the column's width (its lines wrap anew)
  const fit = () => {
    const narrow = el.clientWidth > 0 && el.clientWidth < PHONE_PX; // first: the readout's size depends on it
    root.classList.toggle("pp-narrow", narrow);
    fitSide();
    const unheld = readout.style.minHeight === "";
    if (holds() && !wrapped && side.clientWidth > 0 && (side.clientWidth !== heldWidth || unheld)) {
      if (side.clientWidth !== heldWidth) deckHeld = [0, 0]; // a new width wraps the lines anew
      heldWidth = side.clientWidth; // measured once the column stands where this width puts it
      holdReadout();
      fitSide();
    }
    holdTabs();
    if (large) wholeLines(readout, side);
    for (const svg of root.querySelectorAll("svg")) narrowText(svg, narrow);
  };
  const sized = win.ResizeObserver ? new win.ResizeObserver(fit) : null;
  if (sized) for (const part of [figure, el]) sized.observe(part);
  // lecture: a part of the column opened or closed (an editor's folded keys) resizes the readout: whole lines again
  const lines = large && win.ResizeObserver ? new win.ResizeObserver(() => wholeLines(readout, side)) : null;
  lines?.observe(readout);

  let shown = -1;
  let timer = null;
  let interval = Number(model.get("interval_ms"));
  let focused = false;
  let hovered = false;

  /** Draw step k: the picture, its name, the readout, the box and the buttons, all from k alone. */
  const show = (k) => {
    drawFrame(scene, k);
    for (const p of panels) p.draw(k);
    picture.setAttribute("aria-label", spec.alt[k]);
    showReadout(readout, spec.lines[k]);
    if (controls.box.value !== String(k)) controls.box.value = String(k);
    controls.back.disabled = controls.reset.disabled = k === 0;
    controls.step.disabled = controls.end.disabled = k >= K;
    controls.play.disabled = K === 0; // a run with no update has nothing to play (tester 6: Play stayed on)
    shown = k;
  };
  /** Go to step k: drawn now, then `k` told to the model (one message; nothing else per step). */
  const go = (k) => {
    const target = clampStep(k, K);
    if (target !== shown) show(target);
    if (model.get("k") !== target) {
      model.set("k", target);
      model.save_changes();
    }
  };
  const setPlaying = (on) => {
    if (timer !== null) win.clearTimeout(timer);
    timer = null;
    controls.play.textContent = on ? "Pause" : "Play";
    controls.play.setAttribute("aria-pressed", String(on));
    if (on) {
      if (K > 0 && shown >= K) go(0); // play at the end starts over
      timer = win.setTimeout(tick, interval);
    }
  };
  const tick = () => {
    timer = null;
    // a slide reveal.js hid (the presenter went on): Play stops there, where the room last saw it (tester 6: k ran on)
    if (picture.closest('[aria-hidden="true"]')) return setPlaying(false);
    if (shown < K) go(shown + 1);
    if (shown < K) timer = win.setTimeout(tick, interval);
    else setPlaying(false);
  };
  const playing = () => controls.play.getAttribute("aria-pressed") === "true";
  const reset = () => {
    setPlaying(false);
    go(0);
  };

  const actions = {
    ArrowRight: () => go(shown + 1),
    ArrowLeft: () => go(shown - 1),
    Home: reset,
    End: () => go(K),
    " ": () => setPlaying(!playing()),
  };
  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !(event.key in actions)) return;
    if (!picture.contains(event.target) && keyBelongsTo(event.target, event.key)) return;
    if (picture.closest('[aria-hidden="true"]')) return; // a slide reveal.js hid: its keys are the deck's
    event.preventDefault();
    event.stopPropagation();
    actions[event.key]();
  };
  let listening = false;
  const listen = () => {
    const want = focused || hovered;
    if (want !== listening) (want ? win.addEventListener : win.removeEventListener).call(win, "keydown", onKey, true);
    listening = want;
  };
  const on = (node, type, handler) => node.addEventListener(type, handler);
  on(picture, "focus", () => {
    focused = true;
    listen();
  });
  on(picture, "blur", () => {
    focused = false;
    listen();
  });
  keepPlainKeys(picture); // the page's one-key shortcuts stay off while it has the focus
  on(picture, "pointerenter", () => {
    hovered = true;
    listen();
  });
  on(picture, "pointerleave", () => {
    hovered = false;
    listen();
  });
  on(controls.reset, "click", reset);
  on(controls.back, "click", () => go(shown - 1));
  on(controls.step, "click", () => go(shown + 1));
  on(controls.end, "click", () => go(K));
  on(controls.play, "click", () => setPlaying(!playing()));
  on(controls.speed, "change", () => {
    interval = Number(controls.speed.value);
    model.set("interval_ms", interval);
    model.save_changes();
    if (playing()) setPlaying(true);
  });
  on(controls.box, "change", () => {
    go(controls.box.value);
    controls.box.value = String(shown); // a number typed past the run (9 of 7) reads as the step shown (tester 6)
  });
  on(controls.box, "input", () => {
    if (controls.box.value !== "") go(controls.box.value);
  });

  const onModelK = () => {
    const k = clampStep(model.get("k"), K);
    if (k !== shown) show(k);
  };
  model.on("change:k", onModelK);
  show(clampStep(model.get("k"), K));

  const unmount = () => {
    setPlaying(false);
    hovered = focused = false;
    listen();
    model.off("change:k", onModelK);
    if (sized) sized.disconnect();
    lines?.disconnect();
    root.remove();
  };
  /**
   * Show another run at step k (clamped): its scene, panels, legend and the controls' limits are made again in the
   * elements already there, so the focus, the listeners, the readout element and the speed stay.
   */
  const setRun = (next, k = 0) => {
    checkRun(next);
    setPlaying(false);
    spec = next;
    K = next.K;
    scene = buildScene(doc, next);
    picture.replaceChildren(scene.svg);
    figure.style.maxWidth = `${scene.svg.getAttribute("width")}px`;
    panels = buildPanels(doc, next, scene);
    const fresh = buildLegend(
      doc,
      next,
      panels.flatMap((p) => p.legend),
    );
    legend.replaceWith(fresh);
    legend = fresh;
    placeCharts();
    setSteps(controls, K);
    handle.scene = scene;
    shown = -1;
    go(k);
    fit(); // the new panels at the size the column gives them now (a ResizeObserver fires only if a size changed)
  };
  const handle = { unmount, picture, scene, root, go, shown: () => shown, setRun };
  return handle;
}

/**
 * anywidget's entry: draw the player, and draw it again for a new run.
 * @param {{model: object, el: HTMLElement}} view
 * @returns {() => void} the clean-up anywidget calls when the view goes
 */
function render({ model, el }) {
  keepControlKeys(el);
  let player = mountPlayer(model, el);
  let preset = model.get("run").style.name;
  const onRun = () => {
    const run = model.get("run");
    if (run.style.name === preset) {
      player.setRun(run, model.get("k")); // the same layout: only the run's parts are made again
      return;
    }
    player.unmount(); // another preset lays the player out otherwise
    player = mountPlayer(model, el);
    preset = run.style.name;
  };
  model.on("change:run", onRun);
  return () => {
    model.off("change:run", onRun);
    player.unmount();
  };
}

export default { render };
