#!/usr/bin/env bash
# The whole test suite, from the project's own files, in a fresh virtualenv:
# unit tests, feature files, Hypothesis properties, the docs build (mkdocs --strict, with Pyodide vendored
# from the npm registry), the built pages in headless Chromium, ruff and mypy --strict; and the docs
# built as README's `bash tools/docs.sh build` builds them on a fresh clone: in a fresh virtualenv
# with only the docs' extras (a page that needs a package they lack fails here).
# Needs npm (for the docs' Python runtime) and Chromium (Debian's package; installed here with apt-get when
# missing and run as root). Usage: bash tools/test.sh [extra pytest arguments]
# For a quicker loop that keeps its virtualenv between runs: bash tools/dev.sh [pytest arguments].
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ -z "${CUCUMBER_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Chromium (Debian's package) for the browser tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
  else
    echo "tools/test.sh: the browser tests need Chromium. Install it (Debian/Ubuntu: sudo apt-get install chromium)" >&2
    echo "or set CUCUMBER_CHROMIUM to a Chromium binary." >&2
    exit 1
  fi
fi
# The browser tests are part of the suite here: a missing browser is a failure, not a skip.
export CUCUMBER_REQUIRE_BROWSER=1
VENV="${VENV:-.venv-test}"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -e '.[cli,test,docs,lint,scale,build,openspiel,pettingzoo]'
export NO_MKDOCS_2_WARNING=1
echo "== ruff"
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .
echo "== mypy --strict"
"$VENV/bin/mypy"
echo "== docs, with only the docs' extras (bash tools/docs.sh build, as on a fresh clone)"
DOCS_VENV="${DOCS_VENV:-.venv-test-docs}"
rm -rf "$DOCS_VENV"
DOCS_VENV="$DOCS_VENV" bash tools/docs.sh build
echo "== pytest (unit tests, features, properties, docs build)"
"$VENV/bin/pytest" -q "$@"
