"""Issue 9, "Trust": the app tested as an attacker and an unlucky user would use it.

- Names from logs and deck lists (players, decks, tournaments) show as the characters they are:
  the Markdown the pages write has them escaped, the board's SVG has them as HTML text, and the
  HTML report has them escaped (test_browser.py checks no image is fetched).
- A replay is shown only while the file at the lake's log_path is the log that was ingested.
- The Charges page works on a lake of one tournament, and its deck checker answers every input
  with a message, never an exception.
"""
from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from dashboards.replaying import LogChanged
from dashboards.widgets import plain
from events.jsonl import load_log, to_jsonl
from events.log import encode_log
from pipeline.ingest import content_hash
from pipeline.lake import Lake
from tests.dashboards.conftest import (
    APP,
    HOST,
    HOSTILE_PLAYERS,
    TIMEOUT_S,
    lake_of,
    metric_values,
    shown,
    texts,
)

DECKS = Path(__file__).resolve().parents[2] / "data" / "vitorian" / "decks"
OpenApp = Callable[..., AppTest]
MARKUP = ("![", "<img", "<b>", "<i>", "**", "$x", ":red[", "`code`", "[deck](", "_it_")
"""How the hostile names would start markup if they reached Markdown unescaped."""
MARKDOWN = ("title", "header", "subheader", "markdown", "caption", "info", "success", "error",
            "warning")


def one_line(text: str) -> str:
    return re.sub(r"\r\n?|\n", " ", text)


def markdown_sources(at: AppTest) -> list[str]:
    """Every Markdown text of the page but the board (HTML, checked on its own)."""
    found = [str(getattr(e, "value", "")) for kind in MARKDOWN for e in at.get(kind)]
    return [value for value in found if "postgame-board" not in value]


STEP_LINE = re.compile(r"^\*\*Step \d+/\d+ · turn \d+\*\*")
"""The replay's own bold, before the (escaped) event."""


def assert_no_markup(at: AppTest) -> None:
    """No hostile text reached the page's Markdown unescaped (its marks all backslashed)."""
    assert not at.exception
    for source in markdown_sources(at):
        assert "could not be shown" not in source, source
        ours_off = STEP_LINE.sub("", source)
        for mark in MARKUP:
            assert not re.search(r"(?<!\\)" + re.escape(mark), ours_off), (mark, source)


def replay_of(lake: Lake, match_id: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(data.LAKE_ENV, str(lake.root))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.query_params["match"] = match_id
    return at.run()


def board(at: AppTest) -> str | None:
    return next((m.value for m in at.markdown if "postgame-board" in m.value), None)


# Hostile names ------------------------------------------------------------------------------

def hostile_matches(lake: Lake) -> list[tuple[str, list[str]]]:
    con = lake.connect()
    try:
        rows = con.execute("SELECT match_id, list(player ORDER BY seat) FROM seats "
                           "GROUP BY match_id ORDER BY match_id").fetchall()
    finally:
        con.close()
    return [(str(match_id), list(players)) for match_id, players in rows]


def test_hostile_names_are_text_on_the_replay_page(hostile_lake: Lake,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    matches = hostile_matches(hostile_lake)
    seen: set[str] = set()
    for match_id, players in matches:
        if set(players) <= seen:
            continue
        seen |= set(players)
        at = replay_of(hostile_lake, match_id, monkeypatch)
        assert_no_markup(at)
        caption = at.caption[0].value
        options = at.button_group(key="replay_perspective").options
        picture = board(at)
        assert picture is not None and "\n" not in picture and "<img" not in picture
        for seat, name in enumerate(players):
            assert plain(name) in caption and one_line(name) in shown(caption)
            assert f"Seat {seat} · {plain(name)}" in options
        if HOSTILE_PLAYERS[1] in players:
            assert "&lt;img src=x onerror=alert(1)&gt;" in picture
    assert seen == set(HOSTILE_PLAYERS)


@pytest.mark.parametrize("page", ["cards", "matchups", "charges", "export", "lake"])
def test_hostile_names_are_text_on_every_other_page(open_app: OpenApp, hostile_lake: Lake,
                                                    page: str) -> None:
    at = open_app(hostile_lake.root, page)
    assert_no_markup(at)


def test_a_hostile_deck_list_is_text_in_the_deck_check(open_app: OpenApp,
                                                       hostile_lake: Lake) -> None:
    at = open_app(hostile_lake.root, "charges")
    deck = (DECKS / "red.txt").read_text().splitlines()
    deck = [f"name: {HOSTILE_PLAYERS[0]} {HOSTILE_PLAYERS[1]}" if line.startswith("name:")
            else line for line in deck] + ["4 **bold** <img src=x onerror=alert(1)>"]
    at.text_area(key="charges_deck_text").input("\n".join(deck)).run()
    assert_no_markup(at)
    words = shown(texts(at))
    assert f"{HOSTILE_PLAYERS[0]} {HOSTILE_PLAYERS[1]}" in words  # the deck's name, verbatim
    assert "**bold** <img src=x onerror=alert(1)>" in words  # the unknown card, verbatim


def test_the_html_report_escapes_deck_names(hostile_lake: Lake,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(data.LAKE_ENV, str(hostile_lake.root))
    page = data.report_file(data.current_lake(), "html", "vitorian", None, None, None, 0)
    text = page.decode("utf-8")
    assert "&lt;b&gt;" in text and "<b>" not in text
    assert all(src.startswith("data:image/png;base64,")
               for src in re.findall(r'<img[^>]*\bsrc="([^"]*)"', text))
    assert f'="http://{HOST}' not in text


# A replay shows only the log that was ingested ----------------------------------------------

@pytest.fixture
def own_lake(tmp_path: Path, season_logs: list[Path],
             monkeypatch: pytest.MonkeyPatch) -> tuple[Lake, list[Path]]:
    """Two season logs copied into this test's folder (free to change) and ingested."""
    logs = [Path(shutil.copy(path, tmp_path / path.name)) for path in season_logs[:2]]
    lake = lake_of(logs, tmp_path / "lake")
    monkeypatch.setenv(data.LAKE_ENV, str(lake.root))
    return lake, logs


def match_of(path: Path) -> str:
    return load_log(path).header.match_id


def rewrite_player(path: Path, name: str) -> str:
    """Rewrite the log with seat 0 renamed (still a valid log, other content); its new hash."""
    log = load_log(path)
    seats = [msgspec.structs.replace(log.header.seats[0], player=name), *log.header.seats[1:]]
    body = encode_log(msgspec.structs.replace(log.header, seats=seats), log.batches(), path)[0]
    path.write_bytes(body)
    return content_hash(body)


def lake_hash(lake: Lake, match_id: str) -> str:
    con = lake.connect()
    try:
        found = con.execute("SELECT content_hash FROM matches WHERE match_id = ?",
                            [match_id]).fetchone()
    finally:
        con.close()
    assert found is not None
    return str(found[0])


def test_a_log_changed_after_ingest_is_refused_naming_both_hashes(
        own_lake: tuple[Lake, list[Path]]) -> None:
    lake, logs = own_lake
    match_id = match_of(logs[0])
    ref = data.current_lake()
    assert data.replay_cursor(ref, match_id).total > 0  # as ingested: replayed (and cached)
    recorded = lake_hash(lake, match_id)
    now = rewrite_player(logs[0], "Mallory")
    with pytest.raises(LogChanged) as refused:
        data.replay_cursor(ref, match_id)
    assert str(refused.value) == (f"the log at {logs[0]} changed since it was ingested: its "
                                  f"content hash is {now}, the lake recorded {recorded}")
    with pytest.raises(LogChanged):
        data.replay_frame(ref, match_id, 0, "organiser")
    assert data.replay_cursor(ref, match_of(logs[1])).total > 0  # the other match is intact


def test_a_changed_log_is_not_shown_on_the_page(own_lake: tuple[Lake, list[Path]],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    lake, logs = own_lake
    match_id = match_of(logs[0])
    rewrite_player(logs[0], "Mallory")
    at = replay_of(lake, match_id, monkeypatch)
    assert not at.exception
    error = shown(at.error[0].value)
    assert error.startswith("This match cannot be replayed: the log at ")
    assert "changed since it was ingested" in error and lake_hash(lake, match_id) in error
    assert board(at) is None and not any(m.value.startswith("**Step") for m in at.markdown)
    assert "Mallory" not in texts(at)


def test_a_log_changed_while_the_page_is_open_stops_the_replay(
        own_lake: tuple[Lake, list[Path]], monkeypatch: pytest.MonkeyPatch) -> None:
    lake, logs = own_lake
    at = replay_of(lake, match_of(logs[0]), monkeypatch)
    assert board(at) is not None
    rewrite_player(logs[0], "Mallory")
    at.button(key="replay_next").click().run()
    assert not at.exception
    assert any("changed since it was ingested" in shown(e.value) for e in at.error)
    assert board(at) is None


def test_a_log_gone_since_ingest_is_said_so(own_lake: tuple[Lake, list[Path]],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    lake, logs = own_lake
    match_id = match_of(logs[0])
    logs[0].unlink()
    with pytest.raises(LogChanged, match="is not there any more"):
        data.replay_cursor(data.current_lake(), match_id)
    at = replay_of(lake, match_id, monkeypatch)
    assert not at.exception and board(at) is None
    error = shown(at.error[0].value)
    assert f"the log at {logs[0]} is not there any more" in error
    assert lake_hash(lake, match_id) in error


def test_a_json_lines_log_is_checked_by_its_binary_form(tmp_path: Path,
                                                        season_logs: list[Path],
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Ingest hashes a .jsonl by its binary form; the replay check must agree, and refuse the
    file once a line of it is edited."""
    jsonl = tmp_path / "match.jsonl"
    to_jsonl(season_logs[0], jsonl)
    lake = lake_of([jsonl], tmp_path / "lake")
    monkeypatch.setenv(data.LAKE_ENV, str(lake.root))
    match_id = match_of(jsonl)
    assert data.replay_cursor(data.current_lake(), match_id).total > 0
    player = load_log(jsonl).header.seats[0].player
    text = jsonl.read_text()
    assert player in text
    jsonl.write_text(text.replace(player, "Mallory"))
    with pytest.raises(LogChanged, match="changed since it was ingested"):
        data.replay_cursor(data.current_lake(), match_id)


# Charges on a lake of one tournament; the deck checker on any input -------------------------

def test_charges_on_a_lake_of_one_tournament(open_app: OpenApp,
                                             one_tournament_lake: Lake) -> None:
    at = open_app(one_tournament_lake.root, "charges")
    assert not at.exception and not at.error
    assert [s.value for s in at.subheader][:2] == ["Table of epoch 0", "Charge over the epochs"]
    words = texts(at)
    assert "the initial table" in words and "Only one table so far" in words
    assert "Epoch 0 ends after 2 tournaments (CH-2.1) and this lake holds 1 of" in words
    at.text_area(key="charges_deck_text").input((DECKS / "red.txt").read_text()).run()
    assert not at.exception
    assert metric_values(at)["Deck charge"] == "0"
    assert at.success and "is legal: charge 0" in at.success[0].value


def huge_count(copies: str) -> tuple[str, int]:
    """red.txt with one line's count replaced; the line's number."""
    lines = (DECKS / "red.txt").read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("4 "))
    lines[number - 1] = copies + lines[number - 1][1:]
    return "\n".join(lines), number


DECK_INPUTS = {
    "30 digits": huge_count("1" * 30),
    "64 bits": huge_count(str(2**63 - 1)),
    "zero": huge_count("0"),
    "json counts": (json.dumps({"sections": {"maneuver": [
        {"card": "ST01-005", "count": 2**63 - 1}, {"card": "ST01-006", "count": -5}]}}), 0),
    "json nested": ('{"sections": ' + "[" * 15_000, 0),
    "too long": ("[Maneuver]\n" + "4 Steel Grenadiers\n" * 2_000, 0),
    "no section": ("4 Steel Grenadiers", 1),
    "unknown section": ("[Bench]\n4 Steel Grenadiers", 0),
    "control characters": ("[Maneuver]\n4 \x00\x0b\x1b[31m\u2028x", 0),
}


@pytest.mark.parametrize("case", sorted(DECK_INPUTS))
def test_the_deck_checker_answers_every_input_with_a_message(open_app: OpenApp,
                                                             fixture_lake: Lake,
                                                             case: str) -> None:
    text, line = DECK_INPUTS[case]
    at = open_app(fixture_lake.root, "charges")
    at.text_area(key="charges_deck_text").input(text).run()
    assert not at.exception
    errors = [shown(e.value) for e in at.error]
    assert errors and not any("could not be shown" in e for e in errors), errors
    said = "\n".join(errors)
    if case == "30 digits":  # the parser names the line, or the copy rule refuses the count
        assert f"<pasted deck>:{line}:" in said or "VW-3.5" in said
    elif case == "64 bits":  # legal to parse: the copy rule refuses it, the table shows it
        assert "VW-3.5" in said
        assert str(2**63 - 1) in set(at.dataframe[-1].value["copies"].astype(str))
    elif line:
        assert f"<pasted deck>:{line}:" in said
    assert all(re.match(r"(This deck list cannot be read: <pasted deck>|[A-Z]+-[\d.]+: )", e)
               for e in errors), errors
