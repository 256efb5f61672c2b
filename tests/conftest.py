"""Helper modules whose asserts pytest rewrites, so a failing check in one explains itself as a
check written in a test module would; the hypothesis profile of CI; and the one Spark session of
the whole run (`spark`), whose tests are marked `spark` so that `pytest -m "not spark"` runs the
rest on a machine without Java."""
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

pytest.register_assert_rewrite("tests.game_properties", "tests.dashboards.board_checks")

# CI replays the same examples every run (a failure there is reproducible, never a coin toss);
# a developer's run draws new ones and so keeps finding what CI's fixed examples cannot.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


SPARK_MASTER = "local[2]"


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """The run's Spark session (pipeline.spark.session, local mode): pyspark comes with the dev
    extras, Java from scripts/env.sh. Started by the first test that asks, stopped at the end."""
    from pipeline.spark import session

    started = session(SPARK_MASTER)
    yield started
    started.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses the Spark session (directly or through a fixture) is marked spark."""
    for item in items:
        if "spark" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.spark)
