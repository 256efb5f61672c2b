"""Vitorian Wars in words: how the narration (engine.vitorian.narrate) names players, cards,
cells and payments, and what it says of each change (engine.vitorian.changes).

Names, never ids: a card by its name (from the state right after the step, which keeps every
instance id it ever had, destroyed or not), a resource by its letter as the spec writes it (P,
S), a cell as "row 2, column 3" in the first player's frame (VW-2.3). A change arrives already
masked for its perspective (engine.narration.mask_change): a secret it may not see is None here,
and only its count is told.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.ruleset import OMNISCIENT, Change, Perspective
from engine.vitorian import changes as ch
from engine.vitorian.state import State
from events.base import Header

ZONES = {"maneuver": "Maneuver Deck", "convoy": "Supply Convoy"}
ABILITIES = {"forced_march": "Forced March", "motor_overload": "Motor Overload",
             "evasive_maneuvers": "Evasive Maneuvers", "aerial_recon": "Aerial Recon",
             "shield": "a Shield marker", "circular_logistics": "Circular Logistics"}
UNTIL = {"combat": " until end of combat", "turn": " until end of turn", "permanent": ""}


@dataclass(frozen=True, slots=True)
class Words:
    """What phrasing a step needs: the players' names, the state after the step, and who is
    told (whose secrets may be named)."""

    header: Header
    state: State
    perspective: Perspective

    def who(self, seat: int | None) -> str:
        for each in self.header.seats:
            if each.seat == seat:
                return each.player
        return "nobody" if seat is None else f"seat {seat}"

    def whose(self, seat: int | None) -> str:
        return f"{self.who(seat)}'s"

    def sovereign(self, seat: int) -> str:
        return self.state.players[seat].sovereign.name

    def sees(self, seat: int | None) -> bool:
        """Whether the perspective may know what only `seat` knows."""
        return self.perspective == OMNISCIENT or self.perspective == seat

    def card(self, cid: int | None) -> str:
        card = self.state.cards.get(cid) if cid is not None else None
        return card.name if card is not None else "a card"

    def cards(self, ids: Iterable[int]) -> str:
        return ", ".join(self.card(cid) for cid in ids)

    def letters(self, ids: Iterable[int]) -> str:
        """Resources as their letters, "P P S" (a Convoy card is its resource type)."""
        return " ".join(self.state.resource_kind(rid) for rid in ids)

    def paying(self, ids: Iterable[int]) -> str:
        paid = self.letters(ids)
        return f", paying {paid}" if paid else ""


def cell(at: Iterable[int]) -> str:
    row, col = at
    return f"row {row}, column {col}"


def a(letter: str) -> str:
    """"a P", "an S": the article a resource letter takes read aloud."""
    return f"an {letter}" if letter == "S" else f"a {letter}"


def count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def keyword(word: str) -> str:
    return word.replace("_", " ").title()


def reason_words(who: Callable[[int | None], str], sovereign: Callable[[int], str],
                 winner: int | None, reason: str) -> str:
    """Why a match ended, told from the loser's side where there is one."""
    loser = 1 - winner if winner in (0, 1) else None
    if reason == "sovereign_fell" and loser is not None:
        return f"{who(loser)}'s Sovereign {sovereign(loser)} fell"
    return {
        "deck_out": f"{who(loser)} had to draw from an empty Maneuver Deck",
        "concede": f"{who(loser)} conceded",
        "turn_cap": "no one had won by the end of turn 60",
        "both_lose": "both players lost at the same moment",
    }.get(reason, reason.replace("_", " "))


# Changes ------------------------------------------------------------------------------------

ChangeWords = Callable[[Words, Any], str | None]


def _drew(w: Words, c: ch.Drew) -> str:
    if c.name is None:
        return f"{w.who(c.seat)} draws a card"
    return f"{w.who(c.seat)} draws {c.name}"


def _aerial_recon(w: Words, c: ch.AerialRecon) -> str:
    if c.top is None or c.bottom is None:
        top, bottom = count(c.on_top, "card"), count(c.on_bottom, "card")
    else:
        top, bottom = w.letters(c.top), w.letters(c.bottom)
    where = " and ".join(f"{cards} {place}" for cards, n, place in (
        (top, c.on_top, "on top"), (bottom, c.on_bottom, "on the bottom")) if n) or "nothing"
    return f"{w.who(c.seat)} puts {where} of the Supply Convoy (Aerial Recon)"


def _moved(w: Words, c: ch.Moved) -> str:
    how = {"move": "", "ganking": " (Ganking)"}.get(c.via, f" ({ABILITIES.get(c.via, c.via)})")
    return f"{c.name} moves from {cell(c.origin)} to {cell(c.to)}{how}"


def _modified(w: Words, c: ch.Modified) -> str:
    gains = [f"{c.attack:+d}/{c.defense:+d}"] if c.attack or c.defense else []
    gains += [keyword(k) for k in c.keywords]
    return f"{c.name} gets {' and '.join(gains) or 'nothing'}{UNTIL[c.until]} ({c.source})"


def _hit(w: Words, c: ch.SovereignHit) -> str:
    return (f"{w.whose(c.seat)} Sovereign is hit: {count(c.defense_lost, 'Defense card')} "
            f"removed, {c.defense_left} left")


def _to_convoy(w: Words, c: ch.ToConvoy) -> str:
    return f"{w.who(c.seat)} puts {w.letters(c.resources)} on the {c.place} of the Supply Convoy"


def _recycled(w: Words, c: ch.Recycled) -> str:
    return f"{w.who(c.seat)} recycles {a(c.resource)} to the bottom of the Supply Convoy"


def _attack(w: Words, c: ch.AttackDeclared) -> str:
    target = c.target_name if c.target is not None else f"the Sovereign {c.target_name}"
    return f"{c.name} attacks {target}"


def _damage(w: Words, c: ch.CombatValues) -> str:
    return (f"{c.attacker_name} at {c.attack}/{c.defense} against {c.target_name} at "
            f"{c.target_attack}/{c.target_defense}")


def _match_over(w: Words, c: ch.MatchOver) -> str:
    result = "a draw" if c.seat is None else f"{w.who(c.seat)} wins"
    why = reason_words(w.who, w.sovereign, c.seat, c.reason)
    return f"The match is over, {result}: {why} ({c.rule})"


CHANGE_WORDS: dict[type, ChangeWords] = {
    ch.Dealt: lambda w, c: None,  # its event says it all
    ch.FirstPlayerChosen: lambda w, c: f"{w.who(c.seat)} plays first",
    ch.Shuffled: lambda w, c: (f"{w.whose(c.seat)} {ZONES[c.zone]} "
                               f"({count(c.cards, 'card')}) is shuffled"),
    ch.MulliganTaken: lambda w, c: (f"{w.who(c.seat)} has taken "
                                    f"{count(c.mulligans, 'mulligan')}"),
    ch.HandKept: lambda w, c: (f"{w.who(c.seat)} keeps {count(c.hand, 'card')}"
                               + (f" ({c.bottomed} bottomed)" if c.bottomed else "")),
    ch.TurnBegan: lambda w, c: f"Turn {c.turn} begins: {w.whose(c.seat)} turn",
    ch.PhaseBegan: lambda w, c: None,  # a marker: the events around it say the phase
    ch.TurnSkipped: lambda w, c: (f"{w.whose(c.seat)} turn is skipped, lost to the Burn-out "
                                  "(VW-6.27)"),
    ch.BurnOut: lambda w, c: (f"{w.who(c.seat)} burns out: {count(c.reshuffled, 'resource')} "
                              "shuffled into a new Supply Convoy, next turn lost (VW-6.26)"),
    ch.MatchOver: _match_over,
    ch.Drew: _drew,
    ch.Channeled: lambda w, c: f"{w.who(c.seat)} channels {a(c.resource)}",
    ch.ToConvoy: _to_convoy,
    ch.ShieldUsed: lambda w, c: (f"{c.name}'s Shield marker is removed instead of the unit "
                                 "(VW-8.9)"),
    ch.Destroyed: lambda w, c: f"{w.whose(c.seat)} {c.name} is destroyed at {cell(c.cell)}",
    ch.SovereignHit: _hit,
    ch.SovereignFell: lambda w, c: f"{w.whose(c.seat)} Sovereign {c.sovereign} falls",
    ch.Mobilized: lambda w, c: f"{c.name} enters the battlefield at {cell(c.cell)}",
    ch.Moved: _moved,
    ch.Linked: lambda w, c: f"{c.name} is linked to {c.unit_name}",
    ch.FieldConditionPlayed: lambda w, c: (f"{c.name} is in {w.whose(c.seat)} Command "
                                           "Area"),
    ch.OrderPlayed: lambda w, c: f"{c.name} goes on the stack",
    ch.OrderFizzled: lambda w, c: (f"{c.name} does nothing: its target is no longer legal "
                                   "(VW-9.14)"),
    ch.Modified: _modified,
    ch.Readied: lambda w, c: f"{c.name} is readied",
    ch.Recycled: _recycled,
    ch.AerialRecon: _aerial_recon,
    ch.ShieldGranted: lambda w, c: f"{c.name} gets a Shield marker",
    ch.CircularLogistics: lambda w, c: (f"until end of turn {w.whose(c.seat)} printed costs "
                                        "go to the top of the Supply Convoy (VW-8.10)"),
    ch.AttackDeclared: _attack,
    ch.Barraged: lambda w, c: f"{c.name} adds {c.attack} Attack by Support Barrage",
    ch.CombatValues: _damage,
    ch.CombatVoid: lambda w, c: ("the combat ends with no damage: a combatant left the "
                                 "battlefield (VW-9.10)"),
    ch.Entrenched: lambda w, c: (f"{w.whose(c.seat)} Entrench unit keeps the Sovereign from "
                                 "being hit (VW-9.27)"),
}


def change_words(words: Words, change: Change) -> str | None:
    """The (masked) change in words; None: not worth listing."""
    say = CHANGE_WORDS.get(type(change))
    if say is None:
        raise TypeError(f"no words for the Vitorian change {type(change).__name__}")
    return say(words, change)
