"""The browser's perceptron (perceptron_lib/player/front/) against the library's, in Chromium.

One page loads the joined module (`front.source`) from a Blob URL, as a widget's front end is loaded,
with every request off the machine refused. All the random sets go to the page in one `page.evaluate`
and come back with the browser's runs and readouts, which are compared here with `fit_perceptron`,
`margins.is_separable`, `margins.max_margin_separator` and `own_data.summarize`: the same updates (the
same examples, in the same epochs), states within 1e-12 of their size, the same end (converged, cycle,
epochs), the same separability, gamma within 1e-9, the same bound. The browser's best margin also comes
with dual variables, checked here as a certificate with no solver.

The sets are what the editors can make and more: whole numbers, eighths, the hundredths a click snaps
to, points exactly on a line, sets no line separates (cycles), one class only, repeated points, and
all of these lifted to (x1, x2, x1^2 + x2^2) as lesson 05's editor fits them; every mistake test,
both orders (random with the seeds the seed box offers), the eta of lesson 03's slider, start states
off 0, with and without offset, and the margin perceptron's threshold.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from perceptron_lib.core import kernels, margins
from perceptron_lib.core.own_data import summarize
from perceptron_lib.core.training import fit_perceptron
from perceptron_lib.player import front

N_SETS = 1200
#: lesson 03's eta slider: 10 ** e for e = -2, -1.75, ..., 1; and its start sliders: -2, -1.75, ..., 2
ETAS = [float(10.0**e) for e in np.arange(-2.0, 1.0 + 1e-9, 0.25)]
STARTS = [float(v) for v in np.arange(-2.0, 2.0 + 1e-9, 0.25)]
KINDS = ("integer", "eighths", "hundredths", "on_line", "no_line", "one_class", "repeated")


# ---------------------------------------------------------------------------------------------- the sets
def _labels_by_line(X, rng, *, whole):
    """Labels by a random line (points on it get a random label), or by coin flips a third of the time."""
    if rng.random() < 1 / 3:
        return rng.choice([-1.0, 1.0], size=len(X))
    a = rng.integers(-3, 4, size=3).astype(float) if whole else rng.normal(size=3)
    s = X @ a[:2] + a[2]
    return np.where(s > 0, 1.0, np.where(s < 0, -1.0, rng.choice([-1.0, 1.0], size=len(X))))


def _points(kind, rng):
    n = int(rng.integers(4 if kind == "on_line" else 2, 26))
    if kind == "eighths":
        X = rng.integers(-24, 25, size=(n, 2)) / 8
    elif kind == "hundredths":
        X = np.round(rng.uniform(-2, 2, size=(n, 2)), 2)
    else:
        X = rng.integers(-4, 5, size=(n, 2)).astype(float)
    if kind == "on_line":  # at least three points exactly on a line with whole coefficients
        a1, a2 = rng.integers(1, 3, size=2) * rng.choice([-1, 1], size=2)
        t = rng.integers(-3, 4, size=3)
        X[:3] = np.column_stack([a2 * t, -a1 * t]) + rng.integers(-1, 2)
        y = _labels_by_line(X, rng, whole=True)
    elif kind == "no_line":
        y = rng.choice([-1.0, 1.0], size=n)
        y[: min(n, 4)] = [1.0, -1.0, 1.0, -1.0][: min(n, 4)]
        X[: min(n, 4)] = [[1, 1], [1, -1], [-1, -1], [-1, 1]][: min(n, 4)]  # XOR: no line
    elif kind == "one_class":
        y = np.full(n, rng.choice([-1.0, 1.0]))
    else:
        y = _labels_by_line(X, rng, whole=kind != "hundredths")
    if kind == "repeated":
        X[n // 2 :] = X[: n - n // 2]
        y[n // 2 :] = y[: n - n // 2]
    # the editor refuses one spot with two labels: drop the later point of such a pair
    keep = [i for i in range(n) if not any((X[j] == X[i]).all() and y[j] != y[i] for j in range(i))]
    return X[keep], y[keep]


def _settings(rng, n):
    update_on = str(rng.choice(["nonpositive", "negative", "sign"]))
    order = "random" if rng.random() < 0.4 else "cyclic"
    s = dict(
        update_on=update_on,
        order=order,
        eta=1.0 if rng.random() < 0.4 else float(rng.choice(ETAS)),
        fit_bias=bool(rng.random() < 0.7),
        margin=1.0 if update_on != "sign" and rng.random() < 0.15 else 0.0,
        max_epochs=int(rng.choice([1, 3, 20, 100, 200] if order == "cyclic" or n <= 8 else [1, 3, 10, 30])),
    )
    s["w0"] = [0.0, 0.0] if rng.random() < 0.6 else [float(v) for v in rng.choice(STARTS, size=2)]
    s["b0"] = 0.0 if rng.random() < 0.6 else float(rng.choice(STARTS))
    if order == "random":
        s["rng"] = int(rng.integers(0, 1000))
    return s


def _cases():
    rng = np.random.default_rng(20240530)
    cases = []
    for k in range(N_SETS):
        kind = KINDS[k % len(KINDS)]
        X, y = _points(kind, rng)
        s = _settings(rng, len(y))
        lifted = bool(rng.random() < 0.25)
        if lifted:
            s["w0"] = s["w0"] + [0.0]
        cases.append(dict(kind=kind, X=X, y=y, lifted=lifted, settings=s))
    return cases


def _js_options(s):
    """fit_perceptron's keyword arguments as the browser's fitPerceptron takes them."""
    return dict(eta=s["eta"], maxEpochs=s["max_epochs"], order=s["order"], seed=s.get("rng", 0), w0=s["w0"],
                b0=s["b0"], fitBias=s["fit_bias"], updateOn=s["update_on"], margin=s["margin"])


# ---------------------------------------------------------------------------------------------- the page
#: The answers come back as one JSON text: far faster than Playwright's copy of nested objects, and exact
#: (both sides write and read a double by its shortest round-trip digits). NaN becomes null.
RUN_ALL = """(cases) => JSON.stringify(cases.map((c) => {
    const lib = window.front;
    const X = c.lifted ? lib.lift(c.X) : c.X;
    const run = lib.fitPerceptron(X, c.y, c.options);
    const s = lib.summarize(X, c.y, run);
    const sep = s.separator;
    return {
        X: X, i: run.history.i, epoch: run.history.epoch, w: run.history.w, b: run.history.b,
        before: run.history.marginBefore, after: run.history.marginAfter,
        mistakes: run.mistakes, epochs: run.epochs, converged: run.converged, cycle: run.cycle,
        separable: s.separable, R: s.R, gamma: s.gamma, bound: s.bound, boundPlain: s.boundPlain,
        sep: sep === null ? null : {w: sep.w, b: sep.b, alpha: sep.alpha, upper: sep.upper},
    };
}))"""


@pytest.fixture(scope="module")
def page(chromium):
    """A blank page holding the joined module as ``window.front``; nothing is fetched from the network."""
    ctx = chromium.new_context()
    ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "blob:", "about:")) else r.abort())
    page = ctx.new_page()
    page.set_content("<!doctype html><title>the perceptron in the browser</title>")
    page.evaluate("""async (src) => {
        const url = URL.createObjectURL(new Blob([src], {type: "text/javascript"}));
        window.front = await import(url);
    }""", front.source())
    yield page
    ctx.close()


@pytest.fixture(scope="module")
def results(page):
    """Each case with the library's run and readout and the browser's, the browser's from one evaluate."""
    cases = _cases()
    sent = [dict(X=c["X"].tolist(), y=c["y"].tolist(), lifted=c["lifted"], options=_js_options(c["settings"]))
            for c in cases]
    answers = json.loads(page.evaluate(RUN_ALL, sent))
    out = []
    for c, js in zip(cases, answers, strict=True):
        Xf = kernels.lift(c["X"]) if c["lifted"] else c["X"]
        run = fit_perceptron(Xf, c["y"], **c["settings"])
        summary = summarize(Xf, c["y"], run)
        sep = margins.max_margin_separator(Xf, c["y"], fit_bias=run.fit_bias) if summary.separable else None
        # summary.separable is margins.is_separable's answer when both classes are there, else None
        out.append(dict(case=c, Xf=Xf, run=run, summary=summary, sep=sep, separable=summary.separable, js=js))
    return out


def _name(r):
    c = r["case"]
    return f"{c['kind']}{' lifted' if c['lifted'] else ''} n={len(c['y'])} {c['settings']}"


def _report(failures):
    assert not failures, f"{len(failures)} sets differ; the first:\n" + "\n".join(failures[:5])


# ---------------------------------------------------------------------------------------------- the tests
@pytest.mark.browser
def test_the_sets_cover_what_the_editors_offer(results):
    """Not a check of the browser: that the sets hold every case the comparisons below are about."""
    runs = [r["run"] for r in results]
    settings = [r["case"]["settings"] for r in results]
    assert len(results) >= 1000
    for rule in ("nonpositive", "negative", "sign"):
        for order in ("cyclic", "random"):
            for bias in (True, False):
                assert any(s["update_on"] == rule and s["order"] == order and s["fit_bias"] == bias for s in settings)
    assert sum(r.cycle is not None for r in runs) >= 50, "too few cycles"
    assert sum(r.converged for r in runs) >= 200 and sum(not r.converged and r.cycle is None for r in runs) >= 50
    assert sum(r["separable"] is True for r in results) >= 200 and sum(r["separable"] is False for r in results) >= 200
    assert sum(r["case"]["lifted"] and r["separable"] is True for r in results) >= 50
    # a point exactly on the line of a state that is not 0 (where every point is on the line)
    on_line = sum(bool(((r.history.margin_before == 0) & (np.abs(r.history.w[:-1]).sum(axis=1) > 0)).any())
                  for r in runs)
    assert on_line >= 50, f"only {on_line} runs update on a point exactly on the line of a state other than 0"


@pytest.mark.browser
def test_the_browser_makes_the_same_updates(results):
    failures = []
    for r in results:
        h, js = r["run"].history, r["js"]
        if js["i"] != h.i.tolist() or js["epoch"] != h.epoch.tolist():
            first = next((k for k, (a, b) in enumerate(zip(js["i"], h.i.tolist(), strict=False)) if a != b),
                         min(len(js["i"]), len(h.i)))
            failures.append(f"{_name(r)}: {len(js['i'])} updates against {len(h.i)}; first difference at update "
                            f"{first + 1}: browser {js['i'][first:first + 3]}, library {h.i.tolist()[first:first + 3]}")
    _report(failures)


@pytest.mark.browser
def test_the_browser_ends_the_same_way(results):
    failures = []
    for r in results:
        run, js = r["run"], r["js"]
        cycle = None if run.cycle is None else dict(start=run.cycle.start, length=run.cycle.length,
                                                    mistakesPerCycle=run.cycle.mistakes_per_cycle)
        mine = (js["mistakes"], js["epochs"], js["converged"], js["cycle"])
        theirs = (run.mistakes, run.epochs, run.converged, cycle)
        if mine != theirs:
            failures.append(f"{_name(r)}: browser {mine}, library {theirs}")
    _report(failures)


@pytest.mark.browser
def test_the_browser_visits_the_same_states(results):
    """Every state within 1e-12 of its size, and each update's margins before and after within 1e-12 of theirs."""
    failures = []
    for r in results:
        h, js = r["run"].history, r["js"]
        if len(js["b"]) != len(h.b):
            continue  # the updates differ: the test of the updates says so
        W, B = np.array(js["w"], dtype=float).reshape(h.w.shape), np.array(js["b"], dtype=float)
        size = np.linalg.norm(h.w, axis=1) + np.abs(h.b)
        gap = np.maximum(np.abs(W - h.w).max(axis=1), np.abs(B - h.b))
        if (gap > 1e-12 * size).any():
            k = int(np.argmax(gap - 1e-12 * size))
            failures.append(f"{_name(r)}: state {k} is {W[k].tolist()}, {B[k]} in the browser, "
                            f"{h.w[k].tolist()}, {h.b[k]} in the library")
            continue
        if len(h.i):
            Xi = r["Xf"][h.i]
            m_size = (np.linalg.norm(h.w[1:], axis=1) + np.linalg.norm(h.w[:-1], axis=1)) * np.linalg.norm(Xi, axis=1)
            m_size += np.abs(h.b[1:]) + np.abs(h.b[:-1])
            pairs = (("before", js["before"], h.margin_before), ("after", js["after"], h.margin_after))
            for name, mine, theirs in pairs:
                if (np.abs(np.array(mine, dtype=float) - theirs) > 1e-12 * m_size).any():
                    failures.append(f"{_name(r)}: the margins {name} the updates differ")
    _report(failures)


@pytest.mark.browser
def test_the_browser_reads_the_data_as_the_library_does(results):
    """Separability, R, gamma (within 1e-9 of max_margin_separator's) and the bounds the readout states."""
    failures = []
    for r in results:
        s, js = r["summary"], r["js"]
        if js["separable"] != s.separable:
            failures.append(f"{_name(r)}: separable {js['separable']} in the browser, {s.separable} in the library")
            continue
        if not math.isclose(js["R"], s.R, rel_tol=1e-15, abs_tol=0.0):
            failures.append(f"{_name(r)}: R = {js['R']} in the browser, {s.R} in the library")
        if not s.separable:
            continue
        if abs(js["gamma"] - r["sep"].gamma) > 1e-9:
            failures.append(f"{_name(r)}: gamma = {js['gamma']!r} in the browser, {r['sep'].gamma!r} in the library")
        for name, theirs in (("bound", s.bound), ("boundPlain", s.bound_plain)):
            if not math.isclose(js[name], theirs, rel_tol=1e-8):
                failures.append(f"{_name(r)}: {name} = {js[name]!r} in the browser, {theirs!r} in the library")
    _report(failures)


@pytest.mark.browser
def test_the_browsers_gamma_carries_its_certificate(results):
    """The dual variables the browser returns prove its separator best, checked with numpy alone.

    For the unit separator (w, b) with margin gamma, w / gamma is a feasible point of the hard-margin SVM
    (every y_i(<w, x_i> + b) / gamma >= 1), of value 1 / (2 gamma^2). Dual variables alpha >= 0 with
    sum alpha_i y_i = 0 (with an offset) give the lower bound sum alpha - |sum alpha_i y_i x_i|^2 / 2 on
    every feasible value. Equal to 1e-9, nothing has a larger margin than gamma (to 1e-9); and the alpha
    are the KKT multipliers: sum alpha_i y_i x_i = w / gamma, nonzero only where the margin is gamma.
    """
    failures = []
    checked = 0
    for r in results:
        js = r["js"]
        if not js["separable"]:
            continue
        checked += 1
        X, y, sep = np.array(js["X"], dtype=float), r["case"]["y"], js["sep"]
        w, b, alpha, gamma = np.array(sep["w"]), sep["b"], np.array(sep["alpha"]), js["gamma"]
        m = y * (X @ w + b)
        v = (alpha * y) @ X
        primal, dual = 0.5 / gamma**2, alpha.sum() - 0.5 * v @ v
        R = max(float(np.linalg.norm(X, axis=1).max()), 1.0)
        problems = [
            ("w has length 1", abs(np.linalg.norm(w) - 1) <= 1e-12),
            ("gamma is the separator's margin", abs(m.min() - gamma) <= 1e-12 * R),
            ("alpha >= 0", (alpha >= 0).all()),
            ("sum alpha_i y_i = 0", not r["run"].fit_bias or abs(alpha @ y) <= 1e-9 * alpha.sum()),
            ("sum alpha_i y_i x_i = w / gamma", np.abs(v - w / gamma).max() <= 1e-9 * np.abs(w / gamma).max()),
            ("no duality gap", primal - dual <= 1e-9 * primal),
            ("alpha only on the support", (m[alpha > 0] <= gamma + 1e-9 * R).all()),
            # the hull's least length bounds every margin from above: the two meet, to rounding
            ("the hull's bound", gamma - 1e-12 * R <= sep["upper"] <= gamma + 1e-9 * R),
        ]
        bad = [name for name, ok in problems if not ok]
        if bad:
            failures.append(f"{_name(r)}: {', '.join(bad)}")
    assert checked >= 200
    _report(failures)


@pytest.mark.browser
def test_random_order_is_numpys(page):
    """`numpy_random.js`'s permutations are `default_rng(seed).permutation(n)`'s, epoch after epoch."""
    seeds = [*range(0, 1000, 7), 999, 2**32 - 1, 2**32, 2**40 + 3]
    lengths = [1, 2, 3, 7, 40, 200, 500]
    theirs = []
    for seed in seeds:
        gen = np.random.default_rng(seed)
        theirs.append([gen.permutation(n).tolist() for n in lengths])
    mine = page.evaluate("""([seeds, lengths]) => seeds.map((seed) => {
        const gen = window.front.pcg64(seed);
        return lengths.map((n) => window.front.permutation(gen, n));
    })""", [seeds, lengths])
    assert mine == theirs


@pytest.mark.browser
def test_the_browser_refuses_bad_settings_clearly(page):
    messages = page.evaluate("""() => [
        {eta: 0}, {order: "shuffled"}, {updateOn: "sign", margin: 1}, {w0: [0]}, {maxEpochs: 0},
    ].map((o) => { try { window.front.fitPerceptron([[1, 2]], [1], o); return "no error"; }
                   catch (e) { return e.message; } })""")
    assert messages[0].startswith("eta must be a number > 0")
    assert "cyclic or random" in messages[1]
    assert "updateOn 'sign'" in messages[2]
    assert messages[3].startswith("w0 must be 2 finite numbers")
    assert messages[4].startswith("maxEpochs must be a whole number >= 1")


def test_the_modules_join_into_one():
    text = front.source()
    assert 'from "./' not in text
    assert all(f"// ---- {name}" in text for name in front.MODULES)
    with pytest.raises(ValueError, match="perceptron.js imports numpy_random.js"):
        front.source(("perceptron.js", "numpy_random.js"))


def test_two_modules_may_not_declare_one_name():
    # the joined module would not parse ("Identifier 'X' has already been declared"): no player would draw
    clash = {"a.js": "export const NARROW_PX = 500;\n", "b.js": "function f() {\n  const NARROW_PX = 1;\n}\n"
             "export const NARROW_PX = 400;\n"}
    with pytest.raises(ValueError, match="b.js and a.js both declare the top-level name 'NARROW_PX'"):
        front.join(clash)
    inner = {"a.js": "export const X = 1;\n", "b.js": "function f() {\n  const X = 2;\n  return X;\n}\n"}
    assert "const X = 2" in front.join(inner)  # a name inside a function is its own
