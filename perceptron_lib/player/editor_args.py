"""What a `BrowserEditor` takes, checked, and put as its traits hold it for the browser.

The fit's settings (`fit_perceptron`'s keywords that the browser's fit takes too, ``front/runspec.js``
`fitOptions`), the lift (the one whose formula the browser has), the browser's recipes of the panels and of the
fit (what ``front/runspec.js`` computes for a run of its own), and the points (``[X, y]``, by the edit rules of
`core.edits`). Each check raises with a message naming the argument and what it takes.
"""

from __future__ import annotations

import numbers

import numpy as np
import traitlets

from ..core import edits, kernels
from ..core.own_data import MAX_POINTS
from ..core.training import fit_perceptron

__all__ = ["SETTINGS", "as_points", "as_trait", "check_lift", "fit_recipe", "recipe", "settings_json"]

#: The keyword arguments of `fit_perceptron` that the browser's fit takes too (``front/runspec.js`` `fitOptions`).
SETTINGS = ("eta", "max_epochs", "order", "rng", "w0", "b0", "fit_bias", "update_on", "margin")


def settings_json(base: dict, settings) -> dict:
    """The fit's settings as JSON: `settings` over `base` (both `fit_perceptron` keywords), checked."""
    extra = dict(settings or {})
    unknown = sorted(set(extra) - set(SETTINGS))
    if unknown:
        raise ValueError(f"settings takes fit_perceptron's keywords {', '.join(SETTINGS)}; got {', '.join(unknown)}.")
    out = {**base, **extra}
    if out.get("order") == "random":
        out.setdefault("rng", 0)
        if isinstance(out["rng"], bool) or not isinstance(out["rng"], numbers.Integral):
            raise ValueError(f"rng must be a whole number (the seed the browser's fit takes too); got {out['rng']!r}.")
    d = len(out["w0"]) if out.get("w0") is not None else 2
    fit_perceptron(np.eye(1, d), np.array([1.0]), **out)  # the library's own checks, with their messages
    return {name: (np.asarray(v, dtype=float).tolist() if name == "w0" else v) for name, v in out.items()}


def check_lift(lift):
    """None or `kernels.lift`, the one lift whose formula the browser has too (``front/runspec.js`` `liftPoints`)."""
    if lift is not None and lift is not kernels.lift:
        raise ValueError("lift must be kernels.lift (the lift (x1, x2) -> (x1, x2, x1² + x2²), which the browser "
                         f"computes too) or None; got {lift!r}.")
    return lift


def recipe(panel):
    """What the browser needs to compute `panel` for a run of its own (its ``browser()``), or None (kernel only)."""
    make = getattr(panel, "browser", None)
    got = make() if callable(make) else None
    if got is not None and not (isinstance(got, dict) and "kind" in got):
        raise TypeError(f"{type(panel).__name__}.browser() must return a dict with a 'kind' (a key of "
                        f"front/claims.js BROWSER_PANELS) or None; got {got!r}.")
    return got


def fit_recipe(fit):
    """What the browser needs to make `fit`'s run itself (its ``browser()``: ``front/runspec.js`` `editorFit`), or
    None: the browser fits with the editor's settings (`fit_perceptron`'s run)."""
    got = recipe(fit) if fit is not None else None
    if got is not None and got["kind"] != "averaged":
        raise TypeError(f"fit.browser() must return a recipe of kind 'averaged' (front/runspec.js editorFit) or None; "
                        f"got {got!r}.")
    return got


def as_points(value, max_points=MAX_POINTS):
    """The ``points`` or ``lesson`` trait's [X, y] as arrays, checked by the edit rules; raises TraitError."""
    try:
        X, y = value
        state = edits.start(np.asarray(X, dtype=float).reshape(-1, 2), np.asarray(y, dtype=float).ravel(),
                            max_points=max_points)
    except (TypeError, ValueError) as exc:
        raise traitlets.TraitError(f"points must be [X, y] by the editor's rules: {exc}") from None
    return state.arrays()


def as_trait(X, y) -> list:
    """Points as the ``points`` and ``lesson`` traits hold them: X as pairs of floats, y as +1/-1."""
    return [np.asarray(X, dtype=float).reshape(-1, 2).tolist(), [1 if v > 0 else -1 for v in np.ravel(y)]]
