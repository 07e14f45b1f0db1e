/**
 * Lesson 05's lifted view in SVG (panel kind "lifted"): the bowl z = x1² + x2², the lifted points and the plane of
 * step k, in a 3-D projection the student turns (drag, the arrow keys while the picture has the focus, or the two
 * labelled sliders).
 *
 * Python (`LiftedPanel.front`, numbers from `perceptron_lib.core.lift_view`) sends the view's box, the lifted
 * points, the bowl's wire mesh and each step's plane polygon (already cut to the box); the run gives the labels,
 * the ringed example, the state (w, b) and the preset's sizes. Here they are only projected, by `project` (the
 * formula of `core.lift_projection.project`), and drawn: the picture is a pure function of (k, elevation, azimuth).
 */

import { htmlEl } from "./controls.js";
import { keepPlainKeys, pageNumber, tickLabel, ticks } from "./geometry.js";
import { behindPlane, pictureSize, projection, TURN_STEP, viewAxes, wrapAngle } from "./lift_geometry.js";
import { fmt, markerPath, PT, svgEl } from "./scene.js";

/** An angle as written beside its slider and in the picture's name: whole degrees, with a true minus sign. */
const deg = (v) => `${String(Math.round(v) || 0).replace("-", "−")}°`;

const polyPoints = (P) => P.map((p) => `${fmt(p[0])},${fmt(p[1])}`).join(" ");

/**
 * The box's twelve edges, thin and grey, under everything.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {number[][]} box
 * @param {Function} at the projection
 * @param {object} look
 */
function liftedBox(doc, g, box, at, look) {
  const corner = (i, j, l) => at([box[0][i], box[1][j], box[2][l]]);
  const d = [];
  for (const [a, b] of [
    [0, 1],
    [0, 2],
    [0, 4],
  ]) {
    for (let c = 0; c < 8; c++) {
      if (c & b || c & a) continue;
      const p = corner(c >> 2, (c >> 1) & 1, c & 1);
      const q = corner((c | b) >> 2, ((c | b) >> 1) & 1, (c | b) & 1);
      d.push(`M${fmt(p[0])},${fmt(p[1])}L${fmt(q[0])},${fmt(q[1])}`);
    }
  }
  svgEl(doc, "path", { class: "pl-box", d: d.join(""), fill: "none", stroke: look.edge, "stroke-width": look.thin }, g);
}

/**
 * The ticks and the name of one axis, along the box edge parallel to it that `pick` chooses, set off outward.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {{axis: number, name: string, box: number[][], at: Function, centre: number[], tickPx: number, labelPx: number}} o
 * @param {(edges: number[][][]) => number[][]} pick the edge (two 3-D ends) among the four
 */
function liftedAxis(doc, g, o, pick) {
  const { axis, box } = o;
  const others = [0, 1, 2].filter((i) => i !== axis);
  const edges = [];
  for (const u of box[others[0]]) {
    for (const v of box[others[1]]) {
      const end = (t) => {
        const p = [0, 0, 0];
        p[axis] = t;
        p[others[0]] = u;
        p[others[1]] = v;
        return p;
      };
      edges.push([end(box[axis][0]), end(box[axis][1])]);
    }
  }
  const [a, b] = pick(edges);
  const [pa, pb] = [o.at(a), o.at(b)];
  const length = Math.hypot(pb[0] - pa[0], pb[1] - pa[1]);
  if (length < 3 * o.tickPx) return; // seen end on: no room for its ticks
  const mid = [(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2];
  const out = [mid[0] - o.centre[0], mid[1] - o.centre[1]];
  const n = Math.hypot(out[0], out[1]) || 1;
  const away = (p, dist) => [p[0] + (out[0] / n) * dist, p[1] + (out[1] / n) * dist];
  const text = (p, label, px, cls) => {
    const t = svgEl(
      doc,
      "text",
      { class: cls, x: fmt(p[0]), y: fmt(p[1] + px * 0.35), "text-anchor": "middle", "font-size": fmt(px) },
      g,
    );
    t.setAttribute("fill", "#000000");
    t.textContent = label;
  };
  const [lo, hi] = box[axis];
  const tk = ticks(lo, hi, Math.max(4, Math.min(6, Math.floor(length / (o.tickPx * 3)))));
  for (const v of tk.values) {
    const p = o.at(a.map((c, i) => (i === axis ? v : c)));
    text(away(p, o.tickPx * 1.3), tickLabel(v, tk.decimals), o.tickPx, "pl-tick");
  }
  text(away(mid, o.tickPx * 2.4 + o.labelPx * 0.5), o.name, o.labelPx, "pl-name");
}

/**
 * The bowl's polylines as two paths: the pieces the plane hides (drawn before it) and the rest.
 * @param {number[][][]} bowl
 * @param {Function} at
 * @param {(p: number[]) => boolean} behind
 * @returns {{back: string, front: string}}
 */
function bowlPaths(bowl, at, behind) {
  const d = { back: [], front: [] };
  for (const line of bowl) {
    let side = null;
    for (let j = 1; j < line.length; j++) {
      const p = line[j - 1];
      const q = line[j];
      const s = behind([(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2]) ? "back" : "front";
      const [a, b] = [at(p), at(q)];
      if (s !== side) d[s].push(`M${fmt(a[0])},${fmt(a[1])}`);
      d[s].push(`L${fmt(b[0])},${fmt(b[1])}`);
      side = s;
    }
  }
  return { back: d.back.join(""), front: d.front.join("") };
}

/**
 * The lifted points of one side of the plane, the farthest first (the nearest drawn over them).
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {{points: number[][], y: number[], at: Function, style: object}} o
 * @param {number[]} which the indices to draw
 */
function liftedPoints(doc, g, o, which) {
  const placed = which.map((i) => [i, o.at(o.points[i])]).sort((u, v) => u[1][2] - v[1][2] || u[0] - v[0]);
  const s = o.style;
  const small = { ...s, marker_size: s.marker_size * 0.8 }; // as the kernel's lifted view draws them
  for (const [i, q] of placed) {
    const positive = o.y[i] > 0;
    svgEl(
      doc,
      "path",
      {
        class: positive ? "pl-point pl-pos" : "pl-point pl-neg",
        "data-i": i,
        "data-x": fmt(q[0]),
        "data-y": fmt(q[1]),
        d: markerPath(q[0], q[1], positive, small),
        fill: positive ? s.colors.pos : s.colors.neg,
        stroke: "#FFFFFF",
        "stroke-width": fmt(s.marker_edge * PT * 0.8),
      },
      g,
    );
  }
}

/**
 * Draw the view of step k at the given angles into `g` (emptied first): box, ticks, the bowl and the points the
 * plane hides, the plane and where it meets the bowl (the boundary, lifted), the rest of the bowl and the points,
 * the ring.
 * @param {Document} doc
 * @param {SVGElement} g
 * @param {object} runSpec
 * @param {object} spec the panel's spec
 * @param {{k: number, elev: number, azim: number, size: number}} at
 */
export function drawLifted(doc, g, runSpec, spec, { k, elev, azim, size }) {
  g.replaceChildren();
  const s = runSpec.style;
  const { box, aspect } = spec;
  const project = projection(box, aspect, elev, azim, size);
  const thin = fmt(s.thin_width * PT * 0.6);
  liftedBox(doc, g, box, project, { edge: spec.colors.edge, thin });
  const axis = {
    box,
    at: project,
    centre: [pictureSize(aspect, size)[0] / 2, size / 2],
    tickPx: s.tick_size * PT * 0.9,
    labelPx: s.label_size * PT,
  };
  const lowest = (edges) => edges.reduce((e, f) => (edgeMean(f, project, 1) > edgeMean(e, project, 1) + 1e-6 ? f : e));
  const leftmost = (edges) =>
    edges.reduce((e, f) => (edgeMean(f, project, 0) < edgeMean(e, project, 0) - 1e-6 ? f : e));
  liftedAxis(doc, g, { ...axis, axis: 0, name: "x₁" }, lowest);
  liftedAxis(doc, g, { ...axis, axis: 1, name: "x₂" }, lowest);
  liftedAxis(doc, g, { ...axis, axis: 2, name: "z" }, leftmost);
  const poly = spec.planes[k];
  const toward = viewAxes(elev, azim)[2];
  const behind = poly.length >= 3 ? behindPlane(runSpec.w[k], runSpec.b[k], box, aspect, toward) : () => false;
  const bowl = bowlPaths(spec.bowl, project, behind);
  const wire = { fill: "none", stroke: spec.colors.bowl, "stroke-width": thin, "stroke-opacity": "0.7" };
  svgEl(doc, "path", { class: "pl-bowl pl-bowl-back", d: bowl.back, ...wire }, g);
  const all = spec.points.map((_, i) => i);
  const pts = { points: spec.points, y: runSpec.y, at: project, style: s };
  liftedPoints(
    doc,
    svgEl(doc, "g", { class: "pl-behind" }, g),
    pts,
    all.filter((i) => behind(spec.points[i])),
  );
  if (poly.length >= 3) {
    svgEl(
      doc,
      "polygon",
      {
        class: "pl-plane",
        points: polyPoints(poly.map(project)),
        fill: spec.colors.plane,
        "fill-opacity": String(spec.plane_alpha),
        stroke: spec.colors.plane,
        "stroke-width": fmt(s.thin_width * PT),
        "stroke-linejoin": "round",
      },
      g,
    );
  }
  const section = spec.sections[k].map((line) =>
    line.map(project).map((q, j) => `${j ? "L" : "M"}${fmt(q[0])},${fmt(q[1])}`),
  );
  if (section.length) {
    const look = { fill: "none", stroke: s.colors.boundary, "stroke-width": fmt(s.line_width * PT * 0.8) };
    svgEl(doc, "path", { class: "pl-section", d: section.flat().join(""), ...look, "stroke-linejoin": "round" }, g);
  }
  svgEl(doc, "path", { class: "pl-bowl pl-bowl-front", d: bowl.front, ...wire }, g);
  liftedPoints(
    doc,
    svgEl(doc, "g", { class: "pl-front" }, g),
    pts,
    all.filter((i) => !behind(spec.points[i])),
  );
  for (const i of runSpec.ring[k]) {
    const q = project(spec.points[i]);
    const r = (Math.sqrt(s.ring_size) * PT * 0.8) / 2;
    const ring = { cx: fmt(q[0]), cy: fmt(q[1]), r: fmt(r), fill: "none", stroke: s.colors.ring };
    svgEl(doc, "circle", { class: "pl-ring", "data-i": i, ...ring, "stroke-width": fmt(s.ring_width * PT) }, g);
  }
}

function edgeMean(edge, project, c) {
  return (project(edge[0])[c] + project(edge[1])[c]) / 2;
}

/** The panel's look, under its own class. */
export const LIFTED_CSS = `
.pl-lifted { display: inline-flex; flex-direction: column; gap: 4px; max-width: 100%; font-family: system-ui, sans-serif; }
.pl-lifted .pl-picture { display: inline-block; max-width: 100%; touch-action: none; cursor: grab; }
.pl-lifted .pl-picture.pl-dragging { cursor: grabbing; }
.pl-lifted .pl-picture svg { display: block; max-width: 100%; height: auto; }
.pl-lifted .pl-picture:focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
.pl-lifted .pl-turns { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; }
.pl-lifted .pl-turns label { display: inline-flex; gap: 6px; align-items: center; }
.pl-lifted .pl-turns input { width: 5em; min-height: 24px; padding: 0; border: none; background: transparent; }
.pl-lifted .pl-angle { display: inline-block; min-width: 2.8em; font-variant-numeric: tabular-nums; }
.pl-lifted .pl-help { margin: 0; font-size: var(--pl-text, 0.85em); color: #444; max-width: 36em; }
@media (hover: none) and (pointer: coarse) {
  .pl-lifted .pl-help { font-size: max(14px, var(--pl-text, 0px)); }
  .pl-lifted .pl-help-keys { display: none; }
}
.pl-lifted .pl-turns label { font-size: var(--pl-text, 1em); }
`;

/**
 * A labelled slider for one angle.
 * @param {Document} doc
 * @param {string} text
 * @param {number} min
 * @param {number} max
 * @returns {{label: HTMLElement, input: HTMLInputElement, value: HTMLElement}}
 */
function angleSlider(doc, text, min, max) {
  const label = htmlEl(doc, "label", {}, text);
  // whole degrees, as its words: a coarser step put the thumb off the angle shown (−58° from the start and the
  // picture's 5° turns sat at −60 on a 5° grid); its arrow keys turn by 1°, Page Up / Page Down by more
  const input = htmlEl(doc, "input", { type: "range", min: String(min), max: String(max), step: "1" });
  const value = htmlEl(doc, "span", { class: "pl-angle", "aria-hidden": "true" });
  label.append(input, value);
  return { label, input, value };
}

/**
 * Build the lifted panel of a run (`PANEL_KINDS.lifted`): its element, `draw(k)` and `legend` (no entries for the
 * data panel's legend), plus `turn(elev, azim)` and `view()` (the step and the angles on show).
 * @param {Document} doc
 * @param {object} runSpec the player's run (its `y`, `w`, `b`, `ring`, `K` and `style` are read)
 * @param {object} spec the panel's spec (`LiftedPanel.front`)
 * @returns {{el: HTMLElement, draw: (k: number) => void, legend: object[], turn: (elev: number, azim: number) => void, view: () => {k: number, elev: number, azim: number}}}
 */
export function buildLifted(doc, runSpec, spec) {
  const s = runSpec.style;
  const size = spec.size_px;
  // room for the tick labels and the axes' names around the box where it comes near the picture's edge; at the
  // angles where the box fills the picture, they may run over this room (the SVG does not clip them)
  const pad = s.tick_size * PT * 1.4 + s.label_size * PT * 0.9;
  const side = s.tick_size * PT * 2.4 + s.label_size * PT; // the z axis's name stands beside its tick labels
  const top = s.title_size * PT * 1.5;
  const width = pictureSize(spec.aspect, size)[0] + 2 * side;
  const svg = svgEl(doc, "svg", {
    class: "pl-scene",
    viewBox: `0 0 ${fmt(width)} ${fmt(size + pad + top)}`,
    width: fmt(width),
    height: fmt(size + pad + top),
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.style.fontFamily = "DejaVu Sans, Verdana, sans-serif";
  svg.style.overflow = "visible";
  const title = svgEl(doc, "text", { class: "pl-title", x: fmt(width / 2), y: fmt(s.title_size * PT * 1.1) }, svg);
  title.setAttribute("text-anchor", "middle");
  title.setAttribute("font-size", fmt(s.title_size * PT));
  title.textContent = spec.title;
  const g = svgEl(doc, "g", { class: "pl-plot", transform: `translate(${fmt(side)},${fmt(top)})` }, svg);
  // on a touch-only screen the keys are left out of the help, and it is read at the phone's 14 px (tester 5: 11 px)
  const help = htmlEl(doc, "p", { class: "pl-help" }, "Turn the view: drag it");
  help.append(htmlEl(doc, "span", { class: "pl-help-keys" }, ", or focus it and press ← → ↑ ↓"), ".");
  help.id = `pl-help-${pageNumber("lifted")}`;
  const picture = htmlEl(doc, "div", {
    class: "pl-picture",
    role: "img",
    tabindex: "0",
    "data-own-keys": "ArrowLeft ArrowRight ArrowUp ArrowDown",
    "aria-describedby": help.id,
  });
  picture.appendChild(svg);
  const azimuth = angleSlider(doc, "turn (azimuth)", -180, 180);
  const elevation = angleSlider(doc, "tilt (elevation)", -90, 90);
  const turns = htmlEl(doc, "div", { class: "pl-turns" });
  turns.append(azimuth.label, elevation.label);
  const el = htmlEl(doc, "div", { class: "pl-lifted" });
  // no max-width of the picture's: the two sliders may take a little more (one row under it, not two), never more
  // than the column (the CSS's max-width: 100%)
  if (s.text_px > 0) el.style.setProperty("--pl-text", `${s.text_px}px`); // lecture: no text under the preset's
  el.append(htmlEl(doc, "style", {}, LIFTED_CSS), picture, turns, help);

  const state = { k: 0, elev: spec.view.elev, azim: wrapAngle(spec.view.azim) };
  let drawn = false;
  const render = () => {
    drawn = true;
    drawLifted(doc, g, runSpec, spec, { ...state, size });
    const angles = `azimuth ${deg(state.azim)}, elevation ${deg(state.elev)}`;
    picture.setAttribute("aria-label", `${spec.alt[state.k]} Seen from ${angles}.`);
    azimuth.input.value = String(state.azim);
    elevation.input.value = String(state.elev);
    azimuth.input.setAttribute("aria-valuetext", `azimuth ${deg(state.azim)}`);
    elevation.input.setAttribute("aria-valuetext", `elevation ${deg(state.elev)}`);
    azimuth.value.textContent = `${deg(state.azim)}`;
    elevation.value.textContent = `${deg(state.elev)}`;
  };
  const draw = (k) => {
    state.k = Math.min(Math.max(Math.round(k), 0), runSpec.K);
    render();
  };
  const turn = (elev, azim) => {
    state.elev = Math.min(Math.max(Number(elev), -90), 90);
    state.azim = wrapAngle(Number(azim));
    render();
  };
  wireTurns(picture, { azimuth, elevation }, state, turn);
  // drawn by the player's first `draw(k)`, in the same task (a new run shows step k, not 0 and then k: one drawing
  // of the view, not two, when an edit replaces the run); at the start state if nothing has drawn it by the task's end
  queueMicrotask(() => {
    if (!drawn) render();
  });
  // tall: the player's lecture layout shows it under a tab of the column beside the data panel, and its notebook
  // layout under the readout in that column (underReadout), so that the readout's headline stays in view beside the
  // picture
  return { el, draw, legend: [], tall: true, underReadout: true, turn, view: () => ({ ...state }) };
}

/**
 * The ways to turn the view: the sliders, the arrow keys on the focused picture, and a drag over it.
 * @param {HTMLElement} picture
 * @param {{azimuth: {input: HTMLInputElement}, elevation: {input: HTMLInputElement}}} sliders
 * @param {{elev: number, azim: number}} state
 * @param {(elev: number, azim: number) => void} turn
 */
function wireTurns(picture, { azimuth, elevation }, state, turn) {
  azimuth.input.addEventListener("input", () => turn(state.elev, Number(azimuth.input.value)));
  elevation.input.addEventListener("input", () => turn(Number(elevation.input.value), state.azim));
  const keys = {
    ArrowLeft: [0, TURN_STEP],
    ArrowRight: [0, -TURN_STEP],
    ArrowUp: [TURN_STEP, 0],
    ArrowDown: [-TURN_STEP, 0],
  };
  picture.addEventListener("keydown", (event) => {
    const move = keys[event.key];
    if (!move || event.ctrlKey || event.metaKey || event.altKey) return; // Tab, Escape and the rest go on
    event.preventDefault();
    event.stopPropagation();
    turn(state.elev + move[0], state.azim + move[1]);
  });
  keepPlainKeys(picture);
  // the sliders' own keys (arrows, Page Up/Down, Home, End) too: JupyterLab's command mode took ArrowRight on a
  // focused slider to the next cell (the slider never moved, the focus left the view)
  for (const slider of [azimuth, elevation]) keepPlainKeys(slider.input);
  let drag = null;
  picture.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const wide = picture.getBoundingClientRect().width || 1;
    drag = { x: event.clientX, y: event.clientY, elev: state.elev, azim: state.azim, per: 180 / wide };
    picture.setPointerCapture?.(event.pointerId);
    picture.classList.add("pl-dragging");
  });
  picture.addEventListener("pointermove", (event) => {
    if (drag === null) return;
    // as matplotlib's 3-D axes: right turns the azimuth down, down raises the eye
    turn(drag.elev + (event.clientY - drag.y) * drag.per, drag.azim - (event.clientX - drag.x) * drag.per);
  });
  const stop = () => {
    drag = null;
    picture.classList.remove("pl-dragging");
  };
  picture.addEventListener("pointerup", stop);
  picture.addEventListener("pointercancel", stop);
}
