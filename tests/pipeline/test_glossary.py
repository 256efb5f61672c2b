"""The glossary (data/glossary.toml) describes every column a card game's report holds, no
more: a new column without a definition, or a definition left after its column went, shows."""
from __future__ import annotations

import pytest

from pipeline import glossary, metrics

CARD_MODELS = ("card_usage", "matchups", "faction_win_rates", "deck_archetypes",
               "archetype_win_rates", "archetype_matchups")


@pytest.fixture(scope="module")
def columns(request: pytest.FixtureRequest) -> dict[str, list[str]]:
    con = request.getfixturevalue("fixture_lake").connect()
    return {model: list(metrics.run_model(con, model, game="vitorian").columns)
            for model in CARD_MODELS}


def test_every_card_report_column_is_defined(columns):
    missing = {model: [c for c in cols if glossary.term(c) is None]
               for model, cols in columns.items()}
    assert not any(missing.values()), missing


def test_every_term_names_a_column_of_a_model(columns):
    present = {c for cols in columns.values() for c in cols}
    assert not set(glossary.terms()) - present


def test_card_usage_labels_are_unique_so_headers_never_collide(columns):
    labels = [glossary.label(c) for c in columns["card_usage"]]
    assert len(labels) == len(set(labels))


def test_bounds_and_q_values_are_described_by_their_rate():
    low = glossary.term("win_rate_when_drawn_low")
    assert low is not None and low.label == "GIH WR low" and "95%" in low.help
    q = glossary.term("win_rate_when_drawn_q")
    assert q is not None and "false-discovery" in q.help
    assert glossary.term("no_such_column") is None
    assert glossary.label("no_such_column") == "no such column"


def test_designer_names_carry_what_the_data_sites_call_them():
    assert "17lands" in glossary.tooltip("win_rate_when_drawn")
    assert glossary.label("improvement_when_drawn") == "IWD"
    assert "percentage points" in glossary.tooltip("improvement_when_drawn")
