"""LiveFigure: one figure, controls that move artists, an image that follows."""

import ipywidgets as widgets
import numpy as np
import pytest

from perceptron_lib.draw import style
from perceptron_lib.player import LiveFigure


def _live():
    live = LiveFigure(ncols=2)
    (line,) = live.axes[0].plot([0, 1], [0, 0])
    live.axes[0].set_ylim(-3, 3)
    calls = []

    def show(slope, offset):
        calls.append((slope, offset))
        line.set_ydata([offset, offset + slope])
        return f"slope {slope:.1f}, offset {offset:.1f}"

    controls = {"slope": widgets.FloatSlider(value=1.0, min=-2, max=2), "offset": widgets.FloatSlider(value=0.0)}
    live.bind(show, **controls)
    return live, line, calls, controls


def test_controls_move_artists_and_image():
    live, line, calls, controls = _live()
    first = live.frame_png()
    assert first.startswith(b"\x89PNG") and calls == [(1.0, 0.0)]
    # sweep every control over its range
    for v in np.linspace(-2, 2, 5):
        live.set(slope=float(v))
        assert line.get_ydata()[1] == pytest.approx(v)
    controls["offset"].value = 0.5  # as a student dragging it
    assert live.text == "slope 2.0, offset 0.5" and live.values == {"slope": 2.0, "offset": 0.5}
    assert live.frame_png() != first
    assert repr(live) == "<LiveFigure: slope, offset>"
    # the picture's alt sentence is its tooltip (the title in the browser), and it follows the readout
    assert live.picture.tooltip == live.alt == "Interactive figure at slope 2.0, offset 0.5."


def test_errors_and_style():
    live, _, _, _ = _live()
    with pytest.raises(KeyError, match="the controls are"):
        live.set(angle=3)
    with pytest.raises(ValueError, match="one entry per axes"):
        LiveFigure(ncols=2, projection=["3d"])
    big = LiveFigure(style="lecture", projection="3d")
    assert big.axes[0].name == "3d" and big.style is style.LECTURE
    assert big.axes[0].xaxis.label.get_fontsize() == style.LECTURE.label_size


def test_set_redraws_once_for_several_controls():
    live, _, calls, _ = _live()
    calls.clear()
    live.set(slope=-1.0, offset=0.5)
    assert calls == [(-1.0, 0.5)]  # one call, with both new values: no half-set frame in between
    with pytest.raises(KeyError):
        live.set(slope=0.0, angle=1)
    assert calls == [(-1.0, 0.5)] and live.values["slope"] == -1.0  # a bad name changes nothing


def test_axes_keep_their_place_while_controls_move():
    live = LiveFigure()
    ax = live.axes[0]
    ax.plot([0, 1], [0, 1])
    # wider tick labels would make constrained layout shift the axes on every redraw
    live.bind(lambda scale: ax.set_ylim(-scale, scale), scale=widgets.FloatSlider(value=1, min=1, max=1e6))
    where = ax.get_position().bounds
    for v in (10.0, 1e3, 1e6, 1.0):
        live.set(scale=v)
        assert ax.get_position().bounds == where
    # the first layout was a real one: the axes sit inside the figure with room for their labels
    x0, y0, w, h = where
    assert 0 < x0 and 0 < y0 and x0 + w < 1 and y0 + h < 1
