"""The V20 combat board: on every step of real simulated scenes (the bonfire sweep and the
alley ambush), each perspective's picture holds the public facts of every character, the
blood and Willpower of only the characters that perspective is entitled to, the dice of the
step's roll, and names as text, never as markup.

The changes are those the Replay page hands the board: the game's narration's change data."""
from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any
from xml.etree import ElementTree

import pytest

from dashboards.boards import board_renderer, known_boards
from dashboards.boards.svg import clip
from dashboards.boards.v20 import render_svg
from engine import registry
from engine.games import get_game
from engine.narration import narration_for
from engine.replay import Replay
from engine.ruleset import OMNISCIENT, SPECTATOR, Perspective, get_ruleset
from engine.tournament import SeasonConfig, run_season
from engine.v20.dice import clamp_difficulty, outcome_name
from events.log import read_log
from tests.dashboards.board_checks import SVG, view_at
from tests.dashboards.conftest import HOSTILE_PLAYERS

PERSPECTIVES: tuple[Perspective, ...] = (OMNISCIENT, SPECTATOR, 0, 1)
SEEN_AS: dict[Perspective, str] = {OMNISCIENT: "seen as the Storyteller", SPECTATOR: "seen as a spectator",
           0: "seen as side A", 1: "seen as side B"}
BADGE_KEYS = ("final_death", "dead", "torpor", "incapacitated", "gone", "npc", "frenzy",
              "rotschreck", "blind", "full_defense")


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> list[Replay]:
    """`postgame simulate v20 --matches 1 --seed 3` (the bonfire sweep, 16 scenes) and the
    alley ambush, replayed."""
    out = tmp_path_factory.mktemp("v20-board")
    run_season(SeasonConfig(game="v20", players=2, rounds=1, seed=3, out=out / "bonfire"))
    run_season(SeasonConfig(game="v20", players=2, rounds=1, seed=3, out=out / "alley",
                            scenario=get_game("v20").scenario("alley")))
    logs = [read_log(path) for path in sorted(out.rglob("*.pglog"))]
    return [Replay(get_ruleset(log.header.ruleset), log.header, log.events) for log in logs]


def changes_at(replay: Replay, step: int, perspective: Perspective) -> list[dict[str, Any]]:
    narration = narration_for("v20")
    replay.seek(step)
    return [narration.change_data(replay.header, c, perspective) for c in replay.changes]


Drawn = tuple[dict[str, Any], ElementTree.Element]


def board(replay: Replay, step: int, perspective: Perspective) -> Drawn:
    """The perspective's view at the step and its board, parsed."""
    view = view_at(replay, step, perspective)
    svg = render_svg(view, changes_at(replay, step, perspective))
    return view, ElementTree.fromstring(svg)


def every_step(replays: list[Replay]) -> Iterator[tuple[Replay, int]]:
    for replay in replays:
        for step in range(len(replay) + 1):
            yield replay, step


def cards(root: ElementTree.Element) -> dict[str, ElementTree.Element]:
    return {g.get("data-id", ""): g for g in root.iter(f"{SVG}g")
            if g.get("class") == "character"}


def classes(element: ElementTree.Element, name: str) -> list[ElementTree.Element]:
    return [e for e in element.iter() if e.get("class") == name]


def words(element: ElementTree.Element) -> list[str]:
    """Every text drawn (not the tooltips)."""
    return ["".join(t.itertext()) for t in element.iter(f"{SVG}text")]


def characters(view: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    return [(c, seat) for seat, side in enumerate(view["sides"]) for c in side["characters"]]


def rolled_steps(replays: list[Replay]) -> Iterator[tuple[Replay, int, dict[str, Any]]]:
    for replay, step in every_step(replays):
        for change in changes_at(replay, step, SPECTATOR):
            if change["kind"] == "rolled":
                yield replay, step, change


# Entitlement -------------------------------------------------------------------------------

def test_pools_are_drawn_only_for_the_characters_a_perspective_is_entitled_to(
        replays: list[Replay]) -> None:
    """On every step of a third of the scenes (the alley's among them), as every perspective:
    a card has blood and Willpower dots exactly when its character is the perspective's own
    or the perspective is the Storyteller's."""
    checked = 0
    for replay, step in every_step(replays[::3]):
        for who in PERSPECTIVES:
            view, root = board(replay, step, who)
            drawn = cards(root)
            assert root.tag == f"{SVG}svg"
            for c, seat in characters(view):
                entitled = who == OMNISCIENT or who == seat
                pools = classes(drawn[c["id"]], "pools")
                assert bool(pools) == entitled == ("blood" in c), (step, who, c["id"])
                if entitled:
                    shown = words(pools[0])
                    assert f"Blood {c['blood']['pool']}/{c['blood']['max']} BP" in shown[0]
                    assert f"Willpower {c['willpower']['pool']}/{c['willpower']['rating']}" \
                        in shown
                    checked += 1
    assert checked > 500


def test_an_opponents_pools_never_reach_a_sides_svg(replays: list[Replay]) -> None:
    """Side A's picture of a mid-scene step holds no blood or Willpower text of side B's
    characters, nor any "Blood" line on their cards; the Storyteller's holds both."""
    replay = replays[0]
    step = len(replay) // 2
    _, root = board(replay, step, 0)
    everything = view_at(replay, step, OMNISCIENT)
    for c in everything["sides"][1]["characters"]:
        card = cards(root)[c["id"]]
        assert not [w for w in words(card) if w.startswith(("Blood", "Willpower"))]
        assert not classes(card, "dots")
    _, organiser = board(replay, step, OMNISCIENT)
    assert len(classes(organiser, "pools")) == len(characters(everything))


# Public facts ------------------------------------------------------------------------------

def assert_public_facts(c: dict[str, Any], card: ElementTree.Element) -> None:
    drawn = words(card)
    assert clip(c["name"], 32) in drawn and c["kind"] in " ".join(drawn)
    if c["boxes"]:
        assert f"Health: {c['track']}" in drawn
        assert any(w.startswith(f"{c['level']} · ") for w in drawn)
    else:
        assert "Health: no damage" in drawn
    for damage in ("bashing", "lethal", "aggravated"):
        assert len(classes(card, f"box-{damage}")) == c["boxes"].count(damage)
    assert len(classes(card, "box-empty")) == 7 - len(c["boxes"])
    gear = " ".join(w for e in classes(card, "weapons") for w in words(e))
    assert all(weapon.replace("_", " ") in gear for weapon in c["weapons"]) or "…" in gear
    assert f"Armor: {c['armor'] or 'none'}" in drawn
    flagged = {key for key in BADGE_KEYS if c["status"] == key or c.get(key) is True}
    assert {key for key in BADGE_KEYS if classes(card, f"status-{key}")} == flagged
    assert bool(classes(card, "status-active")) == (not flagged)


def test_every_perspective_sees_every_characters_public_facts(replays: list[Replay]) -> None:
    """Name, kind, the track as the game draws it and box by box, level and penalty, weapons,
    armor and every status, for both sides, as every perspective; the initiative chips."""
    for replay in replays[::3]:
        for step in range(0, len(replay) + 1, 7):
            for who in PERSPECTIVES:
                view, root = board(replay, step, who)
                drawn = cards(root)
                assert len(drawn) == len(characters(view))
                for c, _ in characters(view):
                    assert_public_facts(c, drawn[c["id"]])
                rolled = [e for e in view["initiative"] if e["initiative"] is not None]
                assert len(classes(root, "initiative")) == len(rolled)
                assert SEEN_AS[who] in words(root)


def test_torpor_final_death_death_and_rotschreck_are_badges(replays: list[Replay]) -> None:
    """The bonfire scenes reach torpor, Final Death, death, Rötschreck and full defense: each
    is a badge on the card, from every perspective."""
    seen: set[str] = set()
    for replay, step in every_step(replays):
        view = view_at(replay, step, SPECTATOR)
        flags = {key for c, _ in characters(view) for key in BADGE_KEYS
                 if c["status"] == key or c.get(key) is True}
        if flags - seen:
            for who in PERSPECTIVES:
                shown, root = board(replay, step, who)
                for c, _ in characters(shown):
                    assert_public_facts(c, cards(root)[c["id"]])
            seen |= flags
    assert {"torpor", "final_death", "dead", "rotschreck", "full_defense"} <= seen


def test_every_badge_fits_on_its_card(replays: list[Replay]) -> None:
    """A character carrying every status and flag at once: one badge each, wrapped onto more
    rows inside its card, which grows to hold them."""
    view = copy.deepcopy(view_at(replays[0], 10, OMNISCIENT))
    plain = cards(ElementTree.fromstring(render_svg(view, [])))
    c = view["sides"][0]["characters"][0]
    c.update(status="torpor", frenzy=True, rotschreck=True, blind=True, full_defense=True,
             gone=True, npc=True)
    card = cards(ElementTree.fromstring(render_svg(view, [])))[c["id"]]
    for key in ("torpor", "frenzy", "rotschreck", "blind", "full_defense", "gone", "npc"):
        assert len(classes(card, f"status-{key}")) == 1
    frame = next(card.iter(f"{SVG}rect"))
    right = float(frame.get("x", 0)) + float(frame.get("width", 0))
    badges = classes(card, "badges")[0].iter(f"{SVG}rect")
    assert all(float(b.get("x", 0)) + float(b.get("width", 0)) <= right for b in badges)
    before = next(plain[c["id"]].iter(f"{SVG}rect"))
    assert float(frame.get("height", 0)) > float(before.get("height", 0))


def test_the_awaited_step_is_told_and_its_character_marked(replays: list[Replay]) -> None:
    replay = replays[0]
    step = next(s for s in range(len(replay))
                if (view_at(replay, s, SPECTATOR)["awaiting"] or {}).get("step") == "roll"
                and view_at(replay, s, SPECTATOR)["awaiting"]["character"])
    for who in PERSPECTIVES:
        view, root = board(replay, step, who)
        head = view["awaiting"]
        line = next(w for w in words(root) if w.startswith("Next: "))
        assert line.startswith(f"Next: {head['purpose']} roll by ")
        assert line.endswith(f", {head['pool']} dice at difficulty {head['difficulty']}")
        card = cards(root)[head["character"]]
        assert "next to act" in words(card)


def test_a_hidden_ambusher_is_neither_named_nor_marked(replays: list[Replay]) -> None:
    """Until its pair's rolls are in, the target's side and a spectator are not told who lies
    in wait (V20-6.7): the board names nobody for the awaited roll or the rolled dice, and
    outlines no card for them, where the Storyteller's board names the ambusher."""
    alley = next(r for r in replays if r.header.scenario.name == "alley")
    ambusher = alley.header.scenario.ambushes[0].ambusher
    name = next(c["name"] for c, _ in characters(view_at(alley, 0, OMNISCIENT))
                if c["id"] == ambusher)
    hidden = 0
    for step in range(4):
        _, organiser = board(alley, step, OMNISCIENT)
        for who in (1, SPECTATOR):
            view, root = board(alley, step, who)
            told = [*words(classes(root, "awaiting")[0]), *words(classes(root, "dice-panel")[0])]
            ambush = [c for c in changes_at(alley, step, who) if c.get("purpose") == "ambush"]
            if (view["awaiting"] or {}).get("character") is None and (
                    ambush or "purpose" not in (view["awaiting"] or {})):
                assert not [w for w in told if name in w], (step, who)
                card = cards(root)[ambusher]
                assert not classes(card, "awaited") and not classes(card, "touched")
                assert any(name in w for w in [*words(classes(organiser, "awaiting")[0]),
                                               *words(classes(organiser, "dice-panel")[0])])
                hidden += 1
    assert hidden >= 2


# Names are text ----------------------------------------------------------------------------

HOSTILE = (*HOSTILE_PLAYERS, "<script>alert(1)</script>", '"><svg onload="alert(2)">',
           "</text></svg><img src=x onerror=alert(3)>")


def test_hostile_names_gear_and_change_words_stay_text(replays: list[Replay]) -> None:
    """Names, weapons, armor and a roll's purpose holding markup are drawn character for
    character: the SVG parses, holds no element or attribute they tried to make, and shows
    them (cut to fit) as they were written."""
    replay, step, roll = next(rolled_steps(replays))
    view = copy.deepcopy(view_at(replay, step, OMNISCIENT))
    for (c, _), name in zip(characters(view), HOSTILE[3:]):
        c.update(name=name, armor=name, weapons=[name, *c["weapons"]])
    hostile = dict(roll, purpose=HOSTILE[4], character=characters(view)[0][0]["id"])
    svg = render_svg(view, [hostile])
    root = ElementTree.fromstring(svg)
    known = {f"{SVG}{tag}" for tag in ("svg", "g", "rect", "text", "path", "circle", "title")}
    assert {e.tag for e in root.iter()} <= known
    assert not [a for e in root.iter() for a in e.attrib if a.startswith("on")]
    assert "<script" not in svg and "<img" not in svg and "<svg onload" not in svg
    for (c, _), card in zip(characters(view), cards(root).values()):
        assert clip(c["name"], 32) in words(card)
    assert any(HOSTILE[4] in w for w in words(root))


def test_line_breaks_in_a_name_never_reach_the_svg_as_blank_lines(
        replays: list[Replay]) -> None:
    """The page shows the board inside Markdown, where a blank line would end the HTML."""
    view = copy.deepcopy(view_at(replays[0], 5, 0))
    view["sides"][0]["characters"][0]["name"] = HOSTILE_PLAYERS[3]
    svg = render_svg(view, [])
    assert "\n" not in svg and "\r" not in svg


# Dice ----------------------------------------------------------------------------------------

def test_every_roll_is_drawn_die_by_die(replays: list[Replay]) -> None:
    """Each die of the step's roll is a d10 face: the successes, the 1s and the others; the
    roll's purpose, pool and difficulty and its net successes, or a botch badge; as a spectator
    and as a side (every die is public)."""
    botches = 0
    for replay, step, roll in rolled_steps(replays[::2]):
        for who in (SPECTATOR, 1):
            _, root = board(replay, step, who)
            dice, d = roll["dice"], clamp_difficulty(roll["difficulty"])
            assert len(classes(root, "die-one")) == dice.count(1)
            assert len(classes(root, "die-success")) == sum(1 for v in dice if v >= d)
            assert len(classes(root, "die-fail")) == sum(1 for v in dice if 1 < v < d)
            head = words(classes(root, "roll-head")[0])[0]
            assert f"{roll['purpose']} roll · pool {roll['pool']} · difficulty " \
                   f"{roll['difficulty']}" in head
            if roll.get("botch"):
                assert classes(root, "botch")
            else:
                net = words(classes(root, "net")[0])[0]
                assert net.startswith(f"{outcome_name(roll['successes'])} net")
        botches += bool(roll.get("botch"))
    assert botches > 0


def test_a_ten_in_a_specialty_counts_twice_and_automatic_successes_are_told(
        replays: list[Replay]) -> None:
    replay, step, roll = next(rolled_steps(replays))
    special = dict(roll, dice=[10, 10, 1, 2], pool=4, difficulty=6, successes=3,
                   specialty=True, auto=1)
    root = ElementTree.fromstring(render_svg(view_at(replay, step, SPECTATOR), [special]))
    shown = words(classes(root, "roll")[0])
    assert shown.count("+2") == 2 and shown.count("−1") == 1
    assert any("specialty · +1 automatic" in w for w in shown)
    assert any("tens count twice" in w and "+1 automatic" in w for w in shown)


def test_a_step_without_dice_says_so(replays: list[Replay]) -> None:
    _, root = board(replays[0], 0, SPECTATOR)
    assert "No dice this step" in words(root)


# Registration ------------------------------------------------------------------------------

def test_the_board_is_registered() -> None:
    assert "v20" in known_boards() and board_renderer("v20") is render_svg
    assert "board" in registry.info("v20").capabilities

