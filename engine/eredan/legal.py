"""The decisions open to the seat awaited, in canonical form.

Copies of a card are interchangeable, so each distinct choice is offered once (the first copy
in hand). Phase 2 offers no card, every single card and every chained pair (longer chains and
other copies are accepted by `apply` but not listed); Phase 5 offers the required discards, or
when none is required, discarding nothing or one card.
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from engine.eredan.cards import Card
from engine.eredan.plays import (
    chain_allows,
    item_fits,
    receiver_options,
    refusal,
    target_options,
)
from engine.eredan.state import Fighter, State
from engine.eredan.stats import hand_target
from events.eredan import ChooseCombatants, Discard, Play, PlayCards


def legal_events(state: State) -> list[Any]:
    if state.over or state.chance:
        return []
    return BY_WINDOW[state.window](state, state.pending)


def _choose(state: State, seat: int) -> list[Any]:
    mine = [f.id for f in state.living(seat) if not f.tapped]
    theirs = [f.id for f in state.living(1 - seat) if not f.tapped]
    return [ChooseCombatants(seat=seat, attacker=a, defender=d) for a in mine for d in theirs]


def _distinct(state: State, hand: list[int]) -> dict[str, tuple[Card, list[int]]]:
    """Each card in hand with its copies' instance ids, in hand order."""
    found: dict[str, tuple[Card, list[int]]] = {}
    cards = state.cards
    for cid in hand:
        card = cards[cid]
        assert isinstance(card, Card)
        if card.id in found:
            found[card.id][1].append(cid)
        else:
            found[card.id] = (card, [cid])
    return found


def _cards(state: State, seat: int) -> list[Any]:
    found: list[Any] = [PlayCards(seat=seat)]
    fid = state.combatant(seat)
    if fid is None:
        return found
    user = state.fighters[fid]
    copies = [(card, ids) for card, ids in _distinct(state, state.players[seat].hand).values()
              if refusal(user.card, card) is None]
    for card, ids in copies:
        for first in _plays(state, seat, user, card, ids[0], None):
            found.append(PlayCards(seat=seat, plays=(first,)))
            for second in _seconds(state, seat, user, card, first, copies):
                found.append(PlayCards(seat=seat, plays=(first, second)))
    return found


def _plays(state: State, seat: int, user: Fighter, card: Card, cid: int,
           before: tuple[Card, int] | None) -> Iterator[Play]:
    """Every receiver and target of one card; `before` is the submission's first card and the
    character it attaches to, which may fill an Item slot (ER-8.4)."""
    for receiver in receiver_options(state, user, card):
        holder = state.fighters[receiver] if receiver is not None else user
        incoming = [before[0]] if before is not None and before[1] == holder.id else []
        if not item_fits(state, holder, card, incoming):
            continue
        for target in target_options(state, seat, card):
            yield Play(card=cid, target=target, receiver=receiver)


def _seconds(state: State, seat: int, user: Fighter, first: Card, play: Play,
             copies: list[tuple[Card, list[int]]]) -> Iterator[Play]:
    before = (first, play.receiver if play.receiver is not None else user.id)
    for card, ids in copies:
        spare = ids[1:] if card is first else ids
        if spare and chain_allows(first, True, user, card):
            yield from _plays(state, seat, user, card, spare[0], before)


def _discard(state: State, seat: int) -> list[Any]:
    hand = state.players[seat].hand
    need = len(hand) - hand_target(state, seat)
    if need <= 0:
        singles = [ids[0] for _, ids in _distinct(state, hand).values()]
        return [Discard(seat=seat)] + [Discard(seat=seat, cards=(cid,)) for cid in singles]
    seen: set[tuple[str, ...]] = set()
    found: list[Any] = []
    cards = state.cards
    for chosen in combinations(hand, need):
        key = tuple(sorted(cards[c].id for c in chosen))
        if key not in seen:
            seen.add(key)
            found.append(Discard(seat=seat, cards=chosen))
    return found


BY_WINDOW = {"choose": _choose, "cards": _cards, "discard": _discard}
