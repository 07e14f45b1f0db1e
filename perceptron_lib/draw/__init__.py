"""Drawing (matplotlib): each function draws given numbers onto a given Axes and computes nothing.

* `style`: the two presets (notebook, lecture), the colours and their meanings;
* `plotting`: points, boundaries, rings and mistake crosses; `arrows`: w and the updates as
  arrows; `surfaces`: loss curves, contour maps, 3-D surfaces and the lifted view;
* `display`: `show_figure`, a finished figure as a PNG with its alt text.
"""
