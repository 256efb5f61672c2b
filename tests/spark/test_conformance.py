"""The same numbers on Spark: on a fixture lake of every registered game, every metric model of
the game (its suite and every model of the folders its lake answers), the charge tables and the
audits give on Spark (pipeline.spark.SparkConnection, the run's local session) exactly what they
give on DuckDB, in the same row order, under several scopes. A game registered later takes part
by adding its season to SEASONS; the first test fails until it does."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pandas as pd
import pytest

from engine import registry
from pipeline import metrics
from pipeline.audits import run_audits
from pipeline.charges import compute_charges, game_cards
from pipeline.engines import connect
from pipeline.lake import Lake
from postgame.cli import main
from tests.pipeline.test_metrics import assert_same

SEASONS: dict[str, list[str]] = {
    "vitorian": ["--players", "8", "--rounds", "3", "--tournaments", "6"],
    "eredan": ["--players", "8", "--rounds", "3", "--tournaments", "6"],
    "v20": ["--matches", "1"],
}
"""`postgame simulate GAME ...` of each game's fixture season (seed 5): 72, 72 and 16 matches;
six tournaments give the card games three charge epochs."""


def test_every_game_postgame_ships_has_a_fixture_season():
    assert sorted(SEASONS) == sorted(registry.BUILTIN)  # the games postgame ships


@pytest.fixture(scope="module")
def lakes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Lake]:
    """Each game's season, simulated and ingested on the default engine."""
    found = {}
    for game, argv in SEASONS.items():
        root = tmp_path_factory.mktemp(f"conformance-{game}")
        assert main(["simulate", game, *argv, "--seed", "5", "--out", str(root / "logs"),
                     "--workers", "1", "--quiet"]) == 0
        assert main(["ingest", str(root / "logs"), "--lake", str(root / "lake"),
                     "--quiet"]) == 0
        found[game] = Lake(root / "lake")
    return found


@pytest.fixture(scope="module")
def engines(spark: Any, lakes: dict[str, Lake]) -> Iterator[dict[str, tuple[Any, Any]]]:
    """(DuckDB connection, Spark connection) of each game's lake."""
    with contextlib.ExitStack() as stack:
        yield {game: (stack.enter_context(contextlib.closing(connect(lake))),
                      stack.enter_context(contextlib.closing(connect(lake, "spark"))))
               for game, lake in lakes.items()}


def models_of(game: str) -> list[str]:
    """The game's suite, then every other model of the folders only its kind of lake answers:
    cards for a game with decks, and the game's own (the core models a game leaves out of its
    suite do not apply to it: first_player of a game where no seat plays first)."""
    folders = {game} | ({"cards"} if "decks" in registry.info(game).capabilities else set())
    paths = metrics.model_paths()
    rest = [name for name in metrics.model_names() if paths[name].parent.name in folders]
    return list(dict.fromkeys([*metrics.suite(game), *rest]))


def scopes(con: Any, game: str) -> list[dict[str, Any]]:
    """Everything; one format; the later half of the days; a day range in one format; a
    minimum sample that leaves some rows out."""
    first, last, fmt = con.execute(
        "SELECT min(started_at), max(started_at), min(format) FROM matches WHERE game = $game",
        {"game": game}).fetchone()
    middle = (first + (last - first) / 2).date()
    return [{}, {"format": fmt}, {"date_from": middle},
            {"date_from": first.date(), "date_to": middle - timedelta(days=1), "format": fmt},
            {"min_sample": 5}]


CASES = [(game, model) for game in SEASONS if registry.is_registered(game)
         for model in models_of(game)]


@pytest.mark.parametrize("game, model", CASES, ids=[f"{g}-{m}" for g, m in CASES])
def test_each_model_gives_the_same_rows_on_spark(engines, game, model):
    duck, spark = engines[game]
    for scope in scopes(duck, game):
        want = metrics.run_model(duck, model, game=game, **scope)
        got = metrics.run_model(spark, model, game=game, **scope)
        assert_same_frame(got, want, f"{game} {model} {scope}")
        assert len(want) or scope, f"{game} {model}: no rows at all, nothing compared"


CHARGED = [game for game in SEASONS if registry.is_registered(game)
           and registry.has_layer(game, "cards")]


@pytest.mark.parametrize("game", CHARGED)
def test_every_epochs_charge_table_is_the_same_on_spark(engines, game):
    duck, spark = engines[game]
    cards = game_cards(game)
    want = compute_charges(duck, game, "standard", cards=cards)
    got = compute_charges(spark, game, "standard", cards=cards)
    assert len(want.epochs) >= 3 and not want.tables.empty
    assert_same_frame(got.epochs, want.epochs, f"{game} epochs")
    assert_same_frame(got.tables, want.tables, f"{game} charge tables")


@pytest.mark.parametrize("game", sorted(SEASONS))
def test_the_audits_find_the_same_on_spark(engines, game):
    duck, spark = engines[game]
    want = [audit.to_json() for audit in run_audits(duck)]
    assert want and all(audit["ok"] for audit in want)
    assert [audit.to_json() for audit in run_audits(spark)] == want


def test_a_spark_query_error_names_spark_and_the_cause(engines):
    from pipeline.spark import SparkError

    _, spark = engines["vitorian"]
    with pytest.raises(SparkError, match="Spark refused the query: .*no_such_column"):
        spark.execute("SELECT no_such_column FROM matches")


def assert_same_frame(got: pd.DataFrame, want: pd.DataFrame, what: str) -> None:
    """Same columns in the same order, then the metric tests' comparison: same rows in the same
    order, numbers equal to 1e-9, NULL where NULL."""
    assert list(got.columns) == list(want.columns), what
    assert_same(got, want, what)
