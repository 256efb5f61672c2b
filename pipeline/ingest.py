"""Ingest: verify match logs, replay them, and commit their facts to the lake in batches.

Why it is shaped this way:
- Workers (processes; Spark tasks with engine="spark", pipeline.spark_ingest) read, verify and
  replay logs and return Arrow tables; the parent alone decides what goes in and writes, so the
  lake has one writer and the decisions (skip, quarantine) follow the order of the logs whatever
  the worker count or engine.
- A log is identified by its content hash (blake2b-128 of its bytes; of its binary form for JSON
  lines, so a .pglog and its .jsonl twin are the same content). A hash already in the lake
  (matches or quarantine) is skipped before any replay, which makes re-running cheap; a known
  match id with another hash is quarantined, never overwritten.
- A bad log is quarantined with its reason, rule and seq; the rest of its batch goes in.
- A deck over the charge cap of the table in force at its match's start (ER-3.3, ER-3.6) is
  quarantined too, by the parent just before the batch's commit: the table comes from the lake's
  history plus the batch itself (see quarantine_over_cap).
- Memory is bounded by the batch: each batch is one commit (one file per table and partition),
  and small files are compacted as they pile up (pipeline.lake_writer).
"""
from __future__ import annotations

import contextlib
import fcntl
import functools
import gc
import hashlib
import math
import os
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from engine.replay import IllegalEvent, replay_log
from engine.ruleset import DeckError, UnknownRuleset, get_ruleset
from events import games
from events.base import Header
from events.jsonl import BOM, JsonlError, decode_jsonl
from events.log import (
    FRAME,
    LogCorrupt,
    LogError,
    LogFile,
    SigningError,
    decode_log,
    gc_paused,
)
from pipeline.audits import AuditResult, run_audits
from pipeline.charge_epochs import EpochCache, in_history, touched_tournaments
from pipeline.charges import (
    CapVerdict,
    ChargeFormats,
    MatchCharges,
    cap_rule,
    charged,
    checks_cap,
    load_formats,
)
from pipeline.facts import LogMeta, NoExtractor, Rows, Unfinished, extractor_for
from pipeline.known import Digests, Seen
from pipeline.lake import Lake, view_sql
from pipeline.lake_layout import (
    PARTITION_KEYS,
    PartKey,
    file_schema,
    new_batch_id,
    with_partition,
)
from pipeline.lake_writer import RETAIN_S, LakeWriter
from pipeline.manifest import Manifest
from pipeline.rollups import batch_rollups
from pipeline.schema import UNPARTITIONED, tables

LOG_SUFFIXES = (".pglog", ".jsonl")
DEFAULT_BATCH = 8192
"""Logs per commit: the parent's cost per batch (the charge history's queries, a rollup query per
table, a file per table and partition) is partly fixed; against 2,000 logs this size pays it a
quarter as often, for some 100 MB more at the parent's peak (about 650 MB, a Vitorian batch)."""
MAX_CHUNK = 64
WINDOW_PER_WORKER = 32
"""Chunks in flight per worker (32 x 64 logs each, some 2.5 s of replay), so the workers keep
replaying through the parent's commit of a batch (its cap check, rollups and files, 2-3 s on
a busy machine)."""
LOG_COLUMN = "_log"
"""Index of a row's log within its chunk: lets the parent drop one log's rows."""
HASH_SIZE = 16
CHARGE_TABLES = ("matches", "seats", "decks", "deck_cards")
"""The fact tables the charge computation reads (pipeline/sql/charges)."""
GC_THRESHOLDS = (50_000, 20, 20)
LogFacts = tuple[int, tuple[str | None, str | None], Rows]
"""(index of the log in its chunk, its (game, month) partition, its rows)."""
Progress = Callable[[int, int], None]
"""progress(logs done, logs in all)."""
RunChunks = Callable[[Iterable["ChunkTask"]], Iterator["ChunkResult"]]
"""Runs chunks, giving their results in task order."""
StartChunks = Callable[[Digests], RunChunks]
"""start(known hashes): runs chunks that skip the logs whose content hash is known."""
ChunkRunner = Callable[["bytes | None"], AbstractContextManager[StartChunks]]
"""runner(signing key): a context in which the workers are ready (see runner_for); ingest
starts them before it reads the lake, so a forked worker inherits nothing of the lake's size,
then hands them what the lake holds."""


class IngestError(ValueError):
    """The request cannot be done (a path that does not exist); names the path."""


class Rejected(Exception):
    """Why a log goes to quarantine: a rule ID (or LOG, GAME, RULESET, END, ENGINE, FACTS,
    DUPLICATE), the record where it happened if known, and a reason a person can act on."""

    def __init__(self, rule: str, reason: str, seq: int | None = None) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule, self.reason, self.seq = rule, reason, seq


@dataclass(frozen=True)
class LogOutcome:
    """What became of one log; `status` is ingested, skipped or quarantined."""

    path: str
    status: str
    content_hash: str | None = None
    match_id: str | None = None
    game: str | None = None
    events: int = 0
    seq: int | None = None
    rule: str = ""
    reason: str = ""
    cap_unchecked: bool = False
    """The log's format has a charge cap (CH-2.8) its game's rules do not check (Eredan's and
    Vitorian Wars' do): the report says so, never silently."""
    header: Header | None = field(default=None, repr=False, compare=False)
    """An ingested log's header when its game's decks are checked against the charge cap (the
    parent checks them, quarantine_over_cap); None otherwise."""

    def line(self) -> str:
        where = f"seq {self.seq}: " if self.seq is not None else ""
        return f"{self.path}: {where}{self.rule}: {self.reason}"

    def __getstate__(self) -> dict[str, Any]:
        """Sent between processes with its header as msgpack (pack_header): pickling a
        header's deck lists, struct by struct, cost a worker a tenth of its time."""
        state = dict(self.__dict__)
        if self.header is not None:
            state["header"] = pack_header(self.header)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        if state["header"] is not None:
            state["header"] = unpack_header(state["header"])
        self.__dict__.update(state)


_ENCODER = msgspec.msgpack.Encoder()
_PACKED = msgspec.msgpack.Decoder(tuple[Header, list[msgspec.Raw]])


def pack_header(header: Header) -> bytes:
    """The header as msgpack, each seat's setup apart, so unpack_header decodes each straight
    into its game's type."""
    seats = [msgspec.structs.replace(seat, setup=None) for seat in header.seats]
    return _ENCODER.encode((msgspec.structs.replace(header, seats=seats),
                            [msgspec.Raw(_ENCODER.encode(seat.setup)) for seat in header.seats]))


def unpack_header(data: bytes) -> Header:
    header, setups = _PACKED.decode(data)
    seats = [msgspec.structs.replace(seat, setup=_setup(header.game, bytes(setup)))
             for seat, setup in zip(header.seats, setups, strict=True)]
    return games.typed_header(msgspec.structs.replace(header, seats=seats))


def _setup(game: str, data: bytes) -> Any:
    """A seat's setup decoded into its game's type; a frozen one (a deck list) once per list,
    shared: a player brings the same list to every round."""
    decode, frozen = _setup_decoder(game)
    return _shared_setup(game, data) if frozen else decode(data)


@functools.lru_cache(maxsize=4096)
def _shared_setup(game: str, data: bytes) -> Any:
    return _setup_decoder(game)[0](data)


@functools.cache
def _setup_decoder(game: str) -> tuple[Callable[[bytes], Any], bool]:
    """The game's setup decoder, and whether its setups are frozen (safe to share)."""
    kind = games.setup_types(game)[0]
    config = getattr(kind, "__struct_config__", None)
    return msgspec.msgpack.Decoder(kind).decode, bool(config and config.frozen)


@dataclass(frozen=True)
class ChunkTask:
    paths: tuple[str, ...]
    batch: str
    now: datetime


@dataclass
class ChunkResult:
    batch: str
    now: datetime
    outcomes: list[LogOutcome]
    parts: dict[PartKey, pa.Table]
    """Facts of the ingested logs, with a LOG_COLUMN naming each row's log in `outcomes`."""


@dataclass
class IngestReport:
    """The account of one ingest run, printed by the command and returned to scripts."""

    lake: str
    workers: int
    seen: int = 0
    ingested: int = 0
    skipped: int = 0
    quarantined: list[LogOutcome] = field(default_factory=list)
    events: int = 0
    seconds: float = 0.0
    batches: int = 0
    compactions: int = 0
    audits: list[AuditResult] = field(default_factory=list)
    cap_unchecked: dict[str, int] = field(default_factory=dict)
    """Ingested logs per game whose charge cap the game's rules do not check yet."""
    strays: list[str] = field(default_factory=list)
    """Part files in the lake that no manifest lists and no ledger names (LakeWriter.strays):
    the writer leaves them alone, and says so."""

    @property
    def notices(self) -> list[str]:
        """What the run did not check, said once per game; and the lake's strays, if any."""
        return [f"{cap_rule(game)} (charge cap) was not checked for {count} {game} "
                f"log{'s' if count != 1 else ''}: the {game} rules do not check it yet "
                "(postgame charges --deck checks one deck)"
                for game, count in sorted(self.cap_unchecked.items())] + self._stray_notice()

    def _stray_notice(self) -> list[str]:
        if not self.strays:
            return []
        n = len(self.strays)
        notice = (f"{self.lake}: {n} part file{'s' if n != 1 else ''} that no manifest lists "
                  f"{'were' if n != 1 else 'was'} left alone (e.g. {self.strays[0]}); "
                  f"`postgame lake recover --lake {self.lake}` lists them")
        return [notice]

    @property
    def matches_per_s(self) -> float:
        return self.ingested / self.seconds if self.seconds else 0.0

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0

    @property
    def audits_failed(self) -> list[AuditResult]:
        return [a for a in self.audits if not a.ok]

    def to_json(self) -> dict[str, Any]:
        reasons: dict[str, int] = {}
        for q in self.quarantined:
            reasons[q.rule] = reasons.get(q.rule, 0) + 1
        return {
            "lake": self.lake, "workers": self.workers, "logs": self.seen,
            "ingested": self.ingested, "skipped": self.skipped,
            "quarantined": len(self.quarantined), "quarantined_by_rule": reasons,
            "notices": self.notices,
            "quarantine": [{"path": q.path, "match_id": q.match_id, "seq": q.seq, "rule": q.rule,
                            "reason": q.reason} for q in self.quarantined],
            "events": self.events, "seconds": round(self.seconds, 3),
            "matches_per_s": round(self.matches_per_s, 1),
            "events_per_s": round(self.events_per_s, 1),
            "batches": self.batches, "compactions": self.compactions,
            "audits": [a.to_json() for a in self.audits],
        }


# Finding logs --------------------------------------------------------------------------------

def find_logs(paths: Iterable[str | Path]) -> list[Path]:
    """Named files as given (any name); folders searched recursively for .pglog and .jsonl, in
    sorted order; each file once, as an absolute path (the lake records where logs are)."""
    found: dict[Path, None] = {}
    for path in (Path(p).absolute() for p in paths):
        if path.is_dir():
            for p in sorted(path.rglob("*"), key=str):  # str keys sort 3x faster than Paths
                if p.suffix in LOG_SUFFIXES and p.is_file():
                    found.setdefault(p, None)
        elif path.is_file():
            found.setdefault(path, None)
        else:
            raise IngestError(f"{path}: no such file or folder")
    return list(found)


# The parent: batches, decisions, commits -----------------------------------------------------

def ingest(paths: Iterable[str | Path], lake: Lake, *, workers: int = 1,
           batch_size: int = DEFAULT_BATCH, progress: Progress | None = None,
           retain_s: float = RETAIN_S, audit: bool = True,
           charge_formats: ChargeFormats | None = None, key: bytes | None = None,
           engine: str = "duckdb", master: str | None = None) -> IngestReport:
    """Ingest logs (files or folders) into the lake; bad logs are quarantined, never fatal.

    progress(done, total) is called once the logs are found, then as chunks finish. Audits run
    at the end unless audit=False. `charge_formats` replaces data/charges/formats.toml for the
    charge cap check (tests, designers trying settings). `key` (a raw Ed25519 public key)
    quarantines every log not signed by it (SIGNATURE). engine="spark" replays the logs as
    Spark tasks on `master` (pipeline.spark_ingest; `workers` is then Spark's own parallelism);
    everything else happens here either way.
    """
    if workers < 1 or batch_size < 1:
        raise IngestError("workers and batch size must be at least 1")
    logs = find_logs(paths)
    runner, workers = runner_for(engine, master, workers)
    report = IngestReport(str(lake.root), workers, seen=len(logs))
    progress = progress or (lambda done, total: None)
    progress(0, len(logs))
    start = time.perf_counter()
    with runner(key) as start_chunks, lake.writer(retain_s) as writer:
        report.strays = list(writer.strays)
        # under the writer's lock: a concurrent ingest has either committed before (and is
        # seen) or waits until this one is done
        epochs = EpochCache(lake, enabled=CACHE_EPOCHS)
        with contextlib.closing(Seen.of(lambda: writer.lake.connect(writer.manifest))) as seen:
            run_chunks = start_chunks(seen.lake_digests)
            pending: BatchFacts | None = None
            for result in run_chunks(plan_chunks(logs, batch_size, workers)):
                if pending is None or pending.batch != result.batch:
                    _commit(writer, pending, report, seen, epochs, charge_formats)
                    pending = BatchFacts(result.batch, result.now)
                pending.add(result, seen, report)
                progress(report.ingested + report.skipped + len(report.quarantined), len(logs))
            _commit(writer, pending, report, seen, epochs, charge_formats)
        report.compactions += writer.compact()  # what a crashed run left crowded
    report.seconds = time.perf_counter() - start
    if audit:
        report.audits = run_audits(lake)
    return report


def plan_chunks(logs: Sequence[Path], batch_size: int, workers: int) -> Iterator[ChunkTask]:
    """Batches of logs, cut into chunks small enough to keep every worker busy."""
    for first in range(0, len(logs), batch_size):
        batch_logs = logs[first:first + batch_size]
        batch, now = new_batch_id(), datetime.now(UTC)
        size = max(1, min(MAX_CHUNK, math.ceil(len(batch_logs) / (4 * workers))))
        for i in range(0, len(batch_logs), size):
            yield ChunkTask(tuple(str(p) for p in batch_logs[i:i + size]), batch, now)


@dataclass
class BatchFacts:
    """The facts of one batch as its chunks come back, and the logs it quarantines."""

    batch: str
    now: datetime
    parts: dict[PartKey, list[pa.Table]] = field(default_factory=dict)
    quarantined: list[LogOutcome] = field(default_factory=list)
    capped: dict[str, LogOutcome] = field(default_factory=dict)
    """The ingested logs whose decks the charge cap applies to, by match id (in log order)."""

    def add(self, result: ChunkResult, seen: Seen, report: IngestReport) -> None:
        drop = settle(result.outcomes, seen, report, self.quarantined)
        for key, table in result.parts.items():
            self.parts.setdefault(key, []).append(without_logs(table, drop))
        for index, outcome in enumerate(result.outcomes):
            if index not in drop and outcome.status == "ingested" and outcome.header is not None:
                assert outcome.match_id is not None
                self.capped[outcome.match_id] = outcome

    def drop_matches(self, match_ids: Iterable[str]) -> None:
        """Take these matches' rows out of every table of the batch."""
        gone = pa.array(sorted(match_ids), pa.string())
        self.parts = {key: [t.filter(pc.invert(pc.is_in(t["match_id"], gone))) for t in tables]
                      for key, tables in self.parts.items()}

    def tables(self) -> dict[PartKey, pa.Table]:
        merged = {key: pa.concat_tables(tables) for key, tables in self.parts.items()}
        if self.quarantined:
            merged[("quarantine", None, None)] = quarantine_table(self.quarantined, self.batch,
                                                                  self.now)
        return {key: table for key, table in merged.items() if table.num_rows}


def _commit(writer: LakeWriter, facts: BatchFacts | None, report: IngestReport, seen: Seen,
            epochs: EpochCache, charge_formats: ChargeFormats | None = None) -> None:
    """One commit per batch (if it adds anything, its decks held to the charge cap first, with
    the run's closed epochs; its facts with their rollups), then compaction of crowded
    partitions."""
    if facts and facts.capped:
        quarantine_over_cap(facts, writer, seen, report, charge_formats, epochs)
    tables = facts.tables() if facts else {}
    if facts and tables:
        writer.commit(facts.batch, tables | batch_rollups(facts.batch, tables))
        report.batches += 1
        report.compactions += writer.compact()


def settle(outcomes: list[LogOutcome], seen: Seen, report: IngestReport,
           quarantined: list[LogOutcome]) -> set[int]:
    """Decide each log of a chunk in order; returns the chunk indexes whose rows must not go in."""
    drop: set[int] = set()
    for index, outcome in enumerate(outcomes):
        digest, match_id = outcome.content_hash, outcome.match_id
        if outcome.status == "skipped" or (digest is not None and seen.known(digest)):
            report.skipped += 1
            drop.add(index)
            continue
        holder = seen.holder(match_id) if outcome.status == "ingested" and match_id else None
        if holder is not None:
            drop.add(index)
            outcome = replace(outcome, status="quarantined", rule="DUPLICATE", seq=None,
                              reason="match id already ingested with other content "
                                     f"(content hash {holder} is in the lake)")
        if digest is not None:
            seen.saw(digest)
        if outcome.status == "ingested":
            assert match_id is not None and digest is not None
            seen.ingested(match_id, digest)
            report.ingested += 1
            report.events += outcome.events
            if outcome.cap_unchecked and outcome.game:
                report.cap_unchecked[outcome.game] = report.cap_unchecked.get(outcome.game, 0) + 1
        else:
            report.quarantined.append(outcome)
            quarantined.append(outcome)
    return drop


# The charge cap: decks against the table in force at their match's start ---------------------

def quarantine_over_cap(facts: BatchFacts, writer: LakeWriter, seen: Seen, report: IngestReport,
                        formats: ChargeFormats | None = None,
                        epochs: EpochCache | None = None) -> None:
    """ER-2.13, ER-3.3, ER-3.6, CH-2.8: quarantine the batch's matches with a deck over the cap
    of the charge table in force at their start; the rest of the batch goes in.

    The tables come from the committed lake plus this batch (CH-2.2: epoch k's table is computed
    from epoch k-1's decks), so a season ingested in one go is checked against its own earlier
    epochs; a match before any epoch of its format is checked against the initial table. The
    epochs the batch cannot change are the run's cache's (pipeline.charge_epochs): each check
    reads only the open epochs' tournaments.

    The fixpoint: a quarantined match's decks no longer count toward later epochs' tables, so
    quarantining can change the verdict on later matches. Each round recomputes every open
    table, and quarantines only the offenders of each format's earliest offending epoch: their
    table depends on earlier epochs alone, which hold no offender, so the verdict is final; the
    round repeats until no deck is over its cap (at most one round per quarantined match, and a
    single round when, as usual, none is). Decisions already committed (earlier batches and
    runs) are not reopened: the lake only grows.
    """
    epochs = epochs or EpochCache(writer.lake, enabled=CACHE_EPOCHS)
    pending = dict(facts.capped)
    while pending:
        verdicts = check_caps(pending, writer, facts, formats, epochs)
        over = [v for v in verdicts if not v.within_cap]
        if not over:
            break
        final = earliest_epochs(over)
        for verdict in final:
            quarantine_deck(pending.pop(verdict.match_id), verdict, facts, seen, report)
        facts.drop_matches(v.match_id for v in final)
        pending = {v.match_id: pending[v.match_id] for v in verdicts if v.match_id in pending}
    epochs.committing(batch_rows("matches", facts), writer.manifest)


CACHE_EPOCHS = True
"""Keep closed charge epochs across batches and runs (pipeline.charge_epochs: one cache per
ingest run, whose writer alone commits while it holds the lake's lock); False computes every
table of every batch from the whole history (the reference the cache is held to)."""


def check_caps(pending: dict[str, LogOutcome], writer: LakeWriter, facts: BatchFacts,
               formats: ChargeFormats | None, epochs: EpochCache) -> list[CapVerdict]:
    """The verdict on each pending match whose format charges, against the tables of the lake
    and the batch as they stand: the closed epochs from the run's `epochs`, the open ones
    computed from a history that holds their months only."""
    formats = formats or load_formats()
    headers = [o.header for o in pending.values() if o.header is not None]
    touched = touched_tournaments(batch_rows("matches", facts))
    plan = epochs.plan(headers, touched, formats, writer.manifest)
    since = plan.since if epochs.enabled else None
    with contextlib.closing(history(writer.lake, writer.manifest, facts, since)) as con:
        tables = MatchCharges(con, formats=formats, seasons=plan.seasons(con))
        verdicts = [tables.check(header) for header in headers]
    return [v for v in verdicts if v is not None]


def earliest_epochs(verdicts: list[CapVerdict]) -> list[CapVerdict]:
    """The verdicts of each game's and format's earliest epoch among them."""
    first: dict[tuple[str, str], int] = {}
    for v in verdicts:
        key = (v.table.game, v.table.format)
        first[key] = min(first.get(key, v.table.epoch), v.table.epoch)
    return [v for v in verdicts if v.table.epoch == first[v.table.game, v.table.format]]


def quarantine_deck(outcome: LogOutcome, verdict: CapVerdict, facts: BatchFacts, seen: Seen,
                    report: IngestReport) -> None:
    """Undo the log's place among the ingested, and quarantine it at seq 0 (the header: the deck
    is checked when the match starts, ER-3.6), naming each seat over the cap."""
    assert outcome.match_id is not None
    seen.withdrawn(outcome.match_id)
    report.ingested -= 1
    report.events -= outcome.events
    rule = verdict.problems[0][0]
    reason = "; ".join(why for _, why in verdict.problems)
    quarantined = replace(outcome, status="quarantined", events=0, seq=0, rule=rule,
                          reason=reason, header=None)
    report.quarantined.append(quarantined)
    facts.quarantined.append(quarantined)


def history(lake: Lake, manifest: Manifest, facts: BatchFacts,
            since: Mapping[str, str | None] | None = None) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection for the charge computation: one view per table the charges read
    (CHARGE_TABLES) over the committed files plus the batch's rows. `since` (game -> its first
    month partition, None: all of them; pipeline.charge_epochs.in_history) keeps only those
    games' files of those months: the open epochs' matches are all there. One thread: the
    workers have the other cores."""
    con = duckdb.connect(":memory:", config={"threads": 1})
    con.execute("SET TimeZone = 'UTC'")
    for table in CHARGE_TABLES:
        files = [lake.root / e["path"] for e in manifest["tables"][table]
                 if since is None or in_history(e["path"], since)]
        con.register(f"batch_{table}", batch_rows(table, facts))
        con.execute(f"CREATE VIEW {table} AS {view_sql(table, files)} "
                    f"UNION ALL SELECT * FROM batch_{table}")
    return con


def batch_rows(table: str, facts: BatchFacts) -> pa.Table:
    """The batch's rows of a partitioned table in its full schema, partition keys put back."""
    found = [with_partition(pa.concat_tables(parts), key) for key, parts in facts.parts.items()
             if key[0] == table and parts]
    return pa.concat_tables(found) if found else tables()[table].empty_table()


def without_logs(table: pa.Table, drop: set[int]) -> pa.Table:
    if drop:
        keep = pc.invert(pc.is_in(table[LOG_COLUMN], pa.array(sorted(drop), pa.int32())))
        table = table.filter(keep)
    return table.drop_columns([LOG_COLUMN])


def quarantine_table(outcomes: list[LogOutcome], batch: str, now: datetime) -> pa.Table:
    rows = [(o.path, o.content_hash, o.match_id, o.game, o.seq, o.rule, o.reason, batch, now)
            for o in outcomes]
    return to_arrow("quarantine", rows)


# Workers: read, verify, replay, extract -------------------------------------------------------

_KNOWN: Digests = Digests(np.empty((0, 2), np.uint64))
"""Content hashes the lake held when the run began (set in each worker by extract_known)."""


_KEY: bytes | None = None
"""The raw public key every log must be signed by (ingest --key); None: not checked."""


def init_worker(key: bytes | None, in_pool: bool) -> None:
    """Set the signing key; a pool process also tunes its GC for good and watches its
    parent."""
    global _KEY
    _KEY = key
    if in_pool:
        tune_gc_for_good()
        parent = os.getppid()
        threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True).start()


def tune_gc_for_good() -> None:
    """gc_tuned for the rest of a worker process's life (a pool's, or a Spark Python worker's)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@contextmanager
def gc_tuned() -> Iterator[None]:
    """Replays allocate millions of short-lived objects that reference counting frees; the
    cyclic collector would rescan the long-lived ones (modules, catalog) over and over: freeze
    those and collect young objects less often (about 1.5x faster). Restored afterwards."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@contextmanager
def young_collected_after() -> Iterator[None]:
    """The cyclic collector off while a chunk's logs are replayed, and the young generation
    collected once after: what the replays leave behind is the chunk's rows (no cycles to
    find) and the garbage of at most a chunk of logs, so collecting on the way only rescans
    the rows (about 5% of a worker's time)."""
    enabled = gc.isenabled()
    with gc_paused():
        yield
    if enabled:
        gc.collect(0)


def _exit_when_orphaned(parent: int) -> None:
    """A worker whose parent was killed would wait forever for work: leave instead."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def runner_for(engine: str, master: str | None, workers: int) -> tuple[ChunkRunner, int]:
    """The engine's chunk runner and how many chunks it runs at once. duckdb (the default; the
    name is the query engine's, the flag being shared): `workers` processes of this machine.
    spark: Spark tasks on `master` (pipeline.spark_ingest), as many at once as the session's
    parallelism; its session starts here, before the lake is touched (SparkError if it cannot)."""
    if engine == "duckdb":
        if master is not None:
            raise IngestError("--master chooses where Spark runs: it needs --engine spark")
        return functools.partial(chunk_runner, workers), workers
    if engine == "spark":
        from pipeline.spark_ingest import SparkRunner

        spark = SparkRunner.start(master)
        return spark.run, spark.parallelism
    raise IngestError(f"unknown engine {engine!r}; engines: duckdb, spark")


@contextmanager
def chunk_runner(workers: int, key: bytes | None = None) -> Iterator[StartChunks]:
    """Runs chunks in order: in this process for one worker, else over a process pool whose
    processes start on entering (forked from a parent that has not read the lake yet: what it
    reads, a worker does not inherit)."""
    if workers <= 1:
        with gc_tuned():
            init_worker(key, False)
            yield lambda known: lambda tasks: map(functools.partial(extract_known, known), tasks)
        return
    with ProcessPoolExecutor(workers, initializer=init_worker, initargs=(key, True)) as pool:
        for started in [pool.submit(os.getpid) for _ in range(workers)]:
            started.result()
        yield lambda known: functools.partial(_windowed, pool, known,
                                              WINDOW_PER_WORKER * workers)


def _windowed(pool: ProcessPoolExecutor, known: Digests, window: int,
              tasks: Iterable[ChunkTask]) -> Iterator[ChunkResult]:
    """Results in task order with at most `window` chunks in flight: the workers run ahead
    into the next batch while the parent commits, yet memory stays bounded. Each task carries
    the known hashes: they pickle as the path of the run's file, mapped once per worker
    (pipeline.known.Columns)."""
    pending: deque[Future[ChunkResult]] = deque()
    for task in tasks:
        pending.append(pool.submit(extract_known, known, task))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def extract_known(known: Digests, task: ChunkTask) -> ChunkResult:
    """extract_chunk, skipping the logs whose content hash `known` holds."""
    global _KNOWN
    _KNOWN = known
    return extract_chunk(task)


def extract_chunk(task: ChunkTask) -> ChunkResult:
    """Examine each log of the chunk; the facts of those that pass, as Arrow tables."""
    outcomes: list[LogOutcome] = []
    facts: list[LogFacts] = []
    with young_collected_after():
        for index, path in enumerate(task.paths):
            outcome, rows, partition = examine(Path(path), task.batch, task.now)
            outcomes.append(outcome)
            if rows is not None:
                facts.append((index, partition, rows))
    try:
        parts = chunk_tables(facts)
    except (pa.ArrowException, OverflowError):  # some log's facts do not fit the columns
        parts = chunk_tables([f for f in facts if fits(f, outcomes)])
    return ChunkResult(task.batch, task.now, outcomes, parts)


def chunk_tables(facts: list[LogFacts]) -> dict[PartKey, pa.Table]:
    """One table per (table, partition) for the chunk, each row tagged with its log's index."""
    rows: dict[PartKey, tuple[list[tuple[Any, ...]], list[int]]] = {}
    for index, (game, month), log_rows in facts:
        for table, table_rows in log_rows.items():
            found, logs = rows.setdefault((table, game, month), ([], []))
            found.extend(table_rows)
            logs.extend([index] * len(table_rows))
    return {key: to_arrow(key[0], found, logs) for key, (found, logs) in rows.items() if found}


def fits(facts: LogFacts, outcomes: list[LogOutcome]) -> bool:
    """Whether one log's facts convert; if not, its outcome becomes a quarantine (FACTS)."""
    try:
        chunk_tables([facts])
    except (pa.ArrowException, OverflowError) as err:
        index = facts[0]
        outcomes[index] = replace(outcomes[index], status="quarantined", rule="FACTS", events=0,
                                  reason=f"its facts do not fit the lake's columns: {err}")
        return False
    return True


def examine(path: Path, batch: str, now: datetime
            ) -> tuple[LogOutcome, Rows | None, tuple[str | None, str | None]]:
    """One log: (outcome, its facts if it passed, its (game, month) partition)."""
    digest: str | None = None
    header = None
    try:
        data = read_shared(path)
        digest = content_hash(data)
        if digest in _KNOWN:
            return LogOutcome(str(path), "skipped", digest), None, (None, None)
        log, digest = decode(path, data)
        header = log.header
        if digest in _KNOWN:  # a JSONL twin of a log already in
            return LogOutcome(str(path), "skipped", digest), None, (None, None)
        visitor = replay(log, LogMeta(digest, str(path), batch, now, log.head.hex(),
                                      signed_by(log)))
    except Rejected as err:
        match_id, game = (header.match_id, header.game) if header else (None, None)
        return (LogOutcome(str(path), "quarantined", digest, match_id, game, 0, err.seq,
                           err.rule, err.reason), None, (None, None))
    capped = header if checks_cap(header.game) else None
    unchecked = capped is None and charged(header)
    return (LogOutcome(str(path), "ingested", digest, header.match_id, header.game,
                       len(log.events), cap_unchecked=unchecked, header=capped), visitor.rows,
            (visitor.game, visitor.month))


def signed_by(log: LogFile) -> str | None:
    """The id of the key the log's signatures were checked against (--key); None: unchecked."""
    from events.signing import check_signatures, key_id, load_public_key

    if _KEY is None:
        return None
    public = load_public_key(_KEY.hex())
    try:
        check_signatures(log, public)
    except SigningError as err:
        raise Rejected("SIGNATURE", _unprefixed(err, log.path), err.seq) from None
    return key_id(public).hex()


def read_shared(path: Path) -> bytes:
    """The file's bytes under a shared lock, so a concurrent append is not read half done."""
    try:
        with open(path, "rb") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_SH)
            return f.read()
    except OSError as err:
        raise Rejected("LOG", f"cannot read the file: {err.strerror or err}") from None


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=HASH_SIZE).hexdigest()


def decode_either(data: bytes, path: str | Path) -> tuple[LogFile, str]:
    """The log whose file bytes are data, and its identity in the lake, its content hash: of
    the bytes, or for JSON lines of its binary form (stamps included), so a .pglog and its
    .jsonl twin are the same content."""
    if not is_jsonl(data):
        return decode_log(data, path), content_hash(data)
    log, binary = decode_jsonl(data, path)
    return log, content_hash(binary)


class LogChanged(ValueError):
    """The file a lake lists for a match is gone or no longer holds the log that was ingested:
    showing it as that match would show what the lake's numbers did not count."""


def read_ingested(path: str | Path, recorded: str) -> LogFile:
    """The log at path, from one read of the file, refused (LogChanged) unless its content hash
    is the one the lake recorded: the hash checked belongs to the very events then replayed.
    A file that is not a log at all raises the log readers' own errors."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise LogChanged(f"the log at {path} is not there any more: the lake ingested it with "
                         f"content hash {recorded}") from None
    log, found = decode_either(data, path)
    if found != recorded:
        raise LogChanged(f"the log at {path} changed since it was ingested: its content hash "
                         f"is {found}, the lake recorded {recorded}")
    return log


def is_jsonl(data: bytes) -> bool:
    """The rule of events.jsonl.detect_format, on bytes already read: a binary log starts with
    a whole frame whose CRC holds (its first byte may happen to be '[' or '{')."""
    if len(data) >= FRAME.size:
        length, crc = FRAME.unpack_from(data)
        payload = data[FRAME.size:FRAME.size + length]
        if length and len(payload) == length and zlib.crc32(payload) == crc:
            return False
    return data.removeprefix(BOM).lstrip()[:1] in (b"[", b"{")


def decode(path: Path, data: bytes) -> tuple[LogFile, str]:
    """Integrity: framing, CRCs, hash chain, typed records (events.log / events.jsonl); the log
    and its content hash."""
    try:
        log, digest = decode_either(data, path)
    except JsonlError as err:
        raise Rejected("LOG", f"line {err.line}: {err.reason}", err.line - 1) from None
    except LogCorrupt as err:
        raise Rejected("LOG", f"corrupt at byte {err.offset}: {err.reason}", err.seq) from None
    except games.UnknownGame as err:
        raise Rejected("GAME", _unprefixed(err, path)) from None
    except (LogError, ValueError) as err:
        raise Rejected("LOG", _unprefixed(err, path)) from None
    if log.torn is not None:
        raise Rejected("LOG", f"torn tail: {log.torn.cut} bytes after byte {log.torn.offset} "
                              "are an incomplete record (a crash while writing?); "
                              "`postgame log repair` cuts it", log.torn.seq)
    return log, digest


def replay(log: LogFile, meta: LogMeta) -> Any:
    """Rules: replay every event through the ruleset the header names, collecting facts."""
    header = log.header
    try:
        ruleset = get_ruleset(header.ruleset)
        extractor = extractor_for(header.game)
    except UnknownRuleset as err:
        raise Rejected("RULESET", str(err)) from None
    except NoExtractor as err:
        raise Rejected("GAME", str(err)) from None
    if ruleset.game != header.game:
        raise Rejected("RULESET", f"ruleset {header.ruleset!r} plays {ruleset.game}, "
                                  f"not {header.game}")
    visitor = extractor(header, ruleset, meta)
    try:
        replay_log(ruleset, header, log.events, visitor)
    except IllegalEvent as err:
        raise _illegal(err) from None
    except Unfinished as err:
        raise Rejected("END", str(err), len(log.events)) from None
    except Exception as err:  # noqa: BLE001 - an engine bug must not stop the batch
        raise Rejected("ENGINE", f"{type(err).__name__}: {err}") from None
    return visitor


def _illegal(err: IllegalEvent) -> Rejected:
    cause = err.__cause__
    if isinstance(cause, DeckError):  # every broken deck rule, the first one as the rule
        return Rejected(cause.problems[0][0], str(cause), err.seq)
    return Rejected(err.rule, err.reason, err.seq)


def _unprefixed(err: Exception, path: Path) -> str:
    return str(err).removeprefix(f"{path}: ")


def to_arrow(table: str, rows: list[tuple[Any, ...]], logs: list[int] | None = None
             ) -> pa.Table:
    """Rows in pipeline.schema order (partition keys included) -> a table in file schema, with
    a LOG_COLUMN if `logs` gives each row's log."""
    schema, full = file_schema(table), tables()[table]
    columns = list(zip(*rows)) if rows else [()] * len(full)
    keep = [i for i, f in enumerate(full)
            if table in UNPARTITIONED or f.name not in PARTITION_KEYS]
    arrays = [pa.array(columns[i], type=f.type) for i, f in zip(keep, schema)]
    if logs is None:
        return pa.Table.from_arrays(arrays, schema=schema)
    arrays.append(pa.array(logs, type=pa.int32()))
    return pa.Table.from_arrays(arrays, schema=schema.append(pa.field(LOG_COLUMN, pa.int32())))
