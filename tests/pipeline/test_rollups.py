"""Rollups (pipeline.rollups) give the numbers the facts give: on a lake of every game ingested
in many small commits, each model that reads a rollup returns the same frame from the
stored rollups as from its query inlined over the facts, under several scopes and for each
faction; a lake without rollups, or a reader that narrows a fact view, falls back to the facts;
`postgame lake rollup` writes them again."""
from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from engine import registry
from pipeline import metrics, rollups
from pipeline.lake import Lake
from pipeline.lake_layout import PartKey, new_batch_id, partition_of
from pipeline.schema import ROLLUPS
from postgame.cli import main
from tests.spark.test_conformance import scopes as report_scopes

CARD_GAMES = [game for game in registry.BUILTIN if "decks" in registry.info(game).capabilities]
GAMES = [game for game in registry.BUILTIN if rollups.read_by(game)]
SEASONS = {"v20": ["--matches", "2"]}
"""The season of a game not played in Swiss tournaments (v20's scenario sweep); the others'
are of eight players, three rounds, four tournaments."""


@pytest.fixture(scope="module")
def lakes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Lake]:
    """Each game's season (seed 3), ingested 8 logs a commit."""
    found = {}
    for game in GAMES:
        root = tmp_path_factory.mktemp(f"rollups-{game}")
        season = SEASONS.get(game, ["--players", "8", "--rounds", "3", "--tournaments", "4"])
        assert main(["simulate", game, *season, "--seed", "3", "--out", str(root / "logs"),
                     "--workers", "1", "--quiet"]) == 0
        assert main(["ingest", str(root / "logs"), "--lake", str(root / "lake"),
                     "--batch-size", "8", "--quiet"]) == 0
        found[game] = Lake(root / "lake")
    return found


@contextlib.contextmanager
def from_facts() -> Iterator[None]:
    """Every rollup computed from the facts, as on a lake that holds none."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rollups, "stored", lambda con, game, names: frozenset())
        yield


def rollup_models(game: str) -> list[str]:
    """The models that read a rollup: the game's suite's and, for a card game, archetype_lists
    (which the archetype models' input reads)."""
    inputs = ["archetype_lists"] if game in CARD_GAMES else []
    return [name for name in dict.fromkeys([*metrics.suite(game), *inputs])
            if metrics.rollups_read(metrics.load_model(name).sql)]


def scopes(con: Any, game: str) -> list[dict[str, Any]]:
    """The conformance tests' scopes, and a format no match has."""
    return [*report_scopes(con, game), {"format": "no-such-format"}]


@pytest.mark.parametrize("game", GAMES)
def test_the_stored_rollups_give_the_numbers_of_the_facts(lakes, game):
    assert rollup_models(game), f"{game}'s suite reads no rollup"
    with contextlib.closing(lakes[game].connect()) as con:
        assert rollups.stored(con, game, rollups.read_by(game)) == set(rollups.read_by(game))
        for scope in scopes(con, game):
            for name in rollup_models(game):
                stored = metrics.run_model(con, name, game=game, **scope)
                with from_facts():
                    computed = metrics.run_model(con, name, game=game, **scope)
                pd.testing.assert_frame_equal(stored, computed, obj=f"{name} {scope}")
            assert scope.get("format") != "no-such-format" or stored.empty


@pytest.mark.parametrize("game", CARD_GAMES)
def test_card_usage_of_one_faction_is_the_same_from_rollups(lakes, game):
    with contextlib.closing(lakes[game].connect()) as con:
        factions = [row[0] for row in con.execute(
            "SELECT DISTINCT faction FROM decks WHERE faction IS NOT NULL ORDER BY 1").fetchall()]
        mirrors = 0
        for faction in factions:
            stored = metrics.card_usage(con, game, faction=faction)
            with from_facts():
                computed = metrics.card_usage(con, game, faction=faction)
            pd.testing.assert_frame_equal(stored, computed, obj=faction)
            decks = con.execute("SELECT count(*) FROM decks WHERE faction = $f",
                                {"f": faction}).fetchall()[0][0]
            assert (stored["decks"] == decks).all()
            mirrors += int(stored["mirror_matches"].sum())
        assert mirrors > 0, "the season has card mirrors"


def test_the_rollups_a_model_reads_are_found_under_any_alias() -> None:
    sql = ("SELECT * FROM rollup_deck_lines AS l JOIN rollup_deck_names n USING (deck_id)"
           " JOIN stg_deck_games AS g USING (deck_id) JOIN rollup_matchups USING (format)")
    assert metrics.rollups_read(sql) == ["rollup_deck_lines", "rollup_deck_names",
                                         "rollup_matchups"]
    assert metrics.rollups_read("SELECT * FROM stg_deck_games AS g") == []


def test_a_fact_view_narrowed_by_a_reader_reads_no_rollup(lakes):
    game = CARD_GAMES[0]
    with contextlib.closing(lakes[game].connect()) as con:
        cursor = con.cursor()
        first = cursor.execute("SELECT min(tournament) FROM matches").fetchall()[0][0]
        cursor.register("matches", cursor.sql(
            "SELECT * FROM main.matches WHERE tournament = $t", params={"t": first}
        ).to_arrow_table())
        assert rollups.stored(cursor, game, rollups.read_by(game)) == frozenset()
        narrowed = metrics.run_model(cursor, "faction_win_rates", game=game)
        whole = metrics.run_model(con, "faction_win_rates", game=game)
        assert narrowed["seat_games"].sum() < whole["seat_games"].sum()


def test_a_lake_without_rollups_reads_the_facts_until_they_are_written(lakes, tmp_path, capsys):
    game = CARD_GAMES[0]
    with contextlib.closing(lakes[game].connect()) as con:
        expected = {name: metrics.run_model(con, name, game=game)
                    for name in rollup_models(game)}
    copy = Lake(tmp_path / "lake")
    _copy_without_rollups(lakes[game], copy)
    with contextlib.closing(copy.connect()) as con:
        assert rollups.stored(con, game, rollups.read_by(game)) == frozenset()
        for name, frame in expected.items():
            pd.testing.assert_frame_equal(metrics.run_model(con, name, game=game), frame)
    capsys.readouterr()
    assert main(["lake", "rollup", "--lake", str(copy.root), "--json"]) == 0
    written = json.loads(capsys.readouterr().out)["rows"]
    assert set(written) == {*rollups.written_by(game)}
    with contextlib.closing(copy.connect()) as con:
        assert rollups.stored(con, game, rollups.read_by(game)) == set(rollups.read_by(game))
        for name, frame in expected.items():
            pd.testing.assert_frame_equal(metrics.run_model(con, name, game=game), frame)
    assert main(["lake", "rollup", "--lake", str(copy.root), "--json"]) == 0  # again: replaced
    assert json.loads(capsys.readouterr().out)["rows"] == written
    with contextlib.closing(copy.connect()) as con:
        pd.testing.assert_frame_equal(metrics.run_model(con, "faction_win_rates", game=game),
                                      expected["faction_win_rates"])


def _copy_without_rollups(source: Lake, target: Lake) -> None:
    """The source's fact files committed into the target, as a lake written before rollups."""
    manifest = source.manifest()
    parts: dict[PartKey, list[pa.Table]] = {}
    for table, entries in manifest["tables"].items():
        for entry in entries if table not in ROLLUPS else ():
            parts.setdefault(partition_of(entry["path"]), []).append(
                pq.read_table(source.root / entry["path"]))
    with target.writer() as writer:
        writer.commit(new_batch_id(), {key: pa.concat_tables(t) for key, t in parts.items()})


def test_the_declared_rollup_columns_are_the_models_columns(lakes):
    game = CARD_GAMES[0]
    with contextlib.closing(lakes[game].connect()) as con:
        for name in rollups.rollup_names():
            params = {p: None for p in metrics.load_model(name).params} | {"game": game}
            cursor = con.execute(metrics.compile_model(name) + " LIMIT 0", params)
            columns = [d[0] for d in cursor.description]
            cursor.fetchall()
            assert ["game", "month", "batch", *columns] == ROLLUPS[name].names, name


def test_rollups_of_another_definition_are_not_read(lakes, monkeypatch):
    game = CARD_GAMES[0]
    with contextlib.closing(lakes[game].connect()) as con:
        whole = metrics.run_model(con, "card_usage", game=game)
        monkeypatch.setattr(rollups, "definition", lambda names: "changed-since")
        assert rollups.stored(con, game, rollups.read_by(game)) == frozenset()
        pd.testing.assert_frame_equal(metrics.run_model(con, "card_usage", game=game), whole)
