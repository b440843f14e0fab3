/*
 * Live examples: run the page's Python in the browser with Pyodide.
 *
 * The site ships Pyodide, the cucumber_rules wheel and its dependencies under live/ (see
 * tools/mkdocs_live.py); nothing is loaded from any other host. Python starts on the first
 * click of a Run button (or when the play/ page starts a match), once per visit: with the theme's
 * instant navigation (navigation.instant in mkdocs.yml) a link to another page of the site replaces
 * the page's content without reloading the window, so this script, Pyodide and the loaded wheels stay,
 * and the next page's examples run at once. Each page is set up when the theme's `document$` says
 * it is shown (once, at DOMContentLoaded, without the theme's script) and torn down when the next
 * one comes: its Python variables, a match in progress and its timers go with it.
 *
 * Markup (written by tools/docs_live.py):
 *   .live-example            one example; data-session shares variables between examples
 *     template.live-source   the code (several, with data-label, for the rows of an outline)
 *     .live-controls[hidden] a Run button (.live-run), an Edit button, a row selector
 *     .live-output[hidden]   filled here: the steps (pictures), then the printed text
 *   #live-play               the play/ page's match against the bots: a form, then a board with the
 *                            table, the moves, a completed trick until the player moves on, the last
 *                            trick and the log (newest first)
 * Without JavaScript the controls stay hidden and the static code, output and pictures remain.
 */
(function () {
  "use strict";

  const script = document.currentScript;
  const root = new URL("../", script ? script.src : location.href); // this file is javascripts/live.js
  const liveURL = new URL("live/", root);
  let runtime = null; // Promise of {py, module}: one Python for the whole visit, kept across pages
  let loading = null; // while Python starts: {stage: [text, progress], started}
  const listeners = new Set(); // report(text, progress) of the shown page's status lines, while it starts
  let shown = null; // the page set up now (see `mount`)

  /** Say `text` in a status line; with `progress` (0..1), a progress bar beside it. */
  function status(node, text, progress) {
    if (!node) return;
    node.replaceChildren();
    if (!text) return;
    node.append(text);
    if (progress !== undefined) {
      const bar = document.createElement("progress");
      bar.className = "live-progress";
      bar.max = 100;
      bar.value = Math.round(progress * 100);
      bar.setAttribute("aria-label", "Starting Python");
      node.append(" ", bar);
    }
  }

  /** Tell `report` how far Python has got: the stage (of four) and the seconds so far. */
  function tell(report) {
    const seconds = Math.floor((performance.now() - loading.started) / 1000);
    report(`${loading.stage[0]}… ${seconds ? `${seconds} s` : ""}`.trim(), loading.stage[1]);
  }

  /**
   * Load Pyodide, the wheels and the helper module, once per visit (the promise is kept across the
   * pages of an instant navigation). `report(text, progress)` hears how far it has got until it is
   * ready, or until the page is left: starting Python takes seconds.
   */
  function python(report) {
    if (report && !runtime) listeners.add(report);
    else if (report && loading) {
      listeners.add(report);
      tell(report);
    }
    if (runtime) return runtime;
    loading = { stage: ["Loading Python", 0], started: performance.now() };
    const say = () => listeners.forEach(tell);
    const next = (text, progress) => {
      loading.stage = [text, progress];
      say();
    };
    const ticking = setInterval(say, 1000);
    const settle = () => {
      clearInterval(ticking);
      loading = null;
      const waiting = [...listeners];
      listeners.clear();
      return waiting;
    };
    runtime = (async () => {
      next("Loading Python (1 of 4)", 0.05);
      const response = await fetch(new URL("manifest.json", liveURL));
      if (!response.ok) {
        throw new Error("This build of the site has no Python runtime (it was built with CUCUMBER_LIVE_DOCS=off).");
      }
      const manifest = await response.json();
      if (typeof globalThis.loadPyodide !== "function") {
        await new Promise((resolve, reject) => {
          const tag = document.createElement("script");
          tag.src = new URL("pyodide/pyodide.js", liveURL).href;
          tag.onload = resolve;
          tag.onerror = () => reject(new Error("Could not load the Python runtime (live/pyodide/pyodide.js)."));
          // In the body, not the head: the theme's instant navigation drops the head's extra elements.
          document.body.appendChild(tag);
        });
      }
      next(`Starting Python ${manifest.python}, Pyodide ${manifest.pyodide} (2 of 4)`, 0.25);
      const py = await globalThis.loadPyodide({ indexURL: new URL("pyodide/", liveURL).href });
      next("Installing cucumber_rules (3 of 4)", 0.7);
      await py.loadPackage(manifest.wheels.map((name) => new URL("wheels/" + name, liveURL).href), {
        messageCallback: () => {},
      });
      const helper = await (await fetch(new URL(manifest.helper, liveURL))).text();
      py.FS.writeFile("/home/pyodide/cucumber_live.py", helper);
      py.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
      next("Starting the examples (4 of 4)", 0.95);
      const module = py.pyimport("cucumber_live");
      return { py, module };
    })();
    runtime.then(
      () => settle().forEach((report) => report("")),
      () => {
        settle();
        runtime = null; // let a later click try again
      },
    );
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
    if (frames.length === 1) {
      // One picture: no stepper ("step 1 of 1" would offer nothing to step through).
      const figure = document.createElement("figure");
      figure.className = "live-frame live-single";
      const picture = document.createElement("div");
      picture.className = "live-picture";
      picture.innerHTML = frames[0].svg; // SVG drawn by cucumber_rules.render from this run
      figure.append(picture);
      if (frames[0].caption) {
        const caption = document.createElement("figcaption");
        caption.className = "live-caption";
        caption.textContent = frames[0].caption;
        figure.append(caption);
      }
      output.append(figure);
    } else if (frames.length) {
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

  /**
   * The Python dict an example runs in: shared by the examples of one session on this page, fresh
   * otherwise. (Sessions are the page's own: another page's session of the same name starts afresh.)
   */
  function namespaceFor(py, example, page) {
    const name = example.dataset.session;
    if (!name) return py.toPy({ __name__: "__example__" });
    if (!page.sessions.has(name)) page.sessions.set(name, py.toPy({ __name__: "__example__" }));
    return page.sessions.get(name);
  }

  async function runExample(example, page) {
    const controls = example.querySelector(".live-controls");
    const run = controls.querySelector(".live-run");
    const note = controls.querySelector(".live-status");
    const output = example.querySelector(".live-output");
    run.disabled = true;
    example.setAttribute("aria-busy", "true");
    try {
      const { py, module } = await python((text, progress) => status(note, text, progress));
      if (!page.alive) return; // the reader went on to another page meanwhile
      // Earlier examples of the same session run first, once, so their variables exist.
      const session = example.dataset.session;
      if (session) {
        for (const other of document.querySelectorAll(`.live-example[data-session="${session}"]`)) {
          if (other === example) break;
          if (!other.dataset.ran) await runExample(other, page);
        }
      }
      status(note, "Running…");
      await new Promise((resolve) => setTimeout(resolve, 0)); // let the page show it
      if (!page.alive) return;
      const scope = namespaceFor(py, example, page);
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

  function edit(example, toggle, page) {
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
        runExample(example, page);
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

  function setUpExample(example, page) {
    const controls = example.querySelector(".live-controls");
    if (!controls) return;
    controls.hidden = false;
    controls.querySelector(".live-run").addEventListener("click", () => runExample(example, page));
    const toggle = controls.querySelector(".live-edit");
    if (toggle) toggle.addEventListener("click", () => edit(example, toggle, page));
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
          runExample(example, page);
        }
      });
    }
  }

  // --- the play/ page -----------------------------------------------------------------------------------
  //
  // The drawing functions take plain documents (a snapshot of seat 0's view, a completed trick), so another
  // way to play (e.g. a table shared with friends) can reuse them; `setUpPlay` wires the match against bots.

  /** Draw a snapshot's table: the picture, its description, and clicks on the cards the player may play. */
  function drawTable(container, snapshot, onMove) {
    container.innerHTML = snapshot.svg; // drawn by cucumber_rules.render from seat 0's view only
    container.setAttribute("aria-label", snapshot.text);
    for (const card of container.querySelectorAll(".cr-legal")) {
      const move = snapshot.legal.find((m) => m.card === card.dataset.card);
      if (!move) continue;
      card.style.cursor = "pointer";
      card.addEventListener("click", () => onMove(move.index));
    }
  }

  /** The player's choices: a status line, a button per legal move, and why other cards may not be played. */
  function drawMoves(container, snapshot, onMove) {
    container.replaceChildren();
    const heading = document.createElement("p");
    heading.className = "live-play-status";
    heading.textContent = snapshot.status;
    container.append(heading);
    for (const move of snapshot.legal) {
      const node = document.createElement("button");
      node.type = "button";
      node.className = "md-button live-move";
      node.dataset.index = String(move.index);
      if (move.card) node.dataset.card = move.card;
      node.textContent = move.card ? `Play ${move.label}` : move.label;
      node.addEventListener("click", () => onMove(move.index));
      container.append(node);
    }
    if ((snapshot.hints || []).length) {
      const hints = document.createElement("ul");
      hints.className = "live-play-hints";
      for (const hint of snapshot.hints) {
        const item = document.createElement("li");
        item.textContent = hint;
        hints.append(item);
      }
      container.append(hints);
    }
  }

  /** A completed trick in `container`: its picture (every card, who took it) and what it cost. */
  function drawTrick(container, trick) {
    container.replaceChildren();
    const picture = document.createElement("div");
    picture.className = "live-play-trick-picture";
    picture.innerHTML = trick.svg; // drawn by cucumber_rules.render
    const caption = document.createElement("p");
    caption.className = "live-play-trick-caption";
    caption.textContent = `${trick.taker} ${trick.taker === "You" ? "take" : "takes"} trick ${trick.number}. Cost: ${trick.cost}.`;
    container.append(picture, caption);
  }

  /** Lines of the match's log, newest first. */
  function addToLog(log, lines) {
    for (const line of lines) {
      const item = document.createElement("li");
      item.textContent = line;
      log.prepend(item);
    }
  }

  /**
   * Show each trick completed since the player's move until they move on: a click on Continue, or, when
   * the page's "move on by itself" box is ticked, a short pause. Leaving the page ends the wait (and
   * its timer) at once.
   */
  async function reviewTricks(panel, tricks, pauseMs, page) {
    for (const trick of tricks) {
      if (!page.alive) return;
      drawTrick(panel.querySelector(".live-play-trick-body"), trick);
      panel.hidden = false;
      const next = panel.querySelector(".live-play-continue");
      await new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          next.removeEventListener("click", done);
          page.cleanups.delete(done);
          resolve();
        };
        const timer = pauseMs() ? setTimeout(done, pauseMs()) : null;
        next.addEventListener("click", done);
        page.cleanups.add(done);
        next.focus({ preventScroll: true });
      });
    }
    panel.hidden = true;
  }

  function setUpPlay(element, page) {
    const form = element.querySelector("form.live-play-setup");
    const board = element.querySelector(".live-play-board");
    const table = element.querySelector(".live-play-table");
    const moves = element.querySelector(".live-play-moves");
    const trickPanel = element.querySelector(".live-play-trick");
    const last = element.querySelector(".live-play-last");
    const log = element.querySelector(".live-play-log");
    const intro = element.querySelector(".live-play-intro");
    const problem = element.querySelector(".live-play-error");
    const note = element.querySelector(".live-status");
    const preset = form.elements.preset;
    const players = form.elements.players;
    const seed = form.elements.seed;
    const pauseMs = () => (form.elements.autoplay.checked ? 2500 : 0);
    let match = null;
    let busy = false;
    page.cleanups.add(() => {
      // Leaving the page ends the match: its Python object is freed (a pending trick's wait ends too).
      if (match) match.destroy();
      match = null;
    });

    const limits = () => {
      const option = preset.selectedOptions[0];
      players.min = option.dataset.min;
      players.max = option.dataset.max;
      players.value = String(Math.max(Number(option.dataset.min), Math.min(Number(option.dataset.max), Number(players.value))));
    };
    preset.addEventListener("change", limits);
    limits();
    element.querySelector(".live-controls").hidden = false;
    const logBox = element.querySelector(".live-play-log-box");
    if (logBox && window.matchMedia && !window.matchMedia("(min-width: 60em)").matches) logBox.open = false;

    /** Say what is wrong with the form on the page (not only in a browser tooltip). */
    const complain = (field, text) => {
      problem.textContent = text;
      problem.hidden = !text;
      for (const node of [players, seed]) node.removeAttribute("aria-invalid");
      if (field) {
        field.setAttribute("aria-invalid", "true");
        field.focus();
      }
    };

    const checkForm = () => {
      const option = preset.selectedOptions[0];
      const [low, high, count] = [Number(option.dataset.min), Number(option.dataset.max), Number(players.value)];
      if (players.value === "" || !Number.isInteger(count) || count < low || count > high) {
        return [players, `${option.textContent} is for ${low} to ${high} players, not ${players.value || "none"}: choose ${low}–${high}.`];
      }
      if (seed.value !== "" && !(Number.isInteger(Number(seed.value)) && Number(seed.value) >= 0)) {
        return [seed, `The seed is a whole number, 0 or more (or leave it empty for a random one), not ${seed.value}.`];
      }
      return [null, ""];
    };

    function show(snapshot) {
      drawTable(table, snapshot, act);
      drawMoves(moves, snapshot, act);
      if (snapshot.last_trick) {
        drawTrick(last.querySelector(".live-play-last-body"), snapshot.last_trick);
        last.hidden = false;
      } else {
        last.hidden = true;
      }
      element.dataset.state = snapshot.over ? "over" : "playing";
    }

    async function act(index) {
      if (!match || busy) return;
      busy = true;
      moves.querySelectorAll("button").forEach((b) => (b.disabled = true));
      try {
        const snapshot = toJS(match.act(index));
        if (snapshot.tricks.length) {
          table.hidden = true;
          moves.hidden = true;
          await reviewTricks(trickPanel, snapshot.tricks, pauseMs, page);
          if (!page.alive) return;
          table.hidden = false;
          moves.hidden = false;
        }
        addToLog(log, snapshot.log);
        show(snapshot);
      } finally {
        busy = false;
      }
    }

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const [field, text] = checkForm();
      complain(field, text);
      if (field) return;
      const start = form.querySelector("button[type=submit]");
      start.disabled = true;
      try {
        const { module } = await python((message, progress) => status(note, message, progress));
        if (!page.alive) return; // the reader went on to another page meanwhile
        if (match) match.destroy();
        const chosen = seed.value === "" ? Math.floor(Math.random() * 1e9) : Number(seed.value);
        match = module.Match.callKwargs({
          preset: preset.value,
          players: Number(players.value),
          bots: form.elements.bots.value,
          seed: chosen,
        });
        log.replaceChildren();
        trickPanel.hidden = true;
        table.hidden = false;
        moves.hidden = false;
        intro.textContent = match.intro || "";
        intro.hidden = !match.intro;
        board.hidden = false;
        element.querySelectorAll(".live-static").forEach((node) => (node.hidden = true));
        const snapshot = toJS(match.snapshot());
        addToLog(log, snapshot.log);
        show(snapshot);
        status(note, `Seed ${chosen}: give it again to replay these deals.`);
      } catch (error) {
        // A Python error's message is its traceback: its last line says what went wrong.
        const lines = String(error.message || error).trim().split("\n");
        complain(null, lines[lines.length - 1].replace(/^[\w.]+Error: /, ""));
        status(note, "");
      } finally {
        start.disabled = false;
      }
    });
  }

  // --- setting up and tearing down a page ----------------------------------------------------------------

  /** Forget the page that was shown: its status lines, its Python variables, its match and timers. */
  function unmount(page) {
    page.alive = false;
    listeners.clear();
    for (const cleanup of [...page.cleanups]) {
      try {
        cleanup();
      } catch (error) {
        console.error(error);
      }
    }
    page.cleanups.clear();
    for (const scope of page.sessions.values()) scope.destroy();
    page.sessions.clear();
  }

  /** Set up the page now shown: its Run buttons, the play/ page's match. */
  function mount() {
    if (shown) unmount(shown);
    const page = { alive: true, sessions: new Map(), cleanups: new Set() };
    shown = page;
    document.querySelectorAll(".live-example").forEach((example) => setUpExample(example, page));
    const play = document.getElementById("live-play");
    if (play) setUpPlay(play, page);
  }

  // The theme's `document$` tells of each page shown: the first, and each one instant navigation brings.
  const pages = globalThis.document$;
  if (pages && typeof pages.subscribe === "function") pages.subscribe(() => mount());
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
  else mount();
})();
