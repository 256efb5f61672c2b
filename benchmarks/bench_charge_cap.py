"""The charge-cap check of each ingest batch (pipeline.ingest.quarantine_over_cap) on a large
Eredan lake, with and without the cache of closed epochs (pipeline.charge_epochs), in one run.

    .venv/bin/python benchmarks/bench_charge_cap.py [--matches 100000] [--batch 64]
    .venv/bin/python benchmarks/bench_charge_cap.py --lake /tmp/big/lake     # an Eredan lake

Without --lake the history is built here, in --work (kept, reused when it is there): a season
of --base tournaments of Eredan (16 players, 4 rounds) is simulated and ingested, then its
charge facts (matches, seats, decks, deck_cards) are copied, tournament and match ids renamed
and dates moved back, until the history holds about --matches matches: as many tournaments and
epochs (CH-2.1) as a real history that size, every one with real decks. The tail ingested on
top is the base season itself (its logs, later than every copy); with --lake, a season of
--tail tournaments simulated to start after the lake's last match.

The tail is ingested in batches of --batch logs into two copies of the history, one run with
the cache (pipeline.ingest.CACHE_EPOCHS) and one without, each timing its cap check batch by
batch (every fixpoint round of the batch, the committing included), and must give the same
verdicts. The tail's decks were built against their own season's tables, not the history's:
under the history's most are over the cap and quarantined, so the fixpoint's rounds are timed
too; --cap 2000 lets them in (one round a batch, the same tables computed). Then one more tournament is ingested into each copy by a new run: with the cache its
first batch resumes from the lake's derived file, validated. Printed: the seconds of each batch,
the median per batch and per round of each run, and their ratio.
"""
from __future__ import annotations

import argparse
import hashlib
import math
import shutil
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgspec
import pyarrow as pa
import pyarrow.compute as pc

from engine.charges import ChargeFormats, load_formats
from engine.tournament import SeasonConfig, run_season
from pipeline import ingest as ingest_module
from pipeline.ingest import CHARGE_TABLES, IngestReport, find_logs, ingest
from pipeline.lake import Lake
from pipeline.lake_layout import file_schema, new_batch_id

GAME = "eredan"
PLAYERS, ROUNDS = 16, 4
MATCHES_PER_TOURNAMENT = PLAYERS // 2 * ROUNDS


# --- the history --------------------------------------------------------------------------------

def simulate(out: Path, tournaments: int, seed: int, workers: int, start: Any = None
             ) -> list[Path]:
    """The logs of a simulated season (simulated once, then reused from `out`)."""
    if not out.exists() or not find_logs([out]):
        run_season(SeasonConfig(game=GAME, players=PLAYERS, rounds=ROUNDS, seed=seed, out=out,
                                tournaments=tournaments, workers=workers, start=start))
    return find_logs([out])


def charge_facts(lake: Lake) -> dict[str, pa.Table]:
    con = lake.connect()
    return {table: con.sql(f"SELECT * FROM {table} WHERE game = '{GAME}'").to_arrow_table()
            for table in CHARGE_TABLES}


def copy_of(facts: dict[str, pa.Table], k: int, back: timedelta) -> dict[Any, pa.Table]:
    """Copy k of the facts: ids prefixed "h<k>-", dates `back` earlier, in their new months."""
    tag = pa.scalar(f"h{k:04d}-")
    matches = facts["matches"]
    started = pc.subtract(matches["started_at"], pa.scalar(back, pa.duration("us")))
    month_of = dict(zip(matches["match_id"].to_pylist(),
                        pc.strftime(started, "%Y-%m").to_pylist()))
    parts: dict[Any, pa.Table] = {}
    for name, table in facts.items():
        months = pa.array([month_of[m] for m in table["match_id"].to_pylist()])
        table = _set(table, "match_id", pc.binary_join_element_wise(tag, table["match_id"], ""))
        if name == "matches":
            hashes = [hashlib.blake2b(f"{h}{k}".encode(), digest_size=16).hexdigest()
                      for h in table["content_hash"].to_pylist()]
            table = _set(table, "started_at", started)
            table = _set(table, "tournament",
                         pc.binary_join_element_wise(tag, table["tournament"], ""))
            table = _set(table, "content_hash", pa.array(hashes))
        columns = [f.name for f in file_schema(name)]
        for month in sorted(set(months.to_pylist())):
            parts[(name, GAME, month)] = table.filter(pc.equal(months, month)).select(columns)
    return parts


def _set(table: pa.Table, name: str, column: Any) -> pa.Table:
    return table.set_column(table.schema.get_field_index(name), name, column)


def build_history(work: Path, matches: int, base: int, workers: int) -> tuple[Path, list[Path]]:
    """The history lake (made once) and the tail's logs (the base season's)."""
    logs = simulate(work / "base-logs", base, 2026, workers)
    lake = work / "history"
    if (lake / "manifest.json").exists():
        return lake, logs
    started = time.perf_counter()
    scratch = Lake(work / "base-lake")
    if not (scratch.root / "manifest.json").exists():
        ingest(logs, scratch, workers=workers, audit=False)
    facts = charge_facts(scratch)
    st = facts["matches"]["started_at"]
    span = timedelta(days=(pc.max(st).as_py() - pc.min(st).as_py()).days + 7)
    copies = max(1, math.ceil(matches / facts["matches"].num_rows))
    with Lake(lake).writer() as writer:
        for k in range(copies):
            writer.commit(new_batch_id(), copy_of(facts, k, span * (copies - k)))
            writer.compact()
    print(f"built a history of {copies * facts['matches'].num_rows} matches "
          f"({copies} copies of {facts['matches'].num_rows}) in "
          f"{time.perf_counter() - started:.0f} s -> {lake}")
    return lake, logs


def tail_after(lake: Path, work: Path, tournaments: int, workers: int) -> list[Path]:
    """A season simulated to start a week after the lake's last match (--lake)."""
    con = Lake(lake).connect()
    last = con.execute(f"SELECT max(started_at) FROM matches WHERE game = '{GAME}'").fetchone()
    assert last and last[0], f"{lake} holds no {GAME} match"
    return simulate(work / "tail-logs", tournaments, 2027, workers,
                    start=(last[0] + timedelta(days=7)).date())


# --- the runs -------------------------------------------------------------------------------------

@dataclass
class Timings:
    batches: list[tuple[float, int]] = field(default_factory=list)
    """(seconds, check rounds) of each batch's cap check."""


@contextmanager
def timed(into: Timings) -> Iterator[None]:
    """Time quarantine_over_cap per batch and count its check_caps rounds."""
    cap, check = ingest_module.quarantine_over_cap, ingest_module.check_caps
    rounds = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        rounds[0] += 1
        return check(*args, **kwargs)

    def batch(*args: Any, **kwargs: Any) -> Any:
        rounds[0], started = 0, time.perf_counter()
        try:
            return cap(*args, **kwargs)
        finally:
            into.batches.append((time.perf_counter() - started, rounds[0]))
    ingest_module.quarantine_over_cap, ingest_module.check_caps = batch, counted
    try:
        yield
    finally:
        ingest_module.quarantine_over_cap, ingest_module.check_caps = cap, check


def run(logs: list[Path], lake: Path, cached: bool, args: argparse.Namespace
        ) -> tuple[IngestReport, Timings]:
    timings, saved = Timings(), ingest_module.CACHE_EPOCHS
    ingest_module.CACHE_EPOCHS = cached
    try:
        with timed(timings):
            report = ingest(logs, Lake(lake), batch_size=args.batch, workers=args.workers,
                            audit=False, charge_formats=formats(args.cap))
    finally:
        ingest_module.CACHE_EPOCHS = saved
    return report, timings


def formats(cap: int | None) -> ChargeFormats | None:
    """The data file's settings, Eredan's cap replaced when --cap is given."""
    if cap is None:
        return None
    loaded = load_formats()
    games = {game: dict(settings) for game, settings in loaded.games.items()}
    games[GAME]["standard"] = msgspec.structs.replace(games[GAME]["standard"], cap=cap)
    return ChargeFormats(games=games, source=f"{loaded.source} (cap {cap})")


def verdicts(report: IngestReport) -> tuple[int, list[tuple[Any, ...]]]:
    return report.ingested, sorted((q.match_id, q.rule, q.reason) for q in report.quarantined)


def medians(timings: Timings) -> tuple[float, float]:
    seconds = [s for s, _ in timings.batches]
    per_round = [s / r for s, r in timings.batches if r]
    return statistics.median(seconds), statistics.median(per_round)


def show(label: str, cached: Timings, plain: Timings) -> None:
    print(f"\n{label}: cap check per batch, seconds (rounds)")
    print(f"{'batch':>5}  {'cached':>14}  {'uncached':>14}")
    for i, ((a, ra), (b, rb)) in enumerate(zip(cached.batches, plain.batches)):
        print(f"{i:>5}  {a:>9.3f} ({ra:>2})  {b:>9.3f} ({rb:>2})")
    (cb, cr), (pb, pr) = medians(cached), medians(plain)
    print(f"median per batch: cached {cb:.3f} s, uncached {pb:.3f} s, ratio {pb / cb:.1f}x")
    print(f"median per round: cached {cr:.3f} s, uncached {pr:.3f} s, ratio {pr / cr:.1f}x")


def history_size(lake: Path) -> tuple[int, int]:
    con = Lake(lake).connect()
    found = con.execute(f"SELECT count(*), count(DISTINCT tournament) FROM matches "
                        f"WHERE game = '{GAME}'").fetchone()
    assert found is not None
    return int(found[0]), int(found[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lake", type=Path, help="an Eredan lake as the history (copied)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench-charge-cap"),
                        help="where the history, the logs and the lake copies go")
    parser.add_argument("--matches", type=int, default=100_000, help="size of the history")
    parser.add_argument("--base", type=int, default=12,
                        help="tournaments of the simulated base season (the tail)")
    parser.add_argument("--tail", type=int, default=12, help="tail tournaments with --lake")
    parser.add_argument("--batch", type=int, default=64, help="logs per ingest batch")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cap", type=int, help="Eredan's cap for the tail (default: the "
                        "format's); the tail's decks were built against their own season's "
                        "tables, so under the history's most are over 500")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    if args.lake:
        history, tail = args.lake, tail_after(args.lake, args.work, args.tail, args.workers)
    else:
        history, tail = build_history(args.work, args.matches, args.base, args.workers)
    matches, tournaments = history_size(history)
    print(f"history: {matches} {GAME} matches in {tournaments} tournaments; tail: {len(tail)} "
          f"logs in batches of {args.batch}")
    last = MATCHES_PER_TOURNAMENT
    first, later = tail[:-last], tail[-last:]
    lakes = {cached: args.work / ("cached" if cached else "uncached") for cached in (True, False)}
    found: dict[bool, tuple[IngestReport, Timings]] = {}
    for cached, lake in lakes.items():
        shutil.rmtree(lake, ignore_errors=True)
        shutil.copytree(history, lake)
        found[cached] = run(first, lake, cached, args)
    assert verdicts(found[True][0]) == verdicts(found[False][0]), "the verdicts differ"
    report = found[True][0]
    print(f"tail: {report.ingested} ingested, {len(report.quarantined)} quarantined "
          "(the same with and without the cache)")
    show("one run, batch after batch", found[True][1], found[False][1])
    again = {cached: run(later, lake, cached, args)
             for cached, lake in lakes.items()}
    assert verdicts(again[True][0]) == verdicts(again[False][0]), "the verdicts differ"
    show("a new run (the cache from the lake's file, validated)", again[True][1],
         again[False][1])


if __name__ == "__main__":
    main()
