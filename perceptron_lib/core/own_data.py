"""The student's own data: what the point editor computes, with no widgets and no drawing.

* `DataSummary` / `summarize`: for a set of points and the run on them, the facts the readout
  states: how many points, whether a line separates them (`margins.is_separable`), R, the margin
  gamma of the best separator, the mistake bound, the mistakes made, and how the run ended.
* `summary_lines`: those facts in words.
* `points_literal` / `parse_points`: the points as a Python literal (``X = [...]`` and
  ``y = [...]``) and back, for "Copy points" and the load box. Parsing uses `ast.literal_eval`
  only: text from a student is never executed.
* `fit_settings`: the settings of a run (rule, start, order, eta) to fit new points the same way.
* `empty_run`: the start state on no points, so that a cleared picture is still a run to show.
* `snap`: a clicked position rounded to the view's resolution, so that literals stay short.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

import numpy as np

from .bounds import mistake_bound, offset_mistake_bound
from .margins import is_separable, radius
from .runs import History, Run

__all__ = ["MAX_POINTS", "DataSummary", "conflict", "summarize", "summary_lines", "points_literal", "parse_points",
           "fit_settings", "empty_run", "snap", "num"]

#: Most points the editor keeps: enough for any picture a student draws, few enough that every edit
#: refits in a few milliseconds.
MAX_POINTS = 500


def num(v: float, digits: int = 3) -> str:
    """A number with `digits` significant digits, whole numbers without a decimal point."""
    v = float(v)
    if not math.isfinite(v):
        return "∞" if v > 0 else str(v)
    if v == int(v) and abs(v) < 1e9:
        return str(int(v))
    return f"{v:.{digits}g}"


@dataclass(frozen=True)
class DataSummary:
    """What the readout says about a set of points and the run on them.

    ``separable`` is None when the question does not arise (no points, or one class only).
    ``gamma``, ``bound`` and ``bound_plain`` are NaN unless separable. ``bound`` is the bound that
    holds for the run: ``(R/gamma)^2`` without offset, ``(b^2+1)(1+R^2)/gamma^2`` with it;
    ``bound_plain`` is ``(R/gamma)^2`` in both cases.
    """

    n: int
    n_pos: int
    n_neg: int
    separable: bool | None
    fit_bias: bool
    R: float
    gamma: float
    bound: float
    bound_plain: float
    mistakes: int
    converged: bool
    epochs: int
    pass_name: str
    cycle: tuple | None  # (start, length, updates per cycle)


def summarize(X, y, run) -> DataSummary:
    """The facts about points (X, y) (as fitted: lifted if the run was) and the run fitted on them."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n = len(y)
    n_pos, n_neg = int(np.sum(y > 0)), int(np.sum(y <= 0))
    fit_bias = bool(run.fit_bias)
    R = radius(X) if n else 0.0
    sep, gamma, bound, plain = None, math.nan, math.nan, math.nan
    if n_pos and n_neg:
        sep = bool(is_separable(X, y, fit_bias=fit_bias))
        if sep:
            mb = offset_mistake_bound(X, y) if fit_bias else mistake_bound(X, y)
            gamma, bound = mb.gamma, mb.bound
            plain = (mb.R / gamma) ** 2
    c = run.cycle
    return DataSummary(n=n, n_pos=n_pos, n_neg=n_neg, separable=sep, fit_bias=fit_bias, R=R, gamma=gamma,
                       bound=bound, bound_plain=plain, mistakes=int(run.mistakes), converged=bool(run.converged),
                       epochs=int(run.epochs), pass_name=run.pass_name,
                       cycle=None if c is None else (int(c.start), int(c.length), int(c.mistakes_per_cycle)))


def plural(n: int, word: str) -> str:
    """`n` and `word`, with an s unless n is 1: "1 update", "3 updates"."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary_lines(s: DataSummary, *, separator: str = "line") -> list:
    """The summary in words, a few short lines. `separator` names what separates ("line", "circle", ...)."""
    count = plural

    if s.n == 0:
        return ["Your data: no points yet. Click or tap the picture to place one."]
    out = [f"Your data: {count(s.n, 'point')} ({s.n_pos} of class +1, {s.n_neg} of class −1)."]
    if s.separable is None:
        other = "−1 (the −1 button, or shift-click)" if s.n_neg == 0 else "+1 (the +1 button, or shift-click)"
        out.append(f"One class only: place a point of class {other} to give the perceptron something to separate.")
        out.append(f"Mistakes made: {s.mistakes}.")
        return out
    through = "" if s.fit_bias else " through the origin"
    if s.separable:
        out.append(f"A {separator}{through} separates them: R = {num(s.R)}, best margin γ = {num(s.gamma)}.")
        if s.fit_bias:
            # b* is the best separator's offset (lesson 04), not the run's b shown above: say so. (R/γ)² alone
            # bounds only a run without an offset, so it is not shown beside this run's bound.
            out.append(f"Bound with offset (b*²+1)(1+R²)/γ² = {num(s.bound)}, b* the offset of the best {separator}.")
        else:
            out.append(f"Bound (R/γ)² = {num(s.bound)}.")
        verdict = "within the bound" if s.mistakes <= s.bound else "ABOVE the bound"
        out.append(f"Mistakes made: {s.mistakes}, {verdict} ({num(s.mistakes / s.bound, 2)} of it).")
        if not s.converged:  # a small margin: the bound allows more mistakes than the epochs gave room for
            out.append(f"The run stopped after {count(s.epochs, s.pass_name)}, before converging: the bound "
                       f"allows up to {num(s.bound)} mistakes, so more {s.pass_name}s would finish it.")
        return out
    out.append(f"No {separator}{through} separates them, so there is no margin and no bound.")
    if s.cycle is not None:
        start, length, per = s.cycle
        out.append(f"The run came back to its state after {s.pass_name} {start} after {s.pass_name} "
                   f"{start + length}: a cycle of {count(per, 'update')}, for ever.")
    elif not s.converged:
        out.append(f"The run stopped after {count(s.epochs, s.pass_name)} without converging "
                   f"({count(s.mistakes, 'mistake')} made).")
    else:
        out.append(f"Mistakes made: {s.mistakes}.")
    return out


def _literal_number(v: float) -> str:
    r = repr(float(v) + 0.0)  # + 0.0: -0.0 is written 0
    return r[:-2] if r.endswith(".0") else r


def points_literal(X, y) -> str:
    """The points as Python that pastes into a code cell: ``X = [[x1, x2], ...]`` and ``y = [...]``.

    Examples
    --------
    >>> print(points_literal([[0.5, 1.0], [-2.25, 0.0]], [1, -1]))
    X = [[0.5, 1], [-2.25, 0]]
    y = [1, -1]
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2) if np.size(X) else np.empty((0, 2))
    rows = ", ".join("[" + ", ".join(_literal_number(v) for v in row) + "]" for row in X)
    labels = ", ".join("1" if v > 0 else "-1" for v in np.asarray(y, dtype=float).ravel())
    return f"X = [{rows}]\ny = [{labels}]"


_ASSIGN = re.compile(r"^\s*([Xy])\s*=\s*(.*)$", re.S)
_WRAPPER = re.compile(r"^\s*(?:np\.|numpy\.)?(?:array|asarray)\((.*)\)\s*$", re.S)


def _value(name: str, text: str):
    m = _WRAPPER.match(text)
    if m:
        text = m.group(1)
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ValueError(f"{name} is not a list of numbers I can read: {text.strip()[:60]!r}. "
                         f"Write it as 'Copy points' does, e.g. {name} = "
                         + ("[[0.5, 1], [-1, 2]]" if name == "X" else "[1, -1]") + ".") from None


def parse_points(text: str, *, max_points: int = MAX_POINTS):
    """Read ``X = [...]`` and ``y = [...]`` (as `points_literal` writes them) back into arrays.

    Accepts the two assignments on separate lines or separated by ``;``, each optionally wrapped in
    ``np.array(...)``. Raises ValueError with a message for a student on anything else.

    Examples
    --------
    >>> X, y = parse_points("X = [[0.5, 1], [-2, 0]]; y = [1, -1]")
    >>> X.tolist(), y.tolist()
    ([[0.5, 1.0], [-2.0, 0.0]], [1.0, -1.0])
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("The box is empty: paste two lines, X = [[x1, x2], ...] and y = [1, -1, ...].")
    if len(text) > 200_000:
        raise ValueError(f"That text is too long ({len(text)} characters); at most {max_points} points fit.")
    found = {}
    for part in re.split(r"[;\n]+(?=\s*[Xy]\s*=)", text.strip()):
        m = _ASSIGN.match(part)
        if not m:
            raise ValueError(f"I expected 'X = ...' or 'y = ...', not {part.strip()[:40]!r}.")
        found[m.group(1)] = _value(m.group(1), m.group(2).strip().rstrip(";"))
    if set(found) != {"X", "y"}:
        missing = " and ".join(sorted({"X", "y"} - set(found)))
        raise ValueError(f"Missing {missing}: the box needs both X = [[x1, x2], ...] and y = [1, -1, ...].")
    try:
        X = np.array(found["X"], dtype=float)
        y = np.array(found["y"], dtype=float)
    except (TypeError, ValueError):
        raise ValueError("X and y must hold numbers only: X a list of [x1, x2] pairs, y a list of 1 and -1.") from None
    if X.size == 0 and y.size == 0:
        raise ValueError("X and y are empty: give at least one point (use Clear to remove every point).")
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must be a list of [x1, x2] pairs; got shape {X.shape}.")
    if y.ndim != 1 or len(y) != len(X):
        raise ValueError(f"y needs one label per point: X has {len(X)} points and y has {y.size} labels.")
    if not (np.isfinite(X).all() and np.isfinite(y).all()):
        raise ValueError("X and y must be finite numbers (no nan or inf).")
    if not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError(f"every label must be 1 or -1; got {sorted(set(y.tolist()) - {1.0, -1.0})[:3]}.")
    if len(X) > max_points:
        raise ValueError(f"{len(X)} points is more than the {max_points} the editor keeps; give fewer.")
    return X, y


def conflict(X, y):
    """The first pair (i, j) of points at one spot with opposite labels, or None."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    seen = {}
    for i, (row, label) in enumerate(zip(map(tuple, X), y, strict=True)):
        j = seen.setdefault(row, i)
        if j != i and y[j] != label:
            return j, i
    return None


def fit_settings(run, *, max_epochs: int = 100) -> dict:
    """Keyword arguments for `fit_perceptron` that fit new points as `run` was fitted (its rule, start,
    order and eta), with at most `max_epochs` passes; a random order is seeded with 0."""
    out = dict(eta=float(run.eta), update_on=run.update_on, fit_bias=bool(run.fit_bias),
               w0=np.array(run.history.w[0]), b0=float(run.history.b[0]), max_epochs=int(max_epochs))
    if run.order in ("cyclic", "random"):
        out["order"] = run.order
        if run.order == "random":
            out["rng"] = 0
    return out


def empty_run(d: int, *, w0=None, b0: float = 0.0, eta: float = 1.0, update_on: str = "nonpositive",
              fit_bias: bool = True) -> Run:
    """The start state on no points: a run of 0 updates (converged: there is nothing to get wrong)."""
    w = np.zeros(d) if w0 is None else np.array(w0, dtype=float)
    e = np.empty(0)
    history = History(w[None, :].copy(), np.array([float(b0)]), np.empty(0, dtype=np.intp),
                      np.empty(0, dtype=np.intp), e.copy(), e.copy(), ())
    return Run(w=w.copy(), b=float(b0), mistakes=0, epochs=0, converged=True, cycle=None, history=history,
               method="online", eta=float(eta), update_on=update_on, order="cyclic", fit_bias=bool(fit_bias),
               n_samples=0)


def snap(p, span: float):
    """Round a clicked point to about 1/400 of the view's span (a nice step: 0.01 for a span of 4)."""
    step = 10.0 ** math.floor(math.log10(max(float(span), 1e-12) / 400))
    decimals = max(0, -int(round(math.log10(step))))
    return np.round(np.asarray(p, dtype=float) / step) * step if decimals == 0 else np.round(p, decimals)
