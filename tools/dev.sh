#!/usr/bin/env bash
# The fast loop: ruff, mypy --strict and pytest in a virtualenv kept between runs (.venv-dev).
# The virtualenv is built again only when pyproject.toml (or the Python) changes, so a run costs only
# the checks themselves. Arguments go to pytest: `bash tools/dev.sh tests/test_cli.py -x` runs one file.
# Before a merge, and in CI, run `bash tools/test.sh`: a fresh virtualenv, every test, the docs build.
# Usage: bash tools/dev.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv-dev}"
source tools/venv.sh
ensure_venv "$VENV" "cli,test,docs,lint,scale,build,openspiel,pettingzoo"
export NO_MKDOCS_2_WARNING=1
echo "== ruff"
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .
echo "== mypy --strict"
"$VENV/bin/mypy"
echo "== pytest"
"$VENV/bin/pytest" -q "$@"
