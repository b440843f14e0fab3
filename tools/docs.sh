#!/usr/bin/env bash
# Serve the documentation site locally at http://127.0.0.1:8000 (rebuilds on change).
# Usage: bash tools/docs.sh [build]   (with "build": write the static site to site/ instead)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
source tools/venv.sh
ensure_venv .venv-docs docs,openspiel,pettingzoo   # built again when pyproject.toml changes
export NO_MKDOCS_2_WARNING=1
if [ "${1:-serve}" = build ]; then
  exec .venv-docs/bin/mkdocs build --strict
fi
exec .venv-docs/bin/mkdocs serve
