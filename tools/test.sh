#!/usr/bin/env bash
# The whole test suite, from the project's own files, in a fresh virtualenv:
# unit tests, feature files, Hypothesis properties, the docs build (mkdocs --strict), ruff and mypy --strict.
# Usage: bash tools/test.sh [extra pytest arguments]
# For a quicker loop that keeps its virtualenv between runs: bash tools/dev.sh [pytest arguments].
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv-test}"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -e '.[cli,test,docs,lint,scale,build]'
export NO_MKDOCS_2_WARNING=1
echo "== ruff"
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .
echo "== mypy --strict"
"$VENV/bin/mypy"
echo "== pytest (unit tests, features, properties, docs build)"
"$VENV/bin/pytest" -q "$@"
