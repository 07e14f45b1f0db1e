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
from perceptron_lib.player.browser_controlled import SETTINGS, BrowserControlled, kept_step
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
                figure: box(r.querySelector('.pp-figure')),
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
    shown = _frame(page)  # at the student's place: update 1, of the new run
    assert shown["readout"][0] == f"Update 1 of {K} (epoch {run.history.epoch[0]})." and _box(page) == "1"
    assert _saves(page) == [["settings"]] and page.evaluate("() => window.model.get('settings')") == s
    # the browser's own run: its steps are its own, nothing goes to the model
    page.click("#widget button:text-is('End')")
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
    assert _frame(page)["readout"][0].startswith(f"Start state (update 0 of {K})")  # the student's place: 0
    assert page.evaluate("() => document.activeElement.type") == "number"  # the box keeps the focus
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
def test_the_settings_sit_beside_the_picture_or_under_it_and_tab_as_seen(controlled_page, preset):
    """Beside the picture, over the readout, where the widget is as wide as a notebook with its file browser open at
    1440x900 (1000 px); under the picture, over the readout, where it is narrow (700 px). Tab goes as they are
    seen: the player's buttons (Step top left), its picture, the settings, the readout."""
    page = controlled_page
    mount(page, BrowserControlled(_datasets(), style=preset), CONTROLLED_STATE)
    try:
        page.set_viewport_size({"width": 1000, "height": 900})
        m = _settings_box(page)
        assert m["settings"][2] >= m["picture"][3] and abs(m["settings"][0] - m["picture"][0]) <= 40, m
        assert m["readout"][0] >= m["settings"][1], "the readout is under the settings"
        tall = m["widget"][1] - m["widget"][0]
        assert _tab_order(page) == TAB_ORDER[preset], _tab_order(page)
        page.set_viewport_size({"width": 700, "height": 900})
        m = _settings_box(page)
        gap = m["settings"][0] - m["figure"][1]
        assert 0 <= gap <= 40, f"{gap:.0f} px between the picture (with its legend) and the settings"
        assert m["readout"][0] >= m["settings"][1], "the readout is under the settings"
        assert _tab_order(page) == TAB_ORDER[preset]
    finally:
        page.set_viewport_size({"width": 1440, "height": 900})
    print(f"{preset}: {tall:.0f} px tall at 1000 px wide; narrow, {gap:.0f} px from the figure to the settings")


#: What Tab visits in the widget at k = 0 (Reset and Back disabled), as they are seen; the lecture readout scrolls, so
#: it takes the focus too.
_FIRST = ["Step", "End", "Play", "speed", "update k", "picture"]
_SETTINGS = ["data", "order", "start w₁", "start w₂", "start b", "η", "test"]  # the seed waits for random order
TAB_ORDER = {"notebook": _FIRST + _SETTINGS, "lecture": _FIRST[:5] + ["Keys"] + _FIRST[5:] + _SETTINGS + ["readout"]}


def _tab_order(page) -> list:
    """The widget's focusable parts in the page's (Tab's) order, each named by its text or label."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '#widget :is(button, input, select, summary, [tabindex])')]
      .filter((e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length)
      .map((e) => e.classList.contains('pp-picture') ? 'picture' : e.classList.contains('pp-readout') ? 'readout'
        : e.tagName === 'BUTTON' || e.tagName === 'SUMMARY' ? e.textContent.trim()
        : e.closest('label').firstChild.textContent.trim().replace(/ \\(of \\d+\\)$/, ''))""")


@pytest.mark.browser
def test_a_new_run_keeps_the_students_place_and_the_seed_waits_for_random_order(controlled_page):
    """A presenter at update 2 who tries a setting stays at update 2 of the new run; at the end, at the end; a run
    shorter than the place shows its last update, and the place comes back with a longer run. The seed, which
    cyclic order does not use, is disabled there, saying so."""
    page = controlled_page
    player = BrowserControlled(_datasets())
    mount(page, player, CONTROLLED_STATE)
    seed = "#widget .pc-settings input[type=number]"
    assert page.is_disabled(seed) and page.is_visible("#widget .pc-note")
    assert page.evaluate("""(s) => document.querySelector(s).closest('label').textContent""", seed) == \
        "seed (random order only)"
    for _ in range(2):
        page.click("#widget button:text-is('Step')")
    slider = "#widget .pc-settings label:has-text('η') input[type=range]"
    page.focus(slider)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # the slider kept the focus: two notches
    X, y = _datasets()["40 points"]
    run = fit_perceptron(X, y, eta=10 ** -0.5, max_epochs=200)
    assert _frame(page)["readout"][0] == f"Update 2 of {len(run.history) - 1} (epoch {run.history.epoch[1]})."
    page.select_option("#widget .pc-settings label:has-text('order') select", label="random")
    assert not page.is_disabled(seed) and page.is_hidden("#widget .pc-note") and _box(page) == "2"
    page.click("#widget button:text-is('End')")
    page.fill(seed, "5")
    page.press(seed, "Enter")
    run = fit_perceptron(X, y, order="random", rng=5, eta=10 ** -0.5, max_epochs=200)
    K = len(run.history) - 1
    assert _box(page) == str(K) and _frame(page)["readout"][0].startswith(f"Update {K} of {K}")  # the end kept
    page.fill("#widget .pp-controls input[type=number]", str(K - 2))
    choose = "#widget .pc-settings label:has-text('data') select"
    page.select_option(choose, label="6 points")
    six = _datasets()["6 points"]
    K6 = len(fit_perceptron(*six, order="random", rng=5, eta=10 ** -0.5, max_epochs=200).history) - 1
    assert K6 < K - 2 and _box(page) == str(K6)  # a shorter run: its last update
    page.select_option(choose, label="40 points")
    assert _box(page) == str(K - 2)  # and the place back with the longer one
    # Python's run of these settings replaces the browser's at the step on show
    player.settings = page.evaluate("() => window.model.get('settings')")
    page.evaluate("([run, k]) => window.model.fromPythonMany({run, k})", [player.get_state()["run"], player.k])
    assert _box(page) == str(K - 2)
    # the rule is Python's too: the browser's and the library's agree on random places and lengths
    rng = np.random.default_rng(5)
    cases = rng.integers(0, 30, size=(200, 3)).tolist()
    got = page.evaluate("(cs) => cs.map(([k, a, b]) => "
                        "window.front.keptStep(window.front.placeOf(Math.min(k, a), a), b))", cases)
    assert got == [kept_step(min(k, a), a, b) for k, a, b in cases]


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
    assert player.K == len(run.history) - 1 and player.k == 0  # the place (update 0) kept
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
    player.k = player.K
    player.set(eta=1.0)  # at the end: the new run's end
    assert player.k == player.K == len(fit_perceptron(X6, y6, order="random", rng=4, max_epochs=200).history) - 1
    player.set(order="cyclic")
    player.k = 1
    before = player.run
    player.set(seed=9)  # cyclic order uses no seed: the same run, the same place
    assert player.k == 1 and player.run["w"] == before["w"] and player.run["i"] == before["i"]
    assert [c for c in player.controls if c["name"] == "seed"][0]["used_with"] == {
        "name": "order", "value": "random", "note": "random order only"}
    # by hand: (k, K before, K after) -> the update shown
    for case, want in [((0, 5, 9), 0), ((2, 5, 9), 2), ((2, 5, 1), 1), ((5, 5, 3), 3), ((5, 5, 9), 9), ((0, 0, 4), 4)]:
        assert kept_step(*case) == want, case


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
        # at update 0 (the place kept), of the new run
        page.wait_for_selector(f"{ctl} .pp-readout b:has-text('Start state (update 0 of {K}):')")
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
    ctl.get_by_role("button", name="End").first.click()  # at the end: each new run is shown at its end
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
