#!/usr/bin/env bash
# Set up a virtualenv (.venv) from the project's files and run a narrated demo match between bots.
# Usage: bash tools/demo.sh [cucumber-rules demo options, e.g. --preset gurka --seed 3]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
# The command line needs the `cli` extra (typer and rich); the library alone does not.
if [ ! -x .venv/bin/cucumber-rules ] || ! .venv/bin/python -c "import typer, rich" 2>/dev/null; then
  [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[cli]'
fi
exec .venv/bin/cucumber-rules demo "$@"
