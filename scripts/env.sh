#!/usr/bin/env bash
# Make sure this machine has what postgame needs, idempotently and quietly:
# - Debian packages: chromium (the app's browser tests) and a Java runtime (Spark);
# - .venv with postgame, its dependencies and the test tools.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v java >/dev/null 2>&1 || need+=(default-jre-headless)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "postgame: please install ${need[*]} (apt-get install ${need[*]})" >&2
    exit 1
  fi
  echo "postgame: installing ${need[*]} (apt)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.postgame-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "postgame: installing the Python environment in .venv" >&2
  .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1
  .venv/bin/python -m pip install --quiet -e '.[dev]' 2>&1 | { grep -v '^WARNING: Location' || true; }
  touch "$stamp"
fi
