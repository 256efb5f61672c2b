"""Phase 2 after both submissions: reveal, persistent effects, then the N-shaped activation
(ER-5.15, ER-5.16, ER-6.8 to ER-6.14, ER-7.6, ER-8)."""
from __future__ import annotations

from engine.eredan import zones
from engine.eredan.cards import Card
from engine.eredan.changes import Activated, Attached, Fizzled, Revealed
from engine.eredan.effects import Context, run_lines
from engine.eredan.plays import item_fits
from engine.eredan.state import Slot, State
from engine.eredan.stats import holders, sources
from engine.ruleset import Change
from events.eredan import Play

Changes = list[Change]


def resolve_cards(state: State, out: Changes) -> None:
    """Reveal both submissions together, activate persistent effects, then every slot in the
    N order: active 1st, passive 1st, active 2nd, passive 2nd... (ER-5.16)."""
    state.slots = _reveal(state, out)
    state.clock = 0
    persistent_effects(state, out)
    slots = state.slots
    index = 0
    while index < len(slots):  # pulled cards are inserted after their introducer (ER-6.8)
        activate(state, slots[index], out)
        index += 1


def _reveal(state: State, out: Changes) -> list[Slot]:
    by_seat: list[list[Slot]] = []
    for seat in (state.active, state.passive):
        player = state.players[seat]
        plays: tuple[Play, ...] = player.submission or ()
        player.submission = None
        user = state.combatant(seat)
        if user is None:  # no combatant, no card (check_plays)
            by_seat.append([])
            continue
        for play in plays:
            player.hand.remove(play.card)
            state.count(play.card, "played")
            out.append(Revealed(seat=seat, card=play.card, user=user, target=play.target,
                                receiver=play.receiver))
        by_seat.append([Slot(seat, p.card, user, p.target, p.receiver, 0) for p in plays])
    active, passive = by_seat
    slots: list[Slot] = []
    for i in range(max(len(active), len(passive))):
        slots += active[i:i + 1] + passive[i:i + 1]
    return slots


def persistent_effects(state: State, out: Changes) -> None:
    """Combat effects of the combatants and turn effects of every living character, before
    slot 1: active player's line by position (ability, then attachments), then the passive
    player's (ER-6.13, ER-6.14)."""
    combatants = (state.attacker, state.defender)
    for fighter in holders(state, "turn", "combat"):
        in_combat = fighter.id in combatants
        for source, lines in sources(state, fighter):
            ctx = Context(fighter.owner, source, fighter)
            run_lines(state, ctx, lines, "turn", out)
            if in_combat:
                run_lines(state, ctx, lines, "combat", out)


def activate(state: State, slot: Slot, out: Changes) -> None:
    """One card's activation; an ignored card does not activate (ER-6.12)."""
    state.clock += 1
    card = state.cards[slot.card]
    assert isinstance(card, Card)
    user = state.fighters[slot.user]
    if card.type == "spell" and user.card.is_pure_mage and card.deals_magic_damage:
        state.no_attack.add(user.id)  # ER-7.6: playing it is enough, ignored or not
    if slot.ignored:
        return
    slot.activated = True
    out.append(Activated(seat=slot.seat, card=slot.card))
    if card.stays and not _attach(state, slot, card, out):
        return
    run_lines(state, Context(slot.seat, slot.card, user, slot.target, slot), card.lines,
              "play", out)


def _attach(state: State, slot: Slot, card: Card, out: Changes) -> bool:
    """Attach an Item or Pet to its receiver; a Pet replaces the old one (ER-8.7). An Item that
    no longer fits (the opponent attached one first) fizzles (ER-8.4)."""
    receiver = state.fighters[slot.receiver if slot.receiver is not None else slot.user]
    cards = state.cards
    if receiver.defeated or not item_fits(state, receiver, card, ()):
        out.append(Fizzled(seat=slot.seat, card=slot.card, character=receiver.id))
        return False
    if card.type == "pet":
        for old in [c for c in receiver.attachments if getattr(cards[c], "type", "") == "pet"]:
            receiver.detach(old)
            zones.to_discard(state, old, out)
    receiver.attach(slot.card)
    slot.attached = True
    out.append(Attached(seat=receiver.owner, card=slot.card, character=receiver.id))
    ctx = Context(receiver.owner, slot.card, receiver)  # ER-8.6: effects apply from now
    run_lines(state, ctx, card.lines, "turn", out)
    if receiver.id in (state.attacker, state.defender):
        run_lines(state, ctx, card.lines, "combat", out)
    return True
