"""Progress at a glance (perceptron_lib.exercises.progress): read from the student's copies, never run."""

import json
import shutil
from pathlib import Path

import pytest

from perceptron_lib.exercises import nb01, nb05
from perceptron_lib.exercises.progress import (
    HAND_IN_STEP,
    STATUSES,
    check_calls,
    course_progress,
    exercise_id,
    exercises_of,
    lesson_progress,
    progress_table,
    show_progress,
    status_of_cell,
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def _cell(source, verdict=None):
    outputs = [] if verdict is None else [{"output_type": "display_data", "metadata": {},
                                           "data": {"text/plain": [verdict]}}]
    return {"cell_type": "code", "source": source, "outputs": outputs, "metadata": {"tags": ["exercise-check"]}}


def test_course_exercises_are_the_checks_the_lessons_call():
    rows = course_progress(NOTEBOOKS)
    assert len(rows) == 20 and [ex.id for ex, _ in rows][:4] == ["1.1", "1.2", "1.3", "2.1"]
    assert all(status == "not attempted" for _, status in rows)  # the course's lessons are blank
    assert exercise_id("nb05", "check_kernel") == nb05.check_kernel.__call__(...).exercise == "5.3"


def test_status_from_the_saved_verdict_then_the_source():
    assert status_of_cell(None) == "not attempted"
    assert status_of_cell(_cell("answer_2 = ...  # a number\nnb01.check_scaled_loss(answer_2)")) == "not attempted"
    assert status_of_cell(_cell("answer_2 = 6.5\nnb01.check_scaled_loss(answer_2)")) == "attempted"  # not run yet
    assert status_of_cell(_cell("answer_2 = 6\nnb01.check_scaled_loss(answer_2)", "1.2: not quite. Hint: x")) \
        == "attempted"
    assert status_of_cell(_cell("answer_2 = 6.5\nnb01.check_scaled_loss(answer_2)", "1.2: correct. Yes"),
                          "1.2") == "correct"
    # a verdict of another exercise says nothing about this one; "..." in a comment is no placeholder
    assert status_of_cell(_cell("a = 1  # e.g. ...\nnb01.check_scaled_loss(a)", "1.1: correct."), "1.2") \
        == "attempted"
    assert status_of_cell(_cell("nb03.check_many_updates(...)  # own")) == "not attempted"


def test_a_students_copy(tmp_path):
    for lesson in sorted(NOTEBOOKS.glob("0[0-2]_*.ipynb")):
        shutil.copy(lesson, tmp_path / lesson.name)
    path = tmp_path / "01_loss_geometry.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = [c for c in nb["cells"] if "exercise-check" in c["metadata"].get("tags", [])]
    right, wrong = nb01.check_contributing([1, 2, 5]), nb01.check_scaled_loss(2.0)
    cells[0]["source"], cells[0]["outputs"] = "answer_1 = [1, 2, 5]\nnb01.check_contributing(answer_1)", [
        {"output_type": "display_data", "metadata": {}, "data": {"text/plain": repr(right)}}]
    cells[1]["source"], cells[1]["outputs"] = "answer_2 = 2.0\nnb01.check_scaled_loss(answer_2)", [
        {"output_type": "display_data", "metadata": {}, "data": {"text/plain": repr(wrong)}}]
    nb["cells"].remove(cells[2])  # a deleted exercise cell reads as not attempted
    path.write_text(json.dumps(nb), encoding="utf-8")
    (tmp_path / "01_loss_geometry-2026-11-20T1010.ipynb").write_text("{}", encoding="utf-8")  # a reset's copy
    rows = {ex.id: status for ex, status in course_progress(tmp_path)}
    assert rows == {"1.1": "correct", "1.2": "attempted", "1.3": "not attempted", "2.1": "not attempted",
                    "2.2": "not attempted", "2.3": "not attempted"}
    table = progress_table(course_progress(tmp_path))
    assert "01_loss_geometry" in table and "01_loss_geometry           1 ✓  2 ~  3 ·" in table
    assert table.splitlines()[-1].startswith("1 of 6 correct, 1 attempted")


def test_missing_copy_and_bad_input():
    ex = exercises_of(json.loads((NOTEBOOKS / "01_loss_geometry.ipynb").read_text(encoding="utf-8")), "01")
    assert lesson_progress(None, ex) == {"1.1": "not attempted", "1.2": "not attempted", "1.3": "not attempted"}
    assert check_calls("x = nb02.check_cases(a); nb02.check_subgradient (b)") == [
        ("nb02", "check_cases"), ("nb02", "check_subgradient")]
    with pytest.raises(ValueError, match="no lessons"):
        course_progress(ROOT / "tools")
    with pytest.raises(ValueError, match="has no check 'check_nothing'"):
        exercise_id("nb01", "check_nothing")
    with pytest.raises(ValueError, match="'numpy'"):
        exercise_id("numpy", "check_x")


def test_show_progress_where_no_lesson_is_saved(tmp_path, capsys):
    """A lesson opened on its own (Colab, a download, the grader) prints why there is no table and raises nothing."""
    show_progress(tmp_path)
    said = capsys.readouterr().out
    assert "No saved lessons in" in said and "my-course/" in said and str(tmp_path.resolve()) in said
    lesson = (NOTEBOOKS / "01_loss_geometry.ipynb").read_text(encoding="utf-8")
    (tmp_path / "01_loss_geometry.ipynb").write_text(lesson, encoding="utf-8")
    show_progress(tmp_path)
    assert capsys.readouterr().out.splitlines()[-1].endswith("(✓ correct, ~ attempted, · not attempted)")


def test_right_points_on_an_editor_are_marked_not_handed_in(tmp_path):
    """A saved verdict on an editor's points ("right points, not handed in yet") is not counted correct: the table
    marks it ○ and says how to hand it in; "no points yet" is attempted; the table without ○ is as before."""
    assert STATUSES == ("not attempted", "attempted", "not handed in", "correct")
    src = "nb03.check_many_updates(own)"
    assert status_of_cell(_cell(src, "3.4: right points, not handed in yet: press Copy points, ..."), "3.4") \
        == "not handed in"
    assert status_of_cell(_cell(src, "3.4: no points yet: place at least 2 points (click on the picture)."),
                          "3.4") == "attempted"
    shutil.copy(NOTEBOOKS / "03_hyperplane_updates.ipynb", tmp_path / "03_hyperplane_updates.ipynb")
    path = tmp_path / "03_hyperplane_updates.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if "check_many_updates" in "".join(c["source"]))
    cell["source"] = src
    cell["outputs"] = [{"output_type": "display_data", "metadata": {}, "data": {"text/plain":
                        "3.4: right points, not handed in yet: press Copy points, paste its two lines ..."}}]
    path.write_text(json.dumps(nb), encoding="utf-8")
    rows = course_progress(tmp_path)
    assert dict((ex.id, s) for ex, s in rows)["3.4"] == "not handed in"
    lines = progress_table(rows).splitlines()
    assert lines[0] == "03_hyperplane_updates      1 ·  2 ·  3 ·  4 ○"
    assert lines[1].startswith("0 of 4 correct, 1 not handed in, 0 attempted") and "○ right points not handed in" \
        in lines[1]
    assert lines[2].startswith("○ 3.4: the check read the editor's points") and HAND_IN_STEP in lines[2]
