"""`ClaimsPanel`: the two claims of the margin bound's proof, plotted along a run.

    from perceptron_lib.player.panels.claims import ClaimsPanel
    player = BrowserPlayer(run, X, y, panels=[ClaimsPanel(u)])

Two views (``show``):

* ``"claims"`` (default): ``<u, w_t>`` against the number of mistakes t with its floor
  ``t eta gamma`` (Claim 1: the curve stays on or above it), and ``||w_t||^2`` with its ceiling
  ``t eta^2 R^2`` (Claim 2: the curve stays on or below it). ``"claim1"`` and ``"claim2"`` show
  one of the two.
* ``"chain"``: the whole chain ``t eta gamma <= <u, w_t> <= ||w_t|| <= eta R sqrt(t)`` in one unit
  (a length). The floor line and the ceiling curve meet at ``t = (R / gamma)^2``, a dotted
  vertical line: the run is squeezed between them, so it must stop before they meet.

The curves are drawn up to the current state, over a faint copy of the whole run, with a cursor
at the current t; the title says the mistakes so far against the bound ``(R / gamma)^2``. The
numbers come from `perceptron_lib.core.proof.trace`; this module only draws.
"""

from __future__ import annotations

import matplotlib as mpl
import numpy as np
from matplotlib.lines import Line2D

from ...core import proof as _proof
from ...core.own_data import num as _num
from ...draw import plotting as _plot
from ...draw import style as _style
from .. import panel_specs as _spec

__all__ = ["ClaimsPanel", "plot_claims", "draw_separators", "draw_bound_sweep", "INNER_COLOR", "NORM_COLOR",
           "BOUND_COLOR", "SEPARATOR_STYLES"]

INNER_COLOR = _style.OKABE_ITO["blue"]  #: <u, w_t> and its floor
NORM_COLOR = _style.OKABE_ITO["reddish_purple"]  #: ||w_t||^2 (or ||w_t||) and its ceiling
BOUND_COLOR = _style.OKABE_ITO["black"]  #: the vertical line t = (R / gamma)^2

_SHOWS = ("claims", "claim1", "claim2", "chain")


def _caption(k, bound, sep) -> str:
    """The title at state k. The bound is written as the editor's readout beside the panel writes it
    (`own_data.num`: 3 significant digits, whole numbers bare): one number, one way of writing it."""
    return f"t = {k} mistake{'' if k == 1 else 's'},{sep}bound (R/γ)² = {_num(bound)}"


def _no_line(run) -> str:
    """Why the claims have no separator: none, through the origin for a run without offset (``front/claims.js``)."""
    return "no line separates these points." if run.fit_bias else "no line through the origin separates these points."


class ClaimsPanel:
    """A panel of the players (`perceptron_lib.player.BrowserPlayer`): the proof's quantities against t.

    Parameters
    ----------
    u : array-like, optional
        The separator of the proof (scaled to unit length). Default: the maximum-margin one.
    b : float, optional
        Its offset, for a run with offset (then everything is augmented, see `proof.trace`).
    show : {"claims", "claim1", "claim2", "chain"}
        What to plot (see the module docstring).
    xmax : None, "bound" or float
        Right end of the t axis. None: the run's last t, extended to ``(R / gamma)^2`` when the
        bound is at most twice that (so the bound's line is in view); always the bound for
        ``"chain"``. "bound": up to the bound. A number: up to it.
    title : str, optional
        A fixed title instead of the changing "t = ... mistakes, bound ..." caption.

    After ``draw``, ``panel.trace`` holds the `~perceptron_lib.core.proof.ProofTrace` it plots.
    """

    name = "claims"  #: in a player's panel picker
    projection = None

    def __init__(self, u=None, b=None, *, show="claims", xmax=None, title=None):
        if show not in _SHOWS:
            raise ValueError(f"show must be one of {_SHOWS}; got {show!r}.")
        if not (xmax is None or xmax == "bound" or (isinstance(xmax, (int, float)) and xmax > 0)):
            raise ValueError(f"xmax must be None, 'bound' or a positive number; got {xmax!r}.")
        self.u, self.b, self.show, self.xmax_arg, self.fixed_title = u, b, show, xmax, title
        self.redraw = False

    def _xmax(self, K, bound):
        if isinstance(self.xmax_arg, (int, float)) and self.xmax_arg != "bound":
            return float(self.xmax_arg)
        if self.xmax_arg == "bound" or self.show == "chain" or bound <= 2 * max(K, 1):
            return max(float(K), bound)
        return float(max(K, 1))

    def _no_margin(self, ax, s, why):
        """The panel when the data have no separator (a student's points): it says so, and draws nothing else."""
        self.trace, self.curves, self.K, self.ax = None, [], 0, ax
        ax.set_xticks([])
        ax.set_yticks([])
        ax.text(0.5, 0.5, f"No margin: {why}\nThe two claims need a separator with γ > 0.", transform=ax.transAxes,
                ha="center", va="center", wrap=True, fontsize=s.legend_size, color="#333333")
        ax.title.set_text("Claims 1 and 2: no separator")
        return []

    def draw(self, ax, run, X, y):
        s = _style.current()
        y_ = np.asarray(y)
        if len(y_) == 0 or np.all(y_ > 0) or np.all(y_ <= 0):
            return self._no_margin(ax, s, "no points of one class." if len(y_) else "no points.")
        try:
            tr = self.trace = _proof.trace(run, X, y, u=self.u, b=self.b)
        except ValueError:  # the data are not separable (by a line through 0 for a homogeneous run)
            if self.u is not None:
                raise
            return self._no_margin(ax, s, _no_line(run))
        K, eta, gamma, R = tr.mistakes, tr.eta, tr.gamma, tr.R
        xmax = self.xmax = self._xmax(K, tr.bound)
        grid = np.linspace(0.0, xmax, 400)
        markers = K <= 60
        ms = np.sqrt(s.marker_size) * 0.6
        lw, thin = s.line_width * 0.8, s.line_width * 0.7
        # a run with offset is traced in the augmented space: name its vectors with a tilde
        w_, u_ = (r"\tilde w", r"\tilde u") if tr.form == "offset" else ("w", "u")
        self.curves = []  # (revealed line, cursor dot, values along t)

        def curve(values, colour, marker, label):
            # the whole run, faint (it sets the view), and the part up to the current state on top of it
            ax.plot(tr.t, values, color=colour, linewidth=lw, alpha=0.25, label="_whole run", zorder=2.5)
            line = Line2D(tr.t[:1], values[:1], color=colour, linewidth=lw, marker=marker if markers else None,
                          markersize=ms, label=label, zorder=3)
            ax.add_artist(line)
            dot = Line2D([], [], linestyle="none", marker=marker, markersize=np.sqrt(s.marker_size) * 1.2,
                         markerfacecolor=colour, markeredgecolor=_style.CURSOR_COLOR,
                         markeredgewidth=s.marker_edge * 3, zorder=5)
            ax.add_artist(dot)
            self.curves.append((line, dot, values))

        show = self.show
        if show in ("claims", "claim1", "chain"):
            ax.plot(grid, eta * gamma * grid, color=INNER_COLOR, linewidth=thin, linestyle=(0, (5, 3)),
                    label=r"$t\,\eta\,\gamma$" + ("  (Claim 1: floor)" if show != "chain" else ""), zorder=2)
            curve(tr.inner, INNER_COLOR, "o", rf"$\langle {u_}, {w_}_t\rangle$")
        if show in ("claims", "claim2"):
            curve(tr.sqnorm, NORM_COLOR, "s", rf"$\|{w_}_t\|^2$")
            ax.plot(grid, eta**2 * R**2 * grid, color=NORM_COLOR, linewidth=thin, linestyle=(0, (1.5, 2)),
                    label=r"$t\,\eta^2 R^2$  (Claim 2: ceiling)", zorder=2)
        if show == "chain":
            curve(tr.norm, NORM_COLOR, "s", rf"$\|{w_}_t\|$")
            ax.plot(grid, eta * R * np.sqrt(grid), color=NORM_COLOR, linewidth=thin, linestyle=(0, (1.5, 2)),
                    label=r"$\eta\,R\,\sqrt{t}$", zorder=2)
        if tr.bound <= xmax * (1 + 1e-9):
            ax.axvline(tr.bound, color=BOUND_COLOR, linewidth=thin, linestyle=":", zorder=1,
                       label=r"$t = (R/\gamma)^2$")
        ax.set_xlim(-0.03 * xmax, xmax * 1.03)
        ax.set_xlabel("mistakes t")
        ax.set_ylabel("length of w" if show == "chain" else "value")
        ax.xaxis.get_major_locator().set_params(integer=True)
        # under the axes: on them, the cursor at k = 0 (and the curves later) would run through it; big lecture
        # text beside the data panel joins the picture's one legend (two legends under two panels took their height)
        if s.legend_size > 12 and _plot.shares_row(ax):
            _plot.picture_legend(ax, ax.get_legend_handles_labels()[0], style=s)
        else:
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2 if s.legend_size <= 12 else 1,
                      fontsize=s.legend_size, frameon=False, handlelength=1.6, columnspacing=1.0)
        self.cursor = Line2D([0, 0], [0, 1], transform=ax.get_xaxis_transform(), color=_style.CURSOR_COLOR,
                             linewidth=s.line_width * 0.9, zorder=4)
        ax.add_artist(self.cursor)
        self.caption_sep = " " if s.title_size <= 16 else "\n"
        self.ax = ax
        self.K = K
        if self.fixed_title is not None:
            ax.title.set_text(self.fixed_title)  # not set_title: keeps the style's title size
        self.update(K if self.fixed_title is not None else 0)
        return self.moving

    @property
    def moving(self) -> list:
        if self.trace is None:
            return []
        arts = [self.cursor] + [a for line, dot, _ in self.curves for a in (line, dot)]
        return arts if self.fixed_title is not None else arts + [self.ax.title]

    def caption(self, k) -> str:
        """The title at state k: mistakes so far against the bound."""
        return _caption(k, self.trace.bound, self.caption_sep)

    def update(self, k):
        if self.trace is None:
            return []
        k = int(min(max(int(k), 0), self.K))
        self.cursor.set_xdata([k, k])
        for line, dot, values in self.curves:
            line.set_data(self.trace.t[: k + 1], values[: k + 1])
            dot.set_data([k], [values[k]])
        if self.fixed_title is None:
            self.ax.title.set_text(self.caption(k))  # not set_title: that would re-read rcParams
        return self.moving

    def browser(self) -> dict | None:
        """The recipe with which an editor's browser computes `front` for a run of its own (``front/claims.js``
        `claimsSpec`: the same numbers, from the maximum-margin separator); None for a given u or b (the browser
        finds the maximum-margin one only)."""
        if self.u is not None or self.b is not None:
            return None
        xmax = float(self.xmax_arg) if isinstance(self.xmax_arg, (int, float)) else self.xmax_arg
        return {"kind": "claims", "show": self.show, "xmax": xmax, "title": self.fixed_title,
                "colors": {"inner": INNER_COLOR, "norm": NORM_COLOR, "bound": BOUND_COLOR,
                           "cursor": _style.CURSOR_COLOR},
                "dotted": [float(v) for v in mpl.rcParams["lines.dotted_pattern"]]}

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserPlayer` (`panel_specs.FrontPanel`): what `draw` and `update` show at each step,
        the curves revealed up to t = k over their faint whole run, the floor, the ceiling, the bound's line and
        the cursor, in the same words and colours; the numbers from `proof.trace`."""
        s = style
        K = len(run.history) - 1
        sep = " " if s.title_size <= 16 else "\n"
        y_ = np.asarray(y)
        why = None
        if len(y_) == 0 or np.all(y_ > 0) or np.all(y_ <= 0):
            why = "no points of one class." if len(y_) else "no points."
        else:
            try:
                tr = _proof.trace(run, X, y, u=self.u, b=self.b)
            except ValueError:
                if self.u is not None:
                    raise
                why = _no_line(run)
        if why is not None:
            spec = _spec.chart("claims", K=K, title="Claims 1 and 2: no separator", xlabel="", ylabel="",
                               xlim=[0, 1], ylim=[0, 1], cursor_color=_style.CURSOR_COLOR, cursor_width=0.0,
                               name="Claims 1 and 2: no separator")
            spec["message"] = f"No margin: {why}\nThe two claims need a separator with γ > 0."
            return spec
        T, eta, gamma, R = tr.mistakes, tr.eta, tr.gamma, tr.R
        xmax = self._xmax(T, tr.bound)
        grid = np.linspace(0.0, xmax, 400)  # the kernel's grid
        markers = T <= 60
        ms = float(np.sqrt(s.marker_size))
        lw, thin = s.line_width * 0.8, s.line_width * 0.7
        w_, u_ = ("w\u0303", "u\u0303") if tr.form == "offset" else ("w", "u")
        at = np.minimum(np.arange(K + 1), T)  # the state shown at step k
        lines, legend, lows, highs = [], [], [], []

        def reference(values, colour, dash, label):
            lines.append(_spec.line(grid, values, color=colour, width=thin, linestyle=dash))
            legend.append(_spec.legend_entry(label, color=colour, width=thin, dash_=_spec.dash(dash, thin)))
            lows.append(np.min(values))
            highs.append(np.max(values))

        def curve(values, colour, marker, label):
            lines.append(_spec.line(tr.t, values, color=colour, width=lw, alpha=0.25))
            lines.append(_spec.line(tr.t, values, color=colour, width=lw, marker=marker if markers else None,
                                    marker_size=ms * 0.6, upto=at + 1, dot=at, dot_marker=marker, dot_size=ms * 1.2,
                                    dot_face=colour,
                                    dot_edge=_style.CURSOR_COLOR, dot_edge_width=s.marker_edge * 3))
            legend.append(_spec.legend_entry(label, color=colour, width=lw, marker=marker if markers else None))
            lows.append(np.min(values))
            highs.append(np.max(values))

        show, inner = self.show, f"⟨{u_}, {w_}ₜ⟩"
        if show in ("claims", "claim1", "chain"):
            reference(eta * gamma * grid, INNER_COLOR, (0, (5, 3)),
                      "t\u2009η\u2009γ" + ("  (Claim 1: floor)" if show != "chain" else ""))
            curve(tr.inner, INNER_COLOR, "o", inner)
        if show in ("claims", "claim2"):
            curve(tr.sqnorm, NORM_COLOR, "s", f"‖{w_}ₜ‖²")
            reference(eta**2 * R**2 * grid, NORM_COLOR, (0, (1.5, 2)), "t\u2009η²R²  (Claim 2: ceiling)")
        if show == "chain":
            curve(tr.norm, NORM_COLOR, "s", f"‖{w_}ₜ‖")
            reference(eta * R * np.sqrt(grid), NORM_COLOR, (0, (1.5, 2)), "η\u2009R\u2009√t")
        vlines = []
        if tr.bound <= xmax * (1 + 1e-9):
            vlines.append(_spec.vline(tr.bound, color=BOUND_COLOR, width=thin, linestyle=":"))
            legend.append(_spec.legend_entry("t = (R/γ)²", color=BOUND_COLOR, width=thin,
                                             dash_=_spec.dash(":", thin)))
        titles = None if self.fixed_title is not None else [_caption(int(t), tr.bound, sep) for t in at]
        return _spec.chart("claims", K=K, title=self.fixed_title, titles=titles, xlabel="mistakes t",
                           ylabel="length of w" if show == "chain" else "value", xlim=[-0.03 * xmax, xmax * 1.03],
                           ylim=_spec.padded(min(lows), max(highs)), lines=lines, vlines=vlines, cursor=at,
                           cursor_color=_style.CURSOR_COLOR, cursor_width=s.line_width * 0.9, legend=legend,
                           name="the chain along the run" if show == "chain" else "Claims 1 and 2 along the run")


def plot_claims(ax, run, X, y, *, u=None, b=None, show="claims", xmax=None, k=None, title=None) -> ClaimsPanel:
    """Draw a `ClaimsPanel` on a given axes as a static figure, at state k (default: the end).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from perceptron_lib import fit_perceptron
    >>> from perceptron_lib.draw import style
    >>> X, y = [[1.0, 0.0], [0.0, 1.0]], [1, -1]
    >>> fig, ax = style.subplots()
    >>> panel = plot_claims(ax, fit_perceptron(X, y, fit_bias=False), X, y)
    >>> ax.get_title(), bool(panel.trace.holds)
    ('t = 2 mistakes, bound (R/γ)² = 2', True)
    """
    panel = ClaimsPanel(u, b, show=show, xmax=xmax, title=title)
    panel.draw(ax, run, X, y)
    panel.update(panel.K if k is None else k)
    return panel


#: (colour, line style) of the lines `draw_separators` draws, in turn: none is a class colour, each has 3:1 on white.
SEPARATOR_STYLES = (
    (_style.OKABE_ITO["black"], "-"),
    (_style.OKABE_ITO["reddish_purple"], "--"),
    (_style.OKABE_ITO["bluish_green"], "-."),
    ("#8C8C8C", ":"),
    ("#4D4D4D", (0, (6, 2, 1, 2, 1, 2))),
)


def _gamma_and_bound(u, X, y):
    u = np.asarray(u, dtype=float)
    gamma = float(np.min(y * (X @ u)) / np.linalg.norm(u)) + 0.0  # + 0.0: no "-0.000" in a legend
    R = float(np.sqrt(np.einsum("ij,ij->i", X, X).max()))
    return gamma, ((R / gamma) ** 2 if gamma > 0 else None)


def draw_separators(ax, X, y, separators, *, title=None, lim=None, style=None):
    """Data in the plane with several lines through the origin, each labelled with its margin and bound.

    Parameters
    ----------
    ax : Axes
    X, y : array-like
        2-D points and labels in {-1, +1}.
    separators : dict
        ``{name: u}``: each u (any length) is drawn as the line ``<u, x> = 0``, labelled
        ``"name: γ = ..., bound ..."`` with ``gamma = min_i y_i <u, x_i> / ||u||`` and the bound
        ``(R / gamma)^2``, or "no bound" when gamma <= 0 (u does not separate).
    title : str, optional
    lim : float, optional
        Half-width of the square view about the origin (default: 1.1 R).
    style : None, str or Style

    Returns
    -------
    dict
        ``{name: (gamma, bound or None)}``, the numbers in the legend.
    """
    s = _style.get(style)
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    if len(separators) > len(SEPARATOR_STYLES):
        raise ValueError(f"draw_separators draws at most {len(SEPARATOR_STYLES)} lines; got {len(separators)}.")
    _plot.draw_points(ax, X, y, legend=False, style=s)
    lim = 1.1 * float(np.sqrt(np.einsum("ij,ij->i", X, X).max())) if lim is None else float(lim)
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.set_xlabel("x₁")
    ax.set_ylabel("x₂")
    out = {}
    for (name, u), (colour, dash) in zip(separators.items(), SEPARATOR_STYLES, strict=False):
        gamma, bound = _gamma_and_bound(u, X, y)
        out[name] = (gamma, bound)
        text = "no bound" if bound is None else f"bound {bound:.0f}" if bound >= 100 else f"bound {bound:.1f}"
        _plot.draw_boundary(ax, u, 0.0, style=s, color=colour, linestyle=dash, label=f"{name}: γ = {gamma:.3f}, {text}")
    if title is not None:
        ax.title.set_text(title)
        ax.title.set_fontsize(s.title_size)
    ncol = 2 if s.legend_size <= 12 else 1  # big lecture text: one column, so the legend fits the figure
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=ncol, frameon=False, fontsize=s.legend_size)
    return out


def draw_bound_sweep(ax, bounds, series, *, title="mistakes against the bound", style=None):
    """Mistakes against the bound ``(R / gamma)^2`` on log-log axes, with the diagonal mistakes = bound.

    `bounds` holds one bound per data set; `series` maps a name (e.g. "cyclic order") to the
    mistakes of one kind of run on each data set. Every point on or under the diagonal is a run
    that respected its bound.
    """
    s = _style.get(style)
    bounds = np.asarray(bounds, dtype=float)
    top = 1.2 * max(float(bounds.max()), max(float(np.max(v)) for v in series.values()))
    ax.loglog([1.0, top], [1.0, top], color=BOUND_COLOR, linewidth=s.line_width * 0.8, label="mistakes = (R/γ)²")
    looks = [("o", _style.OKABE_ITO["bluish_green"]), ("^", _style.OKABE_ITO["reddish_purple"]),
             ("s", "#4D4D4D")]  # no orange: it reads as y = +1 and has 2:1 on white
    for (name, mistakes), (marker, colour) in zip(series.items(), looks, strict=False):
        ax.loglog(bounds, np.asarray(mistakes, dtype=float), linestyle="none", marker=marker, color=colour,
                  markersize=np.sqrt(s.marker_size) * (1.1 if marker == "^" else 1.0), markeredgecolor="#FFFFFF",
                  markeredgewidth=s.marker_edge, label=name)
    ax.set_xlabel("bound (R/γ)²")
    ax.set_ylabel("mistakes")
    if title is not None:
        ax.title.set_text(title)
        ax.title.set_fontsize(s.title_size)
    ax.legend(loc="upper left", fontsize=s.legend_size)
