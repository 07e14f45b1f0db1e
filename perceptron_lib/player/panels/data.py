"""`DataPanel`: the player's main panel, the data in the plane with the state at step k.

A panel of the scene protocol (`perceptron_lib.player.render`): ``draw(ax, run, X, y)`` once per scene, then
``update(k)``: the still a browser player keeps in its saved output. A scene draws a *copy* of the configured
panel, so the attributes set here belong to one scene only. (In the browser, ``front/scene.js`` and ``frame.js``
draw the same picture in SVG from the run's numbers; `view_for` is the view both share.)

Everything drawn stays inside the axes at every k: the view covers the data (and the origin for a
homogeneous run); the arrows are scaled (1, 1/2, 1/5, 1/10, ...) and anchored on the visible
boundary so that their tips stay inside the view; a boundary that misses the view is stated in the
note in the panel's corner ("boundary outside the view").
"""

from __future__ import annotations

import numpy as np

from ...core import kernels as _kernels
from ...core.perceptron import is_mistake, scores
from ...draw import arrows as _arrows
from ...draw import plotting as _plot
from ...draw import style as _style
from ..readout import num as _num
from ..readout import plural as _plural
from ..readout import sign as _sign

__all__ = ["DataPanel"]

#: candidate anchors along the visible boundary, as fractions of its segment
_ALONG = (0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9, 0.02, 0.98)


#: The smallest arrow scale `DataPanel.place` tries on the boundary, as a fraction of the step's own scale.
MIN_ARROW_SCALE = 1 / 50


def _nice_scale(x: float) -> float:
    """The largest 1/m <= x with m in 1, 2, 5, 10, 20, 50, ... (1 for x >= 1)."""
    m, i = 1.0, 0
    while 1.0 / m > x and m < 1e15:
        m *= (2.0, 2.5, 2.0)[i % 3]
        i += 1
    return 1.0 / m


def _fraction(scale: float) -> str:
    return _num(scale) if scale >= 1 else f"1/{_num(round(1 / scale))}"



class DataPanel:
    """The main panel: the data in the plane with the state at step k.

    Shows the points (colour and marker by class), the boundary <w,x> + b = 0, the previous
    boundary (dashed), w as an arrow normal to the boundary with the update eta*y*x drawn tip to
    tail (grey: w before, purple: the update, green: w after), the current example ringed and
    the points that fail the run's mistake test (its `update_on`) crossed.

    Data of 3 features are shown in the plane too: ``mode="augmented"`` when the first column is
    all ones (bias absorbed, w = (b, w1, w2)) and ``mode="lifted"`` when the third column is
    x1^2 + x2^2 (the boundary is then a circle); ``mode=None`` detects these.

    Arrows are drawn at ``arrow_scale`` if given; by default at 1, or at 1/2, 1/5, 1/10, ... when
    w would not fit in 40% of the view (one scale for the three arrows of a step, so the triangle
    w_before + eta*y*x = w_after stays exact); the corner of the panel states it when it is not 1.
    """

    projection = None

    def __init__(self, *, show_mistakes=True, show_previous=True, show_arrows=True, legend=True,
                 arrow_scale=None, mode=None, pad=0.12):
        self.show_mistakes = show_mistakes
        self.show_previous = show_previous
        self.show_arrows = show_arrows
        self.legend = legend
        self.arrow_scale_arg = arrow_scale
        self.mode_arg = mode
        self.mode = mode  # the mode asked for; `draw` sets the one the data have when none was asked
        self.pad = pad
        self.redraw = False

    # -- geometry of the state in the plane
    @staticmethod
    def detect_mode(X) -> str:
        d = X.shape[1]
        if d == 2:
            return "plain"
        if d == 3:
            if np.all(X[:, 0] == 1.0):
                return "augmented"
            if np.allclose(X[:, 2], X[:, 0] ** 2 + X[:, 1] ** 2, rtol=1e-9, atol=1e-9):
                return "lifted"
        raise ValueError(
            f"DataPanel shows 2-D data; got {d} features. 3 features work when the first column is all 1 "
            "(bias absorbed) or the third is x1^2 + x2^2 (lifted); otherwise pass DataPanel(mode=...)."
        )

    def _plane(self, w, b):
        """(w2, b2) of the boundary in the plane of the two shown coordinates (w2 of length 3 when lifted)."""
        if self.mode == "augmented":
            return w[1:3], float(w[0] + b)
        return w, float(b)

    def view_for(self, run, P):
        """(xlim, ylim) that show the points P (the shown coordinates) with padding, and the origin for a homogeneous
        run: the view this panel fits to a run (`BrowserPlayer` takes the same)."""
        if len(P) == 0:
            lo, hi = np.full(2, -1.0), np.full(2, 1.0)
        else:
            lo, hi = P.min(axis=0), P.max(axis=0)
        if not run.fit_bias and self.mode == "plain" and run.history.b[0] == 0:
            # the origin, with room around it: every w arrow starts there (the boundary's point nearest it), and
            # in a corner of the view it would leave the arrows no room (lesson 03's six points: arrows ×1/10)
            lo, hi = np.minimum(lo, 0), np.maximum(hi, 0)
            room = 0.3 * float(np.max(hi - lo))
            lo, hi = np.minimum(lo, -room), np.maximum(hi, room)
        span = np.where(hi > lo, hi - lo, 1.0)
        span = np.maximum(span, 0.25 * span.max())
        mid = (lo + hi) / 2
        half = span * (0.5 + self.pad)
        return (mid[0] - half[0], mid[0] + half[0]), (mid[1] - half[1], mid[1] + half[1])

    def _bind(self, run, X, y):
        self.run, self.X, self.y = run, X, y
        self.P = X[:, 1:3] if self.mode == "augmented" else X[:, :2]

    def draw(self, ax, run, X, y):
        self.mode = self.mode_arg or self.detect_mode(X)
        self._bind(run, X, y)
        P = self.P
        s = _style.current()
        self.caption_sep = " " if s.title_size <= 16 else "\n"  # big lecture titles: two short lines
        h = run.history
        xlim, ylim = self.view_for(run, P)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("x₁")
        ax.set_ylabel("x₂")
        for v, line in ((0, ax.axhline), (0, ax.axvline)):
            line(v, color="#BBBBBB", linewidth=s.thin_width * 0.7, zorder=1)
        pts = self.points = _plot.draw_points(ax, P, y, legend=False)
        arrows = self.show_arrows and self.mode != "lifted"
        self.room = 0.4 * float(min(xlim[1] - xlim[0], ylim[1] - ylim[0]))  # longest arrow, in data units
        w0, b0 = self._plane(h.w[0], h.b[0])
        self.prev_line = _plot.draw_boundary(ax, w0, b0, color=_style.PREV_BOUNDARY_COLOR,
                                             linewidth=s.thin_width, linestyle=(0, (4, 3)), zorder=2.5)
        self.boundary = _plot.draw_boundary(ax, w0, b0)
        self.ghost = _arrows.draw_arrow(ax, (0, 0), (0, 0), color=_style.PREV_BOUNDARY_COLOR, width=s.thin_width,
                                      zorder=4)
        self.w_arrow = _arrows.draw_w_arrow(ax, np.zeros(2), 0.0)
        self.update_arrow = _arrows.draw_update_arrow(ax, (0, 0), (0, 0))
        self.mistakes = _plot.mark_mistakes(ax, P, np.zeros(len(P), bool))
        self.ring = _plot.ring_point(ax, None)
        # The notes (arrow scale, why no boundary is drawn) sit just above the axes' top right corner, under
        # the caption, where no point or line can run through them; the caption is lifted by the notes' lines.
        # Big lecture text puts each note on its own line: "arrows ×1/5; w = 0: no boundary yet" on one line
        # is wider than a panel of two and runs out of the picture (there are at most two notes at once).
        self.note_sep = "; " if s.legend_size <= 12 else "\n"
        note_lines = 1 if self.note_sep == "; " else 2
        self.scale_text = ax.annotate("", xy=(1.0, 1.0), xycoords="axes fraction", xytext=(0, 0.25 * s.legend_size),
                                      textcoords="offset points", ha="right", va="bottom", fontsize=s.legend_size,
                                      color="#333333", zorder=8, annotation_clip=False)
        ax.set_title(" ", pad=(1.6 + 1.2 * (note_lines - 1)) * s.legend_size + 6)
        # The scale note moves with the run like the caption: blitted, so a change of scale (frequent
        # when the static animation jumps between sampled steps) costs a text draw, not a full redraw.
        self.moving = [pts.pos, pts.neg, self.prev_line, self.boundary, self.ghost.patch, self.w_arrow.patch,
                       self.update_arrow.patch, self.mistakes, self.ring, ax.title,
                       self.scale_text]
        if not arrows:
            for a in (self.ghost, self.w_arrow, self.update_arrow):
                a.hide()
        self.arrows = arrows
        self.ax = ax
        if self.legend:
            self._legend(ax, pts, s, "wrong side" if run.update_on == "negative" else "mistake")
        self.update(0)
        return self.moving

    def _legend(self, ax, pts, s, crossed):
        from matplotlib.lines import Line2D

        handles = [pts.pos, pts.neg,
                   Line2D([], [], color=_style.BOUNDARY_COLOR, linewidth=s.line_width, label="boundary"),
                   Line2D([], [], color=_style.PREV_BOUNDARY_COLOR, linewidth=s.thin_width, linestyle=(0, (4, 3)),
                          label="boundary before")]
        if self.arrows:
            handles += [
                Line2D([], [], color=_style.W_COLOR, linewidth=s.arrow_width, marker=">", markersize=s.arrow_head * 0.5,
                       label="w"),
                Line2D([], [], color=_style.PREV_BOUNDARY_COLOR, linewidth=s.thin_width, marker=">",
                       markersize=s.arrow_head * 0.4, label="w before"),
                Line2D([], [], color=_style.UPDATE_COLOR, linewidth=s.arrow_width, marker=">",
                       markersize=s.arrow_head * 0.5, label="η·y·x"),
            ]
        handles += [
            Line2D([], [], linestyle="none", marker="o", markerfacecolor="none", markeredgecolor=_style.RING_COLOR,
                   markeredgewidth=s.ring_width, markersize=np.sqrt(s.ring_size) * 0.6, label="current"),
        ]
        if self.show_mistakes:
            handles.append(Line2D([], [], linestyle="none", marker="x", color=_style.MISTAKE_COLOR,
                                  markeredgewidth=s.mistake_width, markersize=np.sqrt(s.mistake_size),
                                  label=crossed))  # the run's own test: "mistake" (<= 0) or "wrong side" (< 0)
        self._place_legend(ax, handles, s)

    def add_to_legend(self, *handles) -> None:
        """Add a picture's own entries (a handle with its label) to the panel's legend, in the same place."""
        leg = getattr(self, "legend_artist", None)
        if leg is None:
            return
        if leg not in self.ax.figure.legends:  # the picture's one legend replaces this panel's entries itself
            leg.remove()
        self._place_legend(self.ax, self.legend_handles + list(handles), _style.current())

    def _place_legend(self, ax, handles, s):
        """Under the panel; in the lecture preset beside another panel, in the picture's one legend under it all
        (`plotting.shares_row`: three columns of big lecture text are wider than half a picture)."""
        self.legend_handles = list(handles)
        if s.legend_size > 12 and _plot.shares_row(ax):
            self.legend_artist = _plot.picture_legend(ax, handles, style=s)
            return
        # as few rows as the columns allow, filled evenly (nine entries: three rows of three, not 4 + 4 + 1)
        most = 4 if s.legend_size <= 12 else 3  # big lecture text: fewer, taller columns so it fits one panel
        rows = -(-len(handles) // most)
        # under the tick labels and the x label, whatever the axes' height: an offset in points, not in axes
        from matplotlib.transforms import ScaledTranslation

        below = ScaledTranslation(0, -(1.25 * (s.tick_size + s.label_size) + 10) / 72, ax.figure.dpi_scale_trans)
        self.legend_artist = ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0),
                                       bbox_transform=ax.transAxes + below, ncol=-(-len(handles) // rows),
                                       fontsize=s.legend_size, frameon=False, handlelength=1.6, columnspacing=1.0,
                                       handletextpad=0.5)

    def _scale(self, w2, wp):
        """Arrow scale for this step: `arrow_scale` if given, else 1 or 1/m (m = 2, 5, 10, 20, ...) so w fits."""
        if self.arrow_scale_arg is not None:
            return float(self.arrow_scale_arg)
        longest = max(float(np.linalg.norm(w2)), 0.0 if wp is None else float(np.linalg.norm(wp)))
        return _nice_scale(self.room / longest) if longest > self.room else 1.0

    def _inside(self, p, margin=0.0) -> bool:
        (x0, x1), (y0, y1) = self.ax.get_xlim(), self.ax.get_ylim()
        mx, my = margin * (x1 - x0), margin * (y1 - y0)
        return bool(x0 + mx <= p[0] <= x1 - mx and y0 + my <= p[1] <= y1 - my)

    def anchors(self, w2, b2):
        """Where the w arrow may start, best first: the boundary's point nearest the origin, then points
        along the boundary's visible part; if the boundary misses the view, the origin (or the view's centre)."""
        a = _arrows.w_arrow_anchor(w2, b2)
        seg = _plot.boundary_segment(w2, b2, self.ax.get_xlim(), self.ax.get_ylim())
        if seg is None:
            xl, yl = self.ax.get_xlim(), self.ax.get_ylim()
            return [np.zeros(2) if self._inside((0.0, 0.0)) else np.array([np.mean(xl), np.mean(yl)])]
        out = [a] if self._inside(a) else []
        return out + [seg[0] + t * (seg[1] - seg[0]) for t in _ALONG]

    def place(self, w2, b2, wp):
        """(anchor, scale) of the step's arrows with every tip inside the view.

        Tries the scale from `_scale` at each anchor, then smaller nice scales down to `MIN_ARROW_SCALE` of
        it (a fixed `arrow_scale` is only made smaller when the arrows would otherwise leave the view). Where
        no anchor on the boundary keeps them in view at that scale (a boundary that only cuts a corner of the
        view, with w pointing out of it), the arrows start from the point of the view that gives them the
        largest scale: the view's centre or a corner of it, 1% in from the edges.
        """
        tips = [w2] + ([] if wp is None else [wp])
        anchors = self.anchors(w2, b2)
        sc = start = self._scale(w2, wp)
        while sc >= MIN_ARROW_SCALE * start:
            for a in anchors:
                if all(self._inside(a + sc * t, margin=0.01) for t in tips):
                    return a, sc
            sc = _nice_scale(sc * 0.99)
        return self._free_anchor(tips, start)

    def _free_anchor(self, tips, start):
        """(anchor, scale): of the view's centre and the corners of its box 1% in from the edges, the anchor
        where the tips fit at the largest nice scale (at most `start`); the first such anchor on a tie."""
        (x0, x1), (y0, y1) = self.ax.get_xlim(), self.ax.get_ylim()
        mx, my = 0.01 * (x1 - x0), 0.01 * (y1 - y0)
        lo, hi = np.array([x0 + mx, y0 + my]), np.array([x1 - mx, y1 - my])
        candidates = [(lo + hi) / 2, lo, np.array([hi[0], lo[1]]), np.array([lo[0], hi[1]]), hi]
        best = None
        for a in candidates:
            room = start
            for t in tips:
                for j in range(2):  # the largest s with lo <= a + s t <= hi on axis j
                    if t[j] > 0:
                        room = min(room, (hi[j] - a[j]) / t[j])
                    elif t[j] < 0:
                        room = min(room, (lo[j] - a[j]) / t[j])
            sc = _nice_scale(room) if room < start else start
            if best is None or sc > best[1]:
                best = (a, sc)
        return best

    def _no_circle(self, w2, b2) -> bool:
        """True when a lifted state's circle has no real point (w1 x + w2 y + w3 (x² + y²) + b never 0)."""
        if self.mode != "lifted" or w2[2] == 0:
            return False
        try:
            return _kernels.circle_from_plane(w2, b2).kind == "empty"
        except ValueError:  # w3 so small that the curve is a line to machine precision
            return False

    def update(self, k):
        run, h = self.run, self.run.history
        st = h[k]
        w2, b2 = self._plane(st.w, st.b)
        _plot.update_boundary(self.boundary, w2, b2, self.ax)
        if k > 0 and self.show_previous:
            wp, bp = self._plane(h.w[k - 1], h.b[k - 1])
            _plot.update_boundary(self.prev_line, wp, bp, self.ax)
        else:
            self.prev_line.set_data([], [])
        self.arrow_scale = 1.0
        if self.arrows:
            wp = self._plane(h.w[k - 1], h.b[k - 1])[0] if k > 0 else None
            a, sc = self.place(w2, b2, wp)
            self.arrow_scale = sc
            _arrows.update_w_arrow(self.w_arrow, w2, b2, scale=sc, anchor=a)
            if k > 0:
                self.ghost.set(a, a + sc * wp)
                _arrows.update_arrow(self.update_arrow, a + sc * wp, sc * (w2 - wp))
            else:
                self.ghost.hide()
                self.update_arrow.hide()
        idx = [] if k == 0 else ([st.i] if st.i >= 0 else list(st.batch))
        _plot.update_ring(self.ring, self.P[idx])
        if self.show_mistakes:
            mask = is_mistake(scores(st.w, st.b, self.X), self.y, run.update_on)
            _plot.update_mistakes(self.mistakes, self.P, mask)
        else:
            self.mistakes.set_data([], [])
        K = len(h) - 1
        sep = self.caption_sep
        if k == 0:
            cap = f"start (k = 0 of {K})"
        elif st.i >= 0:
            cap = f"update {k} of {K}:{sep}example {st.i}, y = {_sign(self.y[st.i])}"
        else:
            cap = f"update {k} of {K}:{sep}{_plural(len(st.batch), 'example')}"
        self.ax.title.set_text(cap)  # not set_title: that would re-read rcParams outside the player's style
        notes = [] if self.arrow_scale == 1 else [f"arrows ×{_fraction(self.arrow_scale)}"]
        if not np.any(w2[:2]) and not (self.mode == "lifted" and np.any(w2)):
            notes.append("w = 0: no boundary" + (" yet" if k == 0 else ""))  # the legend lists a boundary: say why
        seg = self.boundary.get_xydata()
        if self._no_circle(w2, b2):  # the plane misses the bowl: no point of the plane is on the boundary
            notes.append(f"no circle: every point gets {'+1' if w2[2] > 0 else '−1'}")
        elif np.any(w2[:2]) and len(seg) == 0:
            notes.append("boundary outside the view")
        elif len(seg) and not all(self._inside(q, margin=-1e-6) for q in seg):
            notes.append("boundary partly outside the view")  # a lifted circle; the axes clip it
        self.scale_text.set_text(self.note_sep.join(notes))
        return self.moving
