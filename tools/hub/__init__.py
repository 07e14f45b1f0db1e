"""`make hub`: the course served by JupyterHub to a class on one machine (README, "For instructors").

``setup`` installs the proxy (configurable-http-proxy, from npm, into ``.hub/node``) and creates the
system users; ``course`` copies the lessons into a student's home on the first login;
``jupyterhub_config.py`` is the hub's configuration. Run from the repository's root:
``python -m tools.hub.setup`` and ``python -m jupyterhub -f tools/hub/jupyterhub_config.py``.
"""
