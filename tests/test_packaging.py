"""What `pip install cucumber-rules` gets: the licence, the metadata, a slim install, a friendly script.

The wheel and the sdist are built once per session, offline (`python -m build --no-isolation`, with the
`build` and `hatchling` of the `build` extra). The console script is then run the way an embedder meets it:
in a fresh virtualenv holding the library and its two dependencies, but not the `cli` extra.
"""

from __future__ import annotations

import email.message
import email.parser
import importlib
import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
import tarfile
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import cucumber_rules as cr

ROOT = Path(__file__).resolve().parents[1]
#: The console script: a small module of its own, which says how to install the `cli` extra.
ENTRY_POINT = "cucumber_rules._cli_entry:main"
_cli_entry = importlib.import_module(ENTRY_POINT.partition(":")[0])
INSTALL_LINE = (
    "cucumber-rules: the command line needs typer and rich, which are not installed: "
    'pip install ".[cli]" in a checkout (or "cucumber-rules[cli]" from an index that has it)'
)

README = ROOT / "README.md"

needs_build = pytest.mark.skipif(
    importlib.util.find_spec("build") is None or importlib.util.find_spec("hatchling") is None,
    reason="build and hatchling are not installed (pip install -e '.[build]'): the wheel is not checked",
)


def _env() -> dict[str, str]:
    """The environment for subprocesses, without anything that would put this checkout on their path."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built from this checkout."""
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=_env(),
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


def _wheel(dist: Path) -> Path:
    (wheel,) = dist.glob("*.whl")
    return wheel


def _metadata(dist: Path) -> email.message.Message:
    with zipfile.ZipFile(_wheel(dist)) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))


def _unconditional(requirements: list[str]) -> set[str]:
    return {Requirement(r).name for r in requirements if Requirement(r).marker is None}


def _extra(requirements: list[str], extra: str) -> set[str]:
    found = set()
    for text in requirements:
        requirement = Requirement(text)
        if requirement.marker is not None and requirement.marker.evaluate({"extra": extra}):
            found.add(requirement.name)
    return found


# --------------------------------------------------------------------------- licence and metadata


def test_the_licence_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert re.search(r"^Copyright \(c\) \d{4} cucumber_rules developers$", text, re.MULTILINE)
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def test_the_installed_library_requires_only_attrs_and_cattrs() -> None:
    requirements = importlib.metadata.requires("cucumber-rules") or []
    assert _unconditional(requirements) == {"attrs", "cattrs"}
    assert _extra(requirements, "cli") >= {"typer", "rich"}
    assert importlib.metadata.version("cucumber-rules") == cr.__version__


@needs_build
def test_the_wheel_metadata(dist: Path) -> None:
    meta = _metadata(dist)
    assert meta["Name"] == "cucumber-rules"
    assert meta["Version"] == cr.__version__  # one source: cucumber_rules.__version__
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    classifiers = meta.get_all("Classifier") or []
    for version in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {version}" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # PEP 639: the expression says it
    assert meta["Requires-Python"] == ">=3.11"
    requirements = meta.get_all("Requires-Dist") or []
    assert _unconditional(requirements) == {"attrs", "cattrs"}
    assert _extra(requirements, "cli") == {"typer", "rich"}
    assert "cli" in (meta.get_all("Provides-Extra") or [])


@needs_build
def test_the_wheel_and_sdist_hold_the_licence_and_the_lazy_entry_point(dist: Path) -> None:
    with zipfile.ZipFile(_wheel(dist)) as archive:
        names = archive.namelist()
        (licence,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert archive.read(licence) == (ROOT / "LICENSE").read_bytes()
        (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        assert f"cucumber-rules = {ENTRY_POINT}" in archive.read(entry_points).decode()
        assert "cucumber_rules/py.typed" in names
        assert "cucumber_rules/__main__.py" in names
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        members = {Path(m).relative_to(Path(m).parts[0]).as_posix() for m in archive.getnames() if "/" in m}
    assert "LICENSE" in members
    assert not [m for m in members if m.startswith(".venv")]


# --------------------------------------------------------------------------- without the cli extra

_BLOCKER = textwrap.dedent(
    """
    import importlib.abc, sys

    class HideCliExtra(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in ("typer", "rich"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, HideCliExtra())
    """
)


def _run_hidden(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _BLOCKER + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT,
        env={**_env(), "PYTHONPATH": str(ROOT / "src")},
    )


def test_the_console_script_without_typer_says_how_to_install_it() -> None:
    result = _run_hidden(
        """
        from importlib.metadata import entry_points
        (script,) = entry_points(group="console_scripts", name="cucumber-rules")
        sys.argv = ["cucumber-rules", "demo"]
        script.load()()
        """
    )
    assert result.returncode == 1
    assert result.stderr == INSTALL_LINE + "\n"
    assert result.stdout == ""


def test_python_dash_m_without_rich_says_how_to_install_it() -> None:
    result = _run_hidden(
        """
        import runpy
        sys.argv = ["cucumber_rules", "--version"]
        runpy.run_module("cucumber_rules", run_name="__main__")
        """
    )
    assert result.returncode == 1
    assert result.stderr == INSTALL_LINE + "\n"


def test_the_library_imports_without_the_cli_extra() -> None:
    result = _run_hidden(
        """
        import cucumber_rules as cr, cucumber_rules.bots, cucumber_rules.simulate, cucumber_rules.narrate
        state = cr.new_game(cr.ruleset("agurk"), players=3)
        assert not [m for m in sys.modules if m.partition(".")[0] in ("typer", "rich", "click")]
        print("ok")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"


def test_missing_packages_names_each_one() -> None:
    assert _cli_entry.missing_packages() == ()  # this environment has the extra
    assert _cli_entry.missing_message(["rich"]).startswith(
        "cucumber-rules: the command line needs rich, which is"
    )


def test_python_dash_m_runs_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cucumber_rules", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**_env(), "PYTHONPATH": str(ROOT / "src")},
    )
    assert (result.returncode, result.stdout) == (0, f"cucumber-rules {cr.__version__}\n")


@needs_build
def test_a_fresh_install_without_the_extra(dist: Path, tmp_path: Path) -> None:
    """The wheel in a new virtualenv with attrs and cattrs only: the library works, the script explains."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
            env=_env(),
        ).stdout.strip()
    )
    # The library's dependencies, from this environment (offline): attrs, cattrs and what cattrs needs.
    links = tmp_path / "deps"
    links.mkdir()
    for name in ("attr", "attrs", "cattr", "cattrs", "typing_extensions"):
        spec = importlib.util.find_spec(name)
        assert spec is not None, name
        assert spec.origin is not None, name
        origin = Path(spec.origin)
        source = origin.parent if origin.name == "__init__.py" else origin
        (links / source.name).symlink_to(source)
    (site / "deps.pth").write_text(f"{links}\n", encoding="utf-8")
    command = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps"]
    install = subprocess.run(
        [*command, "--no-index", str(_wheel(dist))],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=_env(),
    )
    assert install.returncode == 0, install.stderr[-3000:]

    def fresh(*command: str | Path) -> subprocess.CompletedProcess[str]:
        """Run a command of the new environment, from the test's folder."""
        return subprocess.run(
            command, capture_output=True, text=True, timeout=60, check=False, env=_env(), cwd=tmp_path
        )

    code = "import cucumber_rules as cr; print(cr.__version__, cr.new_game(cr.ruleset('gurka'), 2).to_act)"
    library = fresh(python, "-c", code)
    assert library.returncode == 0, library.stderr
    assert library.stdout == f"{cr.__version__} {cr.CHANCE}\n"
    # the README's example, as a new user runs it after installing the wheel
    (example,) = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)[:1]
    (tmp_path / "readme_example.py").write_text(example, encoding="utf-8")
    readme = fresh(python, "readme_example.py")
    assert readme.returncode == 0, readme.stderr
    assert readme.stdout.splitlines()[0] == "(0, 0, 0, 0)"
    no_typer = fresh(python, "-c", "import typer")
    assert no_typer.returncode != 0  # really a fresh environment without the extra

    script = fresh(env_dir / "bin" / "cucumber-rules", "demo")
    assert script.returncode == 1
    assert script.stderr == INSTALL_LINE + "\n"
    assert "Traceback" not in script.stdout + script.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("twine") is None, reason="twine is not installed (pip install -e '.[build]')"
)
def test_twine_check_passes(dist: Path) -> None:
    """The wheel and the sdist pass `twine check --strict`: PyPI would render the README as written."""
    files = sorted(str(p) for p in dist.iterdir())
    assert len(files) == 2, files
    result = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=_env(),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2, result.stdout
