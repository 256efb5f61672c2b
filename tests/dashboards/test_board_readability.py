"""The boards can be read: at a spread of steps of several logs of each game, seen as every
perspective, as the Replay page draws them (dashboards.replaying.frame).

Every name is written whole (wrapped or in a smaller font, never cut with an ellipsis), every
card drawn carries a <title> (the browser's hover tooltip) with its full name and its rules
text, and every marker the board draws (badge, tag, outline, chip, card back) is named in the
legend under it. The new titles keep the hidden-information promise the page's other checks
hold (tests/games/test_app_secrets.py): a perspective's SVG, its tooltips included, names no
card it may not see. In a browser at 1400 px, the perspective control shows each label whole and
no card name runs out of its card.
"""
from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from dashboards.boards import eredan as eredan_board
from dashboards.boards import vitorian as vitorian_board
from dashboards.replaying import ReplayCursor, frame, open_replay
from engine.ruleset import OMNISCIENT, SPECTATOR, Perspective
from engine.tournament import SeasonConfig, run_season
from pipeline.ingest import find_logs
from pipeline.lake import Lake
from tests.dashboards.board_checks import SVG
from tests.dashboards.browsing import CHROMIUM_ARGS, idle, start_app, stop
from tests.dashboards.conftest import lake_of
from tests.eredan.test_hidden import names_in, scrubbed
from tests.eredan.test_hidden import secrets as eredan_secrets
from tests.vitorian.test_hidden import hidden_ids, secret_names

STEPS = 8
"""Steps looked at per log, spread over the match (its first and last too)."""
PERSPECTIVES: tuple[Perspective, ...] = (OMNISCIENT, SPECTATOR, 0, 1)
CARDS = {"unit", "card-face", "command-card", "character", "played"}
"""Classes of the groups that draw one card each (a card back draws none: it is hidden)."""
STRUCTURE = {
    "vitorian": {"grid", "unit", "box", "name", "hand", "seat-0", "seat-1", "command-area",
                 "command-card", "resource-area", "resources", "zones", "defense-count",
                 "card-face"},
    "eredan": {"seat-0", "seat-1", "hand", "line", "character", "box", "name", "played-cards",
               "played", "changes", "card-face"},
}
"""Classes that lay the board out rather than mark something on it (a card face is explained
in the legend too, but needs no explaining)."""
ORDINAL = re.compile(r"^\d+\. ")
"""A played card's name starts with its place in the activation order."""


@dataclass
class Drawn:
    """One step of a log as a perspective sees it on the page: the view and the parsed SVG."""

    game: str
    cursor: ReplayCursor
    step: int
    perspective: Perspective
    view: dict[str, Any]
    root: ElementTree.Element


@pytest.fixture(scope="module")
def eredan_logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """`postgame simulate eredan --players 4 --rounds 2 --seed 3`: 4 logs."""
    out = tmp_path_factory.mktemp("eredan-readable")
    run_season(SeasonConfig(game="eredan", players=4, rounds=2, seed=3, out=out))
    return sorted(out.rglob("*.pglog"))


def _drawn(logs: list[Path]) -> list[Drawn]:
    found = []
    for path in logs:
        cursor = open_replay(path)
        last = cursor.total
        for step in sorted({round(i * last / (STEPS - 1)) for i in range(STEPS)}):
            for who in PERSPECTIVES:
                shown = frame(cursor, step, who)
                with cursor.lock:
                    replay = cursor.replay
                    view = replay.ruleset.view(replay.seek(step), who)
                assert shown.svg is not None
                found.append(Drawn(cursor.game, cursor, step, who, view,
                                   ElementTree.fromstring(shown.svg)))
    return found


@pytest.fixture(scope="module")
def drawn(season_logs: list[Path], eredan_logs: list[Path]) -> list[Drawn]:
    boards = _drawn(season_logs) + _drawn(eredan_logs)
    assert {b.game for b in boards} == {"vitorian", "eredan"}
    return boards


@cache
def catalog_names(game: str) -> frozenset[str]:
    if game == "vitorian":
        from engine.vitorian.cards import load_catalog as vitorian_catalog

        return frozenset(c.name for c in vitorian_catalog().cards)
    from engine.eredan.cards import load_catalog as eredan_catalog

    catalog = eredan_catalog()
    return frozenset(c.name for c in (*catalog.characters, *catalog.cards))


@cache
def rules_texts(game: str) -> dict[str, str]:
    board = vitorian_board if game == "vitorian" else eredan_board
    return board._rules_text()


def classes(element: ElementTree.Element) -> set[str]:
    return set((element.get("class") or "").split())


def written(element: ElementTree.Element) -> str:
    """What a <text> says: its lines (tspans) joined by the spaces they were wrapped at."""
    spans = element.findall(f"{SVG}tspan")
    if spans:
        return " ".join(span.text or "" for span in spans)
    return element.text or ""


def parents(root: ElementTree.Element) -> dict[ElementTree.Element, ElementTree.Element]:
    return {child: parent for parent in root.iter() for child in parent}


def title_of(element: ElementTree.Element,
             up: dict[ElementTree.Element, ElementTree.Element]) -> str | None:
    """The tooltip of an element: its own <title>, or that of the group `titled` wraps it in."""
    for holder in (element, up.get(element)):
        found = None if holder is None else holder.find(f"{SVG}title")
        if found is not None:
            return found.text or ""
    return None


def outside_legend(root: ElementTree.Element) -> Iterator[ElementTree.Element]:
    """Every element of the board but the legend strip."""
    def walk(element: ElementTree.Element) -> Iterator[ElementTree.Element]:
        if "legend" in classes(element):
            return
        yield element
        for child in element:
            yield from walk(child)
    yield from walk(root)


def readable(root: ElementTree.Element) -> str:
    """Every word the SVG shows or tells on hover: texts (wrapped lines joined) and titles."""
    words = [written(t) for t in root.iter(f"{SVG}text")]
    words += [t.text or "" for t in root.iter(f"{SVG}title")]
    return "\n".join(words)


# (a) no name is cut -------------------------------------------------------------------------

def test_no_text_is_cut_and_every_name_is_whole(drawn: list[Drawn]) -> None:
    names = 0
    for board in drawn:
        known = names_in(board.view)
        for element in board.root.iter(f"{SVG}text"):
            words = written(element)
            assert "…" not in words and not words.endswith("..."), (board.game, words)
            if "name" in classes(element):
                name = ORDINAL.sub("", words) if board.game == "eredan" else words
                assert name in catalog_names(board.game), (board.game, board.step, name)
                assert name in known, (board.game, board.step, name)  # the view gave it
                names += 1
            if "equipment" in classes(element):
                assert words.removeprefix("+ ") in catalog_names(board.game), words
    assert names > 500


def test_attachments_are_named_in_full(drawn: list[Drawn]) -> None:
    """The Items and Pet lines of an Eredan character, wrapped or not, hold every name whole."""
    seen = 0
    for board in (b for b in drawn if b.game == "eredan"):
        listed = [name for t in board.root.iter(f"{SVG}text") if classes(t) & {"items", "pet"}
                  for name in re.sub(r"^(Items|Pet): ", "", written(t)).split(", ")]
        attached = [a["name"] for c in board.view["characters"] for a in c["attachments"]]
        assert sorted(listed) == sorted(attached), board.step
        seen += len(attached)
    assert seen > 0


# (b) every card has its tooltip --------------------------------------------------------------

def test_every_card_drawn_has_a_title_with_its_full_name_and_text(drawn: list[Drawn]) -> None:
    cards = with_text = 0
    for board in drawn:
        up = parents(board.root)
        texts = rules_texts(board.game)
        for group in board.root.iter(f"{SVG}g"):
            if not classes(group) & CARDS:
                continue
            name_text = next(t for t in group.iter(f"{SVG}text") if "name" in classes(t))
            name = ORDINAL.sub("", written(name_text))
            title = title_of(group, up)
            assert title is not None, (board.game, board.step, name)
            first = title.splitlines()[0]
            card_id = re.search(rf"{re.escape(name)} \(([^)]+)\)", first)
            assert card_id, (title, name)  # the full name, then the catalog id
            printed = texts.get(card_id.group(1), "")
            if printed:
                assert printed in title, (name, title)
                with_text += 1
            cards += 1
        for line in board.root.iter(f"{SVG}text"):
            if "equipment" in classes(line):
                assert written(line).removeprefix("+ ") in (title_of(line, up) or "")
    assert cards > 500 and with_text > 50


def test_the_titles_name_nothing_a_perspective_may_not_see(drawn: list[Drawn]) -> None:
    """test_app_secrets.py's checks, on the words and tooltips of the SVG alone: no hidden card's
    name (Vitorian: not even the name a visible card does not also bear; Eredan: once the
    names the view gives are taken out)."""
    secrets = 0
    for board in drawn:
        if board.perspective == OMNISCIENT:
            continue
        with board.cursor.lock:
            replay = board.cursor.replay
            state = replay.seek(board.step)
            header = replay.header
        words = readable(board.root)
        if board.game == "vitorian":
            names = secret_names(state, header, hidden_ids(state, board.perspective))
            leaked = sorted(n for n in names if n in words)
        else:
            _, names = eredan_secrets(state, board.perspective)
            known = names_in(board.view)
            names -= known
            leaked = sorted(n for n in names if n in scrubbed(words, known))
        assert not leaked, (board.game, board.step, board.perspective, leaked)
        secrets += len(names)
    assert secrets > 0, "no step had a secret to keep"


# (c) every marker in the legend --------------------------------------------------------------

def legend_markers(root: ElementTree.Element) -> set[str]:
    legend = next(g for g in root.iter(f"{SVG}g") if "legend" in classes(g))
    return {marker for item in legend.iter(f"{SVG}g") if "legend-item" in classes(item)
            for marker in (item.get("data-marker") or "").split()}


def test_each_marker_the_board_draws_is_in_its_legend(drawn: list[Drawn]) -> None:
    seen: dict[str, set[str]] = {"vitorian": set(), "eredan": set()}
    for board in drawn:
        legend = legend_markers(board.root)
        up = parents(board.root)
        for element in outside_legend(board.root):
            marks = classes(element) - STRUCTURE[board.game]
            assert marks <= legend, (board.game, board.step, marks - legend)
            seen[board.game] |= marks
            if element.get("stroke-dasharray") or element.get("opacity"):
                holder: ElementTree.Element | None = element  # the class explaining the style
                while holder is not None and not classes(holder) & legend:
                    holder = up.get(holder)
                assert holder is not None, (board.game, ElementTree.tostring(element)[:200])
    assert {"attack", "defense", "level", "status-exh", "status-new", "exhausted",
            "card-back", "defense-pile", "resource-p", "resource-s",
            "change-mobilized", "changed"} <= seen["vitorian"], seen["vitorian"]
    assert {"hp", "attack", "spirit", "status-tapped", "tapped", "card-back", "items",
            "marks"} <= seen["eredan"], seen["eredan"]


def test_the_legends_name_every_kind_a_board_can_draw(drawn: list[Drawn]) -> None:
    """Not only what the sample steps drew: every change kind, status tag and resource."""
    vitorian = legend_markers(next(b.root for b in drawn if b.game == "vitorian"))
    assert {f"change-{kind}" for kind in vitorian_board.CHANGE_STYLES} <= vitorian
    assert {f"status-{label.lower()}" for _, label, _ in vitorian_board.STATUS_TAGS} <= vitorian
    assert {f"resource-{kind.lower()}" for kind in vitorian_board.RESOURCE_COLOURS} <= vitorian
    eredan = legend_markers(next(b.root for b in drawn if b.game == "eredan"))
    assert {f"change-{kind}" for kind in eredan_board.CHANGE_COLOURS} <= eredan
    assert {f"status-{label.lower()}" for _, label, _ in eredan_board.TAGS} <= eredan


# (d) in a browser at 1400 px ------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_game_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """A Vitorian and an Eredan season of four players, one lake."""
    out = tmp_path_factory.mktemp("readable-lake")
    for game in ("vitorian", "eredan"):
        run_season(SeasonConfig(game=game, players=4, rounds=1, seed=7, out=out / game))
    return lake_of(find_logs([out / "vitorian", out / "eredan"]), out / "lake")


@pytest.fixture(scope="module")
def wide_page(two_game_lake: Lake) -> Iterator[tuple[Any, str]]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    assert chromium, "chromium is not on PATH: apt-get install -y chromium"
    server, url = start_app(Path(two_game_lake.root))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                                 args=CHROMIUM_ARGS)
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            yield tab, url
            browser.close()
    finally:
        stop(server)


RADIOS = '[data-testid="stButtonGroup"] [role="radiogroup"]'
SEGMENTS_JS = """() => {
  const group = document.querySelector('[data-testid="stButtonGroup"] [role="radiogroup"]');
  const box = group.getBoundingClientRect();
  return {scroll: group.scrollWidth - group.clientWidth,
          labels: [...group.querySelectorAll('button')].map(b => {
            const r = b.getBoundingClientRect(), p = b.querySelector('p');
            return {text: b.innerText, left: r.left - box.left, right: box.right - r.right,
                    cut: p ? p.scrollWidth - p.clientWidth : 0};
          })};
}"""
OVERFLOW_JS = """() => {
  const svg = document.querySelector('.postgame-board svg');
  const edge = svg.getBoundingClientRect(), out = [];
  for (const t of svg.querySelectorAll('text')) {
    const c = t.getBoundingClientRect(), b = t.getBBox();
    if (c.left < edge.left - 0.5 || c.right > edge.right + 0.5)
      out.push(['off the board', t.textContent]);
    if (!t.matches('.name, .equipment, .items, .pet, .runes, .marks')) continue;
    let g = t.parentElement;
    while (g && !g.querySelector(':scope > rect.box')) g = g.parentElement;
    if (!g) { out.push(['no card', t.textContent]); continue; }
    const r = g.querySelector(':scope > rect.box').getBBox();
    if (b.x < r.x - 0.5 || b.x + b.width > r.x + r.width + 0.5 || b.y < r.y - 0.5
        || b.y + b.height > r.y + r.height + 0.5)
      out.push([t.textContent, [b.x, b.y, b.width, b.height], [r.x, r.y, r.width, r.height]]);
  }
  return {names: svg.querySelectorAll('text.name').length, out: out};
}"""


def match_ids(lake: Lake, game: str) -> list[str]:
    con = lake.connect()
    try:
        rows = con.execute("SELECT match_id FROM matches WHERE game = ? ORDER BY events DESC",
                           [game]).fetchall()
    finally:
        con.close()
    return [str(r[0]) for r in rows]


@pytest.mark.parametrize(("game", "moments"), [
    ("vitorian", [(40, "spectator"), (60, "0"), (70, "organiser")]),
    ("eredan", [(8, "organiser"), (30, "0"), (60, "1")])])
def test_at_1400_px_the_labels_and_names_fit(wide_page: tuple[Any, str], two_game_lake: Lake,
                                             game: str, moments: list[tuple[int, str]]) -> None:
    page, url = wide_page
    match_id = match_ids(two_game_lake, game)[0]
    for step, seen in moments:
        page.goto(f"{url}/?game={game}&match={match_id}&step={step}&as={seen}")
        page.wait_for_selector('[data-testid="stApp"]')
        idle(page)
        page.locator(".postgame-board svg text.name").first.wait_for(timeout=60_000)
        page.locator(RADIOS).get_by_role("radio", name="Spectator").wait_for(timeout=60_000)
        idle(page)
        segments = page.evaluate(SEGMENTS_JS)
        assert segments["scroll"] <= 0, segments
        assert segments["labels"][0]["text"] == "Organiser", segments
        for label in segments["labels"]:
            assert label["left"] >= -0.5 and label["right"] >= -0.5, label
            assert label["cut"] <= 0, label
        fits = page.evaluate(OVERFLOW_JS)
        assert fits["names"] > 0 and not fits["out"], (game, step, seen, fits["out"][:5])
