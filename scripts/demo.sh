#!/usr/bin/env bash
# The main job on the embedded default: simulate a small Vitorian Wars tournament, verify every
# log, then replay one match as seat 0 sees it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/env.sh
out=${POSTGAME_DEMO_DIR:-out/demo}
rm -rf "$out"
.venv/bin/postgame simulate vitorian --players 8 --rounds 3 --seed 2026 --out "$out/logs"
.venv/bin/postgame verify "$out/logs"
first=$(find "$out/logs" -name '*.pglog' | sort | head -n 1)
.venv/bin/postgame replay "$first" --turn 3 --as 0
