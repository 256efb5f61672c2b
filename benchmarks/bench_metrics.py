"""The metrics suite (DuckDB SQL over the lake) beside plain pandas, measured in the same run.

    .venv/bin/python benchmarks/bench_metrics.py [--lake DIR] [--matches 2000] [--repeat 3]
    .venv/bin/python benchmarks/bench_metrics.py --lake /tmp/big/lake     # a 100,000-match lake

Without --lake, a season of about --matches simulated Vitorian matches is built through the
command line (postgame simulate, then postgame ingest) in a temporary folder. Then, best of
--repeat runs each:
- DuckDB: the whole suite (metrics.run_all: coverage, card usage, matchups, first player,
  factions, archetypes) and card_usage alone, every run reading the Parquet files afresh;
- pandas: the same card-usage metrics (pipeline.stats_cross_check.card_usage: read the Parquet
  files with pandas, groupby and merge), which must agree with the SQL to 1e-9.
"""
from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of `repeat` runs (the others absorb cache warm-up) and the last result."""
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return min(times), result


def duckdb_suite(lake: Lake) -> dict[str, Any]:
    with lake.connect() as con:
        return metrics.run_all(con, GAME)


def duckdb_card_usage(lake: Lake) -> Any:
    with lake.connect() as con:
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


def report(lake: Lake, repeat: int) -> None:
    with lake.connect() as con:
        rows = {t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
                for t in ("matches", "deck_cards", "card_events")}
    print(f"lake {lake.root}: {rows['matches']} matches, {rows['deck_cards']} deck lines, "
          f"{rows['card_events']} card events")
    suite_s, _ = best_of(repeat, lambda: duckdb_suite(lake))
    usage_s, sql = best_of(repeat, lambda: duckdb_card_usage(lake))
    pandas_s, frame = best_of(repeat, lambda: pandas_card_usage(lake))
    print(f"DuckDB full suite ({len(metrics.SUITE)} models) : {suite_s:8.3f} s")
    print(f"DuckDB card_usage                : {usage_s:8.3f} s")
    print(f"pandas card_usage (read + compute): {pandas_s:8.3f} s")
    print(f"pandas card_usage / DuckDB suite : {pandas_s / suite_s:8.1f} x")
    print(f"pandas card_usage / DuckDB card_usage: {pandas_s / usage_s:4.1f} x")
    print(f"largest difference SQL vs pandas : {same_numbers(sql, frame):.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lake", type=Path, help="an ingested lake (default: build one)")
    parser.add_argument("--matches", type=int, default=2000, help="size of the lake built")
    parser.add_argument("--workers", type=int, default=2, help="workers to build it")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best kept")
    args = parser.parse_args()
    if args.lake:
        report(Lake(args.lake), args.repeat)
        return
    with tempfile.TemporaryDirectory(prefix="bench-metrics-") as tmp:
        report(Lake(build_lake(Path(tmp), args.matches, args.workers)), args.repeat)


if __name__ == "__main__":
    main()
