"""Eredan iTCG facts: one replayed log -> matches, seats, deck_cards and card_events rows.

Card events come from the engine's derived changes (engine/eredan/*), never re-derived here:
"draw" (before turn 1: the opening hand, ER-4.3; from turn 1: drawn), "revealed" / "pulled"
(played in Phase 2; target: the character it went on), "defeated" (destroyed, seat = owner) and
"physical" / "magic" (a hit: one row per card that dealt damage in the event, amount = the HP it
really removed, read from the engine's per-card damage statistic, ER-7.13; "loses X HP" is not
damage, ER-7.7). Events name card instances (seat * 100 + 0..49, 91-93 for characters); the
lake names catalog cards.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from engine.eredan.cards import Character, load_catalog
from engine.eredan.changes import (
    Combatants,
    Defeated,
    Drawn,
    MagicDamage,
    PhysicalDamage,
    Pulled,
    Revealed,
    TurnStarted,
)
from engine.eredan.deckcheck import SECTIONS, deck_guilds, resolve
from engine.eredan.state import State, owner_of
from engine.ruleset import Change, Outcome, Ruleset
from events.base import DeckList, Header
from pipeline.facts import DeckLines, FactVisitor, LogMeta, deck_lines

MERCENARIES = "Mercenaries"
DeckFacts = tuple[str, str, str, DeckLines]
"""(deck_id, faction, leader, deck lines)."""
DAMAGE = (PhysicalDamage, MagicDamage)


@lru_cache(maxsize=1024)
def deck_facts(encoded: bytes) -> DeckFacts:
    """The deck's id, guild, leader and card lines, computed once per list.

    deck_id hashes the resolved list (catalog ids, sections, copies; not its name, nor the order
    of its lines). faction: the guild(s) of the non-Mercenary characters, "+"-joined, or
    "Mercenaries"; leader: the three character ids sorted and "+"-joined."""
    catalog = load_catalog()
    deck = resolve(msgspec.msgpack.decode(encoded, type=DeckList), catalog)
    deck_id, lines = deck_lines(deck, SECTIONS, lambda card: catalog.by_id[card].name)
    characters = [card for entry in deck.section("characters")
                  if isinstance(card := catalog.by_id[entry.card], Character)]
    faction = "+".join(sorted(deck_guilds(characters))) or MERCENARIES
    leader = "+".join(sorted(c.id for c in characters))
    return deck_id, faction, leader, lines


class EredanFacts(FactVisitor):
    """Replay visitor collecting the rows of one Eredan match (begin, step..., end)."""

    def __init__(self, header: Header, ruleset: Ruleset, meta: LogMeta) -> None:
        super().__init__(header, ruleset, meta)
        self.combatants: tuple[int, int] | None = None
        self.dealt: dict[int, int] = {}
        """Damage per card instance so far (the engine's "damage" statistic)."""
        self.decks: dict[int, DeckFacts] = {}

    def begin(self, header: Header, state: State) -> None:
        for seat in header.seats:
            facts = deck_facts(msgspec.msgpack.encode(seat.setup))
            self.decks[seat.seat] = facts
            self.deck_rows(seat.seat, facts[0], facts[3])

    def step(self, seq: int, event: Any, changes: list[Change], state: State) -> None:
        self.events = seq
        damaged = False
        for change in changes:
            if isinstance(change, TurnStarted):
                self.turn = change.turn
            elif isinstance(change, Drawn):
                assert change.card is not None
                self.card_event(seq, change.seat, state.cards[change.card].id,
                                "drawn" if self.turn >= 1 else "opening_hand")
            elif isinstance(change, Combatants):
                self.combatants = (change.attacker, change.defender)
            elif isinstance(change, (Revealed, Pulled)):
                self._played(seq, event, change, state)
            elif isinstance(change, Defeated):
                self.card_event(seq, change.seat, state.cards[change.character].id, "destroyed")
            elif isinstance(change, DAMAGE) and change.hp:
                damaged = True
        if damaged:
            self._hits(seq, changes, state)

    def end(self, state: State, outcome: Outcome | None) -> None:
        """matches and seats (setup_id: the deck_id), then decks: faction is the deck's guild,
        leader its three characters."""
        self.finish(outcome, state.first, state.turn,
                    {seat: facts[0] for seat, facts in self.decks.items()})
        for seat in self.header.seats:
            deck_id, faction, leader, _ = self.decks[seat.seat]
            self.deck_row(seat.seat, deck_id, seat.setup.name, faction, leader)

    def _played(self, seq: int, event: Any, change: Revealed | Pulled, state: State) -> None:
        """Target: the character it went on: an Artisan's receiver, else the chosen target,
        else the seat's combatant, who plays it (ER-5.12); a pulled card has the same user."""
        assert change.seat is not None
        aim: int | None = None
        if isinstance(change, Revealed):  # both seats' submissions are revealed together
            aim = change.receiver if change.receiver is not None else change.target
        if aim is None and self.combatants is not None:
            attacker, defender = self.combatants
            aim = attacker if owner_of(attacker) == change.seat else defender
        target = state.cards[aim].id if aim is not None and aim in state.cards else None
        self.card_event(seq, change.seat, state.cards[change.card].id, "played", target)

    def _hits(self, seq: int, changes: list[Change], state: State) -> None:
        """One hit per card whose damage statistic grew in this event. Target: for a
        combatant's attack the opposing combatant; otherwise the one character its seat's
        magic damage hit in this event, if only one was."""
        grown: list[tuple[int, int]] = []
        for (cid, stat), total in state.stats.items():
            if stat == "damage" and total != self.dealt.get(cid, 0):
                grown.append((cid, total - self.dealt.get(cid, 0)))
                self.dealt[cid] = total
        magic: dict[int, set[int]] = {}
        for change in changes:
            if isinstance(change, MagicDamage) and change.hp and change.seat is not None:
                magic.setdefault(change.seat, set()).add(change.character)
        for cid, amount in sorted(grown):
            seat = owner_of(cid)
            aim: int | None = None
            if self.combatants is not None and cid in self.combatants:
                attacker, defender = self.combatants
                aim = defender if cid == attacker else attacker
            elif len(magic.get(seat, ())) == 1:
                aim = next(iter(magic[seat]))
            target = state.cards[aim].id if aim is not None else None
            self.card_event(seq, seat, state.cards[cid].id, "hit", target, amount)
