#!/usr/bin/env bash
# Set up a virtualenv (.venv) from the project's files and run a narrated demo match between bots.
# Usage: bash tools/demo.sh [cucumber-rules demo options, e.g. --preset gurka --seed 3]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/cucumber-rules ]; then
  "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e .
fi
exec .venv/bin/cucumber-rules demo "$@"
