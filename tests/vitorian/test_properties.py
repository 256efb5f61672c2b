"""Properties of whole simulated Vitorian matches: they end (VW-12.5), replay reproduces them,
and no seat ever sees what the rules hide from it. The properties shared with every game are in
tests/game_properties.py; they are checked on vitorian@2, the rules new matches are played with
(vitorian@1 differs only in how ids are given, tests/vitorian/test_setup.py)."""
from __future__ import annotations

import random

from engine.ruleset import CHANCE
from engine.vitorian.archetypes import ARCHETYPES, build_deck
from engine.vitorian.bot import GreedyBot
from engine.vitorian.flow import TURN_CAP
from engine.vitorian.state import State
from tests.game_properties import Game, property_tests, swap_opponents_hidden_cards


def _hide_swap(state: State, seat: int, rng: random.Random) -> None:
    """Change only what `seat` may not see: the opponent's hand identities and deck order."""
    swap_opponents_hidden_cards(state, seat, rng)
    state.players[seat].bottomed = list(state.players[seat].bottomed)


VITORIAN = Game(name="vitorian", ruleset="vitorian@2", archetypes=ARCHETYPES,
                build_deck=build_deck, greedy_bot=GreedyBot, turn_cap=TURN_CAP,
                hide_swap=_hide_swap)
RULES = VITORIAN.rules


class TestVitorianMatches(property_tests(VITORIAN)):
    """The shared properties."""


def test_opponent_hand_never_appears_in_a_seat_view():
    header, events = VITORIAN.simulate(7, ("greedy", "greedy"))
    state = RULES.setup(header)
    for event in events:
        RULES.apply(state, event)
        if RULES.to_move(state) == CHANCE or state.over:
            continue
        for seat in (0, 1):
            view = RULES.view(state, seat)
            assert view["seats"][1 - seat]["hand"] is None
            assert view["seats"][1 - seat]["deck"] is None
            assert view["seats"][seat]["hand"] is not None
