"""The data loss over many parameters at once: surfaces on a grid, along a run, and kink lines.

Built on the losses of `perceptron_lib.core.losses`; the pictures of these numbers are in
`perceptron_lib.draw.plotting` (contours, surfaces).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_choice, check_positive_int, check_X, check_X_y, numeric_array
from .losses import LOSSES, REDUCTIONS, _pointwise, _reduce

__all__ = ["kink_lines", "loss_along_run", "loss_surface", "param_grid"]

# Largest (grid points x examples) block evaluated at once by `loss_surface`: 2**21 doubles = 16 MB.
_SURFACE_BLOCK = 2**21


def loss_surface(X, y, params, *, loss: str = "perceptron", reduction: str = "mean") -> np.ndarray:
    """The data loss at many parameter points at once.

    Parameters
    ----------
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
    params : array-like, shape (..., d + 1)
        Each row along the last axis is ``(w_1, ..., w_d, b)``.
    loss : {"zero_one", "perceptron", "hinge"}
    reduction : {"mean", "sum"}

    Returns
    -------
    ndarray, shape params.shape[:-1]
        The loss at each parameter point. Evaluated in blocks, so a
        200 x 200 grid on hundreds of examples needs only a few MB.

    Examples
    --------
    >>> X, y = [[1, 0], [0, 1]], [1, -1]
    >>> loss_surface(X, y, [[0, 0, 0], [1, -1, 0], [-1, 1, 0]], reduction="sum").tolist()
    [0.0, 0.0, 2.0]
    """
    loss = check_choice(loss, name="loss", choices=LOSSES)
    reduction = check_choice(reduction, name="reduction", choices=REDUCTIONS)
    X, y = check_X_y(X, y)
    n, d = X.shape
    P = numeric_array(params, name="params")
    if P.ndim == 0 or P.shape[-1] != d + 1:
        raise ValueError(
            f"params must have shape (..., d + 1) = (..., {d + 1}), each row (w_1, ..., w_{d}, b); "
            f"got shape {P.shape}. Build a grid with param_grid."
        )
    flat = P.reshape(-1, d + 1)
    Z = np.hstack([X, np.ones((n, 1))]) * y[:, None]  # row i: y_i (x_i, 1), so margins = flat @ Z.T
    out = np.empty(flat.shape[0])
    block = max(1, _SURFACE_BLOCK // n)
    for start in range(0, flat.shape[0], block):
        M = flat[start : start + block] @ Z.T
        out[start : start + block] = _reduce(_pointwise(M, loss), reduction)
    return out.reshape(P.shape[:-1])


def loss_along_run(run, X, y, *, loss: str = "perceptron", reduction: str = "mean") -> np.ndarray:
    """The data loss at every state of a run: one value per row of its history.

    Parameters
    ----------
    run : Run or History
        From `fit_perceptron`, `fit_minibatch` or `fit_batch` (or its ``history``).
    X : array-like, shape (n, d)
    y : array-like, shape (n,)
        The data the run was fitted on (or any data with d features).
    loss : {"zero_one", "perceptron", "hinge"}
    reduction : {"mean", "sum"}

    Returns
    -------
    ndarray, shape (K + 1,)
        Entry k is the loss at ``(history.w[k], history.b[k])``; entry 0 is the start.
        Ready for ``widgets.LossPanel``.

    Examples
    --------
    >>> from perceptron_lib import fit_perceptron
    >>> X, y = [[2, 1], [-1, -2]], [1, -1]
    >>> loss_along_run(fit_perceptron(X, y), X, y, reduction="sum").tolist()
    [0.0, 0.0]
    """
    hist = getattr(run, "history", run)
    W, B = getattr(hist, "w", None), getattr(hist, "b", None)
    if W is None or B is None:
        raise TypeError(
            f"run must be a Run (from fit_perceptron, fit_minibatch or fit_batch) or its History; "
            f"got {type(run).__name__}."
        )
    params = np.column_stack([np.asarray(W, dtype=np.float64), np.asarray(B, dtype=np.float64)])
    return loss_surface(X, y, params, loss=loss, reduction=reduction)


def _check_axes(axes, size: int) -> tuple[int, int]:
    if (
        not isinstance(axes, (tuple, list))
        or len(axes) != 2
        or not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in axes)
    ):
        raise TypeError(f"axes must be a pair of parameter indices such as (0, 1); got {axes!r}.")
    a, c = (int(v) for v in axes)
    if not (0 <= a < size and 0 <= c < size) or a == c:
        raise ValueError(
            f"axes must be two different indices into (w_1, ..., w_d, b), each in 0..{size - 1} "
            f"(index {size - 1} is b); got {axes!r}."
        )
    return a, c


def param_grid(center, *, axes=(0, 1), span=1.0, num: int = 101):
    """A 2-D slice of parameter space: vary two coordinates of (w, b), fix the rest.

    Parameters
    ----------
    center : array-like, shape (d + 1,)
        The point ``(w_1, ..., w_d, b)`` the slice passes through; its other
        coordinates stay fixed.
    axes : pair of int
        Which coordinates vary (index d is b).
    span : float > 0, or pair of float
        Each varying coordinate runs over ``center[axis] +- span``.
    num : int >= 2
        Grid points per axis.

    Returns
    -------
    A, B : ndarray, shape (num, num)
        Values of the two varying coordinates (``np.meshgrid`` "xy" layout,
        ready for ``plt.contour(A, B, Z)``).
    params : ndarray, shape (num, num, d + 1)
        The full parameter vector at each grid point; pass it to `loss_surface`.

    Examples
    --------
    >>> A, B, params = param_grid([0, 0, 0.5], axes=(0, 1), span=1.0, num=3)
    >>> A[0].tolist(), params[2, 0].tolist()
    ([-1.0, 0.0, 1.0], [-1.0, 1.0, 0.5])
    """
    c = numeric_array(center, name="center")
    if c.ndim != 1 or c.size < 2:
        raise ValueError(
            f"center must be a 1-D point (w_1, ..., w_d, b) with at least 2 entries; got shape "
            f"{c.shape}."
        )
    a0, a1 = _check_axes(axes, c.size)
    spans = numeric_array(span, name="span")
    if spans.ndim == 0:
        spans = np.array([spans, spans])
    if spans.shape != (2,) or (spans <= 0).any():
        raise ValueError(f"span must be a number > 0 or a pair of them; got {span!r}.")
    num = check_positive_int(num, name="num", minimum=2)
    A, B = np.meshgrid(
        c[a0] + np.linspace(-spans[0], spans[0], num), c[a1] + np.linspace(-spans[1], spans[1], num)
    )
    params = np.broadcast_to(c, A.shape + (c.size,)).copy()
    params[..., a0], params[..., a1] = A, B
    return A, B, params


def kink_lines(X, *, center=None, axes=(0, 1)) -> np.ndarray:
    """Where each example's loss has its kink, in a 2-D slice of parameter space.

    Example i is on the boundary exactly on the hyperplane
    ``{(w, b) : <w, x_i> + b = 0}`` of parameter space (the labels play no
    part). In the slice where coordinates ``axes = (j, k)`` take values (s, t)
    and the others are fixed at `center`, that hyperplane is the line
    ``p_i * s + q_i * t + r_i = 0``.

    Parameters
    ----------
    X : array-like, shape (n, d)
    center : array-like, shape (d + 1,), optional
        The fixed values of the other coordinates (default all zero).
    axes : pair of int
        Which coordinates of (w_1, ..., w_d, b) vary (index d is b).

    Returns
    -------
    ndarray, shape (n, 3)
        Row i is ``(p_i, q_i, r_i)``. If p_i = q_i = 0 the kink does not
        cross the slice (r_i != 0) or covers all of it (r_i = 0).

    Examples
    --------
    >>> kink_lines([[2, 3]], center=[0, 0, 1]).tolist()
    [[2.0, 3.0, 1.0]]
    """
    X = check_X(X)
    n, d = X.shape
    c = np.zeros(d + 1) if center is None else numeric_array(center, name="center")
    if c.shape != (d + 1,):
        raise ValueError(
            f"center must be a point (w_1, ..., w_{d}, b) of shape ({d + 1},); got shape {c.shape}."
        )
    a0, a1 = _check_axes(axes, d + 1)
    Z = np.hstack([X, np.ones((n, 1))])
    fixed = np.ones(d + 1, dtype=bool)
    fixed[[a0, a1]] = False
    return np.column_stack([Z[:, a0], Z[:, a1], Z[:, fixed] @ c[fixed]])
