"""Hand-written deck lists (engine.decklist): the text form, its errors, JSON and round trips."""
from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.decklist import format_decklist, load_decklist, parse_decklist
from engine.vitorian.cards import DATA_DIR, load_catalog
from events.base import DeckEntry, DeckList

TEXT = """\
# Red test deck
name: Boiler Room Blitz

[SOVEREIGN]
Marechal Zahir          # no count: one Sovereign

[Maneuver]
4 Steel Grenadiers
4x ST01-005
  2   Shell   Barrage   # spaces collapse

[ Defense ]
4 Protection of the Crown
[convoy]
6 Diesel Supplies
4 Conscripted Personnel
"""


def test_parse_sections_counts_comments_and_name() -> None:
    deck = parse_decklist(TEXT)
    assert deck.name == "Boiler Room Blitz"
    assert list(deck.sections) == ["sovereign", "maneuver", "defense", "convoy"]
    assert deck.section("sovereign") == [DeckEntry(card="Marechal Zahir", count=1)]
    assert deck.section("maneuver") == [DeckEntry(card="Steel Grenadiers", count=4),
                                        DeckEntry(card="ST01-005", count=4),
                                        DeckEntry(card="Shell Barrage", count=2)]
    assert deck.section("convoy")[0] == DeckEntry(card="Diesel Supplies", count=6)


def test_card_names_may_start_with_x_or_digits() -> None:
    deck = parse_decklist("[Maneuver]\n2 X-Ray Spotters\n1 88 Flak Battery\n")
    assert [e.card for e in deck.section("maneuver")] == ["X-Ray Spotters", "88 Flak Battery"]


def test_empty_text_and_empty_section() -> None:
    assert parse_decklist("") == DeckList(sections={})
    assert parse_decklist("[Maneuver]\n").sections == {"maneuver": []}


@pytest.mark.parametrize(("text", "line", "message"), [
    ("[Maneuver]\n4 Steel Grenadiers\nSteel Grenadiers\n", 3, "expected 'COUNT CARD'"),
    ("# header\n4 Steel Grenadiers\n", 2, "before any [Section] header"),
    ("[Maneuver]\n0 Steel Grenadiers\n", 2, "count must be at least 1"),
    ("name: a\n\nname: b\n", 3, "second 'name:' line"),
    ("[Maneuver]\n4\n", 2, "expected 'COUNT CARD'"),
])
def test_bad_line_names_source_and_line_number(text: str, line: int, message: str) -> None:
    with pytest.raises(ValueError, match=rf"^decks/red\.txt:{line}: .*") as err:
        parse_decklist(text, source="decks/red.txt")
    assert message in str(err.value)


def test_format_round_trip() -> None:
    deck = parse_decklist(TEXT)
    assert parse_decklist(format_decklist(deck)) == deck


def test_format_with_catalog_lookup_adds_names_as_comments() -> None:
    catalog = load_catalog()
    deck = DeckList(name="ids", sections={"maneuver": [DeckEntry(card="ST01-004", count=4)]})

    def lookup(card: str) -> str | None:
        found = catalog.find(card)
        return found.name if found else None

    text = format_decklist(deck, lookup)
    assert "4 ST01-004  # Steel Grenadiers" in text
    assert parse_decklist(text) == deck


@pytest.mark.parametrize("color", ["red", "blue", "white", "green"])
def test_starter_files_round_trip(color: str) -> None:
    deck = load_decklist(DATA_DIR / "decks" / f"{color}.txt")
    assert parse_decklist(format_decklist(deck)) == deck


def test_load_json_by_extension_and_by_content(tmp_path: Path) -> None:
    deck = parse_decklist(TEXT)
    encoded = msgspec.json.encode(deck)
    (tmp_path / "deck.json").write_bytes(encoded)
    (tmp_path / "deck.txt").write_bytes(b"  \n" + encoded)
    (tmp_path / "deck.dek").write_text(TEXT, encoding="utf-8")
    for name in ("deck.json", "deck.txt", "deck.dek"):
        assert load_decklist(tmp_path / name) == deck


def test_bad_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"sections": {"maneuver": [{"card": "X"}]}}', encoding="utf-8")
    with pytest.raises(ValueError, match="broken.json: invalid JSON deck list"):
        load_decklist(path)


def test_text_load_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("[Maneuver]\nfour Steel Grenadiers\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.txt:2: "):
        load_decklist(path)


WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'-", min_size=1,
               max_size=8)
CARD = st.lists(WORD, min_size=1, max_size=4).map(" ".join)
SECTION = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=10)
ENTRY = st.builds(DeckEntry, card=CARD, count=st.integers(1, 60))
DECKS = st.builds(DeckList, name=st.one_of(st.just(""), CARD),
                  sections=st.dictionaries(SECTION, st.lists(ENTRY, max_size=6), max_size=5))


@given(DECKS)
def test_round_trip_property(deck: DeckList) -> None:
    """Any deck with lowercase section keys and plain card names survives text and back."""
    assert parse_decklist(format_decklist(deck)) == deck
