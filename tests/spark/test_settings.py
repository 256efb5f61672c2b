"""pipeline.spark's settings and messages that need no JVM."""
from __future__ import annotations

import re

from pipeline import spark


def test_local_driver_memory_is_a_quarter_of_the_machine_unless_chosen(monkeypatch) -> None:
    monkeypatch.delenv("POSTGAME_SPARK_DRIVER_MEMORY", raising=False)
    monkeypatch.setattr(spark.os, "sysconf", lambda name: {
        "SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 24 * 2**30 // 4096}[name])
    assert spark.local_driver_memory() == "6g"
    monkeypatch.setattr(spark.os, "sysconf", lambda name: {
        "SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 2 * 2**30 // 4096}[name])
    assert spark.local_driver_memory() == "1g"  # never below Spark's own default
    monkeypatch.setenv("POSTGAME_SPARK_DRIVER_MEMORY", "12g")
    assert spark.local_driver_memory() == "12g"


def test_an_out_of_memory_error_says_which_setting_to_raise() -> None:
    hint = spark.memory_hint("org.apache.spark.SparkException: Not enough memory to build and "
                             "broadcast the table to all worker nodes.")
    assert re.search(r"spark\.driver\.memory.*POSTGAME_SPARK_DRIVER_MEMORY", hint)
    assert spark.memory_hint("[TABLE_OR_VIEW_NOT_FOUND] The table `x` cannot be found") == ""
