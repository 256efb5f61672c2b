"""The Eredan iTCG rulesets: event dispatch by window, chance outcomes, outcome, and the glue to
legal moves and views.

"eredan@1" gives a deck card the id of its place in the expanded deck list; "eredan@2" deals
the ids at random first (events.eredan.Deal), so a revealed id tells nothing of the list. Both
play alike from the shuffles on, and @1 reads and verifies the logs written under it as it
always has.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.eredan import flow
from engine.eredan.changes import Dealt, InitiativeDrawn, Shuffled
from engine.eredan.charges import ChargeProvider, ChargeTable
from engine.eredan.combat import end_match
from engine.eredan.determinize import EredanSight, observe
from engine.eredan.legal import legal_events
from engine.eredan.plays import check_plays
from engine.eredan.setup import deal, deal_ids, initial_state
from engine.eredan.state import HAND_SIZE, State
from engine.eredan.stats import hand_target
from engine.eredan.view import view_of
from engine.ruleset import DEAL_RULE, Change, PendingSeatRules, Perspective, RuleViolation
from events.base import Header
from events.eredan import (
    ChooseCombatants,
    Deal,
    Discard,
    Event,
    Initiative,
    Leave,
    PlayCards,
    Shuffle,
)

Changes = list[Change]
Handler = Callable[[State, Any, Changes], None]
LATEST = 2
"""The version new matches are played under (data/eredan/game.toml lists it last)."""


class EredanRules(PendingSeatRules):
    """Eredan iTCG. `charge_tables` gives the charge table in force when a match starts
    (ER-3.6); without one the 500-charge cap is not checked (see engine.eredan.charges).
    `version` 2 (the default, what new matches are played under) deals the deck cards' ids at
    random; 1 is the ruleset of the logs written before it."""

    name = "eredan"
    game = "eredan"
    version = LATEST
    event_type = Event

    def __init__(self, charge_tables: ChargeProvider | None = None, *,
                 version: int = LATEST) -> None:
        if version not in (1, 2):
            raise ValueError(f"Eredan has rulesets eredan@1 and eredan@2, not {version}")
        self.charge_tables = charge_tables
        self.version = version

    def setup(self, header: Header, charges: ChargeTable | None = None) -> State:
        if charges is None and self.charge_tables is not None:
            charges = self.charge_tables(header)
        return initial_state(header, charges, deal=self.version >= 2)

    def legal(self, state: State, actor: int | None = None) -> list[Any]:
        """The decisions the awaited seat may log now (only one seat is ever awaited, so
        `actor` names it or nobody: another seat has none)."""
        if actor is not None and actor != state.pending:
            return []
        return legal_events(state)

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        seat, what = state.chance[0]
        if what == "deal":
            labels = deal_ids(state, seat)
            rng.shuffle(labels)
            return Deal(seat=seat, labels=tuple(labels))
        if what == "initiative":
            ticket = rng.randrange(sum(p.tickets for p in state.players))
            return Initiative(seat=ticket_owner(state, ticket), ticket=ticket)
        cards = list(state.players[seat].deck)
        rng.shuffle(cards)
        return Shuffle(seat=seat, order=tuple(cards))

    def apply(self, state: State, event: Any) -> Changes:
        out: Changes = []
        if state.over:
            raise RuleViolation("ER-1.9", "the match is over; no further events")
        kind = type(event)
        handler = HANDLERS.get(kind)
        if handler is not None:
            _decision(state, event, handler, out)
        elif kind is Leave:
            if event.seat not in (0, 1):
                raise RuleViolation("ER-1.8", f"seat {event.seat} does not exist")
            end_match(state, 1 - event.seat, "left", "ER-1.8", out)
        elif kind is Shuffle or kind is Initiative or kind is Deal:
            _chance(state, event, out)
        else:
            raise RuleViolation("ER-1.1", f"{kind.__name__} is not an Eredan event")
        state.steps += 1
        return out

    def view(self, state: State, perspective: Perspective) -> dict[str, Any]:
        return view_of(state, perspective)

    def observe(self, state: State, seat: int) -> EredanSight:
        """What a bot of `seat` decides from (engine/bots.py): its seat's observation."""
        return observe(state, seat)


def ticket_owner(state: State, ticket: int) -> int:
    """Tickets are numbered seat 0's first, then seat 1's (ER-4.5)."""
    return 0 if ticket < state.players[0].tickets else 1


def _chance(state: State, event: Shuffle | Initiative | Deal, out: Changes) -> None:
    if not state.chance:
        raise RuleViolation("ER-4.2", "no chance outcome is expected now")
    seat, what = state.chance[0]
    if isinstance(event, Initiative):
        _initiative(state, event, what, out)
        return
    if isinstance(event, Deal):
        _deal(state, event, seat, what, out)
        return
    if what != "deck" or event.seat != seat:
        raise RuleViolation("ER-4.2", f"expected {_expected(what, seat)}")
    deck = state.players[seat].deck
    if sorted(event.order) != sorted(deck):
        raise RuleViolation("ER-4.2", f"the shuffle must be a permutation of seat {seat}'s deck "
                                      f"({len(deck)} cards)")
    deck[:] = event.order
    state.chance.pop(0)
    out.append(Shuffled(seat=seat, deck_size=len(deck)))
    if not state.chance:
        flow.deal_opening(state, out)


def _expected(what: str, seat: int) -> str:
    """The chance outcome awaited, in words."""
    if what == "deal":
        return f"the deal of seat {seat}'s card ids"
    return f"the shuffle of seat {seat}" if what == "deck" else "the initiative draw"


def _deal(state: State, event: Deal, seat: int, what: str, out: Changes) -> None:
    """eredan@2: a bijection of the deck list's cards onto the seat's ids, before the shuffles."""
    if what != "deal" or event.seat != seat:
        why = (f"expected {_expected(what, seat)}" if state.deck_lists
               else "eredan@1 deals no card ids: a deck card's id is its place in the list")
        raise RuleViolation(DEAL_RULE, why)
    ids = deal_ids(state, seat)
    if sorted(event.labels) != ids:
        raise RuleViolation(DEAL_RULE, f"the deal must give each of seat {seat}'s {len(ids)} "
                                       f"deck cards one of the ids {ids[0]}-{ids[-1]}, once")
    deal(state, seat, event.labels)
    state.chance.pop(0)
    out.append(Dealt(seat=seat, deck_size=len(ids)))


def _initiative(state: State, event: Initiative, what: str, out: Changes) -> None:
    """The drawn ticket's owner is Player 1, active on turn 1 (ER-4.6)."""
    if what != "initiative":
        raise RuleViolation("ER-4.6", "the initiative draw comes after both shuffles (ER-4.2)")
    total = sum(p.tickets for p in state.players)
    if not 0 <= event.ticket < total or ticket_owner(state, event.ticket) != event.seat:
        raise RuleViolation("ER-4.6", f"ticket {event.ticket} is not seat {event.seat}'s "
                                      f"(tickets 0-{state.players[0].tickets - 1} are seat 0's, "
                                      f"up to {total - 1} seat 1's)")
    state.chance.pop(0)
    state.ticket = event.ticket
    state.first = event.seat
    out.append(InitiativeDrawn(seat=event.seat, ticket=event.ticket))
    flow.start_turn(state, out)


WINDOWS: dict[type, tuple[str, str]] = {
    ChooseCombatants: ("choose", "ER-5.8"),
    PlayCards: ("cards", "ER-5.12"),
    Discard: ("discard", "ER-5.18"),
}


def _decision(state: State, event: Any, handler: Handler, out: Changes) -> None:
    window, rule = WINDOWS[type(event)]
    if state.chance:
        raise RuleViolation("ER-4.2", "a chance outcome (shuffle or initiative) comes first")
    if state.window != window:
        raise RuleViolation(rule, f"{type(event).__name__} is not allowed now ({state.window})")
    if event.seat != state.pending:
        raise RuleViolation(rule, f"seat {event.seat} has no decision now; seat "
                                  f"{state.pending} is to act ({state.window})")
    handler(state, event, out)


def _choose(state: State, ev: ChooseCombatants, out: Changes) -> None:
    fighters = state.fighters
    mine, theirs = fighters.get(ev.attacker), fighters.get(ev.defender)
    if mine is None or theirs is None or mine.owner != ev.seat or theirs.owner == ev.seat:
        raise RuleViolation("ER-5.8", "choose one of your characters and one opposing character")
    for fighter in (mine, theirs):
        if fighter.defeated or fighter.tapped:
            raise RuleViolation("ER-5.9", f"{fighter.card.name} is "
                                          f"{'defeated' if fighter.defeated else 'tapped'}")
    flow.choose(state, ev.attacker, ev.defender, out)


def _play(state: State, ev: PlayCards, out: Changes) -> None:
    check_plays(state, ev.seat, ev.plays)
    state.players[ev.seat].submission = ev.plays
    flow.after_submission(state, ev.seat, out)


def _discard(state: State, ev: Discard, out: Changes) -> None:
    hand = state.players[ev.seat].hand
    if len(set(ev.cards)) != len(ev.cards) or not set(ev.cards) <= set(hand):
        raise RuleViolation("ER-5.18", "discard cards from your hand, each once")
    keep = len(hand) - len(ev.cards)
    if keep > HAND_SIZE and keep > (limit := hand_target(state, ev.seat)):
        raise RuleViolation("ER-5.19", f"a hand of {len(hand)} must come down to {limit}: "
                                       f"discard at least {len(hand) - limit}")
    state.players[ev.seat].discarding = ev.cards
    flow.after_discard(state, ev.seat, out)


HANDLERS: dict[type, Handler] = {
    ChooseCombatants: _choose, PlayCards: _play, Discard: _discard,
}

RULES = EredanRules(version=1)
"""eredan@1: the logs written before eredan@2, and the rules the tests' scenarios set up (the
versions differ only before the shuffles, so the bot's lookahead applies either's events)."""
RULES_V2 = EredanRules(version=2)
RULESETS = (RULES, RULES_V2)
"""The game's "ruleset" layer: every version, oldest first (engine.ruleset._rulesets_of)."""
