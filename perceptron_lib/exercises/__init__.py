"""Self-checks for the course's exercises.

Each notebook has a module here (``nb01``, ``nb02``, ...) with one check per
exercise. A check never raises on a wrong or missing answer: it returns a
`Verdict`, and in a notebook it shows the verdict itself, once, wherever the
check stands in its cell. Students leave ``...`` as
a placeholder, which reads "not attempted yet".

    >>> from perceptron_lib.exercises import verdict
    >>> verdict("1a", ...)
    1a: not attempted yet. Replace the ... with your answer and run the cell again.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Verdict", "verdict", "attempted", "safely", "graded", "points_of", "could_not", "is_editor", "no_points",
           "no_points_in", "NoPoints", "HAND_IN"]

#: What a verdict on a point editor's points adds: how to hand them in (clicks are not saved in a notebook).
HAND_IN = ("press Copy points, paste its two lines (X = [...] and y = [...]) above the check and give the check "
           "(X, y) instead of the editor: clicks are not saved in the notebook, so a run from the top (a grader's) "
           "sees only the points the notebook's code gives the editor.")


class NoPoints(ValueError):
    """An answer with no points at all (an editor after Clear, or empty lists): its message is the student's words."""


@dataclass(frozen=True)
class Verdict:
    """The outcome of one check: ``status`` is "correct", "wrong" or "not attempted"."""

    exercise: str
    status: str
    message: str

    def __post_init__(self):
        # A check shows its own verdict in a notebook, so the verdict is there even when the check is not
        # the cell's last line (a line after it would hide a returned value); it is still returned.
        from IPython import get_ipython

        if get_ipython() is not None:
            self._ipython_display_()

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    def _ipython_display_(self):
        """Show the verdict once: when it is made, and not again as the cell's value."""
        if self.__dict__.get("_shown"):
            return
        self.__dict__["_shown"] = True
        from IPython.display import publish_display_data

        publish_display_data({"text/plain": repr(self)})

    def __repr__(self) -> str:
        return f"{self.exercise}: {self.message}"

    __str__ = __repr__


def attempted(answer) -> bool:
    """False for the placeholders ``...`` and None."""
    return answer is not Ellipsis and answer is not None


def _what_went_wrong(exc: Exception) -> str:
    """An answer not in the exercise's form says so in the student's words; anything else is named as it is."""
    from .answers import AnswerError

    if isinstance(exc, AnswerError):
        return f"not quite: {exc}."
    return f"not quite: your answer could not be checked ({type(exc).__name__}: {exc})."


def could_not(exercise: str, exc: Exception, hint: str) -> Verdict:
    """The verdict on an answer that could not even be checked: what went wrong, then the hint."""
    return Verdict(exercise, "wrong", f"{_what_went_wrong(exc)} Hint: {hint}")


def safely(exercise: str, check, answer, hint: str) -> Verdict:
    """``check(answer)``'s verdict; a malformed answer becomes "not quite" with what is wrong and the hint."""
    if not attempted(answer):
        return verdict(exercise, answer)
    try:
        return check(answer)
    except Exception as exc:  # any shape or type a student might type
        return could_not(exercise, exc, hint)


def verdict(exercise: str, answer, ok: bool | None = None, *, praise: str = "", hint: str = "") -> Verdict:
    """Build a Verdict: not attempted, correct (with praise) or wrong (with a hint)."""
    if not attempted(answer):
        return Verdict(
            exercise, "not attempted", "not attempted yet. Replace the ... with your answer and run the cell again."
        )
    if ok:
        return Verdict(exercise, "correct", "correct." + (f" {praise}" if praise else ""))
    return Verdict(exercise, "wrong", "not quite." + (f" Hint: {hint}" if hint else ""))


def graded(exercise: str, *, hint: str = ""):
    """Decorate a checker ``fn(answer) -> (ok, praise)``; any error in the answer becomes a hint.

    A checker that can tell one wrong answer from another returns ``(ok, praise, hint)``:
    its own hint then replaces the decorator's general one for that answer.

    The right points read from a point editor (`is_editor`) are "not handed in", not "correct": the verdict
    says how to hand them in (`HAND_IN`), as the progress table and the grader count them. An answer with no
    points (`NoPoints`) gets its own words, not a library error.

    A student's answer can be of any shape or type; the checker can assume the
    intended one, and whatever goes wrong while comparing is reported as
    "not quite" with the checker's hint plus what went wrong, never raised.
    """

    def wrap(fn):
        def check(answer=..., *args, **kwargs) -> Verdict:
            if not attempted(answer):
                return verdict(exercise, answer)
            try:
                ok, praise, *own_hint = fn(answer, *args, **kwargs)
            except NoPoints as exc:  # an empty editor or empty lists: what to do, in the student's words
                return Verdict(exercise, "wrong", str(exc))
            except Exception as exc:  # a malformed answer is a wrong answer, explained
                return Verdict(exercise, "wrong", f"{_what_went_wrong(exc)} {hint}".rstrip())
            if ok and is_editor(answer):
                return Verdict(exercise, "not handed in", "right points, not handed in yet: " + HAND_IN
                               + (f" ({praise})" if praise else ""))
            return verdict(exercise, answer, ok, praise=praise, hint=own_hint[0] if own_hint else hint)

        check.__name__, check.__doc__ = fn.__name__, fn.__doc__
        return check

    return wrap


def is_editor(answer) -> bool:
    """True for a point editor (an object with ``.points``, a `BrowserEditor`), False for a pair (X, y)."""
    return hasattr(answer, "points") and not isinstance(answer, tuple)


def no_points_in(X, y) -> bool:
    """True when X and y hold no point at all (``[]``, an empty array); False for anything else, malformed too."""
    try:
        return np.size(X) == 0 and np.size(y) == 0
    except (TypeError, ValueError):  # a ragged list: not empty, and check_X_y says what is wrong with it
        return False


def no_points(*, at_least: int = 1, at_most=None, editor: bool = True) -> str:
    """The words for an answer with no points: how many to place, and where."""
    many = f"{at_least} point" if at_most == at_least else f"at least {at_least} point"
    where = "click on the picture" if editor else "write them into X and their labels into y"
    return f"no points yet: place {many}{'' if many == '1 point' else 's'} ({where})."


def points_of(answer, *, max_points=None, min_points=1):
    """The points of an answer: a `BrowserEditor` (its points now) or a pair (X, y); as checked arrays.

    X must be n points in the plane, y their labels in {-1, +1}; raises ValueError with a message
    for a student otherwise (a `graded` check turns it into its hint), and `NoPoints` when there are
    none (its message says to place at least ``min_points``).
    """
    from .._validation import check_X_y

    if is_editor(answer):
        X, y = answer.points
    elif isinstance(answer, (tuple, list)) and len(answer) == 2:
        X, y = answer
    else:
        from .answers import AnswerError, described

        raise AnswerError(f"give the editor or a pair (X, y) of points and labels, not {described(answer)}")
    if no_points_in(X, y):
        raise NoPoints(no_points(at_least=min_points, at_most=max_points))
    from .answers import AnswerError

    X, y = check_X_y(X, y)
    if X.shape[1] != 2:
        raise AnswerError(f"the points must be in the plane (two coordinates each); got {X.shape[1]}")
    if max_points is not None and len(y) > max_points:
        raise AnswerError(f"this exercise allows at most {max_points} points; you have {len(y)}")
    return X, y
