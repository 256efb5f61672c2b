"""A V20 combat scene for tests: a log header built from two lists of fighters, and the log's
events applied through RULES one at a time, so that each test reads as the log it replays.

- `fighter` and `start` build the scene (catalog ids and per-match values, V20-3.6); the
  examples of the spec assume no armor, so a fighter here wears none unless it is given one.
- `roll`, `initiative`, `rulings`, `commit`, `declare`, `defend`, `abort`, `confirm` and
  `name_derangement` log one event each and return its changes.
- `until` logs neutral events (empty rulings, empty commits, initiative dice of 5, a lone dodge
  as a declaration) until the scene awaits a given step.
- `refused` logs an event that must be refused and checks that nothing changed.
- `retrait` and `start(..., arrange=...)` set a character's numbers directly, for the examples
  whose numbers no catalog sheet has, or whose state events would take long to reach.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec
import pytest

from engine.ruleset import Change, RuleViolation
from engine.v20.flow import advance
from engine.v20.rules import RULES
from engine.v20.setup import initial_state
from engine.v20.state import State, Step
from events.base import Header, Seat
from events.v20 import (
    Abort,
    Act,
    Ambush,
    Carried,
    Commit,
    Confirm,
    Declare,
    Defend,
    Fighter,
    NameDerangement,
    Party,
    Roll,
    Ruling,
    Rulings,
    Scenario,
    Spend,
)

ORGANISER = "organiser"
NEUTRAL_DIE = 5
"""The initiative die `until` rolls for every character it is not told about."""

Listed = Fighter | str


# Building the scene ----------------------------------------------------------------------------

def fighter(character: str, id: str | None = None, *, blood: int | None = None,
            willpower: int | None = None, damage: Iterable[str] = (),
            weapons: Iterable[str] | None = None, armor: str | None = "none") -> Fighter:
    """A party's entry: catalog sheet `character` under `id` (the sheet's id by default), with
    its per-match values (V20-3.6). No armor unless `armor` names one (None: the sheet's)."""
    return Fighter(id=id or character, character=character, blood=blood, willpower=willpower,
                   damage=tuple(damage),
                   weapons=None if weapons is None else tuple(Carried(weapon=w)
                                                               for w in weapons),
                   armor=armor)


def _listed(entry: Listed) -> Fighter:
    return fighter(entry) if isinstance(entry, str) else entry


def header(side_a: Iterable[Listed], side_b: Iterable[Listed], *,
           turn_limit: int | None = None, ambushes: Iterable[Ambush] = ()) -> Header:
    """The log header of a scene: side A (seat 0) against side B (seat 1), in listing order."""
    parties = [Party(name=name, fighters=tuple(_listed(e) for e in side))
               for name, side in (("side A", side_a), ("side B", side_b))]
    return Header(game="v20", ruleset="v20@1", match_id="test",
                  seats=[Seat(seat=seat, player=f"player {seat}", setup=party)
                         for seat, party in enumerate(parties)],
                  scenario=Scenario(name="test", turn_limit=turn_limit,
                                    ambushes=tuple(ambushes)))


def start(side_a: Iterable[Listed], side_b: Iterable[Listed], *,
          turn_limit: int | None = None, ambushes: Iterable[Ambush] = (),
          arrange: Callable[[State], None] | None = None) -> State:
    """RULES.setup of the header. `arrange` changes the scene before its first step is queued
    (an ambush roll's pool is fixed at setup): it runs between the setup of the characters and
    the first advance, as RULES.setup does them."""
    built = header(side_a, side_b, turn_limit=turn_limit, ambushes=ambushes)
    if arrange is None:
        return RULES.setup(built)
    state = initial_state(built)
    state.ambushes = list(built.scenario.ambushes)
    state.policy = built.scenario.storyteller
    arrange(state)
    advance(state, [])
    return state


_TRAITS = ("attributes", "abilities", "disciplines", "virtues")


def retrait(state: State, character: str, **ratings: int) -> None:
    """Set ratings of a character's sheet in this scene only (`dexterity=3`, `celerity=0`,
    `conscience=3`...), where the example's numbers differ from every catalog sheet."""
    f = state.fighter(character)
    sheet = f.sheet
    for name, value in ratings.items():
        group = next((g for g in _TRAITS if name in getattr(sheet, g).__struct_fields__), None)
        if group is None:
            raise KeyError(f"no trait {name!r} on a sheet")
        sheet = msgspec.structs.replace(
            sheet, **{group: msgspec.structs.replace(getattr(sheet, group), **{name: value})})
    f.sheet = sheet
    f.path_virtue = sheet.virtue(sheet.path_virtue)


# Reading the scene -----------------------------------------------------------------------------

def head(state: State) -> Step:
    """The step the scene awaits."""
    assert state.queue, "the scene awaits nothing"
    return state.queue[0]


def awaited(state: State) -> dict[str, Any]:
    """The awaited step as the organiser's view shows it: step, character, and for a roll its
    purpose, pool and difficulty."""
    shown = RULES.view(state, ORGANISER)["awaiting"]
    assert shown is not None, "the scene awaits nothing"
    return dict(shown)


def only(changes: Iterable[Change], kind: type[Change]) -> list[Any]:
    """The changes of one type, in order."""
    return [c for c in changes if isinstance(c, kind)]


# Logging events --------------------------------------------------------------------------------

def apply(state: State, event: Any) -> list[Change]:
    return RULES.apply(state, event)


def roll(state: State, *dice: int) -> list[Change]:
    """The awaited roll, with exactly these dice."""
    return apply(state, Roll(dice=tuple(dice)))


def initiative(state: State, **dice: int) -> list[Change]:
    """The turn's initiative roll: a die per character that rolls it, in listing order; the
    characters not named roll NEUTRAL_DIE."""
    step = head(state)
    assert step.purpose == "initiative", f"the scene awaits {step.what} {step.purpose}"
    rolling = step.data["characters"]
    unknown = set(dice) - set(rolling)
    assert not unknown, f"{sorted(unknown)} roll no initiative this turn"
    return roll(state, *(dice.get(fid, NEUTRAL_DIE) for fid in rolling))


def rulings(state: State, *given: Ruling) -> list[Change]:
    return apply(state, Rulings(rulings=tuple(given)))


def commit(state: State, seat: int, *spends: Spend) -> list[Change]:
    return apply(state, Commit(seat=seat, spends=tuple(spends)))


def commits(state: State, *spends: Spend) -> list[Change]:
    """Both sides' phase-2 commitments, each spend to its character's side."""
    out: list[Change] = []
    for seat in (0, 1):
        mine = tuple(s for s in spends if state.fighter(s.character).seat == seat)
        out += commit(state, seat, *mine)
    return out


def act(action: str, **fields: Any) -> Act:
    return Act(action=action, **fields)  # type: ignore[arg-type]


def attack(target: str, weapon: str, **fields: Any) -> Act:
    return Act(action="attack", target=target, weapon=weapon, **fields)


def declaration(state: State, character: str, *acts: Act, extra: Iterable[Act] = ()) -> Declare:
    return Declare(seat=state.fighter(character).seat, character=character, actions=acts,
                   extra=tuple(extra))


def declare(state: State, character: str, *acts: Act, extra: Iterable[Act] = ()) -> list[Change]:
    return apply(state, declaration(state, character, *acts, extra=extra))


def defense(state: State, character: str, kind: str | None = None, *,
            willpower: bool = False) -> Defend:
    return Defend(seat=state.fighter(character).seat, character=character,
                  defense=kind, willpower=willpower)  # type: ignore[arg-type]


def defend(state: State, character: str, kind: str | None = None, *,
           willpower: bool = False) -> list[Change]:
    """The target's answer to the attack just rolled: a defense, or none."""
    return apply(state, defense(state, character, kind, willpower=willpower))


def abort(state: State, character: str, *, willpower: bool = False) -> list[Change]:
    return apply(state, Abort(seat=state.fighter(character).seat, character=character,
                              willpower=willpower))


def confirm(state: State, yes: bool) -> list[Change]:
    return apply(state, Confirm(confirmed=yes))


def name_derangement(state: State, character: str, name: str) -> list[Change]:
    return apply(state, NameDerangement(character=character, derangement=name))


def until(state: State, what: str, *, character: str | None = None, purpose: str | None = None,
          turn: int | None = None, limit: int = 200) -> Step:
    """Log neutral events until the scene awaits `what` (of `character`, with `purpose`, in
    `turn`): empty rulings, empty commits, initiative dice of NEUTRAL_DIE and a lone dodge as
    a declaration. Any other step on the way is an error: the test must log it."""
    for _ in range(limit):
        assert not state.over, f"the match ended ({state.reason}) before {what}"
        step = head(state)
        if (step.what == what and character in (None, step.character)
                and purpose in (None, step.purpose) and turn in (None, state.turn)):
            return step
        if step.what == "rulings":
            rulings(state)
        elif step.what == "commit":
            for seat in RULES.awaiting(state):
                commit(state, seat)
        elif step.what == "roll" and step.purpose == "initiative":
            initiative(state)
        elif step.what == "declare":
            declare(state, step.character or "", act("dodge"))
        else:
            raise AssertionError(f"until {what}: the scene awaits {step.what} {step.purpose} "
                                 f"of {step.character}, which the test must log")
    raise AssertionError(f"until {what}: not reached in {limit} events")


def refused(state: State, event: Any) -> RuleViolation:
    """Log an event the rules must refuse; the scene (the organiser's view and the whole
    state) is unchanged after it. Returns the error, whose `rule` the test checks."""
    seen, kept = RULES.view(state, ORGANISER), state.copy()
    with pytest.raises(RuleViolation) as caught:
        RULES.apply(state, event)
    assert RULES.view(state, ORGANISER) == seen
    assert state == kept
    return caught.value
