"""Every page of the app run with Streamlit's AppTest on the fixture lake: it renders without an
exception and shows the numbers the lake holds (computed here with plain SQL, apart from the
app's own queries). The browser tests (test_browser.py) cover what only a browser can do."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import widgets
from dashboards.widgets import plain
from pipeline.lake import Lake
from tests.dashboards.conftest import metric_values, shown, texts

DECKS = Path(__file__).resolve().parents[2] / "data" / "vitorian" / "decks"
OpenApp = Callable[..., AppTest]


def row(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> tuple[Any, ...]:
    found = con.execute(sql, list(params)).fetchone()
    assert found is not None, sql
    return found


def one(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> Any:
    return row(con, sql, *params)[0]


def first_match(con: duckdb.DuckDBPyConnection) -> tuple[str, int]:
    """The match the Replay page opens on: the earliest, as the match list orders them."""
    match_id, events = row(con, "SELECT match_id, events FROM matches ORDER BY started_at, "
                                "tournament, round, table_no, match_id LIMIT 1")
    return str(match_id), int(events)


def board(at: AppTest) -> str:
    return next(m.value for m in at.markdown if "postgame-board" in m.value)


def step_line(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Step "))


# Replay -----------------------------------------------------------------------------------

def test_replay_opens_on_the_first_match_at_setup(open_app: OpenApp, fixture_lake: Lake,
                                                  lake_con: duckdb.DuckDBPyConnection) -> None:
    at = open_app(fixture_lake.root)
    match_id, events = first_match(lake_con)
    assert not at.exception
    assert at.title[0].value == "Replay"
    assert step_line(at).startswith(f"**Step 0/{events} · turn 0** · setup")
    assert board(at).count("<svg") == 1
    assert plain(match_id) in at.caption[0].value  # escaped: the log wrote it
    matches = one(lake_con, "SELECT count(*) FROM matches")
    assert f"{matches} match(es)" in texts(at)


def test_replay_controls_move_through_the_match(open_app: OpenApp, fixture_lake: Lake,
                                                lake_con: duckdb.DuckDBPyConnection) -> None:
    at = open_app(fixture_lake.root)
    _, events = first_match(lake_con)
    at.button(key="replay_next").click().run()
    assert step_line(at).startswith(f"**Step 1/{events}")
    at.button(key="replay_last").click().run()
    assert step_line(at).startswith(f"**Step {events}/{events}")
    assert at.success and at.success[0].value.startswith("End: ")
    at.button(key="replay_previous").click().run()
    assert step_line(at).startswith(f"**Step {events - 1}/{events}")
    at.slider(key="replay_step").set_value(7).run()
    assert step_line(at).startswith(f"**Step 7/{events}")
    at.button(key="replay_first").click().run()
    assert step_line(at).startswith(f"**Step 0/{events}")
    assert not at.exception


def test_replay_jumps_to_a_turn(open_app: OpenApp, fixture_lake: Lake) -> None:
    at = open_app(fixture_lake.root)
    turns = at.selectbox(key="replay_turn").options
    assert len(turns) > 3
    at.selectbox(key="replay_turn").set_value(3).run()
    assert "· turn 3**" in step_line(at)
    assert at.selectbox(key="replay_turn").value == 3


def test_replay_as_a_seat_hides_the_other_hand(open_app: OpenApp, fixture_lake: Lake) -> None:
    at = open_app(fixture_lake.root)
    at.slider(key="replay_step").set_value(20).run()
    organiser = board(at)
    at.button_group(key="replay_perspective").set_value(0).run()
    seat0 = board(at)
    at.button_group(key="replay_perspective").set_value("spectator").run()
    spectator = board(at)
    assert "seen as seat 0" in seat0 and "seen as spectator" in spectator
    assert organiser.count('class="card-back"') == 0
    assert seat0.count('class="card-back"') > 0
    assert spectator.count('class="card-face"') == 0
    changes = [str(words) for d in at.dataframe if "changes" in d.value
               for words in d.value["changes"]]
    assert any("draws a card" in words for words in changes)  # a hidden draw, unnamed
    assert not at.exception


def test_replay_filters_find_matches_by_player_and_card(open_app: OpenApp, fixture_lake: Lake,
                                                        lake_con: duckdb.DuckDBPyConnection
                                                        ) -> None:
    at = open_app(fixture_lake.root)
    player = at.selectbox(key="replay_player").options[2]
    at.selectbox(key="replay_player").set_value(player).run()
    played = one(lake_con, "SELECT count(DISTINCT match_id) FROM seats WHERE player = ?", player)
    assert f"{played} match(es)" in texts(at)
    assert all(player in label for label in at.selectbox(key="replay_match_pick").options)
    card = one(lake_con, "SELECT card FROM card_events WHERE kind = 'played' "
                         "GROUP BY card ORDER BY count(*) DESC, card LIMIT 1")
    at.selectbox(key="replay_player").set_value(None)
    at.selectbox(key="replay_card").set_value(card).run()
    with_card = one(lake_con, "SELECT count(DISTINCT match_id) FROM card_events "
                              "WHERE kind = 'played' AND card = ?", card)
    assert f"{with_card} match(es)" in texts(at)
    assert not at.exception


def test_replay_opens_the_match_named_in_the_address(open_app: OpenApp, fixture_lake: Lake,
                                                     lake_con: duckdb.DuckDBPyConnection,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, events = row(lake_con,
                           "SELECT match_id, events FROM matches ORDER BY match_id DESC LIMIT 1")
    monkeypatch.setenv("POSTGAME_LAKE", str(fixture_lake.root))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py"),
                           default_timeout=120)
    at.query_params["match"] = match_id
    at.run()
    assert plain(match_id) in at.caption[0].value  # escaped: the log wrote it
    assert step_line(at).startswith(f"**Step 0/{events}")


def _linked(lake: Lake, monkeypatch: pytest.MonkeyPatch, **query: str) -> AppTest:
    monkeypatch.setenv("POSTGAME_LAKE", str(lake.root))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py"),
                           default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def test_an_address_opens_the_match_at_its_step_and_perspective(
        fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """?match=ID&step=N&as=SEAT opens that moment, and the address follows the page: copying
    it shares where the person is."""
    match_id, events = row(lake_con,
                           "SELECT match_id, events FROM matches ORDER BY match_id DESC LIMIT 1")
    at = _linked(fixture_lake, monkeypatch, match=match_id, step="7", **{"as": "1"})
    assert step_line(at).startswith(f"**Step 7/{events}")
    assert "seen as seat 1" in board(at) and not at.warning
    at.slider(key="replay_step").set_value(9).run()
    assert (at.query_params["step"], at.query_params["as"]) == ("9", "1")


def test_an_address_naming_what_is_not_there_says_so(
        fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection,
        monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, events = row(lake_con, "SELECT match_id, events FROM matches LIMIT 1")
    at = _linked(fixture_lake, monkeypatch, match=match_id, step=str(events + 5),
                 **{"as": "seat 9"})
    said = shown(" ".join(w.value for w in at.warning))
    assert f"step {events + 5}, which this match does not have" in said
    assert "as seat 9, which this game does not list" in said
    assert step_line(at).startswith("**Step 0/")
    at = _linked(fixture_lake, monkeypatch, match="no-such-match")
    assert "No match no-such-match in this lake" in shown(" ".join(w.value for w in at.warning))


def test_winning_chances_are_made_on_demand_and_their_turning_points_jump(
        fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The line is the engine's for that perspective, drawn under the board; a turning point
    goes to its step."""
    from engine.chances import winning_chances
    from engine.games import get_game
    from events.jsonl import load_log

    match_id, path = row(lake_con, "SELECT match_id, log_path FROM matches "
                                   "ORDER BY match_id LIMIT 1")
    at = _linked(fixture_lake, monkeypatch, match=match_id, **{"as": "1"})
    assert "Estimate the winning chances" in [b.label for b in at.button]
    at.select_slider(key="chances_playouts").set_value(16).run()
    at.button(key="chances_go").click().run()
    assert not at.exception
    log = load_log(path)
    from engine.ruleset import get_ruleset

    want = winning_chances(get_ruleset(log.header.ruleset), log.header, log.events, 1,
                           determinize=get_game("vitorian").determinize, playouts=16, seed=0)
    chart = next(c for c in at.get("vega_lite_chart") if "chance of winning" in c.proto.spec)
    assert "chance of winning" in chart.proto.spec
    points = [b for b in at.button if (b.key or "").startswith("chances_point_")]
    assert [int(b.key.rsplit("_", 1)[1]) for b in points] == [
        step for step, _ in want.turning_points(seat=0)]
    points[0].click().run()
    assert step_line(at).startswith(f"**Step {want.turning_points(seat=0)[0][0]}/")
    assert "Seen as Seat 1" in texts(at)


# Card stats, matchups, charges --------------------------------------------------------------

def test_card_stats_shows_every_card_with_its_sample(open_app: OpenApp, fixture_lake: Lake,
                                                     lake_con: duckdb.DuckDBPyConnection) -> None:
    at = open_app(fixture_lake.root, "cards")
    assert not at.exception
    decks = one(lake_con, "SELECT count(*) FROM decks")
    cards = one(lake_con, "SELECT count(DISTINCT card) FROM deck_cards")
    assert metric_values(at)["Decks in scope"] == f"{decks:,}"
    assert metric_values(at)["Cards"] == f"{cards:,}"
    sample = at.number_input(key="scope_min_sample").value
    assert sample == widgets.DEFAULT_MIN_SAMPLE
    held = one(lake_con, "SELECT count(*) FROM (SELECT card FROM deck_cards GROUP BY card "
                         "HAVING count(*) >= ?)", sample)
    table = at.dataframe[0].value
    assert len(table) == held < cards
    assert f"{cards - held} of {cards} cards are held by fewer than {sample} decks" in texts(at)
    at.toggle(key="cards_faded").set_value(True).run()
    assert len(at.dataframe[0].value) == cards
    at.toggle(key="cards_intervals").set_value(True).run()
    table = at.dataframe[0].value
    for column in ("included", "win_rate_when_played", "win_rate_when_played_low",
                   "win_rate_when_played_high", "improvement_when_drawn", "drawn_games",
                   "win_rate_when_drawn_vs", "page"):
        assert column in table.columns
    assert all(link.startswith("./card?game=vitorian&card=") for link in table["page"])
    assert at.get("vega_lite_chart")


def test_card_stats_rank_by_an_interval_bound(open_app: OpenApp, fixture_lake: Lake) -> None:
    at = open_app(fixture_lake.root, "cards")
    at.number_input(key="scope_min_sample").set_value(0).run()
    at.selectbox(key="cards_rank").set_value("win_rate_when_drawn").run()
    at.radio(key="cards_bound").set_value("low bound").run()
    at.toggle(key="cards_intervals").set_value(True).run()
    lows = at.dataframe[0].value["win_rate_when_drawn_low"].dropna().tolist()
    assert lows and lows == sorted(lows, reverse=True)
    assert not at.exception


def test_card_stats_by_faction_counts_that_factions_decks(open_app: OpenApp, fixture_lake: Lake,
                                                          lake_con: duckdb.DuckDBPyConnection
                                                          ) -> None:
    at = open_app(fixture_lake.root, "cards")
    faction = at.selectbox(key="scope_faction").options[1]
    at.selectbox(key="scope_faction").set_value(faction).run()
    decks = one(lake_con, "SELECT count(*) FROM decks WHERE faction = ?", faction)
    assert metric_values(at)["Decks in scope"] == f"{decks:,}"
    assert f"{faction} decks only" in texts(at)
    at.number_input(key="scope_min_sample").set_value(decks + 1).run()
    assert "No card passes the minimum sample" in texts(at)
    assert not at.exception


def test_matchups_heatmap_and_pairs(open_app: OpenApp, fixture_lake: Lake,
                                    lake_con: duckdb.DuckDBPyConnection) -> None:
    at = open_app(fixture_lake.root, "matchups")
    assert not at.exception
    at.number_input(key="scope_min_sample").set_value(0).run()
    pairs = one(lake_con, "SELECT count(*) FROM (SELECT DISTINCT a.faction, b.faction FROM "
                          "decks a JOIN decks b ON a.match_id = b.match_id AND a.seat <> b.seat)")
    assert len(at.dataframe[0].value) == pairs
    assert at.get("vega_lite_chart")
    first_wins = one(lake_con, "SELECT avg(CASE WHEN result = 'win' THEN 1.0 ELSE 0 END) "
                               "FROM seats WHERE is_first")
    assert metric_values(at)["First player's win rate"] == f"{first_wins:.1%}"


def test_archetypes_are_the_clusters_with_their_matchups(open_app: OpenApp, fixture_lake: Lake,
                                                        lake_con: duckdb.DuckDBPyConnection
                                                        ) -> None:
    from pipeline import metrics

    at = open_app(fixture_lake.root, "archetypes")
    at.number_input(key="scope_min_sample").set_value(0).run()
    assert not at.exception
    want = metrics.run_model(lake_con, "archetype_win_rates", game="vitorian")
    table = at.dataframe[0].value
    assert list(table["archetype_name"]) == list(want["archetype_name"])
    assert list(table["win_rate"]) == pytest.approx(list(want["win_rate"]), nan_ok=True)
    assert len(at.get("vega_lite_chart")) == 2  # share chart and the matchup grid
    at.number_input(key="scope_min_sample").set_value(10_000).run()
    assert f"{len(want)} archetypes with fewer than 10000 decks" in texts(at)


def test_charges_table_history_movers_and_deck_check(open_app: OpenApp, fixture_lake: Lake,
                                                     lake_con: duckdb.DuckDBPyConnection) -> None:
    from pipeline.charges import charge_table

    at = open_app(fixture_lake.root, "charges")
    assert not at.exception
    expected = charge_table(lake_con, "vitorian", "standard")
    assert len(at.dataframe[0].value) == len(expected)
    assert list(at.dataframe[0].value["charge"]) == list(expected["charge"])
    assert at.get("vega_lite_chart")
    at.text_area(key="charges_deck_text").input((DECKS / "red.txt").read_text()).run()
    verdicts = [shown(e.value) for e in (*at.success, *at.error)]
    assert verdicts and ("is legal" in verdicts[0] or verdicts[0].startswith("CH-2.8"))
    assert "Deck charge" in metric_values(at)


def test_charges_deck_check_reports_a_bad_list(open_app: OpenApp, fixture_lake: Lake) -> None:
    at = open_app(fixture_lake.root, "charges")
    at.text_area(key="charges_deck_text").input("[Maneuver]\nfour Steel Grenadiers").run()
    assert at.error and "cannot be read" in at.error[0].value and ":2" in at.error[0].value
    assert not at.exception


# Export and data ----------------------------------------------------------------------------

def test_export_offers_every_report_form(open_app: OpenApp, fixture_lake: Lake,
                                         lake_con: duckdb.DuckDBPyConnection) -> None:
    at = open_app(fixture_lake.root, "export")
    assert not at.exception
    matches = one(lake_con, "SELECT count(*) FROM matches")
    assert metric_values(at)["Matches"] == str(matches)
    keys = {button.key for button in at.get("download_button")}
    assert keys == {"export_html", "export_xlsx", "export_csv", "export_parquet"}


def test_data_page_summarises_the_lake(open_app: OpenApp, fixture_lake: Lake,
                                       lake_con: duckdb.DuckDBPyConnection) -> None:
    at = open_app(fixture_lake.root, "lake")
    assert not at.exception
    matches, events = row(lake_con, "SELECT count(*), sum(events) FROM matches")
    shown = metric_values(at)
    assert shown["Matches"] == f"{matches:,}" and shown["Events"] == f"{events:,}"
    assert shown["Quarantined logs"] == "0"
    assert "No log was turned away" in texts(at)


# No lake ------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["unset", "missing", "empty", "damaged"])
def test_without_a_lake_the_app_says_how_to_fill_one(open_app: OpenApp, tmp_path: Path,
                                                     where: str) -> None:
    lake: Path | None = {"unset": None, "missing": tmp_path / "nowhere"}.get(where, tmp_path)
    if where == "damaged":
        (tmp_path / "manifest.json").write_text("{ not json")
    at = open_app(lake)
    assert not at.exception
    words = texts(at)
    assert "postgame simulate" in words and "postgame ingest" in words
    assert "Nothing to show yet" in words


def test_pages_never_write_to_the_lake(open_app: OpenApp, fixture_lake: Lake) -> None:
    def snapshot() -> dict[str, tuple[int, int]]:
        return {str(p): (p.stat().st_size, p.stat().st_mtime_ns)
                for p in sorted(Path(fixture_lake.root).rglob("*"))}

    before = snapshot()
    for page in (None, "cards", "card", "matchups", "archetypes", "charges", "glossary",
                 "export", "lake"):
        assert not open_app(fixture_lake.root, page).exception
    assert snapshot() == before


# Pages by capability ------------------------------------------------------------------------

def test_each_games_pages_are_those_of_its_capabilities(tally: str) -> None:
    from dashboards.pages import pages_for

    titles = {game: [spec.title for specs in pages_for(game).values() for spec in specs]
              for game in ("vitorian", "eredan", tally)}
    assert titles["vitorian"] == titles["eredan"] == [
        "Replay", "Card stats", "Card", "Matchups", "Archetypes", "Charges", "Glossary", "Export",
        "Data"]
    assert titles[tally] == ["Replay", "Export", "Data"]


def test_a_game_without_card_statistics_shows_no_card_pages(open_app: OpenApp, tally: str,
                                                            tmp_path: Path) -> None:
    """A lake of Tally matches (no decks, no cards): the app lists Replay, Export and Data;
    the card, matchup and charge pages are not there to open, empty or not."""
    from tests.pipeline.test_schema import tally_lake

    lake = tally_lake(tmp_path / "lake")
    at = open_app(lake.root)
    assert not at.exception and at.title[0].value == "Replay"
    for page in ("cards", "matchups", "charges"):
        with pytest.raises(ValueError, match="Could not find a navigation page"):
            at.switch_page(f"app_pages/{page}.py")
    at.switch_page("app_pages/export.py").run()
    assert not at.exception and metric_values(at)["Matches"] == "1"
    at.switch_page("app_pages/lake.py").run()
    assert not at.exception and metric_values(at)["Matches"] == "1"
    rows = dict(at.dataframe[1].value[["table_name", "rows"]].itertuples(index=False))
    assert (rows["matches"], rows["seats"], rows["decks"], rows["tally_scores"]) == (1, 2, 0, 0)


def test_a_layout_one_lake_is_explained_not_shown(open_app: OpenApp, tmp_path: Path) -> None:
    from tests.pipeline.conftest import write_layout_one_lake

    root = write_layout_one_lake(tmp_path / "old")
    at = open_app(root)
    assert not at.exception
    words = shown(texts(at))
    assert "Nothing to show yet" in words and "a layout-1 lake" in words
    assert "postgame ingest LOGS --lake NEW" in words
