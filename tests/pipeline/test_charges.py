"""Charges (/work/shared/rules/charges.md, CH-) told as stories on hand-made fact tables, then the
whole computation cross-checked against a plain-Python reference written from the spec alone."""
from __future__ import annotations

import json
import math
import random
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone
from fractions import Fraction
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from engine.decklist import load_decklist, parse_decklist
from engine.vitorian.cards import load_catalog
from engine.vitorian.deckcheck import resolve
from events.base import DeckEntry, DeckList
from pipeline import charges as ch
from pipeline.charges import (
    ChargeError,
    FormatSettings,
    GameCards,
    NoTournaments,
    NotSupported,
    UnknownFormat,
    biggest_movers,
    charge_history,
    charge_table,
    compute_charges,
    deck_check,
    parse_formats,
    round_half_up,
    table_in_force,
)
from postgame import cli
from postgame.commands import charges as charges_command
from tests.registry_tools import without_layer

ROOT = Path(__file__).resolve().parents[2]
DAY1 = datetime(2026, 1, 5, 10, 0, tzinfo=UTC)
ROUND = timedelta(minutes=75)
EREDAN = GameCards()  # no evolutions unless a test says so; every card in the pool


# --- hand-made fact tables -------------------------------------------------------------------

@dataclass(frozen=True)
class Deck:
    player: str
    cards: Mapping[str, int]
    sections: Mapping[str, str] = field(default_factory=dict)
    """card -> section; "maneuver" otherwise."""
    deck_id: str = ""

    @property
    def id(self) -> str:
        return self.deck_id or "|".join(f"{c}x{n}" for c, n in sorted(self.cards.items()))


@dataclass(frozen=True)
class Tour:
    id: str
    start: datetime
    decks: Sequence[Deck]
    rounds: int = 3
    format: str = "standard"


def decks(prefix: str, total: int, holding: Mapping[str, int] | None = None) -> list[Deck]:
    """`total` decks of distinct players; card C is in the first holding[C] of them; every deck
    also holds a filler card F so that none is empty."""
    holding = holding or {}
    return [Deck(f"{prefix}-p{i}", {"F": 4, **{c: 2 for c, n in holding.items() if i < n}})
            for i in range(total)]


def connect(*tours: Tour, game: str = "eredan") -> duckdb.DuckDBPyConnection:
    """A connection with the views the lake gives (matches, seats, decks, deck_cards) over
    `tours`: every deck plays `rounds` matches of its tournament, paired in a new order each
    round."""
    matches, seats, lines = defaultdict(list), defaultdict(list), defaultdict(list)
    held: dict[str, list] = defaultdict(list)
    for tour in tours:
        for rnd in range(tour.rounds):
            order = list(tour.decks[rnd:]) + list(tour.decks[:rnd])
            for table in range(0, len(order), 2):
                match_id = f"{tour.id}-r{rnd + 1}-t{table // 2 + 1}"
                _row(matches, match_id=match_id, game=game, tournament=tour.id,
                     format=tour.format, started_at=tour.start + rnd * ROUND)
                for seat, deck in enumerate(order[table:table + 2]):
                    _add_seat(seats, held, lines, match_id, game, seat, deck)
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    for name, rows in (("matches", matches), ("seats", seats), ("decks", held),
                       ("deck_cards", lines)):
        con.register(name, _table(rows, name))
    return con


def _row(columns: dict[str, list], **values: object) -> None:
    for key, value in values.items():
        columns[key].append(value)


def _add_seat(seats: dict, held: dict, lines: dict, match_id: str, game: str, seat: int,
              deck: Deck) -> None:
    _row(seats, match_id=match_id, game=game, seat=seat, player=deck.player, setup_id=deck.id)
    _row(held, match_id=match_id, game=game, seat=seat, deck_id=deck.id)
    for card, copies in deck.cards.items():
        _row(lines, match_id=match_id, game=game, seat=seat, deck_id=deck.id,
             section=deck.sections.get(card, "maneuver"), card=card, card_name=_name(card),
             copies=copies)


def _name(card: str) -> str:
    """The catalog's name for Vitorian ids (as ingest writes it), "Card X" for made-up cards."""
    found = load_catalog().by_id.get(card)
    return found.name if found else f"Card {card}"


def _table(columns: dict[str, list], name: str) -> pa.Table:
    from pipeline.schema import tables

    full = tables()[name]
    schema = pa.schema([full.field(key) for key in columns]) if columns else None
    if schema is None:
        return pa.table({f.name: pa.array([], f.type) for f in full})
    return pa.table(dict(columns), schema=schema)


def formats(toml: str) -> ch.ChargeFormats:
    return parse_formats(toml, source="test.toml")


EREDAN_TOML = """
[eredan.standard]
scale = 50
max_charge = 50
cap = 500
"""


def eredan_with(**changes: object) -> ch.ChargeFormats:
    """Eredan's settings with some changed (an initial table, other thresholds)."""
    initial = changes.pop("initial", {})
    settings = {"scale": 50, "max_charge": 50, "cap": 500, **changes}
    lines = [f"{key} = {value}" for key, value in settings.items()]
    table = [f'"{card}" = {charge}' for card, charge in initial.items()]
    return formats("\n".join(["[eredan.standard]", *lines, "[eredan.standard.initial]", *table]))


def row(frame, card: str) -> dict:
    found = frame[frame["card"] == card]
    assert len(found) == 1, f"{card} not in the table: {list(frame['card'])}"
    return found.iloc[0].to_dict()


def day(n: int) -> datetime:
    return DAY1 + timedelta(days=n)


# --- settings as data (CH-2.x constants) -----------------------------------------------------

def test_the_data_file_holds_both_games_standard_settings():
    loaded = ch.load_formats()
    eredan, vitorian = (loaded.settings(g, "standard") for g in ("eredan", "vitorian"))
    assert (eredan.scale, eredan.max_charge, eredan.cap) == (50, 50, 500)  # CH-2.6, CH-1.3
    assert (vitorian.scale, vitorian.max_charge, vitorian.cap) == (25, 25, 500)  # CH-2.6
    for settings in (eredan, vitorian):  # CH-2.1, CH-2.5, CH-2.7
        assert (settings.window, settings.prior_decks, settings.min_decks, settings.initial) == (
            2, 8, 16, {})


def test_charges_exist_only_in_listed_formats_CH_1_2():
    with pytest.raises(UnknownFormat, match=r"no charges in format 'draft' \(CH-1.2\)"):
        ch.load_formats().settings("vitorian", "draft")
    with pytest.raises(UnknownFormat, match="no charge formats for game 'chess'"):
        ch.load_formats().settings("chess", "standard")


@pytest.mark.parametrize("text, wrong", [
    (EREDAN_TOML + "windw = 3\n", "windw"),
    (EREDAN_TOML + "window = 0\n", "window"),
    (EREDAN_TOML + "[eredan.standard.initial]\nA = 51\n", "initial charges above max_charge"),
    ("[eredan.standard]\nscale = 50\n", "max_charge"),
    ("[eredan.standard\n", "TOML"),
])
def test_bad_settings_are_refused_naming_the_file(text, wrong):
    with pytest.raises(ChargeError, match=re.escape("test.toml: invalid charge formats")) as err:
        formats(text)
    assert wrong in str(err.value) or wrong == "TOML"


def test_settings_are_frozen():
    settings = ch.load_formats().settings("eredan", "standard")
    with pytest.raises(AttributeError):
        settings.cap = 900  # type: ignore[misc]


# --- CH-4 worked examples --------------------------------------------------------------------

def ch_4_1_season() -> duckdb.DuckDBPyConnection:
    """Epoch 0: 16 decks, 12 with A (epoch 1's share of A: 12 / 24 = 0.5). Epoch 1: 40 decks,
    30 with A. So epoch 2 is CH-4.1 exactly."""
    return connect(Tour("er-01", day(0), decks("a", 8, {"A": 6})),
                   Tour("er-02", day(3), decks("b", 8, {"A": 6})),
                   Tour("er-03", day(7), decks("c", 20, {"A": 15})),
                   Tour("er-04", day(10), decks("d", 20, {"A": 15})))


def test_CH_4_1_smoothing_toward_the_previous_share():
    season = compute_charges(ch_4_1_season(), "eredan", "standard", cards=EREDAN)
    assert row(season.table(1), "A")["smoothed_share"] == 0.5
    a = row(season.table(2), "A")
    assert (a["n_c"], a["N"], a["share"]) == (30, 40, 0.75)
    assert a["smoothed_share"] == pytest.approx(34 / 48) and round(a["smoothed_share"], 4) == 0.7083
    assert (a["charge"], a["previous_charge"], a["delta"], a["carried_over"]) == (35, 25, 10, False)


def test_CH_4_1_with_the_prior_from_an_initial_table():
    """The same numbers with epoch 0's share of A given by the format's initial table (25/50)."""
    con = connect(Tour("er-01", day(0), decks("a", 20, {"A": 15})),
                  Tour("er-02", day(3), decks("b", 20, {"A": 15})))
    table = charge_table(con, "eredan", "standard", 1, cards=EREDAN,
                         formats=eredan_with(initial={"A": 25}))
    assert {k: row(table, "A")[k] for k in ("n_c", "N", "charge")} == {"n_c": 30, "N": 40,
                                                                         "charge": 35}


def test_CH_4_2_a_card_in_no_deck_with_share_0_has_charge_0():
    con = connect(Tour("er-01", day(0), decks("a", 20, {"A": 15})),
                  Tour("er-02", day(3), decks("b", 20)))
    table = charge_table(con, "eredan", "standard", 1, cards=EREDAN,
                         formats=eredan_with(initial={"A": 25, "B": 0}))
    b = row(table, "B")
    assert (b["n_c"], b["smoothed_share"], b["charge"], b["delta"]) == (0, 0.0, 0, 0)


def test_CH_4_3_too_few_decks_carry_the_previous_table_over():
    """Epoch 1 has 10 decks (< 16): epoch 2 keeps epoch 1's table, and says so."""
    con = connect(Tour("er-01", day(0), decks("a", 8, {"A": 6})),
                  Tour("er-02", day(3), decks("b", 8, {"A": 6})),
                  Tour("er-03", day(7), decks("c", 5, {"A": 5, "NEW": 5})),
                  Tour("er-04", day(10), decks("d", 5, {"A": 5})))
    season = compute_charges(con, "eredan", "standard", cards=EREDAN)
    before, after = season.table(1), season.table(2)
    a = row(after, "A")
    assert (a["N"], a["n_c"], a["carried_over"], a["charge"], a["delta"]) == (10, 10, True, 25, 0)
    assert a["smoothed_share"] == row(before, "A")["smoothed_share"] == 0.5
    new = row(after, "NEW")  # first seen in the thin epoch: listed at the 0 it had implicitly
    assert (new["charge"], new["smoothed_share"], new["previous_charge"]) == (0, 0.0, 0)
    assert season.info(2).carried_over and season.info(2).decks == 10
    assert season.movers(2).empty


def ch_4_4_deck(*extra: str) -> DeckList:
    """3 characters (40, 35, 20) and 3 copies each of cards of charge 30, 25, 10, 0, 0, 0, plus
    2 more zero-charge cards to reach 20."""
    text = "[Characters]\n1 C40\n1 C35\n1 C20\n[Deck]\n3 D30\n3 D25\n3 D10\n3 Z1\n3 Z2\n3 Z3\n2 Z4\n"
    return parse_decklist(text + "".join(f"{line}\n" for line in extra))


CH_4_4_TABLE = {"C40": 40, "C35": 35, "C20": 20, "D30": 30, "D25": 25, "D10": 10, "Z1": 0,
                "X50": 50, "X45": 45}


def ch_4_4_check(deck: DeckList) -> ch.DeckCharge:
    """The deck under the initial table (epoch 0) of a lake with one tournament."""
    con = connect(Tour("er-01", day(0), decks("a", 2)))
    return deck_check(con, "eredan", "standard", deck, day(0).date(), cards=EREDAN,
                      formats=eredan_with(initial=CH_4_4_TABLE))


def test_CH_4_4_a_deck_at_290_is_legal():
    result = ch_4_4_check(ch_4_4_deck())
    assert (result.charge, result.cap, result.within_cap, result.legal) == (290, 500, True, True)
    assert result.table.epoch == 0 and result.problems == []
    characters = {c.card: c.contribution for c in result.contributions if c.card.startswith("C")}
    assert characters == {"C40": 40, "C35": 35, "C20": 20}  # CH-2.8: characters count too
    assert sum(c.copies for c in result.contributions) == 23


def test_CH_4_5_a_deck_at_575_is_illegal_and_names_its_top_contributors():
    result = ch_4_4_check(ch_4_4_deck("3 X50", "3 X45"))
    assert (result.charge, result.within_cap, result.legal) == (575, False, False)
    assert [(c.card, c.contribution) for c in result.top(3)] == [
        ("X50", 150), ("X45", 135), ("D30", 90)]
    contributions = [c.contribution for c in result.contributions]
    assert contributions == sorted(contributions, reverse=True)
    [(rule, reason)] = result.problems
    assert rule == "CH-2.8" and "575 is over the cap of 500" in reason
    assert "X50 3x50=150, X45 3x45=135, D30 3x30=90" in reason


# --- CH-2.x, one rule at a time --------------------------------------------------------------

def test_round_half_up_at_exact_halves_CH_2_6():
    assert [round_half_up(Fraction(n, 2)) for n in (1, 3, 5, 25)] == [1, 2, 3, 13]
    assert round(12.5) == 12  # why the spec says half up, and why shares are kept exact


def test_a_charge_of_exactly_12_5_rounds_up_to_13_CH_2_6():
    """Vitorian scale 25: 12 of 16 decks -> s = 12 / 24 = 1/2 -> 12.5 -> 13 (floats could not
    be trusted with this: 25 * (12 / 24) must land on .5 exactly)."""
    con = connect(Tour("vw-01", day(0), decks("a", 8, {"A": 6})),
                  Tour("vw-02", day(3), decks("b", 8, {"A": 6})), game="vitorian")
    assert row(charge_table(con, "vitorian", "standard", 1), "A")["charge"] == 13


def test_charges_are_clamped_to_max_charge_CH_2_6():
    con = connect(Tour("er-01", day(0), decks("a", 8, {"A": 8})),
                  Tour("er-02", day(3), decks("b", 8, {"A": 8})))
    settings = eredan_with(scale=60, prior_decks=0)
    assert row(charge_table(con, "eredan", "standard", 1, cards=EREDAN, formats=settings),
               "A")["charge"] == 50


def test_epochs_follow_start_order_ties_broken_by_tournament_id_CH_2_1():
    """er-b and er-a start together: er-a comes first. er-c starts before both on the calendar
    of its later rounds, but its first match is later, and a tournament starts at its first."""
    con = connect(Tour("er-c", day(0) + timedelta(hours=1), decks("c", 2), rounds=1),
                  Tour("er-b", day(0), decks("b", 2)),
                  Tour("er-a", day(0), decks("a", 2)),
                  Tour("er-d", day(5), decks("d", 2)))
    season = compute_charges(con, "eredan", "standard", cards=EREDAN)
    order = season.tournaments[["tournament", "ordinal", "epoch"]].values.tolist()
    assert order == [["er-a", 1, 0], ["er-b", 2, 0], ["er-c", 3, 1], ["er-d", 4, 1]]
    assert season.info(1).first_tournament == "er-c" and season.info(1).last_tournament == "er-d"


def test_a_window_of_three_makes_epochs_of_three():
    con = connect(*(Tour(f"er-{i}", day(i), decks(f"t{i}", 2)) for i in range(7)))
    season = compute_charges(con, "eredan", "standard", cards=EREDAN,
                             formats=eredan_with(window=3))
    assert season.tournaments["epoch"].tolist() == [0, 0, 0, 1, 1, 1, 2]
    assert season.epochs["tournaments"].tolist() == [3, 3, 1]


def test_a_deck_counts_once_per_tournament_not_per_match_CH_2_3():
    """8 decks play 3 rounds each: N is 8 per tournament, and a deck registered in both
    tournaments of the epoch counts twice (once per tournament)."""
    same = decks("a", 8, {"A": 8})
    con = connect(Tour("er-01", day(0), same, rounds=3), Tour("er-02", day(3), same, rounds=5))
    season = compute_charges(con, "eredan", "standard", cards=EREDAN)
    a = row(season.table(1), "A")
    assert (a["N"], a["n_c"]) == (16, 16)
    assert season.epochs["decks_registered"].tolist()[0] == 16


def test_a_player_with_two_decks_in_one_tournament_registers_two():
    two = [Deck("p", {"A": 1}), Deck("p", {"B": 1})]
    con = connect(Tour("er-01", day(0), two + decks("a", 14)), Tour("er-02", day(3), decks("b", 2)))
    assert row(charge_table(con, "eredan", "standard", 1, cards=EREDAN), "A")["N"] == 18


def test_sovereigns_are_cards_and_copies_beyond_one_do_not_raise_n_c_CH_2_3_CH_2_4():
    with_sovereign = [Deck(f"p{i}", {"S1": 1, "F": 4, "F2": 1}, sections={"S1": "sovereign"})
                      for i in range(16)]
    con = connect(Tour("vw-01", day(0), with_sovereign[:8]),
                  Tour("vw-02", day(3), with_sovereign[8:]), game="vitorian")
    table = charge_table(con, "vitorian", "standard", 1)
    assert {c: row(table, c)["n_c"] for c in ("S1", "F", "F2")} == {"S1": 16, "F": 16, "F2": 16}


def test_evolutions_share_their_base_card_CH_2_10():
    """C1E evolves C1: a deck with both counts once for C1, and a deck check charges C1E at
    C1's charge."""
    evolved = GameCards(card_base=lambda card: card.removesuffix("E"))
    both = [Deck(f"p{i}", {"C1": 1, "C1E": 1}) for i in range(8)]
    only_evolution = [Deck(f"q{i}", {"C1E": 1}) for i in range(8)]
    con = connect(Tour("er-01", day(0), both), Tour("er-02", day(3), only_evolution))
    season = compute_charges(con, "eredan", "standard", cards=evolved)
    c1 = row(season.table(1), "C1")
    assert (c1["n_c"], c1["N"], c1["name"], c1["charge"]) == (16, 16, "Card C1", 33)
    assert "C1E" not in set(season.table(1)["card"])
    result = season.check(parse_decklist("[Deck]\n2 C1E\n"))
    assert [(c.card, c.base_card, c.charge, c.contribution) for c in result.contributions] == [
        ("C1E", "C1", 33, 66)]


def test_a_game_without_its_catalog_is_refused_naming_the_rules(
        monkeypatch: pytest.MonkeyPatch):
    without_layer(monkeypatch, "eredan", "cards")  # Eredan registers its own (eredan_cards)
    con = connect(Tour("er-01", day(0), decks("a", 2)))
    with pytest.raises(NotSupported, match=r"CH-2.10.*CH-2.9"):
        charge_table(con, "eredan", "standard")


def test_cards_never_seen_again_decay_toward_zero():
    """A card in epoch 0's decks only: 16/24, then (0 + 8 * 2/3) / 24 in the next table."""
    con = connect(Tour("er-01", day(0), decks("a", 8, {"A": 8})),
                  Tour("er-02", day(3), decks("b", 8, {"A": 8})),
                  Tour("er-03", day(7), decks("c", 8)), Tour("er-04", day(10), decks("d", 8)))
    history = charge_history(con, "eredan", "standard", cards=EREDAN)
    a = history[history["card"] == "A"]
    assert a["charge"].tolist() == [0, 33, 11]  # 50 * 16/24 = 33.3; 50 * (16/3) / 24 = 11.1
    assert a["delta"].tolist()[1:] == [33, -22]


# --- epochs in force, the upcoming table, movers ---------------------------------------------

def five_tournaments() -> duckdb.DuckDBPyConnection:
    """Epoch 0: days 0 and 3; epoch 1: days 7 and 10; epoch 2: day 14 (half full)."""
    days = (0, 3, 7, 10, 14)
    return connect(*(Tour(f"er-0{i + 1}", day(d), decks(f"t{i}", 8, {"A": 2 * i}))
                     for i, d in enumerate(days)))


@pytest.mark.parametrize("when, epoch", [
    (date(2026, 1, 1), 0),    # before the first tournament: the initial table
    (date(2026, 1, 5), 0),
    (date(2026, 1, 7), 0),    # between the two tournaments of epoch 0
    (date(2026, 1, 10), 1),   # between epochs: epoch 0 has closed, epoch 1's table is in force
    (date(2026, 1, 15), 1),
    (date(2026, 1, 19), 2),
    (date(2026, 3, 1), 2),    # after the last: epoch 2 is not full, its table still holds
    (datetime(2026, 1, 15, 22, 0, tzinfo=timezone(timedelta(hours=-5))), 2),  # UTC: Jan 16
    ("er-04", 1),
    ("er-05", 2),
])
def test_the_table_in_force_on_a_date_or_at_a_tournament(when, epoch):
    season = compute_charges(five_tournaments(), "eredan", "standard", cards=EREDAN)
    assert season.epoch_in_force(when) == epoch
    assert table_in_force(five_tournaments(), "eredan", "standard", when,
                          cards=EREDAN).equals(season.table(epoch))


def test_after_a_full_last_epoch_the_upcoming_table_is_in_force():
    con = connect(*(Tour(f"er-0{i + 1}", day(3 * i), decks(f"t{i}", 8, {"A": 2 * i}))
                    for i in range(4)))
    season = compute_charges(con, "eredan", "standard", cards=EREDAN)
    assert season.epochs["epoch"].tolist() == [0, 1, 2]
    upcoming = season.info(2)
    assert upcoming.upcoming and upcoming.first_tournament is None and upcoming.decks == 16
    assert season.epoch_in_force(date(2026, 2, 1)) == 2 == season.last_epoch
    assert charge_table(con, "eredan", "standard", cards=EREDAN).equals(season.table(2))
    assert row(season.table(2), "A")["n_c"] == 4 + 6


def test_an_unknown_tournament_or_epoch_is_an_error():
    season = compute_charges(five_tournaments(), "eredan", "standard", cards=EREDAN)
    with pytest.raises(ChargeError, match="'vw-2026-001' is not a tournament of eredan"):
        season.in_force("vw-2026-001")
    with pytest.raises(ChargeError, match="no epoch 9; epochs: 0-2"):
        season.table(9)


def test_biggest_movers_are_sorted_by_the_size_of_the_change():
    """Epoch 2 against epoch 1: DOWN 0 -> 33, UP 33 -> 11, the filler F 33 -> 44, SMALL 0 -> 2;
    SAME stays at its share of 0.5 (25) and is no mover."""
    con = connect(Tour("er-01", day(0), decks("a", 8, {"UP": 8, "SAME": 4})),
                  Tour("er-02", day(3), decks("b", 8, {"UP": 8, "SAME": 4})),
                  Tour("er-03", day(7), decks("c", 8, {"DOWN": 8, "SAME": 4, "SMALL": 1})),
                  Tour("er-04", day(10), decks("d", 8, {"DOWN": 8, "SAME": 4})))
    options = {"cards": EREDAN, "formats": eredan_with(initial={"SAME": 25})}
    movers = biggest_movers(con, "eredan", "standard", 2, **options)
    assert list(zip(movers["card"], movers["delta"])) == [
        ("DOWN", 33), ("UP", -22), ("F", 11), ("SMALL", 2)]
    assert row(charge_table(con, "eredan", "standard", 2, **options), "SAME")["charge"] == 25
    assert biggest_movers(con, "eredan", "standard", 2, top=1, **options)["card"].tolist() == [
        "DOWN"]


def test_no_tournaments_is_a_clear_error():
    con = connect(Tour("er-01", day(0), decks("a", 2), format="draft"))
    with pytest.raises(NoTournaments, match="no tournaments of eredan in format 'standard'"):
        charge_table(con, "eredan", "standard", cards=EREDAN)


def test_history_fills_epochs_before_a_card_first_appears_with_0():
    season = compute_charges(five_tournaments(), "eredan", "standard", cards=EREDAN)
    history = season.history()
    assert len(history) == history["card"].nunique() * len(season.epochs)
    assert history[history["card"] == "A"]["charge"].tolist()[0] == 0


# --- Vitorian deck checks (catalog names, Sovereign, the card pool) --------------------------

RED = ROOT / "data" / "vitorian" / "decks" / "red.txt"


def red_lake() -> duckdb.DuckDBPyConnection:
    """16 registrations of the red starter (resolved card IDs) over two tournaments."""
    deck = resolve(load_decklist(RED))
    cards = {e.card: e.count for entries in deck.sections.values() for e in entries}
    sections = {e.card: name for name, entries in deck.sections.items() for e in entries}
    players = [Deck(f"p{i}", cards, sections) for i in range(16)]
    return connect(Tour("vw-01", day(0), players[:8]), Tour("vw-02", day(3), players[8:]),
                   game="vitorian")


def test_a_vitorian_deck_counts_every_copy_sovereign_included_CH_2_8():
    result = deck_check(red_lake(), "vitorian", "standard", load_decklist(RED), "vw-02")
    assert result.table.epoch == 0 and result.charge == 0 and result.legal  # the initial table
    result = deck_check(red_lake(), "vitorian", "standard", load_decklist(RED))
    assert result.table.upcoming and result.table.epoch == 1
    # every card of 16/16 decks: s = 16/24, charge round(25 * 2/3) = 17; the Sovereign and the
    # 50 Maneuver cards carry charges, the Convoy and Defense Pile do not (formats.toml)
    assert {c.charge for c in result.contributions} == {17}
    assert result.charge == 51 * 17 and not result.within_cap and not result.legal
    zahir = [c for c in result.contributions if c.name == "Marechal Zahir"]
    assert [(z.card, z.copies, z.contribution) for z in zahir] == [("ST01-001", 1, 17)]


def test_cards_outside_the_pool_are_reported_apart_CH_2_9():
    deck = parse_decklist("[Sovereign]\nMarechal Zahir\n[Maneuver]\n4 Dragon of Nowhere\n")
    result = deck_check(red_lake(), "vitorian", "standard", deck, date(2026, 1, 5))
    assert result.within_cap and not result.legal
    assert [(o.card, o.section, o.copies) for o in result.outside_pool] == [
        ("Dragon of Nowhere", "maneuver", 4)]
    assert [rule for rule, _ in result.problems] == ["CH-2.9"]
    assert [c.card for c in result.contributions] == ["ST01-001"]


def test_a_pool_card_no_deck_ever_held_counts_0():
    deck = DeckList(sections={"maneuver": [DeckEntry(card="Town Militia", count=2)]})
    season = compute_charges(connect(Tour("vw-01", day(0), decks("a", 2)), game="vitorian"),
                             "vitorian", "standard")
    [only] = season.check(deck).contributions
    assert (only.name, only.charge, only.contribution) == ("Town Militia", 0, 0)


# --- the SQL models --------------------------------------------------------------------------

MODELS = sorted(ch.SQL_DIR.glob("*.sql"))


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.stem)
def test_models_state_their_grain_and_bind_their_parameters(path):
    text = path.read_text()
    assert re.search(r"^-- Grain: ", text, re.MULTILINE)
    assert text.lstrip("-").find("WITH ") >= 0
    assert not re.search(r"\{[a-z_]*\}|%s|%\(", text), "values must be bound, never formatted"
    assert set(re.findall(r"\$([a-z_]+)", text)) <= {"game", "format", "window_size"}


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.stem)
def test_models_transpile_to_spark(path):
    import sqlglot

    [spark] = sqlglot.transpile(path.read_text(), read="duckdb", write="spark")
    assert ":game" in spark and "$" not in spark


# --- a reference written from the spec alone, cross-checked --------------------------------

def reference_usage(con: duckdb.DuckDBPyConnection, game: str, fmt: str, window: int,
                    base: Callable[[str], str], sections: tuple[str, ...] = ()
                    ) -> tuple[list[int], dict, dict]:
    """CH-2.1, CH-2.3, CH-2.4 over plain rows: each tournament's epoch, the registrations of
    each epoch, and the registrations holding each (epoch, card)."""
    matches = con.execute("SELECT match_id, tournament, started_at FROM matches WHERE game = ? "
                          "AND format = ? AND tournament IS NOT NULL", [game, fmt]).fetchall()
    first: dict[str, datetime] = {}
    for _, tour, started in matches:
        first[tour] = min(first.get(tour, started), started)
    epoch_of = {t: i // window for i, t in enumerate(sorted(first, key=lambda t: (first[t], t)))}
    tour_of = {match: tour for match, tour, _ in matches}
    registration = {(m, seat): (tour_of[m], player, deck) for m, seat, player, deck in
                    con.execute("SELECT s.match_id, s.seat, s.player, d.deck_id FROM seats s "
                                "JOIN decks d USING (match_id, seat)").fetchall()
                    if m in tour_of}
    decks, holders = defaultdict(set), defaultdict(set)
    for reg in registration.values():
        decks[epoch_of[reg[0]]].add(reg)
    for m, seat, card, copies, section in con.execute(
            "SELECT match_id, seat, card, copies, section FROM deck_cards").fetchall():
        if sections and section not in sections:
            continue
        if (m, seat) in registration and copies > 0:
            reg = registration[(m, seat)]
            holders[(epoch_of[reg[0]], base(card))].add(reg)
    return list(epoch_of.values()), decks, holders


def reference_charges(con: duckdb.DuckDBPyConnection, game: str, fmt: str, s: FormatSettings,
                      base: Callable[[str], str] = lambda card: card) -> dict[int, dict[str, int]]:
    """CH-2.2, CH-2.5 - CH-2.7 in floats, written from the spec alone: {epoch: {card: charge}}."""
    epochs, decks, holders = reference_usage(con, game, fmt, s.window, base, s.sections)
    final = max(epochs) + 1 if epochs.count(max(epochs)) == s.window else max(epochs)
    share = {card: charge / s.scale for card, charge in s.initial.items()}
    charge = dict(s.initial)
    tables = {0: dict(charge)}
    for k in range(1, final + 1):
        n_decks = len(decks[k - 1])
        n = {card: len(regs) for (e, card), regs in holders.items() if e == k - 1}
        for card in set(share) | set(n):
            if n_decks < max(s.min_decks, 1):
                share.setdefault(card, 0.0)
                charge.setdefault(card, 0)
                continue
            share[card] = (n.get(card, 0) + s.prior_decks * share.get(card, 0.0)) / (
                n_decks + s.prior_decks)
            charge[card] = max(0, min(s.max_charge, math.floor(s.scale * share[card] + 0.5 + 1e-9)))
        tables[k] = dict(charge)
    return tables


def computed(season: ch.ChargeSeason) -> dict[int, dict[str, int]]:
    return {int(e): dict(zip(group["card"], group["charge"].astype(int)))
            for e, group in season.tables.groupby("epoch")} | {
        int(e): {} for e in season.epochs["epoch"] if e not in set(season.tables["epoch"])}


def random_season(seed: int) -> duckdb.DuckDBPyConnection:
    """6 or 7 tournaments (the last epoch full or not) of 2-18 decks from 12 cards: some epochs
    thin (carry-over), returning players re-registering their deck, ties in start times."""
    rng = random.Random(seed)
    pool = [f"K{i:02d}" for i in range(12)]
    weights = [rng.random() ** 2 for _ in pool]
    regulars = [Deck(f"reg{i}", {c: rng.randint(1, 3) for c in rng.choices(pool, weights, k=6)})
                for i in range(6)]
    tours = []
    for t in range(rng.choice((6, 7))):
        fresh = [Deck(f"t{t}p{i}", {c: rng.randint(1, 3) for c in rng.choices(pool, weights, k=6)},
                      sections={pool[0]: "sovereign"}) for i in range(rng.randint(2, 12))]
        start = day(3 * (t // 2) if rng.random() < 0.3 else 3 * t)
        tours.append(Tour(f"er-{rng.randint(100, 999)}-{t}", start,
                          rng.sample(regulars, rng.randint(0, 6)) + fresh,
                          rounds=rng.randint(1, 4)))
    return connect(*tours)


@pytest.mark.parametrize("seed", range(8))
def test_the_computation_matches_the_reference_on_random_seasons(seed):
    settings = eredan_with(initial={"K00": 20, "K05": 7})
    season = compute_charges(random_season(seed), "eredan", "standard", cards=EREDAN,
                             formats=settings)
    expected = reference_charges(random_season(seed), "eredan", "standard",
                                 settings.settings("eredan", "standard"))
    assert computed(season) == expected


def test_the_computation_matches_the_reference_with_evolutions():
    base = {"K01": "K00", "K02": "K00"}.get
    cards = GameCards(card_base=lambda card: base(card) or card)
    season = compute_charges(random_season(99), "eredan", "standard", cards=cards)
    expected = reference_charges(random_season(99), "eredan", "standard",
                                 ch.load_formats().settings("eredan", "standard"),
                                 base=cards.card_base)
    assert computed(season) == expected


def test_the_computation_matches_the_reference_on_the_fixture_lake(fixture_lake):
    lake = fixture_lake
    con = lake.connect()
    season = compute_charges(con, "vitorian", "standard")
    assert len(season.tournaments) == 4
    expected = reference_charges(con, "vitorian", "standard",
                                 ch.load_formats().settings("vitorian", "standard"))
    assert computed(season) == expected
    # 8 players in each tournament: 16 registrations per epoch, enough (CH-2.7) to recompute
    assert season.epochs["decks_registered"].tolist() == [16, 16, 0]
    assert season.epochs["upcoming"].tolist() == [False, False, True]
    sovereigns = {c.id for c in load_catalog().cards if c.type == "sovereign"}
    for epoch in (1, 2):  # every deck holds exactly one Sovereign (CH-2.3)
        table = season.table(epoch)
        assert table[table["card"].isin(sovereigns)]["n_c"].sum() == 16
        assert not table["carried_over"].any()
    decks = int(season.epochs["decks_registered"].iloc[0])
    distinct = con.execute(
        "SELECT COUNT(*) FROM (SELECT DISTINCT m.tournament, s.player, d.deck_id FROM seats s "
        "JOIN decks d USING (match_id, seat) JOIN matches m USING (match_id) "
        "WHERE m.tournament IN (?, ?))",
        season.tournaments["tournament"].tolist()[:2]).fetchone()[0]
    assert decks == distinct


# --- the command line ------------------------------------------------------------------------

@pytest.fixture
def lake_cli(monkeypatch, tmp_path):
    """`postgame charges` over the red-starter season (the lake reader replaced by it)."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(charges_command, "connect_lake", lambda root, args=None: red_lake())

    def run(capsys, *argv: object) -> tuple[int, str, str]:
        code = cli.main(["charges", "--lake", str(tmp_path), "--game", "vitorian",
                         *map(str, argv)])
        out, err = capsys.readouterr()
        return code, out, err
    return run


def test_cli_shows_the_table_in_force(capsys, lake_cli):
    code, out, _ = lake_cli(capsys)
    assert code == 0
    assert "vitorian standard, epoch 1 (no tournament yet" in out
    assert "computed from the 16 decks of epoch 0" in out and "Marechal Zahir" in out


def test_cli_table_as_json_and_csv(capsys, lake_cli):
    code, out, _ = lake_cli(capsys, "--epoch", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["table"]["epoch"] == 1 and data["table"]["decks"] == 16
    zahir = [c for c in data["cards"] if c["card"] == "ST01-001"]
    assert zahir[0]["charge"] == 17 and zahir[0]["previous_charge"] == 0
    code, out, _ = lake_cli(capsys, "--epoch", "0", "--json")
    assert json.loads(out)["cards"] == [] and json.loads(out)["table"]["start_date"] == "2026-01-05"
    code, out, _ = lake_cli(capsys, "--csv")
    assert out.splitlines()[0].startswith("epoch,card,name,n_c,N,share,smoothed_share,charge")


def test_cli_history_and_movers(capsys, lake_cli):
    code, out, _ = lake_cli(capsys, "--history")
    assert code == 0 and "e0" in out and "e1" in out
    code, out, _ = lake_cli(capsys, "--history", "--json")
    assert len(json.loads(out)["epochs"]) == 2
    code, out, _ = lake_cli(capsys, "--movers", "3", "--json")
    assert [m["delta"] for m in json.loads(out)["movers"]] == [17, 17, 17]


def test_cli_deck_check_exits_1_over_the_cap(capsys, lake_cli):
    code, out, _ = lake_cli(capsys, "--deck", RED)
    assert code == 1 and "charge 867 / cap 500: over the cap" in out and "CH-2.8" in out
    code, out, _ = lake_cli(capsys, "--deck", RED, "--date", "2026-01-06", "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["legal"] and verdict["charge"]["table"]["epoch"] == 0
    code, out, _ = lake_cli(capsys, "--deck", RED, "--tournament", "vw-02", "--csv")
    assert code == 0 and out.startswith("card,name,copies,charge,contribution")


def test_cli_friendly_errors(capsys, lake_cli, tmp_path):
    assert lake_cli(capsys, "--format", "draft")[0] == 2
    code, _, err = lake_cli(capsys, "--format", "draft")
    assert code == 2 and "no charges in format 'draft' (CH-1.2)" in err
    code, _, err = lake_cli(capsys, "--tournament", "vw-99")
    assert code == 2 and "'vw-99' is not a tournament of vitorian" in err
    code, _, err = lake_cli(capsys, "--deck", tmp_path / "none.txt")
    assert code == 2 and "no such deck file" in err
    code, _, err = lake_cli(capsys, "--epoch", "1", "--date", "2026-01-05")
    assert code == 2 and "give one" in err


def test_cli_missing_lake_and_empty_game(capsys, monkeypatch, tmp_path):
    code = cli.main(["charges", "--lake", str(tmp_path / "nope"), "--game", "vitorian"])
    assert code == 2 and "no such lake folder" in capsys.readouterr().err
    empty = connect(Tour("er-01", day(0), decks("a", 2)), game="eredan")
    monkeypatch.setattr(charges_command, "connect_lake", lambda root, args=None: empty)
    code = cli.main(["charges", "--lake", str(tmp_path), "--game", "vitorian"])
    assert code == 2 and "no tournaments of vitorian" in capsys.readouterr().err


def test_cli_on_the_fixture_lake(capsys, fixture_lake, monkeypatch):
    lake = fixture_lake
    monkeypatch.setenv("COLUMNS", "200")
    code = cli.main(["charges", "--lake", str(lake.root), "--game", "vitorian", "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["table"]["epoch"] >= 1


def test_cli_help_lists_the_options(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["charges", "--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and "--movers N" in out and "--tournament ID" in out


def test_the_game_may_be_left_out_of_a_lake_of_one_game(capsys, fixture_lake):
    """The fixture lake holds Vitorian matches only: `--game` defaults to it."""
    given = cli.main(["charges", "--lake", str(fixture_lake.root), "--game", "Vitorian",
                      "--movers", "3"])
    said = capsys.readouterr().out
    assert given == 0 and "vitorian standard" in said
    assert cli.main(["charges", "--lake", str(fixture_lake.root), "--movers", "3"]) == 0
    assert capsys.readouterr().out == said
