"""The V20 pages (dashboards/app_pages/combat.py and dice_audit.py) run with Streamlit's AppTest
on a lake of simulated V20 fights: they render without an exception and every number they show
is the one pipeline.metrics computes here, on a connection of the test's own; a tournament or a
scenario picked in the sidebar gives the numbers of a lake holding only those matches; the dice
page's headline is the audit's verdict; and only the V20 game lists the pages."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from dashboards.pages import pages_for
from engine.games import get_game
from engine.tournament import SeasonConfig, run_season
from engine.v20.catalog import load_catalog
from engine.v20.dice import BOTCH, distribution
from pipeline import dice_audit, metrics
from pipeline.ingest import find_logs
from pipeline.lake import Lake
from tests.dashboards.conftest import lake_of, metric_values

OpenApp = Callable[..., AppTest]
GAME = "v20"


@dataclass(frozen=True)
class Lakes:
    """The lake the pages are opened on (two bonfire tournaments and an alley ambush), and a
    lake of only the alley's matches and one of only the first tournament's: what a scenario
    or tournament filter must reproduce."""

    all: Lake
    alley: Lake
    first_tournament: Lake
    tournament: str


@pytest.fixture(scope="session")
def v20_lakes(tmp_path_factory: pytest.TempPathFactory) -> Lakes:
    """`postgame simulate v20 --matches 1 --tournaments 2 --seed 5` (the bonfire sweep) and
    `postgame simulate v20 --scenario alley --matches 4 --seed 6 --start 2025-11-20`, ingested
    together and apart."""
    out = tmp_path_factory.mktemp("v20-pages")
    run_season(SeasonConfig(game=GAME, players=2, rounds=1, seed=5, out=out / "logs/bonfire",
                            tournaments=2))
    run_season(SeasonConfig(game=GAME, players=2, rounds=4, seed=6, out=out / "logs/alley",
                            start=date(2025, 11, 20),
                            scenario=get_game(GAME).scenario("alley")))
    first = min(p for p in (out / "logs/bonfire").iterdir() if p.is_dir())
    return Lakes(lake_of(find_logs([out / "logs"]), out / "lake"),
                 lake_of(find_logs([out / "logs/alley"]), out / "alley-lake"),
                 lake_of(find_logs([first]), out / "first-lake"), first.name)


def model(lake: Lake, name: str) -> pd.DataFrame:
    """A model of the suite over every match of the lake, as the page's default filters ask."""
    connection = lake.connect()
    try:
        return metrics.run_model(connection, name, game=GAME, format=None, date_from=None,
                                 date_to=None, min_sample=0)
    finally:
        connection.close()


def open_page(open_app: OpenApp, lake: Lake, page: str) -> AppTest:
    """The page with every row shown (minimum sample 0), as `model` runs the models."""
    at = open_app(lake.root, page)
    assert not at.exception, at.exception
    if at.number_input(key="scope_min_sample").value != 0:
        at.number_input(key="scope_min_sample").set_value(0).run()
        assert not at.exception, at.exception
    return at


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    """The page's table that has `column` (each table has one of its own)."""
    found = [d.value for d in at.dataframe if column in d.value.columns]
    assert len(found) == 1, [list(d.value.columns) for d in at.dataframe]
    return found[0].reset_index(drop=True)


def chart_rows(at: AppTest, column: str) -> pd.DataFrame:
    """The rows of the chart dataset that has `column`, as the page sent them to the browser."""
    for chart in at.get("vega_lite_chart"):
        for dataset in chart.proto.datasets:
            rows = pa.ipc.open_stream(dataset.data.data).read_pandas()
            if column in rows.columns:
                return rows.reset_index(drop=True)
    raise AssertionError(f"no chart has a {column!r} column")


def values(series: pd.Series) -> list[Any]:
    return [None if pd.isna(v) else v for v in series]


def assert_same(shown: pd.DataFrame, expected: pd.DataFrame, columns: list[str]) -> None:
    """Column for column, row for row: counts equal, rates to the last bit a double keeps."""
    assert len(shown) == len(expected)
    for column in columns:
        for got, want in zip(values(shown[column]), values(expected[column]), strict=True):
            if want is None:
                assert got is None, column
            elif isinstance(want, float):
                assert got == pytest.approx(want, rel=1e-12, abs=1e-12), column
            else:
                assert got == want, column


# The combat page ------------------------------------------------------------------------------

CHARACTER_COLUMNS = ["name", "sheet", "kind", "fights", "mirror_fights", "games", "wins",
                     "draws", "losses", "win_rate", "win_rate_low", "win_rate_high"]
PAIR_COLUMNS = ["build", "opponent_build", "is_mirror", "n", "wins", "losses", "draws",
                "win_rate", "win_rate_low", "win_rate_high"]
DAMAGE_COLUMNS = ["attack_kind", "attacks", "hits", "hit_rate", "hit_rate_low",
                  "hit_rate_high", "levels", "levels_per_attack", "levels_sd", "levels_per_hit",
                  "damage_per_hit", "soaked_per_hit"]
FALL_COLUMNS = ["name", "sheet", "kind", "fights", "fell", "fall_rate", "fall_rate_low",
                "fall_rate_high", "avg_fell_turn", "first_fell_turn", "last_fell_turn",
                "avg_turns_survived", "torpor", "died", "death_rate"]
FRENZY_COLUMNS = ["name", "sheet", "fights", "frenzy_triggered", "frenzied", "frenzy_rate",
                  "frenzy_rate_low", "frenzy_rate_high", "frenzy_when_triggered",
                  "rotschreck_triggered", "rotschrecked", "rotschreck_rate",
                  "rotschreck_when_triggered_high"]
SPEND_COLUMNS = ["name", "sheet", "kind", "pool", "fights", "spending_fights", "spending_rate",
                 "spending_rate_low", "spending_rate_high", "spends", "points",
                 "points_per_fight"]


def assert_combat_tables(at: AppTest, lake: Lake) -> None:
    """Each table of the combat page is its model's, row for row."""
    assert_same(table_with(at, "mirror_fights"), model(lake, "character_win_rates"),
                CHARACTER_COLUMNS)
    assert_same(table_with(at, "opponent_build"), model(lake, "build_matchups"), PAIR_COLUMNS)
    assert_same(table_with(at, "weapon_name"), model(lake, "damage_per_attack"), DAMAGE_COLUMNS)
    assert_same(table_with(at, "fell"), model(lake, "time_to_fall"), FALL_COLUMNS)
    assert_same(table_with(at, "frenzy_rate"), model(lake, "frenzy_rates"), FRENZY_COLUMNS)
    assert_same(table_with(at, "points_per_fight"), model(lake, "spends_per_fight"),
                SPEND_COLUMNS)


def test_combat_page_shows_every_models_numbers(open_app: OpenApp, v20_lakes: Lakes) -> None:
    at = open_page(open_app, v20_lakes.all, "combat")
    assert at.title[0].value == "Combat balance"
    coverage = model(v20_lakes.all, "coverage")
    shown = metric_values(at)
    assert shown["Fights"] == f"{int(coverage['matches'].sum()):,}"
    assert shown["Draws"] == f"{int(coverage['draws'].sum()):,}"
    assert shown["Character sheets"] == str(len(model(v20_lakes.all, "character_win_rates")))
    assert_combat_tables(at, v20_lakes.all)


def test_weapons_are_named_and_small_samples_marked(open_app: OpenApp,
                                                    v20_lakes: Lakes) -> None:
    at = open_page(open_app, v20_lakes.all, "combat")
    names = {w.id: w.name for w in load_catalog().weapons.values()}
    attacks = model(v20_lakes.all, "damage_per_attack")
    damage = table_with(at, "weapon_name")
    assert list(damage["weapon_name"]) == [names[w] for w in attacks["weapon"]]
    sheets = table_with(at, "mirror_fights")
    assert list(sheets["small_sample"]) == list(sheets["games"] < 20)
    at.number_input(key="v20_small").set_value(1000).run()
    assert table_with(at, "mirror_fights")["small_sample"].all()
    assert table_with(at, "weapon_name")["small_sample"].all()


def test_the_win_rate_chart_is_the_models(open_app: OpenApp, v20_lakes: Lakes) -> None:
    """One dot per sheet with games, on its Wilson interval; the heatmap has every pair, its
    fights and whether it is a mirror."""
    at = open_page(open_app, v20_lakes.all, "combat")
    sheets = model(v20_lakes.all, "character_win_rates")
    dots = chart_rows(at, "who")
    played = sheets[sheets["games"] > 0]
    drawn = dots[dots["series"] == "win rate"].set_index("who").loc[list(played["name"])]
    assert list(drawn["n"]) == list(played["games"])
    assert list(drawn["k"]) == list(played["wins"])
    assert list(drawn["rate"]) == pytest.approx(list(played["win_rate"]))
    assert list(drawn["low"]) == pytest.approx(list(played["win_rate_low"]))
    assert list(drawn["high"]) == pytest.approx(list(played["win_rate_high"]))
    pairs = model(v20_lakes.all, "build_matchups")
    cells = chart_rows(at, "opponent_build")
    assert_same(cells, pairs, ["build", "opponent_build", "is_mirror", "n", "win_rate"])
    assert all(label.startswith("mirror") for label in cells.loc[cells["is_mirror"], "label"])


def test_a_scenario_shows_the_numbers_of_its_matches_alone(open_app: OpenApp,
                                                           v20_lakes: Lakes) -> None:
    at = open_page(open_app, v20_lakes.all, "combat")
    at.selectbox(key="v20_scenario").set_value("alley").run()
    assert not at.exception
    assert "scenario alley" in at.caption[0].value
    alley = model(v20_lakes.alley, "coverage")
    assert metric_values(at)["Fights"] == f"{int(alley['matches'].sum()):,}"
    assert_combat_tables(at, v20_lakes.alley)


def test_a_tournament_shows_the_numbers_of_its_matches_alone(open_app: OpenApp,
                                                             v20_lakes: Lakes) -> None:
    at = open_page(open_app, v20_lakes.all, "combat")
    at.selectbox(key="v20_tournament").set_value(v20_lakes.tournament).run()
    assert not at.exception
    first = model(v20_lakes.first_tournament, "coverage")
    assert metric_values(at)["Fights"] == f"{int(first['matches'].sum()):,}"
    assert_combat_tables(at, v20_lakes.first_tournament)


# The dice fairness page -----------------------------------------------------------------------

CELL_COLUMNS = ["kind", "pool", "difficulty", "specialty", "auto", "can_botch", "rolls",
                "chi2", "df", "p_value", "p_bonferroni", "loaded", "mean_observed",
                "mean_expected", "note"]


def expected_headline(audit: pd.DataFrame) -> str:
    cells = audit[audit["scope"] == "cell"]
    loaded = int(cells["loaded"].sum())
    if loaded == 0:
        return "No cell looks loaded"
    return f"{loaded} cell looks loaded" if loaded == 1 else f"{loaded} cells look loaded"


def listing(text: str) -> dict[int, float]:
    """The audit's "botch: 3, 0: 41.2, 1: 60" as numbers per outcome."""
    return {BOTCH if key == "botch" else int(key): float(count)
            for key, count in re.findall(r"(botch|\d+): ([\d.]+)", text)}


def test_dice_page_headline_and_cells_are_the_audits(open_app: OpenApp,
                                                     v20_lakes: Lakes) -> None:
    at = open_page(open_app, v20_lakes.all, "dice_audit")
    assert at.title[0].value == "Dice fairness"
    audit = model(v20_lakes.all, "dice_fairness")
    cells = audit[audit["scope"] == "cell"].reset_index(drop=True)
    kinds = audit[audit["scope"] == "kind"].reset_index(drop=True)
    assert not audit.empty and not audit["loaded"].any()
    assert at.success[0].value.startswith(expected_headline(audit) + ".")
    assert not at.error
    assert_same(table_with(at, "specialty"), cells, CELL_COLUMNS)
    shown = metric_values(at)
    assert shown["Rolls audited"] == f"{int(cells['rolls'].sum()):,}"
    assert shown["Cells tested"] == str(int(cells["p_value"].notna().sum()))
    assert shown["Loaded cells"] == "0"
    tested = int(cells["p_value"].notna().sum()) + len(kinds)
    assert f"multiplied by those {tested} tests" in at.success[0].value


def test_the_kinds_table_is_the_audits(open_app: OpenApp, v20_lakes: Lakes) -> None:
    at = open_page(open_app, v20_lakes.all, "dice_audit")
    audit = model(v20_lakes.all, "dice_fairness")
    kinds = audit[audit["scope"] == "kind"].reset_index(drop=True)
    shown = [d.value for d in at.dataframe if "specialty" not in d.value.columns]
    assert len(shown) == 1
    assert_same(shown[0].reset_index(drop=True), kinds,
                ["kind", "rolls", "chi2", "df", "p_value", "p_bonferroni", "loaded", "note"])


def assert_cell_chart(at: AppTest, cell: pd.Series) -> None:
    """The chart of a cell: the counts the audit observed, and its rolls times the exact law
    (engine.v20.dice; an initiative die's ten faces alike), which the audit's expected listing
    rounds."""
    rows = chart_rows(at, "series")
    seen = rows[rows["series"] == "observed"].set_index("order")["rolls"]
    wanted = rows[rows["series"] == "expected (fair dice)"].set_index("order")["rolls"]
    assert seen.to_dict() == listing(str(cell["observed"]))
    if cell["kind"] == "initiative":
        law = {face: 0.1 for face in range(1, 11)}
    else:
        law = {k: float(p) for k, p in distribution(
            int(cell["pool"]), int(cell["difficulty"]), specialty=bool(cell["specialty"]),
            auto=int(cell["auto"]), can_botch=bool(cell["can_botch"])).items()}
    assert wanted.to_dict() == pytest.approx({k: cell["rolls"] * p for k, p in law.items()})
    for outcome, count in listing(str(cell["expected"])).items():
        assert wanted[outcome] == pytest.approx(count, abs=0.05)


def test_a_cells_chart_is_its_outcomes_observed_and_expected(open_app: OpenApp,
                                                             v20_lakes: Lakes) -> None:
    """The page opens on the cell with the lowest p-value; any other can be picked."""
    at = open_page(open_app, v20_lakes.all, "dice_audit")
    audit = model(v20_lakes.all, "dice_fairness")
    cells = audit[audit["scope"] == "cell"].reset_index(drop=True)
    lowest = cells.loc[cells["p_value"].astype(float).idxmin()]
    box = at.selectbox(key="dice_audit_cell")
    chosen = str(box.value)
    assert f"{lowest['rolls']} rolls" in chosen and f"p {lowest['p_value']:.3g}" in chosen
    assert_cell_chart(at, lowest)
    initiative = cells.index[cells["kind"] == "initiative"][0]
    box.set_value(box.options[initiative]).run()
    assert not at.exception
    assert_cell_chart(at, cells.loc[initiative])


@pytest.fixture
def strict_audit(monkeypatch: pytest.MonkeyPatch) -> Iterator[float]:
    """An audit whose `loaded` level is above every Bonferroni p (at most 1), so every tested
    cell and kind is flagged: the page's other headline, on the same lake. The cached answers
    of the usual level are dropped before and after."""
    data.combat_model.clear()
    monkeypatch.setattr(dice_audit, "ALPHA", 1.5)
    yield 1.5
    data.combat_model.clear()


def test_a_loaded_audit_says_how_many_cells(open_app: OpenApp, v20_lakes: Lakes,
                                            strict_audit: float) -> None:
    at = open_page(open_app, v20_lakes.all, "dice_audit")
    audit = model(v20_lakes.all, "dice_fairness")
    cells = audit[audit["scope"] == "cell"]
    kinds = audit[audit["scope"] == "kind"]
    loaded = int(cells["loaded"].sum())
    assert loaded == int(cells["p_value"].notna().sum()) > 1
    assert not at.success
    headline = at.error[0].value
    assert headline.startswith(expected_headline(audit) + ", and the ")
    assert all(str(kind) in headline for kind in kinds["kind"])
    assert metric_values(at)["Loaded cells"] == str(loaded)
    assert table_with(at, "specialty")["loaded"].all()


# Which games list the pages -------------------------------------------------------------------

def titles(game: str) -> dict[str, list[str]]:
    return {section: [spec.title for spec in specs]
            for section, specs in pages_for(game).items()}


def test_only_v20_lists_the_pages() -> None:
    assert "Combat balance" in titles(GAME)["Balance"]
    assert "Dice fairness" in titles(GAME)["Rules"]
    for game in ("vitorian", "eredan"):
        listed = [title for section in titles(game).values() for title in section]
        assert "Combat balance" not in listed and "Dice fairness" not in listed


def test_a_lake_without_v20_matches_has_no_such_pages(open_app: OpenApp,
                                                      season_logs: list[Path],
                                                      tmp_path: Path) -> None:
    lake = lake_of(season_logs, tmp_path / "lake")
    at = open_app(lake.root)
    assert not at.exception and at.title[0].value == "Replay"
    for page in ("combat", "dice_audit"):
        with pytest.raises(ValueError, match="Could not find a navigation page"):
            at.switch_page(f"app_pages/{page}.py")
