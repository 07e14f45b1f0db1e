"""Reading a student's answer: one number, n numbers, indices or words, with a message in the student's words.

Each reader returns the answer in the form a check compares, or raises `AnswerError`, whose message says what
was expected and what was given ("give one number such as 6.5, not a list of 1"). A check shows that message
as it is, never a Python error from deep inside numpy.

    >>> number([6.5])
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.answers.AnswerError: give one number, such as 6.5, not a list of 1 item
    >>> numbers((1, 0, float("nan")), 3, names="(w1, w2, b)")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.answers.AnswerError: give three finite numbers (w1, w2, b); number 3 is nan
"""

from __future__ import annotations

import numbers as _numbers

import numpy as np

__all__ = ["AnswerError", "number", "numbers", "indices", "words", "described"]

_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class AnswerError(ValueError):
    """An answer not in the form the exercise asks for; its message is for the student, shown as it is."""


def _count(n: int) -> str:
    return _COUNT.get(n, str(n))


def described(value) -> str:
    """What the student gave, in words: "the text '1,0,0'", "a list of 2 items", "True", "the number 24.6"."""
    if isinstance(value, (str, bytes)):
        return f"the text {value!r}"
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, (list, tuple, np.ndarray)):
        size = len(value)
        kind = "an array" if isinstance(value, np.ndarray) else f"a {type(value).__name__}"
        return f"{kind} of {size} item{'s' * (size != 1)}"
    if _real(value):
        return f"the number {value!r}"
    return f"a {type(value).__name__} ({str(value)[:40]})"


def _real(value) -> bool:
    return isinstance(value, (_numbers.Real, np.floating, np.integer)) and not isinstance(value, (bool, np.bool_))


def _scalar(value):
    """A 0-d numpy array (np.array(6.5), a sum's result) as the number it holds; anything else as it is."""
    return value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value


def _float(value, what: str, place: int = 0) -> float:
    """A real number as a finite float, or `AnswerError` saying why not (nan, inf, an int past 1e308); `place`, from
    1, names which of several it is."""
    try:
        out = float(value)
    except OverflowError:  # a Python int past 1e308
        raise AnswerError(f"give {what}, each of a size a float holds (up to about 1e308); "
                          f"{f'number {place}' if place else 'yours'} has {len(str(abs(int(value))))} digits") from None
    if not np.isfinite(out):
        raise AnswerError(f"give {what}; {f'number {place} is' if place else 'got'} {out!r}")
    return out


def number(answer, *, example: str = "6.5") -> float:
    """One finite real number."""
    answer = _scalar(answer)
    if not _real(answer):
        raise AnswerError(f"give one number, such as {example}, not {described(answer)}")
    return _float(answer, "a finite number")


def _flattened(answer):
    for part in map(_scalar, answer):
        if isinstance(part, (list, tuple, np.ndarray)):
            yield from _flattened(part)
        else:
            yield part


def numbers(answer, n: int, *, names: str = "") -> np.ndarray:
    """`n` finite real numbers, given flat or as nested pairs such as ``((w1, w2), b)``; a new float array."""
    what = f"{_count(n)} numbers{f' {names}' if names else ''}"
    answer = _scalar(answer)
    if not isinstance(answer, (list, tuple, np.ndarray)):
        raise AnswerError(f"give {what}, not {described(answer)}")
    flat = [_scalar(v) for v in _flattened(answer)]
    if len(flat) != n:
        raise AnswerError(f"give {what}; got {len(flat)} number{'s' * (len(flat) != 1)}")
    for place, value in enumerate(flat, start=1):
        if not _real(value):
            raise AnswerError(f"give {what}; number {place} is {described(value)}")
    finite = f"{_count(n)} finite numbers{f' {names}' if names else ''}"
    return np.array([_float(v, finite, place) for place, v in enumerate(flat, start=1)])


def indices(answer, *, n: int) -> set[int]:
    """A set of example indices, each a whole number from 0 to n - 1."""
    answer = _scalar(answer)
    if not isinstance(answer, (list, tuple, set, frozenset, np.ndarray)):
        raise AnswerError(f"give a list of example indices such as [0, 3], not {described(answer)}")
    out = set()
    for value in map(_scalar, answer):
        if not _real(value) or not (isinstance(value, (int, np.integer)) or float(value).is_integer()):
            raise AnswerError(f"give the indices as whole numbers such as [0, 3]; got {described(value)}")
        if not 0 <= int(value) < n:
            raise AnswerError(f"the examples are numbered 0 to {n - 1}; got {int(value)}")
        out.add(int(value))
    return out


def words(answer, n: int, *, vocabulary: dict[str, str], say: str) -> list[str]:
    """`n` words, one per example, each a key of `vocabulary` (any case); their meanings, in order.

    `say` lists the words in the message, e.g. "'correct', 'boundary' or 'wrong side'".
    """
    if not isinstance(answer, (list, tuple, np.ndarray)):
        raise AnswerError(f"give a list of {_count(n)} words, one per example, not {described(answer)}")
    out = []
    for place, value in enumerate(answer):
        key = value.strip().lower() if isinstance(value, str) else None
        if key not in vocabulary:
            raise AnswerError(f"the word for example {place} is {described(value)}: use {say} for each example")
        out.append(vocabulary[key])
    if len(out) != n:
        raise AnswerError(f"give one word for each of the {n} examples; got {len(out)}")
    return out
