/**
 * The words of a run the browser fitted itself: the readout lines and the picture's sentence at step k, and the
 * editor's summary of the student's points, as Python writes them (`perceptron_lib.player.readout.state_lines`,
 * `alt_text`, `end_text` and `perceptron_lib.core.own_data.summary_lines`), letter for letter.
 *
 * Numbers are written as Python's format "g" writes them (`pyG`): the digits of the exact double rounded half to
 * even, which is not what JavaScript's toPrecision does on a tie (1.0625 to 4 digits: Python 1.062, JS 1.063).
 * `tests/test_browser_editor_front.py` holds these lines equal to Python's on random runs.
 *
 * A run here is `perceptron.js`'s `fitPerceptron` result (or `emptyFit`); `y` holds +1 and -1.
 */

/** The mistake test of each update rule, in words (`readout.TESTS`). */
export const UPDATE_TESTS = {
  nonpositive: "y(<w,x>+b) ≤ 0",
  negative: "y(<w,x>+b) < 0",
  sign: "sign(<w,x>+b) ≠ y, sign(0) = -1",
};

/**
 * The decimal digits of |v| rounded to `p` significant digits, half to even, and the exponent of the first.
 * @param {number} v finite, not 0
 * @param {number} p
 * @returns {{digits: string, exp: number}}
 */
function roundDigits(v, p) {
  const [mantissa, e] = Math.abs(v).toExponential(99).split("e"); // exact for every double a readout meets
  const all = mantissa.replace(".", "");
  let digits = all.slice(0, p);
  let exp = Number(e);
  const rest = all.slice(p);
  const tie = rest[0] === "5" && /^50*$/.test(rest);
  const up = rest[0] > "5" || (rest[0] === "5" && !tie) || (tie && Number(digits[p - 1]) % 2 === 1);
  if (up) {
    const n = (BigInt(digits) + 1n).toString();
    if (n.length > p) {
      digits = n.slice(0, p);
      exp += 1;
    } else digits = n;
  }
  return { digits, exp };
}

/**
 * `v` as Python's `f"{v:.{p}g}"` writes it (finite v).
 * @param {number} v
 * @param {number} p significant digits
 * @returns {string}
 */
export function pyG(v, p) {
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const sign = v < 0 ? "-" : "";
  const { digits, exp } = roundDigits(v, p);
  if (exp >= -4 && exp < p) {
    const text =
      exp >= 0 ? `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}` : `0.${"0".repeat(-exp - 1)}${digits}`;
    return sign + text.replace(/\.?0+$/, "").replace(/\.$/, "");
  }
  const m = `${digits[0]}.${digits.slice(1)}`.replace(/\.?0+$/, "").replace(/\.$/, "");
  return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/**
 * Python's `str` of a float that is not finite.
 * @param {number} v
 * @returns {string}
 */
function pyNonFinite(v) {
  if (Number.isNaN(v)) return "nan";
  return v > 0 ? "inf" : "-inf";
}

/**
 * A number as the readout writes it (`readout.num`): 2 not 2.0, else 4 significant digits.
 * @param {number} v
 * @returns {string}
 */
export function readoutNum(v) {
  if (!Number.isFinite(v)) return pyNonFinite(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e12) return String(v === 0 ? 0 : v);
  return pyG(v, 4);
}

/**
 * A number as the editor's summary writes it (`own_data.num`): whole numbers bare, else `digits` significant.
 * @param {number} v
 * @param {number} [digits]
 * @returns {string}
 */
export function ownNum(v, digits = 3) {
  if (!Number.isFinite(v)) return v > 0 ? "∞" : pyNonFinite(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e9) return String(v === 0 ? 0 : v);
  return pyG(v, digits);
}

/**
 * A vector as "(a, b)" (`readout.vec`, at most 6 coordinates).
 * @param {number[]} w
 * @returns {string}
 */
export function vecText(w) {
  const parts = w.slice(0, 6).map(readoutNum);
  if (w.length > 6) parts.push("...");
  return `(${parts.join(", ")})`;
}

/**
 * "1 update", "2 updates".
 * @param {number} n
 * @param {string} word
 * @returns {string}
 */
export function pluralOf(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * A label as "+1" or "-1".
 * @param {number} v
 * @returns {string}
 */
function signText(v) {
  return v > 0 ? "+1" : "-1";
}

/**
 * The epochs of a cycle (`readout.repeating`): the state after epoch `start` came back after epoch `start + length`.
 * @param {{start: number, length: number, mistakesPerCycle: number}} c
 * @returns {string}
 */
function repeating(c) {
  const [first, last, updates] = [c.start + 1, c.start + c.length, pluralOf(c.mistakesPerCycle, "update")];
  return first === last ? `Epoch ${first} (${updates}) repeats` : `Epochs ${first} to ${last} (${updates}) repeat`;
}

/**
 * What a cycle proves (`readout.unseparated`).
 * @param {boolean} fitBias
 * @returns {string}
 */
function unseparated(fitBias) {
  return fitBias ? "no (w, b) separates these points" : "no w with b = 0 separates these points";
}

/**
 * How the run ended, in one sentence (`readout.end_text` for an online run).
 * @param {object} run
 * @returns {string}
 */
export function runEndText(run) {
  const s = run.settings;
  let test = UPDATE_TESTS[s.updateOn];
  if (s.margin > 0) test = s.updateOn !== "sign" ? test.replaceAll("0", readoutNum(s.margin)) : "the update test";
  if (run.converged) return `End: converged: in epoch ${run.epochs} no point had ${test}.`;
  const c = run.cycle;
  if (c !== null) return `End: cycle. ${repeating(c)} for ever: ${unseparated(s.fitBias)}.`;
  return `End: stopped after ${pluralOf(run.epochs, "epoch")} (the max_epochs limit), not converged.`;
}

/**
 * What w = 0 means at step k (`readout.no_boundary`).
 * @param {number} k
 * @param {number} b
 * @returns {string}
 */
function noBoundary(k, b) {
  return k === 0 ? "no boundary yet" : `no boundary, every point gets ${signText(b)}`;
}

/**
 * The readout of step k of an online run on (X, y) (`readout.state_lines`), the headline first.
 * @param {object} run `fitPerceptron`'s result
 * @param {number[][]} X
 * @param {number[]} y
 * @param {number} k
 * @param {number} wrong how many examples state k gets wrong (its mistake test, threshold 0)
 * @returns {string[]}
 */
export function stateLines(run, X, y, k, wrong) {
  const h = run.history;
  const K = h.i.length;
  const [w, b, n] = [h.w[k], h.b[k], y.length];
  if (n === 0)
    return ["No points: nothing for the perceptron to look at yet.", `w = ${vecText(w)}, b = ${readoutNum(b)}.`];
  const s = run.settings;
  const test = UPDATE_TESTS[s.updateOn];
  const now =
    s.updateOn === "negative"
      ? `Wrong side now: ${wrong} of ${n} points have ${test}.`
      : `Mistakes now: ${wrong} of ${n} points have ${test}.`;
  const out = [];
  if (k === 0) out.push(`Start state (update 0 of ${K}): no example looked at yet.`);
  else {
    const i = h.i[k - 1];
    out.push(`Update ${k} of ${K} (epoch ${h.epoch[k - 1]}).`);
    out.push(`Example i = ${i}: x = ${vecText(X[i])}, y = ${signText(y[i])}.`);
    out.push(`y(<w,x>+b) before → after: ${readoutNum(h.marginBefore[k - 1])} → ${readoutNum(h.marginAfter[k - 1])}.`);
  }
  const zero = w.every((v) => v === 0);
  out.push(`w = ${vecText(w)}, b = ${readoutNum(b)}${zero ? `: ${noBoundary(k, b)}.` : "."}`);
  if (s.margin > 0) {
    out.push(`Updates so far: ${k} of the run's ${K}, one at each y(<w,x>+b) ≤ ${readoutNum(s.margin)}.`);
  } else out.push(`Mistakes so far: ${k} of the run's ${K}, one update each.`);
  out.push(now);
  if (k === K) out.push(runEndText(run));
  return out;
}

/**
 * The picture's sentence at step k (`readout.alt_text`).
 * @param {object} run
 * @param {number} n how many points
 * @param {number} k
 * @param {number} wrong
 * @returns {string}
 */
export function altText(run, n, k, wrong) {
  if (n === 0) return "An empty plane: no data points yet.";
  const h = run.history;
  const [w, b, K] = [h.w[k], h.b[k], h.i.length];
  const where = k === 0 ? "at the start" : `after update ${k} of ${K}`;
  let line = `the boundary of w = ${vecText(w)}, b = ${readoutNum(b)}`;
  if (w.every((v) => v === 0)) {
    line = k === 0 ? "no boundary yet (w = 0)" : `no boundary (w = 0, every point gets ${signText(b)})`;
  }
  return `The ${n} data points, + and − classes, with ${line} ${where}; ${pluralOf(wrong, "point")} crossed as mistakes.`;
}

/**
 * The editor's summary of the points and the run in words (`own_data.summary_lines`), from `max_margin.js`'s
 * `summarize`.
 * @param {object} s
 * @param {string} separator what separates ("line", "plane of the lift", ...)
 * @returns {string[]}
 */
export function summaryLines(s, separator = "line") {
  if (s.n === 0) return ["Your data: no points yet. Click or tap the picture to place one."];
  const out = [`Your data: ${pluralOf(s.n, "point")} (${s.nPos} of class +1, ${s.nNeg} of class −1).`];
  if (s.separable === null) {
    const other = s.nNeg === 0 ? "−1 (the −1 button, or shift-click)" : "+1 (the +1 button, or shift-click)";
    out.push(`One class only: place a point of class ${other} to give the perceptron something to separate.`);
    out.push(`Mistakes made: ${s.mistakes}.`);
    return out;
  }
  const through = s.fitBias ? "" : " through the origin";
  if (s.separable) return out.concat(separableLines(s, separator, through));
  out.push(`No ${separator}${through} separates them, so there is no margin and no bound.`);
  if (s.cycle !== null) {
    const c = s.cycle;
    out.push(
      `The run came back to its state after epoch ${c.start} after epoch ${c.start + c.length}: ` +
        `a cycle of ${pluralOf(c.mistakesPerCycle, "update")}, for ever.`,
    );
  } else if (!s.converged) {
    out.push(
      `The run stopped after ${pluralOf(s.epochs, "epoch")} without converging (${pluralOf(s.mistakes, "mistake")} made).`,
    );
  } else out.push(`Mistakes made: ${s.mistakes}.`);
  return out;
}

/**
 * The summary's lines for separable points: R, gamma, the bound and the mistakes against it.
 * @param {object} s
 * @param {string} separator
 * @param {string} through
 * @returns {string[]}
 */
function separableLines(s, separator, through) {
  const out = [`A ${separator}${through} separates them: R = ${ownNum(s.R)}, best margin γ = ${ownNum(s.gamma)}.`];
  if (s.fitBias) {
    // (R/γ)² alone bounds only a run without an offset: not shown beside this run's bound (own_data.py too)
    out.push(`Bound with offset (b*²+1)(1+R²)/γ² = ${ownNum(s.bound)}, b* the offset of the best ${separator}.`);
  } else out.push(`Bound (R/γ)² = ${ownNum(s.bound)}.`);
  const verdict = s.mistakes <= s.bound ? "within the bound" : "ABOVE the bound";
  out.push(`Mistakes made: ${s.mistakes}, ${verdict} (${ownNum(s.mistakes / s.bound, 2)} of it).`);
  if (!s.converged) {
    out.push(
      `The run stopped after ${pluralOf(s.epochs, "epoch")}, before converging: the bound allows up to ` +
        `${ownNum(s.bound)} mistakes, so more epochs would finish it.`,
    );
  }
  return out;
}
