"""`make lab` starts out of deck mode: ``python -m tools.lab_settings`` (the Makefile runs it first).

jupyterlab-slideshow keeps whether a deck is on in the user's JupyterLab settings (the ``active`` key
of ``jupyterlab-slideshow:plugin``, default false), and starts the next session in deck mode when a
deck was still on as the last one ended. A settings override cannot help: overrides only set defaults,
and the user's setting wins. So before JupyterLab starts, this removes that one key from the user
settings JupyterLab is about to read (``JUPYTERLAB_SETTINGS_DIR``, else ``~/.jupyter/lab/user-settings``,
as JupyterLab resolves it), through JupyterLab's own settings functions (jupyterlab_server: the same
files, checked against the extension's schema). Every other setting, the extension's included, stays.
The lecture session (`make lecture`) needs none of this: it runs with its own, temporary settings.
"""

from __future__ import annotations

import argparse
import json
import os

import json5
from jupyter_core.paths import jupyter_path
from jupyterlab.commands import get_app_dir, get_user_settings_dir
from jupyterlab_server.settings_utils import get_settings, save_settings
from tornado.web import HTTPError

#: jupyterlab-slideshow's settings: its schema (``plugin.json`` in its labextension) has ``active``.
DECK_PLUGIN = "jupyterlab-slideshow:plugin"
DECK_KEY = "active"


def end_deck_mode(settings_dir: str | os.PathLike | None = None) -> bool:
    """Remove ``active`` from jupyterlab-slideshow's user settings in `settings_dir` (default: the
    directory JupyterLab would use). Returns whether there was one to remove; a settings file without
    the key is not rewritten, nor is one JupyterLab cannot read (it ignores it too), nor anything when
    jupyterlab-slideshow is not installed."""
    settings_dir = os.fspath(settings_dir) if settings_dir is not None else get_user_settings_dir()
    app_dir = get_app_dir()
    schemas_dir = os.path.join(app_dir, "schemas")
    labextensions = jupyter_path("labextensions")
    overrides: dict = {}
    try:
        found, _warnings = get_settings(
            os.path.join(app_dir, "settings"), schemas_dir, settings_dir, DECK_PLUGIN,
            overrides=overrides, labextensions_path=labextensions,
        )  # fmt: skip
    except HTTPError:  # no such extension (404), or a settings file that is not JSON5 (500)
        return False
    user = json5.loads(found.get("raw") or "{}")
    if DECK_KEY not in user:
        return False
    del user[DECK_KEY]
    save_settings(schemas_dir, settings_dir, DECK_PLUGIN, json.dumps(user, indent=4), overrides, labextensions)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--settings-dir", help="JupyterLab's user settings directory (default: as JupyterLab finds it)")
    args = parser.parse_args(argv)
    if end_deck_mode(args.settings_dir):
        print("==> make lab: a deck was left on in the last session; this session starts out of deck mode")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
