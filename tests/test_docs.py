"""The documentation: a strict site build that shows every feature file; an example for every public name.

`mkdocs build --strict` runs once per session into a temporary directory (skipped, saying why, only
when the `docs` extra is not installed). The build executes every code block of the pages
(markdown-exec), renders the API reference from the docstrings (mkdocstrings) and the worked examples
from `features/` (`tools/mkdocs_features.py`); any warning fails it. The tests below then check the
built pages for what the issue asks of them.
"""

from __future__ import annotations

import doctest
import functools
import html
import http.server
import importlib
import importlib.metadata
import importlib.util
import inspect
import json
import pkgutil
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

import cucumber_rules as cr

ROOT = Path(__file__).resolve().parents[1]
FEATURES = ROOT / "features"
#: Each rule-system page and the feature file it embeds.
RULE_PAGES = {
    "catastrophe": "catastrophe.feature",
    "five-cucumbers": "five_cucumbers.feature",
    "agurk": "agurk.feature",
    "gurka": "gurka.feature",
}
#: The public submodules documented on API pages of their own.
PUBLIC_SUBMODULES = (
    "cucumber_rules.testing",
    "cucumber_rules.bots",
    "cucumber_rules.simulate",
    "cucumber_rules.render",
    "cucumber_rules.games",
    "cucumber_rules.dealing",
    "cucumber_rules.encoding",
    "cucumber_rules.sampling",
    "cucumber_rules.schema",
    # Behind an extra (the test and docs environments install every one).
    "cucumber_rules.server",
    "cucumber_rules.openspiel",
    "cucumber_rules.pettingzoo",
    "cucumber_rules.batch",
)
#: The pages of the API reference that document the package root's names, one group each (mkdocs.yml).
ROOT_API_PAGES = (
    "playing",
    "rules",
    "state",
    "views",
    "ladder",
    "catastrophe",
    "outcomes",
    "records",
    "errors",
)
#: The Griffe extensions the API pages are rendered with (mkdocs.yml), as "file:Class".
GRIFFE_EXTENSIONS = (f"{ROOT / 'tools' / 'griffe_examples.py'}:DoctestExamples",)
#: The example game that "Adding a game" walks through.
HIGHCARD = ROOT / "tests" / "plugins" / "highcard.py"

_HAVE_MKDOCS = all(
    importlib.util.find_spec(name) is not None
    for name in ("mkdocs", "material", "mkdocstrings_handlers.python", "markdown_exec", "gherkin")
)
needs_mkdocs = pytest.mark.skipif(
    not _HAVE_MKDOCS,
    reason="the docs toolchain is not installed (pip install -e '.[docs]'): the site build is not checked",
)


def _build_log(site: Path) -> str:
    """What the build printed (INFO lines too): the `site` fixture keeps it beside the site."""
    return site.with_name(site.name + ".log").read_text(encoding="utf-8")


def _page(site: Path, path: str) -> str:
    file = site / path / "index.html" if path else site / "index.html"
    assert file.is_file(), f"the site has no page {path or '/'}"
    return file.read_text(encoding="utf-8")


def _text(page: str) -> str:
    """The page's visible text in the main article, tags removed."""
    match = re.search(r"<article[^>]*>(.*)</article>", page, re.DOTALL)
    body = re.sub(r"<[^>]+>", "", match[1] if match else page)
    return html.unescape(body)


def _scenario_names(path: Path) -> list[str]:
    from gherkin.parser import Parser

    feature: dict[str, Any] = dict(Parser().parse(path.read_text(encoding="utf-8")).get("feature") or {})
    names: list[str] = []
    for child in feature.get("children", []):
        if "scenario" in child:
            names.append(child["scenario"]["name"])
        elif "rule" in child:
            names += [c["scenario"]["name"] for c in child["rule"]["children"] if "scenario" in c]
    return names


# --- the site -----------------------------------------------------------------------------------------


@needs_mkdocs
def test_every_feature_file_has_a_page_in_the_navigation(site: Path) -> None:
    files = sorted(FEATURES.rglob("*.feature"))
    assert files, "features/ holds no feature files"
    home = _page(site, "")
    overview = _text(_page(site, "examples"))
    for file in files:
        slug = file.relative_to(FEATURES).with_suffix("").as_posix()
        page = _text(_page(site, f"examples/{slug}"))
        assert f'href="examples/{slug}/"' in home, f"{file.name} is missing from the navigation"
        assert f"features/{file.relative_to(FEATURES).as_posix()}" in overview
        for name in _scenario_names(file):
            # Outline placeholders are shown as code, so compare without them.
            for piece in re.split(r"<[^>]+>", name):
                assert piece.strip() in page, f"{file.name}: scenario {name!r} is not on its page"


@needs_mkdocs
@pytest.mark.parametrize(("page", "feature"), RULE_PAGES.items())
def test_rule_pages_embed_their_examples_and_options(site: Path, page: str, feature: str) -> None:
    text = _text(_page(site, f"rules/{page}"))
    for heading in ("The rules", "Options", "Rulings", "Worked examples"):
        assert heading in text, f"rules/{page}: no {heading!r} section"
    for name in _scenario_names(FEATURES / feature):
        for piece in re.split(r"<[^>]+>", name):
            assert piece.strip() in text, f"rules/{page}: scenario {name!r} of {feature} is not shown"
    preset = cr.RULESETS[page if page in cr.RULESETS else "catastrophe"]
    for name, option in cr.OPTIONS.items():
        if preset.game in option.games:
            assert name in text, f"rules/{page}: option {name!r} is missing from the options table"


@needs_mkdocs
def test_generated_tables_list_every_option_preset_and_error_code(site: Path) -> None:
    options = _text(_page(site, "concepts/options"))
    for name in [*cr.OPTIONS, *cr.RULESETS]:
        assert name in options, f"concepts/options: {name!r} is missing"
    errors = _text(_page(site, "concepts/errors"))
    for code, meaning in cr.ERROR_CODES.items():
        assert code in errors, f"concepts/errors: error code {code!r} is missing"
        assert meaning in errors, f"concepts/errors: the meaning of {code!r} is missing"


@needs_mkdocs
def test_home_page_example_output_is_produced_at_build_time(site: Path) -> None:
    text = _text(_page(site, ""))
    # Printed by the example, not written in its source: card text after the labels.
    assert re.search(r"Ann may play: (?:\w+ )+", text), "the home page example printed nothing"
    assert re.search(r"Bo holds: \w+", text)
    assert "Traceback" not in text


@needs_mkdocs
def test_api_reference_documents_every_public_name(site: Path) -> None:
    """Every name of the package root once, on the page of its group; each submodule on a page of its own,
    linking the names it re-exports to where they are documented."""
    pages = {name: _page(site, f"api/{name}") for name in ROOT_API_PAGES}
    where: dict[str, str] = {}
    for name in cr.__all__:
        found = [page for page, text in pages.items() if f'id="cucumber_rules.{name}"' in text]
        assert len(found) == 1, f"{name} is documented on {found or 'no page'} of the API reference"
        where[name] = found[0]
    assert set(where.values()) == set(ROOT_API_PAGES), "a page of the API reference documents nothing"
    index = _page(site, "api")
    for page in ROOT_API_PAGES:
        assert f'href="{page}/"' in index, f"the API reference's first page does not list api/{page}"
    for module in PUBLIC_SUBMODULES:
        mod = importlib.import_module(module)
        sub = _page(site, f"api/{module.rsplit('.', 1)[1]}")
        assert f'href="{module.rsplit(".", 1)[1]}/"' in index, f"the first page does not list {module}"
        for name in getattr(mod, "__all__", ()):
            if name in cr.__all__ and getattr(cr, name) is getattr(mod, name):
                # Re-exported from the root: documented once, on its group's page, and linked from here.
                link = f'href="../{where[name]}/#cucumber_rules.{name}"'
                assert link in sub, f"api/{module}: {name} is not linked"
                continue
            assert f'id="{module}.{name}"' in sub, f"the API page of {module} does not document {name}"


@needs_mkdocs
def test_no_api_page_is_the_whole_reference(site: Path) -> None:
    """The reference was one page of every name (80,000 px, seconds to lay out): no page holds more than
    a fifth of the site's API entries now, and no link goes to a section of that old page."""
    entries = {
        path: len(re.findall(r'<div class="doc doc-object', path.read_text(encoding="utf-8")))
        for path in (site / "api").rglob("index.html")
    }
    total = sum(entries.values())
    assert total > 200, total
    assert max(entries.values()) < total / 5, sorted(entries.items(), key=lambda e: -e[1])[:3]
    old = re.compile(r'href="[^"]*\bapi/#|href="(?:\.\./)+#cucumber_rules\.')
    for path in site.rglob("*.html"):
        assert not old.search(path.read_text(encoding="utf-8")), f"{path}: a link to the old single page"


@needs_mkdocs
def test_api_signatures_are_formatted(site: Path) -> None:
    """mkdocstrings lays signatures out with Ruff (or Black); the docs extra installs Ruff."""
    assert "Formatting signatures requires" not in _build_log(site)
    docs = [
        r for r in importlib.metadata.requires("cucumber-rules") or [] if re.search(r"extra == .docs.", r)
    ]
    assert [r for r in docs if re.match(r"(ruff|black)\b", r)], f"no formatter in the docs extra: {docs}"
    # One parameter a line, as Ruff formats a long signature.
    assert re.search(
        r'<span class="nf">new_game</span><span class="p">\(</span>\n\s+<span class="n">rules',
        _page(site, "api/playing"),
    )


_BROWSER = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name)),
    None,
)

#: Loads pages in frames of the given width and reports what the layout does to code and tables.
_PROBE = """<!doctype html><html><body>{frames}<pre id="out">pending</pre><script>
window.addEventListener("load", () => setTimeout(() => {{
  const overlap = (a, b) => a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
  const found = [...document.querySelectorAll("iframe")].map((frame) => {{
    const doc = frame.contentDocument;
    const navs = [...doc.querySelectorAll("pre > .md-code__nav")];
    return {{
      page: frame.dataset.page,
      buttons: navs.length,
      covered: navs.filter((nav) => overlap(
        nav.getBoundingClientRect(), nav.parentElement.querySelector("code").getBoundingClientRect())).length,
      split: [...doc.querySelectorAll("table td:first-child code")]
        .filter((code) => code.getClientRects().length > 1).map((code) => code.textContent),
      cut: [...doc.querySelectorAll(".doc-signature pre > code")]
        .filter((code) => code.scrollWidth > code.clientWidth + 1)
        .map((code) => code.textContent.slice(0, 40)),
    }};
  }});
  document.getElementById("out").textContent = JSON.stringify(found);
}}, 1000));
</script></body></html>"""


@needs_mkdocs
@pytest.mark.skipif(_BROWSER is None, reason="no chromium to lay the pages out (apt-get install chromium)")
@pytest.mark.parametrize("width", [1280, 420])
def test_code_and_tables_lay_out_in_a_browser(site: Path, tmp_path: Path, width: int) -> None:
    """In a real browser: the copy button covers no code, option names never split, signatures never cut."""
    assert _BROWSER is not None
    pages = ["concepts/options", "rules/agurk", "api/playing", "api/simulate", "cli"]
    frames = "".join(
        f'<iframe data-page="{page}" src="site/{page}/" '
        f'style="width:{width}px;height:900px;border:0"></iframe>'
        for page in pages
    )
    # Over HTTP, the probe beside the site (same origin): the theme's scripts do not run from file://
    # with instant navigation on (mkdocs.yml).
    (tmp_path / "site").symlink_to(site, target_is_directory=True)
    (tmp_path / "probe.html").write_text(_PROBE.format(frames=frames), encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
    flags += ["--disable-background-networking", "--disable-component-update"]
    flags += ["--virtual-time-budget=10000"]
    flags += [f"--window-size={width + 40},1000", "--dump-dom"]
    probe = f"http://127.0.0.1:{httpd.server_address[1]}/probe.html"
    try:
        result = subprocess.run(
            [_BROWSER, *flags, probe], capture_output=True, text=True, timeout=180, check=False
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
    found = re.search(r'<pre id="out">(\[.*?\])</pre>', result.stdout, re.DOTALL)
    assert found, result.stdout[-2000:] + result.stderr[-2000:]
    for report in json.loads(html.unescape(found[1])):
        assert report["buttons"], f"{report['page']}: no copy buttons (did the page's script run?)"
        assert report["covered"] == 0, f"{report['page']} at {width}px: copy buttons over code"
        assert report["split"] == [], f"{report['page']} at {width}px: names split across lines"
        assert report["cut"] == [], f"{report['page']} at {width}px: signatures cut"


def _game_hooks(cls: type = cr.Game) -> tuple[list[str], list[str]]:
    """The public methods of a class (`cr.Game`, or a hook group's), and the class attributes it declares."""
    members = vars(cls).items()
    methods = [name for name, member in members if inspect.isfunction(member) and not name.startswith("_")]
    return methods, [name for name in inspect.get_annotations(cls) if not name.startswith("_")]


#: Each hook group of `Game`: the attribute, and where the API reference documents its default class.
GROUP_CLASSES = {
    "views": "cucumber_rules.views.Views",
    "words": "cucumber_rules.narrate.Words",
    "pictures": "cucumber_rules.render.Pictures",
    "bots": "cucumber_rules.bots.Bots",
    "stats": "cucumber_rules.simulate.Stats",
    "sampling": "cucumber_rules.sampling.Sampling",
    "encoding": "cucumber_rules.encoding.Encoding",
    "testing": "cucumber_rules.testing.Testing",
    "format1": "cucumber_rules.serialization.Format1",
}


@needs_mkdocs
def test_adding_a_game_walks_through_high_card_and_lists_every_hook(site: Path) -> None:
    assert 'href="concepts/adding-a-game/"' in _page(site, ""), "Adding a game is missing from the navigation"
    page = _page(site, "concepts/adding-a-game")
    text = _text(page)
    # The High Card code, whole (the collapsible block) and in its walk-through sections.
    code = [
        line.strip()
        for line in HIGHCARD.read_text(encoding="utf-8").splitlines()
        if line.strip() and "--8<--" not in line
    ]
    missing = [line for line in code if line not in text]
    assert not missing, f"concepts/adding-a-game does not show these lines of highcard.py: {missing[:5]}"
    for section in (
        "class HighCardRules(cr.Rules):",
        "class HighCardGame(cr.Game[cr.State]):",
        "def start_round(",
    ):
        assert text.count(section) >= 2, f"{section!r} is not walked through before the whole file"
    assert "--8<--" not in text, "a snippet marker or include was left in the page"
    # Its examples ran when the site was built: check_game passed, a table was drawn, the CLI played.
    assert re.search(r"GameCheck\(matches=10, actions=\d+, rounds=50", text), "check_game did not run"
    assert re.search(r'<svg [^>]*aria-label="High Card, round 1', page), "no picture of a High Card table"
    assert "$ cucumber-rules demo --preset highcard" in text
    assert "Round 5: " in text
    # Every hook of Game and of each of its hook groups, in the generated tables, linked to the API reference.
    methods, attributes = _game_hooks()
    assert {"legal", "play", "start_round", "score", "max_actions"} <= set(methods)
    attributes = [name for name in attributes if name not in GROUP_CLASSES]  # (in tables of their own)
    for name in [*methods, *attributes]:
        linked = rf'<td><a [^>]*href="[^"]*#cucumber_rules\.Game\.{name}"[^>]*><code>{name}</code></a></td>'
        assert re.search(linked, page), f"Game.{name} is not in the hook tables, linked to the API reference"
    assert re.search(r"<h3[^>]*>The engine", page), "no hook section 'The engine'"
    group_hooks = 0
    for attr, path in GROUP_CLASSES.items():
        assert re.search(rf"<h4[^>]*><code>{attr}</code>", page), f"no table of the {attr} group"
        cls = type(getattr(cr.Game, attr))
        module, _, name = path.rpartition(".")
        assert getattr(importlib.import_module(module), name) is cls, (attr, path)  # (the page it links to)
        for name in [*_game_hooks(cls)[0], *_game_hooks(cls)[1]]:
            anchor = re.escape(f"{path}.{name}")
            linked = rf'<td><a [^>]*href="[^"]*#{anchor}"[^>]*><code>{name}</code></a></td>'
            assert re.search(linked, page), f"{attr}.{name} is not in the tables, linked to its API entry"
            group_hooks += 1
    assert group_hooks > 30  # facts, heuristic, view_fields, ... all listed


def test_the_hook_tables_read_game_as_it_is() -> None:
    """`tools/docs_games.py` finds every hook of `Game`, and "write it" means what it says."""
    sys.path.insert(0, str(ROOT / "tools"))
    import docs_games

    found = {hook.name: hook for hook in docs_games.hooks()}
    methods, attributes = _game_hooks()
    assert sorted(found) == sorted([*methods, *attributes])
    assert {found[name].kind for name in methods} == {"method"}
    assert {found[name].kind for name in attributes} == {"attribute"}
    undocumented = [name for name, hook in found.items() if not hook.doc]
    assert not undocumented, f"hooks of Game without a docstring: {undocumented}"
    bare: cr.Game[cr.State] = cr.Game()
    for name in methods:
        if not found[name].required:
            continue
        method = getattr(bare, name)
        arguments = [None] * (len(inspect.signature(method).parameters))
        with pytest.raises(NotImplementedError):
            method(*arguments)
    required = {name for name in attributes if found[name].required}
    assert required == {name for name in attributes if not hasattr(cr.Game, name)} == {"rules_type"}
    sections = list(dict.fromkeys(hook.section for hook in found.values()))
    assert sections == ["what the game is", "hook groups (see the module docstring)", "the engine"]
    # The hook groups, each with every public hook of its default class; none must be written.
    assert {g.attr: g.path for g in docs_games.groups()} == GROUP_CLASSES
    for group in docs_games.groups():
        assert group.cls is type(getattr(cr.Game, group.attr))
        group_methods, group_attributes = _game_hooks(group.cls)
        assert sorted(h.name for h in group.hooks) == sorted([*group_methods, *group_attributes])
        assert not any(hook.required for hook in group.hooks), group.attr
        assert all(hook.doc for hook in group.hooks), f"a hook of the {group.attr} group has no docstring"
    tables = docs_games.group_tables()
    for group in docs_games.groups():
        for hook in group.hooks:
            assert f"| [`{hook.name}`][{group.path}.{hook.name}] |" in tables


#: The pages that show documents of older formats on purpose (what changed, and that they still load).
OLDER_FORMATS_SHOWN = ("json-format.md", "concepts/serialization.md")


def test_documents_written_by_hand_in_the_pages_are_of_the_current_format() -> None:
    """A JSON document or schema id typed into a page (the server protocol, the schemas) says the format
    `dumps` writes, so a reader who copies it is not refused."""
    stale = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        name = path.relative_to(ROOT / "docs").as_posix()
        if name in OLDER_FORMATS_SHOWN:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for found in re.findall(r'"format": ?(\d+)|format-(\d+)', line):
                if int("".join(found)) != cr.FORMAT_VERSION:
                    stale.append(f"{name}:{number}: {line.strip()[:80]}")
    assert not stale, "documents of another format in the pages:\n" + "\n".join(stale)


def test_the_views_page_lists_exactly_the_fields_every_view_has() -> None:
    """The table of "What a view holds" names `PlayerView`'s fields, each once, and nothing else (a
    game's own fields are in the table after it)."""
    text = (ROOT / "docs" / "concepts" / "views.md").read_text(encoding="utf-8")
    table = text.split("## What a view holds", 1)[1].split("### Each game's view class", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    listed = [name for row in rows for name in re.findall(r"`(\w+)`", row)]
    assert sorted(listed) == sorted(a.name for a in attrs.fields(cr.PlayerView))


def test_no_package_names_something_else_after_one_of_its_submodules() -> None:
    """A package attribute named like one of its submodules is ambiguous for Griffe and for readers.

    (`cucumber_rules.testing.states` is the Hypothesis strategy; its state invariants live in
    `testing/state_checks.py`, not in a `testing/states.py` the strategy would hide.)
    """
    shadowed = []
    packages = [cr.__name__] + [
        info.name for info in pkgutil.walk_packages(cr.__path__, prefix="cucumber_rules.") if info.ispkg
    ]
    for name in packages:
        package = importlib.import_module(name)
        for sub in pkgutil.iter_modules(package.__path__):
            value = getattr(package, sub.name, None)
            if value is not None and not inspect.ismodule(value):
                shadowed.append(f"{name}.{sub.name}")
    assert not shadowed, "package attributes that hide a submodule of the same name: " + ", ".join(shadowed)


@needs_mkdocs
def test_the_states_strategy_is_documented_as_the_strategy() -> None:
    doc, module = _griffe_docstrings()["cucumber_rules.testing.states"]
    assert doc.startswith("A Hypothesis strategy of states")
    assert module == "cucumber_rules.testing.strategies"


# --- docstrings ---------------------------------------------------------------------------------------


def _public(module: ModuleType) -> Iterator[tuple[str, Any]]:
    for name in getattr(module, "__all__", ()):
        yield f"{module.__name__}.{name}", getattr(module, name)


def _modules() -> list[ModuleType]:
    return [cr, *(importlib.import_module(m) for m in PUBLIC_SUBMODULES)]


def test_every_public_function_and_class_has_an_example() -> None:
    missing = [
        name
        for module in _modules()
        for name, obj in _public(module)
        if (inspect.isclass(obj) or inspect.isroutine(obj))
        and not re.search(r"^\s*Examples?:\s*\n\s+>>>", inspect.getdoc(obj) or "", re.MULTILINE)
    ]
    assert not missing, "public names without an `Example:` section of `>>>` lines: " + ", ".join(missing)


def test_examples_import_what_they_use_as_a_reader_would() -> None:
    """An example is code to copy: `import random`, never `__import__("random")` squeezed into a line."""
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "src" / "cucumber_rules").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.match(r"\s*(>>>|\.\.\.) .*__import__\(", line)
    ]
    assert not found, "examples calling __import__: " + ", ".join(found)


@functools.cache
def _griffe_docstrings() -> dict[str, tuple[str, str]]:
    """Docstrings as the API pages see them (attribute docstrings included): full name -> (text, module)."""
    import griffe

    package = griffe.load(
        "cucumber_rules",
        search_paths=[str(ROOT / "src")],
        resolve_aliases=False,
        extensions=griffe.load_extensions(*GRIFFE_EXTENSIONS),
    )
    found: dict[str, tuple[str, str]] = {}
    for module in _modules():
        for full, _ in _public(module):
            obj = package[full.removeprefix("cucumber_rules.")]
            while obj.is_alias:
                obj = obj.final_target
            found[full] = (obj.docstring.value if obj.docstring else "", obj.parent.path)
    return found


@needs_mkdocs
def test_every_public_name_has_a_documented_example() -> None:
    """Constants and type aliases too: their docstring is the string under the assignment."""
    missing = [
        name
        for name, (doc, _) in _griffe_docstrings().items()
        if not re.search(r"^\s*Examples?:\s*$", doc, re.MULTILINE)
    ]
    assert not missing, "public names without an `Example:` in their docstring: " + ", ".join(missing)


@needs_mkdocs
def test_examples_in_attribute_docstrings_run() -> None:
    """`doctest` cannot see the docstring of a constant; run those examples here."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for name, (doc, module) in _griffe_docstrings().items():
        owner, _, attr = name.rpartition(".")
        obj = getattr(importlib.import_module(owner), attr)
        if inspect.isclass(obj) or inspect.isroutine(obj):
            continue  # tests/test_doctests.py runs these with their module
        namespace = dict(vars(importlib.import_module(module)))
        runner.run(parser.get_doctest(doc, namespace, name, module, 0))
    assert runner.failures == 0, f"{runner.failures} example(s) in attribute docstrings failed (see output)"


# --- live examples and pictures ---------------------------------------------------------------------------

_LIVE = re.compile(
    r'<div class="live-example(?P<kind>[^"]*)"[^>]*>(?P<body>.*?)'
    r'<div class="live-output" hidden(?:="hidden")?></div>',
    re.S,
)
_SVG = re.compile(r"<svg [^>]*>", re.S)


def _programs_on(feature: Path) -> int:
    """How many scenarios of a feature file start a game (and so are live examples on its rule page)."""
    from gherkin.parser import Parser

    sys.path.insert(0, str(ROOT / "tools"))
    import docs_live
    import docs_scenarios

    found = 0

    def walk(children: list[dict[str, Any]], background: list[dict[str, Any]]) -> None:
        nonlocal found
        for child in children:
            if "background" in child:
                background = [*background, *child["background"]["steps"]]
            elif "rule" in child:
                walk(child["rule"]["children"], background)
            elif "scenario" in child:
                scenario = child["scenario"]
                rows = docs_live.outline_rows(scenario)
                steps = docs_scenarios.steps_of(scenario, background, rows[0] if rows else None)
                found += bool(docs_scenarios.translate(steps).code)

    feature_doc: dict[str, Any] = dict(Parser().parse(feature.read_text(encoding="utf-8"))["feature"] or {})
    walk(feature_doc["children"], [])
    return found


@needs_mkdocs
@pytest.mark.parametrize(("page", "feature"), RULE_PAGES.items())
def test_every_worked_example_of_a_rule_page_is_live_and_drawn(site: Path, page: str, feature: str) -> None:
    text = _page(site, f"rules/{page}")
    examples = list(_LIVE.finditer(text))
    scenarios = [m for m in examples if "live-scenario" in m["kind"]]
    assert len(scenarios) == _programs_on(FEATURES / feature), f"rules/{page}: a worked example is not live"
    assert any("live-block" in m["kind"] for m in examples), (
        f"rules/{page}: the 'In code' example is not live"
    )
    for match in examples:
        body = match["body"]
        assert re.search(r'<button type="button" class="[^"]*live-run">Run</button>', body)
        assert re.search(r'<div class="live-controls" hidden(?:="hidden")?>', body), (
            "controls show only with JS"
        )
        assert '<template class="live-source">' in body
    for match in scenarios:
        if "show(state" not in match["body"]:
            continue  # nothing is dealt or played (a refused deal, too many players): no table to draw
        svg = _SVG.search(match["body"])
        assert svg is not None, f"rules/{page}: a worked example has no picture"
        assert 'role="img"' in svg[0]
        assert 'aria-label="' in svg[0]


@needs_mkdocs
def test_play_and_try_pages(site: Path) -> None:
    play = _page(site, "play")
    assert 'id="live-play"' in play
    assert 'class="live-play-setup"' in play
    for name in cr.RULESETS:
        assert f'<option value="{name}"' in play, f"play/: the preset {name} cannot be chosen"
    assert _SVG.search(play), "play/ shows a picture of a table without JavaScript"
    tried = _page(site, "try")
    (example,) = [m for m in _LIVE.finditer(tried) if "live-try" in m["kind"]]
    readme = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert readme is not None
    editor = re.search(r'<textarea class="live-editor"[^>]*>(.*?)</textarea>', example["body"], re.S)
    assert editor is not None
    assert html.unescape(editor[1]) == readme[1]
    for page, title in (("play", "Play"), ("try", "Try it")):
        assert f'href="{page}/"' in _page(site, ""), f"{title} is missing from the navigation"


@needs_mkdocs
def test_the_site_ships_its_python_runtime(site: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    import mkdocs_live

    live = site / "live"
    manifest = json.loads((live / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["pyodide"] == mkdocs_live.PYODIDE_VERSION
    for name in mkdocs_live.PYODIDE_FILES:
        assert (live / "pyodide" / name).is_file(), f"live/pyodide/{name} is missing"
    wheels = manifest["wheels"]
    assert wheels[-1].startswith(f"cucumber_rules-{cr.__version__}-"), "the project's own wheel comes last"
    names = {re.split(r"-\d", w)[0].lower() for w in wheels}
    assert {"attrs", "cattrs", "cucumber_rules"} <= names
    for wheel in wheels:
        assert wheel.endswith("-none-any.whl"), f"{wheel} is not a pure-Python wheel"
        assert (live / "wheels" / wheel).is_file()
    assert (live / manifest["helper"]).is_file()


_LOADS = re.compile(
    r"<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc=\"(?P<src>[^\"]+)\"|<link\b[^>]*>", re.I
)


@needs_mkdocs
def test_the_pages_load_nothing_from_another_host(site: Path) -> None:
    for path in sorted(site.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for match in _LOADS.finditer(text):
            tag = match[0]
            if tag.lower().startswith("<link") and not re.search(
                r'rel="(?:stylesheet|preconnect|preload|modulepreload|icon)"', tag
            ):
                continue
            url = match["src"] or (re.search(r'href="([^"]+)"', tag) or [None, ""])[1]
            assert not re.match(r"(?:https?:)?//", url or ""), f"{path.relative_to(site)} loads {url}"
    for path in sorted(site.rglob("*.css")):
        urls = re.findall(r"url\((['\"]?)((?:https?:)?//[^)'\"]+)\1\)", path.read_text(encoding="utf-8"))
        assert not urls, f"{path.relative_to(site)} loads {[u for _, u in urls]}"


@needs_mkdocs
def test_quick_start_draws_the_table_and_its_examples_run_live(site: Path) -> None:
    page = _page(site, "quickstart")
    pictures = re.findall(r'<svg [^>]*class="cr-picture" role="img" aria-label="([^"]*)"', page)
    assert len(pictures) >= 2, "the quick start draws the rigged deal and Bo's view"
    assert any(html.unescape(p).startswith("Agurk, round 1") and "Your hand (Bo)" in p for p in pictures)
    blocks = [m for m in _LIVE.finditer(page) if 'data-session="quick"' in m[0]]
    assert len(blocks) >= 6, "the quick start's blocks run in the browser, sharing one session"


@needs_mkdocs
@pytest.mark.parametrize(("page", "plots"), [("bots", 2), ("performance", 1)])
def test_results_are_plotted_beside_the_tables(site: Path, page: str, plots: int) -> None:
    text = _page(site, page)
    found = re.findall(r'<svg role="img" aria-label="[^"]+" class="cr-plot"', text)
    assert len(found) == plots, f"{page}: expected {plots} plots, found {len(found)}"
    assert "<table>" in text, f"{page}: the plots stand beside the tables"


@needs_mkdocs
def test_noscript_notes_are_html_not_raw_markdown(site: Path) -> None:
    for name in ("play", "try"):
        notes = re.findall(r"<noscript>(.*?)</noscript>", _page(site, name), re.DOTALL)
        assert notes, f"{name}/ has no note for readers without JavaScript"
        for note in notes:
            assert "`" not in note, f"{name}/: raw markdown in <noscript>: {note}"
            assert "](" not in note, f"{name}/: raw markdown in <noscript>: {note}"
    assert '<a href="../cli/">command line</a>' in _page(site, "play")


@needs_mkdocs
def test_page_titles_do_not_repeat_the_site_name(site: Path) -> None:
    for path in sorted(site.rglob("index.html")):
        title = re.search(r"<title>(.*?)</title>", path.read_text(encoding="utf-8"), re.DOTALL)
        if title is not None:
            assert (
                html.unescape(title[1]).strip() != "cucumber_rules - cucumber_rules" or path.parent == site
            ), f"{path.relative_to(site)}: the title says only the site's name twice"
    assert "<title>API reference - cucumber_rules</title>" in _page(site, "api")
    assert "<title>Playing a match - cucumber_rules</title>" in _page(site, "api/playing")


def test_the_first_pages_code_fits_a_laptop_screen() -> None:
    """Home and Quick start: no code line so long that a 1280-pixel-wide page cuts it off (80 columns)."""
    for name in ("index.md", "quickstart.md"):
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
            long = [line for line in block.splitlines() if len(line) > 80]
            assert not long, f"docs/{name}: code lines longer than 80 columns: {long}"


@needs_mkdocs
def test_the_browsers_python_is_a_supported_python(site: Path) -> None:
    """The pages' examples run in Pyodide's Python (3.14): the package says it supports that Python."""
    manifest = json.loads((site / "live" / "manifest.json").read_text(encoding="utf-8"))
    version = ".".join(str(manifest["python"]).split(".")[:2])
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"Programming Language :: Python :: {version}"' in pyproject, version
    assert f"3.11 to {version}" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")


def test_the_play_pages_words_speak_to_the_player_in_the_second_person() -> None:
    """Whole matches of every preset on the Play page: its log, its pictures' words (read by screen
    readers) and the tricks it shows say "You take", "You pay", "You win", never "You takes"."""
    sys.path.insert(0, str(ROOT / "tools"))
    import random

    import cucumber_live

    from test_browser import THIRD_PERSON_YOU

    said: set[str] = set()
    for preset in sorted(cr.RULESETS):
        for seed in range(3):
            match = cucumber_live.Match(preset, players=3, bots="random", seed=seed)
            choices = random.Random(seed)
            snapshot = match.snapshot()
            while True:
                texts = [snapshot["svg"], snapshot["text"], snapshot["status"], *snapshot["log"]]
                for trick in snapshot["tricks"]:
                    texts += [trick["svg"], trick["text"], trick["cost"], trick["words"], *trick["lines"]]
                for text in texts:
                    assert not THIRD_PERSON_YOU.search(text), (preset, seed, THIRD_PERSON_YOU.findall(text))
                    said.update(re.findall(r"\bYou \w+", text))
                if snapshot["over"] or not snapshot["legal"]:
                    break
                snapshot = match.act(choices.randrange(len(snapshot["legal"])))
    assert {"You take", "You pay", "You play"} <= said, said


def test_demo_sh_says_what_its_first_run_does_not_how_long_it_takes() -> None:
    """The README's first command: its notes say what a first run does, not a time a busy machine breaks."""
    script = (ROOT / "tools" / "demo.sh").read_text(encoding="utf-8")
    notes = "\n".join(line for line in script.splitlines() if line.lstrip().startswith(("#", "echo")))
    assert not re.search(r"\b\d+\s*(s|sec|seconds?|min|minutes?)\b", notes), notes
    for step in (".venv", "pip", "pip install -e '.[cli]'", "demo"):
        assert step in notes, step
