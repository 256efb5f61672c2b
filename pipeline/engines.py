"""Which engine runs a lake's SQL: DuckDB, embedded and the default, or Apache Spark when asked
for (`--engine spark`). Both give a connection with one view per lake table over exactly the
files the manifest lists, and every caller (metrics, charges, audits, exports) takes either."""
from __future__ import annotations

from typing import Any

from pipeline.lake import Lake
from pipeline.lake_layout import LakeError
from pipeline.manifest import Manifest

ENGINES = ("duckdb", "spark")
DEFAULT_ENGINE = "duckdb"


def connect(lake: Lake, engine: str = DEFAULT_ENGINE, master: str | None = None,
            manifest: Manifest | None = None) -> Any:
    """The lake's connection on `engine`; `master` is Spark's (local[2], spark://host:7077)."""
    if engine == "duckdb":
        if master is not None:
            raise LakeError("--master chooses where Spark runs: it needs --engine spark")
        return lake.connect(manifest)
    if engine == "spark":
        from pipeline.spark import SparkConnection

        return SparkConnection.over(lake, manifest, master)
    raise LakeError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
