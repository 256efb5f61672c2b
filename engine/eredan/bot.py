"""A greedy Eredan bot: it plays each decision out to the end of the combat and keeps the best.

It decides from its seat's observation only (engine/bots.py). Phase 1 and Phase 2 choices are
tried on a state determinized from that observation with the bot's own rng (the opponent's hand
and both deck orders are sampled, never read: "Hidden information"), the turn run through the
combat result with the opponent playing nothing, and the result valued (HP, characters standing,
what they carry, cards in hand, the threat of a deck-out). The opponent's secret submission is
not in the observation: as the passive player the bot values its cards against an empty one
(ER-5.15).
Phase 5 keeps the hand unless a discard is required, then drops the cards it values least.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.bots import Observation, require_observation
from engine.eredan.cards import Card
from engine.eredan.determinize import EredanSight, determinize
from engine.eredan.plays import refusal
from engine.eredan.rules import RULES
from engine.eredan.state import State
from engine.eredan.stats import carried, hand_target
from events.eredan import Discard, PlayCards

WIN = 1000.0
STANDING = 12.0
"""What a character still standing is worth beyond its HP."""
CARRIED = 1.5
"""What a point of lasting Attack, Defense or Spirit from attachments is worth."""
HAND_CARD = 0.3
"""What a card kept in hand is worth: playing one must gain more than that."""


class GreedyBot:
    name = "greedy"

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        sight = require_observation(seen, EredanSight)
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], Discard):
            return _discard(sight.known, sight.seat, legal)
        world = determinize(sight, rng)
        scored = [(_score(world, sight.seat, event), i) for i, event in enumerate(legal)]
        best = max(score for score, _ in scored)
        ties = [i for score, i in scored if score == best]
        return legal[ties[rng.randrange(len(ties))]]


def _score(world: State, seat: int, event: Any) -> float:
    """The value for `seat` after the turn runs through the combat with this decision, on the
    determinized `world` (where a hidden submission is already an empty one)."""
    trial = world.copy()
    RULES.apply(trial, event)
    while not trial.over and trial.window in ("cards",):
        RULES.apply(trial, PlayCards(seat=trial.pending))
    return value(trial, seat)


def value(state: State, seat: int) -> float:
    """How well `seat` stands: its side minus the other's, or the result when over."""
    if state.over:
        return 0.0 if state.winner is None else (WIN if state.winner == seat else -WIN)
    return _side(state, seat) - _side(state, 1 - seat)


def _side(state: State, seat: int) -> float:
    total = 0.0
    for fighter in state.fighters.values():
        if fighter.owner == seat and not fighter.defeated:
            extra = carried(state, fighter)
            total += fighter.hp + STANDING + CARRIED * (extra.attack + extra.defense
                                                       + extra.spirit)
    player = state.players[seat]
    hand = len(player.hand)
    total += HAND_CARD * hand
    if len(player.deck) < hand_target(state, seat) - hand:
        total -= WIN / 2  # it would run out of cards at the next refill (ER-1.6)
    return total


def _discard(state: State, seat: int, legal: Sequence[Any]) -> Any:
    """No discard when none is required; else the least useful cards."""
    if not legal[0].cards:
        return legal[0]
    return min(legal, key=lambda event: sum(_keep_value(state, seat, c) for c in event.cards))


def _keep_value(state: State, seat: int, cid: int) -> float:
    """Cards none of the living characters can play are worth least."""
    card = state.cards[cid]
    assert isinstance(card, Card)
    users = [f for f in state.living(seat) if refusal(f.card, card) is None]
    return float(len(users)) + (0.5 if card.stays else 0.0)
