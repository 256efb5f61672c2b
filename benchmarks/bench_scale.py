"""A season of a million simulated Vitorian matches, end to end, in chunks of bounded memory:
simulation, verifying ingest (DuckDB's and Spark's engines) beside a read-and-replay baseline,
and the metrics suite on DuckDB, Spark and pandas, each with its peak memory, in one run.

    .venv/bin/python benchmarks/bench_scale.py                      # 1,000,000 matches: hours
    .venv/bin/python benchmarks/bench_scale.py --matches 20000 --chunk 2048
    .venv/bin/python benchmarks/bench_scale.py --matches 50000 --chunk 5120 --keep /tmp/s50k
    .venv/bin/python benchmarks/bench_scale.py --reuse /tmp/s50k --json   # later steps only
    .venv/bin/python benchmarks/bench_scale.py --keep /tmp/s1m --simulate-only   # season only

The season: Swiss tournaments of --players 256 and --rounds 8 (1,024 matches each, so that a
million fit the 999 tournament ids of one season), simulated --chunk matches at a time, whole
tournaments, each chunk into its own folder (season/chunk-NNN) by run_season with
SeasonConfig.first: ids, seeds and dates go on from chunk to chunk, and each chunk seats the
tournaments before it without playing them (their decks shape the charge tables), so the logs
are those of the season simulated at once. --keep DIR keeps the season and the lakes there;
--reuse DIR measures every later step again on such a season (simulation is not re-measured:
its figures are those of the run that built it, and say so).

Each chunk of each step runs in a fresh interpreter of its own (multiprocessing "spawn"), so
its peak memory is its own: the driver's peak RSS and its largest worker's (getrusage, exact)
and the peak of the whole process tree's summed PSS (sampled every 0.1 s; Spark's JVM and
Python workers included). Per chunk, in order:
- simulate: run_season on --workers processes;
- baseline: each log read (events.log.read_log: CRC, decoding, hash chain) and replayed
  through engine.replay.replay_log with a visitor that keeps nothing, on as many processes as
  ingest has: the floor of what verification costs, no facts and no lake;
- ingest: pipeline.ingest.ingest(chunk, lake, workers=--workers, batch_size=--batch-size,
  audit=False) into one lake, chunk after chunk, so memory is bounded by the batch, the DuckDB
  suite timed on the lake after --suite-points of them (best of 2: how its time grows); then
  the same ingest with engine="spark", master="local[2]" into a second lake (skipped, saying
  why, when that engine or Spark is not there; --spark-chunks N: the first N chunks only).
  Rates are over ingest's own seconds (Spark's start-up excluded, printed beside).
Then, on the whole lake, best of --repeat runs each, each from a cold archetype cache (as a new
report process has it): the game's suite (metrics.run_all) on DuckDB, on Spark
(SparkConnection.over, local[2]; session start-up excluded) and in plain pandas
(pipeline.stats_cross_check: read_lake of the Parquet files, then run_all), the three held to
the same numbers, with each model's seconds. Pandas past --pandas-max-mb is stopped, its time
then a lower bound.

Goals, pass or fail: the DuckDB suite under 5 s on a million matches and at least 10x pandas
(below a million, the suite's seconds at a million are read off the least-squares line through
its times after each chunk, and the pandas ratio is the one measured); ingest at least 100,000
events/s with verification; peak memory flat in the number of matches: per chunked step, the
Theil-Sen trend of the peaks against the matches before each chunk (robust to the chunk that
happens to compact a month's files), over the run within 5% of the median peak or 16 MB: PASS
if its whole 95% interval is, FAIL if none of it is, UNSURE otherwise (a run too short for its
noise). The load average is printed before and after: on a busy machine, rerun. Progress goes
to stderr; --json prints the figures as JSON on stdout (the tables then go to stderr).
"""
from __future__ import annotations

import argparse
import inspect
import json
import math
import multiprocessing as mp
import os
import re
import resource
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

GAME = "vitorian"
MILLION = 1_000_000
SPARK_MASTER = "local[2]"
SUITE_GOAL_S, PANDAS_GOAL_X, INGEST_GOAL = 5.0, 10.0, 100_000
FLAT_SHARE, FLAT_MB = 0.05, 16.0
SUITE_POINTS = 10
"""Lake sizes (chunks, evenly spread, the last among them) after which the DuckDB suite is
timed: the curve that says how its time grows with the lake."""
OUT = sys.stdout


def say(line: str) -> None:
    """A progress line, on stderr."""
    print(line, file=sys.stderr, flush=True)


# The season plan ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """The season: `tournaments` of `players` and `rounds`, simulated `per_chunk` at a time."""

    players: int
    rounds: int
    seed: int
    tournaments: int
    per_chunk: int
    per_tournament: int

    @property
    def matches(self) -> int:
        return self.tournaments * self.per_tournament

    def chunks(self) -> list[tuple[int, int]]:
        """(first tournament, tournaments) of each chunk."""
        return [(first, min(self.per_chunk, self.tournaments - first))
                for first in range(0, self.tournaments, self.per_chunk)]

    def first_chunks(self, count: int | None) -> Plan:
        """The season of its first `count` chunks (None: all of it)."""
        if count is None:
            return self
        return replace(self, tournaments=min(self.tournaments, max(1, count) * self.per_chunk))


def make_plan(matches: int, chunk: int, players: int, rounds: int, seed: int) -> Plan:
    from engine.tournament import SeasonConfig, matches_per_season

    one = matches_per_season(SeasonConfig(game=GAME, players=players, rounds=rounds, seed=seed,
                                          out=Path("unused")))
    tournaments = max(1, math.ceil(matches / one))
    if tournaments > 999:
        raise SystemExit(f"{matches:,} matches need {tournaments} tournaments of {one} matches: "
                         "a season has at most 999; raise --players or --rounds")
    return Plan(players, rounds, seed, tournaments, max(1, round(chunk / one)), one)


def chunk_dir(work: Path, index: int) -> Path:
    return work / "season" / f"chunk-{index:03d}"


# One step in a child process, and its memory ------------------------------------------------

def tree(pid: int) -> list[int]:
    """The process and its descendants (from /proc)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            try:
                todo += [int(c) for c in task.read_text().split()]
            except OSError:
                pass
    return found


def pss_mb(pid: int) -> float:
    """A process's proportional set size (shared pages split among their users), in MB."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


class TreeMemory(threading.Thread):
    """The peak summed PSS of a process tree, sampled every 0.1 s; past `limit_mb` the tree is
    killed (each process by its id) and `over` set."""

    def __init__(self, pid: int, limit_mb: float | None = None) -> None:
        super().__init__(daemon=True)
        self.pid, self.limit, self.peak, self.over = pid, limit_mb, 0.0, False
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.1):
            pids = tree(self.pid)
            self.peak = max(self.peak, sum(pss_mb(p) for p in pids))
            if self.limit and self.peak > self.limit:
                self.over = True
                for p in pids:
                    try:
                        os.kill(p, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                return

    def stop(self) -> None:
        self.done.set()
        self.join()


def in_child(fn: Callable[..., dict[str, Any]], *args: Any,
             limit_mb: float | None = None) -> dict[str, Any]:
    """fn(*args) in a fresh interpreter: its dict, with driver_mb and workers_mb (peak RSS of
    the child and of its largest reaped descendant) and tree_mb (sampled peak PSS of them all).
    Stopped past limit_mb: {"over_budget_s": seconds it ran}."""
    ctx = mp.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child_main, args=(send, mp.get_start_method(), fn, args))
    started = time.perf_counter()
    proc.start()
    send.close()
    assert proc.pid is not None
    memory = TreeMemory(proc.pid, limit_mb)
    memory.start()
    try:
        status, out = receive.recv()
    except EOFError:
        status, out = "died", {}
    proc.join()
    memory.stop()
    if memory.over:
        return {"over_budget_s": time.perf_counter() - started, "tree_mb": memory.peak}
    if status != "ok":
        raise RuntimeError(f"{fn.__name__} failed in its child process: {out or status}")
    return out | {"tree_mb": memory.peak}


def in_child_or_skip(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """A Spark step in its child; a failure becomes a skip that names it, so the run's other
    figures stand."""
    try:
        return in_child(fn, *args)
    except RuntimeError as err:
        return {"skipped": "failed: " + cause(str(err)), "error": str(err)[-4000:]}


def cause(text: str) -> str:
    """The telling line of a traceback: the JVM's last "Caused by", else the exception's."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    telling = [line for line in lines if line.startswith("Caused by:")] or \
              [line for line in lines if re.match(r"^[\w.]+(Error|Exception)\b", line)] or lines
    return telling[-1][:300]


def _child_main(send: Any, start_method: str, fn: Callable[..., dict[str, Any]],
                args: tuple[Any, ...]) -> None:
    """In the child: the step's pools start their workers as a command's would (a spawned
    child would otherwise spawn them too), then the step runs and its peaks are read."""
    mp.set_start_method(start_method, force=True)
    try:
        out = fn(*args)
        own, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                     resource.RUSAGE_CHILDREN))
        send.send(("ok", out | {"driver_mb": own.ru_maxrss / 1024,
                                "workers_mb": kids.ru_maxrss / 1024}))
    except BaseException:  # noqa: BLE001 - reported to the parent, which stops the run
        send.send(("error", traceback.format_exc()))


def cpu_seconds() -> float:
    """CPU of this process (every thread) and of its reaped children (pool workers)."""
    own, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@contextmanager
def timed(out: dict[str, Any]) -> Iterator[None]:
    """out["seconds"] and out["cpu"] of the block."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    yield
    out["seconds"], out["cpu"] = time.perf_counter() - wall, cpu_seconds() - cpu


def every_tenth(label: str) -> Callable[[int, int], None]:
    """A progress callback (done, total): a line on stderr as each tenth of the total is done."""
    next_mark: list[float] = []

    def report(done: int, total: int) -> None:
        if not next_mark:
            next_mark.append(total / 10)
        if total and done >= next_mark[0]:
            say(f"    {label}: {done:,}/{total:,}")
            next_mark[0] = (math.floor(done * 10 / total) + 1) * total / 10
    return report


# The steps, each run in its own child ----------------------------------------------------------

def simulate_chunk(work: str, plan: Plan, index: int, workers: int) -> dict[str, Any]:
    """One chunk of the season, its tournaments played into its own folder."""
    from engine.tournament import SeasonConfig, run_season

    first, count = plan.chunks()[index]
    cfg = SeasonConfig(game=GAME, players=plan.players, rounds=plan.rounds, seed=plan.seed,
                       out=chunk_dir(Path(work), index), tournaments=count, first=first,
                       workers=workers)
    played, total = [0], count * plan.per_tournament
    progress = every_tenth(f"chunk {index} matches")

    def on_result(_: Any) -> None:
        played[0] += 1
        progress(played[0], total)

    out: dict[str, Any] = {}
    with timed(out):
        tours = run_season(cfg, on_result)
    matches = [m for t in tours for m in t.matches]
    return out | {"matches": len(matches), "events": sum(m.events for m in matches),
                  "ids": f"{tours[0].id}..{tours[-1].id}",
                  "days": f"{tours[0].date}..{tours[-1].date}"}


def replay_file(path: str) -> int:
    """Read one log and replay it through its rules, keeping nothing: its event count."""
    from engine.replay import ReplayVisitor, replay_log
    from engine.ruleset import get_ruleset
    from events.log import read_log

    log = read_log(path)
    replay_log(get_ruleset(log.header.ruleset), log.header, log.events, ReplayVisitor())
    return len(log.events)


def baseline_chunk(folder: str, workers: int) -> dict[str, Any]:
    """Every log of the chunk read and replayed on `workers` processes."""
    from pipeline.ingest import find_logs

    logs = [str(p) for p in find_logs([folder])]
    out: dict[str, Any] = {"logs": len(logs)}
    with timed(out), ProcessPoolExecutor(workers) as pool:
        out["events"] = sum(pool.map(replay_file, logs, chunksize=64))
    return out


def spark_memory(memory: str | None) -> None:
    """Spark's driver memory (local mode runs every task in the driver's JVM), before the JVM
    starts (pipeline.spark.local_driver_memory). None: pipeline.spark's default."""
    if memory:
        os.environ["POSTGAME_SPARK_DRIVER_MEMORY"] = memory


def ingest_chunk(folder: str, lake: str, workers: int, batch: int, spark: bool,
                 memory: str | None = None) -> dict[str, Any]:
    """One chunk ingested into the lake, by the default engine or by Spark's."""
    from pipeline.ingest import ingest
    from pipeline.lake import Lake

    progress = every_tenth(f"{Path(folder).name} logs")
    out: dict[str, Any] = {}
    try:
        with timed(out):
            if spark:
                spark_memory(memory)
                report = ingest([folder], Lake(lake), workers=workers, batch_size=batch,
                                audit=False, progress=progress, engine="spark",
                                master=SPARK_MASTER)
            else:
                report = ingest([folder], Lake(lake), workers=workers, batch_size=batch,
                                audit=False, progress=progress)
    except Exception as err:
        if spark and type(err).__name__ == "SparkError":  # no JVM, a master out of reach
            return {"skipped": str(err)}
        raise
    return out | {"logs": report.seen, "ingested": report.ingested, "events": report.events,
                  "quarantined": len(report.quarantined), "ingest_s": report.seconds,
                  "compactions": report.compactions, "jvm": spark}


def best_of(repeat: int, run: Callable[[dict[str, float]], Any]) -> dict[str, Any]:
    """The fastest of `repeat` runs, wall and CPU (every thread of this process), each run from
    a cold archetype cache (pipeline.archetypes keeps clusterings in-process, and a report
    process's later models reuse them); run(seconds) may fill in each model's seconds. The
    fastest run's model seconds and the last run's results (`frames`) come back."""
    from pipeline import archetypes, card_rates  # noqa: F401 - imported before the clock starts

    best: dict[str, Any] = {"wall": math.inf, "walls": []}
    for _ in range(repeat):
        archetypes._CLUSTERED.clear()
        models: dict[str, float] = {}
        wall, cpu = time.perf_counter(), time.process_time()
        frames = run(models)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best["walls"].append(wall)
        if wall < best["wall"]:
            best |= {"wall": wall, "cpu": cpu, "models": models}
    return best | {"frames": frames}


def duckdb_suite(lake: str, repeat: int, breakdown: bool = True) -> dict[str, Any]:
    """metrics.run_all on a fresh DuckDB connection each run (the Parquet files read afresh);
    with `breakdown`, each model's seconds from one more run, model by model."""
    from pipeline import metrics
    from pipeline.lake import Lake

    def run(_: dict[str, float]) -> dict[str, Any]:
        with Lake(lake).connect() as con:
            return metrics.run_all(con, GAME)

    def by_model(seconds: dict[str, float]) -> dict[str, Any]:
        with Lake(lake).connect() as con:
            return {name: timed_model(seconds, name, partial(metrics.run_model, con, name,
                                                             game=GAME))
                    for name in metrics.suite(GAME)}
    with Lake(lake).connect() as con:
        threads = con.execute("SELECT current_setting('threads')").fetchall()[0][0]
    out = best_of(repeat, run) | {"threads": int(threads)}
    return out | {"models": best_of(1, by_model)["models"] if breakdown else {}}


def timed_model(seconds: dict[str, float], name: str, run: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    frame = run()
    seconds[name] = time.perf_counter() - started
    return frame


def suite_point(lake: str) -> dict[str, Any]:
    """The DuckDB suite on the lake as it stands (best of 2): the curve the goal extends."""
    return {"suite_s": duckdb_suite(lake, 2, breakdown=False)["wall"]}


def spark_suite(lake: str, repeat: int, memory: str | None = None) -> dict[str, Any]:
    """metrics.run_all over SparkConnection.over(lake, local[2]); its start-up timed apart."""
    from pipeline import metrics
    from pipeline.lake import Lake

    try:
        spark_memory(memory)
        from pipeline.spark import SparkConnection

        started = time.perf_counter()
        con: Any = SparkConnection.over(Lake(lake), master=SPARK_MASTER)  # DuckDB-like
    except Exception as err:  # noqa: BLE001 - no pipeline.spark, no pyspark, no JVM
        return {"skipped": f"{type(err).__name__}: {err}"}
    start = time.perf_counter() - started
    try:
        return best_of(repeat, lambda _: metrics.run_all(con, GAME)) | {"start_s": start}
    finally:
        con.close()


def pandas_suite(lake: str, repeat: int) -> dict[str, Any]:
    """stats_cross_check: the Parquet files read with pandas, then every model of the suite."""
    from pipeline import stats_cross_check as ref
    from pipeline.lake import Lake

    def run(seconds: dict[str, float]) -> dict[str, Any]:
        facts = timed_model(seconds, "(reading)",
                            lambda: ref.read_lake(Lake(lake), ref.SUITE_COLUMNS))
        return ref.run_all(facts, GAME, seconds=seconds)
    return best_of(repeat, run)


# The run, step after step -----------------------------------------------------------------------

def chunked(label: str, plan: Plan, step: Callable[..., dict[str, Any]],
            args_of: Callable[[int], tuple[Any, ...]], count: str,
            after: Callable[[int], dict[str, Any]] | None = None,
            run: Callable[..., dict[str, Any]] = in_child) -> list[dict[str, Any]]:
    """The step run on each chunk, each in its own child (by `run`); `count` names what its
    rate counts, after(index) adds to each chunk's row. A chunk's `before`: the season's
    matches in the chunks before it."""
    rows = []
    chunks = plan.chunks()
    for index, (first, _) in enumerate(chunks):
        say(f"{label}: chunk {index + 1}/{len(chunks)}")
        row = run(step, *args_of(index))
        if "skipped" in row:
            say(f"{label}: SKIPPED, {row['skipped']}")
            return [row]
        row |= {"chunk": index, "before": first * plan.per_tournament,
                "size": chunks[index][1] * plan.per_tournament, "load": os.getloadavg()[0]}
        rows.append(row)
        rate = row[count] / row.get("ingest_s", row["seconds"])
        say(f"  {row[count]:,} {count} in {row['seconds']:.1f} s: {rate:,.0f} {count}/s; peak "
            f"MB driver {row['driver_mb']:.0f}, worker {row['workers_mb']:.0f}, "
            f"tree {row['tree_mb']:.0f}" + (f"; {row['ids']}, {row['days']}" if "ids" in row
                                            else ""))
        if row.get("quarantined"):
            say(f"  WARNING: {row['quarantined']} logs quarantined")
        if after:
            row |= after(index)
    return rows


def prepare_season(work: Path, args: argparse.Namespace) -> tuple[Plan, dict[str, Any]]:
    """The season of --reuse (its simulation figures as recorded), or one simulated now."""
    record = work / "season.json"
    if args.reuse:
        saved = json.loads(record.read_text())
        plan = Plan(**saved["plan"])
        say(f"season of {plan.matches:,} matches from {work}: simulation NOT re-measured "
            "(its figures are those of the run that built it)")
        for lake in ("lake", "lake-spark"):
            shutil.rmtree(work / lake, ignore_errors=True)
        return plan, saved["simulate"] | {"measured": False}
    plan = make_plan(args.matches, args.chunk, args.players, args.rounds, args.seed)
    say(f"season: {plan.tournaments} tournaments of {plan.per_tournament:,} matches "
        f"({plan.matches:,}), {len(plan.chunks())} chunks of up to {plan.per_chunk}")
    rows = chunked("simulate", plan, simulate_chunk,
                   lambda i: (str(work), plan, i, args.workers), "matches")
    simulated = {"workers": args.workers, "chunks": rows}
    record.write_text(json.dumps({"plan": asdict(plan), "simulate": simulated}, indent=1))
    return plan, simulated | {"measured": True}


def spark_ingest_missing() -> str | None:
    """Why ingest(..., engine="spark") cannot be measured here, or None."""
    from pipeline.ingest import ingest

    if "engine" not in inspect.signature(ingest).parameters:
        return "pipeline.ingest.ingest has no engine= parameter yet"
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark is not installed"
    if not shutil.which("java") and not os.environ.get("JAVA_HOME"):
        return "no Java runtime (java on PATH or JAVA_HOME)"
    return None


def run_ingests(work: Path, plan: Plan, args: argparse.Namespace) -> dict[str, Any]:
    """Baseline, then ingest chunk after chunk into one lake per engine."""
    def folder(i: int) -> str:
        return str(chunk_dir(work, i))
    out: dict[str, Any] = {"baseline": chunked(
        "baseline", plan, baseline_chunk, lambda i: (folder(i), args.workers), "events")}
    lake = str(work / "lake")
    count = len(plan.chunks())
    points = max(2, args.suite_points)
    timed_after = {round(i * (count - 1) / (points - 1)) for i in range(points)}

    def suite_now(index: int) -> dict[str, Any]:
        if index not in timed_after:
            return {}
        point = in_child(suite_point, lake)
        say(f"  DuckDB suite on the lake so far: {point['suite_s']:.2f} s")
        return {"suite_s": point["suite_s"], "suite_tree_mb": point["tree_mb"]}
    out["ingest"] = chunked("ingest", plan, ingest_chunk, lambda i: (
        folder(i), lake, args.workers, args.batch_size, False), "events", suite_now)
    missing = "--no-spark" if args.no_spark else spark_ingest_missing()
    if missing:
        say(f"ingest on Spark: SKIPPED, {missing}")
        out["ingest_spark"] = [{"skipped": missing}]
    else:
        out["ingest_spark"] = chunked("ingest on Spark", plan.first_chunks(args.spark_chunks),
                                      ingest_chunk, lambda i: (
            folder(i), str(work / "lake-spark"), args.workers, args.batch_size, True,
            args.spark_memory), "events", run=in_child_or_skip)
    return out


def run_metrics(lake: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The suite on each engine in its own child, the numbers held to DuckDB's."""
    out: dict[str, Any] = {}
    say("metrics: the suite on DuckDB")
    out["duckdb"] = in_child(duckdb_suite, str(lake), args.repeat)
    if args.no_spark:
        out["spark"] = {"skipped": "--no-spark"}
    else:
        say("metrics: the suite on Spark local[2]")
        out["spark"] = in_child_or_skip(spark_suite, str(lake), args.repeat, args.spark_memory)
    if args.no_pandas:
        out["pandas"] = {"skipped": "--no-pandas"}
    else:
        say(f"metrics: the suite in pandas (stopped past {args.pandas_max_mb:,.0f} MB)")
        out["pandas"] = in_child(pandas_suite, str(lake), args.pandas_repeat,
                                 limit_mb=args.pandas_max_mb)
    duck = out["duckdb"].pop("frames")
    out["duckdb"]["matches"] = int(duck["coverage"]["matches"].sum())
    for name in ("spark", "pandas"):
        if "frames" in out[name]:
            out[name]["largest_difference"] = largest_difference(duck, out[name].pop("frames"))
        if "skipped" in out[name]:
            say(f"metrics on {name}: SKIPPED, {out[name]['skipped']}")
    return out


def largest_difference(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The largest difference between two suites' numbers; inf where they disagree otherwise
    (a model, a column, a row count, a NULL or a text)."""
    import numpy as np
    import pandas as pd

    worst = 0.0
    for model, x in a.items():
        y = b.get(model)
        if y is None or sorted(x.columns) != sorted(y.columns) or len(x) != len(y):
            return math.inf
        for col in x.columns:
            u, v = x[col].reset_index(drop=True), y[col].reset_index(drop=True)
            if pd.api.types.is_numeric_dtype(u) and not pd.api.types.is_bool_dtype(u):
                p, q = u.astype("float64").to_numpy(), v.astype("float64").to_numpy()
                if not np.array_equal(np.isnan(p), np.isnan(q)):
                    return math.inf
                worst = max(worst, float(np.nanmax(np.abs(p - q), initial=0.0)))
            elif [None if pd.isna(e) else str(e) for e in u] != \
                    [None if pd.isna(e) else str(e) for e in v]:
                return math.inf
    return worst


# Figures, memory and goals ---------------------------------------------------------------------

def rate(rows: list[dict[str, Any]], count: str) -> float | None:
    """Over all chunks: `count` per second of the step's own time (ingest's, for ingest)."""
    if not rows or "skipped" in rows[0]:
        return None
    return sum(r[count] for r in rows) / sum(r.get("ingest_s", r["seconds"]) for r in rows)


def growth(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """How a peak moves with the matches before each full chunk: the Theil-Sen slope (the
    median of the pairwise slopes, so the spikes of a chunk that compacts a month's files do not
    make a trend) with its 95% interval. Over the run, within FLAT_SHARE of the median peak or
    FLAT_MB: "flat" if the whole interval is, "grows" if none of it is, else "unsure"."""
    import numpy as np
    from scipy.stats import theilslopes

    full = [r for r in rows if r["size"] == rows[0]["size"]] if rows else []  # a short last apart
    if len(full) < 3:
        return {"judged": False, "why": f"{len(full)} full chunks; 3 are needed"}
    x = np.array([r["before"] for r in full], dtype=float)
    y = np.array([r[key] for r in full], dtype=float)
    fit = theilslopes(y, x, alpha=0.95)
    span, median = x[-1] - x[0], float(np.median(y))
    tolerance = max(FLAT_SHARE * median, FLAT_MB)
    low, high = fit.low_slope * span, fit.high_slope * span
    verdict = "flat" if high <= tolerance else "grows" if low > tolerance else "unsure"
    return {"judged": True, "median_mb": median, "first_mb": float(y[0]), "last_mb": float(y[-1]),
            "max_mb": float(y.max()), "over_run_mb": float(fit.slope * span),
            "over_run_range_mb": [float(low), float(high)], "tolerance_mb": tolerance,
            "per_100k_mb": float(fit.slope * 1e5), "at_million_mb": float(fit.slope * MILLION),
            "verdict": verdict}


def memory_verdicts(results: dict[str, Any]) -> dict[str, Any]:
    """The growth of each chunked step's peaks. An ingest's chunks that compacted partitions
    and those that did not are judged apart: compaction rewrites a month's small files at once,
    so those chunks peak higher whatever the size of the lake."""
    steps = {"simulate": results["simulate"]["chunks"], "baseline": results["baseline"],
             "ingest": results["ingest"], "ingest_spark": results["ingest_spark"]}
    out = {}
    for name, rows in steps.items():
        if not rows or "skipped" in rows[0]:
            continue
        groups = {name: rows}
        if any(r.get("compactions") for r in rows):
            groups = {name: [r for r in rows if not r["compactions"]],
                      f"{name}, compacting": [r for r in rows if r["compactions"]]}
        for label, group in groups.items():
            out[label] = {key: growth(group, key) for key in ("driver_mb", "tree_mb")}
    return out


def goal(name: str, target: str, value: str, ok: bool | None, how: str,
         unsure: bool = False) -> dict[str, Any]:
    """A goal's row: PASS, FAIL, UNSURE (measured, but within the noise) or n/a (not run)."""
    result = "UNSURE" if unsure else "n/a" if ok is None else "PASS" if ok else "FAIL"
    return {"goal": name, "target": target, "value": value, "pass": ok, "result": result,
            "how": how}


def goals(results: dict[str, Any]) -> list[dict[str, Any]]:
    n, metrics = results["plan"]["matches"], results["metrics"]
    duck = metrics["duckdb"]["wall"]
    at_million, how = suite_at_million(results["ingest"], n, duck)
    out = [goal("DuckDB suite on 1M matches", f"< {SUITE_GOAL_S:g} s", f"{at_million:.2f} s",
                at_million < SUITE_GOAL_S, how)]
    pandas = metrics["pandas"]
    if "wall" in pandas:
        ratio = pandas["wall"] / duck
        out.append(goal("DuckDB suite vs pandas", f">= {PANDAS_GOAL_X:g}x", f"{ratio:.1f}x",
                        ratio >= PANDAS_GOAL_X, f"wall clock, at {n:,} matches"))
    elif "over_budget_s" in pandas:
        ratio = pandas["over_budget_s"] / duck
        reached = ratio >= PANDAS_GOAL_X  # a lower bound: short of the goal says nothing
        out.append(goal("DuckDB suite vs pandas", f">= {PANDAS_GOAL_X:g}x", f">= {ratio:.1f}x",
                        True if reached else None, "pandas stopped at its memory budget",
                        unsure=not reached))
    else:
        out.append(goal("DuckDB suite vs pandas", f">= {PANDAS_GOAL_X:g}x", "-", None,
                        pandas.get("skipped", "not run")))
    events = rate(results["ingest"], "events") or 0.0
    out.append(goal("ingest with verification", f">= {INGEST_GOAL:,} events/s",
                    f"{events:,.0f} events/s", events >= INGEST_GOAL,
                    "default engine, over ingest's own seconds"))
    out.append(memory_goal(results["memory"]))
    return out


def suite_at_million(rows: list[dict[str, Any]], n: int, wall: float) -> tuple[float, str]:
    """The DuckDB suite's seconds on a million matches: measured, or the least-squares line
    a + b * matches through the suite timed after each ingest chunk (3 points at least),
    or else the time scaled linearly."""
    import numpy as np

    if n >= MILLION:
        return wall, "measured"
    points = [(r["before"] + r["size"], r["suite_s"]) for r in rows if "suite_s" in r]
    if len(points) < 3:
        return wall * MILLION / n, f"{wall:.2f} s at {n:,} matches, scaled linearly"
    x, y = (np.array(column, dtype=float) for column in zip(*points))
    b, a = np.polyfit(x, y, 1)
    return float(a + b * MILLION), (f"{wall:.2f} s at {n:,}; line through {len(points)} lake "
                                    f"sizes: {a:.2f} s + {b * 1e5:.3f} s per 100k matches")


def memory_goal(memory: dict[str, Any]) -> dict[str, Any]:
    """Pass when every peak judged is flat, fail when one grows; else unsure (None)."""
    judged = {f"{step} {key.removesuffix('_mb')}": g for step, keys in memory.items()
              for key, g in keys.items() if g["judged"]}
    if not judged:
        return goal("peak memory flat in matches", "flat", "-", None, "under 3 full chunks")
    verdicts = {g["verdict"] for g in judged.values()}
    ok = False if "grows" in verdicts else True if verdicts == {"flat"} else None
    worst = max(judged, key=lambda k: judged[k]["over_run_mb"] / judged[k]["tolerance_mb"])
    w = judged[worst]
    unsure = [k for k, g in judged.items() if g["verdict"] == "unsure"]
    how = f"{len(judged)} peaks judged; largest trend: {worst}, of a median {w['median_mb']:.0f} MB"
    if unsure:
        how += f"; unsure: {', '.join(unsure)}"
    return goal("peak memory flat in matches", f"<= {FLAT_SHARE:.0%} or {FLAT_MB:g} MB a run",
                f"{w['over_run_mb']:+.0f} MB", ok, how, unsure=ok is None)


# The report -----------------------------------------------------------------------------------

def show(line: str = "") -> None:
    print(line, file=OUT)


def memory_cells(row: dict[str, Any]) -> str:
    return f"{row['driver_mb']:7.0f} {row['workers_mb']:7.0f} {row['tree_mb']:7.0f}"


def show_chunks(title: str, rows: list[dict[str, Any]], count: str) -> None:
    """One line per chunk: its size, rate (per second, per CPU-second) and peaks, and the load
    average at its end, so growth with the lake, or a busy neighbour, would show."""
    if not rows or "skipped" in rows[0]:
        show(f"{title}: skipped, {rows[0]['skipped'] if rows else 'not run'}")
        return
    show(title)
    show(f"{'chunk':>5} {'before':>9} {count:>9} {'seconds':>8} {count + '/s':>10} {'CPU s':>6} "
         f"{'per CPU-s':>10} {'load':>5}  peak MB: driver worker  tree")
    for r in rows:
        seconds = r.get("ingest_s", r["seconds"])
        extra = f"  {r['ids']}  {r['days']}" if "ids" in r else ""
        if "compactions" in r:
            extra = f"  {r['compactions']} partitions compacted"
        if "suite_s" in r:
            extra += f"; DuckDB suite on {r['before'] + r['size']:,} matches: {r['suite_s']:.2f} s"
        cpu, per_cpu = (f"{'-':>6}", f"{'-':>10}") if r.get("jvm") else (  # the JVM's unseen
            f"{r['cpu']:6.1f}", f"{r[count] / r['cpu']:10,.0f}")
        show(f"{r['chunk']:5d} {r['before']:9,d} {r[count]:9,d} {seconds:8.1f} "
             f"{r[count] / seconds:10,.0f} {cpu} {per_cpu} {r.get('load', math.nan):5.2f}"
             f"          {memory_cells(r)}{extra}")


def per_cpu(rows: list[dict[str, Any]], count: str) -> str:
    """`count` per CPU-second over all chunks (the step's processes; not a JVM's)."""
    if not rows or "skipped" in rows[0] or rows[0].get("jvm"):
        return ""
    return f", {sum(r[count] for r in rows) / sum(r['cpu'] for r in rows):,.0f} per CPU-s"


def show_figures(results: dict[str, Any]) -> None:
    sim, workers, met = results["simulate"], results["workers"], results["metrics"]
    base = rate(results["baseline"], "events")
    show(f"\n{'figure':42s} {'value':>12s}")
    simulated = rate(sim["chunks"], "matches")
    show(f"{'simulate, ' + str(sim['workers']) + ' workers':42s} {simulated or 0:12,.1f} "
         f"matches/s{per_cpu(sim['chunks'], 'matches')}"
         + ("" if sim["measured"] else "  NOT re-measured (--reuse): as built"))
    for label, rows, note in (
            (f"baseline read+replay, {workers} processes", results["baseline"], ""),
            (f"ingest, default engine, {workers} workers", results["ingest"], ""),
            (f"ingest, Spark {SPARK_MASTER}", results["ingest_spark"],
             spark_start(results["ingest_spark"]))):
        value = rate(rows, "events")
        if value is None:
            show(f"{label:42s} {'skipped':>12s}  {rows[0]['skipped'] if rows else ''}")
            continue
        ratio = f", {value / base:.2f}x baseline" if base and rows is not results["baseline"] \
            else ""
        show(f"{label:42s} {value:12,.0f} events/s{per_cpu(rows, 'events')}{ratio}  "
             f"{note}".rstrip())
    for name, label in (("duckdb", f"suite, DuckDB ({met['duckdb']['threads']} threads)"),
                        ("spark", f"suite, Spark {SPARK_MASTER}"), ("pandas", "suite, pandas")):
        show(f"{label:42s} {suite_cells(met[name])}")
    if sim["measured"] and simulated:
        show(f"{'simulating 1M matches at this rate':42s} {MILLION / simulated / 60:12,.0f} min")


def spark_start(rows: list[dict[str, Any]]) -> str:
    if not rows or "skipped" in rows[0]:
        return ""
    extra = sum(r["seconds"] - r["ingest_s"] for r in rows) / len(rows)
    return f"(+{extra:.1f} s a chunk of Spark start-up, outside the rate)"


def suite_cells(m: dict[str, Any]) -> str:
    if "skipped" in m:
        return f"{'skipped':>12s}  {m['skipped']}"
    if "over_budget_s" in m:
        return f"{'> ' + format(m['over_budget_s'], '.1f'):>12s} s  stopped at its memory budget"
    notes = [f"CPU {m['cpu']:.2f} s", f"peak MB {m['driver_mb']:.0f} / {m['tree_mb']:.0f} tree"]
    if "start_s" in m:
        notes.append(f"start-up {m['start_s']:.1f} s apart")
    if "(reading)" in m.get("models", {}):
        notes.append(f"reading {m['models']['(reading)']:.2f} s of it")
    if "largest_difference" in m:
        notes.append(f"vs DuckDB {m['largest_difference']:.1e}")
    return f"{m['wall']:12.3f} s  " + ", ".join(notes)


def show_models(met: dict[str, Any]) -> None:
    """Where the suite's time goes: each model's seconds on DuckDB (one more run) and in pandas
    (its fastest run)."""
    duck, pandas = met["duckdb"].get("models", {}), met["pandas"].get("models", {})
    show(f"\n{'model':24s} {'DuckDB s':>9s} {'pandas s':>9s} {'ratio':>7s}")
    for name in [*duck, *(m for m in pandas if m not in duck)]:
        d, p = duck.get(name), pandas.get(name)
        cells = [f"{v:9.3f}" if v is not None else f"{'-':>9s}" for v in (d, p)]
        ratio = f"{p / d:6.1f}x" if d and p else ""
        show(f"{name:24s} {' '.join(cells)} {ratio:>7s}")


def show_memory(memory: dict[str, Any]) -> None:
    show(f"\n{'peak memory per chunk (MB)':26s} {'first':>6s} {'last':>6s} {'max':>6s} "
         f"{'median':>6s} {'trend over the run (95%)':>26s} {'per 100k':>9s} {'at 1M':>7s}")
    for step, keys in memory.items():
        for key, g in keys.items():
            label = f"{step} {key.removesuffix('_mb')}"
            if not g["judged"]:
                show(f"{label:26s} not judged: {g['why']}")
                continue
            low, high = g["over_run_range_mb"]
            trend = f"{g['over_run_mb']:+.0f} ({low:+.0f} to {high:+.0f})"
            show(f"{label:26s} {g['first_mb']:6.0f} {g['last_mb']:6.0f} {g['max_mb']:6.0f} "
                 f"{g['median_mb']:6.0f} {trend:>26s} {g['per_100k_mb']:+9.1f} "
                 f"{g['at_million_mb']:+7.0f}  {g['verdict']}")


def show_goals(rows: list[dict[str, Any]]) -> None:
    show(f"\n{'goal':30s} {'target':>24s} {'value':>16s}  result")
    for g in rows:
        show(f"{g['goal']:30s} {g['target']:>24s} {g['value']:>16s}  {g['result']}  "
             f"({g['how']})")


def show_report(results: dict[str, Any]) -> None:
    plan = results["plan"]
    show(f"season: {plan['matches']:,} Vitorian matches, {plan['tournaments']} tournaments of "
         f"{plan['players']} players x {plan['rounds']} rounds, chunks of "
         f"{plan['per_chunk'] * plan['per_tournament']:,} matches; {results['cores']} cores")
    show(f"load average before {results['load_before']}, after {results['load_after']}\n")
    show_chunks("simulate" + ("" if results["simulate"]["measured"] else
                              " (NOT re-measured: the run that built the season)"),
                results["simulate"]["chunks"], "matches")
    for key, title in (("baseline", "baseline read+replay"), ("ingest", "ingest, default engine"),
                       ("ingest_spark", "ingest, Spark " + SPARK_MASTER)):
        show_chunks(title, results[key], "events")
    show_figures(results)
    show_models(results["metrics"])
    show_memory(results["memory"])
    show_goals(results["goals"])


# The command line --------------------------------------------------------------------------------

def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@contextmanager
def workspace(args: argparse.Namespace) -> Iterator[Path]:
    """--reuse DIR (a season built before), --keep DIR (kept after), or a temporary folder."""
    if args.reuse:
        if not (args.reuse / "season.json").is_file():
            raise SystemExit(f"{args.reuse} holds no season (season.json): build one with --keep")
        yield args.reuse
    elif args.keep:
        if (args.keep / "season.json").exists():
            raise SystemExit(f"{args.keep} holds a season already: --reuse {args.keep} measures "
                             "on it, or remove it")
        args.keep.mkdir(parents=True, exist_ok=True)
        yield args.keep
    else:
        with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
            yield Path(tmp)


def parse() -> argparse.Namespace:
    from pipeline.ingest import DEFAULT_BATCH

    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=MILLION, help="season size (default 1M)")
    parser.add_argument("--chunk", type=int, default=50_000,
                        help="matches per chunk, rounded to whole tournaments (default 50,000)")
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2, help="simulate, baseline, ingest")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH,
                        help=f"ingest's batch (default {DEFAULT_BATCH}, ingest's own)")
    parser.add_argument("--repeat", type=int, default=3, help="suite runs, the fastest kept")
    parser.add_argument("--pandas-repeat", type=int, help="pandas suite runs (default --repeat)")
    parser.add_argument("--pandas-max-mb", type=float, default=0.75 * memory,
                        help="stop pandas past this much memory (default 3/4 of the machine's)")
    parser.add_argument("--spark-memory", help="Spark's driver memory, e.g. 4g (default: "
                        "pipeline.spark's, a quarter of the machine's)")
    parser.add_argument("--spark-chunks", type=int, help="ingest on Spark the first N chunks "
                        "only (default: all; its rate and memory are per chunk)")
    parser.add_argument("--suite-points", type=int, default=SUITE_POINTS,
                        help=f"time the DuckDB suite after this many evenly spread chunks "
                        f"(default {SUITE_POINTS})")
    parser.add_argument("--no-spark", action="store_true", help="skip both Spark steps")
    parser.add_argument("--no-pandas", action="store_true", help="skip the pandas suite")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--keep", type=Path, help="build the season and lakes here and keep them")
    where.add_argument("--reuse", type=Path, help="measure again on the season of --keep DIR")
    parser.add_argument("--simulate-only", action="store_true",
                        help="with --keep: build the season and stop (measure it later with "
                        "--reuse)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON on stdout")
    args = parser.parse_args()
    if args.simulate_only and not args.keep:
        parser.error("--simulate-only needs --keep DIR: the season is kept there for --reuse")
    args.pandas_repeat = args.pandas_repeat or args.repeat
    return args


def main() -> None:
    global OUT
    args = parse()
    OUT = sys.stderr if args.json else sys.stdout
    results: dict[str, Any] = {"cores": os.cpu_count(), "load_before": load(),
                               "workers": args.workers, "batch_size": args.batch_size}
    with workspace(args) as work:
        plan, results["simulate"] = prepare_season(work, args)
        if args.simulate_only:
            say(f"season kept in {work}: measure it with --reuse {work}")
            return
        results["plan"] = asdict(plan) | {"matches": plan.matches}
        results |= run_ingests(work, plan, args)
        results["metrics"] = run_metrics(work / "lake", args)
        results["lake_matches"] = results["metrics"]["duckdb"]["matches"]
    results["load_after"] = load()
    results["memory"] = memory_verdicts(results)
    results["goals"] = goals(results)
    if results["lake_matches"] != plan.matches:
        say(f"WARNING: the lake holds {results['lake_matches']:,} of {plan.matches:,} matches")
    show_report(results)
    if args.json:
        print(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
