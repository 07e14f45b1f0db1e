"""Execute notebooks from a fresh kernel and save them as they ship.

    python tools/run_notebooks.py                      # every notebook and solutions notebook
    python tools/run_notebooks.py notebooks/03_*.ipynb # some of them

Each notebook runs top to bottom in a new kernel (as nbval will), is saved with its outputs,
and is cleaned of what varies from run to run or machine to machine: per-cell execution
timings, the stored widget state, and any notebook metadata other than the kernel spec and
language info. A cell that raises stops the run and names the notebook.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert.preprocessors import CoalesceStreamsPreprocessor

ROOT = Path(__file__).resolve().parents[1]
KEEP_NOTEBOOK_META = ("kernelspec", "language_info")
KEEP_CELL_META = ("slideshow", "tags", "speaker_notes")  # speaker_notes: tools/instructor_notes.py


def clean(nb) -> None:
    nb.metadata = nbformat.from_dict({k: nb.metadata[k] for k in KEEP_NOTEBOOK_META if k in nb.metadata})
    for cell in nb.cells:
        cell.metadata = nbformat.from_dict({k: cell.metadata[k] for k in KEEP_CELL_META if k in cell.metadata})


def run(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    # a print that the kernel flushed in two parts is one output, whatever the machine's timing
    nb, _ = CoalesceStreamsPreprocessor().preprocess(nb, {})
    clean(nb)
    nbformat.write(nb, path)


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("**/[0-9][0-9]_*.ipynb"))
    for path in paths:
        if ".ipynb_checkpoints" in path.parts:
            continue
        print(f"executing {path.relative_to(ROOT) if path.is_absolute() else path}", flush=True)
        run(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
