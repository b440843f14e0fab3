"""The developer scripts: what tools/dev.sh, tools/test.sh, tools/demo.sh and tools/docs.sh install and run.

The scripts run for real, in a copy of the project's tools and pyproject.toml, against a stand-in for
Python: `python -m venv DIR` makes a virtualenv whose `python`, `ruff`, `mypy`, `pytest`, `mkdocs` and
`cucumber-rules` only write down how they were called. So the tests see which virtualenvs are built,
with which extras, and which checks run, in a fraction of a second.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

needs_bash = pytest.mark.skipif(
    shutil.which("bash") is None or shutil.which("sha256sum") is None, reason="needs bash and sha256sum"
)

#: A stand-in for a virtualenv's programs: each logs its name and arguments.
_TOOL = """#!/usr/bin/env bash
echo "{name} $*" >> "$LOG"
"""

#: The virtualenv's python: logs, fails an install when asked to, and answers `import typer, rich`.
_VENV_PYTHON = """#!/usr/bin/env bash
echo "venv-python $*" >> "$LOG"
here="$(dirname "$0")"
case "$*" in
  *"install --quiet -e"*)
    [ "${FAIL_INSTALL:-0}" = 1 ] && exit 1
    printf '#!/usr/bin/env bash\\necho "cucumber-rules $*" >> "$LOG"\\n' > "$here/cucumber-rules"
    chmod +x "$here/cucumber-rules"
    case "$*" in *cli*) touch "$here/../cli-extra" ;; esac
    ;;
  *"import typer, rich"*) [ -e "$here/../cli-extra" ] || exit 1 ;;
esac
exit 0
"""

#: The stand-in for `python3`: `--version`, and `-m venv DIR`, which makes the fake virtualenv.
_PYTHON = """#!/usr/bin/env bash
echo "python $*" >> "$LOG"
if [ "$1" = --version ]; then echo "Python ${FAKE_VERSION:-3.12.0}"; exit 0; fi
if [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin"
  for tool in ruff mypy pytest mkdocs; do
    printf '%s' "$TOOL_TEMPLATE" | sed "s/{name}/$tool/" > "$3/bin/$tool"
    chmod +x "$3/bin/$tool"
  done
  printf '%s' "$VENV_PYTHON" > "$3/bin/python"
  chmod +x "$3/bin/python"
fi
"""


class Project:
    """A copy of the scripts and pyproject.toml, and a way to run them with the stand-in Python."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(ROOT / "tools", root / "tools", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
        shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
        self.python = root / "fake-python3"
        self.python.write_text(_PYTHON, encoding="utf-8")
        self.python.chmod(0o755)
        self.log = root / "log.txt"
        self.stderr = ""

    def run(self, script: str, *args: str, code: int = 0, **env: str) -> list[str]:
        """Run tools/<script> and return the calls it made, one per line."""
        self.log.write_text("", encoding="utf-8")
        result = subprocess.run(
            ["bash", str(self.root / "tools" / script), *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={
                **os.environ,
                "PYTHON": str(self.python),
                "LOG": str(self.log),
                "TOOL_TEMPLATE": _TOOL,
                "VENV_PYTHON": _VENV_PYTHON,
                **env,
            },
        )
        assert result.returncode == code, result.stdout + result.stderr
        self.stderr = result.stderr
        return [line.rstrip() for line in self.log.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


def _checks(calls: list[str], pytest_args: str = "-q") -> None:
    assert "ruff check ." in calls
    assert "ruff format --check ." in calls
    assert "mypy" in calls
    assert f"pytest {pytest_args}" in calls


@needs_bash
def test_dev_sh_builds_its_virtualenv_once(project: Project) -> None:
    calls = project.run("dev.sh")
    assert "python -m venv .venv-dev" in calls
    assert (
        "venv-python -m pip install --quiet -e .[cli,test,docs,lint,scale,build,openspiel,pettingzoo]"
        in calls
    )
    _checks(calls)
    # Again: the virtualenv is reused, and pytest gets the arguments.
    calls = project.run("dev.sh", "tests/test_cli.py", "-x")
    assert not [c for c in calls if "venv" in c.split()[:3] or "install" in c]
    _checks(calls, "-q tests/test_cli.py -x")


@needs_bash
def test_dev_sh_rebuilds_when_pyproject_or_python_changes(project: Project) -> None:
    project.run("dev.sh")
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "\n# a new dependency\n", encoding="utf-8")
    calls = project.run("dev.sh")
    assert "python -m venv .venv-dev" in calls
    assert "python -m venv .venv-dev" not in project.run("dev.sh")
    assert "python -m venv .venv-dev" in project.run("dev.sh", FAKE_VERSION="3.13.1")


@needs_bash
def test_dev_sh_tries_again_after_a_failed_install(project: Project) -> None:
    calls = project.run("dev.sh", code=1, FAIL_INSTALL="1")
    assert not [c for c in calls if c.startswith("pytest")]
    calls = project.run("dev.sh")
    assert "python -m venv .venv-dev" in calls
    _checks(calls)


@needs_bash
def test_test_sh_always_starts_from_a_fresh_virtualenv_with_every_extra(project: Project) -> None:
    for _ in range(2):
        calls = project.run("test.sh", "-k", "cli")
        assert "python -m venv .venv-test" in calls
        assert (
            "venv-python -m pip install --quiet -e .[cli,test,docs,lint,scale,build,openspiel,pettingzoo]"
            in calls
        )
        _checks(calls, "-q -k cli")


@needs_bash
def test_demo_sh_installs_the_cli_extra(project: Project) -> None:
    calls = project.run("demo.sh", "--seed", "3")
    assert "venv-python -m pip install --quiet -e .[cli]" in calls
    assert calls[-1] == "cucumber-rules demo --seed 3"
    # Set up once: the next demo only runs.
    assert project.run("demo.sh") == ["venv-python -c import typer, rich", "cucumber-rules demo"]


@needs_bash
def test_demo_sh_says_what_it_sets_up_on_its_first_run(project: Project) -> None:
    project.run("demo.sh")
    said = project.stderr
    assert "first run: setting up .venv" in said
    assert "creating the virtualenv .venv" in said
    assert "pip install -e '.[cli]'" in said
    assert said.index("setting up") < said.index("ready")
    project.run("demo.sh")
    assert project.stderr == ""  # set up: the demo starts at once, saying nothing more


@needs_bash
def test_demo_sh_adds_the_cli_extra_to_a_virtualenv_without_it(project: Project) -> None:
    project.run("demo.sh")
    (project.root / ".venv" / "cli-extra").unlink()  # e.g. a .venv made with `pip install -e .`
    calls = project.run("demo.sh")
    assert "venv-python -m pip install --quiet -e .[cli]" in calls
    assert "python -m venv .venv" not in calls  # the virtualenv itself is kept
    assert calls[-1] == "cucumber-rules demo"


@needs_bash
def test_docs_sh_installs_the_docs_extra_and_follows_pyproject(project: Project) -> None:
    calls = project.run("docs.sh", "build")
    assert "venv-python -m pip install --quiet -e .[docs,openspiel,pettingzoo]" in calls
    assert calls[-1] == "mkdocs build --strict"
    assert project.run("docs.sh") == ["python --version", "mkdocs serve"]
