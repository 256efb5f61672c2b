"""Properties every game's simulated matches must have, written once for all games: a match ends
within the turn cap, replay reproduces the simulator's state at every seek, a seat's view does not
change when only the cards hidden from that seat change, and the greedy bot beats the random one.

A game's tests describe the game with a `Game` and subclass `property_tests(game)`:

    class TestEredanMatches(property_tests(EREDAN, outcome_when_over=True)):
        ...

Each call builds fresh test functions, so hypothesis keeps each game's tests apart; the number of
examples and the strategies are the same for every game.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.replay import Replay
from engine.ruleset import Ruleset, get_ruleset
from engine.simulate import play_match
from events.base import DeckList, Header, Seat

SEEDS = st.integers(0, 10**9)
BOT_PAIRS = st.sampled_from([("random", "random"), ("greedy", "random"), ("greedy", "greedy")])


def swap_opponents_hidden_cards(state: Any, seat: int, rng: random.Random) -> None:
    """Change only what `seat` may not see: the identities of the opponent's hand and deck cards,
    and the opponent's deck order."""
    other = state.players[1 - seat]
    hidden = other.hand + other.deck
    cards = [state.cards[c] for c in hidden]
    rng.shuffle(cards)
    for cid, card in zip(hidden, cards):
        state.cards[cid] = card
    rng.shuffle(other.deck)


@dataclass(frozen=True)
class Game:
    """What the shared properties need to know of a game."""

    name: str                                   # the header's game, e.g. "eredan"
    ruleset: str                                # e.g. "eredan@1"
    archetypes: Sequence[str]
    build_deck: Callable[[str, random.Random, str], DeckList]
    greedy_bot: Callable[[], Any]
    turn_cap: int
    hide_swap: Callable[[Any, int, random.Random], None] = swap_opponents_hidden_cards

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset)

    def make_header(self, seed: int) -> Header:
        rng = random.Random(seed)
        seats = [Seat(seat=i, player=f"p{i}",
                      setup=self.build_deck(rng.choice(self.archetypes), rng, f"d{i}"))
                 for i in (0, 1)]
        return Header(game=self.name, ruleset=self.ruleset, match_id=f"prop-{seed}",
                      seats=seats, seed=seed)

    def simulate(self, seed: int, bots: tuple[str, str]) -> tuple[Header, list]:
        """A whole match between the named bots ("random" or "greedy"), seeded by `seed`."""
        header = self.make_header(seed)
        kinds = {"random": RandomBot, "greedy": self.greedy_bot}
        events, _ = play_match(self.rules, header, {i: kinds[b]() for i, b in enumerate(bots)},
                               random.Random(seed))
        return header, events

    def fold(self, header: Header, events: list) -> Any:
        """The state after applying `events` to the setup of `header`."""
        state = self.rules.setup(header)
        for event in events:
            self.rules.apply(state, event)
        return state


def property_tests(game: Game, *, outcome_when_over: bool = False,
                   replay_rewinds: bool = False) -> type:
    """The shared property tests of `game`, as a class for a test module to subclass.

    outcome_when_over: a finished match must also have an outcome.
    replay_rewinds: replay is also checked after seeking back to the start and forward again.
    """
    rules = game.rules

    class GameProperties:
        @settings(max_examples=40, deadline=None)
        @given(seed=SEEDS, bots=BOT_PAIRS)
        def test_every_simulated_match_ends_within_the_turn_cap(self, seed, bots):
            header, events = game.simulate(seed, bots)
            state = game.fold(header, events)
            assert state.over and state.turn <= game.turn_cap
            assert rules.to_move(state) is None
            if outcome_when_over:
                assert rules.outcome(state) is not None

        @settings(max_examples=15, deadline=None)
        @given(seed=SEEDS, bots=BOT_PAIRS)
        def test_replay_reproduces_the_final_state_at_every_seek(self, seed, bots):
            header, events = game.simulate(seed, bots)
            final = rules.view(game.fold(header, events), "organiser")
            replay = Replay(rules, header, events)
            replay.seek(len(events))
            assert rules.view(replay.state, "organiser") == final
            middle = len(events) // 2
            replay.seek(middle)
            assert rules.view(replay.state, "organiser") == rules.view(
                game.fold(header, events[:middle]), "organiser")
            if replay_rewinds:
                replay.seek(1)
                replay.seek(len(events) - 1)
                assert rules.view(replay.state, "organiser") == rules.view(
                    game.fold(header, events[:-1]), "organiser")

        @settings(max_examples=25, deadline=None)
        @given(seed=SEEDS, cut=st.floats(0, 1))
        def test_a_seat_view_ignores_the_opponents_hidden_cards(self, seed, cut):
            header, events = game.simulate(seed, ("greedy", "random"))
            state = game.fold(header, events[:int(len(events) * cut)])
            spectator = rules.view(state, "spectator")
            for seat in (0, 1):
                before = rules.view(state, seat)
                changed = state.copy()
                changed.cards = dict(state.cards)
                game.hide_swap(changed, seat, random.Random(seed))
                assert rules.view(changed, seat) == before
            both = state.copy()
            both.cards = dict(state.cards)
            game.hide_swap(both, 0, random.Random(seed))
            game.hide_swap(both, 1, random.Random(seed + 1))
            assert rules.view(both, "spectator") == spectator

        def test_greedy_beats_random_clearly(self):
            wins = 0
            for seed in range(60):
                seat = seed % 2
                bots = ("greedy", "random") if seat == 0 else ("random", "greedy")
                header, events = game.simulate(seed, bots)
                wins += rules.outcome(game.fold(header, events)).winner == seat
            assert wins >= 45

    return GameProperties
