"""How long JupyterLab takes to show a lesson's first screen, before and after a change.

In headless Chromium at 1440x900, one JupyterLab server serves two copies of the lessons side by
side: ``before/`` (the notebooks at git ref ``--before``, by default the commit before the
recorded animations left the notebooks) and ``after/`` (the working tree). For each lesson and
each copy, the page opens the file with JupyterLab's own command (``docmanager:open``) and times,
inside the page, from the command to the first animation frame after the notebook's model is
loaded and its first cell is rendered: what the student sees first. The kernel's start is not
counted (the benchmark opens without one: it does not block the first screen). JupyterLab runs
with its own notebook settings, as a student's does (the browser tests turn windowing off).
Each is measured ``--repeat`` times in alternation; the medians are printed with the file sizes.

Run from the repository's root: ``.venv/bin/python -m benchmarks.open_time [--before REF] [--repeat 3]``
Needs ``/usr/bin/chromium`` (``apt-get install chromium``; never ``playwright install``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.browser_support import LAB_OVERRIDES, browser_missing_reason, jupyter_server, launch
from tools import course_export

REPO = Path(__file__).resolve().parents[1]
BEFORE_REF = "0787178"  # the lessons still stored every player's recorded animation

JS_OPEN = """async (path) => {
  const app = window.jupyterapp;
  const t0 = performance.now();
  const widget = await app.commands.execute('docmanager:open',
    {path, factory: 'Notebook', kernelPreference: {autoStartDefault: false, shouldStart: false}});
  await widget.context.ready;
  await widget.revealed;
  const first = () => widget.content.widgets.length && widget.content.widgets[0].node.offsetHeight > 0;
  while (!first()) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const ms = performance.now() - t0;
  await widget.context.sessionContext.shutdown().catch(() => {});
  widget.dispose();
  return ms;
}"""


def checkout(ref: str, dest: Path) -> None:
    """The lessons at git ref `ref`, written into `dest`."""
    dest.mkdir(parents=True)
    names = subprocess.run(["git", "ls-tree", "--name-only", ref, "notebooks/"], cwd=REPO, check=True,
                           capture_output=True, text=True).stdout.split()  # fmt: skip
    for name in names:
        if name.endswith(".ipynb"):
            blob = subprocess.run(["git", "show", f"{ref}:{name}"], cwd=REPO, check=True, capture_output=True).stdout
            (dest / Path(name).name).write_bytes(blob)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default=BEFORE_REF, help=f"git ref of the 'before' lessons (default {BEFORE_REF})")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    missing = browser_missing_reason()
    if missing:
        print(missing, file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    root = Path(tempfile.mkdtemp(prefix="open-time-"))
    checkout(args.before, root / "before")
    (root / "after").mkdir()
    for nb in course_export.lessons(REPO / "notebooks"):
        (root / "after" / nb.name).write_bytes(nb.read_bytes())
    lessons = sorted(p.name for p in (root / "after").glob("*.ipynb") if (root / "before" / p.name).exists())
    times: dict[tuple[str, str], list[float]] = {}
    # JupyterLab's own notebook settings, as a student has them (the tests turn windowing off)
    student = {k: v for k, v in LAB_OVERRIDES.items() if k != "@jupyterlab/notebook-extension:tracker"}
    with jupyter_server(root, timeout=90, overrides=student) as srv, sync_playwright() as pw:
        browser = launch(pw)
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(f"{srv.url}lab?reset&token={srv.token}")
        page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-LabShell')", timeout=90_000)
        page.evaluate("() => window.jupyterapp.restored")  # JupyterLab's start-up (plugins, layout) is done
        for _ in range(args.repeat):
            for name in lessons:
                for side in ("before", "after"):
                    times.setdefault((name, side), []).append(page.evaluate(JS_OPEN, f"{side}/{name}"))
        browser.close()
    print(f"JupyterLab first screen of each lesson (median of {args.repeat}, ms), before = {args.before}, "
          "after = working tree")  # fmt: skip
    print(f"{'lesson':28} {'KB before':>9} {'KB after':>9} {'ms before':>9} {'ms after':>9} {'ratio':>6}")
    for name in lessons:
        kb = [(root / side / name).stat().st_size / 1e3 for side in ("before", "after")]
        ms = [statistics.median(times[(name, side)]) for side in ("before", "after")]
        print(f"{name:28} {kb[0]:9.0f} {kb[1]:9.0f} {ms[0]:9.0f} {ms[1]:9.0f} {ms[0] / ms[1]:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
