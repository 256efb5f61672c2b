"""The effect vocabulary at work: what each effect of a card line does when it resolves.

Damage and healing from Phase 2 wait as Pending entries for Phase 3 (ER-6.9); everything else
(stat modifiers, draws, runes, ignore marks, cards taken from the deck, returns to play) happens
at once. Every modifier and pending entry remembers its source card, so ignoring that card later
cancels them (ER-6.12).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.eredan import zones
from engine.eredan.cards import (
    ActivateFury,
    ActivateOrder,
    Card,
    Damage,
    Draw,
    Heal,
    Ignore,
    Line,
    LoseHP,
    Modify,
    PlaceRune,
    PlayFromDeck,
    Resurrect,
)
from engine.eredan.changes import (
    PENDING,
    Detached,
    FuryActivated,
    Ignored,
    Modified,
    NothingFound,
    OrderActivated,
    Pulled,
    Returned,
    RuneConsumed,
    RunePlaced,
)
from engine.eredan.state import Fighter, Mod, Pending, Slot, State
from engine.eredan.stats import lines_for
from engine.ruleset import Change

Changes = list[Change]


@dataclass(slots=True)
class Context:
    """Who resolves a line: the seat, the source card (the cancel key), the user or bearer,
    the chosen target of the Play and, for a played card, its slot."""

    seat: int
    source: int
    user: Fighter
    target: int | None = None
    slot: Slot | None = None


def run_lines(state: State, ctx: Context, lines: tuple[Line, ...], when: str,
              out: Changes) -> None:
    """Resolve the lines of one timing in printed order: keyed lines only when the user has the
    key, default only when no key matched (ER-6.15), rune lines only by consuming the user's
    oldest rune of that name (ER-11.4, ER-11.5)."""
    for line in lines_for(lines, ctx.user.card):
        if line.when != when:
            continue
        if line.key.startswith("rune:") and not _consume_rune(ctx.user, line.key[5:], out):
            continue
        for effect in line.effects:
            EFFECTS[type(effect)](state, ctx, effect, out)


def _consume_rune(fighter: Fighter, rune: str, out: Changes) -> bool:
    if rune not in fighter.runes:
        return False
    fighter.runes.remove(rune)  # the first match is the oldest
    out.append(RuneConsumed(seat=fighter.owner, character=fighter.id, rune=rune))
    return True


def targets(state: State, ctx: Context, target: str) -> list[Fighter]:
    """The characters an effect acts on (ER-7.8: the opposing combatant by default)."""
    fighters = state.fighters
    if target == "user":
        return [ctx.user]
    if target == "all_enemies" or target == "all_allies":
        return state.living(ctx.seat if target == "all_allies" else 1 - ctx.seat)
    if target == "defeated_ally":  # unnamed (a card put into play by another): the first one
        fid = ctx.target if ctx.target is not None else next(
            (f.id for f in state.line(ctx.seat) if f.defeated), None)
        chosen = fighters.get(fid) if fid is not None else None
        return [chosen] if chosen is not None and chosen.defeated else []
    fid = ctx.target
    if fid is None or target == "enemy_combatant":
        fid = ctx.user.id if target == "chosen_ally" else state.combatant(1 - ctx.seat)
    chosen = fighters.get(fid) if fid is not None else None
    return [chosen] if chosen is not None and not chosen.defeated else []


def _pending(kind: str) -> Callable[[State, Context, Damage | LoseHP | Heal, Changes], None]:
    announce = PENDING[kind]

    def add(state: State, ctx: Context, effect: Damage | LoseHP | Heal, out: Changes) -> None:
        for fighter in targets(state, ctx, effect.target):
            state.pendings.append(Pending(ctx.source, ctx.seat, fighter.id, effect.amount, kind))
            out.append(announce(seat=ctx.seat, character=fighter.id, hp=effect.amount,
                                source=ctx.source))
    return add


def _modify(state: State, ctx: Context, effect: Modify, out: Changes) -> None:
    for fighter in targets(state, ctx, effect.target):
        fighter.mods.append(Mod(effect.attack, effect.defense, effect.spirit, ctx.source))
        out.append(Modified(seat=fighter.owner, character=fighter.id, source=ctx.source,
                            attack=effect.attack, defense=effect.defense, spirit=effect.spirit))


def _draw(state: State, ctx: Context, effect: Draw, out: Changes) -> None:
    zones.draw(state, ctx.seat, effect.count, out)


def _activate_order(state: State, ctx: Context, effect: ActivateOrder, out: Changes) -> None:
    """Every line of the Order, whatever the turn counter (ER-5.11)."""
    for fighter in targets(state, ctx, effect.target):
        for line in fighter.card.order:
            fighter.mods.append(Mod(line.attack, line.defense, line.spirit, ctx.source))
        out.append(OrderActivated(seat=fighter.owner, character=fighter.id, source=ctx.source))


def _activate_fury(state: State, ctx: Context, effect: ActivateFury, out: Changes) -> None:
    """A Berserker's own Fury, at most once per turn (ER-9.2)."""
    for fighter in targets(state, ctx, effect.target):
        if not fighter.card.fury or fighter.fury_turn == state.turn:
            continue
        fighter.fury_turn = state.turn
        out.append(FuryActivated(seat=fighter.owner, character=fighter.id, source=ctx.source))
        fury = Context(fighter.owner, ctx.source, fighter, None, ctx.slot)
        run_lines(state, fury, fighter.card.fury, "play", out)


def _place_rune(state: State, ctx: Context, effect: PlaceRune, out: Changes) -> None:
    """A full character loses its oldest rune (ER-11.3)."""
    for fighter in targets(state, ctx, effect.target):
        fighter.runes.append(effect.rune)
        while len(fighter.runes) > fighter.card.rune_capacity:
            fighter.runes.pop(0)
        out.append(RunePlaced(seat=fighter.owner, character=fighter.id, rune=effect.rune,
                              source=ctx.source))


def _resurrect(state: State, ctx: Context, effect: Resurrect, out: Changes) -> None:
    """A fresh return, like setup: untapped, the stated HP, starting runes (ER-7.12)."""
    for fighter in targets(state, ctx, effect.target):
        fighter.defeated = fighter.tapped = False
        fighter.hp = min(effect.hp, fighter.card.hp)
        fighter.runes = list(fighter.card.starting_runes)
        fighter.mods = []
        out.append(Returned(seat=fighter.owner, character=fighter.id, hp=fighter.hp,
                            source=ctx.source))


def _ignore(state: State, ctx: Context, effect: Ignore, out: Changes) -> None:
    """Ignore the opposing cards of these types that appeared before now (ER-6.10 to ER-6.12)."""
    for slot in state.slots:
        card = state.cards[slot.card]
        if slot.seat == ctx.seat or slot.ignored or slot.appeared >= state.clock:
            continue
        if isinstance(card, Card) and card.type in effect.types:
            slot.ignored = True
            out.append(Ignored(seat=slot.seat, card=slot.card, source=ctx.source))
            if slot.activated:
                cancel(state, slot, out)


def cancel(state: State, slot: Slot, out: Changes) -> None:
    """Undo an activated card's modifiers, attachment and pending HP changes; moves and draws
    stay done (ER-6.12)."""
    source = slot.card
    for fighter in state.fighters.values():
        if fighter.mods:
            fighter.mods = [m for m in fighter.mods if m.source != source]
        if source in fighter.attachments:
            fighter.detach(source)
            slot.attached = False
            out.append(Detached(seat=fighter.owner, card=source, character=fighter.id))
    state.pendings = [p for p in state.pendings if p.source != source]


def _play_from_deck(state: State, ctx: Context, effect: PlayFromDeck, out: Changes) -> None:
    """Take the first card of the type from the owner's deck; it activates right after this
    card, with the same user (ER-6.8). It appears now, for ignore effects (ER-6.10)."""
    deck = state.players[ctx.seat].deck
    cards = state.cards
    found = next((cid for cid in deck if getattr(cards[cid], "type", None) == effect.card_type),
                 None)
    if found is None or ctx.slot is None:
        out.append(NothingFound(seat=ctx.seat, card_type=effect.card_type, source=ctx.source))
        return
    deck.remove(found)
    pulled = Slot(ctx.seat, found, ctx.user.id, None, None, appeared=state.clock, pulled=True)
    state.slots.insert(state.slots.index(ctx.slot) + 1, pulled)
    state.count(found, "played")
    out.append(Pulled(seat=ctx.seat, card=found, source=ctx.source))


EFFECTS: dict[type, Callable[..., None]] = {
    Damage: _pending("magic"), LoseHP: _pending("lose"), Heal: _pending("heal"),
    Modify: _modify, Draw: _draw, Ignore: _ignore, PlayFromDeck: _play_from_deck,
    ActivateOrder: _activate_order, ActivateFury: _activate_fury, PlaceRune: _place_rune,
    Resurrect: _resurrect,
}
"""HandSize and DualWield only exist on static lines (cards.py refuses them elsewhere)."""
