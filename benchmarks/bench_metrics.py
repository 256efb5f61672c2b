"""The metrics suite (DuckDB SQL over the lake) beside plain pandas, measured in the same run.

    .venv/bin/python benchmarks/bench_metrics.py [--lake DIR] [--matches 2000] [--repeat 3]
        [--threads N]
    .venv/bin/python benchmarks/bench_metrics.py --lake /tmp/big/lake     # a 100,000-match lake

Without --lake, a season of about --matches simulated Vitorian matches is built through the
command line (postgame simulate, then postgame ingest) in a temporary folder. Then, best of
--repeat runs each, taking turns:
- DuckDB: the game's whole suite (metrics.run_all over metrics.suite(game), Vitorian's:
  coverage, card usage, matchups, first player, factions, archetypes) and card_usage alone,
  every run reading the Parquet files afresh;
- pandas: the same card-usage metrics (pipeline.stats_cross_check.card_usage: read the Parquet
  files with pandas, groupby and merge), which must agree with the SQL to 1e-9.
Wall and CPU seconds are both printed: DuckDB uses every core, pandas one. The load average
is printed before and after: on a busy machine, rerun, and read the CPU seconds beside the wall.
"""
from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from pipeline import metrics
from pipeline import stats_cross_check as ref
from pipeline.lake import Lake

GAME = "vitorian"


def build_lake(folder: Path, matches: int, workers: int) -> Path:
    """postgame simulate + postgame ingest: 16-player, 4-round tournaments (32 matches each)."""
    tournaments = max(1, math.ceil(matches / 32))
    postgame = [sys.executable, "-m", "postgame.cli"]
    started = time.perf_counter()
    subprocess.run([*postgame, "simulate", GAME, "--players", "16", "--rounds", "4",
                    "--tournaments", str(tournaments), "--workers", str(workers), "--seed", "9",
                    "--out", str(folder / "logs"), "--quiet"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([*postgame, "ingest", str(folder / "logs"), "--lake", str(folder / "lake"),
                    "--workers", str(workers)], check=True, stdout=subprocess.DEVNULL)
    print(f"built a lake of {tournaments * 32} matches in {time.perf_counter() - started:.0f} s")
    return folder / "lake"


def best_of(repeat: int, runs: dict[str, Callable[[], Any]]
            ) -> dict[str, tuple[float, float, Any]]:
    """The fastest of `repeat` runs of each, wall clock and CPU (all threads of this process):
    on a shared machine the CPU seconds hold still when the wall clock does not. The runs take
    turns (round after round of each), so a busy spell of the machine slows all of them alike."""
    walls: dict[str, list[float]] = {name: [] for name in runs}
    cpus: dict[str, list[float]] = {name: [] for name in runs}
    results: dict[str, Any] = {}
    for _ in range(repeat):
        for name, run in runs.items():
            wall, cpu = time.perf_counter(), time.process_time()
            results[name] = run()
            walls[name].append(time.perf_counter() - wall)
            cpus[name].append(time.process_time() - cpu)
    return {name: (min(walls[name]), min(cpus[name]), results[name]) for name in runs}


def connect(lake: Lake, threads: int | None) -> duckdb.DuckDBPyConnection:
    con = lake.connect()
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    return con


def duckdb_suite(lake: Lake, threads: int | None) -> dict[str, Any]:
    with connect(lake, threads) as con:
        return metrics.run_all(con, GAME)


def duckdb_card_usage(lake: Lake, threads: int | None) -> Any:
    with connect(lake, threads) as con:
        return metrics.card_usage(con, GAME)


def pandas_card_usage(lake: Lake) -> Any:
    return ref.card_usage(ref.read_lake(lake), GAME)


def same_numbers(sql: Any, pandas: Any) -> float:
    """The largest difference between the two card-usage tables (both ordered the same)."""
    assert list(sql["card"]) == list(pandas["card"]), "the card lists differ"
    numeric = [c for c in pandas.columns if pandas[c].dtype.kind in "fiu"]
    a = sql[numeric].astype("float64").to_numpy()
    b = pandas[numeric].astype("float64").to_numpy()
    assert np.array_equal(np.isnan(a), np.isnan(b)), "NULLs differ"
    return float(np.nanmax(np.abs(a - b)))


def report(lake: Lake, repeat: int, threads: int | None = None) -> None:
    with lake.connect() as con:
        rows = {t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
                for t in ("matches", "deck_cards", "card_events")}
    print(f"lake {lake.root}: {rows['matches']} matches, {rows['deck_cards']} deck lines, "
          f"{rows['card_events']} card events")
    print(f"load average before: {_load()}")
    best = best_of(repeat, {"suite": lambda: duckdb_suite(lake, threads),
                            "usage": lambda: duckdb_card_usage(lake, threads),
                            "pandas": lambda: pandas_card_usage(lake)})
    suite, usage, pandas = best["suite"], best["usage"], best["pandas"]
    print(f"threads: DuckDB {_threads(lake, threads)}, pandas 1; best of {repeat}     wall s    CPU s")
    for label, (wall, cpu, _) in ((f"DuckDB full suite ({len(metrics.suite(GAME))} models)", suite),
                                  ("DuckDB card_usage", usage),
                                  ("pandas card_usage (read + compute)", pandas)):
        print(f"{label:38s} {wall:8.3f} {cpu:8.3f}")
    print(f"{'pandas card_usage / DuckDB suite':38s} {pandas[0] / suite[0]:7.1f}x "
          f"{pandas[1] / suite[1]:7.1f}x")
    print(f"{'pandas card_usage / DuckDB card_usage':38s} {pandas[0] / usage[0]:7.1f}x "
          f"{pandas[1] / usage[1]:7.1f}x")
    print(f"largest difference SQL vs pandas: {same_numbers(usage[2], pandas[2]):.1e}")
    print(f"load average after: {_load()}")


def _load() -> str:
    """The 1, 5 and 15 minute load averages, beside the machine's core count."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" ({os.cpu_count()} cores)"


def _threads(lake: Lake, threads: int | None) -> int:
    with connect(lake, threads) as con:
        return int(con.execute("SELECT current_setting('threads')").fetchall()[0][0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lake", type=Path, help="an ingested lake (default: build one)")
    parser.add_argument("--matches", type=int, default=2000, help="size of the lake built")
    parser.add_argument("--workers", type=int, default=2, help="workers to build it")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best kept")
    parser.add_argument("--threads", type=int, help="DuckDB threads (default: one per core)")
    args = parser.parse_args()
    if args.lake:
        report(Lake(args.lake), args.repeat, args.threads)
        return
    with tempfile.TemporaryDirectory(prefix="bench-metrics-") as tmp:
        lake = build_lake(Path(tmp), args.matches, args.workers)
        report(Lake(lake), args.repeat, args.threads)


if __name__ == "__main__":
    main()
