"""What a Vitorian Wars seat knows, and whole states sampled from it for a bot's lookahead.

`observe` masks everything the seat may not see (spec "Hidden information"): the opponent's
hand, every Maneuver Deck order but the cards the seat bottomed itself (VW-4.7), Convoy cards
neither public nor seen by the seat (Aerial Recon), both Defense Piles and their removed cards.
Each hidden card's place keeps a HIDDEN hole, so every size stays public, and the hidden cards'
identities leave the card table. What remains, per seat and group of zones, is the sorted ids
of the holes and, for the seat's own cards only, the sorted cards not visible anywhere (it knows
its own deck list; the opponent's is hidden but for the Sovereign, spec "Deck lists").
`determinize` deals the seat's own unseen cards into its holes at random and fills the
opponent's with cards any deck could hold, drawn from the catalog, all with the bot's rng; it
never needs the real state.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Any

from engine.bots import MaskedSight
from engine.vitorian.cards import Card, load_catalog
from engine.vitorian.state import Player, State
from engine.vitorian.view import view_of

HIDDEN = -1
"""The id standing for a card the seat may not see."""
CARD_ID = attrgetter("id")
"""Unseen cards are sorted by catalog id, so their order tells nothing."""


@dataclass(frozen=True, slots=True)
class Unseen:
    """Cards of one seat in one group of zones that the observer cannot see: the ids their
    places use and, for the observer's own cards, the cards themselves, each sorted, so how they
    are spread is not told (an opponent's `cards` is empty: its deck list is hidden)."""

    ids: tuple[int, ...]
    cards: tuple[Card, ...]


class VitorianSight(MaskedSight):
    """A seat's observation: its view plus `known`, the state with HIDDEN holes where it may not
    see, and per seat the (hand and deck, Convoy, Defense Pile and removed) unseen cards
    (engine.bots.MaskedSight: made when first read)."""

    known: State
    unseen: tuple[tuple[Unseen, Unseen, Unseen], ...]

    def view(self) -> dict[str, Any]:
        """The seat's view, told from `known` (it only shows what the seat may see)."""
        return view_of(self.known, self.seat)


def observe(state: State, seat: int) -> VitorianSight:
    """What `seat` may see now, and nothing more."""
    return VitorianSight(seat, functools.partial(_masked, state, seat))


def _masked(state: State, seat: int) -> tuple[State, tuple[tuple[Unseen, Unseen, Unseen], ...]]:
    known = state.copy()
    holes = [_mask_player(player, seat) for player in known.players]
    hidden = {cid for groups in holes for group in groups for cid in group}
    table = state.cards
    known.cards = {cid: card for cid, card in table.items() if cid not in hidden}
    unseen = []
    for player, (hand_deck, convoy, defense) in zip(known.players, holes):
        own = player.seat == seat
        unseen.append((_unseen(table, hand_deck, own), _unseen(table, convoy, own),
                       _unseen(table, defense, own)))
    return known, tuple(unseen)


def _mask_player(player: Player, seat: int) -> tuple[list[int], list[int], list[int]]:
    """Hide `player`'s cards that `seat` may not see, in place; returns the hidden ones by
    group of zones (hand and deck, Convoy, Defense Pile and removed)."""
    own = player.seat == seat
    nothing: set[int] = set()
    hand = _mask(player.hand, None if own else nothing)
    deck = _mask(player.deck, set(player.bottomed) if own else nothing)
    convoy = _mask(player.convoy, player.convoy_public | (player.convoy_seen if own else nothing))
    defense = _mask(player.defense, nothing) + _mask(player.removed, nothing)
    if not own:  # what the opponent bottomed or looked at is its own knowledge
        player.bottomed, player.convoy_seen = [], set()
    return hand + deck, convoy, defense


def _mask(zone: list[int], visible: set[int] | None) -> list[int]:
    """Replace the cards of `zone` not in `visible` (None: all are) by HIDDEN in place; returns
    the hidden ones. Runs at every decision, hence the shortcuts."""
    if visible is None:
        return []
    if not visible:
        hidden = list(zone)
        zone[:] = [HIDDEN] * len(zone)
        return hidden
    hidden = [cid for cid in zone if cid not in visible]
    zone[:] = [cid if cid in visible else HIDDEN for cid in zone]
    return hidden


def _unseen(table: dict[int, Card], hidden: list[int], own: bool) -> Unseen:
    """The hidden cards of a group as the seat may know them: their ids, and only for its own
    cards the cards themselves (sorted, so their order tells nothing): the opponent's list is
    hidden."""
    if not own:
        return Unseen(ids=tuple(sorted(hidden)), cards=())
    return Unseen(ids=tuple(sorted(hidden)),
                  cards=tuple(sorted(map(table.__getitem__, hidden), key=CARD_ID)))


def determinize(sight: VitorianSight, rng: random.Random) -> State:
    """A whole state consistent with what the seat saw: in each group of zones its own unseen
    cards shuffled with `rng` and dealt into its holes, the opponent's holes filled with catalog
    cards of the group's kind (ids are interchangeable once their cards are dealt)."""
    state = sight.known.copy()
    state.cards = dict(sight.known.cards)
    for player, (hand_deck, convoy, defense) in zip(state.players, sight.unseen):
        own = player.seat == sight.seat
        _deal(state, (player.hand, player.deck), hand_deck, _kind("maneuver", own), rng)
        _deal(state, (player.convoy,), convoy, _kind("convoy", own), rng)
        _deal(state, (player.defense, player.removed), defense, _kind("defense", own), rng)
    return state


def _kind(group: str, own: bool) -> str | None:
    """The catalog kind an opponent's holes are filled from; None for the seat's own."""
    return None if own else group


@cache
def prior(group: str) -> tuple[Card, ...]:
    """The catalog cards a deck may hold in a group of zones (Maneuver cards, VW-3.4, VW-3.6;
    Supply Convoy resources; Defense Pile protections, VW-3.8): the guess for a hidden list."""
    cards = load_catalog().cards
    if group == "maneuver":
        return tuple(c for c in cards if c.type not in ("sovereign", "resource"))
    if group == "convoy":
        return tuple(c for c in cards if c.type == "resource" and c.resource in ("P", "S"))
    return tuple(c for c in cards if c.resource == "protection")


def _deal(state: State, zones: tuple[list[int], ...], unseen: Unseen, guess: str | None,
          rng: random.Random) -> None:
    if guess is None:
        cards = list(unseen.cards)
        rng.shuffle(cards)
    else:
        pool = prior(guess)
        cards = [pool[rng.randrange(len(pool))] for _ in unseen.ids]
    state.cards.update(zip(unseen.ids, cards))
    ids = iter(unseen.ids)
    for zone in zones:
        zone[:] = [next(ids) if cid == HIDDEN else cid for cid in zone]
