"""Fixtures of the app tests: a small season of logs for the board and replay tests, the
pipeline's fixture lake (a simulated season, ingested) and AppTest sessions of the app on it;
a lake of one tournament, and a lake whose player, deck and tournament names are hostile text.

The lake fixtures are imported from tests/pipeline/conftest.py rather than copied, so both suites
read the same season; as session fixtures they are built once per suite that uses them.
"""
from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.data import LAKE_ENV
from engine.tournament import SeasonConfig, run_season
from events.base import Header
from events.jsonl import load_log
from events.log import encode_log
from pipeline.ingest import find_logs, ingest
from pipeline.lake import Lake
from tests.dashboards.browsing import CHROMIUM_ARGS, start_app, stop
from tests.pipeline.conftest import (  # noqa: F401
    fixture_lake,
    fixture_logs,
    fixture_report,
    tally,
)

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
TIMEOUT_S = 120
HOST = "pixel.postgame-test.invalid"
"""The host the hostile names point images at: no page may ever ask it for anything."""
HOSTILE_PLAYERS = (f"![t](http://{HOST}/px.png)", "<img src=x onerror=alert(1)>", "**bold**",
                   f"$x^2$ :red[red] _it_ `code`\n\n![n](http://{HOST}/nl.png)")
"""An image, a tag with a script, emphasis, and maths, a colour, code and a blank line then an
image (a blank line would end the HTML block around a board)."""


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


def shown(markdown: str) -> str:
    """What escaped Markdown displays: the text with its backslash escapes (and the invisible
    word joiners that keep addresses from becoming links) taken off."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown).replace("\u2060", "")


def lake_of(logs: list[Path], root: Path) -> Lake:
    """The logs ingested into a lake of their own under `root`."""
    lake = Lake(root)
    report = ingest(logs, lake)
    assert report.ingested == len(logs) and not report.quarantined
    return lake


@pytest.fixture(scope="session")
def one_tournament_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """`postgame simulate vitorian --players 8 --rounds 3 --tournaments 1 --seed 5`, ingested:
    fewer tournaments than an epoch of charges holds."""
    out = tmp_path_factory.mktemp("one-tournament")
    run_season(SeasonConfig(game="vitorian", players=8, rounds=3, seed=5, out=out / "logs",
                            tournaments=1))
    return lake_of(find_logs([out / "logs"]), out / "lake")


def hostile_header(header: Header, players: dict[str, str]) -> Header:
    """The header with its players renamed, and Markdown and HTML in its deck names and its
    tournament, as anyone writing a log or a deck list could put there."""
    seats = [msgspec.structs.replace(
        seat, player=players[seat.player],
        setup=msgspec.structs.replace(seat.setup, name=f"<b>{seat.setup.name}</b> "
                                                      f"[deck](http://{HOST}/deck)"))
        for seat in header.seats]
    return msgspec.structs.replace(header, seats=seats,
                                   tournament=f"**{header.tournament}** <i>cup</i>")


@pytest.fixture(scope="session")
def hostile_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """Two simulated tournaments of four players whose logs were rewritten with hostile names
    (HOSTILE_PLAYERS; the rules do not care what a player is called), then ingested."""
    out = tmp_path_factory.mktemp("hostile")
    run_season(SeasonConfig(game="vitorian", players=4, rounds=2, seed=5, out=out / "sim",
                            tournaments=2))
    sims = find_logs([out / "sim"])
    logs = [load_log(path) for path in sims]
    names = sorted({seat.player for log in logs for seat in log.header.seats})
    players = dict(zip(names, HOSTILE_PLAYERS, strict=True))
    (out / "logs").mkdir()
    for path, log in zip(sims, logs):
        target = out / "logs" / path.name
        target.write_bytes(encode_log(hostile_header(log.header, players), log.batches(),
                                      target)[0])
    return lake_of(find_logs([out / "logs"]), out / "lake")


# The app in chromium (tests/dashboards/browsing.py) ------------------------------------------

@pytest.fixture(scope="module")
def app_url(fixture_lake: Lake) -> Iterator[str]:  # noqa: F811
    server, url = start_app(Path(fixture_lake.root))
    yield url
    stop(server)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright package is missing: pip install -e '.[dev]'")
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("chromium is not on PATH: install Debian's package (apt-get install -y "
                    "chromium); the browser tests need it and never skip")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, headless=True,
                                              args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    tab = browser.new_page(viewport={"width": 1500, "height": 1100})
    yield tab
    tab.close()
