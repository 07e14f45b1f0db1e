"""`make site AUDIENCE=instructor` (tools/build_site.py): its own folder, and a mark on every page.

The students' site is ``_site/``; the instructor's, with the solutions, is ``_site-instructor/`` and
says at the top of every page that it holds them, so it is not handed out by mistake.
"""

from __future__ import annotations

import re

import nbformat
import pytest

from tools import build_site


def _course(folder):
    for name in ["00_start_here", "03_hyperplane_updates", "solutions/03_hyperplane_updates_solutions"]:
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_markdown_cell(f"# {name}\n\nSome prose.")]
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / f"{name}.ipynb")
    return folder


def test_each_audience_has_its_own_folder_and_the_instructors_pages_say_so(tmp_path, monkeypatch, capsys):
    nbs = _course(tmp_path / "notebooks")
    dirs = {"student": tmp_path / "_site", "instructor": tmp_path / "_site-instructor"}
    monkeypatch.setattr(build_site, "OUT_DIRS", dirs)
    assert build_site.main(["--notebooks", str(nbs), "--style", "saved"]) == 0
    assert build_site.main(["--notebooks", str(nbs), "--style", "saved", "--audience", "instructor"]) == 0
    students = sorted(p.relative_to(dirs["student"]).as_posix() for p in dirs["student"].rglob("*.html"))
    teacher = sorted(p.relative_to(dirs["instructor"]).as_posix() for p in dirs["instructor"].rglob("*.html"))
    assert students == ["00_start_here.html", "03_hyperplane_updates.html", "index.html"]
    assert teacher == [*students, "solutions/03_hyperplane_updates_solutions.html"]
    for page in teacher:
        text = (dirs["instructor"] / page).read_text()
        body = text[re.search(r"<body\b[^>]*>", text).end() :]
        assert body.lstrip().startswith(build_site.INSTRUCTOR_MARK), page
        assert text.count("course-instructor-mark") == 1, page
    for page in students:
        assert "course-instructor-mark" not in (dirs["student"] / page).read_text(), page
    # the instructor's build refuses the students' folder, and leaves it as it was
    before = (dirs["student"] / "index.html").read_text()
    with pytest.raises(SystemExit):
        build_site.main(["--notebooks", str(nbs), "--style", "saved", "--audience", "instructor",
                         "--out", str(dirs["student"])])  # fmt: skip
    assert "the students' folder" in capsys.readouterr().err
    assert (dirs["student"] / "index.html").read_text() == before
    assert not (dirs["student"] / "solutions").exists()


def test_a_page_without_a_body_cannot_be_marked():
    with pytest.raises(ValueError, match="without a <body> tag"):
        build_site.mark_for_instructor("<html></html>")
