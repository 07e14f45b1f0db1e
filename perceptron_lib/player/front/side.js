/**
 * The column beside the picture (`.pp-side`): where each drawn panel goes (`panelPlaces`), whether the column stands
 * beside the picture or has wrapped under it (a phone), and how tall the column may be (`fitColumn`): a projector's
 * 1280x720 view (lecture) and a 1440x900 JupyterLab with its file browser open (notebook) hold the controls and the
 * picture, and the column beside the picture must not run below them.
 */

/**
 * The room a page keeps under the picture's top for the player's buttons and the notebook's bars, CSS px: the
 * picture is never taller than the window less this (a run switch's and a controlled player's picture: `switch.js`
 * besideCss; `picture.VIEW_RESERVE` of the kernel-drawn players is the same rule with the readout's first line under
 * the picture), and in the notebook preset the column beside it runs no lower (`fitColumn`).
 */
export const VIEW_RESERVE = 180;

/**
 * The least height the column beside the picture may take in the lecture preset, CSS px: with the controls, the
 * room a 1280x720 JupyterLab gives a notebook's output (about 598 px).
 */
export const LECTURE_SIDE_PX = 540;

/**
 * Where each of a player's drawn panels goes: `tabbed` (under a tab of the column beside the picture, see
 * `buildTabs`; lecture: every panel of an editor's player, of a player with a tall one (in a deck only in a run
 * switch), and of a player whose column is `crowded`: its panels, legend and readout did not fit beside the picture;
 * notebook: the panels after the readout of a `crowded` column, which ran below the window: lesson 02's loss map
 * under its methods switch's loss chart and readout), `under` (the notebook preset: after the readout in that column,
 * a panel that asks for it; before it where the column has wrapped under the picture, see `fitColumn`'s `wrapped`),
 * `after` (a deck's lecture player: its tall panel after the column, a third column there) and `beside` (in the
 * column, over the legend and the readout).
 * @param {{el: HTMLElement, tall?: boolean, underReadout?: boolean}[]} drawn
 * @param {{large: boolean, inEditor: boolean, inSwitch: boolean, inDeck: boolean, crowded?: boolean}} where
 * @returns {{tabbed: object[], under: HTMLElement[], after: HTMLElement[], beside: HTMLElement[]}}
 */
export function panelPlaces(drawn, { large, inEditor, inSwitch, inDeck, crowded = false }) {
  const tall = drawn.some((p) => p.tall);
  const below = drawn.filter((p) => p.underReadout);
  const tabbed = large ? (inEditor || crowded || (tall && (inSwitch || !inDeck)) ? drawn : []) : crowded ? below : [];
  const under = large || crowded ? [] : below;
  const after = large && !tabbed.length ? drawn.filter((p) => p.tall) : [];
  const beside = drawn.filter((p) => ![...tabbed, ...under, ...after].includes(p));
  const els = (list) => list.map((p) => p.el);
  return { tabbed, under: els(under), after: els(after), beside: els(beside) };
}

/**
 * How much the widget's width must change, CSS px, after its column was crowded (its panels put under tabs) before
 * the panels are tried beside the picture again: the hysteresis that keeps a re-layout from looping (a column that
 * fits just so, then a scroll bar or a pixel less, would flip back and forth).
 */
export const RETRY_PX = 48;

/** What takes the focus, in a panel that loses its tab (the first of these in it). */
const FOCUSABLE = "button, input, select, textarea, [href], [tabindex]:not([tabindex='-1'])";

/**
 * Run `move`, which places the column's parts again (tabs made or dropped), and keep the keyboard focus sane: an
 * element that had it and is still shown gets it back (moving a node takes its focus away); a tab that is gone
 * hands it to what it showed (the readout, or the first focusable part of its panel, else the readout); a tab made
 * again (same name) takes it back; a focused part now under a tab that is not shown gets its tab shown.
 * @param {HTMLElement} root the player's root element (`.perceptron-browserplayer`)
 * @param {() => void} move
 */
export function keepingFocus(root, move) {
  const doc = root.ownerDocument;
  const had = doc.activeElement;
  if (!had || !root.contains(had)) {
    move();
    return;
  }
  const tabName = had.getAttribute("role") === "tab" ? had.textContent : null;
  const shown = tabName === null ? null : doc.getElementById(had.getAttribute("aria-controls"));
  const target = shown?.getAttribute("role") === "tabpanel" ? shown.firstElementChild : shown;
  move();
  if (doc.activeElement === had) return;
  const readout = root.querySelector(".pp-readout");
  const tab = [...root.querySelectorAll("[role='tab']")].find((t) => tabName !== null && t.textContent === tabName);
  const holder = had.isConnected ? had.closest("[role='tabpanel']") : null;
  if (holder?.hidden) doc.getElementById(holder.getAttribute("aria-labelledby"))?.click();
  const inTarget = target?.matches(FOCUSABLE) ? target : target?.querySelector(FOCUSABLE);
  const back = tab ?? (had.isConnected ? had : (inTarget ?? readout));
  back?.focus({ preventScroll: true });
}

/**
 * Keep the column beside the picture from running below the screen. Lecture: the column ends at the picture's
 * bottom (or `LECTURE_SIDE_PX` under its top where the picture is shorter, a wide view), the readout scrolling inside
 * it (a focusable, named region); when the column's parts leave the readout less than its least height (its
 * `min-height`: the column runs below the picture) and panels stand in it, `crowd(true)` puts them under tabs
 * (`panelPlaces` with `crowded`). Notebook: the column keeps its height (the readout does not scroll), and where a
 * panel after the readout (lesson 02's loss map) takes it lower than the window lets the picture reach (its top plus
 * the window's height less `VIEW_RESERVE`; or the picture's bottom, where lower), `crowd(true)` puts that panel under
 * a tab (a 1440x900 JupyterLab: 02's methods switch was 842 px of a 779 px view). The places follow the widget's
 * width and the window's height: once either is `RETRY_PX` away from what it was then (a wider window, the file
 * browser closed, the page zoomed out; or narrower: a narrower column draws its chart smaller; a taller window),
 * `crowd(false)` tries the panels in the column again, and they go back under their tabs at once (before the page is
 * painted) if they still do not fit. The focus is kept (`keepingFocus`). In either preset, each fit tells
 * `wrapped(on)` whether the column has wrapped under the picture (a phone's width: the picture and the column's least
 * width do not fit in one row), measured from the layout: the player then puts the panels that go after the readout
 * (`panelPlaces`'s `under`, the lifted view) right under the picture, next to its Step button, not a readout away.
 * Before a panel goes under a tab in the notebook preset, `shrink(px)` may draw it up to px smaller (`shrink(0)`: at
 * its own size again; lesson 05's lifted view, to 0.75 of it: `shrinkUnder`), so that it stays in view beside the
 * picture; the limit counts an `outer` widget's own rows over the player (an editor's edits and hint).
 * @param {{side: HTMLElement, figure: HTMLElement, box: HTMLElement, large: boolean, crowd: (on: boolean) => boolean,
 *   wrapped?: (on: boolean) => void, outer?: HTMLElement | null, shrink?: (px: number) => void}} parts `box`: the
 *   widget's own element, whose width is followed; `crowd(on)` returns whether anything moved
 * @returns {() => void} the fit, to call when the figure's or the widget's size changes (a ResizeObserver's callback)
 */
export function fitColumn({ side, figure, box, large, crowd, wrapped = () => {}, outer = null, shrink = () => {} }) {
  const win = side.ownerDocument.defaultView;
  let crowded = false;
  let crowdedAt = [0, 0]; // the widget's width and the window's height when the panels last went under tabs
  // lecture: the column ends where the picture does, or LECTURE_SIDE_PX under the picture's top, whichever is lower:
  // from the column's own top, which is lower than the picture's under a run switch's choice or a controlled player's
  // settings; measured on the page, in the page's CSS px (`k`: a scaled deck's slide)
  const hold = () => {
    const [f, s] = [figure, side].map((e) => e.getBoundingClientRect());
    const k = f.height / figure.offsetHeight; // fit() runs hold() only on a figure laid out
    const beside = s.left >= f.right - 1;
    const bottom = Math.max(f.bottom, f.top + LECTURE_SIDE_PX * k);
    const most = large && beside ? `${Math.max(0, (bottom - s.top) / k)}px` : "";
    side.style.maxHeight = most;
    // and no less, whatever the readout's length at step k: the player's height stays as k moves, so a deck's slide
    // (reveal.js centres it) does not move under the presenter's pointer (05's editor slide: Step 26 px up at the
    // first click, 24 more at the end; a second click at the same spot missed it)
    side.style.minHeight = most;
    return beside;
  };
  // notebook: a column with a panel after its readout (or a tab of one) that runs lower than the window lets the
  // picture reach, in the page's px (what is seen)
  const below = () => {
    if (!side.querySelector(":scope > .pp-readout ~ *")) return 0;
    const [f, s] = [figure, side].map((e) => e.getBoundingClientRect());
    // an editor's own rows stand over the player's: the whole editor is what must fit the view
    const rows = outer
      ? (side.closest(".perceptron-browserplayer") ?? box).getBoundingClientRect().top -
        outer.getBoundingClientRect().top
      : 0;
    return s.bottom - Math.max(f.bottom, f.top + win.innerHeight - VIEW_RESERVE - rows);
  };
  const runsLow = () => {
    shrink(0); // the panel under the readout at its own size, then as much smaller as the view asks (to its floor)
    const over = below();
    if (over > 1) shrink(over);
    return below() > 1;
  };
  const overflows = large ? () => side.scrollHeight > side.clientHeight + 1 : runsLow;
  const fit = () => {
    const width = box.clientWidth;
    if (width === 0 || figure.offsetHeight === 0) return; // not laid out (a hidden tab of JupyterLab): nothing to fit
    const beside = hold();
    wrapped(!beside); // the column's order does not change its width: no loop (flex-basis and min-width hold it)
    if (!beside) {
      shrink(0); // a phone: the lifted view under the picture, at its own size
      return;
    }
    const root = side.closest(".perceptron-browserplayer") ?? box;
    const now = [width, win.innerHeight];
    if (!crowded && overflows()) {
      keepingFocus(root, () => {
        crowded = crowd(true);
        if (crowded) shrink(0); // under its tab: at its own size
        crowdedAt = now;
        hold();
      });
    } else if (crowded && now.some((v, j) => Math.abs(v - crowdedAt[j]) >= RETRY_PX)) {
      keepingFocus(root, () => {
        crowd(false);
        crowded = hold() && overflows() && crowd(true);
        if (crowded) shrink(0);
        crowdedAt = now;
        hold();
      });
    }
  };
  return fit;
}

/** The least share of its own size a panel under the readout is drawn at to stay in view (`shrinkUnder`). */
export const LEAST_UNDER_SCALE = 0.75;

/**
 * Draw the SVG pictures of `panels` (the lifted view's `.pl-scene`) `px` shorter in all than they are drawn at their
 * own size (which may already be narrowed to the column's width), each down to `LEAST_UNDER_SCALE` of that, keeping
 * its shape; `px` 0 draws them at their own size.
 * @param {HTMLElement[]} panels
 * @param {number} px
 */
export function shrinkUnder(panels, px) {
  const svgs = panels.flatMap((p) => [...p.querySelectorAll("svg.pl-scene")]);
  for (const svg of svgs) svg.style.width = svg.style.height = "";
  if (!(px > 0)) return;
  for (const svg of svgs) {
    const { width, height } = svg.getBoundingClientRect(); // as drawn: the column's width may have narrowed it
    if (height <= 0) continue;
    const scale = Math.max(LEAST_UNDER_SCALE, (height - px) / height);
    svg.style.width = `${width * scale}px`;
    svg.style.height = `${height * scale}px`;
  }
}

/**
 * The step whose readout has the most letters (the first of equals): with the first, second, last but one and last,
 * the steps a held readout is measured at (a long number may wrap a line at a step in between).
 * @param {string[][]} lines each step's readout lines
 * @returns {number}
 */
export function longestStep(lines) {
  let best = 0;
  let most = -1;
  for (const [k, step] of lines.entries()) {
    let n = 0;
    for (const line of step) n += line.length;
    if (n > most) [best, most] = [k, n];
  }
  return best;
}

/** The longest run whose every step's words `tallestReadout` looks through for the longest (`longestStep`). */
const HOLD_SCAN = 200;

/**
 * The height a readout holds: the tallest it is at the first, second, last but one and last steps and at the
 * `longestStep` of each run of `specs` (an editor's words are made as a step is shown: its long runs skip the
 * longest), each shown in `readout` by `show(readout, lines)`.
 * @param {HTMLElement} readout
 * @param {{K: number, lines: string[][]}[]} specs
 * @param {(readout: HTMLElement, lines: string[]) => void} show
 * @returns {number} CSS px (0: not laid out)
 */
export function tallestReadout(readout, specs, show) {
  let tallest = 0;
  for (const { K, lines } of specs) {
    const longest = K <= HOLD_SCAN ? longestStep(lines) : K;
    for (const k of new Set([0, 1, K - 1, K, longest].filter((j) => j >= 0 && j <= K))) {
      show(readout, lines[k]);
      tallest = Math.max(tallest, readout.offsetHeight);
    }
  }
  return tallest;
}

/**
 * `measure()` under tab j of `tabs` (`buildTabs`' handle; none: as it is), the tab picked before picked again.
 * @template T
 * @param {{pick: (j: number) => void, picked: () => number} | null} tabs
 * @param {number} j
 * @param {() => T} measure
 * @returns {T}
 */
export function underTab(tabs, j, measure) {
  const was = tabs ? tabs.picked() : j;
  if (was !== j) tabs.pick(j);
  const out = measure();
  if (was !== j) tabs.pick(was);
  return out;
}

/**
 * The column's height under its tallest tab (CSS px), each measured with `underTab`.
 * @param {HTMLElement} side
 * @param {{pick: (j: number) => void, picked: () => number, count: number}} tabs
 * @returns {number}
 */
export function tallestTab(side, tabs) {
  let tallest = 0;
  for (let j = 0; j < tabs.count; j++)
    tallest = Math.max(
      tallest,
      underTab(tabs, j, () => side.offsetHeight),
    );
  return tallest;
}
