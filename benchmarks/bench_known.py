"""What ingest keeps of a big lake while it runs: pipeline.known.Seen (sorted raw digests and
match id keys in files of the run's own, mapped) against the set and dict of Python strings of
old, on a lake of --matches matches (a DuckDB table of ids and content hashes standing in for
the manifest's files).

    .venv/bin/python benchmarks/bench_known.py --matches 1000000

Prints, for each: the memory it holds in the heap once built (tracemalloc, bytes a match), its
peak while building, the seconds to build it, and a lookup's microseconds (hit and miss); then
how much of Seen's mapped files the process holds resident (RssFile) after 200,000 lookups,
and after the next hand-back of pages (pipeline.known.RELEASE_EVERY).
"""
from __future__ import annotations

import argparse
import gc
import hashlib
import re
import time
import timeit
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from pipeline.known import Seen


def lake(matches: int) -> duckdb.DuckDBPyConnection:
    ids = [f"vw-2026-{t:03d}-r{r}-t{m}" for t in range(1 + matches // 1024)
           for r in range(1, 9) for m in range(1, 129)][:matches]
    hashes = [hashlib.blake2b(i.encode(), digest_size=16).hexdigest() for i in ids]
    con = duckdb.connect()
    con.register("matches_", pa.table({"match_id": ids, "content_hash": hashes}))
    con.execute("CREATE TABLE matches AS SELECT * FROM matches_")
    con.execute("CREATE TABLE quarantine AS SELECT content_hash FROM matches_ LIMIT 0")
    return con


class Connection:
    """The lake's connection, not closed by Seen (it stands for a fresh one each time)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def __call__(self) -> Any:
        return self

    def sql(self, query: str) -> Any:
        return self.con.sql(query)

    def execute(self, query: str, params: Any = None) -> Any:
        return self.con.execute(query, params)

    def close(self) -> None:
        pass


def python_structures(con: duckdb.DuckDBPyConnection) -> tuple[dict[str, str], set[str]]:
    """What ingest held before: every match id -> hash, and every hash, as Python strings."""
    ingested = dict(con.execute("SELECT match_id, content_hash FROM matches").fetchall())
    hashes = {h for (h,) in con.execute("SELECT content_hash FROM quarantine").fetchall()}
    return ingested, hashes | set(ingested.values())


def measured(build: Callable[[], Any]) -> tuple[Any, float, float, float]:
    """(what build made, MB held after, MB peak while building, seconds)."""
    gc.collect()
    tracemalloc.start()
    started = time.perf_counter()
    made = build()
    seconds = time.perf_counter() - started
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return made, held / 2**20, peak / 2**20, seconds


def file_mb() -> float:
    """The file-backed pages this process holds resident, in MB (mapped files, libraries)."""
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"RssFile:\s+(\d+)", status).group(1)) / 1024  # type: ignore[union-attr]


def resident(seen: Seen, lookups: int) -> tuple[float, float]:
    """(MB of mapped files gained over `lookups` random misses, MB after the next hand-back)."""
    before = file_mb()
    for i in range(lookups):
        seen.known(hashlib.blake2b(str(i).encode(), digest_size=16).hexdigest())
    during = file_mb() - before
    seen.lake_digests.sorted.release()
    return during, file_mb() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    args = parser.parse_args()
    con = lake(args.matches)
    hit_id = con.execute("SELECT match_id, content_hash FROM matches LIMIT 1").fetchone()
    assert hit_id is not None
    miss = "ab" * 16
    (ingested, hashes), old_mb, old_peak, old_s = measured(lambda: python_structures(con))
    seen, new_mb, new_peak, new_s = measured(lambda: Seen.of(Connection(con)))
    n = args.matches
    print(f"a lake of {n:,} matches")
    print(f"{'':28s}{'held MB':>10s}{'B/match':>9s}{'peak MB':>10s}{'build s':>9s}")
    print(f"{'Python set + dict (before)':28s}{old_mb:10.1f}{old_mb * 2**20 / n:9.0f}"
          f"{old_peak:10.1f}{old_s:9.2f}")
    print(f"{'pipeline.known.Seen':28s}{new_mb:10.1f}{new_mb * 2**20 / n:9.0f}"
          f"{new_peak:10.1f}{new_s:9.2f}")
    print(f"heap held: {old_mb:.1f} MB before, {new_mb:.2f} MB now")
    for label, old, new in (
            ("hash lookup, hit", lambda: hit_id[1] in hashes, lambda: seen.known(hit_id[1])),
            ("hash lookup, miss", lambda: miss in hashes, lambda: seen.known(miss)),
            ("match id, miss", lambda: "x" in ingested, lambda: seen.holder("x"))):
        before = timeit.timeit(old, number=20_000) / 20_000 * 1e6
        after = timeit.timeit(new, number=20_000) / 20_000 * 1e6
        print(f"{label:20s} {before:6.2f} us before, {after:6.2f} us now")
    during, after_release = resident(seen, 200_000)
    print(f"mapped files resident: {during:.1f} MB after 200,000 lookups, {after_release:.1f} MB "
          f"once handed back (files: {24 * n / 2**20:.1f} MB)")
    seen.close()


if __name__ == "__main__":
    main()
