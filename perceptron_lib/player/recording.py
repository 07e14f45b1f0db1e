"""What a player or live figure leaves in a notebook: a still picture, and on request a recording.

Display contract (`Shown._repr_mimebundle_`), shared by the browser widgets (`ShownWidget`) and `LiveFigure`:

* ``application/vnd.jupyter.widget-view+json``: the live widget (needs a kernel);
* ``text/plain``: a short repr with no memory address (stable under nbval);
* ``image/png``: the current picture, small (palette PNG at CSS size), with output metadata
  ``{"image/png": {"width": W, "height": H, "alt": "<one sentence>"}}`` in CSS pixels, so a
  notebook viewer without a kernel shows the last picture with its alt text;
* ``text/html`` only when the kernel's environment has ``PERCEPTRON_COURSE_RECORD=1``: a
  self-contained recording of the run(s) (`recording_page`): frames as ``data:`` PNGs, no network,
  labelled keyboard-usable controls, alt text on every frame, at most about 2 MB per player.
  ``make site`` and ``make slides`` export with it set.

`AnimationHTML` is that recording as an object (``player.to_html()``); `fold` puts recordings in a
closed ``<details>`` block.
"""

from __future__ import annotations

import hashlib
import html as _html
import json
import os

__all__ = ["Shown", "ShownWidget", "AnimationHTML", "Folded", "fold", "recording_page", "scene_still",
           "scene_recording", "RECORD_ENV", "NO_KERNEL_SUMMARY"]

#: Environment variable that makes displayed players carry a ``text/html`` recording.
RECORD_ENV = "PERCEPTRON_COURSE_RECORD"

NO_KERNEL_SUMMARY = "No kernel? Step through the recorded run"


def recording_wanted() -> bool:
    return os.environ.get(RECORD_ENV, "") not in ("", "0")


class Shown:
    """Display as ``self.widget`` plus a still picture (and a recording when asked for).

    Subclasses define ``widget``, ``__repr__``, ``snapshot() -> (png, width, height, alt)`` and
    ``recording() -> str`` (HTML).
    """

    def _repr_mimebundle_(self, **kwargs):
        data = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):  # (data, metadata)
            data = data[0]
        data = dict(data or {})
        data["text/plain"] = repr(self)
        png, width, height, alt = self.snapshot()
        data["image/png"] = png
        meta = {"image/png": {"width": int(width), "height": int(height), "alt": alt}}
        if recording_wanted():
            data["text/html"] = self.recording()
        return data, meta


class AnimationHTML:
    """A recording (`recording_page`) that a notebook displays as HTML."""

    def __init__(self, html: str, frames: list, dpi: float):
        self.data = html
        self.frames = list(frames)
        self.dpi = dpi
        self.nbytes = len(html.encode("utf-8"))

    def _repr_html_(self):
        return self.data

    def __repr__(self):
        return f"<AnimationHTML: {len(self.frames)} frames, {self.nbytes / 1e6:.2f} MB>"


class Folded:
    """Recordings folded into a closed ``<details>`` block (one per run, titled)."""

    def __init__(self, summary: str, parts):
        self.summary = str(summary)
        self.parts = [p if isinstance(p, tuple) else ("", p) for p in parts]
        for _title, anim in self.parts:
            if not hasattr(anim, "_repr_html_"):
                raise TypeError(f"fold needs recordings from a player's to_html(); got {type(anim).__name__}.")

    @property
    def nbytes(self) -> int:
        return len(self._repr_html_().encode("utf-8"))

    def _repr_html_(self):
        body = "".join((f"<h4>{_html.escape(t)}</h4>" if t else "") + a._repr_html_() for t, a in self.parts)
        return f'<details class="perceptron-fallback"><summary>{_html.escape(self.summary)}</summary>{body}</details>'

    def __repr__(self):
        return f"<Folded: {len(self.parts)} animation(s) under {self.summary!r}>"


def fold(summary: str, *parts) -> Folded:
    """Fold recordings (``player.to_html()``, or ``(title, recording)`` pairs) under `summary`.

    Examples
    --------
    >>> anim = AnimationHTML("<div>frames</div>", [0, 1], 72)
    >>> fold("No kernel?", ("run A", anim))._repr_html_()
    '<details class="perceptron-fallback"><summary>No kernel?</summary><h4>run A</h4><div>frames</div></details>'
    """
    return Folded(summary, parts)


_SCRIPT = """(function(){var s=document.currentScript,r=s&&s.parentNode;
if(!r||r.id!==%(id)s)r=document.getElementById(%(id)s);if(!r||r.dataset.ready)return;r.dataset.ready=1;
var F=JSON.parse(r.querySelector('script[type="application/json"]').textContent),k=0,t=null,
img=r.querySelector('img'),out=r.querySelector('.rec-readout'),rng=r.querySelector('input'),
pb=r.querySelector('[data-act=play]');
function show(j){k=Math.max(0,Math.min(F.length-1,j));img.src='data:image/png;base64,'+F[k][0];img.alt=F[k][1];
out.textContent=F[k][2];rng.value=k;rng.setAttribute('aria-valuetext',F[k][2].split('\\n')[0]);}
function stop(){if(t){clearInterval(t);t=null;pb.textContent='Play';pb.setAttribute('aria-pressed','false');}}
function play(){if(t){stop();return;}if(k>=F.length-1)show(0);pb.textContent='Pause';
pb.setAttribute('aria-pressed','true');
t=setInterval(function(){if(k>=F.length-1)stop();else show(k+1);},%(ms)d);}
var A={first:function(){stop();show(0);},back:function(){show(k-1);},step:function(){show(k+1);},
last:function(){stop();show(F.length-1);},play:play};
var box=out.parentNode,seen={};F.forEach(function(f){if(seen[f[2]])return;seen[f[2]]=1;
var d=document.createElement('div');d.className='rec-readout-sizer';d.setAttribute('aria-hidden','true');
d.style.cssText='grid-area:1/1;visibility:hidden;white-space:pre-line';d.textContent=f[2];box.appendChild(d);});
r.querySelectorAll('button').forEach(function(b){b.addEventListener('click',function(){A[b.dataset.act]();});});
rng.addEventListener('input',function(){show(+rng.value);});
r.addEventListener('keydown',function(e){
var m={ArrowRight:'step',ArrowLeft:'back',Home:'first',End:'last',' ':'play'}[e.key];
if(!m||e.target.tagName==='BUTTON'&&e.key===' ')return;e.preventDefault();e.stopPropagation();A[m]();},true);
show(0);})();"""


def recording_page(frames, *, interval_ms=500, label="recorded run") -> str:
    """A self-contained HTML player of recorded frames: ``frames`` is a list of
    ``(png_base64, alt_text, readout_text)``; buttons and a labelled range input, keys
    (arrows, Home/End, space), no network. The element id is a hash of the content, so the same
    frames give the same page; the script drives the recording it stands in (``document.currentScript``), so
    two recordings of the same frames on one page each step their own picture.

    The readout stands beside the picture where the page is wide enough (a 1280 px slide), under
    it where not. Its box is as tall as the tallest frame's readout from the start (the script
    stacks every frame's text, hidden, in the same grid cell), so stepping never makes the
    recording taller: a slide fitted to its first frame fits every frame."""
    payload = json.dumps([list(f) for f in frames], ensure_ascii=True)
    uid = "rec-" + hashlib.sha1(payload.encode()).hexdigest()[:12]
    n = len(frames)
    lab = _html.escape(label)
    buttons = "".join(f'<button type="button" data-act="{a}" aria-label="{t}">{t}</button>'
                      for a, t in (("first", "Start"), ("back", "Back"), ("step", "Step"), ("last", "End"),
                                   ("play", "Play")))
    safe = payload.replace("</", "<\\/")  # no "</script>" inside the data
    script = _SCRIPT % {"id": json.dumps(uid), "ms": int(interval_ms)}
    return (f'<div class="perceptron-recording" id="{uid}" role="group" aria-label="{lab}: {n} frames" tabindex="0">'
            f'<div>{buttons} <label>frame <input type="range" min="0" max="{n - 1}" value="0" '
            f'aria-label="frame of the {lab}"></label></div>'
            f'<div class="rec-view" style="display:flex;flex-wrap:wrap;align-items:flex-start;gap:0 1.5em">'
            f'<img style="max-width:100%;height:auto;min-width:0" alt="{_html.escape(frames[0][1])}" '
            f'src="data:image/png;base64,{frames[0][0]}">'
            f'<div class="rec-readout-box" style="display:grid;flex:1 1 16em">'
            f'<div class="rec-readout" aria-live="polite" style="grid-area:1/1;white-space:pre-line">'
            f'{_html.escape(frames[0][2])}</div></div></div>'
            f'<script type="application/json">{safe}</script>'
            f'<script>{script}</script></div>')


class ShownWidget(Shown):
    """`Shown` for a widget that is its own view (the anywidget players): put it first in the bases, before the
    widget class, whose own ``_repr_mimebundle_`` then gives the widget view of the bundle."""

    @property
    def widget(self):
        return _OwnView(self)


class _OwnView:
    """The widget view of a `ShownWidget`: the bundle of the class after `Shown` in the widget's bases."""

    def __init__(self, widget):
        self._widget = widget

    def _repr_mimebundle_(self, **kwargs):
        return super(Shown, self._widget)._repr_mimebundle_(**kwargs)


def scene_still(scene, style, alt: str) -> tuple:
    """(png, width, height, alt) of a `render.Scene` as it stands, small (palette PNG at its CSS size), for a
    stored notebook: what `Shown` puts in the ``image/png`` output."""
    from .render import css_size, small_png

    w, h = css_size(scene.fig, style)
    rgba = scene.rgba()
    return small_png(rgba, scale=w / rgba.shape[1]), w, h, alt


def scene_recording(scene, K: int, words, *, back_to: int, dpi: float, scene_dpi: float, interval_ms: int,
                    max_frames: int = 40, max_bytes: int = 2_000_000) -> AnimationHTML:
    """A run drawn by `scene` as a self-contained recording (`recording_page`).

    ``words(k) -> (alt, readout_text)`` gives each frame's words. At most `max_frames` frames evenly subsampled
    over 0..K (both ends), drawn by the scene (at `scene_dpi`) and scaled to `dpi`; fewer if needed to stay under
    `max_bytes`.
    The scene is drawn at step `back_to` afterwards (the picture on show is unchanged).
    """
    import base64

    import numpy as np

    from .render import small_png

    cache, scale = {}, float(dpi) / float(scene_dpi)

    def frame(k):
        if k not in cache:
            scene.draw(k)
            png = base64.b64encode(small_png(scene.rgba(), scale=scale)).decode("ascii")
            cache[k] = (png, *words(k))
        return cache[k]

    def pick(m):
        return sorted(set(np.linspace(0, K, num=max(2, min(m, K + 1))).round().astype(int).tolist()))

    try:
        per = max(len(frame(0)[0]), len(frame(K)[0])) + 600
        frames = pick(min(max(2, int(max_frames)), max(2, int(0.95 * (max_bytes - 8000) / per))))
        page = recording_page([frame(k) for k in frames], interval_ms=interval_ms)
        while len(frames) > 2 and len(page.encode()) > max_bytes:
            frames = pick(len(frames) - 1)
            page = recording_page([frame(k) for k in frames], interval_ms=interval_ms)
    finally:
        scene.draw(back_to)
    return AnimationHTML(page, frames, dpi)
