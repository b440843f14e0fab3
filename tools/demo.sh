#!/usr/bin/env bash
# Set up a virtualenv (.venv) from the project's files and run a narrated demo match between bots.
# Usage: bash tools/demo.sh [cucumber-rules demo options, e.g. --preset gurka --seed 3]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
# The command line needs the `cli` extra (typer and rich); the library alone does not.
# A first run sets it up and says each step as it goes: it creates the virtualenv .venv, upgrades pip
# in it, installs this checkout with the cli extra from the package index (pip install -e '.[cli]'),
# then plays the demo. How long that takes depends on the network and the machine. Later runs find
# .venv ready and start the demo at once.
if [ ! -x .venv/bin/cucumber-rules ] || ! .venv/bin/python -c "import typer, rich" 2>/dev/null; then
  echo "demo.sh: first run: setting up .venv with cucumber-rules and its command line (typer, rich)..." >&2
  if [ ! -x .venv/bin/python ]; then
    echo "demo.sh: creating the virtualenv .venv" >&2
    "$PYTHON" -m venv .venv
  fi
  echo "demo.sh: installing pip, then this checkout with the cli extra (pip install -e '.[cli]')" >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[cli]'
  echo "demo.sh: ready; next time the demo starts at once. Now the demo:" >&2
fi
exec .venv/bin/cucumber-rules demo "$@"
