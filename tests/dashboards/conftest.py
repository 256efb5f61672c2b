"""Fixtures of the app tests: a small season of logs for the board and replay tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.tournament import SeasonConfig, run_season


@pytest.fixture(scope="session")
def season_logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """`postgame simulate vitorian --players 4 --rounds 2 --seed 5`: 4 logs, no lake needed."""
    out = tmp_path_factory.mktemp("board-season")
    run_season(SeasonConfig(game="vitorian", players=4, rounds=2, seed=5, out=out))
    return sorted(out.rglob("*.pglog"))
