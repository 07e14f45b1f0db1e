"""The library's run as a `BrowserEditor` sends it: the run itself, not its words.

A `BrowserEditor` whose words and panels all have a port in the browser (``front/words.js``, and a ``browser()``
recipe for each panel) sends, first and after each edit, the library's run and the library's summary numbers only
(the first is the one a page with no kernel, the site and the decks embed); the
browser builds the spec it draws from them by the code path that builds the spec of a run it fitted itself
(``front/runspec.js`` `libraryRunSpec`, then `editorRunSpec`). What is drawn is the library's states and numbers,
worded and computed by the browser's tested ports of `readout.state_lines`, `alt_text`, `own_data.summary_lines`
and the panels' ``front``. For a run of 4,103 updates this is 0.41 MB of JSON instead of 4.25 MB.

The trait's arrays (the points, the states, the updates, the margins: `ARRAYS`) go as binary buffers: each is
``{"shape", "dtype", "data"}`` with ``data`` a memoryview of its little-endian bytes (`packed`), which ipywidgets
sends as a buffer of the message, nbclient stores base64 in a notebook's widget state, and anywidget's
``model.get`` gives back as a DataView (``front/runspec.js`` `libraryNumbers` reads them). No float is written as
text or read back, so the numbers are the library's to the bit; ipywidgets need not walk thousands of small lists.
`unpacked` gives the arrays back in Python.
"""

from __future__ import annotations

import math

import numpy as np

from .browser import RUN_VERSION, _style_trait, _view

__all__ = ["ARRAYS", "FORM", "library_trait", "packed", "summary_trait", "unpacked"]

#: The ``form`` of a lean ``run`` trait (a full trait, `browser.run_trait`, has no ``form``).
FORM = "library"
#: The lean trait's arrays sent as buffers, by key, with their dtype (little-endian; ``averaged``'s ``t`` too).
ARRAYS = {"X": "<f8", "y": "<f8", "w": "<f8", "b": "<f8", "i": "<i4", "epoch": "<i4", "margin_before": "<f8",
          "margin_after": "<f8"}
_DTYPES = ("<f8", "<i4")


def packed(a, dtype="<f8") -> dict:
    """An array as the lean trait sends it: ``{"shape": [...], "dtype": dtype, "data": memoryview}``, the memoryview
    over a new C-ordered copy's bytes (ipywidgets sends it as a binary buffer).

    Examples
    --------
    >>> p = packed([[1.0, -0.0], [2.5, 3.0]])
    >>> p["shape"], p["dtype"], p["data"].nbytes
    ([2, 2], '<f8', 32)
    """
    if dtype not in _DTYPES:
        raise ValueError(f"dtype must be one of {_DTYPES}; got {dtype!r}.")
    src = np.asarray(a)
    a = np.array(src, dtype=dtype, order="C") if dtype == "<f8" else np.ascontiguousarray(src.astype(dtype))
    if dtype == "<i4" and not np.array_equal(a, src):
        raise ValueError("an <i4 array must hold integers that fit in 32 bits.")
    return {"shape": list(a.shape), "dtype": dtype, "data": memoryview(a).cast("B")}


def _unpack(v):
    if not (isinstance(v, dict) and {"shape", "dtype", "data"} <= v.keys()):
        return v
    return np.frombuffer(v["data"], dtype=v["dtype"]).reshape(v["shape"])


def unpacked(trait: dict) -> dict:
    """A lean trait with each packed array (`packed`) as a read-only numpy array (a view on its buffer); a trait
    without packed arrays (a full one) comes back as it is.

    Examples
    --------
    >>> unpacked({"K": 0, "w": packed([[0.0, 0.0]])})["w"].tolist()
    [[0.0, 0.0]]
    """
    out = {key: _unpack(v) for key, v in trait.items()}
    if isinstance(out.get("averaged"), dict):
        out["averaged"] = {**out["averaged"], "t": _unpack(out["averaged"]["t"])}
    return out


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
        ``version``, ``form`` ("library"), ``K``, ``X``, ``y`` (+1.0 or -1.0), the history (``w``, ``b``, ``i`` (K
        indices, no -1 for the start), ``epoch``, ``margin_before``, ``margin_after``), these arrays `packed`
        (binary buffers: `ARRAYS`; `unpacked` reads them back), the
        run's ``settings`` (eta, update_on, fit_bias, margin, order, method), ``mistakes``, ``epochs``,
        ``converged``, ``cycle`` (None or start, length, mistakesPerCycle), ``summary`` (`summary_trait`) and
        ``averaged`` (its ``t`` packed as <i4); and the ``view`` and ``style`` as `browser.run_trait` sends them (a
        view mounted later starts from them). The other floats are Python floats: JSON keeps each exactly.
    """
    if run.method != "online":
        raise ValueError(f"library_trait sends online runs (the editor's); got a {run.method!r} run.")
    h, c = run.history, run.cycle
    return {
        "version": RUN_VERSION,
        "form": FORM,
        "K": len(h) - 1,
        "X": packed(X),
        "y": packed(np.where(np.asarray(y, dtype=float) > 0, 1.0, -1.0)),
        **{key: packed(getattr(h, key), ARRAYS[key]) for key in ("w", "b", "i", "epoch", "margin_before",
                                                                  "margin_after")},
        "settings": {"eta": float(run.eta), "update_on": str(run.update_on), "fit_bias": bool(run.fit_bias),
                     "margin": float(run.margin), "order": str(run.order), "method": str(run.method)},
        "mistakes": int(run.mistakes),
        "epochs": int(run.epochs),
        "converged": bool(run.converged),
        "cycle": None if c is None else {"start": int(c.start), "length": int(c.length),
                                         "mistakesPerCycle": int(c.mistakes_per_cycle)},
        "summary": summary_trait(summary),
        "averaged": None if not averaged else {**averaged, "t": packed(averaged["t"], "<i4")},
        "view": _view(run, np.asarray(X, dtype=float)),
        "style": _style_trait(style),
    }
