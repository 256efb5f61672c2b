"""Fuzzing the deck list parser (engine.decklist): text and JSON, as people's files hold them.

The only error is DeckListError, naming the file first and the line (text, or bytes that are not
UTF-8) or the place (JSON: a line and column, or the field's path); never a UnicodeDecodeError,
a RecursionError or int()'s ValueError for a 5000-digit count. A deck that parses can be put in a
match header: every count fits the log's 64-bit field.

engine/ has no other parser of people's files: the scenarios of tests/*/scenario.py build states
in code, and the catalogs and charge settings under data/ are the project's own.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.decklist import (
    BOM,
    MAX_COUNT,
    DeckListError,
    decode_json_decklist,
    load_decklist,
    parse_decklist,
)
from engine.vitorian.cards import DATA_DIR
from events.base import Header, Seat
from tests.events.strategies import replaced

FUZZ = settings(max_examples=250, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
STARTERS = sorted((DATA_DIR / "decks").glob("*.txt"))
JUNK = st.sampled_from(["\ufeff", "\x00", "\r", "\r\n", "\x0c", "\u2028", "[", "]", "#", "x",
                        ":", "name:", "9" * 5000, "-1 ", "0 ", "٣ ", "² ", "\ud800"]) \
    | st.text(max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from([2**63, -(2**63), 10**30])
    | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


def lines_of(text: str) -> int:
    return len(re.split(r"\r\n|\r|\n", text))


def parsed_or_refused(text: str, source: str = "my-deck.txt") -> None:
    """parse_decklist raises only DeckListError, at a line the text has; a deck it returns
    goes into a log's header."""
    try:
        deck = parse_decklist(text, source)
    except DeckListError as err:
        assert str(err).startswith(f"{source}:{err.line}: ") and err.line is not None
        assert 1 <= err.line <= lines_of(text)
        return
    header = Header(game="vitorian", ruleset="vitorian@1", match_id="m",
                    seats=[Seat(seat=0, player="a", setup=deck)])
    msgspec.msgpack.encode(header)


@FUZZ
@given(text=st.text(max_size=200))
def test_arbitrary_text_is_a_deck_or_a_line_error(text: str) -> None:
    parsed_or_refused(text)


@FUZZ
@given(deck=st.sampled_from(STARTERS), at=st.integers(0, 10**6), junk=JUNK,
       drop=st.booleans())
def test_a_mutated_starter_deck_is_a_deck_or_a_line_error(deck: Path, at: int, junk: str,
                                                         drop: bool) -> None:
    text = deck.read_text(encoding="utf-8")
    at %= len(text) + 1
    parsed_or_refused(text[:at] + junk + text[at + drop:])


@FUZZ
@given(deck=st.sampled_from(STARTERS), at=st.integers(0, 10**6),
       junk=st.binary(max_size=4) | st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80",
                                                      BOM.encode()]),
       suffix=st.sampled_from([".txt", ".json"]))
def test_a_deck_file_with_any_bytes_is_a_deck_or_our_error(tmp_path: Path, deck: Path, at: int,
                                                          junk: bytes, suffix: str) -> None:
    data = deck.read_bytes()
    at %= len(data) + 1
    path = tmp_path / f"deck{suffix}"
    path.write_bytes(data[:at] + junk + data[at:])
    try:
        load_decklist(path)
    except DeckListError as err:
        assert str(err).startswith(f"{path}:") and "\n" not in str(err)


def json_form(deck: Path) -> object:
    return msgspec.to_builtins(load_decklist(deck))


@FUZZ
@given(deck=st.sampled_from(STARTERS), where=st.lists(st.integers(0, 100), max_size=5),
       new=json_values, junk=st.sampled_from(["", "\ufeff", "[" * 3000, "\ud800", "\x00"]))
def test_a_mutated_json_deck_is_a_deck_or_our_error(deck: Path, where: list[int], new: object,
                                                    junk: str) -> None:
    text = junk + json.dumps(replaced(json_form(deck), where, new), indent=1)
    try:
        parsed = decode_json_decklist(text, "deck.json")
    except DeckListError as err:
        assert str(err).startswith("deck.json: invalid JSON deck list: ")
        return
    header = Header(game="vitorian", ruleset="vitorian@1", match_id="m",
                    seats=[Seat(seat=0, player="a", setup=parsed)])
    msgspec.msgpack.encode(header)


@pytest.mark.parametrize("data", [b"\xef\xbb\xbf", b""])
def test_a_byte_order_mark_is_no_part_of_the_deck(tmp_path: Path, data: bytes) -> None:
    for starter in STARTERS:
        text = tmp_path / "deck.txt"
        text.write_bytes(data + starter.read_bytes())
        as_json = tmp_path / "deck.json"
        as_json.write_bytes(data + msgspec.json.encode(load_decklist(starter)))
        assert load_decklist(text) == load_decklist(as_json) == load_decklist(starter)
    assert parse_decklist("\ufeff[Sovereign]\nMarechal Zahir\n").section("sovereign")


def test_errors_name_the_file_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "d.txt"
    path.write_bytes(b"[Maneuver]\n4 Steel Grenadiers\n2 Caf\xe9 Guard\n")
    with pytest.raises(DeckListError, match=r"d\.txt:3: not UTF-8 text: byte 0xe9 at column 6$"):
        load_decklist(path)
    with pytest.raises(DeckListError, match=rf"^d\.txt:2: count must be at most {MAX_COUNT}"):
        parse_decklist("[Maneuver]\n" + "9" * 5000 + " Steel Grenadiers\n", "d.txt")
    with pytest.raises(DeckListError, match=r"^d\.txt:3: expected 'COUNT CARD'"):
        parse_decklist("[Maneuver]\f\n4 Steel Grenadiers\u2028\nGrenadiers\n", "d.txt")
    with pytest.raises(DeckListError, match=r"^d\.json: invalid JSON deck list: .*\(line 2, "):
        decode_json_decklist('{"sections":\n {"a": [}}', "d.json")
    big = json.dumps({"sections": {"maneuver": [{"card": "X", "count": 10**30}]}})
    with pytest.raises(DeckListError, match=r"count outside .* `\$\.sections\.maneuver\[0\]\."):
        decode_json_decklist(big, "d.json")
