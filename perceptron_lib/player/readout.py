"""The player's words: the state of a perceptron `Run` at step k as plain-text lines.

`state_lines(run, X, y, k)` is the default readout of the players (`perceptron_lib.player.BrowserPlayer`)
(a player takes any function of ``(run, X, y, k)`` instead); `alt_text` is the one sentence
that describes the picture (the image's alt text). `all_state_lines(run, X, y)` and
`all_alt_texts(run, X, y)` (both at once: `all_words`) are the same words for every step, for a front
end that is sent the whole run (`browser.run_trait`): one template makes both, and the counts of every
state come from one chunked product (`core.step_counts`), so a long run is worded in one pass. Pure
functions of the run: no widgets, no matplotlib.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.own_data import plural
from ..core.perceptron import is_mistake, scores
from ..core.step_counts import mistake_counts

__all__ = ["state_lines", "all_state_lines", "end_text", "alt_text", "all_alt_texts", "all_words", "readout_html",
           "TESTS"]

#: The mistake test of each update rule, in words.
TESTS = {
    "nonpositive": "y(<w,x>+b) ≤ 0",
    "negative": "y(<w,x>+b) < 0",
    "sign": "sign(<w,x>+b) ≠ y, sign(0) = -1",
}


def num(v) -> str:
    """A number as a person would write it: 2 not 2.0, 4 significant digits otherwise."""
    v = float(v)
    if not math.isfinite(v):
        return str(v)
    if v == int(v) and abs(v) < 1e12:
        return str(int(v))  # also turns -0.0 into 0
    return f"{v:.4g}"


def nums(values) -> list:
    """`num` of each of `values` (any shape, read flat), the same strings, formatted in one pass."""
    a = np.asarray(values, dtype=float).ravel()
    with np.errstate(invalid="ignore"):
        whole = (np.abs(a) < 1e12) & (a == np.trunc(a))  # num's "v == int(v) and abs(v) < 1e12" (never NaN or inf)
    texts = np.empty(len(a), dtype=object)
    texts[whole] = [str(v) for v in a[whole].astype(np.int64).tolist()]  # str(int(v)): -0.0 is "0"
    texts[~whole] = [f"{v:.4g}" for v in a[~whole].tolist()]  # also "nan", "inf", "-inf", as str(v) writes them
    return texts.tolist()


#: How many coordinates of a vector `vec` writes before "...".
_VEC_LIMIT = 6


def vec(w, limit=_VEC_LIMIT) -> str:
    w = np.asarray(w, dtype=float).ravel()
    parts = [num(v) for v in w[:limit]]
    if len(w) > limit:
        parts.append("...")
    return "(" + ", ".join(parts) + ")"


def sign(v) -> str:
    return "+1" if v > 0 else "-1"


def _unit(run) -> str:
    """What one of the run's `epochs` is called (`Run.pass_name`)."""
    return run.pass_name


def _passes(run) -> int:
    return int(run.epochs)


def state_lines(run, X, y, k) -> list:
    """The readout for step k of `run` on (X, y) as plain-text lines (the first is the headline)."""
    h = run.history
    k = min(max(int(k), 0), len(h) - 1)
    wrong = _wrong(run, X, y, k) if len(y) else 0
    before = _wrong(run, X, y, k - 1) if len(y) and k and h.i[k - 1] < 0 else None
    return _RunWords(run, X, y).lines(k, h.w[k].tolist(), float(h.b[k]), _update(h, k), wrong, before)


def all_state_lines(run, X, y, *, counts=None) -> list:
    """`state_lines` of every step at once: ``[state_lines(run, X, y, k) for k in range(K + 1)]``, the same
    strings, in one pass: the "Mistakes now" counts of all the states come from one chunked product
    (`core.step_counts.mistake_counts`, exact as the one-state test) and each number is formatted once.

    `counts`, if given, is ``mistake_counts(run, X, y)`` already computed. `all_words` gives these lines and
    `all_alt_texts`'s sentences together, counting and formatting once for both."""
    return _all(run, X, y, counts, alt=False)[0]


def all_alt_texts(run, X, y, *, counts=None) -> list:
    """`alt_text` of every step at once: ``[alt_text(run, X, y, k) for k in range(K + 1)]``, the same
    sentences, in one pass (counted as `all_state_lines` counts; `counts` as there)."""
    return _all(run, X, y, counts, lines=False)[1]


def all_words(run, X, y) -> tuple:
    """``(all_state_lines(run, X, y), all_alt_texts(run, X, y))``: the readout lines and the alt sentence of every
    step, what a browser player is sent with the run, with one count of mistakes and one cache of numbers."""
    return _all(run, X, y, None)


def _all(run, X, y, counts, *, lines=True, alt=True) -> tuple:
    """The lines and the sentences of every step (each None unless asked for)."""
    h = run.history
    counts = _counts(run, X, y, counts)
    words = _RunWords(run, X, y)
    # every number the words of a long run write, formatted in one pass (states, offsets, margins of the updates)
    words.remember(h.w[:, :_VEC_LIMIT], h.b, h.margin_before, h.margin_after)
    w, b = h.w.tolist(), h.b.tolist()
    out_lines = out_alt = None
    if lines:
        out_lines = [words.lines(k, w_k, b_k, u, c, counts[k - 1] if u is not None and u[0] < 0 else None)
                     for k, (w_k, b_k, u, c) in enumerate(zip(w, b, _all_updates(h), counts, strict=True))]
    if alt:
        out_alt = [words.alt(k, w_k, b_k, c) for k, (w_k, b_k, c) in enumerate(zip(w, b, counts, strict=True))]
    return out_lines, out_alt


def alt_text(run, X, y, k) -> str:
    """One sentence saying what the player's picture shows at step k (the image's alt text)."""
    h = run.history
    k = min(max(int(k), 0), len(h) - 1)
    return _RunWords(run, X, y).alt(k, h.w[k].tolist(), float(h.b[k]), _wrong(run, X, y, k) if len(y) else 0)


def _counts(run, X, y, counts) -> list:
    """`mistake_counts` as a list of ints, computed unless given."""
    counts = mistake_counts(run, X, y) if counts is None else np.asarray(counts)
    if counts.shape != (len(run.history),):
        raise ValueError(f"counts must be mistake_counts(run, X, y), one count per state ({len(run.history)}); "
                         f"got shape {counts.shape}.")
    return counts.astype(int).tolist()


def _wrong(run, X, y, k) -> int:
    """How many examples state k gets wrong (the run's test, threshold 0), one state's product."""
    h = run.history
    return int(is_mistake(scores(h.w[k], float(h.b[k]), X), y, run.update_on).sum())


def _update(h, k):
    """``(i, epoch, batch, margin_before, margin_after)`` of update k of history `h` (None for the start)."""
    if k == 0:
        return None
    j = k - 1
    return int(h.i[j]), int(h.epoch[j]), h.batches[j], float(h.margin_before[j]), float(h.margin_after[j])


def _all_updates(h) -> list:
    """`_update` of every step k = 0..K."""
    return [None, *zip(h.i.tolist(), h.epoch.tolist(), h.batches, h.margin_before.tolist(),
                       h.margin_after.tolist(), strict=True)]


class _RunWords:
    """The words of one run on (X, y): what is the same at every step worked out once, `num` and `vec`
    remembered by value (a run's states repeat their numbers: integer data, cycles) and each example's x
    written once, so the words of a whole run format each number once. `lines` and `alt` are the one
    template of `state_lines` and `alt_text`, for one step or all."""

    def __init__(self, run, X, y):
        self.run, self.X, self.y, self.n, self.K = run, X, y, len(y), len(run.history) - 1
        self._num, self._vec, self._x = {}, {}, {}
        test = TESTS.get(run.update_on, "the update test")
        # One word per test: a "mistake" is y(<w,x>+b) <= 0; the strict test counts the "wrong side".
        if run.update_on == "negative":
            self.now = "Wrong side now: ", f" of {self.n} points have {test}."
        else:
            self.now = "Mistakes now: ", f" of {self.n} points have {test}."
        # two counts that are easy to confuse: the run's mistakes up to step k, and the current line's
        if run.method == "online" and getattr(run, "margin", 0.0) > 0:  # the margin perceptron: an update is no mistake
            self.so_far = "Updates so far: ", f" of the run's {self.K}, one at each y(<w,x>+b) ≤ {num(run.margin)}."
        elif run.method == "online":
            self.so_far = "Mistakes so far: ", f" of the run's {self.K}, one update each."
        else:
            self.so_far = "Updates so far: ", f" of the run's {self.K}."
        self.unit, self.where = _unit(run), "the data" if run.method == "batch" else "the batch"

    def num(self, v) -> str:
        v = float(v)
        text = self._num.get(v)
        if text is None:  # -0.0 finds 0.0's words: "0", as `num` says; NaN is never found, and written anew
            text = self._num[v] = num(v)
        return text

    def remember(self, *arrays) -> None:
        """Format every number of `arrays` now, in one pass (`nums`), for `num` to find: the words of a whole run
        then format no number one by one."""
        values = np.unique(np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays]))
        self._num.update(zip(values.tolist(), nums(values), strict=True))

    def vec(self, w: list, limit=_VEC_LIMIT) -> str:
        """`vec` of a list of floats."""
        key = tuple(w)
        text = self._vec.get(key)
        if text is None:
            parts = [self.num(v) for v in w[:limit]] + (["..."] if len(w) > limit else [])
            text = self._vec[key] = "(" + ", ".join(parts) + ")"
        return text

    def x(self, i: int) -> str:
        """`vec` of example i."""
        text = self._x.get(i)
        if text is None:
            text = self._x[i] = self.vec(np.asarray(self.X[i], dtype=float).ravel().tolist())
        return text

    def lines(self, k, w, b, update, wrong, before) -> list:
        """The lines of `state_lines` at a clamped step k: state ``(w, b)`` (w a list), `update` as `_update`
        gives it, `wrong` its state's count of mistakes, `before` the previous state's (batch steps only)."""
        K, n, num = self.K, self.n, self.num
        if n == 0:
            return ["No points: nothing for the perceptron to look at yet.", f"w = {self.vec(w)}, b = {num(b)}."]
        if k == 0:
            out = [f"Start state (update 0 of {K}): no example looked at yet."]
        else:
            i, epoch, batch, margin_before, margin_after = update
            out = [f"Update {k} of {K} ({self.unit} {epoch})."]
            if i >= 0:
                out.append(f"Example i = {i}: x = {self.x(i)}, y = {sign(self.y[i])}.")
                out.append(f"y(<w,x>+b) before → after: {num(margin_before)} → {num(margin_after)}.")
            else:
                idx = ", ".join(str(int(j)) for j in batch[:12]) + (", ..." if len(batch) > 12 else "")
                out.append(f"A step on the {plural(len(batch), 'mistake')} in {self.where}: i = {idx}.")
                out.append(f"Mistakes in the data before → after: {before} → {wrong} of {n}.")
        out.append(f"w = {self.vec(w)}, b = {num(b)}" + ("." if any(w) else f": {no_boundary(k, b)}."))
        out.append(f"{self.so_far[0]}{k}{self.so_far[1]}")
        out.append(f"{self.now[0]}{wrong}{self.now[1]}")
        if k == K:
            out.append(end_text(self.run))
        return out

    def alt(self, k, w, b, wrong) -> str:
        """The sentence of `alt_text` at a clamped step k: state ``(w, b)`` (w a list) getting `wrong` wrong."""
        if self.n == 0:
            return "An empty plane: no data points yet."
        where = "at the start" if k == 0 else f"after update {k} of {self.K}"
        if any(w):
            line = f"the boundary of w = {self.vec(w)}, b = {self.num(b)}"
        else:
            line = "no boundary yet (w = 0)" if k == 0 else f"no boundary (w = 0, every point gets {sign(b)})"
        return (f"The {self.n} data points, + and − classes, with {line} {where}; "
                f"{plural(wrong, 'point')} crossed as mistakes.")


def no_boundary(k: int, b) -> str:
    """What w = 0 means at step k: before the first update "no boundary yet"; after updates that came back to
    w = 0 (a cycle passes through it) the state is no start, and every point gets the label of sign(b)."""
    if k == 0:
        return "no boundary yet"
    return f"no boundary, every point gets {sign(b)}"


def end_text(run) -> str:
    """How the run ended, in one sentence."""
    test = TESTS.get(run.update_on, "the update test")
    if getattr(run, "margin", 0.0) > 0:  # the margin perceptron's test (lesson 06)
        test = test.replace("0", num(run.margin)) if run.update_on != "sign" else "the update test"
    passes = _passes(run)
    if run.converged:
        if run.pass_name == "round":
            return f"End: converged: in round {passes} no point had {test}."
        if run.method == "online":
            return f"End: converged: in epoch {passes} no point had {test}."
        return f"End: converged after {passes} iterations: no point has {test}."
    if run.cycle is not None:
        c = run.cycle
        return f"End: cycle. {repeating(c)} for ever: {unseparated(getattr(run, 'fit_bias', True))}."
    limit = "max_epochs" if run.method == "online" else "max_iter"
    return f"End: stopped after {plural(passes, _unit(run))} (the {limit} limit), not converged."


def unseparated(fit_bias: bool) -> str:
    """What a cycle proves (a run on separable points ends): of the separators the run can reach, none separates."""
    return "no (w, b) separates these points" if fit_bias else "no w with b = 0 separates these points"


def repeating(cycle) -> str:
    """The epochs of a cycle, as the end of a run says them: the state after epoch ``start`` came back after epoch
    ``start + length``, so epochs ``start + 1`` to ``start + length`` come round again and again."""
    first, last, updates = cycle.start + 1, cycle.start + cycle.length, plural(cycle.mistakes_per_cycle, "update")
    return f"Epoch {first} ({updates}) repeats" if first == last else f"Epochs {first} to {last} ({updates}) repeat"


def readout_html(lines) -> str:
    """The readout: the first line bold (the headline), the others in tabular figures; a polite live region,
    so a screen reader reads the new state after a step."""
    import html as _html

    lines = list(lines)
    head, rest = (lines[0], lines[1:]) if lines else ("", [])
    body = "<br>".join(_html.escape(s) for s in rest)
    return (f'<div aria-live="polite" style="font-size:1.05em;line-height:1.45"><b>{_html.escape(head)}</b><br>'
            f'<span style="font-variant-numeric:tabular-nums">{body}</span></div>')


def text_html(text: str) -> str:
    """Plain text shown line by line (a LiveFigure's readout)."""
    import html

    return ('<div style="white-space:pre-line;font-size:1.05em;line-height:1.45;'
            f'font-variant-numeric:tabular-nums">{html.escape(text)}</div>')
