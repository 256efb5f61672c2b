"""Ingest throughput (events/s, matches/s) beside a baseline measured in the same run.

    .venv/bin/python benchmarks/bench_ingest.py [--matches 2000] [--logs DIR] [--lake DIR]
    .venv/bin/python benchmarks/bench_ingest.py --matches 100000 --logs /tmp/pg100k --repeat 1

Builds a season of simulated Vitorian logs (or reuses --logs DIR if it holds logs already), then
times, on the same logs:
- baseline: read_log (CRC, typed decoding, hash chain) + a plain fold of `apply`, one process,
  nothing written: the floor any verifying ingest pays;
- ingest with --workers 1 and 2 into fresh lakes (verify, replay, facts, Parquet, manifest,
  compaction, audits excluded), the lake kept under --lake if given.
Each figure is the fastest of --repeat runs; events per CPU-second (this process and its workers)
are printed beside, since a shared machine's wall clock says as much about its neighbours.
"""
from __future__ import annotations

import argparse
import math
import os
import resource
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
    """A season of 4-round Swiss tournaments with about `matches` matches (16 players each, more
    when 999 tournaments would not be enough)."""
    logs = find_logs([folder]) if folder.exists() else []
    if logs:
        return logs
    players = 16
    while math.ceil(matches / (players * 2)) > 999:
        players *= 2
    cfg = SeasonConfig(game="vitorian", players=players, rounds=4, seed=2026, out=folder,
                       tournaments=max(1, math.ceil(matches / (players * 2))), workers=workers)
    started = time.perf_counter()
    run_season(cfg)
    logs = find_logs([folder])
    print(f"simulated {len(logs)} matches in {time.perf_counter() - started:.1f} s -> {folder}")
    return logs


def cpu_seconds() -> float:
    """CPU time of this process and its reaped children (pool workers): on a busy machine,
    events per CPU-second says what an idle one would do."""
    mine, kids = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                       resource.RUSAGE_CHILDREN))
    return mine.ru_utime + mine.ru_stime + kids.ru_utime + kids.ru_stime


def baseline(logs: list[Path]) -> tuple[float, float, int]:
    """read_log + plain fold, one process: (seconds, CPU seconds, events)."""
    started, cpu, events = time.perf_counter(), cpu_seconds(), 0
    for path in logs:
        log = read_log(path)
        rules = get_ruleset(log.header.ruleset)
        state, apply = rules.setup(log.header), rules.apply
        for event in log.events:
            apply(state, event)
        events += len(log.events)
    return time.perf_counter() - started, cpu_seconds() - cpu, events


def timed_ingest(logs: list[Path], lake_dir: Path, workers: int, batch: int
                 ) -> tuple[float, float, int]:
    """(seconds, CPU seconds, events) of one ingest into a fresh lake."""
    shutil.rmtree(lake_dir, ignore_errors=True)
    cpu = cpu_seconds()
    report = ingest(logs, Lake(lake_dir), workers=workers, batch_size=batch, audit=False)
    assert report.ingested == len(logs), report.to_json()
    return report.seconds, cpu_seconds() - cpu, report.events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--logs", type=Path, help="folder of logs (built there if empty)")
    parser.add_argument("--lake", type=Path, help="where to leave the lake (default: temporary)")
    parser.add_argument("--batch-size", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each measurement, the fastest kept (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        logs = build_logs(args.logs or Path(tmp) / "logs", args.matches, workers=2)
        lake = args.lake or Path(tmp) / "lake"
        base_s, base_cpu, events = min(baseline(logs) for _ in range(args.repeat))
        print(f"logs: {len(logs)} matches, {events} events ({events / len(logs):.0f} per match); "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(f"baseline read+fold, 1 process : {events / base_s:9.0f} events/s "
              f"{len(logs) / base_s:8.1f} matches/s  {events / base_cpu:9.0f} events/CPU-s")
        for workers in (1, 2):
            seconds, cpu, ingested = min(timed_ingest(logs, lake, workers, args.batch_size)
                                         for _ in range(args.repeat))
            print(f"ingest --workers {workers}           : {ingested / seconds:9.0f} events/s "
                  f"{len(logs) / seconds:8.1f} matches/s  {ingested / cpu:9.0f} events/CPU-s"
                  f"  (ingest/baseline = {base_s / seconds:.2f}x)")
        summary = Lake(lake).summary()
        files = sum(len(Lake(lake).files(t)) for t in ("matches", "card_events"))
        print(f"lake: {summary['games']['vitorian']['matches']} matches, {files} files in "
              f"matches + card_events")


if __name__ == "__main__":
    main()
