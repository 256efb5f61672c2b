"""Test scenarios: a real match set up through the ruleset, then a line and hands arranged by hand.

Arranging the board directly (characters with exact stats, chosen cards in hand) lets each
worked example of the spec be checked on the numbers it states, through the same `apply` that
replays logs.
"""
from __future__ import annotations

from itertools import count
from typing import Any

import pytest

from engine.eredan.archetypes import starter_deck
from engine.eredan.cards import Card, Character, Damage, Line, Modify, load_catalog
from engine.eredan.state import Fighter, State
from engine.ruleset import Change, RuleViolation, get_ruleset
from events.base import Header, Seat
from events.eredan import ChooseCombatants, Discard, Initiative, Play, PlayCards, Shuffle

RULES = get_ruleset("eredan@1")
CATALOG = load_catalog()
P1, P2 = 0, 1
_ids = count(1)
_slots = count(50)


def header(archetypes: tuple[str, str] = ("kotoba", "noz_dingard"), fmt: str = "standard",
           ruleset: str = "eredan@1", **decks: Any) -> Header:
    seats = [Seat(seat=i, player=f"player-{i}", setup=decks.get(f"deck{i}") or starter_deck(a))
             for i, a in enumerate(archetypes)]
    return Header(game="eredan", ruleset=ruleset, match_id="scenario", seats=seats,
                  format=fmt)


def started(archetypes: tuple[str, str] = ("kotoba", "noz_dingard"), first: int = P1) -> State:
    """A match after setup (identity shuffles, `first` won the initiative): turn 1, Phase 1."""
    state = RULES.setup(header(archetypes))
    for seat in (0, 1):
        RULES.apply(state, Shuffle(seat=seat, order=tuple(state.players[seat].deck)))
    ticket = 0 if first == 0 else state.players[0].tickets
    RULES.apply(state, Initiative(seat=first, ticket=ticket))
    return state


def character(name: str = "", *, attack: int = 3, defense: int = 1, spirit: int = 1,
              hp: int = 20, classes: tuple[str, ...] = ("unknown",), **extra: Any) -> Character:
    """A test character with exact stats (a fresh ID, so no catalog card is shadowed)."""
    number = next(_ids)
    fields = {"affiliation": ("mercenary",), "race": "human", "act": 6} | extra
    return Character(id=f"TEST-C{number}", name=name or f"Test Character {number}",
                     attack=attack, defense=defense, spirit=spirit, hp=hp,
                     classes=classes, **fields)  # type: ignore[arg-type]


def card(type_: str = "action", *lines: Line, name: str = "", **extra: Any) -> Card:
    number = next(_ids)
    return Card(id=f"TEST-{number}", name=name or f"Test Card {number}", type=type_, act=6,
                lines=lines, **extra)  # type: ignore[arg-type]


def spell(amount: int, *, area: bool = False, target: str = "enemy_combatant",
          spell_type: str = "fire") -> Card:
    damage = Damage(amount=amount, target=target)  # type: ignore[arg-type]
    return card("spell", Line(effects=(damage,)), spell_type=spell_type, area=area)


def modify(attack: int = 0, defense: int = 0, spirit: int = 0, **extra: Any) -> Card:
    return card(extra.pop("type_", "action"),
                Line(effects=(Modify(attack=attack, defense=defense, spirit=spirit),)), **extra)


def named(name: str) -> Card | Character:
    found = CATALOG.find(name)
    assert found is not None, name
    return found


def fighter(state: State, seat: int, position: int = 1) -> Fighter:
    return state.fighters[seat * 100 + 90 + position]


def put(state: State, seat: int, position: int, char: Character) -> int:
    """Replace a character of the line, fresh (full HP, untapped, nothing attached)."""
    fid = seat * 100 + 90 + position
    state.cards[fid] = char
    state.fighters[fid] = Fighter(fid, char, seat, position, char.hp,
                                  runes=list(char.starting_runes))
    return fid


def in_hand(state: State, seat: int, *cards: Card | Character) -> list[int]:
    ids = []
    for c in cards:
        cid = seat * 100 + next(_slots) % 40 + 50
        while cid in state.cards:
            cid = seat * 100 + next(_slots) % 40 + 50
        state.cards[cid] = c
        state.players[seat].hand.append(cid)
        ids.append(cid)
    return ids


def on_top(state: State, seat: int, *cards: Card) -> list[int]:
    """Put cards on top of the deck, the first one on top."""
    ids = in_hand(state, seat, *cards)
    hand = state.players[seat].hand
    del hand[-len(ids):]
    state.players[seat].deck[0:0] = ids
    return ids


def fight(state: State, attacker: int, defender: int, active: tuple[Play, ...] = (),
          passive: tuple[Play, ...] = ()) -> list[Change]:
    """Phases 1 to 4 of the current turn: returns every change."""
    seat = state.active
    out = RULES.apply(state, ChooseCombatants(seat=seat, attacker=attacker, defender=defender))
    out += RULES.apply(state, PlayCards(seat=seat, plays=active))
    out += RULES.apply(state, PlayCards(seat=1 - seat, plays=passive))
    return out


def end_turn(state: State) -> list[Change]:
    out = RULES.apply(state, Discard(seat=state.active))
    return out + RULES.apply(state, Discard(seat=1 - state.active))


def plays(*cards: int, target: int | None = None) -> tuple[Play, ...]:
    return tuple(Play(card=c, target=target) for c in cards)


def refused(state: State, event: Any, rule: str) -> RuleViolation:
    """The event is refused naming `rule`, and the state is left as it was."""
    before = RULES.view(state, "organiser")
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, event)
    assert err.value.rule == rule, str(err.value)
    assert RULES.view(state, "organiser") == before
    return err.value


def attach(state: State, fid: int, *cards: Card) -> list[int]:
    """Attach cards to a character directly (as if played on an earlier turn)."""
    seat = state.fighters[fid].owner
    ids = in_hand(state, seat, *cards)
    del state.players[seat].hand[-len(ids):]
    for cid in ids:
        state.fighters[fid].attach(cid)
    return ids


def sturdy_lines(state: State) -> None:
    """Six harmless characters (no attack, 30 HP), so turns can pass without a defeat."""
    for seat in (0, 1):
        for position in (1, 2, 3):
            put(state, seat, position, character(attack=0, hp=30))


def advance(state: State, turns: int) -> None:
    """Play whole turns: the first legal combatants, no card, no discard."""
    for _ in range(turns):
        choice = RULES.legal(state)[0]
        fight(state, choice.attacker, choice.defender)
        end_turn(state)
