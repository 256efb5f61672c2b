"""Eredan iTCG told in its own words, and what each perspective may know of every step (the
spec's "Hidden information" section), for the command line's replay and the app alike.

Public: the line, the initiative ticket drawn, the combatants, every card once revealed or in
play, discard piles. A seat alone (and the organiser) knows the cards it draws, its own
submission and discards before the reveal; nobody but the organiser knows a deck's order or the
ids its cards were dealt (eredan@2). Another seat learns only that a submission or a discard
choice was made, never how many cards it holds (events.base.count_is_public), until both are in.
Words name players and cards, never ids: the state after the step gives the names, and a
change is masked for the perspective (engine.narration.mask_change) before it is told, so a
card the perspective may not see has no name to give.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.eredan import changes as ch
from engine.eredan.flow import TURN_CAP
from engine.eredan.state import State
from engine.narration import Narration, mask_change
from engine.ruleset import OMNISCIENT, Change, Outcome, Perspective, sees_seat
from events.base import Header
from events.eredan import (
    ChooseCombatants,
    Deal,
    Discard,
    Initiative,
    Leave,
    Play,
    PlayCards,
    Shuffle,
)

SHOWN_ON_TOP = 3
"""How many cards of a shuffled deck the organiser's line names, top first."""
REASONS = {
    "elimination": "all three of {loser}'s characters are defeated",
    "score": "all six characters are down and {winner} has the higher score",
    "score_tie": "all six characters are down with equal scores",
    "deck_out": "{loser} could not refill their hand (deck-out)",
    "deck_out_both": "both players are in deck-out",
    "left": "{loser} left the battle",
    "turn_cap": f"neither side could win within {TURN_CAP} turns",
}
"""engine.eredan.state.State.reason -> why the match ended, in words."""


class Words:
    """Names for one step: the players' from the header, cards' and characters' from the
    state after the step (none: the outcome names players only)."""

    def __init__(self, header: Header, state: State | None = None) -> None:
        self.header, self.state = header, state

    def player(self, seat: int | None) -> str:
        for found in self.header.seats:
            if found.seat == seat:
                return found.player
        return "nobody" if seat is None else f"seat {seat}"

    def card(self, cid: int | None) -> str:
        """A card's or character's name; "a card" for one the perspective may not see (its id
        masked to None)."""
        known = self.state.cards if self.state is not None else {}
        card = known.get(cid) if cid is not None else None
        return card.name if card is not None else "a card"

    def cards(self, cids: tuple[int, ...] | list[int]) -> str:
        return _listed([self.card(cid) for cid in cids])

    def play(self, play: Play) -> str:
        """One card of a submission with its choices: "Fire Bolt on Lady Mei"."""
        name = self.card(play.card)
        if play.receiver is not None:
            return f"{name}, attached to {self.card(play.receiver)}"
        return f"{name} on {self.card(play.target)}" if play.target is not None else name


class EredanNarration(Narration):
    """Eredan's narration (its registration's "narration" layer)."""

    def hides_event(self, event: Any, perspective: Perspective) -> bool:
        """A deal and a shuffle are the organiser's; the initiative ticket drawn is public
        (Hidden information)."""
        return isinstance(event, (Deal, Shuffle)) and perspective != OMNISCIENT

    def event_text(self, header: Header, state: Any, event: Any,
                   perspective: Perspective) -> str:
        words = Words(header, state)
        who = words.player(event.seat)
        if isinstance(event, (PlayCards, Discard)):
            return _secret_choice(words, state, event, perspective)
        if isinstance(event, ChooseCombatants):
            return (f"{who} sends {words.card(event.attacker)} to fight "
                    f"{words.card(event.defender)}")
        if isinstance(event, Initiative):
            tickets = sum(p.tickets for p in state.players)
            return (f"{who} wins the initiative with ticket {event.ticket} of {tickets} "
                    "and plays first (ER-4.6)")
        if isinstance(event, Shuffle):
            told = f"{who}'s deck is shuffled"
            if perspective == OMNISCIENT:
                told += f"; on top: {words.cards(event.order[:SHOWN_ON_TOP])}"
            return told
        if isinstance(event, Deal):
            return f"{who}'s {len(event.labels)} deck cards are dealt their ids, face down"
        if isinstance(event, Leave):
            return f"{who} leaves the battle (ER-1.8)"
        return super().event_text(header, state, event, perspective)

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        """None for a change the step's event already tells (a shuffle, the combatants)."""
        tell = TELLERS.get(type(change))
        if tell is None:
            return super().change_text(header, state, change, perspective)
        return tell(Words(header, state), mask_change(change, perspective))

    def outcome_text(self, header: Header, outcome: Outcome | None) -> str:
        if outcome is None:
            return super().outcome_text(header, outcome)
        return result_words(Words(header), outcome.winner, outcome.reason, outcome.rule)


def result_words(words: Words, winner: int | None, reason: str, rule: str) -> str:
    """"Ada Costa wins: all three of Bea Lima's characters are defeated (ER-1.2)"."""
    loser = None if winner is None else 1 - winner
    why = REASONS.get(reason, reason.replace("_", " ")).format(
        winner=words.player(winner), loser=words.player(loser))
    who = "Draw" if winner is None else f"{words.player(winner)} wins"
    return f"{who}: {why} ({rule})"


def _secret_choice(words: Words, state: State, event: PlayCards | Discard,
                   perspective: Perspective) -> str:
    """A submission or a discard choice: in full for its seat and the organiser; to everyone
    else the same words whatever it holds, even how many cards (ER-5.15)."""
    who = words.player(event.seat)
    submission = isinstance(event, PlayCards)
    window = "cards" if submission else "discard"
    revealed = state.over or not (state.window == window and state.pending == 1 - event.seat)
    if not sees_seat(perspective, event.seat):
        told = f"{who} {'submits cards' if submission else 'chooses discards'} in secret"
    elif isinstance(event, PlayCards):
        told = (f"{who} submits {_listed([words.play(p) for p in event.plays])}"
                if event.plays else f"{who} submits no card")
    else:
        told = f"{who} discards {words.cards(event.cards)}" if event.cards \
            else f"{who} discards nothing"
    if revealed:
        told += "; both submissions are revealed" if submission else \
            "; both discard choices are revealed"
    return told


def _listed(names: list[str]) -> str:
    if len(names) <= 1:
        return names[0] if names else "nothing"
    return ", ".join(names[:-1]) + " and " + names[-1]


def _stats(attack: int, defense: int, spirit: int) -> str:
    parts = [f"{label} {value:+d}" for label, value in (
        ("Attack", attack), ("Defense", defense), ("Spirit", spirit)) if value]
    return ", ".join(parts) or "no change"


def _revealed(w: Words, c: ch.Revealed) -> str:
    """"Ada Costa plays Fire Bolt on Lady Mei"; a card with no target or receiver is told with
    its user, the seat's combatant (ER-6.1)."""
    card = w.play(Play(card=c.card, target=c.target, receiver=c.receiver))
    told = f"{w.player(c.seat)} plays {card}"
    return told if c.target is not None or c.receiver is not None \
        else f"{told} with {w.card(c.user)}"


def _tapped(w: Words, c: ch.Tapped) -> str:
    return f"{w.cards(c.characters)} {'are' if len(c.characters) > 1 else 'is'} tapped (ER-5.17)"


def _hp(w: Words, c: ch.HPChange, done: str, to_self: str) -> str:
    """An HP change from its source to a character, or a character's own."""
    if c.source == c.character:
        return f"{w.card(c.character)} {to_self}"
    return f"{w.card(c.source)} {done.format(target=w.card(c.character))}"


Teller = Callable[[Words, Any], "str | None"]
TELLERS: dict[type, Teller] = {
    ch.Dealt: lambda w, c: None,
    ch.Shuffled: lambda w, c: None,
    ch.InitiativeDrawn: lambda w, c: None,
    ch.Combatants: lambda w, c: None,
    ch.TurnStarted: lambda w, c: f"turn {c.turn} begins: {w.player(c.seat)} is active",
    ch.Untapped: lambda w, c: f"{w.player(c.seat)}'s characters all untap ({c.rule})",
    ch.DeckOut: lambda w, c: (f"{w.player(c.seat)} is {c.missing} card"
                              f"{'s' if c.missing != 1 else ''} short of a full hand: "
                              f"deck-out ({c.rule})"),
    ch.Drawn: lambda w, c: f"{w.player(c.seat)} draws {w.card(c.card)}",
    ch.TurnBonus: lambda w, c: (f"{w.card(c.character)} gets its Order's turn {c.turn} bonus: "
                                f"{_stats(c.attack, c.defense, c.spirit)}"),
    ch.Tapped: _tapped,
    ch.ToDiscard: lambda w, c: f"{w.card(c.card)} goes to {w.player(c.seat)}'s discard pile",
    ch.MatchOver: lambda w, c: "the match is over: " + result_words(w, c.winner, c.reason,
                                                                   c.rule),
    ch.Revealed: _revealed,
    ch.Pulled: lambda w, c: f"{w.card(c.source)} plays {w.card(c.card)} from "
                            f"{w.player(c.seat)}'s deck",
    ch.NothingFound: lambda w, c: f"{w.card(c.source)} finds no {c.card_type} in "
                                  f"{w.player(c.seat)}'s deck",
    ch.Activated: lambda w, c: f"{w.card(c.card)} activates",
    ch.Ignored: lambda w, c: f"{w.card(c.source)} ignores {w.card(c.card)}",
    ch.Fizzled: lambda w, c: (f"{w.card(c.card)} fizzles: {w.card(c.character)} cannot carry "
                              f"it ({c.rule})"),
    ch.Attached: lambda w, c: f"{w.card(c.card)} is attached to {w.card(c.character)}",
    ch.Detached: lambda w, c: f"{w.card(c.card)} leaves {w.card(c.character)}",
    ch.Modified: lambda w, c: (f"{w.card(c.character)}: {_stats(c.attack, c.defense, c.spirit)} "
                               f"this turn ({w.card(c.source)})"),
    ch.OrderActivated: lambda w, c: f"{w.card(c.source)} activates {w.card(c.character)}'s Order",
    ch.FuryActivated: lambda w, c: f"{w.card(c.source)} sets off {w.card(c.character)}'s Fury",
    ch.RunePlaced: lambda w, c: (f"{w.card(c.character)} gets a {c.rune.capitalize()} rune "
                                 f"({w.card(c.source)})"),
    ch.RuneConsumed: lambda w, c: f"{w.card(c.character)} uses up a {c.rune.capitalize()} rune",
    ch.Returned: lambda w, c: (f"{w.card(c.source)} returns {w.card(c.character)} to play with "
                               f"{c.hp} HP"),
    ch.Defeated: lambda w, c: f"{w.card(c.character)} is defeated",
    ch.PendingDamage: lambda w, c: _hp(w, c, f"will deal {c.hp} magic damage to {{target}}",
                                       f"will take {c.hp} magic damage"),
    ch.PendingLoss: lambda w, c: _hp(w, c, f"will make {{target}} lose {c.hp} HP",
                                     f"will lose {c.hp} HP"),
    ch.PendingHeal: lambda w, c: _hp(w, c, f"will heal {{target}} for {c.hp} HP",
                                     f"will heal {c.hp} HP"),
    ch.PhysicalDamage: lambda w, c: _hp(w, c, f"deals {c.hp} damage to {{target}}",
                                        f"takes {c.hp} damage"),
    ch.MagicDamage: lambda w, c: _hp(w, c, f"deals {c.hp} magic damage to {{target}}",
                                     f"takes {c.hp} magic damage"),
    ch.LostHP: lambda w, c: _hp(w, c, f"makes {{target}} lose {c.hp} HP", f"loses {c.hp} HP"),
    ch.Healed: lambda w, c: _hp(w, c, f"heals {{target}} for {c.hp} HP", f"heals {c.hp} HP"),
}
"""Each change kind in words, from the change as the perspective may see it."""

NARRATION = EredanNarration()
