"""Argument checks shared by every public function.

Each check runs once, at the boundary, and raises with a message that names the
argument, says what was wrong ("got ...") and how to fix it. Inputs are copied
into fresh float arrays, so nothing downstream can modify the caller's data.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_X",
    "check_X_y",
    "check_y",
    "check_eta",
    "check_positive_int",
    "check_choice",
    "check_start",
    "check_rng",
    "check_finite_scalar",
    "read_only",
    "numeric_array",
    "check_w",
    "check_w_b",
]


def _describe_labels(values) -> str:
    shown = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values[:5])
    return "{" + shown + (", ..." if len(values) > 5 else "") + "}"


def check_X(X, *, name: str = "X", min_samples: int = 1, copy: bool = True) -> np.ndarray:
    """Return `X` as a fresh C-contiguous float64 array of shape (n, d).

    With ``copy=False``, for callers that only read X (the fits), a float64 C-contiguous `X` is
    not copied: the result is a read-only view of it (so the caller's array cannot be changed
    through it). Raises TypeError for non-numeric input and ValueError for a wrong shape,
    empty data or non-finite entries.
    """
    if isinstance(X, np.ndarray):
        arr = X
    else:
        try:
            arr = np.asarray(X)
        except ValueError as exc:  # ragged lists
            raise ValueError(
                f"{name} must be a rectangular table of numbers, shape (n_samples, n_features); "
                f"numpy could not build an array from it ({exc}). Give every row the same length."
            ) from None
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_)
    ):
        raise TypeError(
            f"{name} must hold numbers; got an array of dtype {arr.dtype}. "
            f"Convert it first, e.g. {name} = np.asarray({name}, dtype=float)."
        )
    if np.iscomplexobj(arr):
        raise TypeError(
            f"{name} must be real; got complex dtype {arr.dtype}. Use {name}.real if the imaginary part is 0."
        )
    if arr.ndim != 2:
        hint = (
            f" For one feature use {name}.reshape(-1, 1); for one example use {name}.reshape(1, -1)."
            if arr.ndim == 1
            else ""
        )
        raise ValueError(
            f"{name} must be 2-D with shape (n_samples, n_features); got {arr.ndim}-D with shape {arr.shape}.{hint}"
        )
    if arr.shape[0] < min_samples or arr.shape[1] == 0:
        raise ValueError(
            f"{name} is empty (shape {arr.shape}); give at least {min_samples} example(s) with at least one feature."
        )
    if copy:
        out = np.array(arr, dtype=np.float64, order="C", copy=True)
    else:
        out = np.ascontiguousarray(arr, dtype=np.float64).view()
        out.setflags(write=False)
    if not np.isfinite(out).all():
        r, c = np.argwhere(~np.isfinite(out))[0]
        raise ValueError(
            f"{name} contains NaN or inf (first at row {r}, column {c}: {out[r, c]}). "
            f"Remove those rows or fill the missing values before fitting."
        )
    return out


def check_y(y, *, name: str = "y", n: int | None = None) -> np.ndarray:
    """Return labels `y` as a fresh float64 array of shape (n,) with values in {-1, +1}."""
    arr = np.asarray(y)
    if arr.ndim == 2 and 1 in arr.shape:
        raise ValueError(
            f"{name} must be 1-D with shape (n_samples,); got shape {arr.shape}. Use {name}.ravel()."
        )
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D with shape (n_samples,); got shape {arr.shape}.")
    if arr.size == 0:
        raise ValueError(f"{name} is empty; give one label in {{-1, +1}} per example.")
    if n is not None and arr.shape[0] != n:
        raise ValueError(
            f"X and {name} must have the same number of examples; "
            f"got X with {n} rows and {name} with {arr.shape[0]} labels."
        )
    if arr.dtype == object or not _numeric(arr):
        labels = np.unique(arr.astype(str))
        raise TypeError(
            f"{name} must hold the numbers -1 and +1; got labels of dtype {arr.dtype} {_describe_labels(labels)}. "
            f"Map them to -1/+1, e.g. {name} = np.where({name} == {labels[-1]!r}, 1, -1), "
            f"or use PerceptronClassifier, which accepts any two labels."
        )
    out = np.array(arr, dtype=np.float64, copy=True)
    if not np.isfinite(out).all():
        i = int(np.flatnonzero(~np.isfinite(out))[0])
        raise ValueError(f"{name} contains NaN or inf (first at index {i}); every label must be -1 or +1.")
    if ((out == 1.0) | (out == -1.0)).all():
        return out
    labels = np.unique(out)  # only to say what is wrong
    if len(labels) > 2:
        raise ValueError(
            f"{name} must have two classes, -1 and +1; got {len(labels)} distinct labels {_describe_labels(labels)}. "
            f"The perceptron separates two classes: keep two of them, or relabel one class +1 and the rest -1."
        )
    if not np.isin(labels, (-1.0, 1.0)).all():
        if set(labels.tolist()) <= {0.0, 1.0}:
            fix = f"Convert them with {name} = 2 * {name} - 1."
        else:
            fix = f"Map them, e.g. {name} = np.where({name} == {labels[-1].item():g}, 1, -1)."
        raise ValueError(
            f"{name} must hold labels in {{-1, +1}}; got {_describe_labels(labels)}. {fix}"
        )
    return out


def check_X_y(X, y, *, x_name: str = "X", y_name: str = "y", copy: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Validate a data set; return fresh arrays X (n, d) and y (n,) in {-1, +1} (X as in `check_X`)."""
    X = check_X(X, name=x_name, copy=copy)
    y = check_y(y, name=y_name, n=X.shape[0])
    return X, y


def _is_real_number(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def check_finite_scalar(value, *, name: str) -> float:
    """Return `value` as a finite float."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if not _is_real_number(value):
        raise TypeError(f"{name} must be a real number; got {value!r} of type {type(value).__name__}.")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite; got {value!r}. Use an ordinary number such as {name}=0.0.")
    return float(value)


def check_eta(eta, *, name: str = "eta") -> float:
    """Return the step size as a float > 0."""
    if isinstance(eta, np.ndarray) and eta.ndim == 0:
        eta = eta.item()
    if not _is_real_number(eta):
        raise TypeError(f"{name} must be a positive number; got {eta!r} of type {type(eta).__name__}.")
    if not np.isfinite(eta) or eta <= 0:
        raise ValueError(
            f"{name} must be a finite number > 0; got {eta!r}. Use a positive step size such as {name}=1.0."
        )
    return float(eta)


def check_positive_int(value, *, name: str, minimum: int = 1) -> int:
    """Return `value` as an int >= minimum (floats such as 5.0 are refused: say 5)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be a whole number >= {minimum}; got {value!r} of type {type(value).__name__}. "
            f"Pass an int, e.g. {name}={max(minimum, 10)}."
        )
    if value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}; got {value}.")
    return int(value)


def check_choice(value, *, name: str, choices: tuple[str, ...]) -> str:
    """Return `value` if it is one of `choices`."""
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {options}; got {value!r}.")
    return value


def check_start(w0, b0, d: int, *, fit_bias: bool = True) -> tuple[np.ndarray, float]:
    """Return the start point: w0 as a fresh float array (d,), b0 as a float."""
    if w0 is None:
        w = np.zeros(d)
    else:
        w = np.array(w0, dtype=np.float64, copy=True) if _numeric(w0) else None
        if w is None:
            raise TypeError(f"w0 must be an array of {d} numbers; got {w0!r}.")
        if w.shape != (d,):
            raise ValueError(
                f"w0 must have one entry per feature, shape ({d},); got shape {w.shape}. "
                f"Pass w0=None to start from zero."
            )
        if not np.isfinite(w).all():
            raise ValueError("w0 contains NaN or inf; give a finite start, or w0=None to start from zero.")
    b = check_finite_scalar(b0, name="b0")
    return w, b


def _numeric(v) -> bool:
    arr = np.asarray(v)
    return arr.dtype != object and (np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_))


def check_rng(rng) -> np.random.Generator:
    """Return a numpy Generator from None, an int seed or a Generator."""
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"rng must be None, an int seed or a numpy.random.Generator; got {rng!r}. "
        f"Use rng=np.random.default_rng(0) for a reproducible run."
    )


def read_only(a):
    """Mark array `a` read-only in place and return it (None passes through).

    The frozen result records use it, so a student cannot change a run's history by accident.
    """
    if a is not None:
        a = np.asarray(a)
        a.setflags(write=False)
    return a


def numeric_array(value, *, name: str) -> np.ndarray:
    """`value` as a fresh float64 array of finite real numbers, or a clear error naming `name`."""
    try:
        arr = np.asarray(value)
    except ValueError:
        raise ValueError(
            f"{name} must be a rectangular array of numbers; numpy could not build one."
        ) from None
    if (
        arr.dtype == object
        or not (np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_))
        or np.iscomplexobj(arr)
    ):
        raise TypeError(f"{name} must hold real numbers; got {value!r} (dtype {arr.dtype}).")
    out = np.array(arr, dtype=np.float64, copy=True)
    if not np.isfinite(out).all():
        raise ValueError(f"{name} contains NaN or inf; give finite numbers.")
    return out


def check_w(w, d: int, *, name: str = "w", what: str = "one entry per feature of X") -> np.ndarray:
    """Return `w` as a fresh float array of shape (d,) (a copy: the caller's array is never changed)."""
    out = numeric_array(w, name=name)
    if out.shape != (d,):
        raise ValueError(
            f"{name} must have {what}, shape ({d},); got shape {out.shape}. "
            f"Pass a 1-D array such as np.zeros({d})."
        )
    return out


def check_w_b(w, b, d: int) -> tuple[np.ndarray, float]:
    """(w, b) checked: w of shape (d,), b a finite number."""
    return check_w(w, d), check_finite_scalar(b, name="b")


def check_alt(alt, *, name: str = "alt") -> str:
    """A figure's alt text: one plain sentence saying what the figure shows."""
    if not isinstance(alt, str) or not alt.strip():
        raise TypeError(f"{name} must be a sentence saying what the figure shows; got {alt!r} instead.")
    text = " ".join(alt.split())
    if not text.endswith((".", "?", "!")) or len(text) > 400:
        raise ValueError(
            f"{name} must be one sentence (ending with a full stop, at most 400 characters) saying what the "
            f"figure shows; got {text[:80]!r}{'...' if len(text) > 80 else ''} instead."
        )
    return text
