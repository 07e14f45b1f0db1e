/**
 * The student's points as text and on the grid, in the browser: `perceptron_lib.core.own_data`'s `snap`,
 * `conflict`, `points_literal` and `parse_points`, rule for rule and message for message.
 *
 * `parsePoints` reads what "Copy points" writes: two assignments, `X = [[x1, x2], ...]` and `y = [1, -1, ...]`, on
 * two lines or separated by ";", each optionally wrapped in `np.array(...)`. Python reads the values with
 * `ast.literal_eval`; here a small reader takes the literals a student can mean (numbers, lists, tuples) and
 * refuses the rest with the message Python gives for text it cannot read. Nothing is ever evaluated as code.
 */

/** Most points the editor keeps (`own_data.MAX_POINTS`). */
export const MAX_POINTS = 500;

/**
 * Python's `repr` of a float: the shortest digits that read back the same, fixed from 1e-4 up to 1e16, else
 * "1e-05" / "1.5e+16"; a whole number ends in ".0".
 * @param {number} v
 * @returns {string}
 */
export function pyFloatRepr(v) {
  if (!Number.isFinite(v)) return pyNotFinite(v);
  if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
  const sign = v < 0 ? "-" : "";
  const [mantissa, e] = Math.abs(v).toExponential().split("e"); // shortest round-trip digits, as Python's repr
  const digits = mantissa.replace(".", "");
  const exp = Number(e);
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  return `${sign}${digits.slice(0, exp + 1).padEnd(exp + 1, "0")}.${digits.slice(exp + 1) || "0"}`;
}

/**
 * Python's `repr` of a float that is not finite.
 * @param {number} v
 * @returns {string}
 */
function pyNotFinite(v) {
  if (Number.isNaN(v)) return "nan";
  return v > 0 ? "inf" : "-inf";
}

/**
 * A coordinate as "Copy points" writes it (`own_data._literal_number`): repr, -0 as 0, "2.0" as "2".
 * @param {number} v
 * @returns {string}
 */
function literalNumber(v) {
  const r = pyFloatRepr(v + 0);
  return r.endsWith(".0") ? r.slice(0, -2) : r;
}

/**
 * The points as Python to paste into a code cell (`own_data.points_literal`).
 * @param {number[][]} X
 * @param {number[]} y
 * @returns {string}
 */
export function pointsLiteral(X, y) {
  const rows = X.map((p) => `[${p.map(literalNumber).join(", ")}]`).join(", ");
  return `X = [${rows}]\ny = [${y.map((v) => (v > 0 ? "1" : "-1")).join(", ")}]`;
}

/**
 * numpy's `rint`: to the nearest whole number, half to even.
 * @param {number} v
 * @returns {number}
 */
function rint(v) {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * A clicked position rounded to about 1/400 of the view's span (`own_data.snap`: 0.01 for a span of 4).
 * @param {number[]} p
 * @param {number} span
 * @returns {number[]}
 */
export function snapPoint(p, span) {
  const power = Math.floor(Math.log10(Math.max(span, 1e-12) / 400));
  const step = Number(`1e${power}`);
  const decimals = Math.max(0, -power);
  if (decimals === 0) return p.map((v) => rint(v / step) * step);
  const f = Number(`1e${decimals}`); // numpy's round: rint(v * 10^d) / 10^d
  return p.map((v) => rint(v * f) / f);
}

/**
 * The first pair [j, i] of points at one spot with opposite labels, or null (`own_data.conflict`).
 * @param {number[][]} X
 * @param {number[]} y
 * @returns {number[] | null}
 */
export function conflictPair(X, y) {
  const seen = new Map();
  for (let i = 0; i < X.length; i++) {
    const key = `${X[i][0] + 0},${X[i][1] + 0}`;
    if (!seen.has(key)) seen.set(key, i);
    const j = seen.get(key);
    if (j !== i && y[j] !== y[i]) return [j, i];
  }
  return null;
}

/**
 * Python's `repr` of a short string (single quotes unless it holds one and no double quote).
 * @param {string} s
 * @returns {string}
 */
export function pyStrRepr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s
    .replaceAll("\\", "\\\\")
    .replaceAll(q, `\\${q}`)
    .replaceAll("\n", "\\n")
    .replaceAll("\r", "\\r")
    .replaceAll("\t", "\\t");
  return q + body + q;
}

/** A string in a literal: Python reads it, and numpy then refuses it as a number. */
const NOT_A_NUMBER = Symbol("not a number");

/** A Python number literal: an int or a float, with an optional sign (as a unary operator). */
const NUMBER = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?/;

/**
 * Reads a Python literal of numbers, lists and tuples; null for anything else (text `ast.literal_eval` refuses,
 * or values that are not numbers).
 * @param {string} text
 * @returns {any}
 */
export function readLiteral(text) {
  let at = 0;
  const space = () => {
    while (at < text.length && /\s/.test(text[at])) at++;
  };
  const value = () => {
    space();
    const c = text[at];
    if (c === "[" || c === "(") return sequence(c === "[" ? "]" : ")");
    const word = /^(True|False|None)\b/.exec(text.slice(at));
    if (word) {
      at += word[0].length;
      return { True: 1, False: 0, None: Number.NaN }[word[1]]; // as numpy reads them into floats
    }
    if (c === "'" || c === '"') return quoted(c);
    const m = NUMBER.exec(text.slice(at));
    if (m === null || m[0] === "" || m[0] === "+" || m[0] === "-") throw new SyntaxError("not a number");
    at += m[0].length;
    return Number(m[0].replaceAll("_", ""));
  };
  const quoted = (q) => {
    const end = text.indexOf(q, at + 1);
    if (end < 0) throw new SyntaxError("unterminated string");
    at = end + 1;
    return NOT_A_NUMBER;
  };
  const sequence = (close) => {
    at++;
    const items = [];
    let commas = 0;
    for (;;) {
      space();
      if (text[at] === close) break;
      items.push(value());
      space();
      if (text[at] === ",") {
        at++;
        commas++;
      } else if (text[at] !== close) throw new SyntaxError("expected , or the closing bracket");
    }
    at++;
    return close === ")" && items.length === 1 && commas === 0 ? items[0] : items; // (v) is v in Python
  };
  try {
    const v = value();
    space();
    return at === text.length ? v : null;
  } catch {
    return null;
  }
}

/**
 * The shape of a nested list of numbers, or null when ragged.
 * @param {any} v
 * @returns {number[] | null}
 */
function shapeOf(v) {
  if (!Array.isArray(v)) return [];
  const inner = v.map(shapeOf);
  if (inner.some((s) => s === null)) return null;
  if (inner.length && inner.some((s) => s.join() !== inner[0].join())) return null;
  return [v.length, ...(inner[0] ?? [])];
}

/**
 * Python's repr of a shape tuple: "(3,)", "(2, 3)".
 * @param {number[]} shape
 * @returns {string}
 */
function shapeRepr(shape) {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}

const ASSIGN = /^\s*([Xy])\s*=\s*([\s\S]*)$/;
const WRAPPER = /^\s*(?:np\.|numpy\.)?(?:array|asarray)\(([\s\S]*)\)\s*$/;

/**
 * The value assigned to X or y, read (`own_data._value`).
 * @param {string} name
 * @param {string} text
 * @returns {any}
 */
function assignedValue(name, text) {
  const m = WRAPPER.exec(text);
  const inner = (m ? m[1] : text).trim();
  const v = readLiteral(inner);
  if (v === null) {
    throw new Error(
      `${name} is not a list of numbers I can read: ${pyStrRepr(inner.slice(0, 60))}. Write it as 'Copy points' ` +
        `does, e.g. ${name} = ${name === "X" ? "[[0.5, 1], [-1, 2]]" : "[1, -1]"}.`,
    );
  }
  return v;
}

/**
 * Reads `X = [...]` and `y = [...]` (as `pointsLiteral` writes them) into points and labels
 * (`own_data.parse_points`); throws an Error whose message is for the student.
 * @param {string} text
 * @param {number} [maxPoints]
 * @returns {{X: number[][], y: number[]}}
 */
export function parsePoints(text, maxPoints = MAX_POINTS) {
  if (typeof text !== "string" || !text.trim()) {
    throw new Error("The box is empty: paste two lines, X = [[x1, x2], ...] and y = [1, -1, ...].");
  }
  if (text.length > 200_000) {
    throw new Error(`That text is too long (${text.length} characters); at most ${maxPoints} points fit.`);
  }
  const found = {};
  for (const part of text.trim().split(/[;\n]+(?=\s*[Xy]\s*=)/)) {
    const m = ASSIGN.exec(part);
    if (!m) throw new Error(`I expected 'X = ...' or 'y = ...', not ${pyStrRepr(part.trim().slice(0, 40))}.`);
    found[m[1]] = assignedValue(m[1], m[2].trim().replace(/;+$/, ""));
  }
  const missing = ["X", "y"].filter((k) => !(k in found));
  if (missing.length) {
    throw new Error(`Missing ${missing.join(" and ")}: the box needs both X = [[x1, x2], ...] and y = [1, -1, ...].`);
  }
  return checkedPoints(found.X, found.y, maxPoints);
}

/**
 * The checks of `parse_points` on values read: shapes, finite numbers, labels +1 and -1, at most maxPoints.
 * @param {any} X
 * @param {any} y
 * @param {number} maxPoints
 * @returns {{X: number[][], y: number[]}}
 */
function checkedPoints(X, y, maxPoints) {
  const sx = shapeOf(X);
  const sy = shapeOf(y);
  const numeric = (v) => (Array.isArray(v) ? v.every(numeric) : v !== NOT_A_NUMBER);
  if (sx === null || sy === null || !numeric(X) || !numeric(y)) {
    throw new Error("X and y must hold numbers only: X a list of [x1, x2] pairs, y a list of 1 and -1.");
  }
  const size = (s) => s.reduce((a, v) => a * v, 1);
  if (size(sx) === 0 && size(sy) === 0) {
    throw new Error("X and y are empty: give at least one point (use Clear to remove every point).");
  }
  if (sx.length !== 2 || sx[1] !== 2)
    throw new Error(`X must be a list of [x1, x2] pairs; got shape ${shapeRepr(sx)}.`);
  if (sy.length !== 1 || sy[0] !== sx[0]) {
    throw new Error(`y needs one label per point: X has ${sx[0]} points and y has ${size(sy)} labels.`);
  }
  if (!X.flat().every(Number.isFinite) || !y.every(Number.isFinite)) {
    throw new Error("X and y must be finite numbers (no nan or inf).");
  }
  const bad = [...new Set(y.filter((v) => v !== 1 && v !== -1))].sort((a, b) => a - b).slice(0, 3);
  if (bad.length) throw new Error(`every label must be 1 or -1; got [${bad.map(pyFloatRepr).join(", ")}].`);
  if (X.length > maxPoints)
    throw new Error(`${X.length} points is more than the ${maxPoints} the editor keeps; give fewer.`);
  return { X: X.map((p) => [p[0] + 0, p[1] + 0]), y: y.map((v) => (v > 0 ? 1 : -1)) };
}
