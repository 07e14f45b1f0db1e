"""Lesson 05's lifted view on a screen: the orthographic projection that turns the view's box
(`perceptron_lib.core.lift_view.view_box`) at elevation and azimuth angles (matplotlib's meaning of both).

* `ASPECT`: the box's shape on the screen.
* `view_axes`: the screen's directions in the box's shaped coordinates at given angles.
* `project`: where points fall in the picture, at one scale for every angle; `picture_size`: the picture the box
  fits at every angle.

The browser's lifted panel projects by the same formulas (``perceptron_lib/player/front/lift_geometry.js``, ported
line for line and held equal to these by a Chromium test), so that the student turns the box with no kernel.
Pure: no widgets, no drawing.
"""

from __future__ import annotations

import numpy as np

from .lift_view import checked_box

__all__ = ["ASPECT", "view_axes", "project", "picture_size"]

#: The box's shape on the screen: its x, y and z sides in the ratio 4 : 4 : 3 (matplotlib's 3-D axes).
ASPECT = (1.0, 1.0, 0.75)


def view_axes(elev, azim) -> np.ndarray:
    """The screen's right, up and toward-the-viewer directions in the box's shaped coordinates, as rows.

    `elev` and `azim` in degrees, as matplotlib's `view_init`: the viewer looks from the direction
    (cos e cos a, cos e sin a, sin e). At elevation 90 and azimuth -90 x1 runs to the right and x2 up.

    Examples
    --------
    >>> (np.round(view_axes(90, -90), 12) + 0.0).tolist()  # + 0.0: no -0.0
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    e, a = np.deg2rad(float(elev)), np.deg2rad(float(azim))
    right = np.array([-np.sin(a), np.cos(a), 0.0])
    up = np.array([-np.sin(e) * np.cos(a), -np.sin(e) * np.sin(a), np.cos(e)])
    toward = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
    return np.vstack([right, up, toward])


def project(P, *, box, elev, azim, size) -> np.ndarray:
    """Where the points P (rows (x1, x2, z)) fall in a picture `size` pixels tall, and how near they are.

    The box is shaped to `ASPECT` (sides 1, 1, 0.75) about its centre, turned to (elev, azim) (`view_axes`), and
    seen along the viewing direction (orthographic). One scale for every angle, so the box keeps its size while it
    turns: the box's diagonal is `size` pixels, which is as tall as it can look (seen along no axis), and the
    picture is `picture_size(size)` wide, as wide as the box can look (the diagonal of its floor, seen from the
    side). Pixels run right and down from the picture's top left corner.

    Returns
    -------
    ndarray of shape (n, 3)
        Columns: pixels to the right, pixels down, and depth (larger is nearer the viewer, in shaped units).

    Examples
    --------
    >>> project([[0.0, 0.0, 1.0]], box=[(-1, 1), (-1, 1), (0, 2)], elev=24, azim=-58, size=400).round(3).tolist()
    [[176.69, 200.0, 0.0]]
    """
    B = checked_box(box)
    P = np.asarray(P, dtype=float).reshape(-1, 3)
    shaped = (P - B.mean(axis=1)) / (B[:, 1] - B[:, 0]) * np.asarray(ASPECT)
    R = view_axes(elev, azim)
    scale = float(size) / float(np.linalg.norm(ASPECT))
    width = picture_size(size)[0]
    s = shaped @ R.T
    return np.column_stack([width / 2 + scale * s[:, 0], size / 2 - scale * s[:, 1], s[:, 2]])


def picture_size(size) -> tuple:
    """(width, height) in pixels of the picture `project` draws in for a given `size`: the box fits at every angle.

    Examples
    --------
    >>> [round(v, 3) for v in picture_size(400)]
    [353.381, 400.0]
    """
    return float(size) * float(np.hypot(ASPECT[0], ASPECT[1]) / np.linalg.norm(ASPECT)), float(size)
