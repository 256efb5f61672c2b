"""Vitorian Wars' narration: what each perspective may know of every step, in the game's words.

The one place the game decides what the organiser, each seat and a spectator are told of its
events and changes (engine.narration.Narration; the command line and the app both ask it):
- chance outcomes (the id deal, the first-player draw, shuffles) read as what a player saw, "Kira
  Brandt's Maneuver Deck is shuffled"; the order, top card first, only for the organiser;
- a draw names its card to its seat and the organiser, to others "draws a card";
- the cards a seat bottomed after a mulligan (VW-4.7) and the Convoy cards an Aerial Recon looked
  at (VW-8.7) are named to that seat and the organiser, counted for everyone else;
- everything public (spec "Hidden information") is told with names: cards, players, cells.
Data (event_data, change_data) is masked the same way by the base class: another seat's private
event fields (events.vitorian `private`) and secret changes (engine.vitorian.changes) lose their
cards, and a chance outcome keeps only its type and seat.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.narration import Narration, mask_change
from engine.ruleset import OMNISCIENT, Change, Outcome, Perspective
from engine.vitorian.cards import load_catalog
from engine.vitorian.state import State
from engine.vitorian.words import (
    ABILITIES,
    ZONES,
    Words,
    a,
    cell,
    change_words,
    count,
    reason_words,
)
from events.base import Header
from events.vitorian import (
    Barrage,
    Concede,
    Deal,
    DeclareAttack,
    EndPhase,
    FirstPlayer,
    Gank,
    KeepHand,
    LinkEquipment,
    Mobilize,
    Move,
    Mulligan,
    PassPriority,
    PayUpkeep,
    PlayFieldCondition,
    PlayOrder,
    Recycle,
    Shuffle,
)

EventWords = Callable[[Words, Any], str]


class VitorianNarration(Narration):
    """Vitorian Wars told per perspective (the base class's perspectives: the organiser, each
    seat as "Seat N · player", a spectator)."""

    def event_text(self, header: Header, state: Any, event: Any,
                   perspective: Perspective) -> str:
        say = EVENT_WORDS.get(type(event))
        if say is None:
            raise TypeError(f"no words for the Vitorian event {type(event).__name__}")
        return say(Words(header, state, perspective), event)

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        return change_words(Words(header, state, perspective), mask_change(change, perspective))

    def outcome_text(self, header: Header, outcome: Outcome | None) -> str:
        """"Kira Brandt wins: Rex Vale's Sovereign ... fell (VW-9.26)"; a draw says so."""
        if outcome is None:
            return "the log stops before the match ends"
        names = {seat.seat: seat.player for seat in header.seats}

        def who(seat: int | None) -> str:
            return names.get(seat, f"seat {seat}") if seat is not None else "nobody"

        why = reason_words(who, lambda seat: _sovereign(header, seat), outcome.winner,
                           outcome.reason)
        result = "Draw" if outcome.winner is None else f"{who(outcome.winner)} wins"
        return f"{result}: {why} ({outcome.rule})"


def _sovereign(header: Header, seat: int) -> str:
    """The seat's Sovereign by name, from its deck list (the Sovereign is public)."""
    for each in header.seats:
        if each.seat == seat:
            entries = each.setup.section("sovereign")
            card = load_catalog().find(entries[0].card) if entries else None
            if card is not None:
                return card.name
    return "(unknown)"


# Chance outcomes: what a player saw; the organiser also how it fell -------------------------

def _deal(w: Words, ev: Deal) -> str:
    return (f"{w.whose(ev.seat)} {count(len(ev.labels), 'card')} are dealt their match ids at "
            "random")


def _shuffle(w: Words, ev: Shuffle) -> str:
    told = f"{w.whose(ev.seat)} {ZONES[ev.zone]} is shuffled"
    if w.perspective != OMNISCIENT:
        return told
    order = w.letters(ev.order) if ev.zone == "convoy" else w.cards(ev.order)
    return f"{told}, top first: {order}" if order else told


# Setup decisions ------------------------------------------------------------------------------

def _mulligan(w: Words, ev: Mulligan) -> str:
    taken = w.state.players[ev.seat].mulligans
    return (f"{w.who(ev.seat)} takes mulligan {taken}: the hand goes back into the Maneuver "
            "Deck")


def _keep(w: Words, ev: KeepHand) -> str:
    if not ev.bottom:
        return f"{w.who(ev.seat)} keeps the hand"
    bottomed = w.cards(ev.bottom) if w.sees(ev.seat) else count(len(ev.bottom), "card")
    return f"{w.who(ev.seat)} keeps, bottoming {bottomed}"


# Turn decisions -------------------------------------------------------------------------------

def _recycle(w: Words, ev: Recycle) -> str:
    told = f"{w.who(ev.seat)} recycles {a(w.state.resource_kind(ev.resource))}"
    if ev.ability is None:
        return told
    unit = f" on {w.card(ev.unit)}" if ev.unit is not None and ev.to is None else ""
    to = f": {w.card(ev.unit)} to {cell(ev.to)}" if ev.to is not None else ""
    return f"{told} for {ABILITIES[ev.ability]}{unit}{to}{w.paying(ev.exhaust)}"


def _upkeep(w: Words, ev: PayUpkeep) -> str:
    if not ev.payments:
        return f"{w.who(ev.seat)} pays no Elite Upkeep"
    units = w.cards(unit for unit, _ in ev.payments)
    return f"{w.who(ev.seat)} pays Elite Upkeep for {units}{w.paying(r for _, r in ev.payments)}"


def _mobilize(w: Words, ev: Mobilize) -> str:
    return (f"{w.who(ev.seat)} mobilizes {w.card(ev.card)} to {cell(ev.cell)}"
            f"{w.paying(ev.exhaust)}")


def _move(w: Words, ev: Move) -> str:
    return f"{w.who(ev.seat)} moves {w.card(ev.unit)} to {cell(ev.to)}{w.paying(ev.exhaust)}"


def _link(w: Words, ev: LinkEquipment) -> str:
    return (f"{w.who(ev.seat)} links {w.card(ev.card)} to {w.card(ev.unit)}"
            f"{w.paying(ev.exhaust)}")


def _field_condition(w: Words, ev: PlayFieldCondition) -> str:
    return (f"{w.who(ev.seat)} puts down the Field Condition {w.card(ev.card)}"
            f"{w.paying(ev.exhaust)}")


def _end_phase(w: Words, ev: EndPhase) -> str:
    """Ending the Main Phase opens the seat's Combat Phase; ending that ends the turn."""
    state: State = w.state
    main = state.window == "combat" and state.active == ev.seat
    return f"{w.who(ev.seat)} ends the {'Main' if main else 'Combat'} Phase"


def _attack(w: Words, ev: DeclareAttack) -> str:
    target = (w.card(ev.target) if ev.target is not None
              else f"the Sovereign {w.sovereign(1 - ev.seat)}")
    return f"{w.who(ev.seat)} attacks {target} with {w.card(ev.attacker)}"


def _order(w: Words, ev: PlayOrder) -> str:
    on = f" on {w.card(ev.target)}" if ev.target is not None else ""
    choice = f", returning {w.letters(ev.choice)}" if ev.choice else ""
    return f"{w.who(ev.seat)} plays {w.card(ev.card)}{on}{w.paying(ev.returns)}{choice}"


EVENT_WORDS: dict[type, EventWords] = {
    Deal: _deal,
    FirstPlayer: lambda w, ev: f"{w.who(ev.seat)} is drawn to play first",
    Shuffle: _shuffle,
    Mulligan: _mulligan,
    KeepHand: _keep,
    Recycle: _recycle,
    PayUpkeep: _upkeep,
    Mobilize: _mobilize,
    Move: _move,
    LinkEquipment: _link,
    PlayFieldCondition: _field_condition,
    EndPhase: _end_phase,
    DeclareAttack: _attack,
    PlayOrder: _order,
    Gank: lambda w, ev: f"{w.who(ev.seat)} ganks with {w.card(ev.unit)} to {cell(ev.to)}",
    Barrage: lambda w, ev: (f"{w.who(ev.seat)} barrages with {w.card(ev.supporter)}, "
                            f"exhausting {a(w.state.resource_kind(ev.resource))}"),
    PassPriority: lambda w, ev: f"{w.who(ev.seat)} passes",
    Concede: lambda w, ev: f"{w.who(ev.seat)} concedes",
}

NARRATION = VitorianNarration()
"""The game's "narration" layer (engine/vitorian/game.py)."""
