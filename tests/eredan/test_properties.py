"""Properties of whole simulated Eredan matches: they end (ER-1.9; the turn cap stops the rare
match where nobody can hurt anyone), replay reproduces them, and no seat ever sees what the rules
hide from it. The properties shared with every game are in tests/game_properties.py; they hold
under eredan@2 (new matches, ids dealt) and eredan@1 (the older logs) alike."""
from __future__ import annotations

from engine.eredan.archetypes import ARCHETYPES, build_deck
from engine.eredan.bot import GreedyBot
from engine.eredan.flow import TURN_CAP
from engine.ruleset import CHANCE
from tests.game_properties import Game, property_tests

# The opponent's hidden hand and deck hold its secret submission and discard choice too.
EREDAN = Game(name="eredan", ruleset="eredan@2", archetypes=ARCHETYPES, build_deck=build_deck,
              greedy_bot=GreedyBot, turn_cap=TURN_CAP)
EREDAN_V1 = Game(name="eredan", ruleset="eredan@1", archetypes=ARCHETYPES,
                 build_deck=build_deck, greedy_bot=GreedyBot, turn_cap=TURN_CAP)
RULES = EREDAN.rules


class TestEredanMatches(property_tests(EREDAN, outcome_when_over=True, replay_rewinds=True)):
    """The shared properties; every finished Eredan match also has an outcome, and replay is
    checked after a rewind too."""


class TestEredanV1Matches(property_tests(EREDAN_V1, outcome_when_over=True)):
    """eredan@1, whose logs are still read: the same properties."""


def test_hidden_cards_never_appear_in_a_seat_view_or_an_open_change():
    """Hidden information: the opponent's hand, every deck order, a submission before the
    reveal; a drawn card is seen only by its drawer."""
    header, events = EREDAN.simulate(7, ("greedy", "greedy"))
    state = RULES.setup(header)
    for event in events:
        for change in RULES.apply(state, event):
            if change.kind == "draw":
                assert change.secret_to == change.seat
        if RULES.to_move(state) == CHANCE or state.over:
            continue
        for seat in (0, 1):
            view = RULES.view(state, seat)
            other = view["seats"][1 - seat]
            assert other["hand"] is None and other["deck"] is None
            assert other["submission"] is None and other["discarding"] is None
            assert view["seats"][seat]["hand"] is not None
            assert view["seats"][seat]["deck"] is None
            hidden = set(state.players[1 - seat].hand) | set(state.players[1 - seat].deck)
            assert not hidden & set(_ids(view))


def _ids(view: object) -> list[int]:
    """Every card instance id in a view (dicts with an "id")."""
    found: list[int] = []
    if isinstance(view, dict):
        if isinstance(view.get("id"), int):
            found.append(view["id"])
        for value in view.values():
            found += _ids(value)
    elif isinstance(view, list):
        for value in view:
            found += _ids(value)
    return found
