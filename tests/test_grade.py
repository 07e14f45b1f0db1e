"""tools/grade.py end to end, on lesson 01: one grading run over a class of made-up students.

The run grades the solutions, the plain lesson, and lessons made from lesson 01's setup cell and its
exercise cells (a notebook need not hold the whole lesson to be graded): one wrong answer; one that
raises, one that waits forever (the cell's time limit) and one that reaches for the network; one
with a check cell deleted; one whose first cell raises (the notes name that first error first); and
files that are not lessons of ours (lesson 00, the course's map, is neither graded nor reported). Tests
with no kernel (the runs faked) check the output folder (made before grading, a bad --out refused at
once, the work kept when the folder goes away), "not handed in" and Canvas's file names. Every notebook runs in its own
process, so the run costs about one kernel start per student (about 1 min on a busy 2-core machine).
"""

import copy
import csv
import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tools import grade, grade_submissions

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "notebooks" / "01_loss_geometry.ipynb"
SOLUTIONS = ROOT / "notebooks" / "solutions" / "01_loss_geometry_solutions.ipynb"
RIGHT = {"1.1": "[1, 2, 5]", "1.2": "6.5", "1.3": "(1.0, 0.0, 0.0)"}
CELL_TIMEOUT = 20


def _exercise_cells(nb):
    return [c for c in nb["cells"] if "exercise-check" in c.get("metadata", {}).get("tags", [])]


def _short_lesson(answers: dict, *, drop=(), before: dict | None = None) -> dict:
    """Lesson 01's setup cell and exercise cells, with these answers (code) and code run before a check."""
    nb = json.loads(LESSON.read_text(encoding="utf-8"))
    setup = next(c for c in nb["cells"] if c["cell_type"] == "code")
    cells = [setup]
    for ex, cell in zip(RIGHT, _exercise_cells(nb), strict=True):
        if ex in drop:
            continue
        cell = copy.deepcopy(cell)
        lines = "".join(cell["source"]).splitlines()
        lines[0] = lines[0].split("=")[0] + "= " + answers[ex]
        cell["source"] = "\n".join([*(before or {}).get(ex, "").splitlines(), *lines])
        cells.append(cell)
    return {**nb, "cells": cells}


def _write(path: Path, nb: dict):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb), encoding="utf-8")


@pytest.fixture(scope="module")
def listener():
    """A server on this machine's loopback that a graded notebook must not reach."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    yield server
    server.close()


@pytest.fixture(scope="module")
def graded(tmp_path_factory, listener):
    subs = tmp_path_factory.mktemp("subs")
    port = listener.getsockname()[1]
    _write(subs / "sol" / "01_loss_geometry.ipynb", json.loads(SOLUTIONS.read_text(encoding="utf-8")))
    _write(subs / "plain" / "01_loss_geometry.ipynb", json.loads(LESSON.read_text(encoding="utf-8")))
    _write(subs / "onewrong" / "01_loss_geometry.ipynb", _short_lesson({**RIGHT, "1.2": "6.0"}))
    # 1.1 reaches for the loopback (past Python's socket guard where unshare -n works); 1.2 waits forever.
    module = "_socket" if grade.network_off_command() else "socket"
    reach = f"import {module}\n{module}.socket().connect(('127.0.0.1', {port}))"
    _write(subs / "broken" / "01_loss_geometry.ipynb",
           _short_lesson(RIGHT, before={"1.1": reach, "1.2": "import time\nwhile True:\n    time.sleep(0.05)"}))
    _write(subs / "deleted" / "01_loss_geometry.ipynb", _short_lesson(RIGHT, drop={"1.2"}))
    # a right answer to every exercise, and a first cell that raises: every later cell fails for want of its names
    first = _short_lesson(RIGHT)
    first["cells"][0] = {**first["cells"][0], "source": "undefined_name + 1\n" + "".join(first["cells"][0]["source"])}
    _write(subs / "firstraise" / "01_loss_geometry.ipynb", first)
    # bad input beside a good lesson: not a notebook, and a notebook of another course
    _write(subs / "mixed" / "01_loss_geometry.ipynb", _short_lesson(RIGHT))
    (subs / "mixed" / "essay.txt").write_text("my answers are in my head", encoding="utf-8")
    _write(subs / "mixed" / "00_start_here.ipynb", json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text()))
    _write(subs / "mixed" / "stats_hw.ipynb", {"cells": [{"cell_type": "code", "source": "1 + 1", "metadata": {},
                                                          "outputs": [], "execution_count": None}],
                                                "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    out = subs.parent / "gradebook.csv"
    messages = []
    rows = grade.grade(subs, out, cell_timeout=CELL_TIMEOUT, timeout=300, jobs=2, log=messages.append)
    with pytest.raises(socket.timeout):
        listener.accept()  # nobody connected
    notes = list(csv.DictReader((out.with_name("gradebook-notes.csv")).open(encoding="utf-8")))
    return {r["student"]: r for r in rows}, list(csv.DictReader(out.open(encoding="utf-8"))), notes, messages


def _why(notes, student, ex=""):
    return " | ".join(n["why"] for n in notes if n["student"] == student and n["exercise"] == ex)


def test_gradebook_one_row_per_student_one_column_per_exercise(graded):
    rows, from_csv, _, _ = graded
    assert list(from_csv[0]) == ["student", "1.1", "1.2", "1.3", "total"]
    assert [r["student"] for r in from_csv] == sorted(rows) == sorted(
        ["sol", "plain", "onewrong", "broken", "deleted", "firstraise", "mixed"])
    assert all(int(r["total"]) == sum(int(r[e]) for e in RIGHT) for r in from_csv)


def test_solutions_full_marks_plain_lesson_zero(graded):
    rows, _, notes, _ = graded
    assert rows["sol"]["total"] == 3 and not _why(notes, "sol", "1.1")
    assert rows["plain"]["total"] == 0
    assert all("not attempted" in _why(notes, "plain", e) for e in RIGHT)
    assert not any("not attempted: not attempted" in _why(notes, "plain", e) for e in RIGHT), "said once"


def test_one_wrong_answer_loses_exactly_that_exercise(graded):
    rows, _, notes, _ = graded
    assert (rows["onewrong"]["1.1"], rows["onewrong"]["1.2"], rows["onewrong"]["1.3"]) == (1, 0, 1)
    assert "not quite" in _why(notes, "onewrong", "1.2")


def test_raises_loops_and_network_score_zero_and_the_run_goes_on(graded):
    rows, _, notes, _ = graded
    assert (rows["broken"]["1.1"], rows["broken"]["1.2"], rows["broken"]["1.3"]) == (0, 0, 1)
    assert "raised" in _why(notes, "broken", "1.1") and "OSError" in _why(notes, "broken", "1.1")
    assert f"{CELL_TIMEOUT} s limit" in _why(notes, "broken", "1.2")


def test_the_first_error_is_named_first_not_the_later_cells_it_broke(graded):
    """The first cell raised (NameError on `undefined_name`); the checks' cells then fail on names it never made.
    Each lost exercise's note starts with the first error, its cell placed as JupyterLab shows it (from 1)."""
    rows, _, notes, _ = graded
    assert rows["firstraise"]["total"] == 0
    for ex in RIGHT:
        why = _why(notes, "firstraise", ex)
        assert why.startswith("FIRST ERROR: cell 1 ('undefined_name + 1') raised NameError"), why
        assert "undefined_name" in why.split("; then")[0] and "its check, cell " in why, why


def test_deleted_check_cell_scores_zero_and_says_so(graded):
    rows, _, notes, _ = graded
    assert (rows["deleted"]["1.1"], rows["deleted"]["1.2"], rows["deleted"]["1.3"]) == (1, 0, 1)
    assert "not in the notebook" in _why(notes, "deleted", "1.2")


def test_bad_files_are_reported_and_cost_nothing(graded):
    rows, _, notes, messages = graded
    assert rows["mixed"]["total"] == 3
    assert "not a notebook" in " ".join(n["why"] for n in notes if n["file"] == "essay.txt")
    assert "no lesson of this course" in " ".join(n["why"] for n in notes if n["file"] == "stats_hw.ipynb")
    assert any("essay.txt" in m for m in messages)
    # lesson 00 is the course's own map (no exercise): neither graded nor reported as a stranger
    assert not [n for n in notes if n["file"] == "00_start_here.ipynb"]
    assert not [m for m in messages if "00_start_here" in m]


def test_empty_folder_and_missing_folder_say_what_to_do(tmp_path):
    (tmp_path / "empty").mkdir()
    for target, words in ((tmp_path / "empty", "is empty"), (tmp_path / "nope", "is not one")):
        done = subprocess.run([sys.executable, "-m", "tools.grade", str(target), "--out", str(tmp_path / "g.csv")],
                              cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert not (tmp_path / "g.csv").exists()


def _fake_runs(monkeypatch, then=None) -> list:
    """Grading with no kernel: every exercise of a handed-in lesson scores 1 (`then(sub)` runs after each)."""
    ran = []

    def run_one(sub, exercises, **_kwargs):
        ran.append(sub.path.name)
        sub.scores.update({e.id: 1 for e in exercises})
        if then:
            then(sub)

    monkeypatch.setattr(grade, "run_one", run_one)
    return ran


def test_the_out_folder_is_made_before_grading_and_a_bad_out_is_refused_at_once(tmp_path, monkeypatch):
    """`--out DIR/gradebook.csv` with no DIR yet: DIR is made first (not a crash after hours of grading); an --out
    that cannot be written is refused before any notebook runs, naming --out; and a folder that goes away while
    grading still leaves the gradebook somewhere, named in the message."""
    _write(tmp_path / "subs" / "sol" / "01_loss_geometry.ipynb", json.loads(SOLUTIONS.read_text(encoding="utf-8")))
    ran = _fake_runs(monkeypatch)
    out = tmp_path / "new" / "deeper" / "gradebook.csv"
    rows = grade.grade(tmp_path / "subs", out, log=lambda _m: None)
    assert rows[0]["total"] == 3 and out.is_file() and (out.parent / "gradebook-notes.csv").is_file()
    (tmp_path / "afile").write_text("not a folder", encoding="utf-8")
    ran.clear()
    with pytest.raises(grade.GradeError, match=r"--out .*afile/gradebook.csv: its folder .* cannot be made"):
        grade.grade(tmp_path / "subs", tmp_path / "afile" / "gradebook.csv", log=lambda _m: None)
    with pytest.raises(grade.GradeError, match="--out .* is a folder: give a file name"):
        grade.grade(tmp_path / "subs", tmp_path / "new", log=lambda _m: None)
    assert ran == [], "refused before grading"
    done = subprocess.run([sys.executable, "-m", "tools.grade", str(tmp_path / "subs"), "--out",
                           str(tmp_path / "afile" / "gradebook.csv")], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "--out" in done.stderr and "grading" not in done.stdout, (done.stdout, done.stderr)

    def vanish(_sub):  # the out folder is removed while grading, and a file takes its place
        shutil.rmtree(tmp_path / "gone")
        (tmp_path / "gone").write_text("in the way", encoding="utf-8")

    _fake_runs(monkeypatch, vanish)
    with pytest.raises(grade.GradeError, match="saved in") as err:
        grade.grade(tmp_path / "subs", tmp_path / "gone" / "gradebook.csv", log=lambda _m: None)
    kept = Path(str(err.value).split("saved in ")[1].split(":")[0])
    assert next(csv.DictReader((kept / "gradebook.csv").open(encoding="utf-8")))["total"] == "3"


def test_a_lesson_not_handed_in_says_so_and_canvas_names_make_one_row_per_user(tmp_path, monkeypatch):
    """Canvas's download: NAME_USERID_SUBMISSIONID_FILE. Carol's two lessons come from two assignments (two
    submission ids): one row, her Canvas user id in column ID (what Canvas's import matches on). Dave's file
    carries one number, no Canvas name: his row is dave_789. A lesson a student did not hand in scores 0, and the
    notes say "not handed in" for each of its exercises (a wrong answer says what was wrong)."""
    lessons = {n: json.loads((ROOT / "notebooks" / n).read_text(encoding="utf-8"))
               for n in ("03_hyperplane_updates.ipynb", "05_kernel_lifting.ipynb")}  # fmt: skip
    subs = tmp_path / "subs"
    _write(subs / "carol_123_456_05_kernel_lifting.ipynb", lessons["05_kernel_lifting.ipynb"])
    _write(subs / "carol_LATE_123_789_03_hyperplane_updates-1.ipynb", lessons["03_hyperplane_updates.ipynb"])
    _write(subs / "dave_789_03_hyperplane_updates.ipynb", lessons["03_hyperplane_updates.ipynb"])
    start_here = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    _write(subs / "erin_55_66_00_start_here.ipynb", start_here)
    _fake_runs(monkeypatch)
    messages = []
    rows = grade.grade(subs, tmp_path / "g.csv", log=messages.append)
    table = list(csv.DictReader((tmp_path / "g.csv").open(encoding="utf-8")))
    assert list(table[0])[:2] == ["student", "ID"] and list(table[0])[-1] == "total"
    assert [(r["student"], r["ID"], r["total"]) for r in table] == [("carol", "123", "8"), ("dave_789", "", "4"),
                                                                     ("erin", "55", "0")], table  # fmt: skip
    assert len(rows) == 3
    notes = list(csv.DictReader((tmp_path / "g-notes.csv").open(encoding="utf-8")))
    dave = {n["exercise"]: n["why"] for n in notes if n["student"] == "dave_789"}
    assert sorted(dave) == ["5.1", "5.2", "5.3", "5.4"] and all(w.startswith("not handed in") for w in dave.values())
    erin = {n["exercise"]: (n["ID"], n["why"]) for n in notes if n["student"] == "erin"}
    assert len(erin) == 8 and {i for i, _ in erin.values()} == {"55"}
    assert not [n for n in notes if n["student"] == "carol"], "carol handed in both"
    assert not [m for m in messages if "00_start_here" in m and "no lesson" in m]


def test_identify_by_checks_not_by_name(tmp_path):
    course = grade.course_exercises()
    assert [e.id for e in course["01_loss_geometry.ipynb"]] == list(RIGHT)
    renamed = tmp_path / "whatever.ipynb"
    _write(renamed, _short_lesson(RIGHT))
    assert grade_submissions.identify(renamed, course) == ("01_loss_geometry.ipynb", "")
    other = tmp_path / "01_loss_geometry.ipynb"
    _write(other, {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    lesson, why = grade_submissions.identify(other, course)
    assert lesson is None and "another course" in why


# ---- Gradescope's autograder (tools/gradescope.py) ------------------------------------------------------


def test_gradescope_results_one_test_per_exercise_from_the_gradebook(graded):
    from tools import gradescope

    rows, _, notes, _ = graded
    mine = {s: [n for n in notes if n["student"] == s] for s in ("sol", "plain", "onewrong", "mixed")}
    sol = gradescope.results(list(RIGHT), rows["sol"], mine["sol"])
    assert [(t["number"], t["score"], t["max_score"], t["status"]) for t in sol["tests"]] == [
        (e, 1, 1, "passed") for e in RIGHT]
    assert sol["score"] == 3
    plain = gradescope.results(list(RIGHT), rows["plain"], mine["plain"])
    assert plain["score"] == 0 and all("not attempted" in t["output"] for t in plain["tests"])
    wrong = gradescope.results(list(RIGHT), rows["onewrong"], mine["onewrong"])
    assert [t["score"] for t in wrong["tests"]] == [1, 0, 1] and "not quite" in wrong["tests"][1]["output"]
    mixed = gradescope.results(list(RIGHT), rows["mixed"], mine["mixed"])
    assert "Skipped: essay.txt: not a notebook" in mixed["output"] and mixed["score"] == 3


def test_gradescope_autograder_on_the_solutions_and_the_plain_lesson(tmp_path):
    """`python -m tools.gradescope UPLOAD results.json`, as Gradescope's run_autograder calls it."""
    runs = {}
    for name, source in (("solutions", SOLUTIONS), ("plain", LESSON)):
        upload = tmp_path / name / "submission"
        _write(upload / source.name, json.loads(source.read_text(encoding="utf-8")))
        out = tmp_path / name / "results" / "results.json"
        runs[name] = (out, subprocess.Popen([sys.executable, "-m", "tools.gradescope", str(upload), str(out),
                                             "--lessons", "01"], cwd=ROOT, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True))  # fmt: skip
    got = {}
    for name, (out, proc) in runs.items():
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        got[name] = json.loads(out.read_text(encoding="utf-8"))
    assert [(t["number"], t["score"]) for t in got["solutions"]["tests"]] == [(e, 1) for e in RIGHT]
    assert got["solutions"]["score"] == 3 and "3 of 3 exercises correct" in got["solutions"]["output"]
    assert [(t["number"], t["score"]) for t in got["plain"]["tests"]] == [(e, 0) for e in RIGHT]
    assert got["plain"]["score"] == 0 and all("not attempted" in t["output"] for t in got["plain"]["tests"])


def test_gradescope_upload_without_a_lesson_still_gets_results(tmp_path):
    from tools import gradescope

    (tmp_path / "empty").mkdir()
    found = gradescope.grade_upload(tmp_path / "empty", tmp_path / "r1.json", lessons=["01"], log=lambda _m: None)
    assert [(t["number"], t["score"]) for t in found["tests"]] == [(e, 0) for e in RIGHT]
    assert json.loads((tmp_path / "r1.json").read_text()) == found
    (tmp_path / "essay").mkdir()
    (tmp_path / "essay" / "answers.txt").write_text("in my head", encoding="utf-8")
    found = gradescope.grade_upload(tmp_path / "essay", tmp_path / "r2.json", log=lambda _m: None)
    assert found["score"] == 0 and "Nothing to grade" in found["output"] and "Upload your lesson" in found["output"]
    with pytest.raises(grade.GradeError, match="--lessons 09: no such lesson"):
        gradescope.grade_upload(tmp_path / "empty", tmp_path / "r3.json", lessons=["09"])


def test_an_editor_answer_lost_in_the_fresh_run_says_why(tmp_path):
    """A check that read a BrowserEditor sees only the points the notebook's code placed: the note says so."""
    setup = ("from perceptron_lib import fit_perceptron\nfrom perceptron_lib.core import data\n"
             "from perceptron_lib.exercises import nb03\nfrom perceptron_lib.player import BrowserEditor\n"
             "X_own, y_own = data.small_2d()\n"
             "own = BrowserEditor(fit_perceptron(X_own, y_own), X_own, y_own)")  # fmt: skip
    cells = [{"cell_type": "code", "source": src, "metadata": {"tags": tags}, "outputs": [], "execution_count": None}
             for src, tags in ((setup, []), ("nb03.check_many_updates(own)", ["exercise-check"]))]  # fmt: skip
    _write(tmp_path / "subs" / "clicked" / "03_hyperplane_updates.ipynb",
           {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    rows = grade.grade(tmp_path / "subs", tmp_path / "g.csv", lessons=["03"], cell_timeout=CELL_TIMEOUT,
                       log=lambda _m: None)  # fmt: skip
    assert rows[0]["3.4"] == 0
    notes = list(csv.DictReader((tmp_path / "g-notes.csv").open(encoding="utf-8")))
    why = _why(notes, "clicked", "3.4")
    assert why.startswith("wrong: not quite") and "read a point editor" in why and "Copy points" in why, why


def test_progress_and_the_grader_agree_on_a_point_editor_exercise(tmp_path):
    """The same saved lesson 05 gets the same word from the progress table (its saved verdict) and from the grader
    (a run from the top), for 5.4 answered four ways: the editor with good points clicked in (right points, not
    handed in: clicks are not saved), Copy points' two lines pasted and given as (X, y) (correct), the editor
    untouched (the lesson's own 60 points) and the editor after Clear (no points yet)."""
    from perceptron_lib import fit_perceptron
    from perceptron_lib.core.kernels import lift
    from perceptron_lib.exercises import nb05
    from perceptron_lib.exercises.progress import course_progress
    from perceptron_lib.player import BrowserEditor

    setup = ("from perceptron_lib import fit_perceptron\nfrom perceptron_lib.core import data, kernels\n"
             "from perceptron_lib.exercises import nb05\nfrom perceptron_lib.player import BrowserEditor\n"
             "X, y = data.circles(60, r_inner=1.0, r_outer=2.0, noise=0.15, seed=0)\n"
             "own = BrowserEditor(fit_perceptron(kernels.lift(X), y), X, y, lift=kernels.lift)")  # fmt: skip
    disc = ([[0, 0], [0.3, 0], [-0.2, 0.2], [2, 0], [-2, 0], [0, 2], [0, -2]], [-1, -1, -1, 1, 1, 1, 1])

    def session(edit):  # the student's live editor, after their clicks
        X, y = nb05.own_start()
        live = BrowserEditor(fit_perceptron(lift(X), y), X, y, lift=lift)
        edit(live)
        return live

    clicked = session(lambda ed: ed.load(*disc))
    cases = {"clicked": ("nb05.check_circle_needed(own)", clicked),
             "pasted": (clicked.literal + "\nnb05.check_circle_needed((X, y))", None),
             "untouched": ("nb05.check_circle_needed(own)", session(lambda ed: None)),
             "cleared": ("nb05.check_circle_needed(own)", session(lambda ed: setattr(ed, "points", [[], []])))}
    for student, (source, live) in cases.items():
        namespace = {"nb05": nb05, "own": live}
        *pasted, call = source.splitlines()  # the cell as the student ran it, its verdict saved with the notebook
        exec("\n".join(pasted), namespace)  # noqa: S102
        said = eval(call, namespace)  # noqa: S307
        cells = [{"cell_type": "code", "source": setup, "metadata": {}, "outputs": [], "execution_count": 1},
                 {"cell_type": "code", "source": source, "metadata": {"tags": ["exercise-check"]},
                  "execution_count": 2, "outputs": [{"output_type": "display_data", "metadata": {},
                                                     "data": {"text/plain": repr(said)}}]}]  # fmt: skip
        _write(tmp_path / "subs" / student / "05_kernel_lifting.ipynb",
               {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    rows = grade.grade(tmp_path / "subs", tmp_path / "g.csv", lessons=["05"], cell_timeout=CELL_TIMEOUT,
                       log=lambda _m: None)  # fmt: skip
    scores = {row["student"]: row["5.4"] for row in rows}
    shown = {student: dict((ex.id, s) for ex, s in course_progress(tmp_path / "subs" / student))["5.4"]
             for student in cases}
    assert shown == {"clicked": "not handed in", "pasted": "correct", "untouched": "attempted", "cleared": "attempted"}
    assert scores == {"clicked": 0, "pasted": 1, "untouched": 0, "cleared": 0}
    assert all((shown[s] == "correct") == (scores[s] == 1) for s in cases)
    notes = list(csv.DictReader((tmp_path / "g-notes.csv").open(encoding="utf-8")))
    for student in ("clicked", "untouched", "cleared"):  # in the grader's run the editor holds the lesson's points
        why = _why(notes, student, "5.4")
        assert "these are the lesson's 60 points: press Clear" in why and "read a point editor" in why, why
