"""MkDocs hook: ship Python in the site, so the examples run in the reader's browser.

After the site is built, this hook puts under `site/live/`:

- `pyodide/`: the Pyodide runtime (CPython compiled to WebAssembly) from the npm package
  `pyodide`, at the version pinned below, checked against the registry's sha512 integrity;
- `wheels/`: this project's own wheel (built from the checkout with `pip wheel`) and the wheels
  of its dependencies for Pyodide's Python (`pip download` of pure-Python wheels from PyPI);
- `cucumber_live.py`: the page-side helpers (`tools/cucumber_live.py`) the scripts call;
- `manifest.json`: the Pyodide version and the wheel file names, read by `javascripts/live.js`.

Before that, it turns each page's ```` ```python ... live="on" ```` block into a live example
(`tools/docs_live.py`); the rule pages' worked examples are made live by `mkdocs_features.py`.

So the pages load nothing from any other host. Downloads and the wheel build are cached in
`.cache/pyodide/` (or `$CUCUMBER_LIVE_CACHE`) outside the site: the npm package by version, the
project wheel by a hash of the sources, the dependencies by the wheel's requirements. A second
build only copies files.

When `npm`, the npm registry or PyPI cannot be reached, the build fails and says why: the live
parts are not dropped silently. Building without them is an explicit choice:
`CUCUMBER_LIVE_DOCS=off mkdocs build` leaves `live/` out; the pages then keep their static
examples and pictures, and their Run buttons say that this build has no Python.

Registered in `mkdocs.yml` under `hooks:`; kept out of `docs/` so it is not copied into the site.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import mimetypes
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.live")

#: The Pyodide release shipped with the site (npm package `pyodide`) and its registry integrity.
PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
#: The files of the npm package a page needs (source maps, type declarations and consoles left out).
PYODIDE_FILES = (
    "package.json",
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: Where the live files go inside the site.
SITE_DIR = "live"
#: The environment switch: "off" builds the site without the live runtime.
SWITCH = "CUCUMBER_LIVE_DOCS"
#: The page-side helper module, copied into the site.
HELPER = Path(__file__).resolve().parent / "cucumber_live.py"

_TIMEOUT = 600


def enabled() -> bool:
    """True unless the build was asked to leave the live runtime out (`CUCUMBER_LIVE_DOCS=off`)."""
    return os.environ.get(SWITCH, "on").strip().lower() not in {"off", "0", "no", "false"}


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def cache_dir(root: Path) -> Path:
    """The download and build cache: `$CUCUMBER_LIVE_CACHE`, else `.cache/pyodide/` in the checkout."""
    return Path(os.environ.get("CUCUMBER_LIVE_CACHE") or root / ".cache" / "pyodide")


def _run(command: list[str], what: str, cwd: Path | None = None) -> str:
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=_TIMEOUT, check=False)
    except FileNotFoundError as error:
        raise PluginError(
            f"live examples: {what} needs `{command[0]}`, which is not installed. Install it, or build "
            f"without the live examples with {SWITCH}=off."
        ) from error
    except subprocess.TimeoutExpired as error:
        raise PluginError(f"live examples: {what} took longer than {_TIMEOUT} s") from error
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise PluginError(
            f"live examples: {what} failed (`{' '.join(command)}`, exit {done.returncode}). Is the "
            f"package registry reachable? Build without the live examples with {SWITCH}=off.\n{tail}"
        )
    return done.stdout


def _sri(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def fetch_pyodide(cache: Path) -> Path:
    """The directory of the pinned Pyodide npm package's files, downloaded with `npm pack` once."""
    target = cache / f"pyodide-{PYODIDE_VERSION}"
    if all((target / name).is_file() for name in PYODIDE_FILES):
        return target
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        log.info("live examples: downloading pyodide@%s from the npm registry", PYODIDE_VERSION)
        _run(
            ["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--loglevel=error"],
            f"downloading pyodide@{PYODIDE_VERSION}",
            cwd=Path(tmp),
        )
        tarball = Path(tmp) / f"pyodide-{PYODIDE_VERSION}.tgz"
        if not tarball.is_file():
            raise PluginError(f"live examples: npm pack left no {tarball.name}")
        if _sri(tarball) != PYODIDE_INTEGRITY:
            raise PluginError(
                f"live examples: pyodide-{PYODIDE_VERSION}.tgz does not match its pinned integrity "
                f"{PYODIDE_INTEGRITY} (got {_sri(tarball)})"
            )
        unpacked = Path(tmp) / "unpacked"
        with tarfile.open(tarball) as archive:
            archive.extractall(unpacked, filter="data")
        staged = Path(tmp) / "files"
        staged.mkdir()
        for name in PYODIDE_FILES:
            source = unpacked / "package" / name
            if not source.is_file():
                raise PluginError(f"live examples: pyodide@{PYODIDE_VERSION} has no {name}")
            shutil.copy2(source, staged / name)
        if target.exists():
            shutil.rmtree(target)
        staged.rename(target)
    return target


def pyodide_python(pyodide: Path) -> str:
    """Pyodide's Python version as `major.minor`, from its lock file."""
    info = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    major, minor, *_ = str(info["python"]).split(".")
    return f"{major}.{minor}"


def _source_hash(root: Path) -> str:
    digest = hashlib.sha256()
    files = [root / "pyproject.toml", root / "README.md", *sorted((root / "src").rglob("*"))]
    for path in files:
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build_wheel(root: Path, cache: Path) -> Path:
    """This project's wheel, built from the checkout with `pip wheel` (cached by a hash of the sources)."""
    target = cache / "project" / _source_hash(root)
    found = sorted(target.glob("*.whl"))
    if found:
        return found[0]
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        log.info("live examples: building the project's wheel")
        _run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", tmp, str(root)],
            "building the project's wheel",
        )
        wheels = sorted(Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            raise PluginError(f"live examples: pip wheel made {len(wheels)} wheels, expected one")
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(wheels[0], target / wheels[0].name)
    # Older builds of the wheel are of no more use.
    for old in (cache / "project").iterdir():
        if old != target and old.is_dir():
            shutil.rmtree(old)
    return target / wheels[0].name


def requirements(wheel: Path) -> list[str]:
    """The `Requires-Dist` lines of a wheel's metadata."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = HeaderParser().parsestr(archive.read(name).decode("utf-8"))
    return sorted(metadata.get_all("Requires-Dist") or [])


def download_dependencies(wheel: Path, python: str, cache: Path) -> list[Path]:
    """Pure-Python wheels of the wheel's dependencies for Pyodide's Python, from PyPI (cached)."""
    key = hashlib.sha256(json.dumps([python, requirements(wheel)]).encode()).hexdigest()[:16]
    target = cache / "dependencies" / key
    listing = target / "wheels.json"
    if listing.is_file():
        names = json.loads(listing.read_text(encoding="utf-8"))
        if all((target / n).is_file() for n in names):
            return [target / n for n in names]
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        log.info("live examples: downloading the dependencies' wheels for Python %s", python)
        _run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
                "--python-version", python, "--implementation", "py", "--abi", "none",
                "--platform", "any", "--dest", tmp, str(wheel),
            ],
            f"downloading the dependencies' wheels for Python {python} (pure-Python wheels only)",
        )  # fmt: skip
        names = sorted(p.name for p in Path(tmp).glob("*.whl") if p.name != wheel.name)
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        for name in names:
            shutil.copy2(Path(tmp) / name, target / name)
        listing.write_text(json.dumps(names), encoding="utf-8")
    return [target / n for n in names]


def _copy(source: Path, target: Path) -> None:
    """Copy a file unless an identical-looking copy is there already (`mkdocs serve` rebuilds often)."""
    if target.is_file():
        have, want = target.stat(), source.stat()
        if have.st_size == want.st_size and have.st_mtime >= want.st_mtime:
            return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)


def vendor(root: Path, site: Path) -> dict[str, object]:
    """Put the runtime, the wheels, the helper module and the manifest into `site/live/`."""
    cache = cache_dir(root)
    pyodide = fetch_pyodide(cache)
    python = pyodide_python(pyodide)
    wheel = build_wheel(root, cache)
    dependencies = download_dependencies(wheel, python, cache)
    out = site / SITE_DIR
    for name in PYODIDE_FILES:
        _copy(pyodide / name, out / "pyodide" / name)
    for path in [*dependencies, wheel]:
        _copy(path, out / "wheels" / path.name)
    _copy(HELPER, out / HELPER.name)
    manifest: dict[str, object] = {
        "pyodide": PYODIDE_VERSION,
        "python": python,
        # Dependencies first, the project's wheel last.
        "wheels": [p.name for p in dependencies] + [wheel.name],
        "helper": HELPER.name,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


# --- MkDocs events --------------------------------------------------------------------------------------


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Serve WebAssembly and JavaScript modules with the types browsers insist on (`mkdocs serve`).

    Also puts `tools/` on `sys.path` for `docs_live`, which writes the live examples' markup.
    """
    mimetypes.add_type("application/wasm", ".wasm")
    mimetypes.add_type("text/javascript", ".mjs")
    tools = str(HELPER.parent)
    if tools not in sys.path:
        sys.path.insert(0, tools)
    return config


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Make the page's ```` ```python ... live="on" ```` blocks live examples (see `docs_live`)."""
    import docs_live

    return docs_live.wrap_live_fences(markdown)


def on_post_build(config: MkDocsConfig) -> None:
    """Vendor the live runtime into the built site (or say that this build leaves it out)."""
    if not enabled():
        log.info("live examples: left out of this build (%s=off)", SWITCH)
        return
    manifest = vendor(_root(config), Path(config.site_dir))
    log.info(
        "live examples: Pyodide %s (Python %s) and %d wheels in %s/",
        manifest["pyodide"],
        manifest["python"],
        len(manifest["wheels"]),  # type: ignore[arg-type]
        SITE_DIR,
    )
