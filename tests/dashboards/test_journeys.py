"""The designer's journeys, walked in chromium on the fixture lake, each step screenshotted:
a shared link at a step and perspective, stepping with the keyboard, a card page reached from
the card table and a match at the card's first play reached from it, an illegal deck with every
reason read, and every page of the app.

Screenshots are kept as test artifacts in $POSTGAME_ARTIFACTS/screenshots (default:
artifacts/screenshots at the top of the repository, which git ignores), one PNG per moment,
named by journey and step, so a person can look at what the test saw.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest

from pipeline.lake import Lake
from tests.dashboards.browsing import idle, open_page, step_of

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("POSTGAME_ARTIFACTS", ROOT / "artifacts")) / "screenshots"
PAGES = {"": "Replay", "cards": "Card stats", "card": "Card", "matchups": "Matchups",
         "archetypes": "Archetypes", "charges": "Charges", "glossary": "Glossary",
         "export": "Export", "lake": "Data"}


def shot(page: Any, name: str) -> Path:
    """Keep what the page shows now as SHOTS/<name>.png (the whole page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000, f"{path}: an empty screenshot"
    return path


def pick(page: Any, label: str, option: str) -> None:
    """Choose `option` in the selectbox labelled `label`, by typing it as a person would."""
    box = page.get_by_label(label)
    box.click()
    page.keyboard.type(option)
    page.get_by_role("option", name=re.compile(re.escape(option))).first.wait_for()
    page.keyboard.press("Enter")  # the first match typed, as a keyboard user picks it
    idle(page)


@pytest.fixture(scope="module")
def lake_facts(fixture_lake: Lake) -> dict[str, Any]:
    con: duckdb.DuckDBPyConnection = fixture_lake.connect()
    try:
        match_id, events = con.execute("SELECT match_id, events FROM matches "
                                       "ORDER BY match_id LIMIT 1").fetchone()
        card, name = con.execute("""
            SELECT e.card, min(d.card_name)
            FROM card_events AS e
            JOIN deck_cards AS d USING (match_id, seat, card)
            WHERE e.kind = 'played' GROUP BY e.card
            ORDER BY count(DISTINCT (e.match_id, e.seat)) DESC, e.card LIMIT 1""").fetchone()
    finally:
        con.close()
    return {"match": match_id, "events": events, "card": card, "name": name}


def test_every_page_is_kept_as_a_screenshot(page: Any, app_url: str) -> None:
    for path, title in PAGES.items():
        open_page(page, f"{app_url}/{path}")
        page.get_by_role("heading", name=title).first.wait_for()
        assert page.locator('[data-testid="stException"]').count() == 0, path
        shot(page, f"page_{path or 'replay'}")


def test_a_shared_link_opens_that_moment_and_the_keyboard_steps_it(
        page: Any, app_url: str, lake_facts: dict[str, Any]) -> None:
    match = lake_facts["match"]
    open_page(page, f"{app_url}/?game=vitorian&match={match}&step=7&as=1")
    assert step_of(page) == 7
    assert "seen as seat 1" in (page.locator(".postgame-board svg").text_content() or "")
    assert page.get_by_role("radio", name=re.compile(r"^Seat 1 · ")).is_checked()
    shot(page, "journey_link_1_opened_at_step_7_as_seat_1")
    page.mouse.click(700, 120)  # the page, not a widget, has the focus
    page.wait_for_timeout(1500)  # the shortcuts listen once the buttons are mounted
    for key, expected in (("ArrowRight", 8), ("ArrowRight", 9), ("ArrowLeft", 8),
                          ("End", lake_facts["events"]), ("Home", 0)):
        page.keyboard.press(key)
        deadline = time.monotonic() + 15
        while step_of(page) != expected:
            assert time.monotonic() < deadline, (key, step_of(page))
            time.sleep(0.25)
            idle(page)
    shot(page, "journey_link_2_stepped_home_by_keyboard")
    assert "step=0" in page.url and f"match={match}" in page.url


def test_from_the_card_table_to_the_cards_first_play(
        page: Any, app_url: str, lake_facts: dict[str, Any]) -> None:
    open_page(page, f"{app_url}/cards")
    shot(page, "journey_card_1_card_stats")
    pick(page, "Open a card's page", lake_facts["name"])
    page.get_by_role("link", name=re.compile("Open its page")).click()
    idle(page)
    page.get_by_role("heading", name=lake_facts["name"]).first.wait_for()
    assert f"card={lake_facts['card']}" in page.url
    shot(page, "journey_card_2_card_page")
    page.get_by_role("link", name=re.compile("Open in Replay")).click()
    idle(page)
    step = step_of(page)
    line = page.locator("p", has_text=re.compile(r"^Step \d+/\d+")).first.inner_text()
    assert lake_facts["name"] in line, line  # the step is the card's first play
    assert f"step={step}" in page.url
    shot(page, "journey_card_3_replay_at_first_play")


def test_an_illegal_deck_says_every_reason(page: Any, app_url: str) -> None:
    deck = (ROOT / "data" / "vitorian" / "decks" / "red.txt").read_text()
    deck = deck.replace("4 Foundry Conscripts", "5 Foundry Conscripts\n1 Chimeny Raiders")
    open_page(page, f"{app_url}/charges")
    box = page.get_by_role("textbox", name="Deck list")
    box.fill(deck)
    box.press("Control+Enter")
    idle(page)
    page.get_by_text("is not legal").first.wait_for()
    said = page.locator('[data-testid="stAlertContentError"]').all_inner_texts()
    joined = " ".join(said)
    assert "Chimeny Raiders" in joined and "did you mean Chimney Raiders" in joined, said
    for rule in ("VW-3.17", "VW-3.3", "VW-3.5"):  # unknown card, 52 cards, a fifth copy
        assert any(reason.startswith(rule) for reason in said), (rule, said)
    shot(page, "journey_deck_1_every_reason")


def test_the_winning_chances_line_and_a_turning_point(
        page: Any, app_url: str, lake_facts: dict[str, Any]) -> None:
    open_page(page, f"{app_url}/?game=vitorian&match={lake_facts['match']}&as=0")
    page.get_by_role("button", name=re.compile("Estimate the winning chances")).click()
    page.get_by_text("Turning points").first.wait_for(timeout=120_000)
    idle(page)
    shot(page, "journey_chances_1_line")
    point = page.get_by_role("button", name=re.compile(r"^Step \d+ · turn \d+ · [+-]\d+%"))
    label = point.first.inner_text()
    expected = int(re.match(r"Step (\d+)", label).group(1))  # type: ignore[union-attr]
    point.first.click()
    idle(page)
    assert step_of(page) == expected
    shot(page, "journey_chances_2_at_a_turning_point")
