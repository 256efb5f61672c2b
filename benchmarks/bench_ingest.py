"""Ingest throughput (events/s, matches/s) beside a baseline measured in the same run.

    .venv/bin/python benchmarks/bench_ingest.py [--matches 2000] [--logs DIR] [--lake DIR]
    .venv/bin/python benchmarks/bench_ingest.py --matches 100000 --logs /tmp/pg100k   # big run

Builds a season of simulated Vitorian logs (or reuses --logs DIR if it holds logs already), then
times, on the same logs:
- baseline: read_log (CRC, typed decoding, hash chain) + a plain fold of `apply`, one process,
  nothing written: the floor any verifying ingest pays;
- ingest with --workers 1 and 2 into fresh lakes (verify, replay, facts, Parquet, manifest,
  compaction, audits excluded), the lake kept under --lake if given.
"""
from __future__ import annotations

import argparse
import math
import shutil
import tempfile
import time
from pathlib import Path

from engine.ruleset import get_ruleset
from engine.tournament import SeasonConfig, run_season
from events.log import read_log
from pipeline.ingest import find_logs, ingest
from pipeline.lake import Lake


def build_logs(folder: Path, matches: int, workers: int) -> list[Path]:
    """A season of 16-player, 4-round Swiss tournaments with about `matches` matches."""
    logs = find_logs([folder]) if folder.exists() else []
    if logs:
        return logs
    tournaments = max(1, math.ceil(matches / 32))
    cfg = SeasonConfig(game="vitorian", players=16, rounds=4, seed=2026, out=folder,
                       tournaments=min(tournaments, 999), workers=workers)
    started = time.perf_counter()
    run_season(cfg)
    logs = find_logs([folder])
    print(f"simulated {len(logs)} matches in {time.perf_counter() - started:.1f} s -> {folder}")
    return logs


def baseline(logs: list[Path]) -> tuple[float, int]:
    """read_log + plain fold, one process: (seconds, events)."""
    started, events = time.perf_counter(), 0
    for path in logs:
        log = read_log(path)
        rules = get_ruleset(log.header.ruleset)
        state, apply = rules.setup(log.header), rules.apply
        for event in log.events:
            apply(state, event)
        events += len(log.events)
    return time.perf_counter() - started, events


def timed_ingest(logs: list[Path], lake_dir: Path, workers: int, batch: int) -> tuple[float, int]:
    shutil.rmtree(lake_dir, ignore_errors=True)
    report = ingest(logs, Lake(lake_dir), workers=workers, batch_size=batch, audit=False)
    assert report.ingested == len(logs), report.to_json()
    return report.seconds, report.events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--logs", type=Path, help="folder of logs (built there if empty)")
    parser.add_argument("--lake", type=Path, help="where to leave the lake (default: temporary)")
    parser.add_argument("--batch-size", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        logs = build_logs(args.logs or Path(tmp) / "logs", args.matches, workers=2)
        lake = args.lake or Path(tmp) / "lake"
        base_s, events = baseline(logs)
        print(f"logs: {len(logs)} matches, {events} events ({events / len(logs):.0f} per match)")
        print(f"baseline read+fold, 1 process : {events / base_s:9.0f} events/s "
              f"{len(logs) / base_s:8.1f} matches/s")
        for workers in (1, 2):
            seconds, ingested = timed_ingest(logs, lake, workers, args.batch_size)
            print(f"ingest --workers {workers}           : {ingested / seconds:9.0f} events/s "
                  f"{len(logs) / seconds:8.1f} matches/s  (ingest/baseline = "
                  f"{base_s / seconds:.2f}x)")
        summary = Lake(lake).summary()
        files = sum(len(Lake(lake).files(t)) for t in ("matches", "card_events"))
        print(f"lake: {summary['games']['vitorian']['matches']} matches, {files} files in "
              f"matches + card_events")


if __name__ == "__main__":
    main()
