"""`make hub` for a class on one machine: real logins, one system user per student, kept apart.

The module starts the hub of ``tools/hub/jupyterhub_config.py`` (PAM logins, LocalProcessSpawner)
with its state in a temporary folder, on free ports of 127.0.0.1, after the same set-up as
``make hub-setup`` (``tools.hub.setup``: configurable-http-proxy from npm into ``.hub/node``, the
students' venv ``.hub/venv``, the users). Its users are three students and an instructor made for
the test (``pc-test-a``, ``-b``, ``-c``, ``pc-test-inst``), removed with their homes at the end.

* Each of the four logs in through the real login page in Chromium; each student opens lesson 03,
  runs it and steps its player (the readout changes).
* The first login copied the lessons, not the solutions (the instructor has them).
* Student A gets nothing of B's: not B's server, files or kernels by HTTP (A's cookies and A's
  token), not B's files or processes from A's kernel (permission denied).
* The instructor (admin) lists who is running through the REST API; a student may not.
* A student's kernel killed (as the out-of-memory killer would) does not stop another stepping.
* A stopped and restarted server, and a restarted hub, lose no saved notebook.
* The instructor's commands (tools/hub/classroom.py): ``make hub-release`` merges a corrected lesson into
  every copy at once (and makes the copy of a student who never logged in, saying so); two students answer
  exercise 1.2 (one right, one wrong), ``make hub-collect`` and ``make hub-grade`` give a gradebook with their
  rows (1 and 0), and a student reads neither another's copy nor any submission, from the kernel or through the
  contents API. A second hub on the first one's API port stops at once and names a free one.

Needs root (system users), npm (the proxy) and Chromium. Without them the module skips, or fails
under COURSE_REQUIRE_BROWSER=1 (CI). About two minutes on 2 cores, plus about a minute the first
time for the students' venv.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = [pytest.mark.browser, pytest.mark.hub]

STUDENTS = ["pc-test-a", "pc-test-b", "pc-test-c"]
INSTRUCTOR = "pc-test-inst"
LESSON = "perceptron-course/03_hyperplane_updates.ipynb"
TIMEOUT_MS = 240_000
ROOT = Path(__file__).resolve().parents[1]  # lesson 03 for three students at once on two cores


def _missing() -> str | None:
    if os.geteuid() != 0:
        return "the hub test creates system users: it needs root"
    if shutil.which("npm") is None and not _proxy_installed():
        return "npm is missing (apt-get install nodejs npm): the hub's proxy comes from npm"
    return None


def _proxy_installed() -> bool:
    from tools.hub.setup import PROXY_BIN

    return PROXY_BIN.exists()


def _remove_user(name: str) -> None:
    """Kill what runs as `name` (by pid), then remove the user and their home."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        return
    pids = subprocess.run(["ps", "-o", "pid=", "-u", name], capture_output=True, text=True).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass
    subprocess.run(["userdel", "--remove", name], capture_output=True)


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    reason = _missing()
    if reason:
        if os.environ.get("COURSE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"COURSE_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from tools.hub import setup
    from tools.hub.client import HubError, HubProcess, HubUser

    setup.install_proxy()
    setup.install_student_env()
    for name in [*STUDENTS, INSTRUCTOR]:
        _remove_user(name)  # a fresh home: the first login's copy is part of the test
    state = tmp_path_factory.mktemp("hub_state")
    passwords = setup.setup_class(STUDENTS, INSTRUCTOR, state_dir=state)
    # the lessons the hub publishes: a copy the test corrects; the releases in a folder every user may enter
    notebooks = tmp_path_factory.mktemp("hub_course") / "notebooks"
    shutil.copytree(ROOT / "notebooks", notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    releases = Path(tempfile.mkdtemp(prefix="perceptron-hub-test-"))
    releases.chmod(0o755)
    saved_env = {k: os.environ.get(k) for k in ("COURSE_HUB_NOTEBOOKS", "COURSE_HUB_RELEASE_DIR")}
    os.environ.update(COURSE_HUB_NOTEBOOKS=str(notebooks), COURSE_HUB_RELEASE_DIR=str(releases))
    hubp = HubProcess(state, secrets.token_hex(16)).start()
    monitor = HubUser(hubp.base, "course-monitor", hubp.service_token)
    info = {"hub": hubp, "passwords": passwords, "monitor": monitor, "pages": {}, "tokens": {},
            "notebooks": notebooks, "releases": releases, "state": state}  # fmt: skip
    yield info
    for key, value in saved_env.items():
        os.environ.pop(key) if value is None else os.environ.__setitem__(key, value)
    for page in info["pages"].values():
        page.context.close()
    running = hubp.proc is not None and hubp.proc.poll() is None  # the hub-clean test stops it first
    for name in [*STUDENTS, INSTRUCTOR] if running else []:  # as the monitor service, each until stopped
        with contextlib.suppress(HubError):
            HubUser(hubp.base, name, hubp.service_token).stop_server()
    hubp.stop()
    for name in [*STUDENTS, INSTRUCTOR]:
        _remove_user(name)
    shutil.rmtree(releases, ignore_errors=True)
    # pytest shows a teardown's output only when a test failed: the hub's own words on what went wrong (the whole
    # log is kept in tests/artifacts/hub/, git-ignored; the hub-clean test removes the state with the log)
    log = _keep_log(state)
    if log is not None:
        print(f"the hub's log ({log}), last 150 lines:\n"
              + "\n".join(log.read_text(errors="replace").splitlines()[-150:]))  # fmt: skip


def _keep_log(state: Path) -> Path | None:
    """A copy of the hub's log in tests/artifacts/hub/hub.log (the copy made before, if the state is gone)."""
    kept = ROOT / "tests" / "artifacts" / "hub" / "hub.log"
    if (state / "hub.log").is_file():
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(state / "hub.log", kept)
    return kept if kept.is_file() else None


def user(hub, name):
    """`name` acting with their own token (issued by the monitor service, once)."""
    from tools.hub.client import HubUser

    if name not in hub["tokens"]:
        hub["tokens"][name] = HubUser.with_new_token(hub["hub"].base, hub["hub"].service_token, name).token
    return HubUser(hub["hub"].base, name, hub["tokens"][name])


# ---- in the browser ---------------------------------------------------------------------------

JS_PROMPTS_DONE = """() => {
  const p = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')];
  const ind = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator');
  return p.length > 0 && p.every((x) => /^\\[\\d+\\]/.test(x.textContent.trim()))
         && (!ind || ind.getAttribute('data-status') === 'idle');
}"""


# The notebook `name` is the current tab (the hub's JupyterLab may first restore the lesson the
# student had open), and its kernel indicator reads idle and has not changed for `quiet` ms: the
# kernel's start-up chatter with JupyterLab (kernel info, the widget manager's comm info, the
# debugger's requests) is over. The hub's JupyterLab does not expose its app to the page: the tab
# and the indicator are what it shows. The observer follows the indicator found; a new one starts over.
JS_LESSON_SETTLED = """([name, quiet]) => {
  const tab = document.querySelector('.lm-DockPanel .lm-TabBar-tab.jp-mod-current .lm-TabBar-tabLabel');
  const ind = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator');
  if (!tab || tab.textContent.trim() !== name || !ind) return false;
  if (window.__courseIndicator !== ind) {
    window.__courseIndicator = ind;
    window.__courseLastChange = performance.now();
    new MutationObserver(() => { window.__courseLastChange = performance.now(); })
      .observe(ind, {attributes: true, attributeFilter: ['data-status']});
  }
  return ind.getAttribute('data-status') === 'idle' && performance.now() - window.__courseLastChange >= quiet;
}"""


def _login(chromium, hub, name):
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{hub['hub'].base}/hub/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", hub["passwords"][name])
    page.click("#login_submit")
    page.wait_for_url(f"**/user/{name}/lab/**", timeout=TIMEOUT_MS)
    return page


# The notebook on show (lesson 00, opened at login, stays in its hidden tab).
SHOWN = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# A player (BrowserPlayer, BrowserControlled: both draw in the browser): the lesson's first one.
PLAYER = ".perceptron-browserplayer"
READOUT = ".perceptron-readout, .pp-readout"


def _readout(player) -> str:
    return player.locator(READOUT).first.inner_text()


def _step(page, player) -> tuple[str, str]:
    before = _readout(player)
    player.locator("button").filter(has_text=re.compile(r"^\s*Step\s*$")).first.click()
    page.wait_for_function(f"([el, b]) => el.querySelector('{READOUT}').innerText !== b",
                           arg=[player.element_handle(), before], timeout=30_000)  # fmt: skip
    return before, _readout(player)


# Any code cell queued or run: its prompt reads [*] or [n].
JS_RUN_STARTED = """() => [...document.querySelectorAll(
  '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')]
  .some((x) => /^\\[[\\d*]+\\]/.test(x.textContent.trim()))"""


def _run_all(page, tries=3):
    """Run > Run All Cells, once its menu item is enabled, until a cell is queued. JupyterLab ignores the item while
    the session is still settling its kernel (seen in 2 of 4 hub runs under load: every prompt stayed blank and the
    saved notebook had 0 of 33 cells run); a student would press it again, and so does this."""
    for attempt in range(tries):
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        item = page.locator(".lm-Menu-item:not(.lm-mod-disabled)", has_text="Run All Cells").first
        item.wait_for(state="visible")
        item.click()
        try:
            page.wait_for_function(JS_RUN_STARTED, timeout=30_000, polling=200)
            return
        except PlaywrightTimeout:
            print(f"Run All queued no cell within 30 s (try {attempt + 1} of {tries})")
    pytest.fail(f"Run All queued no cell in {tries} tries")


def _open_lesson_03(page, hub, name):
    """Open lesson 03 as a student does, from the file browser of the JupyterLab the login opened. (Loading its URL
    instead reloads JupyterLab, whose restored workspace opened the lesson a second time: two sessions, one kernel
    shut down, and Run All ran 1 of 33 cells, for the second student in 4 of 6 hub runs.)"""
    assert f"/user/{name}/lab" in page.url, f"{name} is not in their JupyterLab: {page.url}"
    page.locator(".jp-DirListing-item", has_text=LESSON.split("/")[-1]).first.dblclick()
    page.wait_for_selector(f"{SHOWN} .jp-Notebook .jp-Cell")
    page.wait_for_function(JS_LESSON_SETTLED, arg=[LESSON.split("/")[-1], 300], polling=50)
    # its kernel started and nothing run yet: the lesson is not marked modified (● on its tab): the release carries
    # the version of the students' Python that JupyterLab writes into language_info (tools/hub/course.py)
    dirty = page.locator(".lm-DockPanel .lm-TabBar-tab.jp-mod-current.jp-mod-dirty").count()
    assert dirty == 0, f"{name}: lesson 03 opened marked modified, before anything ran"
    _run_all(page)
    try:
        page.wait_for_function(JS_PROMPTS_DONE, timeout=TIMEOUT_MS, polling=300)
    except PlaywrightTimeout:  # what was left: the prompts not done, the first error, a picture of the page
        shot = ROOT / "tests" / "artifacts" / "hub" / f"{name}-lesson03.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot), full_page=False)
        prompts = page.locator(".jp-CodeCell .jp-InputArea-prompt").all_inner_texts()
        left = [(i, t.strip()) for i, t in enumerate(prompts) if not re.match(r"^\[\d+\]", t.strip())]
        raised = page.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']").all_inner_texts()
        pytest.fail(f"{name}: lesson 03 did not finish Run All in {TIMEOUT_MS / 1000:g} s; cells not done "
                    f"{left[:5]} of {len(prompts)}; first error in the page {raised[:1]}; picture {shot}; "
                    f"as saved: {_saved_run(page, hub, name)}")
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert page.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']").count() == 0, (
        f"{name}: lesson 03 raised an error in the hub: {errors.all_inner_texts()[:1]}"
    )
    player = page.locator(f"{SHOWN} :is({PLAYER})").first
    player.scroll_into_view_if_needed()
    return player


def _saved_run(page, hub, name) -> str:
    """What the lesson's run left, read from the notebook saved now through the contents API: the hub's JupyterLab
    keeps only the cells on screen in the page (windowing), so an error further up is not in the page."""
    page.keyboard.press("Control+s")
    page.wait_for_timeout(2000)
    r = user(hub, name).user("GET", f"/api/contents/{LESSON}?content=1")
    if r.status_code != 200:
        return f"the contents API answered {r.status_code}"
    cells = [c for c in r.json()["content"]["cells"] if c["cell_type"] == "code"]
    ran = [c.get("execution_count") for c in cells]
    errors = [f"cell {i}: {o.get('ename')}: {o.get('evalue')}" for i, c in enumerate(cells)
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    return f"{sum(n is not None for n in ran)} of {len(cells)} code cells ran; errors {errors[:2] or 'none'}"


def test_everyone_logs_in_through_the_page_and_students_step_lesson_03(hub, chromium):
    page = _login(chromium, hub, INSTRUCTOR)
    hub["pages"][INSTRUCTOR] = page
    assert page.locator(".jp-Notebook").count() >= 0
    for name in STUDENTS:
        page = _login(chromium, hub, name)
        assert "00_start_here.ipynb" in page.url, f"{name}'s first page is {page.url}, not lesson 00"
        hub["pages"][name] = page
        player = _open_lesson_03(page, hub, name)
        before, after = _step(page, player)
        assert after != before, f"{name}: the readout did not change after Step"


def test_a_wrong_password_is_refused(hub):
    from tools.hub.client import HubError, login

    with pytest.raises(HubError, match="login of pc-test-a failed: HTTP 403"):
        login(hub["hub"].base, "pc-test-a", "not-the-password")
    with pytest.raises(HubError, match="failed"):
        login(hub["hub"].base, "root", "anything")  # a system user who is not in the class


def _started(hub, *names):
    """Each user's server running (the first login's copy made), also when run without the browser test."""
    for name in names:
        user(hub, name).start_server()


def test_the_first_login_copied_the_lessons_and_not_the_solutions(hub):
    _started(hub, "pc-test-a", INSTRUCTOR)
    home = os.path.join(pwd.getpwnam("pc-test-a").pw_dir, "perceptron-course")
    names = sorted(n for n in os.listdir(home) if not n.startswith("."))  # JupyterLab adds .ipynb_checkpoints
    assert names == [f"{p}" for p in sorted(os.listdir("notebooks")) if p[:2].isdigit()], names
    inst = os.path.join(pwd.getpwnam(INSTRUCTOR).pw_dir, "perceptron-course")
    assert sorted(os.listdir(os.path.join(inst, "solutions"))), "the instructor has the solutions"
    home = pwd.getpwnam("pc-test-b")
    st = os.stat(home.pw_dir)
    assert st.st_mode & 0o077 == 0 and st.st_uid == home.pw_uid, "a student's home is theirs alone (0700)"
    shells = {name: pwd.getpwnam(name).pw_shell for name in [*STUDENTS, INSTRUCTOR]}
    assert set(shells.values()) == {"/usr/sbin/nologin"}, f"the class's accounts have a login shell: {shells}"


def test_a_student_reads_no_solution_by_path_from_the_kernel_or_the_contents_api(hub):
    """Every solution file: the course's, the instructor's copy, the instructor's release, the git history."""
    _started(hub, "pc-test-a", INSTRUCTOR)
    a = user(hub, "pc-test-a")
    inst_home = Path(pwd.getpwnam(INSTRUCTOR).pw_dir)
    names = sorted(p.name for p in (ROOT / "notebooks" / "solutions").glob("*.ipynb"))
    assert names, "the course has solutions to protect"
    paths = [ROOT / "notebooks" / "solutions" / n for n in names]
    paths += [inst_home / "perceptron-course" / "solutions" / n for n in names]
    paths += [ROOT / "notebooks" / "INSTRUCTORS.md", ROOT / ".git" / "HEAD",
              hub["releases"] / "release-instructor.git" / "HEAD"]  # fmt: skip
    assert all(p.exists() for p in paths), [str(p) for p in paths if not p.exists()]
    students_release = hub["releases"] / "release-students.git"
    kernel = a.kernel(a.new_session("perceptron-course/probe_solutions.ipynb"))
    try:
        out = kernel.execute(
            "import subprocess\n"
            "def probe(p):\n"
            "    try:\n        open(p, 'rb').read(1); return 'read'\n"
            "    except PermissionError: return 'denied'\n"
            f"print(sorted({{probe(p) for p in {[str(p) for p in paths]!r}}}))\n"
            f"g = subprocess.run(['git', '--git-dir', {str(ROOT / '.git')!r}, 'show', 'HEAD:notebooks/solutions/"
            f"{names[0]}'], capture_output=True)\n"
            "print(g.returncode != 0 and not g.stdout)\n"
            f"r = subprocess.run(['git', '-c', 'safe.directory=*', '--git-dir', {str(students_release)!r}, 'log', "
            "'--all', '--name-only', '--format='], capture_output=True, text=True)\n"
            "print(r.returncode, 'solutions' in r.stdout, '03_hyperplane_updates.ipynb' in r.stdout)\n"
        )
    finally:
        kernel.close()
    assert out.split("\n")[:3] == ["['denied']", "True", "0 False True"], out
    # through the contents API: paths that climb out of the student's home are refused
    home = Path(pwd.getpwnam("pc-test-a").pw_dir)
    for path in paths[:1] + paths[len(names):len(names) + 1] + paths[-3:-2]:
        rel = os.path.relpath(path, home)
        r = a.user("GET", f"/api/contents/{rel}")
        assert r.status_code in (400, 403, 404) and '"cells"' not in r.text, (rel, r.status_code, r.text[:200])


def test_the_students_jupyterlab_has_the_courses_settings(hub):
    import json

    _started(hub, "pc-test-a")
    a = user(hub, "pc-test-a")
    shipped = json.loads((ROOT / "tools" / "jupyter" / "lab" / "overrides.json").read_text())
    plugin = "@jupyterlab/apputils-extension:notification"
    r = a.user("GET", f"/lab/api/settings/{plugin}")
    assert r.status_code == 200, r.status_code
    # JupyterLab applies the overrides to the schema's defaults
    defaults = {k: v.get("default") for k, v in r.json()["schema"]["properties"].items()}
    assert {k: defaults[k] for k in shipped[plugin]} == shipped[plugin], defaults


def test_student_a_cannot_reach_b_by_http(hub, chromium):
    a, b = user(hub, "pc-test-a"), user(hub, "pc-test-b")
    # A's token on B's server, files, kernels and hub record
    for path in ("/api/contents", "/api/contents/perceptron-course/03_hyperplane_updates.ipynb", "/api/kernels",
                 "/api/sessions", "/lab"):  # fmt: skip
        r = a.user("GET", path, owner="pc-test-b")
        leaked = [w for w in ("hyperplane_updates", "execution_state", '"kernel"') if w in r.text]
        assert r.status_code in (302, 403, 404) and not leaked, (path, r.status_code, leaked)
        assert r.status_code != 302 or "/hub/" in r.headers["Location"], (path, r.headers.get("Location"))
    assert a.user("POST", "/api/kernels", owner="pc-test-b", json={"name": "python3"}).status_code in (403, 404)
    assert a.hub("GET", "/users/pc-test-b").status_code in (403, 404)
    assert a.hub("DELETE", "/users/pc-test-b/server").status_code in (403, 404)
    assert a.hub("GET", "/users").status_code == 403 or [u["name"] for u in a.hub("GET", "/users").json()] == [a.name]
    assert b.user("GET", "/api/contents").status_code == 200, "B's own token reaches B's files"
    # A's browser cookies on B's server: the hub's OAuth refuses A
    page = hub["pages"]["pc-test-a"]
    resp = page.request.get(f"{hub['hub'].base}/user/pc-test-b/api/contents", max_redirects=10)
    assert resp.status == 403, f"A's cookies on B's files: HTTP {resp.status}"
    resp = page.request.get(f"{hub['hub'].base}/user/pc-test-a/api/contents", max_redirects=10)
    assert resp.status == 200, f"A's cookies on A's own files: HTTP {resp.status}"


def test_student_a_kernel_cannot_read_b_files_or_signal_b_kernels(hub):
    a, b = user(hub, "pc-test-a"), user(hub, "pc-test-b")
    b_home = pwd.getpwnam("pc-test-b").pw_dir
    b_kernels = [k["id"] for k in b.user("GET", "/api/kernels").json()]
    assert b_kernels, "B's lesson 03 kernel is running"
    pids = subprocess.run(["ps", "-o", "pid=", "-u", "pc-test-b"], capture_output=True, text=True).stdout.split()
    kernel = a.kernel(a.new_session("perceptron-course/probe.ipynb"))
    try:
        out = kernel.execute(
            "import os, errno\n"
            "def probe(f):\n"
            "    try:\n        f(); return 'ok'\n"
            "    except PermissionError: return 'denied'\n"
            "    except OSError as e: return errno.errorcode[e.errno]\n"
            f"print(probe(lambda: os.listdir({b_home!r})))\n"
            f"print(probe(lambda: open({b_home + '/perceptron-course/03_hyperplane_updates.ipynb'!r}).read()))\n"
            f"print(probe(lambda: open({b_home + '/.bashrc'!r}).read()))\n"
            f"print(sorted({{probe(lambda p=p: os.kill(int(p), 0)) for p in {pids!r}}}))\n"
            "print(os.getuid() == os.geteuid() != 0)\n"
        )
    finally:
        kernel.close()
    assert out.split("\n")[:5] == ["denied", "denied", "denied", "['denied']", "True"], out


def test_the_instructor_lists_who_is_running_and_a_student_cannot(hub):
    page = hub["pages"][INSTRUCTOR]
    resp = page.request.get(f"{hub['hub'].base}/hub/api/users?state=active")
    assert resp.status == 200, f"the instructor's session on the users API: HTTP {resp.status} {resp.text()[:200]}"
    running = sorted(u["name"] for u in resp.json())
    assert running == sorted([*STUDENTS, INSTRUCTOR]), running
    student = hub["pages"]["pc-test-c"].request.get(f"{hub['hub'].base}/hub/api/users?state=active")
    assert student.status == 403 or [u["name"] for u in student.json()] == ["pc-test-c"], student.status


def test_a_killed_kernel_does_not_stop_another_student_stepping(hub):
    a = user(hub, "pc-test-a")
    kernels = a.user("GET", "/api/kernels").json()
    lesson_kernel = [k for k in a.user("GET", "/api/sessions").json() if k["path"] == LESSON][0]["kernel"]["id"]
    assert lesson_kernel in [k["id"] for k in kernels]
    # the out-of-memory killer's way: SIGKILL to every process of A's kernels
    pids = subprocess.run(["pgrep", "-u", "pc-test-a", "-f", "ipykernel_launcher"], capture_output=True,
                          text=True).stdout.split()  # fmt: skip
    assert pids, "A's kernels are running"
    for pid in pids:
        os.kill(int(pid), signal.SIGKILL)
    page = hub["pages"]["pc-test-b"]
    player = page.locator(f"{SHOWN} :is({PLAYER})").first
    for _ in range(3):
        before, after = _step(page, player)
        assert after != before, "B's player stopped stepping when A's kernel died"
    # A's server is still up and gives A a new kernel
    assert a.user("GET", "/api/status").status_code == 200
    kernel = a.kernel(a.new_session("perceptron-course/after_kill.ipynb"))
    try:
        assert kernel.execute("print(6 * 7)").strip() == "42"
    finally:
        kernel.close()


def _save(u, path: str, text: str) -> None:
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": text}], "metadata": {}, "nbformat": 4,
          "nbformat_minor": 5}  # fmt: skip
    r = u.user("PUT", f"/api/contents/{path}", json={"type": "notebook", "format": "json", "content": nb})
    assert r.status_code in (200, 201), (r.status_code, r.text[:200])


def _read(u, path: str) -> str:
    r = u.user("GET", f"/api/contents/{path}")
    assert r.status_code == 200, f"{u.name}'s {path}: HTTP {r.status_code}"
    return r.json()["content"]["cells"][0]["source"]


def test_a_stopped_server_loses_no_saved_work(hub):
    c = user(hub, "pc-test-c")
    _save(c, "perceptron-course/my_answers.ipynb", "c's answer: gamma = 0.2")
    c.stop_server()
    assert c.user("GET", "/api/status").status_code != 200, "the server is stopped"
    c.start_server()
    assert _read(c, "perceptron-course/my_answers.ipynb") == "c's answer: gamma = 0.2"
    names = [x["name"] for x in c.user("GET", "/api/contents/perceptron-course").json()["content"]]
    assert "03_hyperplane_updates.ipynb" in names, "the restart did not copy over or lose the lessons"


def test_a_corrected_lesson_reaches_a_student_at_the_next_login_and_an_edited_one_is_kept(hub):
    import json

    _started(hub, "pc-test-c")
    c = user(hub, "pc-test-c")
    lesson03 = "perceptron-course/03_hyperplane_updates.ipynb"
    mine = c.user("GET", f"/api/contents/{lesson03}").json()["content"]
    mine["cells"][0]["source"] = "# My notes on lesson 03"
    r = c.user("PUT", f"/api/contents/{lesson03}", json={"type": "notebook", "format": "json", "content": mine})
    assert r.status_code in (200, 201), r.text[:200]
    # the course corrects lessons 01 and 03 (their first cells), then c logs in again (a server start)
    for name in ("01_loss_geometry.ipynb", "03_hyperplane_updates.ipynb"):
        path = hub["notebooks"] / name
        nb = json.loads(path.read_text())
        nb["cells"][0]["source"] = [f"# Corrected {name}\n"]
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    c.stop_server()
    c.start_server()
    got01 = c.user("GET", "/api/contents/perceptron-course/01_loss_geometry.ipynb").json()["content"]
    got03 = c.user("GET", f"/api/contents/{lesson03}").json()["content"]
    assert "".join(got01["cells"][0]["source"]) == "# Corrected 01_loss_geometry.ipynb\n", "untouched: updated"
    assert "".join(got03["cells"][0]["source"]) == "# My notes on lesson 03", "edited: the student's lines stay"


def test_a_hub_restart_loses_no_saved_notebook(hub):
    from tools.hub.client import login

    b = user(hub, "pc-test-b")
    _save(b, "perceptron-course/before_restart.ipynb", "saved before the hub restarted")
    hubp = hub["hub"]
    hubp.stop()
    hubp.start()
    assert _read(b, "perceptron-course/before_restart.ipynb") == "saved before the hub restarted"
    # logins work again, and B's server was kept running through the restart
    session = login(hubp.base, "pc-test-b", hub["passwords"]["pc-test-b"])
    assert session.get(f"{hubp.base}/hub/api/user", headers={"X-XSRFToken": session.cookies.get("_xsrf", "")}).ok
    assert b.server_status()["server"], "B's server still runs after the hub restart"


def _class_of(hub):
    """The test's class as `make hub-release`, `hub-collect` and `hub-grade` see it (tools/hub/classroom.py)."""
    from tools.hub import classroom
    from tools.hub.setup import STUDENT_VENV

    return classroom.Hub(tuple(STUDENTS), INSTRUCTOR, hub["notebooks"], hub["releases"], False,
                         STUDENT_VENV / "bin" / "python")  # fmt: skip


def test_hub_release_brings_a_corrected_lesson_into_every_copy_now(hub):
    """`make hub-release`: no login needed; a lesson the student edited keeps the student's lines."""
    import json

    from tools.hub import classroom

    _started(hub, "pc-test-a", "pc-test-b")
    a = user(hub, "pc-test-a")
    lesson02 = "perceptron-course/02_subgradients.ipynb"
    mine = a.user("GET", f"/api/contents/{lesson02}").json()["content"]
    mine["cells"][0]["source"] = "# A's notes on lesson 02"
    assert a.user("PUT", f"/api/contents/{lesson02}", json={"type": "notebook", "format": "json",
                                                            "content": mine}).status_code == 200  # fmt: skip
    path = hub["notebooks"] / "02_subgradients.ipynb"
    nb = json.loads(path.read_text())
    nb["cells"][0]["source"] = ["# Corrected 02_subgradients.ipynb\n"]
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    done = classroom.release(_class_of(hub))
    assert done["pc-test-a"] == done["pc-test-b"] == "updated to this release", done
    assert all(w == "updated to this release" or w.startswith("made their copy") for w in done.values()), done
    b_home = Path(pwd.getpwnam("pc-test-b").pw_dir)
    got_b = json.loads((b_home / lesson02).read_text())
    got_a = a.user("GET", f"/api/contents/{lesson02}").json()["content"]
    assert "".join(got_b["cells"][0]["source"]) == "# Corrected 02_subgradients.ipynb\n", "untouched: updated now"
    assert "".join(got_a["cells"][0]["source"]) == "# A's notes on lesson 02", "edited: A's lines stay"
    assert (b_home / lesson02).stat().st_uid == pwd.getpwnam("pc-test-b").pw_uid, "pulled as the student"


def test_hub_release_says_what_it_did_for_each_user(hub):
    """`make hub-release` for a student who never logged in makes their copy and says so; a second release with
    nothing new says "up to date"."""
    import dataclasses
    import json

    from tools.hub import classroom, course, setup

    name = "pc-test-r"
    _remove_user(name)
    setup.ensure_user(name)
    try:
        klass = dataclasses.replace(_class_of(hub), students=(name,))
        first = classroom.release(klass)[name]
        assert first.startswith("made their copy, ~pc-test-r/perceptron-course"), first
        lesson = json.loads((Path(pwd.getpwnam(name).pw_dir) / LESSON).read_text(encoding="utf-8"))
        # the version the student's kernel reports: JupyterLab finds it already there and marks nothing modified
        assert lesson["metadata"]["language_info"]["version"] == course.python_version(klass.python)
        assert classroom.release(klass)[name] == "up to date (had this release)"
    finally:
        _remove_user(name)


def test_a_release_carries_the_students_python_version_and_nothing_else_changes(tmp_path):
    """No hub needed: the lessons released for the hub hold the students' kernel's Python version in
    language_info (as JupyterLab would write it on opening); every other byte is the lesson's."""
    import json
    import sys

    from tools.hub import course
    from tools.hub.setup import STUDENT_PYTHON

    python = STUDENT_PYTHON if STUDENT_PYTHON.exists() else Path(sys.executable)  # the hub's students' Python
    releases = course.publish_releases(os.getgid(), hub_dir=tmp_path, python=python)
    here = course.python_version(python)
    for audience, name in (("students", "03_hyperplane_updates.ipynb"),
                           ("instructor", "solutions/03_hyperplane_updates_solutions.ipynb")):
        shown = subprocess.run(["git", f"--git-dir={releases[audience]}", "show", f"lessons:{name}"],
                               capture_output=True, text=True, check=True).stdout  # fmt: skip
        saved = (ROOT / "notebooks" / name).read_text(encoding="utf-8")
        assert json.loads(shown)["metadata"]["language_info"]["version"] == here
        assert course.with_kernel_version(saved, here).rstrip("\n") == shown.rstrip("\n")
    odd = course.with_kernel_version(saved, "3.99.1")
    changed = [(a, b) for a, b in zip(saved.splitlines(), odd.splitlines(), strict=True) if a != b]
    assert len(changed) == 1 and changed[0][1].strip() == '"version": "3.99.1"', changed


def test_a_second_hub_on_a_taken_api_port_stops_at_once_and_names_a_free_one(hub, tmp_path):
    """The hub's API port (8081 by default) is COURSE_HUB_API_PORT: a second hub on one machine, started on a port
    another hub holds, stops before doing anything and says which variable to set."""
    import sys

    held = hub["hub"].api_port  # the test's running hub listens there
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env.update(COURSE_HUB_DIR=str(hub["state"]), COURSE_HUB_API_PORT=str(held), COURSE_HUB_PORT="1",
               COURSE_HUB_PROXY_API_PORT="1")  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "jupyterhub", "-f", "tools/hub/jupyterhub_config.py"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode != 0 and f"API port 127.0.0.1:{held} is taken" in said, said[-2000:]
    assert re.search(r"COURSE_HUB_API_PORT=\d+", said), said[-2000:]


def _answer(u, exercise: int, value: str) -> None:
    """`u` answers exercise 01.`exercise` in their lesson 01 and saves it, as JupyterLab's save does."""
    path = "perceptron-course/01_loss_geometry.ipynb"
    nb = u.user("GET", f"/api/contents/{path}").json()["content"]
    cell = [c for c in nb["cells"] if "exercise-check" in c["metadata"].get("tags", [])][exercise - 1]
    first, *rest = cell["source"].split("\n")
    cell["source"] = "\n".join([first.split("=")[0] + "= " + value, *rest])
    r = u.user("PUT", f"/api/contents/{path}", json={"type": "notebook", "format": "json", "content": nb})
    assert r.status_code == 200, (r.status_code, r.text[:200])


def test_two_students_hand_in_the_instructor_collects_and_grades(hub):
    """`make hub-collect` then `make hub-grade`: A answers 1.2 right, B wrong; the gradebook has both rows."""
    import csv

    from tools.hub import classroom

    _started(hub, "pc-test-a", "pc-test-b", INSTRUCTOR)
    a, b, inst = user(hub, "pc-test-a"), user(hub, "pc-test-b"), user(hub, INSTRUCTOR)
    _answer(a, 2, "6.5")
    _answer(b, 2, "6.0")
    klass = _class_of(hub)
    collection = classroom.collect(klass, log=lambda _m: None)
    inst_pw = pwd.getpwnam(INSTRUCTOR)
    assert collection.parent == Path(inst_pw.pw_dir) / "submissions"
    for path in [collection, *collection.rglob("*")]:
        st = path.lstat()
        assert (st.st_uid, st.st_mode & 0o777) == (inst_pw.pw_uid, 0o700 if path.is_dir() else 0o600), path
    names = sorted(p.name for p in (collection / "students" / "pc-test-a").iterdir())
    assert names == sorted(p.name for p in hub["notebooks"].glob("[0-9][0-9]_*.ipynb")), names
    gradebook, rows = classroom.grade(klass, lessons=["01"], jobs=2, log=lambda _m: None)  # the newest collection
    assert gradebook == collection / "gradebook.csv"
    table = {r["student"]: r for r in csv.DictReader(gradebook.open(encoding="utf-8"))}
    assert sorted(table) == sorted(STUDENTS), table
    got = {s: (table[s]["1.1"], table[s]["1.2"], table[s]["1.3"], table[s]["total"]) for s in STUDENTS}
    assert got == {"pc-test-a": ("0", "1", "0", "1"), "pc-test-b": ("0", "0", "0", "0"),
                   "pc-test-c": ("0", "0", "0", "0")}, got  # fmt: skip
    notes = list(csv.DictReader((collection / "gradebook-notes.csv").open(encoding="utf-8")))
    why_b = [n["why"] for n in notes if n["student"] == "pc-test-b" and n["exercise"] == "1.2"]
    assert why_b and why_b[0].startswith("wrong: not quite"), notes
    # the instructor reads the gradebook in their own JupyterLab
    r = inst.user("GET", f"/api/contents/submissions/{collection.name}/gradebook.csv")
    assert r.status_code == 200 and "pc-test-a" in r.json()["content"], r.status_code
    # A reads neither B's copy nor B's submission, nor the collection: by path from A's kernel ...
    b_copy = Path(pwd.getpwnam("pc-test-b").pw_dir) / "perceptron-course" / "01_loss_geometry.ipynb"
    b_sub = collection / "students" / "pc-test-b" / "01_loss_geometry.ipynb"
    paths = [b_copy, b_sub, collection / "students" / "pc-test-a" / "01_loss_geometry.ipynb", gradebook]
    kernel = a.kernel(a.new_session("perceptron-course/probe_submissions.ipynb"))
    try:
        out = kernel.execute(
            "import os\n"
            "def probe(f):\n"
            "    try:\n        f(); return 'read'\n"
            "    except PermissionError: return 'denied'\n"
            f"print(sorted({{probe(lambda p=p: open(p, 'rb').read(1)) for p in {[str(p) for p in paths]!r}}}))\n"
            f"print(probe(lambda: os.listdir({str(collection.parent)!r})), "
            f"probe(lambda: os.listdir({str(collection / 'students')!r})))\n"
        )
    finally:
        kernel.close()
    assert out.split("\n")[:2] == ["['denied']", "denied denied"], out
    # ... and through the contents API (paths that climb out of A's home)
    home = Path(pwd.getpwnam("pc-test-a").pw_dir)
    for path in (b_copy, b_sub, gradebook):
        for rel, owner, refused in ((os.path.relpath(path, home), None, (400, 403, 404)),
                                    (os.path.relpath(path, inst_pw.pw_dir), INSTRUCTOR, (302, 403, 404))):  # fmt: skip
            r = a.user("GET", f"/api/contents/{rel}", owner=owner)
            leaked = [w for w in ('"cells"', '"nbformat"', "pc-test-b,") if w in r.text]
            assert r.status_code in refused and not leaked, (rel, owner, r.status_code, leaked)


def test_class_commands_say_what_to_do_on_bad_input(hub, tmp_path):
    import dataclasses

    from tools.hub import classroom

    klass = _class_of(hub)
    with pytest.raises(classroom.ClassError, match="no students/ folder"):
        classroom.grade(klass, tmp_path)
    (tmp_path / "students" / "someone-else").mkdir(parents=True)
    with pytest.raises(classroom.ClassError, match="not students of this class"):
        classroom.grade(klass, tmp_path)
    (tmp_path / "students" / "someone-else").rmdir()
    (tmp_path / "students" / "pc-test-a").mkdir()
    with pytest.raises(classroom.ClassError, match="no lesson 09 has exercises; choose among 01, "):
        classroom.grade(klass, tmp_path, lessons=["09"])
    with pytest.raises(classroom.ClassError, match="is empty|no lesson of this course"):
        classroom.grade(klass, tmp_path)  # a student folder with no lessons, and nobody else
    with pytest.raises(classroom.ClassError, match="users.json is missing"):
        classroom.load_hub(tmp_path)
    # a student of users.json whose account is gone: a row that says so, an empty folder (the gradebook's row)
    messages = []
    ghost = classroom.collect(dataclasses.replace(klass, students=("pc-test-ghost",)), log=messages.append)
    assert "not a user of this machine: run `make hub-setup`" in (ghost / "collected.csv").read_text()
    assert not list((ghost / "students" / "pc-test-ghost").iterdir()) and "pc-test-ghost" in messages[0]


def test_hub_clean_removes_the_users_their_homes_and_the_state(hub):
    """Last: `python -m tools.hub.setup --clean` (make hub-clean) on this class."""
    from tools.hub import setup
    from tools.hub.client import HubError, HubUser

    hubp = hub["hub"]
    for page in hub["pages"].values():
        page.context.close()
    hub["pages"].clear()
    for name in [*STUDENTS, INSTRUCTOR]:
        with contextlib.suppress(HubError):
            HubUser(hubp.base, name, hubp.service_token).stop_server()
    hubp.stop()
    homes = [pwd.getpwnam(n).pw_dir for n in [*STUDENTS, INSTRUCTOR]]
    _keep_log(hub["state"])
    removed = setup.clean_class(hub["state"], hub["releases"])
    assert sorted(removed) == sorted([*STUDENTS, INSTRUCTOR])
    assert not [n for n in [*STUDENTS, INSTRUCTOR] if _exists(n)], "the users are gone"
    assert not [h for h in homes if os.path.exists(h)], "their homes are gone"
    assert not hub["state"].exists() and not list(hub["releases"].glob("release-*.git"))


def _exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
