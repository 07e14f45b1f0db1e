/* The live widgets of a page without a kernel (tools/widget_embed.py writes the page's part).
 *
 * Loaded with `defer` after require.js, the widget manager (libembed-amd.js) and the page's shared modules
 * (modules/<hash>.js, each setting window.courseWidgetModules[hash]). It points require.js at anywidget's front
 * end beside this file, puts each shared module text back into the widget state, and draws every widget view of
 * the page where its output stood, removing the still picture shown until then. A view that cannot be drawn
 * keeps its still. Then <html data-course-widgets="ready"> (or "failed") and the event "course-widgets" on the
 * document, whose detail says how many views were drawn and what failed.
 */
(() => {
  const STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';
  const VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';
  const SHARED = "$course_module";
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  const why = (err) => String(err?.message || err);

  const finish = (status, detail) => {
    document.documentElement.dataset.courseWidgets = status;
    document.dispatchEvent(new CustomEvent("course-widgets", { detail }));
  };
  /** Why a widget is not drawn, for whoever opens the browser's console (the page keeps its still). */
  const report = (what, err) => {
    // biome-ignore lint/suspicious/noConsole: a page without a kernel has no other place to say what failed
    console.error(what, err);
  };

  /** The text a shared trait stands for ({"$course_module": hash}), or undefined for any other value. */
  const sharedText = (value, pool) => {
    const key = value && typeof value === "object" ? value[SHARED] : undefined;
    if (typeof key !== "string") return undefined;
    if (!(key in pool)) throw new Error(`the page lacks the widget module ${key}`);
    return pool[key];
  };

  /** The state with each shared text put back in place. */
  const filled = (state) => {
    const pool = window.courseWidgetModules || {};
    for (const model of Object.values(state.state)) {
      const traits = model.state || {};
      for (const [name, value] of Object.entries(traits)) {
        const text = sharedText(value, pool);
        if (text !== undefined) traits[name] = text;
      }
    }
    return state;
  };

  /** Draw the view of `script` (a widget-view output) before it; its still goes once the view is drawn. */
  const drawView = async (manager, models, script) => {
    const spec = JSON.parse(script.textContent);
    const model = models.find((m) => m.model_id === spec.model_id);
    if (!model) throw new Error(`no state for the widget ${spec.model_id}`);
    const area = document.createElement("div");
    area.className = "widget-subarea";
    script.parentElement.insertBefore(area, script);
    const view = await manager.create_view(model);
    await manager.display_view(view, area);
    script.parentElement.querySelector("img.course-widget-still")?.remove();
  };

  const drawAll = async (html, embed, stateScript) => {
    const manager = new html.HTMLManager({ loader: embed.requireLoader });
    const models = await manager.set_state(filled(JSON.parse(stateScript.textContent)));
    const failed = [];
    const done = await Promise.all(
      Array.from(document.querySelectorAll(VIEW), (script) =>
        drawView(manager, models, script).then(
          () => 1,
          (err) => {
            failed.push(why(err));
            report("a widget could not be drawn; its still picture stays", err);
            return 0;
          },
        ),
      ),
    );
    const drawn = done.reduce((a, b) => a + b, 0);
    finish(failed.length ? "failed" : "ready", { drawn, failed });
  };

  const stateScript = document.querySelector(STATE);
  if (!stateScript || typeof window.require !== "function") {
    finish("failed", { drawn: 0, failed: ["the page has no widget state or no require.js"] });
    return;
  }
  window.require.config({ paths: { anywidget: `${here}anywidget` } });
  window.require(
    ["@jupyter-widgets/html-manager", "@jupyter-widgets/html-manager/dist/libembed-amd"],
    (html, embed) =>
      drawAll(html, embed, stateScript).catch((err) => {
        report("the page's widgets could not be loaded", err);
        finish("failed", { drawn: 0, failed: [why(err)] });
      }),
    (err) => {
      report("the widget manager could not be loaded", err);
      finish("failed", { drawn: 0, failed: [why(err)] });
    },
  );
})();
