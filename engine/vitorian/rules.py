"""The Vitorian Wars rulesets: event dispatch by window, chance outcomes, outcome, and the glue
to legal moves and views.

Two versions read logs: "vitorian@1" names cards by their place in the deck list (seat * 100 +
slot), "vitorian@2" deals every card a random id first (engine:deal, engine.vitorian.setup),
so an id seen in play says nothing about the list. They differ only in that deal; new matches are
played with the newest.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.ruleset import DEAL_RULE, Change, PendingSeatRules, Perspective, RuleViolation
from engine.vitorian import combat, flow, main_phase, orders, recycle, zones
from engine.vitorian.changes import (
    Dealt,
    FirstPlayerChosen,
    HandKept,
    MulliganTaken,
    PhaseBegan,
    Shuffled,
)
from engine.vitorian.determinize import VitorianSight, observe
from engine.vitorian.legal import legal_events
from engine.vitorian.setup import deal, initial_state, labels_of
from engine.vitorian.state import State
from engine.vitorian.view import view_of
from engine.vitorian.zones import require
from events.base import Header
from events.vitorian import (
    Barrage,
    Concede,
    Deal,
    DeclareAttack,
    EndPhase,
    Event,
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

Changes = list[Change]
Handler = Callable[[State, Any, Changes], None]
Chance = FirstPlayer | Shuffle | Deal

# Each decision: the windows that accept it, the rule naming where it belongs, its handler.
WINDOWS: dict[type, tuple[tuple[str, ...], str]] = {
    Mulligan: (("mulligan",), "VW-4.6"),
    KeepHand: (("mulligan",), "VW-4.7"),
    PayUpkeep: (("upkeep",), "VW-6.9"),
    Recycle: (recycle.RECYCLE_WINDOWS, "VW-6.20"),
    Mobilize: (("main",), "VW-7.1"),
    Move: (("main",), "VW-7.1"),
    LinkEquipment: (("main",), "VW-7.15"),
    PlayFieldCondition: (("main",), "VW-7.13"),
    EndPhase: (("main", "combat"), "VW-5.8"),
    DeclareAttack: (("combat",), "VW-5.5"),
    PlayOrder: (("orders",), "VW-9.12"),
    Gank: (("gank",), "VW-9.15"),
    Barrage: (("barrage",), "VW-9.16"),
    PassPriority: (("channel", "orders", "gank", "barrage"), "VW-9.14"),
}
COMBAT_STEPS = ("orders", "gank", "barrage")
"""The windows of a combat under way (VW-9.11 to 9.17)."""
OUT_OF_TURN = {"orders": "VW-9.11", "gank": "VW-9.15", "barrage": "VW-9.17"}
"""Who decides in a combat step, when the other seat tries: the step's own order of play."""
OUT_OF_STEP = {DeclareAttack: "VW-9.2"}
"""An event refused because a combat is under way: declarations wait for its end (VW-9.2)."""


class VitorianRules(PendingSeatRules):
    name = "vitorian"
    game = "vitorian"
    event_type = Event

    def __init__(self, version: int) -> None:
        self.version = version
        self.deals = version >= 2
        """Whether setup first awaits a Deal of random ids per seat (engine:deal)."""

    def setup(self, header: Header) -> State:
        return initial_state(header, deal=self.deals)

    def legal(self, state: State, actor: int | None = None) -> list[Any]:
        """The decisions the awaited seat may log now (only one seat is ever awaited, so
        `actor` names it or nobody: another seat has none)."""
        if actor is not None and actor != state.pending:
            return []
        return legal_events(state)

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        seat, zone = state.chance[0]
        if zone == "first":
            return FirstPlayer(seat=rng.randrange(2))
        if zone == "deal":
            labels = labels_of(seat, len(state.players[seat].undealt))
            rng.shuffle(labels)
            return Deal(seat=seat, labels=tuple(labels))
        cards = list(_zone(state, seat, zone))
        rng.shuffle(cards)
        return Shuffle(seat=seat, zone=zone, order=tuple(cards))  # type: ignore[arg-type]

    def apply(self, state: State, event: Any) -> Changes:
        out: Changes = []
        if state.over:
            raise RuleViolation("VW-12.1", "the match is over; no further events")
        kind = type(event)
        if kind in HANDLERS:
            _decision(state, event, out)
        elif kind is Concede:
            require(not state.chance, "VW-12.4", "a concession waits for the chance outcome")
            require(event.seat in (0, 1), "VW-1.1", f"seat {event.seat} does not exist")
            zones.lose(state, event.seat, "concede", "VW-12.4", out)
        elif kind is Deal and not self.deals:
            raise RuleViolation(DEAL_RULE, f"{self.name}@{self.version} deals no ids: a Deal "
                                           "belongs to vitorian@2 and later logs")
        elif kind in CHANCE:
            require(bool(state.chance), "VW-4.2", "no chance outcome is expected now")
            CHANCE[kind](state, event, out)
        else:
            raise RuleViolation("VW-1.1", f"{kind.__name__} is not a Vitorian Wars event")
        state.steps += 1
        return out

    def view(self, state: State, perspective: Perspective) -> dict[str, Any]:
        return view_of(state, perspective)

    def observe(self, state: State, seat: int) -> VitorianSight:
        """What a bot of `seat` decides from (engine/bots.py): its seat's observation."""
        return observe(state, seat)


def _zone(state: State, seat: int, zone: str) -> list[int]:
    player = state.players[seat]
    return player.deck if zone == "maneuver" else player.convoy


def _awaited(rule: str, zone: str) -> str:
    """The rule a refused chance outcome breaks: the awaited one's (the deal's is engine:deal)."""
    return DEAL_RULE if zone == "deal" else rule


def _expected(seat: int, zone: str) -> str:
    """The chance outcome awaited, in words, for refusals."""
    if zone == "first":
        return "the first-player draw"
    if zone == "deal":
        return f"the deal of seat {seat}'s ids"
    return f"the shuffle of seat {seat}'s {zone}"


def _deal(state: State, event: Deal, out: Changes) -> None:
    """engine:deal: the seat's cards get their ids, a permutation of its label set."""
    seat, zone = state.chance[0]
    if zone != "deal" or event.seat != seat:
        raise RuleViolation(DEAL_RULE, f"expected {_expected(seat, zone)}")
    count = len(state.players[seat].undealt)
    if sorted(event.labels) != labels_of(seat, count):
        raise RuleViolation(DEAL_RULE, f"the deal must give seat {seat}'s {count} cards the ids "
                                       f"{seat * 100} to {seat * 100 + count - 1}, each once")
    deal(state, seat, event.labels)
    state.chance.pop(0)
    out.append(Dealt(seat=seat, cards=count))


def _first_player(state: State, event: FirstPlayer, out: Changes) -> None:
    seat, zone = state.chance[0]
    if zone != "first":
        raise RuleViolation(_awaited("VW-4.2", zone), f"expected {_expected(seat, zone)}")
    require(event.seat in (0, 1), "VW-4.1", "the first player is seat 0 or 1")
    state.first = state.active = event.seat
    state.chance = [(s, z) for s in (0, 1) for z in ("maneuver", "convoy")]
    out.append(FirstPlayerChosen(seat=event.seat))


def _shuffle(state: State, event: Shuffle, out: Changes) -> None:
    seat, zone = state.chance[0]
    if (event.seat, event.zone) != (seat, zone):
        raise RuleViolation(_awaited("VW-4.2", zone), f"expected {_expected(seat, zone)}")
    cards = _zone(state, seat, zone)
    if sorted(event.order) != sorted(cards):
        raise RuleViolation("VW-4.2", f"the shuffle order must be a permutation of seat {seat}'s "
                                      f"{zone} ({len(cards)} cards)")
    cards[:] = event.order
    state.chance.pop(0)
    out.append(Shuffled(seat=seat, zone=event.zone, cards=len(cards)))
    if not state.chance:
        RESUME[state.window](state, seat, out)


CHANCE: dict[type, Handler] = {Deal: _deal, FirstPlayer: _first_player, Shuffle: _shuffle}


def _resume_mulligan(state: State, seat: int, out: Changes) -> None:
    zones.draw(state, seat, flow.OPENING_HAND, out)
    state.window, state.pending = "mulligan", seat


RESUME: dict[str, Callable[[State, int, Changes], None]] = {
    "setup": lambda state, seat, out: flow.deal_opening(state, out),
    "mulligan_shuffle": _resume_mulligan,
    "burnout": lambda state, seat, out: flow.after_channel(state, out),
}


def _decision(state: State, event: Any, out: Changes) -> None:
    if state.chance:
        raise RuleViolation("VW-4.2", "a chance outcome (shuffle) must come first")
    kind = type(event)
    windows, rule = WINDOWS[kind]
    if state.window in COMBAT_STEPS and kind in OUT_OF_STEP:
        raise RuleViolation(OUT_OF_STEP[kind], f"{kind.__name__} is not allowed while a combat "
                                               f"is under way ({state.window})")
    if event.seat != state.pending:
        raise RuleViolation(OUT_OF_TURN.get(state.window, rule),
                            f"seat {event.seat} has no decision now; seat {state.pending} is "
                            f"to act ({state.window})")
    if state.window not in windows:
        raise RuleViolation(rule, f"{kind.__name__} is not allowed during {state.window}")
    HANDLERS[kind](state, event, out)


def _mulligan(state: State, ev: Mulligan, out: Changes) -> None:
    player = state.players[ev.seat]
    require(player.mulligans < 6, "VW-4.8", "at most 6 mulligans; the hand must be kept")
    player.mulligans += 1
    player.deck.extend(player.hand)
    player.hand.clear()
    out.append(MulliganTaken(seat=ev.seat, mulligans=player.mulligans))
    state.window, state.chance = "mulligan_shuffle", [(ev.seat, "maneuver")]


def _keep(state: State, ev: KeepHand, out: Changes) -> None:
    player = state.players[ev.seat]
    require(len(ev.bottom) == player.mulligans, "VW-4.7",
            f"bottom exactly {player.mulligans} card(s), one per mulligan")
    require(len(set(ev.bottom)) == len(ev.bottom) and set(ev.bottom) <= set(player.hand),
            "VW-4.7", "the bottomed cards must come from your hand")
    for cid in ev.bottom:
        player.hand.remove(cid)
    player.deck.extend(ev.bottom)
    player.bottomed = list(ev.bottom)
    player.kept = True
    out.append(HandKept(seat=ev.seat, hand=len(player.hand), bottomed=len(ev.bottom)))
    flow.after_keep(state, ev.seat, out)


def _upkeep(state: State, ev: PayUpkeep, out: Changes) -> None:
    """Pay 1 [S] per Elite or lose it; Shields do not help (VW-6.9 to VW-6.11)."""
    elites = {u.id for u in state.units_of(ev.seat) if u.card.is_elite}
    units = [u for u, _ in ev.payments]
    resources = tuple(r for _, r in ev.payments)
    require(set(units) <= elites and len(set(units)) == len(units), "VW-6.9",
            "pay once for each Elite Unit you control, and only for those")
    area = state.players[ev.seat].area
    require(len(set(resources)) == len(resources) and all(
        area.get(r) is False and state.resource_kind(r) == "S" for r in resources),
        "VW-6.9", "Elite Upkeep exhausts distinct ready [S] of your Resource Area")
    zones.exhaust(state, ev.seat, resources)
    for uid in sorted(elites - set(units)):
        zones.destroy(state, state.units[uid], out, shield_saves=False)
    flow.draw_step(state, out)


def _pass(state: State, ev: PassPriority, out: Changes) -> None:
    if state.window == "channel":
        flow.upkeep_step(state, out)
    else:
        combat.pass_priority(state, ev.seat, out)


def _end_phase(state: State, ev: EndPhase, out: Changes) -> None:
    if state.window == "main":
        flow.begin_combat_phase(state, out)
    else:
        out.append(PhaseBegan(seat=ev.seat, phase="end"))
        flow.end_turn(state, out)


HANDLERS: dict[type, Handler] = {
    Mulligan: _mulligan, KeepHand: _keep, PayUpkeep: _upkeep, Recycle: recycle.recycle,
    Mobilize: main_phase.mobilize, Move: main_phase.move,
    LinkEquipment: main_phase.link_equipment, PlayFieldCondition: main_phase.play_field_condition,
    EndPhase: _end_phase, DeclareAttack: combat.declare_attack, PlayOrder: orders.play_order,
    Gank: combat.gank, Barrage: combat.barrage, PassPriority: _pass,
}

RULES_V1 = VitorianRules(1)
RULES_V2 = VitorianRules(2)
RULESETS = (RULES_V1, RULES_V2)
"""The game's "ruleset" layer: every version its logs may name, oldest first."""
RULES = RULES_V2
"""The rules new matches are played with (the bots' lookahead plays on either alike)."""
