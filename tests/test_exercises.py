"""The exercise-check framework never raises and reads placeholders as not attempted."""

from perceptron_lib.exercises import Verdict, attempted, graded, verdict


@graded("x1", hint="count the points with a negative margin.")
def _count(answer):
    return int(answer) == 3, "Three points are on the wrong side."


def test_statuses_and_texts():
    assert _count().status == "not attempted" and _count(None).status == "not attempted"
    assert not attempted(...) and attempted(0)
    ok = _count(3)
    assert ok.correct and repr(ok) == "x1: correct. Three points are on the wrong side."
    wrong = _count(2)
    assert wrong.status == "wrong" and "Hint: count the points" in repr(wrong)


def test_malformed_answer_is_explained_not_raised():
    v = _count("three")
    assert v.status == "wrong" and "ValueError" in v.message and "count the points" in v.message


def test_verdict_helper():
    assert verdict("e", ..., True).status == "not attempted"
    assert isinstance(verdict("e", 1, False, hint="h"), Verdict)
