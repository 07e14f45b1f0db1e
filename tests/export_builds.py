"""The builds the instructor and accessibility tests share: each made once per test session.

`built(kind, style, base)` runs ``make site`` (kind "site") or ``make slides`` (kind "slides")
in the given style ("saved": the stored outputs, no kernel; "lecture" / "notebook": every lesson
re-run in a fresh kernel in that preset, as ``make slides`` does) into ``base/<kind>_<style>``
and returns the build's summary. The lecture decks take a minute or two (five kernels).
"""

from __future__ import annotations

import functools
from pathlib import Path

from tools import build_site, build_slides
from tools import course_export as ce


@functools.cache
def built(kind: str, style: str, base: str) -> dict:
    out = Path(base) / f"{kind}_{style}"
    if kind == "site":
        return build_site.build(out, ce.NOTEBOOKS, style=style)
    if kind == "slides":
        return build_slides.build(out, ce.NOTEBOOKS, style=style)
    raise ValueError(f"kind must be 'site' or 'slides'; got {kind!r} instead.")
