"""The executable rulebooks: every Gherkin file in `features/`, run by pytest-bdd.

`scenarios(".")` binds every scenario of every `.feature` file under `features/`
(the `bdd_features_base_dir` of pyproject.toml). The step definitions live in the
`steps` package next to this file, registered below as pytest plugins together
with `steps.hooks`, which names the feature file and line of a failing step.

pytest-bdd only finds a missing step definition when the scenario runs, and never
notices a feature file that no test binds. The plain tests at the end close both
gaps: they parse every feature file with the official Gherkin parser and check
that each step (with its Examples values filled in) matches exactly one step
definition of the right kind, that every scenario of every file is bound here,
that every error code is exercised, and that the rule-to-scenario table in
`features/README.md` names only scenarios that exist.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler
from pytest_bdd import scenarios
from pytest_bdd.scenario import scenario_wrapper_template_registry
from pytest_bdd.steps import StepFunctionContext, step_function_context_registry

import cucumber_rules as cr

#: The modules that define steps (each is registered as a pytest plugin).
STEP_MODULES = (
    "steps.world",
    "steps.setup_steps",
    "steps.play_steps",
    "steps.check_steps",
    "steps.error_steps",
)
pytest_plugins = [*STEP_MODULES, "steps.hooks"]

FEATURES = Path(__file__).resolve().parent.parent / "features"
FEATURE_FILES = sorted(FEATURES.rglob("*.feature"))
#: The files the rulebooks must have: one per rule system, one per cross-cutting topic.
REQUIRED = (
    "catastrophe.feature",
    "five_cucumbers.feature",
    "agurk.feature",
    "gurka.feature",
    "dealing.feature",
    "errors.feature",
    "match_flow.feature",
)
_KINDS = {"Context": "given", "Action": "when", "Outcome": "then"}

scenarios(".")


# ---------------------------------------------------------------------------- parsing


def _document(path: Path) -> dict[str, Any]:
    document = cast("dict[str, Any]", Parser().parse(path.read_text(encoding="utf-8")))
    document["uri"] = path.relative_to(FEATURES.parent).as_posix()
    return document


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every dict inside a parsed Gherkin document."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


def _lines(document: dict[str, Any]) -> dict[str, int]:
    """The source line of every AST node that has an id (steps, Examples rows...)."""
    return {n["id"]: n["location"]["line"] for n in _walk(document) if "id" in n and "location" in n}


def _scenario_names(document: dict[str, Any]) -> list[str]:
    feature = document.get("feature") or {}
    names = []
    for child in feature.get("children", []):
        if "scenario" in child:
            names.append(child["scenario"]["name"])
        for sub in child.get("rule", {}).get("children", []):
            if "scenario" in sub:
                names.append(sub["scenario"]["name"])
    return names


def _step_definitions() -> list[StepFunctionContext]:
    modules = {importlib.import_module(name).__name__ for name in STEP_MODULES}
    return [ctx for ctx in step_function_context_registry.values() if ctx.step_func.__module__ in modules]


def _feature_id(path: Path) -> str:
    return path.relative_to(FEATURES).as_posix()


# ---------------------------------------------------------------------------- the checks


def test_every_rulebook_exists() -> None:
    """One feature file per rule system and per cross-cutting topic."""
    names = {p.name for p in FEATURE_FILES}
    missing = [name for name in REQUIRED if name not in names]
    assert not missing, f"features/ lacks {missing}"


@pytest.mark.parametrize("path", FEATURE_FILES, ids=_feature_id)
def test_every_step_has_exactly_one_definition(path: Path) -> None:
    """Each step of each scenario (and each Examples row) matches one step definition of its kind.

    A step that matches none would only fail when its scenario runs; a step that
    matches two would silently run whichever pytest-bdd picks.
    """
    document = _document(path)
    lines = _lines(document)
    definitions = _step_definitions()
    problems = []
    for pickle in Compiler().compile(cast("Any", document)):
        for step in pickle["steps"]:
            kind = _KINDS.get(step["type"])
            text = step["text"]
            where = f"{document['uri']}:{lines[step['astNodeIds'][0]]}"
            if len(step["astNodeIds"]) > 1:
                where += f" (Examples row at line {lines[step['astNodeIds'][1]]})"
            found = [d for d in definitions if d.type in (None, kind) and d.parser.is_matching(text)]
            if len(found) != 1:
                names = [d.step_func.__name__ for d in found]
                problems.append(f"{where}: {kind} {text!r} matches {len(found)} definitions {names}")
                continue
            wants_table = "datatable" in inspect.signature(found[0].step_func).parameters
            has_table = "dataTable" in step.get("argument", {})
            if wants_table != has_table:
                need = "needs a data table" if wants_table else "takes no data table"
                problems.append(f"{where}: {kind} {text!r} {need} ({found[0].step_func.__name__})")
    assert not problems, "\n".join(problems)


def test_every_scenario_of_every_feature_file_is_bound() -> None:
    """`scenarios(".")` has bound every scenario of every file under features/, each name once."""
    bound: set[tuple[str, str]] = set()
    for value in list(globals().values()):
        template = scenario_wrapper_template_registry.get(value) if inspect.isfunction(value) else None
        if template is not None:
            bound.add((Path(template.feature.filename).resolve().as_posix(), template.name))
    expected: set[tuple[str, str]] = set()
    for path in FEATURE_FILES:
        names = _scenario_names(_document(path))
        duplicates = sorted({n for n in names if names.count(n) > 1})
        assert not duplicates, (
            f"{_feature_id(path)}: scenario names must be unique (pytest-bdd keeps one): {duplicates}"
        )
        expected |= {(path.resolve().as_posix(), name) for name in names}
    unbound = sorted(expected - bound)
    assert not unbound, f"scenarios not bound to any test: {unbound}"
    assert FEATURE_FILES, "no feature files found"
    files = {f for f, _ in bound}
    assert files == {p.resolve().as_posix() for p in FEATURE_FILES}


def test_every_error_code_is_exercised() -> None:
    """Each `IllegalMoveError` code appears in a refusal step of some feature file."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in FEATURE_FILES)
    used = set(re.findall(r'refused with "([a-z-]+)"', text))
    missing = sorted(set(cr.ERROR_CODES) - used)
    assert not missing, f"no scenario shows the error codes {missing}"
    unknown = sorted(used - set(cr.ERROR_CODES))
    assert not unknown, f"feature files use unknown error codes {unknown}"


def test_readme_table_names_existing_scenarios() -> None:
    """The rule-to-scenario table of features/README.md names real files and scenarios.

    The table is the one headed `| source | rule or ruling | file | scenario |`.
    """
    readme = (FEATURES / "README.md").read_text(encoding="utf-8")
    known = {_feature_id(p): set(_scenario_names(_document(p))) for p in FEATURE_FILES}
    rows: list[list[str]] = []
    in_table = False
    for line in readme.splitlines():
        cells = [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]
        if cells == ["source", "rule or ruling", "file", "scenario"]:
            in_table = True
        elif in_table and line.startswith("|"):
            if not set(line) <= set("|-: "):
                rows.append(cells)
        else:
            in_table = False
    assert rows, "features/README.md has no | source | rule or ruling | file | scenario | table"
    problems = []
    for cells in rows:
        if len(cells) != 4:
            problems.append(f"a row needs 4 cells: {cells}")
        elif cells[2] not in known:
            problems.append(f"{cells[2]}: no such feature file")
        elif cells[3] not in known[cells[2]]:
            problems.append(f"{cells[2]}: no scenario named {cells[3]!r}")
    assert not problems, "\n".join(problems)
