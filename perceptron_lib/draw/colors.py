"""The course's colours, markers and class labels, the same in every preset (`style` re-exports them).

The two classes use two Okabe–Ito colours *and* two marker shapes, so they stay apart in
grey-scale print and for colour-blind readers: ``y = +1`` is a vermillion triangle, ``y = -1``
a blue circle. The other roles (boundary, w, update, current example, mistakes) use other
Okabe–Ito colours or black and are told apart by shape as well (line, arrow, ring, cross).
"""

__all__ = [
    "OKABE_ITO",
    "POS_COLOR",
    "NEG_COLOR",
    "POS_MARKER",
    "NEG_MARKER",
    "POS_LABEL",
    "NEG_LABEL",
    "BOUNDARY_COLOR",
    "PREV_BOUNDARY_COLOR",
    "W_COLOR",
    "UPDATE_COLOR",
    "RING_COLOR",
    "MISTAKE_COLOR",
    "CURVE_COLOR",
    "CURSOR_COLOR",
    "CURSOR_FACE_COLOR",
    "CURSOR_MARK_COLOR",
    "PLANE_COLOR",
    "CMAP",
]

#: The eight colours of Okabe & Ito (2008), "Color Universal Design".
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

POS_COLOR = OKABE_ITO["vermillion"]  #: class y = +1
NEG_COLOR = OKABE_ITO["blue"]  #: class y = -1
POS_MARKER = "^"  #: class y = +1: triangle
NEG_MARKER = "o"  #: class y = -1: circle
POS_LABEL = "y = +1"
NEG_LABEL = "y = -1"

BOUNDARY_COLOR = OKABE_ITO["black"]  #: the line <w,x> + b = 0
PREV_BOUNDARY_COLOR = "#8C8C8C"  #: the boundary before the update (dashed)
W_COLOR = OKABE_ITO["bluish_green"]  #: the normal vector w
UPDATE_COLOR = OKABE_ITO["reddish_purple"]  #: the update eta*y*x
RING_COLOR = OKABE_ITO["black"]  #: ring around the current example
MISTAKE_COLOR = OKABE_ITO["black"]  #: cross over misclassified points
CURVE_COLOR = OKABE_ITO["black"]  #: loss curves
#: the cursor at the current step on a curve (a line, and the edge of its marker): a dark grey, 8:1 on white. Not
#: orange: beside the vermillion of y = +1 it reads as a class, and on white it has only 2:1 of the 3:1 a mark needs.
CURSOR_COLOR = "#4D4D4D"
CURSOR_FACE_COLOR = "#FFFFFF"  #: the face of the cursor's marker on a curve: a hollow ring over the curve's dots
CURSOR_MARK_COLOR = OKABE_ITO["black"]  #: the point editor's keyboard cursor (a plus) and selection (a square)
PLANE_COLOR = OKABE_ITO["bluish_green"]  #: separating plane in 3-D
CMAP = "viridis"  #: colour map for contours and surfaces (perceptually uniform, colour-blind safe)
