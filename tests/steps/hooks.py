"""pytest-bdd hooks: a failing step names its feature file and line in the test report.

pytest's own traceback points at the Python step function; these hooks add a
`Captured gherkin call` section such as

    features/agurk.feature:42  Then seat 1 may play 2C, 10S and KS   (scenario: Following the lead)

Registered as a plugin by `tests/test_features.py` (`pytest_plugins`).
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from pytest_bdd.parser import Feature, Scenario, Step


def _where(feature: Feature, scenario: Scenario, step: Step) -> str:
    path = os.path.relpath(feature.filename)
    return f"{path}:{step.line_number}  {step.keyword} {step.name}   (scenario: {scenario.name})"


def pytest_bdd_step_error(
    request: pytest.FixtureRequest,
    feature: Feature,
    scenario: Scenario,
    step: Step,
    step_func: Callable[..., object],
    step_func_args: dict[str, object],
    exception: Exception,
) -> None:
    """Add the failing step's feature file, line and text to the report."""
    request.node.add_report_section("call", "gherkin", _where(feature, scenario, step))


def pytest_bdd_step_func_lookup_error(
    request: pytest.FixtureRequest,
    feature: Feature,
    scenario: Scenario,
    step: Step,
    exception: Exception,
) -> None:
    """Name the step that has no definition, with its feature file and line."""
    request.node.add_report_section(
        "call", "gherkin", "no step definition: " + _where(feature, scenario, step)
    )
