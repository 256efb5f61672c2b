#!/usr/bin/env bash
# The main job on the embedded default: simulate a season of Vitorian Wars tournaments, every
# log signed with a fresh organiser key, verify and ingest every log (signatures checked) into a
# Parquet lake, print the card statistics, matchups and charges,
# then open the app on that lake (Ctrl+C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/env.sh
out=${POSTGAME_DEMO_DIR:-out/demo}
pg=.venv/bin/postgame
rm -rf "$out"
mkdir -p "$out"
$pg keys new "$out/organiser"
$pg simulate vitorian --players 16 --rounds 4 --tournaments 6 --seed 2026 --workers 2 \
    --out "$out/logs" --sign-key "$out/organiser.key"
$pg verify "$out/logs" --key "$out/organiser.pub"
$pg ingest "$out/logs" --lake "$out/lake" --workers 2 --key "$out/organiser.pub"
$pg stats --lake "$out/lake" --game vitorian --limit 15
$pg matchups --lake "$out/lake" --game vitorian
$pg charges --lake "$out/lake" --game vitorian --movers 10
first=$(find "$out/logs" -name '*.pglog' | sort | sed -n 1p)  # sed reads all: no SIGPIPE under pipefail
$pg replay "$first" --turn 3 --as 0
exec $pg app --lake "$out/lake" ${POSTGAME_APP_PORT:+--port "$POSTGAME_APP_PORT"}
