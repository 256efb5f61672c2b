"""The V20 narration (engine.v20.narrate): each kind of step told in the game's words, with
names, and each perspective's secrets kept (spec "Hidden information").

Hand-built scenes (tests.v20.scene) log the steps whose words are asserted exactly: an attack
with its defense, damage and soak, a miss, a parry's counter-blow, an ambush, initiative, a
commit hidden then revealed, frenzy and Rötschreck, conscience and derangements, heal, feed,
flight and the end. Then properties over whole simulated fights (tests.v20.test_hidden): no
braces, no ids, every character named.
"""
from __future__ import annotations

import re
import typing
from typing import Any

import pytest

from engine.narration import narration_for
from engine.replay import ReplayVisitor, replay_log
from engine.ruleset import OMNISCIENT, SPECTATOR, Change, Outcome, Perspective
from engine.v20 import changes as ch
from engine.v20.catalog import load_catalog
from engine.v20.narrate import CHANGE_WORDS, EVENT_WORDS, NARRATION, display_names
from engine.v20.rules import RULES
from engine.v20.state import State
from events.base import Header
from events.v20 import (
    Ambush,
    Award,
    Boost,
    Celerity,
    Commit,
    Concede,
    Event,
    Manifests,
    NameDerangement,
    PathConflict,
    Roll,
    Rulings,
    Trigger,
)
from tests.v20 import scene
from tests.v20.scene import act, attack, fighter, header, start, until
from tests.v20.test_hidden import MATCHES, simulated

EVERYONE: tuple[Perspective, ...] = (OMNISCIENT, 0, 1, SPECTATOR)


def told(head: Header, state: State, event: Any, perspective: Perspective
         ) -> tuple[str, list[str]]:
    """Apply `event`; what `perspective` is told of it: the event, then the changes listed."""
    changes = RULES.apply(state, event)
    return words(head, state, event, changes, perspective)


def words(head: Header, state: State, event: Any, changes: list[Change],
          perspective: Perspective) -> tuple[str, list[str]]:
    texts = [NARRATION.change_text(head, state, c, perspective) for c in changes]
    return (NARRATION.event_text(head, state, event, perspective),
            [t for t in texts if t is not None])


def alike(head: Header, state: State, event: Any) -> tuple[str, list[str]]:
    """Apply `event`, told the same to every perspective (it holds no secret); its words."""
    changes = RULES.apply(state, event)
    said = {who: words(head, state, event, changes, who) for who in EVERYONE}
    assert len({repr(s) for s in said.values()}) == 1, said
    return said[OMNISCIENT]


def roll(head: Header, state: State, *dice: int) -> tuple[str, list[str]]:
    return alike(head, state, Roll(dice=dice))


def unturned(lines: list[str]) -> list[str]:
    """The lines but "turn N begins", which the engine reports with the first step of a turn
    (test_a_new_turn_is_told_by_its_number)."""
    return [line for line in lines if not re.fullmatch(r"turn \d+ begins", line)]


# The game's perspectives and names -------------------------------------------------------------

def test_the_game_registers_this_narration_with_its_perspectives() -> None:
    head = header(["marcus"], ["ilse"])
    assert narration_for("v20") is NARRATION
    assert NARRATION.perspectives(head) == [
        (OMNISCIENT, "Storyteller (sees everything)"), (0, "Side A · player 0"),
        (1, "Side B · player 1"), (SPECTATOR, "Spectator (public)")]


def test_every_event_and_change_kind_has_words() -> None:
    assert set(EVENT_WORDS) == set(typing.get_args(Event))
    kinds = {cls for cls in vars(ch).values() if isinstance(cls, type)
             and issubclass(cls, Change) and cls is not Change}
    assert set(CHANGE_WORDS) == kinds


def test_a_name_both_sides_field_gets_its_side() -> None:
    """A mirror match: the sweep gives side B's ids "_b", the words give names and sides."""
    head = header(["marcus", "ilse"], [fighter("marcus", "marcus_b"), fighter("theo")])
    assert display_names(head) == {"marcus": "Marcus Vell (A)", "ilse": "Ilse Brandt",
                                   "marcus_b": "Marcus Vell (B)", "theo": "Theo Marsh"}


# Attacks: the roll, the defense, damage and soak -----------------------------------------------

def test_an_attack_a_dodge_damage_and_soak() -> None:
    """V20-6.1, 7.3, 8.1, 8.6, 8.7 (the spec's D7 style): the Roll's own text is its dice,
    the Rolled change tells the roll; a miss names its target and weapon."""
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    until(state, "declare")
    assert alike(head, state, scene.declaration(state, "marcus", attack("ilse", "club"))) == (
        "Marcus Vell declares: attack Ilse Brandt with the club", [])
    event = scene.declaration(state, "ilse", attack("marcus", "sword"), act("dodge"))
    assert alike(head, state, event)[0] == ("Ilse Brandt declares: attack Marcus Vell with "
                                            "the sword, then dodge (multiple actions, V20-5.2)")
    assert roll(head, state, 5, 5, 4, 4, 3, 3, 2, 2, 2, 2) == ("dice: 5 5 4 4 3 3 2 2 2 2", [
        ("Ilse Brandt swings the sword at Marcus Vell: 10 dice at difficulty 7 -> "
         "5 5 4 4 3 3 2 2 2 2, no success"),
        "Ilse Brandt misses Marcus Vell with the sword"])
    assert roll(head, state, 9, 8, 6, 3, 2, 1)[1] == [
        ("Marcus Vell swings the club at Ilse Brandt: 6 dice at difficulty 6 -> 9 8 6 3 2 1, "
         "2 successes")]
    assert alike(head, state, scene.defense(state, "ilse", "dodge")) == (
        "Ilse Brandt chooses to dodge Marcus Vell's attack with the club (V20-7.6)", [])
    assert roll(head, state, 8, 4, 3, 2, 2, 2, 2, 2)[1] == [
        "Ilse Brandt's dodge: 8 dice at difficulty 8 -> 8 4 3 2 2 2 2 2, 1 success",
        "Marcus Vell hits Ilse Brandt with the club: 1 success (V20-7.1)"]
    assert roll(head, state, 10, 7, 6, 5, 1)[1] == [
        ("Marcus Vell's damage: 5 dice at difficulty 6 -> 10 7 6 5 1, 4 successes "
         "(2 automatic)")]
    assert roll(head, state, 6, 2)[1][:2] == [
        "Ilse Brandt's soak: 2 dice at difficulty 6 -> 6 2, 1 success",
        ("Ilse Brandt takes 1 bashing level (4 damage, 1 soaked; a vampire halves bashing, "
         "V20-8.7): 1/, Bruised")]


def test_a_parry_that_beats_a_punch_strikes_back() -> None:
    """V20-7.5: the counter-blow, then its damage and the soak like any blow."""
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    until(state, "declare")
    scene.declare(state, "marcus", attack("ilse", "punch", specialty=True))
    scene.declare(state, "ilse", act("parry"))
    assert roll(head, state, 6, 2, 2, 2, 2, 2, 2)[1] == [
        ("Marcus Vell throws a punch at Ilse Brandt: 7 dice at difficulty 6 -> 6 2 2 2 2 2 2, "
         "1 success (specialty: tens count twice)")]
    alike(head, state, scene.defense(state, "ilse", "parry"))
    assert roll(head, state, 9, 9, 9, 2, 2, 2, 2, 2, 2, 2, 2)[1] == [
        "Ilse Brandt's parry: 11 dice at difficulty 6 -> 9 9 9 2 2 2 2 2 2 2 2, 3 successes",
        "Marcus Vell misses Ilse Brandt with a punch: the defense holds (V20-7.1)",
        ("Ilse Brandt's parry turns into a counter-blow on Marcus Vell: 2 successes, "
         "undefendable (V20-7.5)")]
    assert roll(head, state, 6, 6, 2, 2, 2)[1] == [
        "Ilse Brandt's damage: 5 dice at difficulty 6 -> 6 6 2 2 2, 2 successes"]
    assert roll(head, state, 2, 2, 2)[1][1] == (
        "Marcus Vell takes 2 lethal levels (2 damage, 0 soaked): 2X, Hurt")


def test_the_turns_initiative_in_order() -> None:
    """V20-4.2: 1d10 + Dexterity + Wits + Celerity, highest first."""
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    until(state, "roll", purpose="initiative")
    assert roll(head, state, 7, 2) == ("dice: 7 2", [
        "initiative: Marcus Vell 13 (die 7), Ilse Brandt 12 (die 2) (V20-4.2)"])


def test_a_new_turn_is_told_by_its_number() -> None:
    head = header(["marcus"], ["ilse"])
    assert NARRATION.change_text(head, start(["marcus"], ["ilse"]), ch.TurnBegan(turn=3),
                                 SPECTATOR) == "turn 3 begins"


# Ambush (V20-6.7 to 6.9): the ambusher hidden until the pair's rolls are in ---------------------

def test_an_ambusher_is_named_to_the_other_side_once_the_pair_is_rolled() -> None:
    pair = Ambush(ambusher="silas", target="margarethe")
    head = header(["silas"], ["margarethe"], ambushes=[pair])
    state = start(["silas"], ["margarethe"], ambushes=[pair])
    rolled = Roll(dice=(9, 8, 7, 6, 5, 2, 2, 1))
    changes = RULES.apply(state, rolled)
    dice = "8 dice at difficulty 5 -> 9 8 7 6 5 2 2 1, 4 successes"
    for who in (OMNISCIENT, 0):
        assert words(head, state, rolled, changes, who)[1] == [
            f"Silas Morrow stalks Margarethe Voss with Dexterity + Stealth (V20-6.7): {dice}"]
        assert NARRATION.change_data(head, changes[0], who)["character"] == "silas"
    for who in (1, SPECTATOR):
        assert words(head, state, rolled, changes, who)[1] == [
            f"someone lies in wait with Dexterity + Stealth (V20-6.7): {dice}"]
        assert NARRATION.change_data(head, changes[0], who)["character"] is None
    assert roll(head, state, 6, 2, 2, 2, 2, 2)[1] == [
        ("Margarethe Voss watches for danger with Perception + Alertness (V20-6.7): 6 dice at "
         "difficulty 6 -> 6 2 2 2 2 2, 1 success"),
        ("Silas Morrow ambushes Margarethe Voss: a free attack with 3 extra successes, "
         "undefendable (V20-6.8, V20-6.9)")]
    event = scene.declaration(state, "silas", attack("margarethe", "knife"))
    assert alike(head, state, event)[0] == (
        "Silas Morrow strikes from ambush: attack Margarethe Voss with the knife")


# Phase 2: commits in secret, then revealed -----------------------------------------------------

def test_a_commit_is_secret_until_both_sides_are_in() -> None:
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    until(state, "commit")
    first = Commit(seat=1, spends=(Celerity(character="ilse", actions=2),))
    changes = RULES.apply(state, first)
    for who in (1, OMNISCIENT):
        assert words(head, state, first, changes, who) == (
            "side B commits: Ilse Brandt activates 2 Celerity actions", [])
    for who in (0, SPECTATOR):
        assert words(head, state, first, changes, who) == ("side B commits in secret", [])
        assert NARRATION.event_data(head, first, who) == {"type": "commit", "seat": 1,
                                                          "spends": None}
    second = Commit(seat=0)
    changes = RULES.apply(state, second)
    spent = ["Ilse Brandt spends 2 blood points on Celerity (V20-5.5)"]
    revealed = "; both sides' commitments are revealed (V20-4.1)"
    for who, says in ((0, "nothing"), (OMNISCIENT, "nothing"), (1, "in secret"),
                      (SPECTATOR, "in secret")):
        assert words(head, state, second, changes, who) == (f"side A commits {says}{revealed}",
                                                            spent)


def test_a_boosted_rating_is_its_sides_own() -> None:
    """V20-10.5: everyone sees the Attribute rise and the blood spent, not the rating."""
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    until(state, "commit")
    RULES.apply(state, Commit(seat=0, spends=(Boost(character="marcus",
                                                    attribute="strength"),)))
    changes = RULES.apply(state, Commit(seat=1))
    boosted = changes[0]
    for who in (OMNISCIENT, 0):
        assert NARRATION.change_text(head, state, boosted, who) == (
            "Marcus Vell's Strength rises to 4 for the scene (V20-10.5)")
    for who in (1, SPECTATOR):
        assert NARRATION.change_text(head, state, boosted, who) == (
            "Marcus Vell's Strength rises for the scene (V20-10.5)")
        assert NARRATION.change_data(head, boosted, who)["points"] is None
    assert NARRATION.change_text(head, state, changes[1], 1) == (
        "Marcus Vell spends 1 blood point to raise an Attribute (V20-10.5)")


# Frenzy, Rötschreck, conscience and derangements -----------------------------------------------

def test_a_rotschreck_trigger_and_its_roll() -> None:
    """V20-12.9, 12.2, 12.10: the trigger and its difficulty are public, and so is the fall."""
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    trigger = Trigger(character="marcus", kind="rotschreck", cause="bonfire", difficulty=6)
    said, lines = alike(head, state, Rulings(rulings=(trigger,)))
    assert (said, unturned(lines)) == (
        "the Storyteller makes 1 ruling (V20-1.1)",
        [("Marcus Vell faces Rötschreck: bonfire, difficulty 6; five successes master the Red "
          "Fear (V20-12.9)")])
    assert roll(head, state, 1, 2, 3)[1] == [
        ("Marcus Vell fights the Red Fear with Courage (V20-12.9): 3 dice at difficulty 6 -> "
         "1 2 3, a botch"),
        "Marcus Vell falls into Rötschreck and must flee (V20-12.10)"]


def test_a_frenzy_trigger_and_its_roll() -> None:
    """V20-12.1, 12.3: Self-Control, never more dice than blood."""
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    trigger = Trigger(character="ilse", kind="frenzy", cause="taste_of_blood", difficulty=6)
    assert unturned(alike(head, state, Rulings(rulings=(trigger,)))[1]) == [
        ("Ilse Brandt faces frenzy: taste of blood, difficulty 6; five successes master the "
         "Beast (V20-12.1)")]
    assert roll(head, state, 6, 6, 6)[1] == [
        ("Ilse Brandt fights the Beast with Self-Control (V20-12.1): 3 dice at difficulty 6 -> "
         "6 6 6, 3 successes")]


def test_a_conscience_botch_and_its_derangement_are_told_by_side() -> None:
    """V20-13.1, 13.5: the roll and the losses are public; the ratings left and the
    derangement's name are the character's side's and the Storyteller's."""
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    conflict = Rulings(rulings=(PathConflict(character="marcus"),))
    assert unturned(alike(head, state, conflict)[1]) == [
        ("the Storyteller rules that Marcus Vell acted against the path: a roll follows "
         "(V20-13.1)")]
    botch = Roll(dice=(1, 4))
    changes = RULES.apply(state, botch)
    lost = "Marcus Vell loses a path point and a virtue point, and gains a derangement (V20-13.5)"
    rolled = "2 dice at difficulty 8 -> 1 4, a botch"
    for who in (OMNISCIENT, 0):
        assert words(head, state, botch, changes, who)[1] == [
            (f"Marcus Vell answers for acting against the path with Conscience (V20-13.1): "
             f"{rolled}"), f"{lost}: Humanity 5, Conscience 1"]
    for who in (1, SPECTATOR):
        assert words(head, state, botch, changes, who)[1] == [
             f"Marcus Vell answers for acting against the path (V20-13.1): {rolled}", lost]
        data = NARRATION.change_data(head, changes[1], who)
        assert data["path"] is None and data["virtue"] is None and data["lost"] == 1
    named = NameDerangement(character="marcus", derangement="Paranoia")
    changes = RULES.apply(state, named)
    for who in (OMNISCIENT, 0):
        assert words(head, state, named, changes, who) == (
            "the Storyteller names Marcus Vell's new derangement: Paranoia (V20-13.5)", [])
    for who in (1, SPECTATOR):
        assert words(head, state, named, changes, who) == (
            "the Storyteller names a new derangement for Marcus Vell (V20-13.5)", [])
        assert NARRATION.event_data(head, named, who)["derangement"] is None
        assert NARRATION.change_data(head, changes[0], who)["detail"] is None


def test_a_manifestation_and_an_award_keep_their_secrets() -> None:
    """V20-11.2: which derangement manifests; V20-11.4: how much Willpower an award
    restored (it tells how far the pool was from full)."""
    head = header(["marcus"], ["ilse"])

    def deranged(state: State) -> None:
        state.fighter("marcus").derangements.append("Paranoia")
        state.fighter("marcus").willpower = 3

    state = start(["marcus"], ["ilse"], arrange=deranged)
    event = Rulings(rulings=(Manifests(character="marcus", derangement="Paranoia"),
                             Award(character="marcus", points=2)))
    changes = RULES.apply(state, event)
    for who in (OMNISCIENT, 0):
        assert unturned(words(head, state, event, changes, who)[1]) == [
            "Marcus Vell's Paranoia manifests (V20-11.2)",
            "the Storyteller awards Marcus Vell Willpower: 1 point regained (V20-11.4)"]
    for who in (1, SPECTATOR):
        assert unturned(words(head, state, event, changes, who)[1]) == [
            "a derangement of Marcus Vell manifests (V20-11.2)",
            "the Storyteller awards Marcus Vell Willpower (V20-11.4)"]
        assert NARRATION.event_data(head, event, who)["rulings"][0]["derangement"] is None


# Heal, feed, flee and the end ------------------------------------------------------------------

def test_a_lone_heal_costs_a_blood_point_and_needs_no_roll() -> None:
    """V20-5.8, V20-10.3."""
    hurt = fighter("marcus", damage=["lethal"])
    head = header([hurt], ["ilse"])
    state = start([hurt], ["ilse"])
    until(state, "declare")
    scene.declare(state, "marcus", act("heal", heal="lethal"))
    assert unturned(alike(head, state, scene.declaration(state, "ilse", act("dodge")))[1]) == [
        "Marcus Vell spends 1 blood point to heal (V20-10.3)",
        "Marcus Vell heals a lethal box: no damage left (V20-10.3)"]


def test_feeding_fleeing_and_the_end_of_the_fight() -> None:
    """V20-5.11, V20-5.9, V20-14.1: the vampire feeds on a willing friend, the last enemy
    flees, and its side is out of the fight."""
    sides = (["marcus", "ilse"], ["nicky"])
    head = header(*sides)
    state = start(*sides)
    until(state, "declare")
    assert alike(head, state, scene.declaration(state, "nicky", act("flee")))[0] == (
        "Nicky Ruiz declares: flee")
    scene.declare(state, "marcus", act("dodge"))
    event = scene.declaration(state, "ilse", act("feed", target="marcus", amount=3))
    assert alike(head, state, event) == (
        "Ilse Brandt declares: feed on Marcus Vell, up to 3 blood points",
        ["Ilse Brandt feeds on Marcus Vell: 1 blood point (V20-5.11)",
         "Nicky Ruiz flees the scene (V20-5.9)",
         ("the fight is over: side A wins (player 0: side A): side B is out of the fight "
          "(V20-14.1)")])
    assert NARRATION.outcome_text(head, RULES.outcome(state)) == (
        "side A wins (player 0: side A): side B is out of the fight (V20-14.1)")


@pytest.mark.parametrize("results, reason, rule, said", [
    (("draw", "draw"), "the turn limit (8) is reached", "V20-14.2",
     "draw: the turn limit (8) is reached (V20-14.2)"),
    (("win", "loss"), "side B concedes", "V20-14.2",
     "side A wins (player 0: side A): side B concedes (V20-14.2)"),
    (("loss", "win"), "side A is out of the fight", "V20-14.1",
     "side B wins (player 1: side B): side A is out of the fight (V20-14.1)")])
def test_the_outcome_in_words(results, reason: str, rule: str, said: str) -> None:
    outcome = Outcome(results=results, reason=reason, rule=rule)
    assert NARRATION.outcome_text(header(["marcus"], ["ilse"]), outcome) == said


def test_a_concession_and_a_log_that_stops_early() -> None:
    head = header(["marcus"], ["ilse"])
    state = start(["marcus"], ["ilse"])
    until(state, "commit")
    assert alike(head, state, Concede(seat=1)) == ("side B concedes (V20-14.2)", [
        "the fight is over: side A wins (player 0: side A): side B concedes (V20-14.2)"])
    assert NARRATION.outcome_text(head, None) == "the log stops before the match ends"


def test_markers_and_restatements_are_not_listed() -> None:
    state = start(["marcus"], ["ilse"])
    head = header(["marcus"], ["ilse"])
    for change in (ch.Phase(name="commit"), ch.Declared(character="marcus", actions=("dodge",)),
                   ch.Ruled(character="", ruling="committed", detail="A")):
        assert NARRATION.change_text(head, state, change, OMNISCIENT) is None


# Properties over simulated fights --------------------------------------------------------------

class Transcript(ReplayVisitor):
    """Every line of words a fight is told in, for every perspective the game lists."""

    def __init__(self, head: Header) -> None:
        self.head = head
        self.lines: list[str] = []

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        for who, _ in NARRATION.perspectives(self.head):
            event_words, change_words = words(self.head, state, event, changes, who)
            assert event_words, (event, who)
            self.lines += [event_words, *change_words]


@pytest.fixture(scope="module")
def transcripts() -> dict[str, tuple[Header, list[str]]]:
    told_fights = {}
    for name, args in MATCHES.items():
        head, events = simulated(*args)
        transcript = Transcript(head)
        replay_log(RULES, head, events, transcript)
        told_fights[name] = (head, transcript.lines)
    return told_fights


def test_the_words_hold_no_raw_data(transcripts) -> None:
    """No braces or brackets, no key=value, no None or True, no engine keyword with an
    underscore (a weapon id like heavy_pistol, a status like final_death, a sweep's _b)."""
    for head, lines in transcripts.values():
        odd = [line for line in lines
               if re.search(r"[{}\[\]=_]|\bNone\b|\bTrue\b|\bFalse\b", line)]
        assert not odd, odd[:5]


def test_the_words_name_characters_never_their_ids(transcripts) -> None:
    """Every character is named in its fight; no character or catalog sheet id is said
    (ids are lower case, names capitalised), nor a weapon by its id."""
    catalog = load_catalog()
    weapon_ids = {w for w in catalog.weapons if catalog.weapons[w].name.lower() != w}
    for head, lines in transcripts.values():
        text = "\n".join(lines)
        ids = {f.id for seat in head.seats for f in seat.setup.fighters}
        ids |= {f.character for seat in head.seats for f in seat.setup.fighters}
        said = sorted(i for i in ids | weapon_ids if re.search(rf"\b{re.escape(i)}\b", text))
        assert not said, said
        assert all(name in text for name in display_names(head).values())


def test_the_words_tell_every_roll_with_its_dice(transcripts) -> None:
    """Every Roll's event text is its dice, and the roll itself is told once, by its Rolled
    change ("-> 9 8 6 3 2 1") or, for the turn's initiative, its Initiative change."""
    head, events = simulated(*MATCHES["bonfire-random"])
    state = RULES.setup(head)
    for event in events:
        changes = RULES.apply(state, event)
        if not isinstance(event, Roll):
            continue
        said, listed = words(head, state, event, changes, SPECTATOR)
        shown = " ".join(map(str, event.dice)) or "no dice"
        assert said == f"dice: {shown}"
        if any(isinstance(c, ch.Initiative) for c in changes):
            told = [line for line in listed if line.startswith("initiative: ")]
            assert len(told) == 1 and told[0].count("(die ") == len(event.dice)
        else:
            assert sum(f"-> {shown}," in line for line in listed) == 1, listed
