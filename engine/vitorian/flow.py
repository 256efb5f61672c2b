"""The match's own progress between decisions: setup, turn start (Ready, Channel, Burn-out, Elite
Upkeep, Draw), phase changes, cleanup and the turn cap (VW-4, VW-5, VW-6, VW-12)."""
from __future__ import annotations

from engine.ruleset import Change
from engine.vitorian import zones
from engine.vitorian.changes import BurnOut, MatchOver, PhaseBegan, TurnBegan, TurnSkipped
from engine.vitorian.state import State

Changes = list[Change]
OPENING_HAND = 6
OPENING_RESOURCES = 3
TURN_CAP = 60


def deal_opening(state: State, out: Changes) -> None:
    """Reveal 3 Convoy cards and draw 6, then the first player's mulligan (VW-4.4, VW-4.5)."""
    for seat in (state.first, 1 - state.first):
        zones.channel(state, seat, OPENING_RESOURCES, out)
        zones.draw(state, seat, OPENING_HAND, out)
    state.window, state.pending = "mulligan", state.first


def after_keep(state: State, seat: int, out: Changes) -> None:
    """The first player finishes mulligans before the second starts (VW-4.9)."""
    if seat == state.first:
        state.window, state.pending = "mulligan", 1 - seat
    else:
        state.active = state.first
        begin_turn(state, out)


def begin_turn(state: State, out: Changes) -> None:
    state.turn += 1
    seat = state.active
    player = state.players[seat]
    out.append(TurnBegan(seat=seat, turn=state.turn))
    if player.skip_next:  # VW-6.25, VW-6.27
        player.skip_next = False
        out.append(TurnSkipped(seat=seat))
        end_turn(state, out)
        return
    ready_step(state, seat)
    wanted = channel_count(state, seat)
    player.turns_taken += 1
    if not player.convoy:
        start_burnout(state, seat, out)
        return
    zones.channel(state, seat, wanted, out)
    after_channel(state, out)


def channel_count(state: State, seat: int) -> int:
    """2 a turn; 1 on the first player's first turn, 3 on the second player's (VW-6.4, VW-6.5)."""
    if state.players[seat].turns_taken == 0:
        return 1 if seat == state.first else 3
    return 2


def ready_step(state: State, seat: int) -> None:
    """Unexhaust all your units and resources (VW-6.3)."""
    for unit in state.units.values():
        if unit.owner == seat:
            unit.exhausted = False
    area = state.players[seat].area
    for rid in area:
        area[rid] = False


def start_burnout(state: State, seat: int, out: Changes) -> None:
    """No card to channel: the Resource Area is reshuffled into a new Convoy (VW-6.26)."""
    player = state.players[seat]
    out.append(BurnOut(seat=seat, reshuffled=len(player.area)))
    player.skip_next = True
    player.convoy = list(player.area)
    player.area.clear()
    if player.convoy:
        state.window = "burnout"
        state.chance = [(seat, "convoy")]
        return
    after_channel(state, out)


def after_channel(state: State, out: Changes) -> None:
    """The active player may recycle at the end of the Channel step (VW-5.3, VW-6.20)."""
    seat = state.active
    player = state.players[seat]
    if player.area and player.recycled_turn != state.turn:
        state.window, state.pending = "channel", seat
        return
    upkeep_step(state, out)


def upkeep_step(state: State, out: Changes) -> None:
    seat = state.active
    if any(u.card.is_elite for u in state.units.values() if u.owner == seat):
        state.window, state.pending = "upkeep", seat
        return
    draw_step(state, out)


def draw_step(state: State, out: Changes) -> None:
    """Draw 1, the first player on turn 1 too (VW-6.7, VW-6.8), then the Main Phase."""
    zones.draw(state, state.active, 1, out)
    if not state.over:
        state.window, state.pending = "main", state.active
        out.append(PhaseBegan(seat=state.active, phase="main"))


def begin_combat_phase(state: State, out: Changes) -> None:
    state.window, state.pending = "combat", state.active
    out.append(PhaseBegan(seat=state.active, phase="combat"))


def end_turn(state: State, out: Changes) -> None:
    """End Phase cleanup (VW-5.7), the turn cap (VW-12.5), then the next turn."""
    for unit in state.units.values():
        unit.mods = [m for m in unit.mods if m.until == "permanent"]
        unit.new = unit.moved = unit.attacked = False
    if state.turn >= TURN_CAP:
        state.over, state.winner, state.reason, state.rule = True, None, "turn_cap", "VW-12.5"
        state.window, state.pending = "over", -1
        out.append(MatchOver(reason="turn_cap", rule="VW-12.5"))
        return
    state.active = 1 - state.active
    begin_turn(state, out)
