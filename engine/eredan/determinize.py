"""What an Eredan seat knows, and whole states sampled from it for a bot's lookahead.

`observe` masks everything the seat may not see (spec "Hidden information"): the opponent's
hand, the order of every deck (the owner's included), the opponent's secret submission until
both have submitted (ER-5.15) and its Phase 5 discard choice. Each hidden card's place keeps a
HIDDEN hole, so hand and deck sizes stay public, and the hidden cards' identities leave the card
table: what remains per seat is the sorted ids and the sorted cards not visible anywhere. A
hidden submission or discard choice stays as "made, nothing in it", which is how the bot values
it (it never guesses what the opponent plays). `determinize` deals the seat's own unseen cards
into its holes at random and fills the opponent's with catalog cards, all with the bot's rng;
it never needs the real state.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Any

from engine.bots import MaskedSight
from engine.eredan.cards import Card, Character, load_catalog
from engine.eredan.state import Player, State
from engine.eredan.view import view_of

HIDDEN = -1
"""The id standing for a card the seat may not see."""
CARD_ID = attrgetter("id")
"""Unseen cards are sorted by catalog id, so their order tells nothing."""


@dataclass(frozen=True, slots=True)
class Unseen:
    """A seat's cards (hand and deck) that the observer cannot see: the ids their places use and,
    for the observer's own cards, the cards themselves, each sorted, so how they are spread is
    not told (an opponent's `cards` is empty: its deck list is hidden)."""

    ids: tuple[int, ...]
    cards: tuple[Card | Character, ...]


class EredanSight(MaskedSight):
    """A seat's observation: its view plus `known`, the state with HIDDEN holes where it may not
    see, and each seat's unseen cards
    (engine.bots.MaskedSight: made when first read)."""

    known: State
    unseen: tuple[Unseen, ...]

    def view(self) -> dict[str, Any]:
        """The seat's view, told from `known` (it only shows what the seat may see)."""
        return view_of(self.known, self.seat)


def observe(state: State, seat: int) -> EredanSight:
    """What `seat` may see now, and nothing more."""
    return EredanSight(seat, functools.partial(_masked, state, seat))


def _masked(state: State, seat: int) -> tuple[State, tuple[Unseen, ...]]:
    known = state.copy()
    known.cards = dict(state.cards)
    known.deck_lists = tuple(listed if owner == seat else ()  # eredan@2 before the Deal
                             for owner, listed in enumerate(state.deck_lists))
    return known, tuple(_mask_player(known, player, seat) for player in known.players)


def _mask_player(known: State, player: Player, seat: int) -> Unseen:
    """Hide `player`'s cards that `seat` may not see and return them."""
    hidden = list(player.deck)
    player.deck = [HIDDEN] * len(player.deck)
    own = player.seat == seat
    if not own:
        player.charge = None  # the sum would hint at the list
        hidden += player.hand
        player.hand = [HIDDEN] * len(player.hand)
        if player.submission is not None:
            player.submission = ()
        if player.discarding is not None:
            player.discarding = ()
    cards = sorted((known.cards.pop(cid) for cid in hidden), key=CARD_ID)
    return Unseen(ids=tuple(sorted(hidden)), cards=tuple(cards) if own else ())


def determinize(sight: EredanSight, rng: random.Random) -> State:
    """A whole state consistent with what the seat saw: its own unseen cards shuffled with `rng`
    and dealt into its holes, the opponent's holes filled with catalog cards (ids are
    interchangeable once their cards are dealt)."""
    state = sight.known.copy()
    state.cards = dict(sight.known.cards)
    for player, unseen in zip(state.players, sight.unseen):
        state.cards.update(zip(unseen.ids, _cards(unseen, player.seat == sight.seat, rng)))
        ids = iter(unseen.ids)
        player.hand = [next(ids) if cid == HIDDEN else cid for cid in player.hand]
        player.deck = [next(ids) for _ in player.deck]
    return state


def _cards(unseen: Unseen, own: bool, rng: random.Random) -> list[Card | Character]:
    """The cards dealt into a seat's holes: its own shuffled, or guesses for a hidden list."""
    if own:
        cards = list(unseen.cards)
        rng.shuffle(cards)
        return cards
    pool = prior()
    return [pool[rng.randrange(len(pool))] for _ in unseen.ids]


@cache
def prior() -> tuple[Card, ...]:
    """The catalog's deck cards (not characters), the guess for an opponent's hidden list."""
    return load_catalog().cards
