#!/usr/bin/env bash
# Serve the documentation site locally at http://127.0.0.1:8000 (rebuilds on change).
# Usage: bash tools/docs.sh [build]   (with "build": write the static site to site/ instead)
# Its virtualenv has the project with the docs' extras only (DOCS_EXTRAS), as a newcomer gets it;
# CI builds the site this way too (tools/test.sh). DOCS_VENV names the virtualenv (.venv-docs).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
source tools/venv.sh
DOCS_VENV="${DOCS_VENV:-.venv-docs}"
# The API pages document the AI adapters, which import their frameworks: the docs need those extras too.
DOCS_EXTRAS="docs,openspiel,pettingzoo"
ensure_venv "$DOCS_VENV" "$DOCS_EXTRAS"   # built again when pyproject.toml changes
export NO_MKDOCS_2_WARNING=1
if [ "${1:-serve}" = build ]; then
  exec "$DOCS_VENV/bin/mkdocs" build --strict
fi
exec "$DOCS_VENV/bin/mkdocs" serve
