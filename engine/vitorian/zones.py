"""Moving cards between zones, and the consequences the engine derives (VW-2.8, VW-6, VW-9.24)."""
from __future__ import annotations

from engine.ruleset import Change, RuleViolation
from engine.vitorian.changes import (
    Channeled,
    Destroyed,
    Drew,
    MatchOver,
    ShieldUsed,
    SovereignFell,
    SovereignHit,
    ToConvoy,
)
from engine.vitorian.state import Player, State, Unit

Changes = list[Change]


def require(condition: bool, rule: str, reason: str) -> None:
    """Refuse the event (RuleViolation) unless `condition` holds. The reason is built before
    the call: where it is an f-string on a path most events take, test and raise in place
    instead, so that the text is made only for a refusal."""
    if not condition:
        raise RuleViolation(rule, reason)


def draw(state: State, seat: int, count: int, out: Changes) -> None:
    """Draw from the Maneuver Deck; drawing from an empty deck loses (VW-12.3)."""
    player = state.players[seat]
    for _ in range(count):
        if not player.deck:
            lose(state, seat, "deck_out", "VW-12.3", out)
            return
        card = player.deck.pop(0)
        if player.bottomed and card in player.bottomed:
            player.bottomed.remove(card)
        player.hand.append(card)
        out.append(Drew(seat=seat, card=card, name=state.name(card), secret_to=seat))


def channel(state: State, seat: int, count: int, out: Changes) -> None:
    """Reveal the top Convoy cards into the Resource Area, ready (VW-4.4, VW-6.4)."""
    player = state.players[seat]
    for _ in range(min(count, len(player.convoy))):
        card = player.convoy.pop(0)
        player.convoy_public.discard(card)
        player.convoy_seen.discard(card)
        player.area[card] = False
        out.append(Channeled(seat=seat, card=card, resource=state.resource_kind(card)))


def to_convoy(state: State, seat: int, ids: tuple[int, ...], on_top: bool, out: Changes) -> None:
    """Put resources from the Resource Area into the Convoy; `ids` lists them top card first."""
    player = state.players[seat]
    for rid in ids:
        del player.area[rid]
        player.convoy_public.add(rid)
    if on_top:
        player.convoy[0:0] = list(ids)
    else:
        player.convoy.extend(ids)
    if ids:
        out.append(ToConvoy(seat=seat, resources=ids, place="top" if on_top else "bottom"))


def exhaust(state: State, seat: int, ids: tuple[int, ...]) -> None:
    area = state.players[seat].area
    for rid in ids:
        area[rid] = True


def destroy(state: State, unit: Unit, out: Changes, *, shield_saves: bool = True) -> bool:
    """Destroy a unit unless a Shield marker saves it (VW-8.9); returns True if destroyed."""
    if shield_saves and unit.shield:
        unit.shield = False
        out.append(ShieldUsed(seat=unit.owner, card=unit.id, name=unit.card.name,
                              cell=(unit.row, unit.col)))
        return False
    remove_unit(state, unit)
    out.append(Destroyed(seat=unit.owner, card=unit.id, name=unit.card.name,
                         cell=(unit.row, unit.col)))
    return True


def remove_unit(state: State, unit: Unit) -> None:
    """The unit and its Equipment go to the owner's Discard Pile (VW-2.8, VW-7.16)."""
    del state.units[unit.id]
    del state.grid[(unit.row, unit.col)]
    owner = state.players[unit.owner]
    owner.discard.append(unit.id)
    if unit.equipment is not None:
        owner.discard.append(unit.equipment)


def place(state: State, unit: Unit, row: int, col: int) -> None:
    del state.grid[(unit.row, unit.col)]
    unit.row, unit.col = row, col
    state.grid[(row, col)] = unit.id


def hit_sovereign(state: State, seat: int, out: Changes) -> None:
    """Remove the top Defense card; on an empty pile the Sovereign falls (VW-9.24 to VW-9.26)."""
    player = state.players[seat]
    if player.defense:
        player.removed.append(player.defense.pop(0))
        out.append(SovereignHit(seat=seat, defense_left=len(player.defense)))
    else:
        out.append(SovereignFell(seat=seat, sovereign=player.sovereign.name))
        lose(state, seat, "sovereign_fell", "VW-9.26", out)


def lose(state: State, seat: int, reason: str, rule: str, out: Changes) -> None:
    """End the match with a loss for `seat`; a second loss at the same moment is a draw
    (VW-12.6)."""
    if state.over:
        if state.winner == seat:
            state.winner, state.reason, state.rule = None, "both_lose", "VW-12.6"
            out.append(MatchOver(reason="both_lose", rule="VW-12.6"))
        return
    state.over, state.winner, state.reason, state.rule = True, 1 - seat, reason, rule
    state.window, state.pending = "over", -1
    out.append(MatchOver(seat=1 - seat, reason=reason, rule=rule))


def player(state: State, seat: int) -> Player:
    return state.players[seat]
