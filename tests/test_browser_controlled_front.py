"""The controlled player in the browser (`BrowserControlled`, ``front/controlled.js``), in Chromium with a stand-in
for anywidget's model (as tests/test_browser_switch_front.py).

The browser's refit equal to `fit_perceptron` (the same updates, states within 1e-12 of their size, the same end)
and its words equal to the library's (`state_lines`, `alt_text`), for lesson 03's data sets and settings, random
orders with their seeds among them; a change of a setting shown at once and told in one message; Python's run
replacing the browser's words at the step on show, an older reply let go; the settings beside the picture (or right
above it where the widget is narrow); axe-core.
"""

from __future__ import annotations

import numpy as np
import pytest
import traitlets
from browser_support import offline_site, open_offline
from test_browser_player_front import _frame
from test_browser_switch_front import _clear_saves, _page, _saves, mount

from perceptron_lib.core import data
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player.browser import run_trait
from perceptron_lib.player.browser_controlled import SETTINGS, BrowserControlled
from perceptron_lib.player.readout import state_lines

N_SETTINGS = 300
CONTROLLED_STATE = ("datasets", "controls", "fit", "settings", "run", "k", "interval_ms")


def _datasets():
    """Lesson 03's four data sets."""
    return {"40 points": data.separable(40, margin=0.1, bias=True, seed=3),
            "40 points, thin margin": data.separable(40, margin=0.05, bias=True, seed=0),
            "6 points": data.small_2d(),
            "6 points, offset needed": data.no_origin_separator()}


@pytest.fixture(scope="module")
def controlled_page(chromium):
    ctx, page = _page(chromium, BrowserControlled._esm)
    yield page
    ctx.close()


def _random_settings(rng, labels, controls):
    options = {c["name"]: [v for _t, v in c["options"]] for c in controls if "options" in c}
    s = {name: options[name][int(rng.integers(len(options[name])))] for name in options}
    s["seed"] = int(rng.integers(0, 1000))
    if rng.random() < 0.5:  # half of them from the start 0, as a student begins
        s.update(w1=0.0, w2=0.0, b=0.0)
    return {name: s[name] for name in SETTINGS}


@pytest.mark.browser
def test_the_browsers_refit_and_words_equal_the_librarys(controlled_page):
    """For N_SETTINGS settings on lesson 03's data sets (a third of them random orders), the run the browser fits
    with no kernel has the library's updates, states (within 1e-12 of their size), end, crosses and words."""
    page = controlled_page
    player = BrowserControlled(_datasets())
    state = player.get_state()
    rng = np.random.default_rng(30)
    chosen = [_random_settings(rng, list(_datasets()), state["controls"]) for _ in range(N_SETTINGS)]
    chosen[0].update(order="random", seed=7)
    got = page.evaluate("""([sets, chosen, fixed, style]) => chosen.map((s) => {
        const r = window.front.browserRun(sets.find((d) => d.label === s.data), s, fixed, style);
        return {w: r.w, b: r.b, i: r.i, ring: r.ring, mistakes: r.mistakes, lines: r.lines, alt: r.alt,
                crossed: r.crossed, view: r.view}; })""",
        [state["datasets"], chosen, state["fit"], state["run"]["style"]])
    orders = {"cyclic": 0, "random": 0}
    for s, r in zip(chosen, got, strict=True):
        X, y = _datasets()[s["data"]]
        run = fit_perceptron(X, y, order=s["order"], rng=s["seed"], w0=[s["w1"], s["w2"]], b0=s["b"], eta=s["eta"],
                             update_on=s["test"], max_epochs=200)
        want = run_trait(run, X, y)
        h = run.history
        size = np.abs(h.w).max() + np.abs(h.b).max() + 1
        assert r["i"] == want["i"] and r["ring"] == want["ring"], s
        assert np.abs(np.array(r["w"]) - h.w).max() <= 1e-12 * size
        assert np.abs(np.array(r["b"]) - h.b).max() <= 1e-12 * size
        assert r["mistakes"] == want["mistakes"], s
        assert r["lines"] == want["lines"], s
        assert r["alt"] == want["alt"] and r["crossed"] == want["crossed"], s
        assert r["view"] == player._view(X)
        orders[s["order"]] += 1
    assert min(orders.values()) >= N_SETTINGS // 4, orders


def _box(page) -> str:
    """The player's "update k" box (the seed box comes first in the widget)."""
    return page.input_value("#widget .pp-controls input[type=number]")


def _settings_box(page):
    return page.evaluate("""() => { const r = document.querySelector('#widget');
        const box = (e) => { const b = e.getBoundingClientRect(); return [b.top, b.bottom, b.left, b.right]; };
        return {settings: box(r.querySelector('.pc-settings')), picture: box(r.querySelector('.pp-picture')),
                readout: box(r.querySelector('.pp-readout')), controls: box(r.querySelector('.pp-controls')),
                widget: box(r.querySelector('.perceptron-browsercontrolled')),
                head: r.querySelector('.pp-readout b').textContent}; }""")


@pytest.mark.browser
def test_a_setting_is_fitted_at_once_then_pythons_run_replaces_the_browsers_words(controlled_page):
    page = controlled_page
    player = BrowserControlled(_datasets())
    mount(page, player, CONTROLLED_STATE)
    K0 = player.K
    page.click("#widget button:text-is('Step')")
    assert _saves(page) == [["k"]]  # Python's run on show: its steps are told
    _clear_saves(page)
    page.select_option("#widget .pc-settings label:has-text('order') select", label="random")
    s = {**player.settings, "order": "random"}
    run = fit_perceptron(*_datasets()["40 points"], order="random", rng=0, max_epochs=200)
    K = len(run.history) - 1
    assert K != K0
    shown = _frame(page)
    assert shown["readout"][0] == f"Update {K} of {K} (epoch {run.history.epoch[-1]})." and _box(page) == str(K)
    assert _saves(page) == [["settings"]] and page.evaluate("() => window.model.get('settings')") == s
    # the browser's own run: its steps are its own, nothing goes to the model
    page.click("#widget button:text-is('Back')")
    assert _saves(page) == [["settings"]] and _box(page) == str(K - 1)
    # Python's reply (its words marked here, to see them replace the browser's), shown at the step on show
    player.settings = s
    reply = {**player.get_state()["run"]}
    reply["lines"] = [["kernel: " + line for line in lines] for lines in reply["lines"]]
    page.evaluate("([run, k]) => window.model.fromPythonMany({run, k})", [reply, player.k])
    f = _frame(page)
    assert f["readout"][0] == f"kernel: Update {K - 1} of {K} (epoch {run.history.epoch[K - 2]})."
    assert _box(page) == str(K - 1)
    assert _saves(page) == [["settings"], ["k"]]  # the kernel hears the step on show
    page.click("#widget button:text-is('Step')")
    assert _saves(page)[-1] == ["k"] and page.evaluate("() => window.model.get('k')") == K
    # an older reply (settings no longer on show) is let go
    page.select_option("#widget .pc-settings label:has-text('test') select", value="2")
    head = _frame(page)["readout"][0]
    page.evaluate("(run) => window.model.fromPython('run', run)", reply)
    assert _frame(page)["readout"][0] == head and not head.startswith("kernel")


@pytest.mark.browser
def test_sliders_and_the_seed_box_refit_and_tell_the_model_when_let_go(controlled_page):
    page = controlled_page
    player = BrowserControlled(_datasets())
    mount(page, player, CONTROLLED_STATE)
    page.select_option("#widget .pc-settings label:has-text('order') select", label="random")
    _clear_saves(page)
    slider = "#widget .pc-settings label:has-text('start w₁') input[type=range]"
    page.focus(slider)
    page.keyboard.press("ArrowRight")  # one step of a slider: input and change
    assert page.get_attribute(slider, "aria-valuetext") == "0.25"
    assert page.evaluate("() => window.model.get('settings').w1") == 0.25
    page.fill("#widget .pc-settings input[type=number]", "17")  # typed: refitted, told on change
    seeds = {"w1": 0.25, "seed": 17}
    run = fit_perceptron(*_datasets()["40 points"], order="random", rng=17, w0=[0.25, 0.0], max_epochs=200)
    K = len(run.history) - 1
    assert _frame(page)["readout"][0].startswith(f"Update {K} of {K}")
    page.press("#widget .pc-settings input[type=number]", "Enter")
    sent = page.evaluate("() => window.model.get('settings')")
    assert {n: sent[n] for n in seeds} == seeds
    assert _saves(page) == [["settings"], ["settings"]]
    # keys on the picture step the browser's run; in the seed box they are the box's
    page.focus("#widget .pp-picture")
    page.keyboard.press("Home")
    assert _box(page) == "0"


@pytest.mark.browser
@pytest.mark.parametrize("preset", ["notebook", "lecture"])
def test_the_settings_sit_beside_the_picture_or_right_above_it(controlled_page, preset):
    """Beside the picture, over the readout, where the widget is as wide as a notebook with its file browser open at
    1440x900 (1000 px); right above the picture where it is narrow (700 px)."""
    page = controlled_page
    mount(page, BrowserControlled(_datasets(), style=preset), CONTROLLED_STATE)
    try:
        page.set_viewport_size({"width": 1000, "height": 900})
        m = _settings_box(page)
        assert m["settings"][2] >= m["picture"][3] and abs(m["settings"][0] - m["picture"][0]) <= 40, m
        assert m["readout"][0] >= m["settings"][1], "the readout is under the settings"
        tall = m["widget"][1] - m["widget"][0]
        page.set_viewport_size({"width": 700, "height": 900})
        m = _settings_box(page)
        gap = m["picture"][0] - m["settings"][1]
        between = m["controls"][1] - m["controls"][0]  # the player's buttons, and nothing else
        assert 0 <= gap <= between + 30, f"{gap:.0f} px between the settings and the picture"
    finally:
        page.set_viewport_size({"width": 1440, "height": 900})
    print(f"{preset}: {tall:.0f} px tall at 1000 px wide; narrow, {gap:.0f} px from the settings to the picture")


@pytest.mark.browser
def test_axe_finds_nothing_serious_in_the_controlled_player(controlled_page):
    from test_a11y import blocking_violations

    mount(controlled_page, BrowserControlled(_datasets()), CONTROLLED_STATE)
    controlled_page.select_option("#widget .pc-settings label:has-text('data') select", label="6 points")
    found = blocking_violations(controlled_page, "document.querySelector('#widget')")
    assert not found, "\n".join(found)


def test_python_refits_the_settings_and_refuses_what_no_control_offers():
    player = BrowserControlled(_datasets(), settings={"data": "6 points, offset needed"})
    X6, y6 = data.no_origin_separator()
    assert player.lines() == state_lines(fit_perceptron(X6, y6, max_epochs=200), X6, y6, 0)
    player.set(order="random", seed=4, eta=0.1)
    run = fit_perceptron(X6, y6, order="random", rng=4, eta=0.1, max_epochs=200)
    assert player.K == len(run.history) - 1 and player.k == player.K
    assert player.run["lines"] == [state_lines(run, X6, y6, k) for k in range(player.K + 1)]
    assert player.run["settings"]["seed"] == 4
    for bad, words in [({"eta": 0.2}, r"settings\['eta'\] must be one of"), ({"seed": 1000}, "0..999"),
                       ({"data": "7 points"}, "one of")]:
        with pytest.raises(traitlets.TraitError, match=words):
            player.set(**bad)
    with pytest.raises(ValueError, match="no setting"):
        player.set(speed=2)
    with pytest.raises(ValueError, match="features"):
        BrowserControlled({"3-D": (np.eye(3), np.array([1.0, -1.0, 1.0]))})
    assert repr(player) == f"<BrowserControlled: 6 points, offset needed, random order, {player.K} updates>"


# ---------------------------------------------------------------------------------------------- JupyterLab
@pytest.mark.browser
def test_in_jupyterlab_a_choice_and_a_setting_each_send_one_message_and_python_follows(chromium, tmp_path):
    """The real thing, with a kernel: a switch and a controlled player in JupyterLab 4. A click on a choice sends one
    comm message (``choice``, with ``k`` when clamped); a new order sends one (``settings``); the kernel then holds
    the chosen run and the library's run of the new settings (a cell prints them)."""
    import nbformat
    from browser_support import jupyter_server, open_and_run_all, wait_kernel_settled

    from tests.browser_checks import JS_COUNT_SENT, JS_SENT

    X, y = data.small_2d()
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                                            "language": "python", "name": "python3"}})
    nb.cells = [nbformat.v4.new_code_cell(source) for source in (
        "from perceptron_lib import fit_perceptron\nfrom perceptron_lib.core import data\n"
        "from perceptron_lib.player import BrowserControlled, BrowserSwitch\nX, y = data.small_2d()\n"
        "switch = BrowserSwitch({'≤ 0': fit_perceptron(X, y), '< 0': fit_perceptron(X, y, update_on='negative'),\n"
        "                        'sign': fit_perceptron(X, y, update_on='sign', w0=[1.0, -1.0])}, X, y)\nswitch",
        "player = BrowserControlled({'six': data.small_2d(), 'no origin': data.no_origin_separator()})\nplayer",
        "print('kernel says:', switch.value, switch.k, player.settings['order'], player.settings['seed'], player.K)",
    )]
    nbformat.write(nb, tmp_path / "demo.ipynb")
    with jupyter_server(tmp_path) as server:
        ctx = chromium.new_context(viewport={"width": 1440, "height": 900})
        page = ctx.new_page()
        open_and_run_all(page, server, "demo.ipynb")
        page.wait_for_selector(".perceptron-browserswitch .pp-picture svg", timeout=60_000)
        page.wait_for_selector(".perceptron-browsercontrolled .pp-picture svg", timeout=60_000)
        wait_kernel_settled(page, "demo.ipynb")
        tall = page.evaluate("""() => {
          const view = document.querySelector('.jp-WindowedPanel-outer') || document.querySelector('.jp-Notebook');
          const h = (s) => document.querySelector(s).getBoundingClientRect().height;
          return [h('.perceptron-browserswitch'), h('.perceptron-browsercontrolled'), view.clientHeight]; }""")
        print(f"at 1440x900 with the file browser open: switch {tall[0]:.0f} px, controlled {tall[1]:.0f} px, "
              f"the notebook's view {tall[2]} px")
        assert max(tall[:2]) <= tall[2], "a player, whole, is taller than the notebook's view"
        sw = ".perceptron-browserswitch"
        page.click(f"{sw} button:text-is('End')")  # k = 1, the last step of '≤ 0'
        page.wait_for_timeout(300)
        page.evaluate(JS_COUNT_SENT)
        page.click(f"{sw} .perceptron-choice label:nth-of-type(2)")  # '< 0': no update, k clamped to 0
        page.wait_for_selector(f"{sw} .pp-readout b:text-matches('^Start state')")
        page.wait_for_timeout(300)
        sent = page.evaluate(JS_SENT)
        assert [(m["type"], m["keys"]) for m in sent] == [("comm_msg", ["choice", "k"])], sent
        ctl = ".perceptron-browsercontrolled"
        page.evaluate(JS_COUNT_SENT)
        page.select_option(f"{ctl} .pc-settings label:has-text('order') select", label="random")
        run = fit_perceptron(X, y, order="random", rng=0, max_epochs=200)
        K = len(run.history) - 1
        page.wait_for_selector(f"{ctl} .pp-readout b:text-is('Update {K} of {K} (epoch {run.history.epoch[-1]}).')")
        page.wait_for_timeout(500)
        sent = page.evaluate(JS_SENT)
        assert [(m["type"], m["keys"]) for m in sent] == [("comm_msg", ["settings"])], sent
        page.click(".jp-Cell:has-text('kernel says') .jp-InputArea-editor")
        page.keyboard.press("Shift+Enter")
        page.wait_for_selector(f".jp-OutputArea-output:has-text('kernel says: < 0 0 random 0 {K}')", timeout=30_000)
        ctx.close()


# ---------------------------------------------------------------------------------------------- no kernel
@pytest.mark.browser
def test_in_the_site_with_no_kernel_the_browser_refits_and_switches(chromium, tmp_path):
    """Lessons 02 and 03 built as ``make site`` builds them, opened over file:// with every other request blocked:
    a new order and a new data set are fitted in the browser (the readout is the library's words for the library's
    run of those settings); the switch shows the flipped run at the step shown. Nothing is fetched."""
    page, out, remote, problems = offline_site(
        chromium, tmp_path, ("02_subgradients.ipynb", "03_hyperplane_updates.ipynb"))
    assert open_offline(page, out / "03_hyperplane_updates.html") == "ready"
    ctl = page.locator(".perceptron-browsercontrolled").first
    ctl.scroll_into_view_if_needed()
    ctl.locator(".pc-settings label:has-text('order') select").select_option(label="random")
    ctl.locator(".pc-settings label:has-text('data') select").select_option(label="6 points")
    X6, y6 = data.small_2d()
    run = fit_perceptron(X6, y6, order="random", rng=0, max_epochs=200)
    K = len(run.history) - 1
    assert [p.inner_text() for p in ctl.locator(".pp-readout p").all()] == state_lines(run, X6, y6, K)
    open_offline(page, out / "02_subgradients.html")
    sw = page.locator(".perceptron-browserswitch").first
    sw.scroll_into_view_if_needed()
    sw.get_by_role("button", name="End").first.click()
    sw.locator(".perceptron-choice label:nth-of-type(4)").click()  # the flipped labels: 7 updates too
    assert sw.locator(".pp-readout b").inner_text().startswith("Update 7 of 7")
    page.context.close()
    assert remote == [] and problems == [], (remote[:3], problems)
