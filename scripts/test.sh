#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs the environment, then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/env.sh
exec .venv/bin/python -m pytest "$@"
