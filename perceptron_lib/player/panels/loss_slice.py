"""The loss over (w1, w2) at one b: `LossSlice` (contours, kink lines, zero-loss set, a point and a
path) and `ContourPathPanel`, the player panel of a run's path on those contours.
"""

from __future__ import annotations

import copy

import numpy as np
from matplotlib.lines import Line2D

from ..._validation import check_X_y
from ...core import contours as _contours
from ...core import loss_surfaces as _loss_surfaces
from ...draw import style as _style
from ..readout import num as _num
from .kink_labels import kink_marks

__all__ = ["LossSlice", "ContourPathPanel", "LOSS_NAMES"]

LOSS_NAMES = {"zero_one": "0-1 loss", "perceptron": "perceptron loss", "hinge": "hinge loss"}
_NAMES = LOSS_NAMES

#: What the numbers on the map are (they are example indices i, as in the readout's "i = 3", not steps k): the
#: note under a `ContourPathPanel`'s axes, in the kernel's still and in the browser alike (two short lines, which
#: fit under the map of either preset; the browser may break them again, never inside the formula: its spaces do
#: not break).
KINK_NOTE = ("dashed line labelled i: kink line", "of example i, ⟨w,\u00a0xᵢ⟩\u00a0+\u00a0b\u00a0=\u00a00")

# --------------------------------------------------------------------------- loss over (w1, w2)


class LossSlice:
    """Contours of a data loss over (w1, w2) at one value of b, with each example's kink line.

    The slice is the plane ``{(w1, w2, b) : b fixed}`` of parameter space. Example i has its
    kink on the line ``<w, x_i> + b = 0`` (`loss_surfaces.kink_lines`), drawn dashed and labelled i; the
    set where the loss is 0 is hatched. `set_b` shows the slice at another b (the levels stay
    fixed, so colours compare); `set_point` and `set_path` move the marked point and path.

    Everything that depends on b (contours, hatching, kink lines and labels) forms one *layer*.
    Layers are built on first use and kept: going back to a b seen before only switches which
    layer is visible. `layer_artists(b)` gives a layer's artists, so a player can blit them.

    Parameters
    ----------
    ax : Axes
    X, y : the data (2 features)
    b : float
        The slice shown first.
    loss : {"perceptron", "zero_one", "hinge"}
    reduction : {"mean", "sum"}
    center, span : the box ``center +- span`` in (w1, w2); span a number or a pair
    num : grid points per axis
    levels : sequence, optional
        Filled levels (default: about 10 steps up to the loss's maximum over the box at the first b).
    kinks, kink_labels : bool
        Draw the kink lines, and label them with the example's index.
    avoid : array (m, 2), optional
        Points (w1, w2) the labels keep clear of (the states of a run drawn on the slice).
    colorbar : bool
    """

    def __init__(self, ax, X, y, *, b=0.0, loss="perceptron", reduction="mean", center=(0.0, 0.0), span=3.0,
                 num=121, levels=None, kinks=True, kink_labels=True, colorbar=True, style=None, avoid=()):
        self.s = s = _style.get(style)
        self.X, self.y = check_X_y(X, y)
        if self.X.shape[1] != 2:
            raise ValueError(f"LossSlice draws a loss over (w1, w2): X needs 2 features; got {self.X.shape[1]}.")
        self.ax, self.loss, self.reduction = ax, loss, reduction
        c = np.asarray(center, float)
        sp = np.broadcast_to(np.asarray(span, float), (2,))
        self.a = np.linspace(c[0] - sp[0], c[0] + sp[0], num)
        self.c = np.linspace(c[1] - sp[1], c[1] + sp[1], num)
        self.A, self.B = np.meshgrid(self.a, self.c)
        self.b = float(b)
        Z = self.values(self.b)
        self.levels = self._levels(Z) if levels is None else np.asarray(levels, float)
        self.kinks, self.kink_labels = kinks, kink_labels
        self.avoid = np.array(avoid, float).reshape(-1, 2)
        ax.set_xlim(self.a[0], self.a[-1])
        ax.set_ylim(self.c[0], self.c[-1])
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("w₁")
        ax.set_ylabel("w₂")
        self._layers = {}
        self._layer(self.b, Z)
        self.path = Line2D([], [], color="#FFFFFF", linewidth=s.line_width * 0.8, marker="o",
                           markersize=np.sqrt(s.marker_size) * 0.5, markeredgecolor="#000000", zorder=4)
        self.point = Line2D([], [], linestyle="none", marker="*", markersize=np.sqrt(s.marker_size) * 2.2,
                            markerfacecolor=_style.CURSOR_FACE_COLOR, markeredgecolor="#000000",
                            markeredgewidth=s.marker_edge * 1.5, zorder=5)
        ax.add_artist(self.path)
        ax.add_artist(self.point)
        self.colorbar = None
        if colorbar:
            self.colorbar = ax.figure.colorbar(self._layers[self.b]["sets"][0], ax=ax, shrink=0.85)
            self.colorbar.ax.tick_params(labelsize=s.tick_size)
            lv = self.levels
            ticks = (lv[:-1] + lv[1:]) / 2 if loss == "zero_one" else np.concatenate([[0.0], lv[3::2]])
            self.colorbar.set_ticks(ticks, labels=[_num(round(t, 3)) for t in ticks])
            self.colorbar.set_label(_NAMES.get(loss, loss), fontsize=s.label_size * 0.9)

    # -- values
    def values(self, b) -> np.ndarray:
        """The loss on the grid at offset b, shape (num, num)."""
        params = np.stack([self.A, self.B, np.full_like(self.A, float(b))], axis=-1)
        return _loss_surfaces.loss_surface(self.X, self.y, params, loss=self.loss, reduction=self.reduction)

    def _levels(self, Z):
        return _contours.loss_levels(Z, n=len(self.X), loss=self.loss, reduction=self.reduction)

    # -- layers
    def _layer(self, b, Z=None) -> dict:
        """The artists of the slice at b, built on first use."""
        if b in self._layers:
            return self._layers[b]
        import matplotlib as mpl

        ax, s = self.ax, self.s
        Z = self.values(b) if Z is None else Z
        extend = "neither" if self.loss == "zero_one" else "max"
        sets = [ax.contourf(self.A, self.B, Z, levels=self.levels, cmap=_style.CMAP, extend=extend, zorder=0.5),
                ax.contour(self.A, self.B, Z, levels=self.levels, colors="#FFFFFF", linewidths=s.thin_width * 0.4,
                           alpha=0.5, zorder=0.6)]
        if self.loss != "zero_one" and np.any(Z <= 0):
            with mpl.rc_context({"hatch.color": "#FFFFFF", "hatch.linewidth": s.thin_width * 0.6}):
                sets.append(ax.contourf(self.A, self.B, Z, levels=[-1.0, 1e-12], colors="none", hatches=["///"],
                                        zorder=0.7))
        lines, texts, index = [], [], []
        xl, yl = (self.a[0], self.a[-1]), (self.c[0], self.c[-1])
        # each label on the part of its line inside a box shrunk by the label's size, so the label's disc stays
        # inside the axes (big lecture text on a small panel ran out)
        for i, seg, at in (kink_marks(self.X, b, xl, yl, frac=self._label_radius(), avoid=self.avoid)
                             if self.kinks else []):
            ln = Line2D(seg[:, 0], seg[:, 1], color="#FFFFFF", linestyle=(0, (5, 3)), linewidth=s.thin_width,
                        zorder=3)
            ax.add_artist(ln)
            lines.append(ln)
            index.append(i)
            if self.kink_labels:
                texts.append(ax.text(at[0], at[1], str(i), fontsize=s.legend_size * 0.9, color="#000000", zorder=7,
                                     ha="center", va="center",
                                     bbox=dict(boxstyle="circle,pad=0.15", facecolor="#FFFFFF", edgecolor="none",
                                               alpha=0.85)))
        layer = self._layers[b] = {"sets": sets, "lines": lines, "texts": texts, "index": index}
        return layer

    def _label_radius(self) -> float:
        """A kink label's radius as a share of the axes' side, plus a little. The radius is a share of the
        axes' width in inches (the figure's slot before layout, which the colorbar and tick labels then
        shrink by up to a half: hence the factor)."""
        pos = self.ax.get_position()
        side_in = max(min(pos.width * self.ax.figure.get_figwidth(), pos.height * self.ax.figure.get_figheight()),
                      1e-6)  # the drawn square of an equal-aspect axes
        radius_in = 0.9 * self.s.legend_size * 0.85 / 72  # the digit's circle, with its pad, in inches
        return min(0.3, 2.2 * radius_in / side_in)

    def layer_artists(self, b=None) -> list:
        """The artists of the layer at b (default: the one shown)."""
        lay = self._layer(self.b if b is None else float(b))
        return lay["sets"] + lay["lines"] + lay["texts"]

    def kink_segments(self) -> dict:
        """The kink lines drawn at the current b: {example index: (2, 2) array of the segment's ends}."""
        lay = self._layer(self.b)
        return {i: ln.get_xydata() for i, ln in zip(lay["index"], lay["lines"], strict=True)}

    # -- moving parts
    def set_b(self, b) -> bool:
        """Show the slice at another b; True if the picture changed."""
        b = float(b)
        if b == self.b:
            return False
        for a in self.layer_artists():
            a.set_visible(False)
        self.b = b
        for a in self.layer_artists(b):
            a.set_visible(True)
        return True

    def set_point(self, w1, w2) -> list:
        self.point.set_data([float(w1)], [float(w2)])
        return [self.point]

    def set_path(self, W) -> list:
        W = np.asarray(W, float).reshape(-1, 2)
        self.path.set_data(W[:, 0], W[:, 1])
        return [self.path]


# --------------------------------------------------------------------------- player panel


class ContourPathPanel:
    """A player panel: the run's path (w1, w2) on the contours of the loss over (w1, w2).

    Parameters
    ----------
    b : "current" or float
        "current": the contours are the slice at the current b_k (the path is then the shadow of
        the run in that plane). A number: one fixed slice. For a run without offset
        (``fit_bias=False``) the slice is its fixed b either way.
    loss, reduction : as in `loss_surfaces.loss_surface`
    span : float, optional
        Half-width of the box; default: the whole path and the origin, padded.
    center : (float, float), optional
        Centre of the box; default: the middle of the path and the origin (`shared` sets both for runs compared).
    max_layers : int
        With b = "current", the slices of up to this many distinct b values are built once and
        blitted (a step then costs a few ms more than a plain player's); past it, a step that
        changes b asks the player for a full redraw.
    """

    name = "path over (w₁, w₂)"  #: in a player's panel picker
    projection = None
    SIZE_PX = {"notebook": 170, "lecture": 240}  #: the plot side in the browser, CSS px

    def __init__(self, *, b="current", loss="perceptron", reduction="mean", span=None, num=61, kinks=True,
                 max_layers=12, center=None):
        if not (b == "current" or isinstance(b, (int, float, np.floating, np.integer))):
            raise ValueError(f"b must be 'current' or a number; got {b!r}.")
        self.b_mode, self.loss, self.reduction = b, loss, reduction
        self.span, self.num, self.kinks, self.max_layers = span, num, kinks, max_layers
        self.center = None if center is None else np.array(center, float).reshape(2)
        self.redraw = False

    def draw(self, ax, run, X, y):
        W = np.asarray(run.history.w, float)
        if W.shape[1] != 2:
            raise ValueError(f"ContourPathPanel draws (w1, w2): the run needs 2 features; it has {W.shape[1]}.")
        self.run, self.W, self.Bs = run, W, np.asarray(run.history.b, float)
        self.follow = self.b_mode == "current" and bool(run.fit_bias)
        b0 = float(self.Bs[0]) if self.b_mode == "current" else float(self.b_mode)
        center, span = self._box(W)
        self.ax = ax
        self.slice = LossSlice(ax, X, y, b=b0, loss=self.loss, reduction=self.reduction, center=center, span=span,
                               num=self.num, kinks=self.kinks, colorbar=True, avoid=W)
        ax.grid(False)  # the contours are drawn over it when they are blitted
        moving = [self.slice.path, self.slice.point]
        bs = sorted(set(self.Bs.tolist())) if self.follow else [b0]
        self.blit_layers = self.follow and len(bs) <= self.max_layers
        if self.blit_layers:
            for bv in bs:
                arts = self.slice.layer_artists(bv)
                for a in arts:
                    a.set_visible(bv == b0)
                moving += arts
            moving.append(ax.title)
        self._title()
        if self.kinks:  # under the axis name w₁, as the browser's panel writes it
            ax.annotate("\n".join(KINK_NOTE), xy=(0.5, 0.0), xycoords=ax.xaxis.label, xytext=(0, -3),
                        textcoords="offset points", ha="center", va="top", fontsize=self.slice.s.legend_size,
                        color="#000000")
        self.moving = moving
        self.update(0)
        return moving

    def _box(self, W):
        """The view's centre and half-width: the whole path and the origin, padded (or the given span)."""
        lo, hi = np.minimum(W.min(axis=0), 0.0), np.maximum(W.max(axis=0), 0.0)
        span = float(self.span) if self.span is not None else float(max(hi - lo) / 2 * 1.2 + 1.0)
        return ((lo + hi) / 2 if self.center is None else self.center), span

    def shared(self, runs) -> ContourPathPanel:
        """A copy of this panel whose box holds the paths of all `runs` and the origin: one map, on the same axes,
        for runs that are compared (`BrowserSwitch`)."""
        center, span = self._box(np.vstack([np.asarray(r.history.w, float) for r in runs]))
        other = copy.copy(self)
        other.center, other.span = np.array(center, float), span
        return other

    def front(self, run, X, y, *, style) -> dict:
        """The panel for a `BrowserPlayer` (kind ``"contour"``, drawn by ``front/contour.js``), computed once.

        What `draw` and `update` show: the filled bands and the contour lines of the loss on the same grid and
        levels (the numbers from `core.contours`, matplotlib's own computation), the zero-loss set hatched, the
        kink lines with their labels, the note under the axes saying what the labels are (``note``: lines, none
        without kink lines), the colour bar (colours, ticks and name), and at step k
        the path to w_k, the star at w_k and the title. With ``b="current"`` each distinct b_k has its layer and
        ``layer_of[k]`` names the one shown. Coordinates are (w1, w2), rounded to 1/1,000 of the view
        (under 0.25 px drawn).
        """
        import matplotlib as mpl

        W = np.asarray(run.history.w, float)
        if W.ndim != 2 or W.shape[1] != 2:
            raise ValueError(f"ContourPathPanel draws (w1, w2): the run needs 2 features; it has {W.shape[-1]}.")
        X, y = check_X_y(X, y)
        Bs = np.asarray(run.history.b, float)
        K = len(W) - 1
        follow = self.b_mode == "current" and bool(run.fit_bias)
        bs = Bs if follow else np.full(K + 1, Bs[0] if self.b_mode == "current" else float(self.b_mode))
        center, span = self._box(W)
        a = np.linspace(center[0] - span, center[0] + span, self.num)
        c = np.linspace(center[1] - span, center[1] + span, self.num)
        A, B = np.meshgrid(a, c)
        grid = lambda b: _loss_surfaces.loss_surface(  # noqa: E731
            X, y, np.stack([A, B, np.full_like(A, b)], axis=-1), loss=self.loss, reduction=self.reduction)
        levels = _contours.loss_levels(grid(bs[0]), n=len(X), loss=self.loss, reduction=self.reduction)
        extend = "neither" if self.loss == "zero_one" else "max"
        lecture = style.legend_size > 12
        size_px = self.SIZE_PX["lecture" if lecture else "notebook"]
        radius_px = 0.9 * style.legend_size * 0.85 * 4 / 3  # a label's circle, as `LossSlice._label_radius`
        frac = min(0.3, 2.2 * radius_px / size_px)
        digits = int(max(0, np.ceil(-np.log10(2 * span / 1_000))))
        pts = lambda P: np.round(np.asarray(P, float), digits).tolist()  # noqa: E731
        cmap = mpl.colormaps[_style.CMAP]
        norm = mpl.colors.Normalize(levels[0], levels[-1])
        edges = np.append(levels, _contours.EXTEND_TOP) if extend == "max" else levels
        colours = [mpl.colors.to_hex(cmap(norm(v))) for v in (edges[:-1] + edges[1:]) / 2]  # matplotlib's layers
        distinct = sorted(set(bs.tolist()))
        layers = []
        for b in distinct:
            Z = grid(b)
            lo_b, up_b = _contours.band_limits(levels, Z, extend=extend)
            bands = _contours.filled_bands(a, c, Z, lo_b, up_b)
            zero = (_contours.filled_bands(a, c, Z, [-1.0], [1e-12])[0]
                    if self.loss != "zero_one" and np.any(Z <= 0) else [])
            layers.append({
                "b": float(b),
                "bands": [{"color": col, "rings": [pts(r) for r in rings]}
                          for col, rings in zip(colours, bands, strict=True) if rings],
                "lines": [pts(ln) for lines in _contours.contour_lines(a, c, Z, levels) for ln in lines],
                "zero": [pts(r) for r in zero],
                "kinks": [{"i": int(i), "seg": pts(seg), "at": pts(at)}
                          for i, seg, at in (kink_marks(X, b, a[[0, -1]], c[[0, -1]], frac=frac, avoid=W)
                                             if self.kinks else [])]})
        lv = levels
        ticks = (lv[:-1] + lv[1:]) / 2 if self.loss == "zero_one" else np.concatenate([[0.0], lv[3::2]])
        sep = "\n" if style.title_size > 16 else " "
        s, ms = style, float(np.sqrt(style.marker_size))
        return {
            "kind": "contour", "K": int(K), "name": f"the {_NAMES.get(self.loss, self.loss)} over (w₁, w₂)",
            "xlim": [float(a[0]), float(a[-1])], "ylim": [float(c[0]), float(c[-1])],
            "xlabel": "w₁", "ylabel": "w₂", "size_px": float(size_px),
            "titles": [f"path over (w₁, w₂),{sep}b = {_num(b)}" for b in bs],
            "layer_of": [distinct.index(b) for b in bs.tolist()], "layers": layers,
            "note": list(KINK_NOTE) if self.kinks else [],
            "W": pts(W),
            "colorbar": {"colors": colours, "extend": extend == "max",
                         "ticks": (np.interp(ticks, lv, np.arange(len(lv))) / (len(lv) - 1)).tolist(),
                         "labels": [_num(round(t, 3)) for t in ticks], "label": _NAMES.get(self.loss, self.loss)},
            "look": {"line": "#FFFFFF", "line_width": s.thin_width * 0.4, "line_alpha": 0.5,
                     "kink_width": s.thin_width, "kink_dash": [5.0 * s.thin_width, 3.0 * s.thin_width],
                     "label_size": s.legend_size * 0.9, "label_alpha": 0.85, "hatch_width": s.thin_width * 0.6,
                     "path": "#FFFFFF", "path_width": s.line_width * 0.8, "path_marker": ms * 0.5,
                     "path_edge": "#000000", "path_edge_width": float(mpl.rcParams["lines.markeredgewidth"]),
                     "point_face": _style.CURSOR_FACE_COLOR, "point_edge": "#000000", "point_size": ms * 2.2,
                     "point_edge_width": s.marker_edge * 1.5},
        }

    def _title(self):
        sep = "\n" if self.slice.s.title_size > 16 else " "  # big lecture titles: two short lines
        self.ax.title.set_text(f"path over (w₁, w₂),{sep}b = {_num(self.slice.b)}")

    def update(self, k):
        if self.follow and self.slice.set_b(self.Bs[k]):
            self._title()
            if not self.blit_layers:
                self.redraw = True
        self.slice.set_path(self.W[: k + 1])
        self.slice.set_point(*self.W[k])
        if self.blit_layers:
            return [a for a in self.moving if a.get_visible()]
        return [self.slice.path, self.slice.point]
