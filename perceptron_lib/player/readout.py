"""The player's words: the state of a perceptron `Run` at step k as plain-text lines.

`state_lines(run, X, y, k)` is the default readout of `perceptron_lib.player.StepThrough`
(a player takes any function of ``(run, X, y, k)`` instead); `alt_text` is the one sentence
that describes the picture (the image's alt text). Pure functions of the run: no widgets, no
matplotlib.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.perceptron import is_mistake, scores

__all__ = ["state_lines", "end_text", "alt_text", "readout_html", "TESTS"]

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


def vec(w, limit=6) -> str:
    w = np.asarray(w, dtype=float).ravel()
    parts = [num(v) for v in w[:limit]]
    if len(w) > limit:
        parts.append("...")
    return "(" + ", ".join(parts) + ")"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


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
    K = len(h) - 1
    k = min(max(int(k), 0), K)
    st = h[k]
    n = len(y)
    if n == 0:
        return ["No points: nothing for the perceptron to look at yet.", f"w = {vec(st.w)}, b = {num(st.b)}."]
    wrong = int(is_mistake(scores(st.w, st.b, X), y, run.update_on).sum())
    test = TESTS.get(run.update_on, "the update test")
    # One word per test: a "mistake" is y(<w,x>+b) <= 0; the strict test counts the "wrong side".
    if run.update_on == "negative":
        now = f"Wrong side now: {wrong} of {n}, the points on the wrong side of the current (w, b) ({test})."
    else:
        now = f"Mistakes now: {wrong} of {n}, the points the current (w, b) gets wrong ({test})."
    out = []
    if k == 0:
        out.append(f"Start state (update 0 of {K}): no example looked at yet.")
    else:
        out.append(f"Update {k} of {K} ({_unit(run)} {st.epoch}).")
        if st.i >= 0:
            out.append(f"Example i = {st.i}: x = {vec(X[st.i])}, y = {sign(y[st.i])}.")
            out.append(f"y(<w,x>+b) before → after: {num(st.margin_before)} → {num(st.margin_after)}.")
        else:
            idx = ", ".join(str(int(i)) for i in st.batch[:12]) + (", ..." if len(st.batch) > 12 else "")
            where = "the data" if run.method == "batch" else "the batch"
            out.append(f"A step on the {plural(len(st.batch), 'mistake')} in {where}: i = {idx}.")
            before = int(is_mistake(scores(h.w[k - 1], h.b[k - 1], X), y, run.update_on).sum())
            out.append(f"Mistakes in the data before → after: {before} → {wrong} of {n}.")
    out.append(f"w = {vec(st.w)}, b = {num(st.b)}" + (f": {no_boundary(k, st.b)}." if not np.any(st.w) else "."))
    # two counts that are easy to confuse: the run's mistakes up to step k, and the current line's
    if run.method == "online" and getattr(run, "margin", 0.0) > 0:  # the margin perceptron: not every update a mistake
        out.append(f"Updates so far: {k} of the run's {K}, one for each y(<w,x>+b) ≤ {num(run.margin)} met.")
    elif run.method == "online":
        out.append(f"Mistakes so far: {k} of the run's {K}, one update each.")
    else:
        out.append(f"Updates so far: {k} of the run's {K}.")
    out.append(now)
    if k == K:
        out.append(end_text(run))
    return out


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
            return f"End: converged. Round {passes} found no example that fails the test {test}."
        if run.method == "online":
            return f"End: converged. Epoch {passes} made no update: no example fails the test {test}."
        return f"End: converged after {passes} iterations: no example fails the test {test}."
    if run.cycle is not None:
        c = run.cycle
        return (f"End: cycle. The state after epoch {c.start} came back after epoch {c.start + c.length} "
                f"({c.mistakes_per_cycle} updates per cycle), so the run would repeat for ever: "
                "no separator of this form exists.")
    limit = "max_epochs" if run.method == "online" else "max_iter"
    return f"End: stopped at {limit} after {passes} {_unit(run)}s, not converged."


def alt_text(run, X, y, k) -> str:
    """One sentence saying what the player's picture shows at step k (the image's alt text)."""
    h = run.history
    K = len(h) - 1
    k = min(max(int(k), 0), K)
    st = h[k]
    wrong = int(is_mistake(scores(st.w, st.b, X), y, run.update_on).sum())
    if len(y) == 0:
        return "An empty plane: no data points yet."
    where = "at the start" if k == 0 else f"after update {k} of {K}"
    if np.any(st.w):
        line = f"the boundary of w = {vec(st.w)}, b = {num(st.b)}"
    else:
        line = "no boundary yet (w = 0)" if k == 0 else f"no boundary (w = 0, every point gets {sign(st.b)})"
    return (f"The {len(y)} data points, + and − classes, with {line} {where}; "
            f"{plural(wrong, 'point')} crossed as mistakes.")


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
