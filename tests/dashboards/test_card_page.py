"""A card's page on the fixture lake: the address names the card, its figures are the model's,
every deck that held it is listed with a link to its match at the step the card was first
played, as the seat that held it, and that link opens exactly that moment."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.widgets import plain
from pipeline import metrics
from pipeline.lake import Lake
from tests.dashboards.conftest import metric_values, texts

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"


def _card_page(lake: Lake, monkeypatch: pytest.MonkeyPatch, card: str) -> AppTest:
    monkeypatch.setenv("POSTGAME_LAKE", str(lake.root))
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    at.query_params["card"] = card
    at.switch_page("app_pages/card.py").run()
    assert not at.exception
    return at


@pytest.fixture
def played_card(lake_con: duckdb.DuckDBPyConnection) -> tuple[str, str]:
    """The card played in the most decks, and its name."""
    return lake_con.execute("""
        SELECT e.card, min(d.card_name) FROM card_events AS e
        JOIN deck_cards AS d ON d.match_id = e.match_id AND d.seat = e.seat AND d.card = e.card
        WHERE e.kind = 'played' GROUP BY e.card
        ORDER BY count(DISTINCT (e.match_id, e.seat)) DESC, e.card LIMIT 1""").fetchone()


def test_the_address_names_the_card_and_its_figures_are_the_models(
        fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection,
        monkeypatch: pytest.MonkeyPatch, played_card: tuple[str, str]) -> None:
    card, name = played_card
    at = _card_page(fixture_lake, monkeypatch, card)
    assert at.selectbox(key="card_page_card").value == card
    assert plain(name) in [h.value for h in at.header]
    row = metrics.card_usage(lake_con, "vitorian").set_index("card").loc[card]
    values = metric_values(at)
    assert values["Inclusion"] == f"{row.inclusion_rate:.1%}"
    assert values["GIH WR"] == f"{row.win_rate_when_drawn:.1%}"
    figures = at.dataframe[0].value.set_index("figure")
    assert figures.loc["Played WR", "estimate"] == pytest.approx(row.win_rate_when_played)
    assert figures.loc["Played WR", "of"] == f"{int(row.played_games):,}"


def test_every_deck_that_held_it_links_to_its_first_play(
        fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection,
        monkeypatch: pytest.MonkeyPatch, played_card: tuple[str, str]) -> None:
    card, _ = played_card
    at = _card_page(fixture_lake, monkeypatch, card)
    decks = at.dataframe[1].value
    held = lake_con.execute("SELECT count(DISTINCT (match_id, seat)) FROM deck_cards "
                            "WHERE card = ?", [card]).fetchone()[0]
    assert len(decks) == held
    firsts = {(m, s): q for m, s, q in lake_con.execute(
        "SELECT match_id, seat, min(seq) FROM card_events WHERE card = ? AND kind = 'played' "
        "GROUP BY ALL", [card]).fetchall()}
    for link in decks["replay"]:
        query = {k: v[0] for k, v in parse_qs(urlparse(link).query).items()}
        expected = firsts.get((query["match"], int(query["as"])))
        assert query.get("step") == (None if expected is None else str(expected))
    assert firsts, "the card was played somewhere"


def test_the_link_opens_the_replay_at_the_cards_first_play(
        fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection,
        monkeypatch: pytest.MonkeyPatch, played_card: tuple[str, str]) -> None:
    card, name = played_card
    at = _card_page(fixture_lake, monkeypatch, card)
    link = next(u for u in at.dataframe[1].value["replay"] if "step=" in u)
    query = {k: v[0] for k, v in parse_qs(urlparse(link).query).items()}
    replay = AppTest.from_file(str(APP), default_timeout=120)
    for key, value in query.items():
        replay.query_params[key] = value
    replay.run()
    assert not replay.exception and not replay.warning
    said = texts(replay)
    assert f"**Step {query['step']}/" in said
    assert plain(name) in said  # the step tells the play, the seat's own card by name


def test_an_unknown_card_is_said_and_the_page_still_shows_one(
        fixture_lake: Lake, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _card_page(fixture_lake, monkeypatch, "NO-SUCH-CARD")
    assert "names the card NO\\-SUCH\\-CARD" in " ".join(w.value for w in at.warning)
    assert at.selectbox(key="card_page_card").value


def test_companions_and_archetypes_add_up(
        fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection,
        monkeypatch: pytest.MonkeyPatch, played_card: tuple[str, str]) -> None:
    card, _ = played_card
    at = _card_page(fixture_lake, monkeypatch, card)
    mates, kinds = at.dataframe[2].value, at.dataframe[3].value
    held = lake_con.execute("SELECT count(*) FROM deck_cards WHERE card = ?",
                            [card]).fetchone()[0]
    assert card not in set(mates["page"].str.rsplit("=", n=1).str[-1])
    assert mates["share_of_its_decks"].between(0, 1).all()
    assert int(kinds["decks"].sum()) == held


def test_the_trend_adds_tournaments_up_per_charge_epoch(
        fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection,
        monkeypatch: pytest.MonkeyPatch, played_card: tuple[str, str]) -> None:
    """Per charge epoch: each epoch's figures are its tournaments' counts added up (CH-2.1)."""
    import io

    import pyarrow as pa

    from pipeline.charges import compute_charges

    card, _ = played_card
    at = _card_page(fixture_lake, monkeypatch, card)
    at.radio(key="card_trend_by").set_value("charge epoch").run()
    assert not at.exception
    season = compute_charges(lake_con, "vitorian", "standard")
    epochs = {f"epoch {int(e)}" for e in season.tournaments["epoch"]}
    said = texts(at)
    if len(epochs) < 2:
        assert "One epoch in scope" in said
        return
    assert "Trend per charge epoch" in said
    element = next(c for c in at.get("vega_lite_chart") if '"epoch' in c.proto.spec)
    rows = pa.ipc.open_stream(io.BytesIO(element.proto.datasets[0].data.data)).read_all()
    frame = rows.to_pandas()
    assert set(frame["epoch"]) <= epochs
    games = int(frame.loc[frame["figure"] == "Deck WR", "n"].sum())
    held = lake_con.execute("""
        SELECT count(*) FROM deck_cards AS d WHERE d.card = ? AND NOT EXISTS (
            SELECT 1 FROM deck_cards AS o WHERE o.match_id = d.match_id AND o.card = d.card
            AND o.seat <> d.seat)""", [card]).fetchone()[0]
    assert games == held  # every game outside the card's mirrors, in some epoch
