"""Apache Spark as the lake's query engine: the same SQL models, run by Spark over the files the
manifest lists (`--engine spark`), and the session that ingest's Spark tasks run in.

`SparkConnection` speaks the small part of a DuckDB connection the pipeline uses (execute with
named parameters, then df / fetchall / fetchone / description; register and unregister of Arrow
tables; close), so every caller that takes a connection (metrics, charges, audits, exports, the
commands) runs on Spark unchanged:

- each lake table is a temporary view over exactly the manifest's files, cast to the types of
  pipeline.schema (partition keys from the hive paths, as strings; a column older files lack
  read as nulls), as pipeline.lake.view_sql does for DuckDB;
- SQL arrives in DuckDB's dialect (the models are written in it) and is transpiled by sqlglot,
  once per text; `$name` parameters become Spark's `:name` and are bound as values, never text;
- a result comes back as Arrow and is handed to the caller through DuckDB's own conversion, so
  a frame from Spark has the dtypes a frame from DuckDB has (the numbers are Spark's).

Each connection has its own session (SparkSession.newSession: one JVM and SparkContext per
process, temporary views apart), so two lakes can be open at once. DuckDB stays the default:
nothing here is imported unless Spark is asked for, and pyspark and Java are needed only then.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pandas as pd
import pyarrow as pa

from pipeline.lake_layout import PARTITION_KEYS, LakeError
from pipeline.schema import UNPARTITIONED, tables

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from pipeline.lake import Lake
    from pipeline.manifest import Manifest

DEFAULT_MASTER = "local[*]"
LOG4J = Path(__file__).with_name("spark_log4j2.properties")
"""Spark's own logging: errors only."""
SPARK_LOG = Path(os.environ.get("POSTGAME_SPARK_LOG")
                 or Path(tempfile.gettempdir()) / "postgame-spark.log")
"""Where the JVM's output goes (its stderr), so a command's output stays the command's."""
_SPARK_TYPES = {
    pa.string(): "STRING", pa.int8(): "TINYINT", pa.int16(): "SMALLINT", pa.int32(): "INT",
    pa.int64(): "BIGINT", pa.bool_(): "BOOLEAN", pa.float64(): "DOUBLE",
    pa.timestamp("us", tz="UTC"): "TIMESTAMP", pa.date32(): "DATE",
}


class SparkError(LakeError):
    """Spark cannot run here (no pyspark, no Java, a master it cannot reach), or Spark refused
    a query: one line naming what to do."""


# The session -----------------------------------------------------------------------------------

def session(master: str | None = None) -> SparkSession:
    """The process's Spark session (started on first use, then shared): UTC, Arrow transfers,
    partition keys read as strings. Under spark-submit the master and the rest of Spark's
    settings are spark-submit's; otherwise the master is `master`, $POSTGAME_SPARK_MASTER or
    local[*], and a local session runs its Python workers on this interpreter (so they import
    the same postgame), without a UI, its shuffles cut to the machine's size."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise SparkError("Spark is not installed: pip install 'postgame[spark]' (pyspark), "
                         "or run without --engine spark (DuckDB, the default)") from None
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # spark-submit started this driver
    master = master or os.environ.get("POSTGAME_SPARK_MASTER") or (
        None if submitted else DEFAULT_MASTER)
    if not submitted and not shutil.which("java") and not os.environ.get("JAVA_HOME"):
        raise SparkError("Spark needs a Java runtime (17 or later): apt-get install "
                         "default-jre-headless, or set JAVA_HOME")
    os.environ.setdefault("PYSPARK_SUBMIT_ARGS", f"--driver-java-options "
                          f"-Dlog4j.configurationFile=file:{LOG4J} pyspark-shell")
    builder = (SparkSession.builder.appName("postgame")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true")
               .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false"))
    if master:
        builder = builder.master(master)
    if master and master.startswith("local"):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # what the workers start from
        builder = (builder.config("spark.driver.memory", local_driver_memory())
                   .config("spark.ui.enabled", "false")
                   .config("spark.ui.showConsoleProgress", "false")
                   .config("spark.sql.shuffle.partitions", str(2 * (os.cpu_count() or 1))))
    try:
        with warnings.catch_warnings(), _stderr_to(SPARK_LOG):
            warnings.simplefilter("ignore", FutureWarning)  # pyspark on pandas 3: checked here
            return builder.getOrCreate()
    except Exception as err:  # noqa: BLE001 - py4j and the JVM raise many kinds
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        raise SparkError(f"Spark could not start (master {master or 'of spark-submit'}): {first} "
                         f"(Spark's log: "
                         f"{SPARK_LOG})") from None


def local_driver_memory() -> str:
    """The JVM's heap in local mode, where the driver runs every task and holds every broadcast
    of a metrics query: $POSTGAME_SPARK_DRIVER_MEMORY (e.g. 8g), else a quarter of this
    machine's memory (Spark's own default, 1g, cannot broadcast the joins of a lake of a few
    tens of thousands of matches)."""
    chosen = os.environ.get("POSTGAME_SPARK_DRIVER_MEMORY")
    if chosen:
        return chosen
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return f"{max(1, total // 4 // 2**30)}g"


@contextmanager
def _stderr_to(path: Path) -> Iterator[None]:
    """The JVM Spark starts inherits this process's stderr: hand it the log file instead, so
    Spark's start-up chatter and its later log lines stay out of a command's output."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "ab") as log:
        os.dup2(log.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


# Views of the lake ---------------------------------------------------------------------------

def spark_type(arrow_type: pa.DataType) -> str:
    try:
        return _SPARK_TYPES[arrow_type]
    except KeyError:
        raise LakeError(f"no Spark type for the Arrow type {arrow_type}") from None


def spark_schema(schema: pa.Schema) -> str:
    """A Spark DDL schema for an Arrow schema of the lake's types."""
    return ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in schema)


def table_frame(spark: SparkSession, root: Path, table: str, paths: Sequence[Path]
                ) -> DataFrame:
    """The table's rows over exactly these files, typed as pipeline.schema says."""
    schema = tables()[table]
    if not paths:
        return spark.createDataFrame([], spark_schema(schema))
    reader = spark.read.option("mergeSchema", "true")
    if table not in UNPARTITIONED:
        reader = reader.option("basePath", str(root / table))
    raw = reader.parquet(*(str(p) for p in paths))
    found = set(raw.columns)
    return raw.selectExpr(*(
        f"CAST(`{f.name}` AS {spark_type(f.type)}) AS `{f.name}`" if f.name in found
        or f.name in PARTITION_KEYS else f"CAST(NULL AS {spark_type(f.type)}) AS `{f.name}`"
        for f in schema))


# Queries -------------------------------------------------------------------------------------

MEMORY_SIGNS = ("Not enough memory", "OutOfMemoryError", "Java heap space")


def memory_hint(error: str) -> str:
    """What to do when the JVM ran out of memory (else nothing)."""
    if not any(sign in error for sign in MEMORY_SIGNS):
        return ""
    return ("; the driver ran out of memory: raise spark.driver.memory (in local mode "
            "$POSTGAME_SPARK_DRIVER_MEMORY, e.g. 8g; by default a quarter of the machine's)")


@lru_cache(maxsize=512)
def to_spark_sql(sql: str) -> str:
    """DuckDB's dialect (the models') as Spark SQL; `$name` parameters become `:name`."""
    import sqlglot

    statements = sqlglot.transpile(sql, read="duckdb", write="spark")
    if len(statements) != 1:
        raise SparkError(f"one statement at a time, not {len(statements)}")
    return statements[0]


class SparkResult:
    """A query's rows, fetched once as Arrow and read through DuckDB, so callers get what a
    DuckDB result gives them (df, fetchall, fetchone, fetchmany, description)."""

    def __init__(self, table: pa.Table) -> None:
        self._con = duckdb.connect(":memory:")
        with contextlib.suppress(duckdb.Error):  # without ICU, timestamps stay UTC anyway
            self._con.execute("SET TimeZone = 'UTC'")  # match times as the lake's views give them
        self._con.register("result", table)
        self._table = table
        self._cursor = self._con.execute("SELECT * FROM result")

    @property
    def description(self) -> Any:
        return self._cursor.description

    def df(self) -> pd.DataFrame:
        return self._cursor.df()

    def to_arrow_table(self) -> pa.Table:
        return self._table

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._cursor.fetchall()

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._cursor.fetchone()

    def fetchmany(self, size: int = 1) -> list[tuple[Any, ...]]:
        return self._cursor.fetchmany(size)


class SparkConnection:
    """A lake's tables as Spark views, queried like a DuckDB connection (module doc)."""

    def __init__(self, spark: SparkSession) -> None:
        self.spark = spark
        self._registered: set[str] = set()

    @classmethod
    def over(cls, lake: Lake, manifest: Manifest | None = None,
             master: str | None = None) -> SparkConnection:
        """A new session's views of every table over the files the manifest lists."""
        manifest = manifest or lake.manifest()
        con = cls(session(master).newSession())
        for table in tables():
            frame = table_frame(con.spark, lake.root, table, lake.files(table, manifest))
            frame.createOrReplaceTempView(table)
        return con

    def execute(self, sql: str, parameters: Mapping[str, Any] | None = None) -> SparkResult:
        """Run one statement of DuckDB-dialect SQL with named parameters."""
        from py4j.protocol import Py4JJavaError
        from pyspark.errors import PySparkException

        try:
            frame = self.spark.sql(to_spark_sql(sql), args=dict(parameters or {}))
            return SparkResult(frame.toArrow())
        except (PySparkException, Py4JJavaError) as err:
            first = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise SparkError(f"Spark refused the query: {first}{memory_hint(str(err))}"
                             ) from None

    def sql(self, sql: str, params: Mapping[str, Any] | None = None) -> SparkResult:
        """execute, by the name DuckDB gives its relational form (con.sql(q, params=...))."""
        return self.execute(sql, params)

    def register(self, name: str, table: pa.Table | pd.DataFrame) -> None:
        """A temporary view of an Arrow table (or a frame), as DuckDB's register."""
        if isinstance(table, pd.DataFrame):
            table = pa.Table.from_pandas(table, preserve_index=False)
        if table.num_rows:
            frame = self.spark.createDataFrame(table)
        else:
            frame = self.spark.createDataFrame([], spark_schema(_lake_types(table.schema)))
        frame.createOrReplaceTempView(name)
        self._registered.add(name)

    def unregister(self, name: str) -> None:
        self.spark.catalog.dropTempView(name)
        self._registered.discard(name)

    def close(self) -> None:
        """Drop this connection's views; the process's Spark session stays for the next one."""
        for name in tables():
            self.spark.catalog.dropTempView(name)
        for name in list(self._registered):
            self.unregister(name)


def _lake_types(schema: pa.Schema) -> pa.Schema:
    """An empty input's schema in types Spark's DDL above knows (large strings as strings)."""
    fields = [pa.field(f.name, pa.string() if pa.types.is_large_string(f.type) else f.type)
              for f in schema]
    return pa.schema(fields)
