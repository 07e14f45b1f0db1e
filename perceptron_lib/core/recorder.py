"""What a fit writes as it goes: one row per update, turned into a `History` at the end.

The online fit (`perceptron_lib.core.training`) and the batched ones (`perceptron_lib.core.batched`) both record
through `Recorder`.
"""

from __future__ import annotations

import numpy as np

from .._validation import read_only
from .runs import History

__all__ = ["Recorder"]


class Recorder:
    """Collects the history's rows as a fit goes: one list append per field and update.

    The states appended must be new arrays that nobody changes afterwards (`step` and `batch_step` return new
    ones), so nothing is copied. A hot loop may append to the lists ``w``, ``b``, ``i`` and ``epoch`` itself
    (bound ``append`` methods, no call of `add` per update); the lists are the record.
    """

    def __init__(self, w0: np.ndarray, b0: float):
        self.w, self.b = [w0.copy()], [float(b0)]
        self.i: list[int] = []
        self.epoch: list[int] = []
        self.batches: list[np.ndarray] = []
        self._states = None

    @property
    def n(self) -> int:
        return len(self.i)

    def add(self, w, b, i, epoch, batch=None):
        self.w.append(w)
        self.b.append(b)
        self.i.append(i)
        self.epoch.append(epoch)
        if batch is not None:
            self.batches.append(batch)

    def states(self) -> tuple[np.ndarray, np.ndarray]:
        """The states so far as arrays, w of shape (K + 1, d) and b of shape (K + 1,) (made once, then kept)."""
        if self._states is None or len(self._states[1]) != len(self.w):  # one concatenation: np.array's time / 5
            self._states = (np.concatenate(self.w).reshape(len(self.w), -1), np.array(self.b))
        return self._states

    def history(self, margin_before=None, margin_after=None) -> History:
        """The `History`; the batches are the indices given to `add`, or each update's one example."""
        i = np.array(self.i, dtype=np.intp)
        if self.batches:
            batches = tuple(read_only(np.asarray(bt, dtype=np.intp)) for bt in self.batches)
        else:  # online: rows of one read-only (K, 1) array, a view each
            batches = tuple(read_only(i[:, None].copy()))
        nan = np.full(len(i), np.nan)
        w, b = self.states()
        return History(
            w, b, i, np.array(self.epoch, dtype=np.intp),
            nan if margin_before is None else margin_before, nan.copy() if margin_after is None else margin_after,
            batches,
        )
