# Sourced by tools/dev.sh and tools/docs.sh (not run on its own).
# ensure_venv DIR EXTRAS: make DIR a virtualenv with this project installed as `pip install -e .[EXTRAS]`,
# reusing it as long as pyproject.toml, the extras and the Python are those it was built with (a hash of
# them is kept in DIR/pyproject.sha256, written only once the install has succeeded).
ensure_venv() {
  local venv="$1" extras="$2" want
  want="$({ cat pyproject.toml; echo "extras: $extras"; "$PYTHON" --version; } | sha256sum | cut -d' ' -f1)"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/pyproject.sha256" 2>/dev/null || true)" = "$want" ]; then
    return 0
  fi
  echo "== setting up $venv (new, or pyproject.toml changed)"
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet -e ".[$extras]"
  echo "$want" > "$venv/pyproject.sha256"
}
