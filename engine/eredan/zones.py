"""Moving cards between deck, hand and discard pile, with the hand cap and deck-out
(ER-1.6, ER-4.3, ER-5.5, ER-5.6, ER-5.20)."""
from __future__ import annotations

from engine.eredan.changes import DeckOut, Drawn, ToDiscard
from engine.eredan.state import HAND_CAP, State, owner_of
from engine.ruleset import Change

Changes = list[Change]


def draw(state: State, seat: int, count: int, out: Changes) -> int:
    """Draw up to `count` from the top; a draw that would exceed 8 cards does not happen and an
    empty deck gives nothing (ER-5.20). Returns the number drawn."""
    player = state.players[seat]
    n = min(count, len(player.deck), HAND_CAP - len(player.hand))
    for _ in range(n):
        card = player.deck.pop(0)
        player.hand.append(card)
        out.append(Drawn(seat=seat, card=card, secret_to=seat))
    return max(0, n)


def refill(state: State, seat: int, target: int, out: Changes) -> None:
    """Draw up to the hand target; a deck too short for it is drawn out and the player enters
    deck-out, while a full hand draws nothing even from an empty deck (ER-5.5, ER-5.6)."""
    player = state.players[seat]
    need = target - len(player.hand)
    if need <= 0:
        return
    if len(player.deck) < need:
        player.deck_out = True
        out.append(DeckOut(seat=seat, missing=need - len(player.deck)))
    draw(state, seat, need, out)


def to_discard(state: State, cid: int, out: Changes) -> None:
    """A card goes to its owner's discard pile, whoever held it."""
    seat = owner_of(cid)
    state.players[seat].discard.append(cid)
    out.append(ToDiscard(seat=seat, card=cid))
