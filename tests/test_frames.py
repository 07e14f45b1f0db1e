"""Every live figure and the first and last frame of every player's still, in both presets, rendered and checked.

Each lesson runs in a fresh kernel (``COURSE_STYLE`` = the preset), then `frame_checks.report` saves
the frames to ``tests/artifacts/frames/<preset>/<lesson>/`` and measures them in display space (a browser
widget's still is the matplotlib drawing its saved output keeps for GitHub and nbviewer):

* nothing drawn in an axes (points, arrows, notes) leaves that axes;
* no line, arrow or point crosses a note (a text in the axes, or its legend);
* no text of the picture is cut by its edge;
* the smallest text is at least 11 CSS px (notebook) or 18 CSS px (lecture) when the picture is shown
  at 0.9 of its size (the least the browser test allows);
* the picture's CSS size fits the room a 1440x900 JupyterLab gives it (`render.MAX_CSS`);
* a still's frame at k is the same bytes whatever the path to k: as first shown, after Step from 0, after
  Back from K, after a jump (`frame_checks.path_differences`, #34);
* a still's alt text says what each of its panels shows, not only the data panel (each panel's name).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from perceptron_lib.player.render import MAX_CSS
from tools import course_export as ce

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts" / "frames"
LESSONS = [p.name for p in ce.lessons()]
SMALLEST_CSS_PX = {"notebook": 11.0, "lecture": 18.0}
LEAST_SCALE = 0.9


def frames_of(nb_name: str, preset: str) -> dict:
    nb = nbformat.read(REPO / "notebooks" / nb_name, as_version=4)
    out = ARTIFACTS / preset / nb_name[:2]
    nb.cells.append(nbformat.v4.new_code_cell(f"import frame_checks\nprint(frame_checks.report({str(out)!r}))"))
    # the kernel finds the measuring module through its environment, like any installed module
    path = os.pathsep.join(p for p in (str(REPO / "tests"), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "COURSE_STYLE": preset, "MPLBACKEND": "Agg", "PYTHONPATH": path}
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(REPO / "notebooks")}}).execute(env=env)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    return json.loads(text.strip().splitlines()[-1])


@pytest.mark.parametrize("preset", ["notebook", "lecture"])
@pytest.mark.parametrize("nb", LESSONS)
def test_frames(nb, preset):
    seen = frames_of(nb, preset)
    found = seen["frames"]
    assert found, f"{nb}: no player or live figure found"
    wrong = []
    for f in found:
        where = f"{nb} [{preset}] {f['name']} ({f['repr']})"
        wrong += [f"{where}: {x}" for x in f["leaves"] + f["crosses"] + f["cut"] + f.get("paths", [])]
        wrong += [f"{where}: the still's alt text does not say {name!r}"
                  for name in f["panels"] if name not in f["alt"]]
        shown = f["smallest_pt"] * f["px_per_pt"] * LEAST_SCALE
        if shown < SMALLEST_CSS_PX[preset] - 1e-9:
            wrong.append(f"{where}: smallest text {f['smallest_pt']} pt is {shown:.1f} CSS px at scale {LEAST_SCALE}")
        if f["css"][0] > MAX_CSS[0] or f["css"][1] > MAX_CSS[1]:
            wrong.append(f"{where}: picture {f['css']} CSS px is larger than {MAX_CSS}")
    assert not wrong, "\n".join(wrong)


class _Caption:
    """A panel that writes the step into a text and asks for a full draw at even steps; `moves` says whether
    `update` hands the text back as moving."""

    def __init__(self, moves):
        self.moves, self.redraw = moves, False

    def draw(self, ax, run, X, y):
        self.text = ax.text(0.5, 0.5, "", transform=ax.transAxes, ha="center")
        return []

    def update(self, k):
        self.text.set_text(f"step {k}" + "!" * k)
        self.redraw = k % 2 == 0
        return [self.text] if self.moves else []


@pytest.mark.parametrize("moves", [True, False])
def test_path_differences_finds_a_frame_that_depends_on_the_path(moves):
    """The check is not vacuous: a panel that changes a text without handing it back leaves a stale background
    (the text of the step of the last full draw stays under the blits after it: at an odd k, the text of k - 1
    after Step and of k + 1 after Back), and the check names those steps."""
    import frame_checks
    import numpy as np

    from perceptron_lib import fit_perceptron
    from tests.drawn import Drawn

    X = np.array([[1.0, 1.0], [1.5, -0.5], [-1.0, -1.0], [-0.5, 1.5], [0.2, 0.1], [-0.1, -0.3]])
    y = np.array([1.0, 1.0, -1.0, -1.0, 1.0, -1.0])
    player = Drawn(fit_perceptron(X, y), X, y, data_panel=False, panels=[_Caption(moves)])
    assert player.K >= 3
    wrong = frame_checks.path_differences(player)
    assert (wrong == []) is moves, wrong
    if not moves:
        assert any("Back from" in w for w in wrong), wrong


def test_a_still_cuts_no_text_at_any_step():
    """The layout is made at the last step; a moving text longer at another step must still fit the picture.
    Lesson 02's methods switch in the lecture preset: at the start the data panel, narrow beside the loss map,
    says "w = 0: no boundary yet" over its top right corner, wider than the panel (it ran past the picture's
    left edge); at the end there is no such note."""
    import frame_checks
    import numpy as np

    from perceptron_lib import fit_batch
    from perceptron_lib.player.panels.loss_slice import ContourPathPanel
    from tests.drawn import Drawn

    X = np.array([[-3.0, 1.0], [-1.0, -2.0], [-3.0, 3.0], [1.0, -3.0], [1.0, 3.0], [-3.0, -3.0], [-1.0, 2.0],
                  [-1.0, 3.0]])
    y = np.array([-1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0])
    for preset in ("lecture", "notebook"):
        player = Drawn(fit_batch(X, y, eta=1.0, reduction="mean"), X, y, panels=[ContourPathPanel()], style=preset)
        notes = []
        for k in range(player.K + 1):
            player.seek(k)
            facts = frame_checks._check_scene(player, player.style.dpi / player.figure.dpi)
            assert facts["cut"] == [], (preset, k, facts["cut"])
            notes.append(player.panels[0].scale_text.get_text())
        assert "w = 0: no boundary yet" in notes[0]  # the note that ran out is there, and inside
