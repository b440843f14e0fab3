"""Shared test configuration: Hypothesis profiles and a few fixtures.

Hypothesis profiles, chosen with the environment variable `CUCUMBER_HYPOTHESIS_PROFILE`:

- `ci` (the default): few examples, derandomized so every run tries the same
  examples, for a fast and reproducible suite;
- `dev`: more examples, randomized, and the example database on, for local work;
- `deep`: many examples and longer state-machine runs, for a nightly or pre-release run
  (`CUCUMBER_HYPOTHESIS_PROFILE=deep pytest tests/test_properties.py tests/test_stateful.py`).

No profile has a deadline: examples play whole matches, whose time varies with the
machine, and a deadline would only make the suite flaky.

The `site` fixture builds the documentation site once per session, for the tests of the
built pages (`test_docs.py`) and of the pages in a browser (`test_browser.py`).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import cucumber_rules as cr

#: Profile name -> settings. `max_examples` is per @given test (and per state machine).
PROFILES = {
    "ci": settings(
        max_examples=12,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=True,
        stateful_step_count=25,
        suppress_health_check=[HealthCheck.too_slow],
    ),
    "dev": settings(
        max_examples=60,
        deadline=None,
        print_blob=True,
        stateful_step_count=40,
        suppress_health_check=[HealthCheck.too_slow],
    ),
    "deep": settings(
        max_examples=1000,
        deadline=None,
        print_blob=True,
        stateful_step_count=80,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    ),
}
for _name, _profile in PROFILES.items():
    settings.register_profile(_name, _profile)

PROFILE = os.environ.get("CUCUMBER_HYPOTHESIS_PROFILE", "ci")
if PROFILE not in PROFILES:
    raise pytest.UsageError(
        f"CUCUMBER_HYPOTHESIS_PROFILE={PROFILE!r} is not a profile; use one of {', '.join(PROFILES)}"
    )
settings.load_profile(PROFILE)


def pytest_report_header() -> str:
    """Show the Hypothesis profile in pytest's header."""
    return f"hypothesis profile: {PROFILE} (set CUCUMBER_HYPOTHESIS_PROFILE to ci, dev or deep)"


@pytest.fixture
def rng() -> random.Random:
    """A seeded random generator (tests never use the global `random` module)."""
    return random.Random(20261129)


@pytest.fixture(params=sorted(cr.RULESETS))
def preset(request: pytest.FixtureRequest) -> cr.Rules:
    """Each preset's rules in turn."""
    rules: cr.Rules = cr.RULESETS[request.param]
    return rules


ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the site once, strictly, with its live examples, and return its directory."""
    out = tmp_path_factory.mktemp("site")
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",  # silence mkdocs-material's end-of-life banner
        "CUCUMBER_LIVE_DOCS": "on",  # the tests check the live examples: never build without them
        # The pages' code blocks import cucumber_rules: from this checkout, installed or not.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
    }
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    problems = [line for line in result.stderr.splitlines() if not line.startswith("INFO")]
    assert result.returncode == 0, "mkdocs build --strict failed:\n" + "\n".join(problems[-60:])
    out.with_name(out.name + ".log").write_text(result.stderr, encoding="utf-8")  # the build log, kept
    return out
