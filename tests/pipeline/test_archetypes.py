"""Archetypes from what decks hold (pipeline.archetypes): lists that share their cards are one
archetype whatever their names, named by faction and signature cards, the same name in any
scope that holds the same lists; one-off brews are their faction's "other lists"."""
from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

from pipeline import archetypes, metrics

CORE_A = {"pike": 4, "lance": 4, "shield": 2, "banner": 1, "drum": 2}
CORE_B = {"bomb": 4, "fuse": 4, "mine": 2, "spark": 1, "drum": 2}
"""Two archetypes sharing a staple (drum), each with its own two signature cards."""


def _lists(specs: list[tuple[str, str, dict[str, int]]]) -> pd.DataFrame:
    rows = [{"deck_id": deck, "faction": faction, "decks": 2, "section": "maneuver",
             "card": card, "card_name": card.title(), "copies": copies}
            for deck, faction, cards in specs for card, copies in cards.items()]
    return pd.DataFrame(rows)


def _variant(core: dict[str, int], rng: random.Random) -> dict[str, int]:
    """A list of the archetype: the staple's copies changed, a filler added."""
    cards = dict(core)
    cards["drum"] = rng.randint(1, 3)
    cards[f"filler{rng.randint(0, 3)}"] = 1
    return cards


@pytest.fixture
def specs() -> list[tuple[str, str, dict[str, int]]]:
    rng = random.Random(3)
    return ([(f"a{i}", "red", _variant(CORE_A, rng)) for i in range(5)]
            + [(f"b{i}", "red", _variant(CORE_B, rng)) for i in range(4)]
            + [("brew", "red", {"odd": 3, "ball": 3, "pike": 1})])


def test_lists_that_share_their_cards_are_one_archetype_whatever_their_names(specs):
    found = archetypes.cluster(_lists(specs), "vitorian").set_index("deck_id")
    a = found.loc[[f"a{i}" for i in range(5)], "archetype"]
    b = found.loc[[f"b{i}" for i in range(4)], "archetype"]
    assert a.nunique() == b.nunique() == 1 and a.iloc[0] != b.iloc[0]
    assert found.loc["brew", "archetype_name"].endswith("· other lists")
    assert found.loc["a0", "signature"] in ("Lance + Pike", "Pike + Lance")
    assert found.loc["a0", "archetype_name"].startswith("Scarlet Red")  # the faction's name


def test_names_follow_the_cards_from_one_scope_to_the_next(specs):
    """A later tournament with more lists of the same archetypes: the same ids and names."""
    before = archetypes.cluster(_lists(specs), "vitorian").set_index("deck_id")
    rng = random.Random(9)
    later = specs + [(f"a{i}", "red", _variant(CORE_A, rng)) for i in range(5, 9)]
    after = archetypes.cluster(_lists(later), "vitorian").set_index("deck_id")
    for deck in ("a0", "b0"):
        assert after.loc[deck, ["archetype", "archetype_name"]].tolist() == \
               before.loc[deck, ["archetype", "archetype_name"]].tolist()
    assert after.loc["a7", "archetype"] == before.loc["a0", "archetype"]


def test_the_distance_is_weighted_jaccard_over_card_counts():
    from scipy.spatial.distance import pdist

    rng = np.random.default_rng(1)
    counts = rng.integers(0, 4, size=(6, 9))
    got = pdist(archetypes._copy_tokens(counts), metric="jaccard")
    want = [1 - np.minimum(x, y).sum() / np.maximum(x, y).sum()
            for i, x in enumerate(counts) for y in counts[i + 1:]]
    assert np.allclose(got, want)


def test_archetypes_never_cross_factions():
    specs = [(f"r{i}", "red", dict(CORE_A)) for i in range(3)]
    specs += [(f"g{i}", "green", dict(CORE_A)) for i in range(3)]
    found = archetypes.cluster(_lists(specs), "vitorian")
    assert found.groupby("archetype")["faction"].nunique().max() == 1
    assert found["archetype"].nunique() == 2


def test_resource_piles_do_not_make_archetypes(specs):
    """Vitorian archetypes are made of the Maneuver Deck (archetype_sections): Convoy lines
    every deck fills alike change nothing."""
    plain = archetypes.cluster(_lists(specs), "vitorian")
    with_convoy = _lists(specs)
    convoy = with_convoy.drop_duplicates("deck_id").assign(section="convoy", card="supplies",
                                                           card_name="Supplies", copies=10)
    mixed = archetypes.cluster(pd.concat([with_convoy, convoy]), "vitorian")
    assert plain.sort_values("deck_id").reset_index(drop=True).equals(
        mixed.sort_values("deck_id").reset_index(drop=True))


def test_the_fixture_seasons_archetypes_cover_every_deck(fixture_lake):
    con = fixture_lake.connect()
    rates = metrics.run_model(con, "archetype_win_rates", game="vitorian")
    decks = con.execute("SELECT count(*) FROM decks").fetchone()[0]
    assert int(rates["seat_games"].sum()) == decks
    assert rates["archetype_name"].is_unique
    pairs = metrics.run_model(con, "archetype_matchups", game="vitorian")
    assert set(pairs["archetype"]) <= set(rates["archetype"])
