/*
 * Live examples: run the page's Python in the browser with Pyodide.
 *
 * The site ships Pyodide, the cucumber_rules wheel and its dependencies under live/ (see
 * tools/mkdocs_live.py); nothing is loaded from any other host. Python starts on the first
 * click of a Run button (or when the play/ page starts a match), once per page.
 *
 * Markup (written by tools/docs_live.py):
 *   .live-example            one example; data-session shares variables between examples
 *     template.live-source   the code (several, with data-label, for the rows of an outline)
 *     .live-controls[hidden] a Run button (.live-run), an Edit button, a row selector
 *     .live-output[hidden]   filled here: the steps (pictures), then the printed text
 *   #live-play               the play/ page's match against the bots
 * Without JavaScript the controls stay hidden and the static code, output and pictures remain.
 */
(function () {
  "use strict";

  const script = document.currentScript;
  const root = new URL("../", script ? script.src : location.href); // this file is javascripts/live.js
  const liveURL = new URL("live/", root);
  let runtime = null; // Promise of {py, helper}
  const sessions = new Map(); // data-session -> Python dict shared by a page's examples

  function status(node, text) {
    if (node) node.textContent = text;
  }

  /** Load Pyodide, the wheels and the helper module, once. `report` receives progress text. */
  function python(report) {
    if (runtime) return runtime;
    runtime = (async () => {
      report("Loading Python…");
      const response = await fetch(new URL("manifest.json", liveURL));
      if (!response.ok) {
        throw new Error("This build of the site has no Python runtime (it was built with CUCUMBER_LIVE_DOCS=off).");
      }
      const manifest = await response.json();
      await new Promise((resolve, reject) => {
        const tag = document.createElement("script");
        tag.src = new URL("pyodide/pyodide.js", liveURL).href;
        tag.onload = resolve;
        tag.onerror = () => reject(new Error("Could not load the Python runtime (live/pyodide/pyodide.js)."));
        document.head.appendChild(tag);
      });
      report(`Starting Python ${manifest.python} (Pyodide ${manifest.pyodide})…`);
      const py = await globalThis.loadPyodide({ indexURL: new URL("pyodide/", liveURL).href });
      report("Installing cucumber_rules…");
      await py.loadPackage(manifest.wheels.map((name) => new URL("wheels/" + name, liveURL).href), {
        messageCallback: () => {},
      });
      const helper = await (await fetch(new URL(manifest.helper, liveURL))).text();
      py.FS.writeFile("/home/pyodide/cucumber_live.py", helper);
      py.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
      const module = py.pyimport("cucumber_live");
      report("");
      return { py, module };
    })();
    runtime.catch(() => {
      runtime = null; // let a later click try again
    });
    return runtime;
  }

  function toJS(proxy) {
    const value = proxy.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
    proxy.destroy();
    return value;
  }

  // --- one example --------------------------------------------------------------------------------------

  function sourceOf(example) {
    const editor = example.querySelector("textarea.live-editor");
    return editor ? editor.value : rowSource(example);
  }

  /** The code of the example as written (of the chosen row, for an outline). */
  function rowSource(example) {
    const select = example.querySelector("select.live-row");
    const sources = example.querySelectorAll("template.live-source");
    const chosen = select ? sources[Number(select.value)] : sources[0];
    return chosen ? chosen.content.textContent : "";
  }

  function button(label, title, onClick) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = "live-step";
    node.textContent = label;
    node.title = title;
    node.setAttribute("aria-label", title);
    node.addEventListener("click", onClick);
    return node;
  }

  /** Fill an example's .live-output with the result of a run: a stepper over the pictures, the text. */
  function showResult(output, result) {
    output.replaceChildren();
    output.hidden = false;
    const frames = result.frames || [];
    if (frames.length) {
      const figure = document.createElement("figure");
      figure.className = "live-frame";
      figure.tabIndex = 0; // the arrow keys step through the pictures
      figure.setAttribute("aria-label", "Steps of the example: the arrow keys go back and forth");
      const bar = document.createElement("div");
      bar.className = "live-stepper";
      const picture = document.createElement("div");
      picture.className = "live-picture";
      const caption = document.createElement("figcaption");
      caption.className = "live-caption";
      caption.setAttribute("aria-live", "polite");
      const slider = document.createElement("input");
      slider.type = "range";
      slider.min = "1";
      slider.max = String(frames.length);
      slider.setAttribute("aria-label", "Step");
      const counter = document.createElement("output");
      counter.className = "live-counter";
      let at = frames.length - 1;
      const go = (i) => {
        at = Math.max(0, Math.min(frames.length - 1, i));
        picture.innerHTML = frames[at].svg; // SVG drawn by cucumber_rules.render from this run
        caption.textContent = frames[at].caption;
        counter.textContent = `step ${at + 1} of ${frames.length}`;
        slider.value = String(at + 1);
      };
      bar.append(
        button("First", "First step", () => go(0)),
        button("◀", "Previous step", () => go(at - 1)),
        counter,
        button("▶", "Next step", () => go(at + 1)),
        button("Last", "Last step", () => go(frames.length - 1)),
        slider,
      );
      slider.addEventListener("input", () => go(Number(slider.value) - 1));
      figure.addEventListener("keydown", (event) => {
        if (event.key === "ArrowRight") go(at + 1);
        else if (event.key === "ArrowLeft") go(at - 1);
        else return;
        event.preventDefault();
      });
      figure.append(bar, picture, caption);
      output.append(figure);
      go(frames.length - 1);
    }
    const text = (result.output || "") + (result.error || "");
    if (text || !frames.length) {
      const pre = document.createElement("pre");
      pre.className = "live-text" + (result.error ? " live-error" : "");
      pre.textContent = text || "(the code printed nothing)";
      output.append(pre);
    }
  }

  /** The Python dict an example runs in: shared by the examples of one session, fresh otherwise. */
  function namespaceFor(py, example) {
    const name = example.dataset.session;
    if (!name) return py.toPy({ __name__: "__example__" });
    if (!sessions.has(name)) sessions.set(name, py.toPy({ __name__: "__example__" }));
    return sessions.get(name);
  }

  async function runExample(example) {
    const controls = example.querySelector(".live-controls");
    const run = controls.querySelector(".live-run");
    const note = controls.querySelector(".live-status");
    const output = example.querySelector(".live-output");
    run.disabled = true;
    example.setAttribute("aria-busy", "true");
    try {
      const { py, module } = await python((text) => status(note, text));
      // Earlier examples of the same session run first, once, so their variables exist.
      const session = example.dataset.session;
      if (session) {
        for (const other of document.querySelectorAll(`.live-example[data-session="${session}"]`)) {
          if (other === example) break;
          if (!other.dataset.ran) await runExample(other);
        }
      }
      status(note, "Running…");
      await new Promise((resolve) => setTimeout(resolve, 0)); // let the page show it
      const scope = namespaceFor(py, example);
      const result = toJS(module.run(sourceOf(example), scope));
      if (!session) scope.destroy();
      showResult(output, result);
      example.querySelectorAll(".live-static, .live-static-output").forEach((node) => (node.hidden = true));
      example.dataset.ran = "true";
      status(note, result.error ? "The code raised an error." : "");
    } catch (error) {
      status(note, String(error.message || error));
    } finally {
      run.disabled = false;
      example.removeAttribute("aria-busy");
    }
  }

  function edit(example, toggle) {
    const existing = example.querySelector("textarea.live-editor");
    const code = example.querySelector(".live-code");
    if (existing) {
      existing.remove();
      if (code) code.hidden = false;
      toggle.textContent = "Edit";
      return;
    }
    const editor = document.createElement("textarea");
    editor.className = "live-editor";
    editor.spellcheck = false;
    editor.value = rowSource(example);
    editor.rows = Math.min(30, editor.value.split("\n").length + 1);
    editor.setAttribute("aria-label", "Python code to run");
    editor.addEventListener("keydown", (event) => {
      if (event.key === "Tab" && !event.shiftKey) {
        event.preventDefault();
        editor.setRangeText("    ", editor.selectionStart, editor.selectionEnd, "end");
      } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        runExample(example);
      }
    });
    if (code) {
      const details = code.closest("details");
      if (details) details.open = true;
      code.hidden = true;
      code.after(editor);
    } else {
      example.querySelector(".live-controls").before(editor);
    }
    toggle.textContent = "Show the original";
    editor.focus();
  }

  function setUpExample(example) {
    const controls = example.querySelector(".live-controls");
    if (!controls) return;
    controls.hidden = false;
    controls.querySelector(".live-run").addEventListener("click", () => runExample(example));
    const toggle = controls.querySelector(".live-edit");
    if (toggle) toggle.addEventListener("click", () => edit(example, toggle));
    const reset = controls.querySelector(".live-reset");
    if (reset) {
      reset.addEventListener("click", () => {
        const editor = example.querySelector("textarea.live-editor");
        if (editor) editor.value = rowSource(example);
      });
    }
    const select = controls.querySelector("select.live-row");
    if (select) {
      select.addEventListener("change", () => {
        const editor = example.querySelector("textarea.live-editor");
        if (editor) editor.value = rowSource(example);
        const shown = example.querySelectorAll(".live-code [data-row]");
        shown.forEach((node) => (node.hidden = node.dataset.row !== select.value));
      });
    }
    const editor = example.querySelector("textarea.live-editor");
    if (editor) {
      editor.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          runExample(example);
        }
      });
    }
  }

  // --- the play/ page -----------------------------------------------------------------------------------

  function setUpPlay(page) {
    const form = page.querySelector("form.live-play-setup");
    const table = page.querySelector(".live-play-table");
    const moves = page.querySelector(".live-play-moves");
    const log = page.querySelector(".live-play-log");
    const note = page.querySelector(".live-status");
    const preset = form.elements.preset;
    const players = form.elements.players;
    let match = null;

    const limits = () => {
      const option = preset.selectedOptions[0];
      players.min = option.dataset.min;
      players.max = option.dataset.max;
      players.value = String(Math.max(Number(option.dataset.min), Math.min(Number(option.dataset.max), Number(players.value))));
    };
    preset.addEventListener("change", limits);
    limits();
    page.querySelector(".live-controls").hidden = false;

    const act = async (index) => {
      if (!match) return;
      moves.querySelectorAll("button").forEach((b) => (b.disabled = true));
      draw(toJS(match.act(index)));
    };

    function draw(snapshot) {
      table.innerHTML = snapshot.svg; // drawn by cucumber_rules.render from seat 0's view only
      table.setAttribute("aria-label", snapshot.text);
      moves.replaceChildren();
      const heading = document.createElement("p");
      heading.className = "live-play-status";
      heading.textContent = snapshot.status;
      moves.append(heading);
      for (const move of snapshot.legal) {
        const node = document.createElement("button");
        node.type = "button";
        node.className = "md-button live-move";
        node.dataset.index = String(move.index);
        if (move.card) node.dataset.card = move.card;
        node.textContent = move.card ? `Play ${move.label}` : move.label;
        node.addEventListener("click", () => act(move.index));
        moves.append(node);
      }
      for (const card of table.querySelectorAll(".cr-legal")) {
        const move = snapshot.legal.find((m) => m.card === card.dataset.card);
        if (!move) continue;
        card.style.cursor = "pointer";
        card.addEventListener("click", () => act(move.index));
      }
      for (const line of snapshot.log) {
        const item = document.createElement("li");
        item.textContent = line;
        log.append(item);
      }
      log.scrollTop = log.scrollHeight;
      page.dataset.state = snapshot.over ? "over" : "playing";
    }

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const start = form.querySelector("button[type=submit]");
      start.disabled = true;
      try {
        const { module } = await python((text) => status(note, text));
        if (match) match.destroy();
        const seed = form.elements.seed.value === "" ? Math.floor(Math.random() * 1e9) : Number(form.elements.seed.value);
        form.elements.seed.placeholder = String(seed);
        match = module.Match.callKwargs({
          preset: preset.value,
          players: Number(players.value),
          bots: form.elements.bots.value,
          seed,
        });
        log.replaceChildren();
        page.querySelector(".live-play-board").hidden = false;
        page.querySelectorAll(".live-static").forEach((node) => (node.hidden = true));
        draw(toJS(match.snapshot()));
        status(note, "");
      } catch (error) {
        status(note, String(error.message || error));
      } finally {
        start.disabled = false;
      }
    });
  }

  function start() {
    document.querySelectorAll(".live-example").forEach(setUpExample);
    const play = document.getElementById("live-play");
    if (play) setUpPlay(play);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
