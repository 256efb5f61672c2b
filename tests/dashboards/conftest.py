"""Fixtures of the app tests: a small season of logs for the board and replay tests, the
pipeline's fixture lake (a simulated season, ingested) and AppTest sessions of the app on it.

The lake fixtures are imported from tests/pipeline/conftest.py rather than copied, so both suites
read the same season; as session fixtures they are built once per suite that uses them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.data import LAKE_ENV
from engine.tournament import SeasonConfig, run_season
from pipeline.lake import Lake
from tests.pipeline.conftest import fixture_lake, fixture_logs, fixture_report  # noqa: F401

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
TIMEOUT_S = 120


@pytest.fixture(scope="session")
def season_logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """`postgame simulate vitorian --players 4 --rounds 2 --seed 5`: 4 logs, no lake needed."""
    out = tmp_path_factory.mktemp("board-season")
    run_season(SeasonConfig(game="vitorian", players=4, rounds=2, seed=5, out=out))
    return sorted(out.rglob("*.pglog"))


@pytest.fixture
def lake_con(fixture_lake: Lake) -> Iterator[duckdb.DuckDBPyConnection]:  # noqa: F811
    """A connection of the test's own, to compute the numbers a page must show."""
    con = fixture_lake.connect()
    yield con
    con.close()


@pytest.fixture
def open_app(monkeypatch: pytest.MonkeyPatch) -> Callable[..., AppTest]:
    """open_app(lake_dir, page=None): the app run once on a lake, switched to a page
    ("cards" for app_pages/cards.py) and run again; None is the default page (Replay)."""
    def open_(lake: Path | str | None, page: str | None = None) -> AppTest:
        if lake is None:
            monkeypatch.delenv(LAKE_ENV, raising=False)
        else:
            monkeypatch.setenv(LAKE_ENV, str(lake))
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S).run()
        if page is not None:
            at.switch_page(f"app_pages/{page}.py").run()
        return at
    return open_


def texts(at: AppTest) -> str:
    """Every text the page wrote (markdown, captions, alerts, titles), for 'shows X' checks."""
    parts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "success",
                 "error", "warning"):
        parts += [str(getattr(element, "value", "")) for element in at.get(kind)]
    return "\n".join(parts)


def metric_values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}
