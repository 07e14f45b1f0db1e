"""Two general panels for the player: `LossPanel` (a curve along the run with a cursor at k) and
`LiftedPanel` (the 3-D view of a run on lifted data). The browser draws them from their ``front`` specs; the
scene protocol by which matplotlib draws a player's still is in `perceptron_lib.player.render`; each scene draws
its own copy of a panel.
"""

from __future__ import annotations

import numpy as np

from ...draw import style as _style
from ...draw import surfaces as _surfaces
from .. import panel_specs as _spec
from . import lifted as _lifted

__all__ = ["LossPanel", "LiftedPanel"]


class LossPanel:
    """A curve of given values along the run (one per state k = 0..K) with a cursor at k.

    `values` is an array of length K + 1, or a callable ``values(run, X, y)`` returning one (use
    a callable so that one panel serves every run it is given). The panel draws the numbers it is
    given; it computes nothing.
    """

    projection = None
    wide = True  # a curve along the run: in a player of three panels, a full-width row of its own

    def __init__(self, values, label="perceptron loss", *, ylabel=None, logy=False, ylim=None):
        self.values = values
        self.label = label
        self.ylabel = ylabel
        self.logy = logy
        self.ylim = ylim  # None: fitted to the run's values
        self.redraw = False

    def _values(self, run, X, y):
        v = self.values(run, X, y) if callable(self.values) else self.values
        return np.asarray(v, dtype=float).ravel()

    def span(self, run, X, y) -> tuple:
        """(lowest, highest) value this panel draws for `run`: what a shared axis must hold."""
        v = self._values(run, X, y)
        v = v[np.isfinite(v)]
        return (float(v.min()), float(v.max())) if len(v) else (0.0, 1.0)

    def share(self, lo, hi) -> None:
        """Show every run on the value axis lo..hi (with matplotlib's margins), so runs compare by eye."""
        pad = 0.05 * (hi - lo) if hi > lo else 0.5
        self.ylim = (lo - pad, hi + pad)
        curve = getattr(self, "curve", None)
        if curve is not None and not self.logy:
            curve.line.axes.set_ylim(*self.ylim)

    def draw(self, ax, run, X, y):
        v = self._values(run, X, y)
        n = len(run.history)
        if len(v) != n:
            raise ValueError(
                f"LossPanel {self.label!r} got {len(v)} values but the run has {n} states (k = 0..{n - 1}); "
                "give one value per state, or a callable values(run, X, y)."
            )
        self.curve = _surfaces.draw_loss_curve(ax, v, ylabel=self.ylabel)
        if self.logy:
            ax.set_yscale("symlog")
        elif self.ylim is not None:
            ax.set_ylim(*self.ylim)
        ax.set_title(self.label)
        return [self.curve.cursor, self.curve.dot]

    def update(self, k):
        return self.curve.set_cursor(k)

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserPlayer` (`panel_specs.FrontPanel`): the curve, the cursor and its dot at each k,
        as `draw` and `update` show them (`surfaces.draw_loss_curve`)."""
        s = style
        v = self._values(run, X, y)
        K = len(run.history) - 1
        if len(v) != K + 1:
            raise ValueError(
                f"LossPanel {self.label!r} got {len(v)} values but the run has {K + 1} states (k = 0..{K}); "
                "give one value per state, or a callable values(run, X, y)."
            )
        k = np.arange(K + 1)
        finite = v[np.isfinite(v)]
        lo, hi = (float(finite.min()), float(finite.max())) if len(finite) else (0.0, 1.0)
        ylim = self.ylim if (self.ylim is not None and not self.logy) else _spec.padded(lo, hi)
        xlim = _spec.padded(0, K) if K > 0 else [-0.1, 1.0]
        ms = float(np.sqrt(s.marker_size))
        curve = _spec.line(k, v, color=_style.CURVE_COLOR, width=s.line_width * 0.8,
                           marker="o" if K + 1 <= 60 else None, marker_size=ms * 0.6, dot=k, dot_size=ms * 1.3,
                           dot_face=_style.CURSOR_FACE_COLOR, dot_edge="#000000", dot_edge_width=s.marker_edge * 1.5)
        return _spec.chart("loss", K=K, title=self.label, xlabel="update k", ylabel=self.ylabel or "", xlim=xlim,
                           ylim=ylim, lines=[curve], cursor=k, cursor_color=_style.CURSOR_COLOR,
                           cursor_width=s.line_width * 0.9, yscale="symlog" if self.logy else "linear",
                           name=f"{self.label} along the run", wide=True)


class LiftedPanel:
    """3-D view for a run on lifted data (x1, x2, x1^2 + x2^2): the lifted points and the current plane.

    X may have the three lifted columns, or two (then z = x1^2 + x2^2). The run's w has length 3.
    """

    name = "lifted"  #: in a player's panel picker
    projection = "3d"
    #: The browser's picture of the box, CSS px: as tall as the box looks at its tallest
    #: (`core.lift_projection.project`), by preset (the lecture's beside a 360 px data panel in a 1280 x 720 screen;
    #: the notebook's under the readout beside a 440 px data panel, the editor whole in a 1440 x 900 JupyterLab's
    #: 779 px: tests/test_editor_fit.py)
    SIZE_PX = {"notebook": 340, "lecture": 340}
    _COLORS = {"plane": _style.PLANE_COLOR, "bowl": "#A0A0A0", "edge": "#808080"}  #: the browser's view's colours
    _PLANE_ALPHA = 0.35

    @staticmethod
    def _aspect():
        from ...core.lift_projection import ASPECT

        return ASPECT

    def __init__(self, *, elev=24, azim=-58, zoom=0.95, title="lifted: z = x₁² + x₂²"):
        self.elev, self.azim, self.zoom, self.title = elev, azim, zoom, title
        self.redraw = False

    def draw(self, ax, run, X, y):
        if run.history.w.shape[1] != 3:
            raise ValueError(f"LiftedPanel needs a run on 3 lifted features; this run has w of length "
                             f"{run.history.w.shape[1]}.")
        s = _style.current()
        self.run = run
        self.Z = np.column_stack([X[:, 0], X[:, 1], X[:, 2] if X.shape[1] >= 3 else _surfaces.lifted_z(X)])
        self.art = _surfaces.draw_lifted(ax, X, y, self.Z[:, 2], w=run.history.w[0], b=run.history.b[0])
        (self.ring,) = ax.plot([], [], [], linestyle="none", marker="o", markerfacecolor="none",
                               markeredgecolor=_style.RING_COLOR, markeredgewidth=s.ring_width,
                               markersize=np.sqrt(s.ring_size) * 0.8, zorder=10)
        ax.view_init(elev=self.elev, azim=self.azim)
        _lifted.style_lifted_axes(ax, title=self.title, zoom=self.zoom, integer=False, style=s)
        self.update(0)
        return [self.art.plane, self.ring]

    def update(self, k):
        st = self.run.history[k]
        moved = self.art.set_plane(st.w, st.b)
        if k > 0 and st.i >= 0:
            p = self.Z[st.i]
            self.ring.set_data_3d([p[0]], [p[1]], [p[2]])
        else:
            self.ring.set_data_3d([], [], [])
        return moved + [self.ring]

    def browser(self) -> dict:
        """The recipe with which an editor's browser computes `front` for a run of its own (``front/lift_panel.js``
        `liftedSpec`: the same box, planes, mesh, sections and sentences, ported from `core.lift_view`)."""
        return {"kind": "lifted", "title": self.title, "view": {"elev": float(self.elev), "azim": float(self.azim)},
                "aspect": [float(v) for v in self._aspect()], "size_px": {k: float(v) for k, v in self.SIZE_PX.items()},
                "colors": dict(self._COLORS), "plane_alpha": self._PLANE_ALPHA}

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserPlayer` (kind ``"lifted"``, drawn by ``front/lifted.js``), computed once.

        ``K`` is the run's last step. The numbers come from `core.lift_view`: ``box`` (the view's box, as `draw`
        fixes it), ``points`` (the lifted points), ``bowl`` (the bowl's wire mesh cut to the box: polylines),
        ``planes`` (for each k = 0..K the polygon where the plane of state k meets the box: 0 or 3..6 vertices, in
        order), ``sections`` (for each k where that plane meets the bowl: polylines, the lifted boundary), and
        ``aspect`` (the box's shape on the screen, `core.lift_projection.ASPECT`); ``size_px`` is the picture's
        height (`SIZE_PX`). ``view`` holds the angles the view starts at (``elev``, ``azim``, degrees: matplotlib's
        meaning); the student turns it in the browser, which projects by `core.lift_projection.project`. ``alt`` is
        one sentence per step (the picture's name, without the view's angles, which the browser adds). The ringed
        example, the labels and the text sizes are the run's (its ``ring``, ``y`` and ``style``).
        """
        from ...core import frames as _frames
        from ...core import lift_view as _lv

        h = run.history
        if h.w.shape[1] != 3:
            raise ValueError(f"LiftedPanel needs a run on 3 lifted features; this run has w of length "
                             f"{h.w.shape[1]}.")
        Z = _lv.lifted_points(X)
        y = np.asarray(y, dtype=float).ravel()
        if len(Z) != len(y):
            raise ValueError(f"X has {len(Z)} rows but y has {len(y)} labels: give one label per point.")
        box = _lv.view_box(Z)
        wrong = _frames.mistakes_at_each_step(run, Z, y)
        planes = [_lv.plane_polygon(h.w[k], h.b[k], box) for k in range(len(h))]
        n = len(Z)
        alt = [self._words(h.w[k], float(h.b[k]), k, n, len(planes[k]) > 0, len(wrong[k])) for k in range(len(h))]
        return {
            "kind": "lifted",
            "K": len(h) - 1,
            "title": self.title,
            "view": {"elev": float(self.elev), "azim": float(self.azim)},
            "aspect": list(self._aspect()),
            "box": box.tolist(),
            "points": Z.tolist(),
            "bowl": [np.round(piece, 6).tolist() for piece in _lv.bowl_mesh(box)],
            "planes": [p.tolist() for p in planes],
            "sections": [[np.round(piece, 6).tolist() for piece in _lv.bowl_section(h.w[k], h.b[k], box)]
                         for k in range(len(h))],
            "alt": alt,
            "size_px": float(self.SIZE_PX["lecture" if style.legend_size > 12 else "notebook"]),
            "colors": dict(self._COLORS),
            "plane_alpha": self._PLANE_ALPHA,
        }

    @staticmethod
    def _words(w, b, k, n, in_view, wrong) -> str:
        """The lifted picture at step k in one sentence (the view's angles left to the browser)."""
        from ...core import kernels as _kernels

        head = f"The {n} lifted points on the bowl z = x₁² + x₂²"
        where = "at the start" if k == 0 else f"after update {k}"
        if not np.any(w):
            return f"{head}; w = 0 {where}: no plane."
        plane = f"{head} and the plane {where}, w = ({', '.join(f'{v:.3g}' for v in w)}), b = {b:.3g}"
        curve = _kernels.circle_from_plane(w, b)
        if curve.kind == "circle":
            c = ", ".join(f"{v:.2f}" for v in curve.center)
            meets = f"it cuts the bowl above the circle of radius {curve.radius:.2f} about ({c})"
        elif curve.kind == "point":
            meets = "it touches the bowl at one point"
        elif curve.kind == "empty":
            meets = f"it misses the bowl: every point gets {'+1' if w[2] > 0 else '−1'}"
        else:
            meets = "it stands upright (w₃ = 0) and cuts the bowl above a line"
        seen = "" if in_view else ", outside the view's box"
        return f"{plane}: {meets}{seen}; mistakes now: {wrong} of {n}."
