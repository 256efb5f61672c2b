"""Ingest on Apache Spark (`postgame ingest --engine spark`): the logs are read, verified,
replayed and turned into facts by Spark tasks; the lake is still written by this process alone.

Why it is shaped this way:
- A Spark task is a pipeline.ingest.ChunkTask run by pipeline.ingest.extract_chunk, the very code
  the in-process and pool runners call (examine, replay, the games' fact extractors): Spark only
  decides where a chunk runs, so no rule or fact is written a second time.
- The driver (this process) keeps everything else as it is for the other runners: it plans the
  chunks, settles each log in order, holds decks to the charge cap and commits each batch through
  the LakeWriter. The lake has one writer and one manifest protocol; an executor never writes to
  it, and a driver killed half way leaves it as any killed ingest does.
- Results come back in task order with bounded memory: the tasks go out in windows, each window
  one Spark job whose results are collected together, with at most IN_FLIGHT jobs running, so
  the executors run ahead into the next window while the driver settles and commits.
- A Python worker learns the run's known content hashes (a broadcast: shipped once per executor,
  not with every task) and the signing key once per run, and tunes its GC for good as a pool
  worker does. It does not watch its parent as a pool worker does: Spark ends its own workers.
- A task has no side effects (it reads logs, returns tables), so Spark may run one again after
  losing an executor. It reads the logs by the driver's paths: on a cluster they must sit on
  storage every executor sees under the same path, with postgame installed on every executor.
"""
from __future__ import annotations

import itertools
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from pipeline.ingest import (
    WINDOW_PER_WORKER,
    ChunkResult,
    ChunkTask,
    RunChunks,
    StartChunks,
    extract_known,
    init_worker,
    tune_gc_for_good,
)
from pipeline.known import Digests
from pipeline.spark import SPARK_LOG, SparkError, session

if TYPE_CHECKING:
    from pyspark import Broadcast, SparkContext
    from pyspark.sql import SparkSession

IN_FLIGHT = 2
"""Spark jobs running at once: the one whose results the driver waits for, and the next."""

_READY_FOR: str | None = None
"""The run this Python worker process has its known hashes and key for (worker processes are
reused from task to task, and from run to run in a long-lived session)."""
_GC_TUNED = False


@dataclass(frozen=True)
class SparkRunner:
    """Chunks run as Spark tasks of the process's session (pipeline.spark.session)."""

    spark: SparkSession

    @classmethod
    def start(cls, master: str | None) -> SparkRunner:
        """The session on `master` (started if this process has none): SparkError if Spark
        cannot run here."""
        return cls(session(master))

    @property
    def parallelism(self) -> int:
        """Tasks Spark runs at once: local[N]'s N, or a cluster's executor cores."""
        return int(self.spark.sparkContext.defaultParallelism)

    @contextmanager
    def run(self, key: bytes | None) -> Iterator[StartChunks]:
        """A context in which chunks run as Spark tasks, once started with the known hashes
        (a broadcast); leaving it cancels what still runs."""
        sc = self.spark.sparkContext
        run = uuid.uuid4().hex
        window = max(1, WINDOW_PER_WORKER * self.parallelism // IN_FLIGHT)
        jobs = ThreadPoolExecutor(IN_FLIGHT, thread_name_prefix="postgame-spark-ingest")
        shipped: list[Broadcast[Digests]] = []

        def start(known: Digests) -> RunChunks:
            hashes = sc.broadcast(known.in_memory())
            shipped.append(hashes)
            job = partial(run_job, sc, run, partial(extract_on_worker, run, hashes, key))
            return lambda tasks: in_order(jobs, job, windows(tasks, window))

        try:
            yield start
        finally:
            sc.cancelJobGroup(run)
            jobs.shutdown(wait=True, cancel_futures=True)
            for hashes in shipped:
                hashes.destroy()


def windows(tasks: Iterable[ChunkTask], size: int) -> Iterator[list[ChunkTask]]:
    """The tasks in lists of `size`, taken as they are needed (plan_chunks names each batch
    when it is reached)."""
    pending = iter(tasks)
    while window := list(itertools.islice(pending, size)):
        yield window


def in_order(jobs: ThreadPoolExecutor, job: Callable[[list[ChunkTask]], list[ChunkResult]],
             windows: Iterable[list[ChunkTask]]) -> Iterator[ChunkResult]:
    """Each window's results in task order, the next window's job running meanwhile."""
    pending: deque[Future[list[ChunkResult]]] = deque()
    for window in windows:
        pending.append(jobs.submit(job, window))
        if len(pending) >= IN_FLIGHT:
            yield from pending.popleft().result()
    while pending:
        yield from pending.popleft().result()


def run_job(sc: SparkContext, run: str, extract: Callable[[ChunkTask], ChunkResult],
            window: list[ChunkTask]) -> list[ChunkResult]:
    """One Spark job: a task per chunk, their results in task order."""
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    sc.setJobGroup(run, f"postgame ingest: {len(window)} chunks of logs", True)
    try:
        return sc.parallelize(window, len(window)).map(extract).collect()
    except (PySparkException, Py4JError) as err:
        raise SparkError(f"Spark's tasks failed: {task_failure(err)} (Spark's log: "
                         f"{SPARK_LOG})") from None


def task_failure(err: Exception) -> str:
    """Why a job failed, in one line: the error a task raised (a worker without postgame says
    ModuleNotFoundError), else what Spark says first."""
    from pyspark.errors import PythonException

    lines = [line for line in str(err).splitlines() if line.strip()]
    if isinstance(err, PythonException):
        raised = [line for line in lines if not line[0].isspace()]
        return raised[-1].strip() if raised else type(err).__name__
    said = [line.removeprefix(": ") for line in lines if line.startswith(": ")]
    return (said or lines or [type(err).__name__])[0].strip()


def extract_on_worker(run: str, known: Broadcast[Digests], key: bytes | None,
                      task: ChunkTask) -> ChunkResult:
    """A Spark task: the chunk's outcomes and facts, as a pool worker would make them."""
    global _READY_FOR, _GC_TUNED
    if _READY_FOR != run:
        init_worker(key, False)
        _READY_FOR = run
    if not _GC_TUNED:
        tune_gc_for_good()
        _GC_TUNED = True
    return extract_known(known.value, task)
