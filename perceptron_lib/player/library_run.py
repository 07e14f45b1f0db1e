"""The library's run as a `BrowserEditor` sends it: the run itself, not its words.

A `BrowserEditor` whose words and panels all have a port in the browser (``front/words.js``, and a ``browser()``
recipe for each panel) sends, first and after each edit, the library's run and the library's summary numbers only
(the first is the one a page with no kernel, the site and the decks embed); the
browser builds the spec it draws from them by the code path that builds the spec of a run it fitted itself
(``front/runspec.js`` `libraryRunSpec`, then `editorRunSpec`). What is drawn is the library's states and numbers,
worded and computed by the browser's tested ports of `readout.state_lines`, `alt_text`, `own_data.summary_lines`
and the panels' ``front``. For a run of 4,103 updates this is 0.41 MB of JSON instead of 4.25 MB.
"""

from __future__ import annotations

import math

import numpy as np

from .browser import RUN_VERSION, _style_trait, _view

__all__ = ["FORM", "library_trait", "summary_trait"]

#: The ``form`` of a lean ``run`` trait (a full trait, `browser.run_trait`, has no ``form``).
FORM = "library"


def _number(v):
    """A float as JSON: None for NaN (JSON has no NaN; the browser reads null back as NaN)."""
    v = float(v)
    return None if math.isnan(v) else v


def summary_trait(s) -> dict:
    """`own_data.DataSummary` as JSON, in ``front/max_margin.js`` `summarize`'s names."""
    cycle = None if s.cycle is None else {"start": s.cycle[0], "length": s.cycle[1], "mistakesPerCycle": s.cycle[2]}
    return {"n": int(s.n), "nPos": int(s.n_pos), "nNeg": int(s.n_neg), "separable": s.separable,
            "fitBias": bool(s.fit_bias), "R": _number(s.R), "gamma": _number(s.gamma), "bound": _number(s.bound),
            "boundPlain": _number(s.bound_plain), "mistakes": int(s.mistakes), "converged": bool(s.converged),
            "epochs": int(s.epochs), "cycle": cycle}


def library_trait(run, X, y, summary, *, style, averaged=None) -> dict:
    """The lean ``run`` trait of the library's online `run` on (X, y) (X as fitted: lifted if the run was).

    Parameters
    ----------
    run : Run
        The library's run (`fit_perceptron`, or `fit_averaged`'s ``run``).
    X, y : ndarray
    summary : own_data.DataSummary
        `own_data.summarize` of (X, y) and `run`: the readout's numbers, the library's.
    style : Style
        The editor's preset (sent as `browser.run_trait` sends it).
    averaged : dict or None
        ``{"t": [...], "seen": T}`` of an averaged fit (`AveragedRun.t`, ``seen``), for lesson 06's answers.

    Returns
    -------
    dict
        ``version``, ``form`` ("library"), ``K``, ``X``, ``y`` (as `frames.step_numbers` sends them), the history
        (``w``, ``b``, ``i`` (K indices, no -1 for the start), ``epoch``, ``margin_before``, ``margin_after``), the
        run's ``settings`` (eta, update_on, fit_bias, margin, order, method), ``mistakes``, ``epochs``,
        ``converged``, ``cycle`` (None or start, length, mistakesPerCycle), ``summary`` (`summary_trait`) and
        ``averaged``; and the ``view`` and ``style`` as `browser.run_trait` sends them (a view
        mounted later starts from them). Floats are Python floats: JSON keeps each exactly.
    """
    if run.method != "online":
        raise ValueError(f"library_trait sends online runs (the editor's); got a {run.method!r} run.")
    h, c = run.history, run.cycle
    return {
        "version": RUN_VERSION,
        "form": FORM,
        "K": len(h) - 1,
        "X": np.asarray(X, dtype=float).tolist(),
        "y": [1.0 if v > 0 else -1.0 for v in np.asarray(y, dtype=float)],
        "w": np.asarray(h.w, dtype=float).tolist(),
        "b": np.asarray(h.b, dtype=float).tolist(),
        "i": np.asarray(h.i, dtype=int).tolist(),
        "epoch": np.asarray(h.epoch, dtype=int).tolist(),
        "margin_before": np.asarray(h.margin_before, dtype=float).tolist(),
        "margin_after": np.asarray(h.margin_after, dtype=float).tolist(),
        "settings": {"eta": float(run.eta), "update_on": str(run.update_on), "fit_bias": bool(run.fit_bias),
                     "margin": float(run.margin), "order": str(run.order), "method": str(run.method)},
        "mistakes": int(run.mistakes),
        "epochs": int(run.epochs),
        "converged": bool(run.converged),
        "cycle": None if c is None else {"start": int(c.start), "length": int(c.length),
                                         "mistakesPerCycle": int(c.mistakes_per_cycle)},
        "summary": summary_trait(summary),
        "averaged": averaged,
        "view": _view(run, np.asarray(X, dtype=float)),
        "style": _style_trait(style),
    }
