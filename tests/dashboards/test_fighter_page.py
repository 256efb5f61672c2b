"""The V20 character and build page (dashboards/app_pages/fighter.py) run with Streamlit's
AppTest on a lake of simulated V20 fights (a bonfire sweep and an alley ambush): its headline
figures, matchups and damage figures are the counts this file makes from the lake tables with
its own DuckDB connection (and those of the combat models where they count the same thing);
every fight is listed with a link to its replay as its side saw it; an unknown id in the
address is said and the page still shows one; the combat page links here."""
from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import duckdb
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint
from streamlit.testing.v1 import AppTest

from dashboards.data import LAKE_ENV
from dashboards.pages import pages_for
from engine.games import get_game
from engine.narration import narration_for
from engine.tournament import SeasonConfig, run_season
from engine.v20.catalog import load_catalog
from events.jsonl import load_log
from pipeline import metrics
from pipeline.ingest import find_logs
from pipeline.lake import Lake
from tests.dashboards.conftest import APP, TIMEOUT_S, lake_of, metric_values, texts

GAME = "v20"
BUILDS = Path(__file__).resolve().parents[2] / "data" / "v20" / "builds.toml"
TITLES = {key: build["title"]
          for key, build in tomllib.loads(BUILDS.read_text("utf-8"))["builds"].items()}
"""builds.toml id -> title, the build's name as the lake stores it (seats.setup_name)."""
NAMES = {sheet: character.name for sheet, character in load_catalog().characters.items()}
KINDS = ("bashing", "lethal", "aggravated")
Open = Callable[..., AppTest]


@dataclass(frozen=True)
class FightLake:
    lake: Lake
    alley: Lake


@pytest.fixture(scope="session")
def fight_lake(tmp_path_factory: pytest.TempPathFactory) -> FightLake:
    """`postgame simulate v20 --matches 2 --seed 11` (every pairing of builds twice, mirrors
    included) and `postgame simulate v20 --scenario alley --matches 3 --seed 12`, ingested
    together, and the alley's alone."""
    out = tmp_path_factory.mktemp("v20-fighter")
    run_season(SeasonConfig(game=GAME, players=2, rounds=2, seed=11, out=out / "logs/bonfire"))
    run_season(SeasonConfig(game=GAME, players=2, rounds=3, seed=12, out=out / "logs/alley",
                            start=date(2025, 11, 20),
                            scenario=get_game(GAME).scenario("alley")))
    return FightLake(lake_of(find_logs([out / "logs"]), out / "lake"),
                     lake_of(find_logs([out / "logs/alley"]), out / "alley-lake"))


@pytest.fixture
def con(fight_lake: FightLake) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = fight_lake.lake.connect()
    yield connection
    connection.close()


@pytest.fixture
def open_fighter(monkeypatch: pytest.MonkeyPatch) -> Open:
    """open_fighter(lake, character=ID | build=ID | nothing): the page opened at that
    address, as a link to it opens it."""
    def open_(lake: Lake, **query: str) -> AppTest:
        monkeypatch.setenv(LAKE_ENV, str(lake.root))
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
        at.query_params["game"] = GAME
        for key, value in query.items():
            at.query_params[key] = value
        at.switch_page("app_pages/fighter.py")
        at.run()
        assert not at.exception, at.exception
        return at
    return open_


# Counting from the lake -------------------------------------------------------------------------

def side_fights(con: duckdb.DuckDBPyConnection, what: str, value: str) -> pd.DataFrame:
    """The side-fights of a sheet (one per character row) or of a build (one per seat that
    played it), with their result and whether the sheet (build) is on the other side too."""
    if what == "character":
        return con.execute("""
            SELECT c.match_id, CAST(c.seat AS INTEGER) AS seat, c.character AS unit,
                   s.result, c.gone AS fled, CAST(c.fell_turn AS INTEGER) AS fell_turn,
                   count(DISTINCT c.seat) OVER (PARTITION BY c.match_id) > 1 AS mirror
            FROM v20_characters AS c
            JOIN seats AS s ON s.match_id = c.match_id AND s.seat = c.seat
            WHERE c.sheet = ?""", [value]).df()
    return con.execute("""
        SELECT s.match_id, CAST(s.seat AS INTEGER) AS seat, CAST(s.seat AS VARCHAR) AS unit,
               s.result,
               (SELECT bool_or(c.gone) FROM v20_characters AS c
                WHERE c.match_id = s.match_id AND c.seat = s.seat) AS fled,
               (SELECT CASE WHEN count(c.fell_turn) = count(*) THEN max(c.fell_turn) END
                FROM v20_characters AS c
                WHERE c.match_id = s.match_id AND c.seat = s.seat) AS fell_turn,
               count(*) OVER (PARTITION BY s.match_id) > 1 AS mirror
        FROM seats AS s WHERE s.setup_name = ?""", [value]).df()


def characters_of(what: str, value: str) -> str:
    """SQL condition on v20_characters AS c: the character is the sheet's, or the build's."""
    if what == "character":
        return "c.sheet = $value"
    return ("EXISTS (SELECT 1 FROM seats AS s WHERE s.match_id = c.match_id AND s.seat = c.seat "
            "AND s.setup_name = $value)")


def said(at: AppTest) -> list[str]:
    """What the page says about its address (a small sample has a warning of its own)."""
    return [w.value for w in at.warning if "address" in w.value]


def wilson_text(k: int, n: int) -> tuple[str, str]:
    low, high = proportion_confint(k, n, method="wilson")
    return f"{k / n:.1%}", f"95%: {low:.0%}–{high:.0%}"


def table_with(at: AppTest, column: str, without: str | None = None) -> pd.DataFrame:
    found = [d.value for d in at.dataframe
             if column in d.value.columns and (without is None or without not in d.value.columns)]
    assert len(found) == 1, [list(d.value.columns) for d in at.dataframe]
    return found[0].reset_index(drop=True)


def a_sweep_sheet(con: duckdb.DuckDBPyConnection) -> str:
    """A sheet of the sweep (so it fought mirrors too), the first by id."""
    return str(con.execute("""
        SELECT c.sheet FROM v20_characters AS c
        JOIN matches AS m ON m.match_id = c.match_id AND m.scenario = 'bonfire'
        GROUP BY c.sheet ORDER BY c.sheet LIMIT 1""").fetchone()[0])  # type: ignore[index]


# Headline ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("what", ["character", "build"])
def test_the_headline_figures_are_the_lakes(open_fighter: Open, fight_lake: FightLake,
                                            con: duckdb.DuckDBPyConnection, what: str) -> None:
    fid = a_sweep_sheet(con) if what == "character" else "elders"
    value = fid if what == "character" else TITLES[fid]
    at = open_fighter(fight_lake.lake, **{what: fid})
    assert at.header[0].value == (NAMES[fid] if what == "character" else TITLES[fid])
    fights = side_fights(con, what, value)
    games = fights[~fights["mirror"]]
    assert fights["mirror"].any() and len(games) > 0
    wins, draws = int((games["result"] == "win").sum()), int((games["result"] == "draw").sum())
    shown = {m.label: m for m in at.metric}
    assert shown["Fights"].value == f"{len(fights):,}"
    assert shown["Fights"].delta == f"{int(fights['mirror'].sum()):,} mirror fights"
    rate, interval = wilson_text(wins, len(games))
    assert shown["Win rate"].value == rate
    assert shown["Win rate"].delta == f"{interval} · {len(games):,} games"
    assert shown["Draws"].value == f"{draws:,}"
    assert shown["Fled"].value == f"{int(fights['fled'].sum()):,}"
    fell = fights["fell_turn"].dropna()
    assert shown["Average turn fallen"].value == f"{fell.mean():.2f}"
    assert shown["Average turn fallen"].delta == f"fell in {len(fell)} of {len(fights)}"
    assert "Conceded" not in shown  # no fight of this lake was conceded
    if what == "character":  # the combat page's numbers, by the models of the suite
        sheet = metrics.run_model(con, "character_win_rates", game=GAME, format=None,
                                  date_from=None, date_to=None, min_sample=0).set_index("sheet")
        assert (sheet.loc[fid, "fights"], sheet.loc[fid, "games"], sheet.loc[fid, "wins"],
                sheet.loc[fid, "draws"]) == (len(fights), len(games), wins, draws)
        fall = metrics.run_model(con, "time_to_fall", game=GAME, format=None, date_from=None,
                                 date_to=None, min_sample=0).set_index("sheet")
        assert shown["Average turn fallen"].value == f"{fall.loc[fid, 'avg_fell_turn']:.2f}"


# Fights -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("what", ["character", "build"])
def test_every_fight_is_listed_with_its_replay_link(open_fighter: Open, fight_lake: FightLake,
                                                    con: duckdb.DuckDBPyConnection,
                                                    what: str) -> None:
    fid = a_sweep_sheet(con) if what == "character" else "brawlers"
    value = fid if what == "character" else TITLES[fid]
    at = open_fighter(fight_lake.lake, **{what: fid})
    listed = table_with(at, "replay")
    expected = side_fights(con, what, value)
    links = [parse_qs(urlsplit(link).query) for link in listed["replay"]]
    assert all(urlsplit(link).path == "./" for link in listed["replay"])
    assert all(q["game"] == [GAME] and "step" not in q for q in links)
    seen = sorted((q["match"][0], int(q["as"][0])) for q in links)
    assert seen == sorted(zip(expected["match_id"], expected["seat"]))
    results = dict(zip(zip(expected["match_id"], expected["seat"]), expected["result"]))
    assert [results[(q["match"][0], int(q["as"][0]))] for q in links] == list(listed["result"])
    sides = dict(con.execute("SELECT match_id || '/' || seat, side FROM seats").fetchall())
    assert [sides[f"{q['match'][0]}/{q['as'][0]}"] for q in links] == list(listed["side"])
    # the perspective is one the Replay page lists for that match: the side's seat
    paths = dict(con.execute("SELECT match_id, log_path FROM matches").fetchall())
    for q in links[:4]:
        header = load_log(paths[q["match"][0]]).header
        offered = {str(p): label for p, label in narration_for(GAME).perspectives(header)}
        assert offered[q["as"][0]].startswith(f"Side {sides[q['match'][0] + '/' + q['as'][0]]}")


def test_a_fights_link_opens_the_replay_as_that_side(open_fighter: Open, fight_lake: FightLake,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_fighter(fight_lake.lake, build="hunters")
    listed = table_with(at, "replay")
    link = next(link for link in listed["replay"] if "as=1" in link)
    query = {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()}
    replay = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    for key, value in query.items():
        replay.query_params[key] = value
    replay.run()
    assert not replay.exception and not replay.warning
    assert replay.title[0].value == "Replay"
    assert replay.session_state["replay_match_pick"] == query["match"]
    assert replay.session_state["replay_perspective"] == 1


# The address ------------------------------------------------------------------------------------

@pytest.mark.parametrize("what", ["character", "build"])
def test_an_unknown_id_is_said_and_a_page_still_shown(open_fighter: Open, fight_lake: FightLake,
                                                      what: str) -> None:
    at = open_fighter(fight_lake.lake, **{what: "nobody_at_all"})
    warned = " ".join(w.value for w in at.warning)
    assert f"names the {what} nobody\\_at\\_all" in warned and "showing" in warned
    shown = at.header[0].value
    assert shown in (NAMES.values() if what == "character" else TITLES.values())
    assert f"showing {shown}" in warned
    assert at.segmented_control(key="fighter_kind").value == what
    assert at.query_params[what] != "nobody_at_all" and table_with(at, "replay").shape[0] > 0
    at.run()  # the address now names the page shown: nothing more to say
    assert not said(at)
    assert at.header[0].value == shown


def test_the_address_follows_the_page(open_fighter: Open, fight_lake: FightLake) -> None:
    at = open_fighter(fight_lake.lake, character="marcus")
    assert at.header[0].value == NAMES["marcus"]
    at.segmented_control(key="fighter_kind").set_value("build").run()
    assert "character" not in at.query_params and at.query_params["build"] in TITLES
    at.selectbox(key="fighter_build").set_value("wolves").run()
    assert at.header[0].value == TITLES["wolves"] and at.query_params["build"] == "wolves"
    assert not at.exception


# Matchups ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("what", ["character", "build"])
def test_the_matchups_add_up_to_the_fights(open_fighter: Open, fight_lake: FightLake,
                                           con: duckdb.DuckDBPyConnection, what: str) -> None:
    fid = a_sweep_sheet(con) if what == "character" else "wolves"
    value = fid if what == "character" else TITLES[fid]
    at = open_fighter(fight_lake.lake, **{what: fid})
    builds = table_with(at, "win_rate", without="opponent")
    assert int(builds["fights"].sum()) == int(metric_values(at)["Fights"].replace(",", ""))
    fights = side_fights(con, what, value)
    opposing = dict(con.execute("SELECT match_id || '/' || seat, setup_name FROM seats")
                    .fetchall())
    fights["against"] = [opposing[f"{m}/{1 - s}"] for m, s in
                         zip(fights["match_id"], fights["seat"])]
    for _, row in builds.iterrows():
        mine = fights[(fights["against"] == row["name"]) & (fights["mirror"] == row["mirror"])]
        assert row["fights"] == len(mine)
        assert row["draws"] == int((mine["result"] == "draw").sum())
        if row["mirror"]:
            assert pd.isna(row["wins"]) and pd.isna(row["win_rate"])
            continue
        wins = int((mine["result"] == "win").sum())
        low, high = proportion_confint(wins, len(mine), method="wilson")
        assert (row["wins"], row["losses"]) == (wins, int((mine["result"] == "loss").sum()))
        assert row["win_rate"] == pytest.approx(wins / len(mine))
        assert (row["win_rate_low"], row["win_rate_high"]) == pytest.approx((low, high))
    assert all(link.startswith("./fighter?game=v20&build=") for link in builds["page"])
    if what == "build":  # the combat page's pairs, by the build_matchups model
        pairs = metrics.run_model(con, "build_matchups", game=GAME, format=None, date_from=None,
                                  date_to=None, min_sample=0)
        pairs = pairs[(pairs["build"] == value) & ~pairs["is_mirror"]].set_index(
            "opponent_build")
        rated = builds[~builds["mirror"]].set_index("name")
        assert sorted(rated.index) == sorted(pairs.index)
        for opponent, row in rated.iterrows():
            assert (row["fights"], row["wins"], row["draws"], row["losses"]) == tuple(
                pairs.loc[opponent, ["n", "wins", "draws", "losses"]])
    sheets = table_with(at, "opponent")
    mine = ("v20_characters AS c" if what == "character" else "seats AS c") + (
        " JOIN v20_characters AS o ON o.match_id = c.match_id AND o.seat <> c.seat WHERE "
        + ("c.sheet = ?" if what == "character" else "c.setup_name = ?"))
    met = con.execute(f"SELECT count(*) FROM {mine}", [value]).fetchone()
    assert met is not None and int(sheets["fights"].sum()) == met[0]  # a fight per opponent
    assert set(sheets["name"]) == {NAMES[s] for s in sheets["opponent"]}


# Damage -----------------------------------------------------------------------------------------

def attack_counts(con: duckdb.DuckDBPyConnection, what: str, value: str,
                  role: str) -> tuple[int, int]:
    """The attack rolls by the character(s) (role 'character') or at them ('opponent'), and
    their hits."""
    found = con.execute(f"""
        SELECT count(*), count(*) FILTER (WHERE r.attack_result = 'hit')
        FROM v20_rolls AS r JOIN v20_characters AS c
          ON c.match_id = r.match_id AND c.character = r.{role}
        WHERE r.purpose = 'attack' AND """ + characters_of(what, value),
                        {"value": value}).fetchone()
    assert found is not None
    return int(found[0]), int(found[1])


@pytest.mark.parametrize("what", ["character", "build"])
def test_the_damage_figures_are_the_lakes(open_fighter: Open, fight_lake: FightLake,
                                          con: duckdb.DuckDBPyConnection, what: str) -> None:
    fid = "aurelian" if what == "character" else "hunters"
    value = fid if what == "character" else TITLES[fid]
    at = open_fighter(fight_lake.lake, **{what: fid})
    fights = len(side_fights(con, what, value))
    attacks, hits = attack_counts(con, what, value, "character")
    against, struck = attack_counts(con, what, value, "opponent")
    shown = {m.label: m for m in at.metric}
    rate, interval = wilson_text(hits, attacks)
    assert (shown["Hit rate"].value, shown["Hit rate"].delta) == (
        rate, f"{interval} · {attacks:,} attacks")
    rate, interval = wilson_text(struck, against)
    assert (shown["Hit rate against it"].value, shown["Hit rate against it"].delta) == (
        rate, f"{interval} · {against:,} attacks")
    kinds = table_with(at, "dealt_per_fight").set_index("kind")
    assert list(kinds.index) == [*KINDS, "all"]
    for direction, role, per in (("dealt", "attacker", attacks), ("taken", "target", against)):
        levels = {kind: (int(total), int(by_attacks)) for kind, total, by_attacks in con.execute(
            f"""SELECT d.damage_type, sum(d.levels),
                       coalesce(sum(d.levels) FILTER (WHERE d.stage <> 'counter'), 0)
                FROM v20_damage AS d JOIN v20_characters AS c
                  ON c.match_id = d.match_id AND c.character = d.{role}
                WHERE """ + characters_of(what, value) + " GROUP BY d.damage_type",
            {"value": value}).fetchall()}
        levels["all"] = (sum(t for t, _ in levels.values()), sum(a for _, a in levels.values()))
        for kind, row in kinds.iterrows():
            total, by_attacks = levels.get(str(kind), (0, 0))
            assert row[direction] == total, (direction, kind)
            assert row[f"{direction}_per_fight"] == pytest.approx(total / fights)
            assert row[f"{direction}_per_attack"] == pytest.approx(by_attacks / per)
    assert shown["Levels dealt per fight"].value == f"{kinds.loc['all', 'dealt'] / fights:.2f}"
    weapons = table_with(at, "weapon_name")
    names = {w.id: w.name for w in load_catalog().weapons.values()}
    assert list(weapons["weapon_name"]) == [names[w] for w in weapons["weapon"]]
    assert int(weapons["attacks"].sum()) == attacks and int(weapons["hits"].sum()) == hits


# Scope, names and links -------------------------------------------------------------------------

def test_a_scenario_narrows_the_page_to_its_fights(open_fighter: Open, fight_lake: FightLake
                                                   ) -> None:
    """Ilse fights in the sweep's brawlers and in the alley's coterie: with the alley picked,
    her page counts the alley's fights alone, as on a lake of only those."""
    at = open_fighter(fight_lake.lake, character="ilse")
    everywhere = len(table_with(at, "replay"))
    at.selectbox(key="v20_scenario").set_value("alley").run()
    assert not at.exception and "scenario alley" in at.caption[0].value
    alone = fight_lake.alley.connect()
    try:
        expected = side_fights(alone, "character", "ilse")
    finally:
        alone.close()
    listed = table_with(at, "replay")
    assert 0 < len(listed) == len(expected) < everywhere
    assert metric_values(at)["Fights"] == f"{len(expected):,}"
    assert sorted(parse_qs(urlsplit(link).query)["match"][0] for link in listed["replay"]) == \
        sorted(expected["match_id"])


def test_a_scenarios_own_party_is_a_build_by_its_name(open_fighter: Open, fight_lake: FightLake,
                                                      con: duckdb.DuckDBPyConnection) -> None:
    party = str(con.execute("SELECT min(setup_name) FROM seats JOIN matches USING (match_id) "
                            "WHERE scenario = 'alley'").fetchone()[0])  # type: ignore[index]
    assert party not in TITLES.values()
    at = open_fighter(fight_lake.lake, build=party)
    assert not said(at) and at.header[0].value == party
    assert len(table_with(at, "replay")) == len(side_fights(con, "build", party))


def test_names_are_the_games_not_ids(open_fighter: Open, fight_lake: FightLake) -> None:
    at = open_fighter(fight_lake.lake, build="brawlers")
    listed = table_with(at, "replay")
    assert set(listed["characters"]) == {f"{NAMES['ilse']}, {NAMES['marcus']}"}
    assert set(listed["opponent_build"]) <= set(TITLES.values())
    options = at.selectbox(key="fighter_build").options
    assert all(any(o.startswith(title) for o in options) for title in TITLES.values())
    assert "marcus" not in texts(at).replace("Character sheet marcus", "")


def test_the_combat_page_links_to_each_character_and_build(open_fighter: Open,
                                                           fight_lake: FightLake,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setenv(LAKE_ENV, str(fight_lake.lake.root))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.switch_page("app_pages/combat.py").run()
    at.number_input(key="scope_min_sample").set_value(0).run()  # every sheet and pair
    assert not at.exception
    sheets = next(d.value for d in at.dataframe if "mirror_fights" in d.value.columns)
    assert list(sheets["page"]) == [f"./fighter?game=v20&character={s}" for s in sheets["sheet"]]
    pairs = next(d.value for d in at.dataframe if "opponent_build" in d.value.columns)
    ids = {title: key for key, title in TITLES.items()}
    assert list(pairs["page"]) == [
        "./fighter?" + ("game=v20&build=" + ids[b] if b in ids else
                        f"game=v20&build={b.replace(' ', '+')}") for b in pairs["build"]]
    link = parse_qs(urlsplit(str(pairs["page"].iloc[0])).query)
    page = open_fighter(fight_lake.lake, build=link["build"][0])
    assert not said(page) and page.header[0].value == pairs["build"].iloc[0]


def test_only_v20_lists_the_page() -> None:
    def titles(game: str) -> list[str]:
        return [spec.title for specs in pages_for(game).values() for spec in specs]

    assert "Character or build" in [spec.title for spec in pages_for(GAME)["Balance"]]
    for game in ("vitorian", "eredan"):
        assert "Character or build" not in titles(game)
