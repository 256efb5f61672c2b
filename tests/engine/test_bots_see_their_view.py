"""Bots decide from what their seat may see (engine/bots.py), never from the state.

Per game, on many seeded positions of simulated matches: two states that differ only in what the
acting seat may not see (the opponent's hand contents, every deck order, face-down piles) give
that seat the same observation and, with the same rng seed, the same choice from its greedy bot;
the observation's view is the seat's view; a determinized state agrees with everything the seat
saw (its own cards dealt from its list, the opponent's guessed: that list is hidden). And the
simulator hands bots an observation, never the state: a bot given a state refuses.
"""
from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.bots import Observation, RandomBot, observe
from engine.ruleset import CHANCE
from engine.simulate import play_match
from events.base import Header, Seat
from tests.game_properties import swap_opponents_hidden_cards


@dataclass(frozen=True)
class Kit:
    """What these tests need of a game, imported from its own modules."""

    name: str

    def module(self, part: str) -> Any:
        return importlib.import_module(f"engine.{self.name}.{part}")

    @property
    def rules(self) -> Any:
        return self.module("rules").RULES

    def header(self, seed: int) -> Header:
        archetypes = self.module("archetypes")
        rng = random.Random(seed)
        seats = [Seat(seat=i, player=f"p{i}", setup=archetypes.build_deck(
            rng.choice(archetypes.ARCHETYPES), rng)) for i in (0, 1)]
        return Header(game=self.name, ruleset=f"{self.name}@1", match_id=f"see-{seed}",
                      seats=seats, seed=seed)

    def greedy(self) -> Any:
        return self.module("bot").GreedyBot()


VITORIAN, EREDAN = Kit("vitorian"), Kit("eredan")
KITS = pytest.mark.parametrize("kit", [VITORIAN, EREDAN], ids=lambda k: k.name)


def position(kit: Kit, seed: int, steps: int) -> Any:
    """The state after `steps` events of a greedy-vs-random match, moved on to the next decision
    of a seat; None when the match is over by then."""
    rules, rng = kit.rules, random.Random(seed)
    state = rules.setup(kit.header(seed))
    bots = {0: kit.greedy(), 1: RandomBot()}
    done = 0
    while (seat := rules.to_move(state)) is not None and (done < steps or seat == CHANCE):
        if seat == CHANCE:
            event = rules.sample_chance(state, rng)
        else:
            event = bots[seat].choose(observe(rules, state, seat), rules.legal(state), rng)
        rules.apply(state, event)
        done += 1
    return None if seat is None else state


def _shuffle_unknown(zone: list[int], known: set[int], rng: random.Random) -> None:
    """Shuffle the places of `zone` holding cards not in `known`; the others stay put."""
    places = [i for i, cid in enumerate(zone) if cid not in known]
    cards = [zone[i] for i in places]
    rng.shuffle(cards)
    for i, cid in zip(places, cards):
        zone[i] = cid


def _swap_identities(state: Any, ids: list[int], rng: random.Random) -> None:
    cards = [state.cards[cid] for cid in ids]
    rng.shuffle(cards)
    state.cards.update(zip(ids, cards))


def hidden_twin(kit: Kit, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of `state` changed only where `seat` may not see."""
    twin = state.copy()
    twin.cards = dict(state.cards)
    swap_opponents_hidden_cards(twin, seat, rng)  # opponent's hand identities, its deck order
    mine, theirs = twin.players[seat], twin.players[1 - seat]
    if kit is VITORIAN:  # own deck bar what it bottomed (VW-4.7); face-down Convoy and Defense
        _shuffle_unknown(mine.deck, set(mine.bottomed), rng)
        for player in twin.players:
            rng.shuffle(player.defense)
        _swap_identities(twin, [c for c in theirs.convoy if c not in theirs.convoy_public], rng)
        _swap_identities(twin, [c for c in mine.convoy if c not in mine.convoy_public
                                and c not in mine.convoy_seen], rng)
    else:  # nobody sees a deck's order; a submission is secret until both are in (ER-5.15)
        rng.shuffle(mine.deck)
        if theirs.submission is not None:
            theirs.submission = ()
    return twin


STEPS = st.integers(0, 160)
SEEDS = st.integers(0, 10**6)


@KITS
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, steps=STEPS)
def test_hidden_differences_change_neither_observation_nor_choice(kit, seed, steps):
    state = position(kit, seed, steps)
    assume(state is not None)
    rules, seat = kit.rules, kit.rules.to_move(state)
    twin = hidden_twin(kit, state, seat, random.Random(seed))
    assert rules.view(twin, seat) == rules.view(state, seat)  # the twin hides what it should
    seen, seen_twin = observe(rules, state, seat), observe(rules, twin, seat)
    assert seen == seen_twin
    legal = rules.legal(state)
    assert legal == rules.legal(twin)
    for k in range(3):
        assert (kit.greedy().choose(seen, legal, random.Random(k))
                == kit.greedy().choose(seen_twin, legal, random.Random(k)))


@KITS
@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, steps=STEPS)
def test_an_observation_shows_the_seat_view_and_no_hidden_card(kit, seed, steps):
    state = position(kit, seed, steps)
    assume(state is not None)
    rules, seat = kit.rules, kit.rules.to_move(state)
    seen = observe(rules, state, seat)
    assert seen.seat == seat and seen.view() == rules.view(state, seat)
    hidden = set(state.players[1 - seat].hand) | {c for p in state.players for c in p.deck}
    hidden -= set(state.players[seat].bottomed) if kit is VITORIAN else set()
    assert not hidden & set(seen.known.cards)
    assert set(seen.known.players[1 - seat].hand) <= {kit.module("determinize").HIDDEN}
    theirs = seen.unseen[1 - seat]  # the opponent's deck list is hidden: no card of it is told
    assert all(not group.cards for group in (theirs if isinstance(theirs, tuple) else (theirs,)))


@KITS
@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, steps=STEPS, deal=st.integers(0, 1000))
def test_a_determinized_state_agrees_with_all_the_seat_saw(kit, seed, steps, deal):
    state = position(kit, seed, steps)
    assume(state is not None)
    rules, seat = kit.rules, kit.rules.to_move(state)
    world = kit.module("determinize").determinize(observe(rules, state, seat),
                                                  random.Random(deal))
    assert rules.view(world, seat) == rules.view(state, seat)
    # the same decisions, up to which ids the dealt hidden cards got (a Convoy look names ids)
    assert [type(e) for e in rules.legal(world)] == [type(e) for e in rules.legal(state)]
    mine, dealt = state.players[seat], world.players[seat]  # its own list it knows
    cards = sorted(state.cards[c].id for c in mine.hand + mine.deck)
    assert sorted(world.cards[c].id for c in dealt.hand + dealt.deck) == cards
    theirs, guessed = state.players[1 - seat], world.players[1 - seat]
    assert (len(guessed.hand), len(guessed.deck)) == (len(theirs.hand), len(theirs.deck))
    assert all(c in world.cards for c in guessed.hand + guessed.deck)


class Spy:
    """Records what the simulator hands a bot, then plays at random."""

    def __init__(self) -> None:
        self.handed: list[tuple[type, ...]] = []

    def choose(self, seen: Any, legal: Any, rng: random.Random) -> Any:
        self.handed.append((type(seen), type(legal), type(rng)))
        return RandomBot().choose(seen, legal, rng)


@KITS
def test_the_simulator_hands_bots_an_observation_never_the_state(kit):
    state_type = type(kit.rules.setup(kit.header(3)))
    spies = {0: Spy(), 1: Spy()}
    play_match(kit.rules, kit.header(3), spies, random.Random(3))
    handed = [types for spy in spies.values() for types in spy.handed]
    assert handed and all(issubclass(seen, Observation) for seen, _, _ in handed)
    assert not any(state_type in types for types in handed)


@KITS
def test_a_bot_handed_the_state_refuses_it(kit):
    state = position(kit, 5, 20)
    legal = kit.rules.legal(state)
    for bot in (kit.greedy(), RandomBot()):
        with pytest.raises(TypeError, match="never see the state"):
            bot.choose(state, legal, random.Random(0))


def test_a_game_without_its_own_observation_gives_the_seat_view():
    from tests.engine import toy_game

    state = toy_game.RULESET.setup(_toy_header())
    seen = observe(toy_game.RULESET, state, 0)
    assert seen.view() == toy_game.RULESET.view(state, 0)


def _toy_header() -> Header:
    from tests.engine.conftest import toy_header

    return toy_header()
