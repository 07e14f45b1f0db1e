/**
 * A picture drawn in the kernel (a PNG from matplotlib) that takes the student's clicks, drags and keys: the
 * anywidget front end of `perceptron_lib.player.events.EventPicture` (`export default { render }`).
 *
 * The model holds the PNG (`value`), its accessible name (`alt`: the alt sentence, and what a click does),
 * a sentence on its keys (`help`), the caps of its shown size (`max_width`, `max_height`: CSS), the keys it
 * takes (`taken_keys`: `KeyboardEvent.key` names) and whether presses on it go to the kernel (`pointer`).
 *
 * The picture is an `<img>` that Tab reaches, with a focus ring. It sends the kernel one message per event that
 * the kernel uses, and nothing else:
 *   {type: "keydown", key, shiftKey, altKey, ctrlKey, metaKey}
 *   {type: "pointerdown" | "pointerup" | "pointerleave" | "pointercancel", pointerType, dataX, dataY, and the
 *    four modifier keys}
 * with (dataX, dataY) in the PNG's own pixels (origin top left) whatever size the picture is shown at. A key is
 * taken only while the picture has the focus or the pointer, only if it is in `taken_keys`, never with Ctrl, Alt or
 * Meta, never while the picture is hidden, and never from a field being typed in: Tab, Escape and every other
 * key go on to the page (no keyboard trap). A press is sent only with `pointer` on, and its release (or the
 * pointer leaving the picture while pressed) then always follows it.
 */

/** The picture's look, under its own class: nothing else on the page changes. */
export const CSS = `
.perceptron-picture { display: block; width: auto; height: auto; object-fit: contain; user-select: none;
  -webkit-user-select: none; -webkit-user-drag: none; }
.perceptron-picture:focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
.perceptron-picture.pp-takes-presses { cursor: crosshair; touch-action: none; }
.perceptron-picture-help { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
  white-space: nowrap; }
`;

/** The pictures of this page so far, shared by every widget's copy of this module (ids unique in the page). */
const PICTURES = Symbol.for("perceptron_lib.picture");

/**
 * The PNG's pixel under the client point (x, y), to 0.01 px: the picture's box scaled to its natural size.
 * @param {{left: number, top: number, width: number, height: number}} box the picture's client box
 * @param {{width: number, height: number}} natural the PNG's size in its own pixels
 * @param {number} x
 * @param {number} y
 * @returns {{dataX: number, dataY: number}}
 */
export function picturePixel(box, natural, x, y) {
  const scale = (v) => Math.round(v * 100) / 100;
  return {
    dataX: scale(((x - box.left) / box.width) * natural.width),
    dataY: scale(((y - box.top) / box.height) * natural.height),
  };
}

/**
 * The modifier keys of an event, as the kernel reads them.
 * @param {MouseEvent | KeyboardEvent} event
 * @returns {{shiftKey: boolean, altKey: boolean, ctrlKey: boolean, metaKey: boolean}}
 */
function modifiers(event) {
  return { shiftKey: event.shiftKey, altKey: event.altKey, ctrlKey: event.ctrlKey, metaKey: event.metaKey };
}

/**
 * True when `key` belongs to the element it was pressed on: every key of a field (typing, its own arrows),
 * and space or Enter on a button or a link (they press it).
 * @param {EventTarget | null} target
 * @param {string} key
 * @returns {boolean}
 */
export function keyOfTarget(target, key) {
  if (!target || typeof target.closest !== "function") return false;
  const field = "input, textarea, select, [contenteditable=''], [contenteditable='true'], [role='textbox']";
  if (target.closest(field) !== null) return true;
  return (key === " " || key === "Enter") && target.closest("button, a[href], [role='button']") !== null;
}

/**
 * Whether the element is shown: laid out, and not hidden by a style (a slide not on show hides its pictures).
 * @param {Element} node
 * @returns {boolean}
 */
function shown(node) {
  if (typeof node.checkVisibility === "function") return node.checkVisibility({ visibilityProperty: true });
  return node.getClientRects().length > 0;
}

/**
 * The PNG bytes of the model as a Blob URL (null for no bytes): anywidget gives binary traits as a DataView.
 * @param {DataView | ArrayBuffer | Uint8Array | null} bytes
 * @returns {string | null}
 */
function pngUrl(bytes) {
  if (!bytes || bytes.byteLength === 0) return null;
  return URL.createObjectURL(new Blob([bytes], { type: "image/png" }));
}

/**
 * Build the picture into `el` and keep it in step with the model; returns the clean-up.
 * @param {{get: Function, on: Function, off: Function, send: Function}} model
 * @param {HTMLElement} el
 * @returns {() => void}
 */
export function mountPicture(model, el) {
  const doc = el.ownerDocument;
  const win = doc.defaultView;
  globalThis[PICTURES] = (globalThis[PICTURES] ?? 0) + 1;
  const id = `perceptron-picture-${globalThis[PICTURES]}`;
  const img = doc.createElement("img");
  img.className = "perceptron-picture widget-image"; // ipywidgets' Image class too: pages and tests find it so
  img.tabIndex = 0;
  img.draggable = false;
  const help = doc.createElement("span");
  help.className = "perceptron-picture-help";
  help.id = `${id}-help`;
  const style = doc.createElement("style");
  style.textContent = CSS;
  el.replaceChildren(style, img, help);

  let url = null;
  const showPng = () => {
    const next = pngUrl(model.get("value"));
    if (next === null) img.removeAttribute("src");
    else img.src = next;
    if (url !== null) URL.revokeObjectURL(url);
    url = next;
  };
  const showName = () => {
    const name = model.get("alt") || "";
    img.alt = name;
    img.title = name;
  };
  const showHelp = () => {
    const text = model.get("help") || "";
    help.textContent = text;
    if (text) img.setAttribute("aria-describedby", help.id);
    else img.removeAttribute("aria-describedby");
  };
  const showSize = () => {
    img.style.maxWidth = model.get("max_width") || "100%";
    img.style.maxHeight = model.get("max_height") || "none";
  };
  const showPresses = () => img.classList.toggle("pp-takes-presses", Boolean(model.get("pointer")));

  // ---- keys: heard while the picture has the focus or the pointer
  let focused = false;
  let hovered = false;
  let listening = false;
  const takes = (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey || !shown(img)) return false;
    if (!(model.get("taken_keys") || []).includes(event.key)) return false;
    return focused || !keyOfTarget(event.target, event.key);
  };
  const onKey = (event) => {
    if (!takes(event)) return;
    event.preventDefault();
    event.stopPropagation();
    model.send({ type: "keydown", key: event.key, ...modifiers(event) });
  };
  const listen = () => {
    const want = focused || hovered;
    if (want !== listening) (want ? win.addEventListener : win.removeEventListener).call(win, "keydown", onKey, true);
    listening = want;
  };

  // ---- presses: a press on the picture, then its release or the pointer leaving while pressed
  let pressed = null; // the pointerId of the press under way
  const sendPointer = (event) => {
    const box = img.getBoundingClientRect();
    const natural = { width: img.naturalWidth, height: img.naturalHeight };
    model.send({
      type: event.type,
      pointerType: event.pointerType,
      ...picturePixel(box, natural, event.clientX, event.clientY),
      ...modifiers(event),
    });
  };
  const onDown = (event) => {
    if (!model.get("pointer") || !event.isPrimary || event.button !== 0 || img.naturalWidth === 0) return;
    pressed = event.pointerId;
    sendPointer(event);
  };
  const onEnd = (event) => {
    if (event.pointerId !== pressed) return;
    pressed = null;
    sendPointer(event);
  };
  // the focus after a click, when the page's own handlers of the press (a notebook selecting its cell) are done
  const onUp = (event) => {
    if (doc.activeElement !== img) img.focus({ preventScroll: true });
    onEnd(event);
  };

  const onFocus = (event) => {
    focused = event.type === "focus";
    listen();
  };
  const onHover = (event) => {
    hovered = event.type === "pointerenter";
    listen();
    if (!hovered) onEnd(event); // a press that leaves the picture ends there
  };

  const handlers = [
    [img, "focus", onFocus],
    [img, "blur", onFocus],
    [img, "pointerenter", onHover],
    [img, "pointerleave", onHover],
    [img, "pointerdown", onDown],
    [img, "pointerup", onUp],
    [img, "pointercancel", onEnd],
  ];
  for (const [node, type, handler] of handlers) node.addEventListener(type, handler);
  const watched = [
    ["change:value", showPng],
    ["change:alt", showName],
    ["change:help", showHelp],
    ["change:max_width", showSize],
    ["change:max_height", showSize],
    ["change:pointer", showPresses],
  ];
  for (const [event, handler] of watched) model.on(event, handler);
  for (const show of [showPng, showName, showHelp, showSize, showPresses]) show();

  return () => {
    for (const [event, handler] of watched) model.off(event, handler);
    for (const [node, type, handler] of handlers) node.removeEventListener(type, handler);
    focused = hovered = false;
    listen();
    if (url !== null) URL.revokeObjectURL(url);
    el.replaceChildren();
  };
}

/**
 * anywidget's entry.
 * @param {{model: object, el: HTMLElement}} view
 * @returns {() => void} the clean-up anywidget calls when the view goes
 */
function render({ model, el }) {
  return mountPicture(model, el);
}

export default { render };
