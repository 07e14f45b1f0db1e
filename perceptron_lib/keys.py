"""The browser side of a player: keyboard, labels, alt text, and the picture's CSS size (`picture_layout`).

ipywidgets offers no key events and no alt text on an ``Image``. A player therefore carries a small
``HTML`` widget (`hook_html`) whose hidden image fails to load on purpose; its ``onerror`` runs
`_JS` in the page, which

* gives the player's root element focus (``tabindex=0``), a group role and a label, and marks it
  ``data-lm-suppress-shortcuts`` so JupyterLab's own shortcuts leave its keys alone;
* maps keys, caught before the slider sees them: ←/→ click Back/Step, Home/End click Reset/End,
  space clicks the Play widget's play/pause button. The kernel sees ordinary clicks;
* labels the Play widget's icon-only buttons and each slider's handle (with its description);
* (players and live figures) copies the current alt sentence onto the picture's ``<img alt>``; it
  runs again at every step, because the hook's HTML is rewritten with the new sentence.

A key whose button is still disabled (the kernel's answer to the previous key has not arrived)
is retried for a few hundred ms, so End then Home pressed quickly both land.

Without a front end (tests, nbval) nothing here runs; the kernel side is the same.
"""

from __future__ import annotations

import html as _html

__all__ = ["hook_html", "readout_html", "picture_layout", "KEY_HELP", "VIEW_RESERVE"]

KEY_HELP = "Keys (click the player first): ← → step, Home / End go to the ends, space plays and pauses."

_JS = """(function(el){var root=el.closest('.perceptron-stepthrough,.perceptron-livefigure');if(!root)return;
var alt=el.parentNode.querySelector('.perceptron-alt');var img=root.querySelector('img.widget-image');
if(img&&alt){img.alt=alt.textContent;}
var ro=root.querySelector('.perceptron-readout');if(ro){ro.setAttribute('aria-live','polite');}
var pb=root.querySelectorAll('.widget-play button');var names=['play / pause','stop (back to the start)','repeat'];
pb.forEach(function(b,i){b.setAttribute('aria-label',names[i]||'play control');});
root.querySelectorAll('.widget-slider').forEach(function(w){var l=w.querySelector('.widget-label');
var h=w.querySelector('.noUi-handle');
if(h&&l&&l.textContent.trim())h.setAttribute('aria-label',l.textContent.trim());});
if(root.dataset.pkeys||!root.classList.contains('perceptron-stepthrough'))return;root.dataset.pkeys='1';
root.tabIndex=0;root.setAttribute('role','group');root.setAttribute('data-lm-suppress-shortcuts','true');
root.setAttribute('aria-label','step-through player: left and right arrows step, '
+'Home and End go to the ends, space plays and pauses');
function btn(t){var bs=root.querySelectorAll('button');
for(var i=0;i<bs.length;i++){if(bs[i].textContent.trim()===t)return bs[i];}return null;}
root.addEventListener('keydown',function(e){if(e.altKey||e.ctrlKey||e.metaKey)return;
var t=e.target;if(t&&(t.tagName==='INPUT'||t.tagName==='TEXTAREA'||t.isContentEditable)&&t.type!=='range')return;
var b=null;if(e.key==='ArrowRight')b=btn('Step');else if(e.key==='ArrowLeft')b=btn('Back');
else if(e.key==='Home')b=btn('Reset');else if(e.key==='End')b=btn('End');
else if(e.key===' '){if(t&&t.tagName==='BUTTON')return;b=root.querySelector('.widget-play button');}
else return;e.preventDefault();e.stopPropagation();press(b,6);},true);
function press(b,n){if(!b)return;if(!b.disabled){b.click();return;}
if(n>0)setTimeout(function(){press(b,n-1);},60);}
})(this)"""


def hook_html(alt: str, *, keys: bool = True) -> str:
    """The hook's HTML for the current picture: the alt sentence, the key help (a player's) and the script."""
    helptext = (f'<span class="perceptron-keyhelp" style="font-size:0.85em;color:#444">{_html.escape(KEY_HELP)}</span>'
                if keys else "")
    return (f'<span class="perceptron-alt" hidden>{_html.escape(alt)}</span>{helptext}'
            f'<img src="data:image/png;base64," alt="" hidden onerror="{_html.escape(_JS, quote=True)}">')


def readout_html(lines) -> str:
    """The readout: the first line bold (the headline), the others in tabular figures."""
    lines = list(lines)
    head, rest = (lines[0], lines[1:]) if lines else ("", [])
    body = "<br>".join(_html.escape(s) for s in rest)
    return (f'<div style="font-size:1.05em;line-height:1.45"><b>{_html.escape(head)}</b><br>'
            f'<span style="font-variant-numeric:tabular-nums">{body}</span></div>')


#: Room kept under the picture's top edge for the rest of one view (CSS): controls above it and the
#: readout's first line below it, plus the notebook's own bars.
VIEW_RESERVE = "250px"


def picture_layout(width, height):
    """The Image's layout: never wider than its CSS size, never taller than the view allows."""
    import ipywidgets as widgets

    return widgets.Layout(width="auto", height="auto", max_width=f"min(100%, {width}px)",
                          max_height=f"min({height}px, calc(100vh - {VIEW_RESERVE}))", object_fit="contain",
                          flex="0 1 auto")
