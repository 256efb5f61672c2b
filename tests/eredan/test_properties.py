"""Properties of whole simulated Eredan matches: they end, replay reproduces them, and no seat
ever sees what the rules hide from it."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.eredan.archetypes import ARCHETYPES, build_deck
from engine.eredan.bot import GreedyBot
from engine.eredan.flow import TURN_CAP
from engine.eredan.state import State
from engine.replay import Replay
from engine.ruleset import CHANCE, get_ruleset
from engine.simulate import play_match
from events.base import Header, Seat

RULES = get_ruleset("eredan@1")
BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_header(seed: int) -> Header:
    rng = random.Random(seed)
    seats = [Seat(seat=i, player=f"p{i}", deck=build_deck(rng.choice(ARCHETYPES), rng, f"d{i}"))
             for i in (0, 1)]
    return Header(game="eredan", ruleset="eredan@1", match_id=f"prop-{seed}", seats=seats,
                  seed=seed)


def simulate(seed: int, bots: tuple[str, str]) -> tuple[Header, list]:
    header = make_header(seed)
    events, _ = play_match(RULES, header, {i: BOTS[b]() for i, b in enumerate(bots)},
                           random.Random(seed))
    return header, events


def fold(header: Header, events: list) -> State:
    state = RULES.setup(header)
    for event in events:
        RULES.apply(state, event)
    return state


bot_pairs = st.sampled_from([("random", "random"), ("greedy", "random"), ("greedy", "greedy")])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), bots=bot_pairs)
def test_every_simulated_match_ends(seed, bots):
    """ER-1.9; the turn cap stops the rare match where nobody can hurt anyone."""
    header, events = simulate(seed, bots)
    state = fold(header, events)
    assert state.over and state.turn <= TURN_CAP
    assert RULES.to_move(state) is None and RULES.outcome(state) is not None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), bots=bot_pairs)
def test_replay_reproduces_the_final_state_at_every_seek(seed, bots):
    header, events = simulate(seed, bots)
    final = RULES.view(fold(header, events), "organiser")
    replay = Replay(RULES, header, events)
    replay.seek(len(events))
    assert RULES.view(replay.state, "organiser") == final
    middle = len(events) // 2
    replay.seek(middle)
    assert RULES.view(replay.state, "organiser") == RULES.view(
        fold(header, events[:middle]), "organiser")
    replay.seek(1)
    replay.seek(len(events) - 1)
    assert RULES.view(replay.state, "organiser") == RULES.view(
        fold(header, events[:-1]), "organiser")


def _hide_swap(state: State, seat: int, rng: random.Random) -> None:
    """Change only what `seat` may not see: the identities of the opponent's hand and deck
    cards (its secret submission and discard choice among them) and its deck order."""
    other = state.players[1 - seat]
    hidden = other.hand + other.deck
    cards = [state.cards[c] for c in hidden]
    rng.shuffle(cards)
    for cid, card in zip(hidden, cards):
        state.cards[cid] = card
    rng.shuffle(other.deck)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), cut=st.floats(0, 1))
def test_a_seat_view_ignores_the_opponents_hidden_cards(seed, cut):
    header, events = simulate(seed, ("greedy", "random"))
    state = fold(header, events[:int(len(events) * cut)])
    spectator = RULES.view(state, "spectator")
    for seat in (0, 1):
        before = RULES.view(state, seat)
        changed = state.copy()
        changed.cards = dict(state.cards)
        _hide_swap(changed, seat, random.Random(seed))
        assert RULES.view(changed, seat) == before
    both = state.copy()
    both.cards = dict(state.cards)
    _hide_swap(both, 0, random.Random(seed))
    _hide_swap(both, 1, random.Random(seed + 1))
    assert RULES.view(both, "spectator") == spectator


def test_hidden_cards_never_appear_in_a_seat_view_or_an_open_change():
    """Hidden information: the opponent's hand, every deck order, a submission before the
    reveal; a drawn card is seen only by its drawer."""
    header, events = simulate(7, ("greedy", "greedy"))
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


def test_greedy_beats_random_clearly():
    wins = 0
    for seed in range(60):
        seat = seed % 2
        bots = ("greedy", "random") if seat == 0 else ("random", "greedy")
        header, events = simulate(seed, bots)
        wins += RULES.outcome(fold(header, events)).winner == seat
    assert wins >= 45
