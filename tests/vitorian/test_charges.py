"""The Vitorian Wars charge cap (charges.md CH-2.8) on the rules' side: a deck's charge, the check
of a logged match's seats, and the deck builder that keeps simulated decks within the cap."""
from __future__ import annotations

import random
from dataclasses import replace

import msgspec
import pytest

from engine.charges import ChargeTable, load_formats
from engine.games import get_game
from engine.ruleset import DeckError
from engine.tournament import SeasonCharges, SeasonConfig, run_season
from engine.vitorian.archetypes import ARCHETYPES, build_deck, starter_deck
from engine.vitorian.cards import NATIONS, UTILITY, load_catalog
from engine.vitorian.charges import cap_problems, deck_charge, over_cap
from engine.vitorian.deckcheck import MAX_COPIES, check_deck
from events.base import DeckList, Header, Seat
from pipeline import charges as ch
from pipeline.ingest import find_logs, ingest
from pipeline.lake import Lake

CATALOG = load_catalog()
SECTIONS = ("sovereign", "maneuver")


def table(charges: dict[str, int], cap: int | None = 500, version: str = "epoch-3"
          ) -> ChargeTable:
    return ChargeTable(version=version, charges=charges, cap=cap, sections=SECTIONS)


def every_card(charge: int, **colours: int) -> dict[str, int]:
    """Every catalog card at `charge`, those of the named colours at their own."""
    return {c.id: colours.get(c.color or "", charge) for c in CATALOG.cards}


def copies(deck: DeckList, section: str) -> int:
    return sum(e.count for e in deck.section(section))


# --- a deck's charge ---------------------------------------------------------------------------

def test_CH_2_8_every_copy_of_the_sovereign_and_maneuver_cards_counts_resources_do_not():
    deck = starter_deck("red")
    total, parts = deck_charge(deck, table(every_card(2)))
    assert total == 2 * (copies(deck, "sovereign") + copies(deck, "maneuver")) == 102
    resources = {e.card for s in ("defense", "convoy") for e in deck.section(s)}
    assert not resources & {part.card for part in parts}
    assert parts == sorted(parts, key=lambda p: (-p.amount, -p.charge, p.card))


def test_a_table_charging_every_section_counts_the_resources_too():
    deck = starter_deck("red")
    every = ChargeTable(version="epoch-1", charges=every_card(1), cap=500)
    assert deck_charge(deck, every)[0] == sum(copies(deck, s) for s in deck.sections)


def test_CH_2_8_a_list_played_again_is_resolved_once_and_its_copies_stay_its_own(monkeypatch):
    """A player's list comes back every round: its names are resolved once, and whatever a
    caller does with the copies it gets does not change the next answer."""
    from engine.vitorian import charges

    calls = []
    real = charges.resolve
    monkeypatch.setattr(charges, "resolve", lambda deck, catalog: calls.append(1) or real(
        deck, catalog))
    monkeypatch.setattr(charges, "_RESOLVED", {})
    deck, again = starter_deck("blue"), msgspec.json.decode(
        msgspec.json.encode(starter_deck("blue")), type=DeckList)
    first = charges.charged_copies(deck, table({}), CATALOG)
    first.clear()
    assert charges.charged_copies(again, table({}), CATALOG) == \
        charges.charged_copies(deck, table({}), load_catalog()) != {}
    assert len(calls) == 1
    every = ChargeTable(version="epoch-1", charges={}, cap=500)  # other sections: another key
    assert sum(charges.charged_copies(deck, every, CATALOG).values()) == \
        sum(copies(deck, s) for s in deck.sections)
    assert len(calls) == 2


def test_CH_2_8_a_list_checked_again_against_its_table_is_answered_once_and_alike(monkeypatch):
    """Every round a player plays the same list against the table in force: the charge is
    summed once per (list, table), a caller's change to the answer stays its own, and another
    table (even one equal in words) is checked on its own."""
    from engine.vitorian import charges

    sums = []
    real = charges._contributions
    monkeypatch.setattr(charges, "_contributions", lambda *a: sums.append(1) or real(*a))
    monkeypatch.setattr(charges, "_VERDICTS", {})
    deck = starter_deck("green")
    strict = table(every_card(25))
    first = over_cap(deck, strict)
    first.clear()
    again = over_cap(msgspec.json.decode(msgspec.json.encode(deck), type=DeckList), strict)
    assert again == over_cap(deck, strict) and len(again) == 1 and again[0][0] == "CH-2.8"
    assert len(sums) == 1
    assert over_cap(deck, table(every_card(25), cap=10_000)) == []
    assert len(over_cap(deck, table(every_card(25)))) == 1 and len(sums) == 2


def test_a_card_the_table_does_not_list_counts_0_CH_2_2():
    assert deck_charge(starter_deck("red"), table({}))[0] == 0


def test_CH_2_8_a_deck_at_the_cap_is_legal_one_over_is_not():
    deck = starter_deck("red")
    sovereign = deck.section("sovereign")[0].card
    at_cap = table({**every_card(0), sovereign: 500})
    assert over_cap(deck, at_cap) == []
    over = table({**every_card(0), sovereign: 500, deck.section("maneuver")[0].card: 1})
    [(rule, why)] = over_cap(deck, over)
    assert rule == "CH-2.8" and why.startswith("deck charge 5")
    assert "exceeds 500 in table epoch-3 (top: Marechal Zahir 1x500=500, " in why


def test_the_problem_names_the_top_three_contributors_CH_3_2():
    deck = starter_deck("red")
    [(_, why)] = over_cap(deck, table(every_card(25)))
    _, parts = deck_charge(deck, table(every_card(25)))
    assert why.endswith("(top: " + ", ".join(str(p) for p in parts[:3]) + ")")
    assert str(parts[0]) == f"{parts[0].name} {parts[0].copies}x25={parts[0].amount}"


def test_a_table_without_a_cap_has_no_problem():
    assert over_cap(starter_deck("red"), table(every_card(25), cap=None)) == []


def test_CH_2_8_cap_problems_name_each_seat_over_the_cap():
    red, blue = starter_deck("red"), starter_deck("blue")
    header = Header(game="vitorian", ruleset="vitorian@1", match_id="vw-x", format="standard",
                    seats=[Seat(seat=1, player="Bruno", setup=blue),
                           Seat(seat=0, player="Ada", setup=red)])
    dear_red = table(every_card(0, red=25))
    [(rule, why)] = cap_problems(header, dear_red)
    assert rule == "CH-2.8" and why.startswith("seat 0 (Ada): deck charge ")
    both = cap_problems(header, table(every_card(25)))
    assert [why.split(":")[0] for _, why in both] == ["seat 0 (Ada)", "seat 1 (Bruno)"]
    assert cap_problems(header, table(every_card(1))) == []


# --- the deck builder ----------------------------------------------------------------------------

@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_a_deck_within_the_cap_is_the_deck_built_without_a_table(archetype):
    plain = build_deck(archetype, random.Random(7))
    assert build_deck(archetype, random.Random(7), charges=table(every_card(1))) == plain


@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_CH_2_8_the_builder_swaps_the_dearest_maneuver_cards_until_the_deck_fits(archetype):
    """Nation cards at 25, the rest at 3: 50 Maneuver cards cannot all stay; the deck swaps for
    cheaper cards and stays legal under every VW-3 rule (50 cards, 4 copies, colours)."""
    colour = archetype.partition("-")[0]
    dear = table(every_card(3, **{colour: 25}))
    plain = build_deck(archetype, random.Random(7))
    deck = build_deck(archetype, random.Random(7), charges=dear)
    assert deck_charge(plain, dear)[0] > 500 >= deck_charge(deck, dear)[0]
    assert check_deck(deck, CATALOG) == [] and copies(deck, "maneuver") == 50
    assert deck.section("defense") == plain.section("defense")
    assert deck.section("convoy") == plain.section("convoy")
    assert deck.section("sovereign") == plain.section("sovereign")


def test_the_builder_swaps_for_its_own_nation_before_a_utility_colour():
    """Red's Elites at 0 (the rush style leaves them out), its other cards at 10: a red deck
    swaps into its own Elites first, utility cards (at 5) only once they are full."""
    elites = {c.id for c in CATALOG.cards if c.color == "red" and c.is_elite}
    charges = every_card(5, red=10) | dict.fromkeys(elites, 0)
    deck = build_deck("red", random.Random(3), charges=table(charges, cap=400))
    held = {e.card: e.count for e in deck.section("maneuver")}
    plain = {e.card: e.count for e in build_deck("red", random.Random(3)).section("maneuver")}
    assert all(held.get(card, 0) >= plain.get(card, 0) for card in elites)
    assert any(held.get(card, 0) > plain.get(card, 0) for card in elites)
    utility = {c.id for c in CATALOG.cards if c.color in UTILITY}
    if any(held.get(card, 0) < MAX_COPIES for card in elites):
        assert all(held.get(c, 0) <= plain.get(c, 0) for c in utility)


def test_a_cap_no_deck_of_the_archetype_can_fit_is_refused_as_CH_2_8():
    with pytest.raises(DeckError) as refused:
        build_deck("green", random.Random(1), charges=table(every_card(25), cap=100))
    [(rule, why)] = refused.value.problems
    assert rule == "CH-2.8" and "no deck of this archetype fits the cap 100" in why


def test_the_season_charges_serve_vitorian_with_its_cap_and_charged_sections():
    charges = SeasonCharges.for_kit(get_game("vitorian"))
    assert charges is not None
    first = charges.in_force(0)
    settings = load_formats().settings("vitorian", "standard")
    assert (first.version, first.cap, first.sections) == ("epoch-0", 500, settings.sections)


# --- a season that the cap binds --------------------------------------------------------------

def tight_formats(cap: int) -> ch.ChargeFormats:
    """The data file's settings, Vitorian's cap lowered so that simulated decks reach it (at 16
    players per tournament a nation's cards are charged about 6, its decks about 300)."""
    formats = load_formats()
    games = {game: dict(settings) for game, settings in formats.games.items()}
    games["vitorian"]["standard"] = replace_settings(games["vitorian"]["standard"], cap=cap)
    return ch.ChargeFormats(games=games, source="tight")


def replace_settings(settings: ch.FormatSettings, **changes: object) -> ch.FormatSettings:
    return msgspec.structs.replace(settings, **changes)


def test_CH_2_8_a_simulated_season_the_cap_binds_keeps_every_deck_within_it(
        tmp_path, monkeypatch):
    """`postgame simulate vitorian` then `postgame ingest` with a cap of 250: the builder swaps
    cards in the later epochs (the decks differ from those of the data file's cap), and the
    lake's own tables, computed as the batches go, quarantine nothing."""
    formats = tight_formats(250)
    monkeypatch.setattr("engine.tournament.load_formats", lambda: formats)
    config = SeasonConfig(game="vitorian", players=16, rounds=1, seed=4, tournaments=8,
                          out=tmp_path / "tight")
    tight = run_season(config)
    monkeypatch.undo()
    loose = run_season(replace(config, out=tmp_path / "loose"))
    decks = [[[e.deck for e in t.entrants.values()] for t in season] for season in (tight, loose)]
    assert decks[0][:2] == decks[1][:2]  # epoch 0: every table is all zeros
    assert decks[0] != decks[1]
    report = ingest([config.out], Lake(tmp_path / "lake"), batch_size=24,
                    charge_formats=formats)
    assert (report.ingested, report.quarantined, report.notices) == (64, [], [])
    loose_report = ingest([tmp_path / "loose"], Lake(tmp_path / "loose-lake"),
                          charge_formats=formats)
    assert {q.rule for q in loose_report.quarantined} == {"CH-2.8"}


def test_the_nations_of_the_tight_season_stay_their_own(tmp_path, monkeypatch):
    """Swaps bring cards of the deck's own nation or a utility colour only (VW-3.7)."""
    formats = tight_formats(250)
    monkeypatch.setattr("engine.tournament.load_formats", lambda: formats)
    tours = run_season(SeasonConfig(game="vitorian", players=16, rounds=1, seed=4,
                                    tournaments=6, out=tmp_path / "s"))
    for entrant in (e for t in tours for e in t.entrants.values()):
        colour = entrant.archetype.partition("-")[0]
        assert colour in NATIONS
        for entry in entrant.deck.section("maneuver"):
            assert CATALOG.by_id[entry.card].color in (colour, *UTILITY)
    assert len(find_logs([tmp_path / "s"])) == 48
