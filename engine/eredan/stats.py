"""A character's current Attack, Defense and Spirit, and which card lines apply to it.

Stats are the printed values plus the static lines of its own ability and attachments (keyed
lines only when it has the key, ER-6.15, ER-10.2), plus the modifiers of this turn (Order
bonus, cards, Fury), plus the Looter's +1 Attack in combat (ER-9.5); never below 0.
"""
from __future__ import annotations

from collections.abc import Iterator

from engine.eredan.cards import Card, Character, DualWield, HandSize, Line, Modify
from engine.eredan.state import HAND_CAP, HAND_SIZE, Carried, Fighter, State


def has_key(card: Character, key: str) -> bool:
    """Whether a character has a line key: "guild:x", "class:x", "caste:courtier", "race:x"."""
    kind, _, value = key.partition(":")
    if kind == "class":
        return value in card.classes
    if kind == "guild":
        return value in card.affiliation
    if kind == "race":
        return card.race == value
    return kind == "caste" and card.caste == value


def lines_for(lines: tuple[Line, ...], card: Character) -> Iterator[Line]:
    """The lines of a card that apply to `card`'s character, in printed order: unkeyed lines,
    matching keyed lines, the default line only when no keyed line matches (ER-6.15). Rune
    lines are yielded too: the caller resolves them only by consuming the rune (ER-11.4)."""
    if len(lines) == 1 and not lines[0].key:
        yield lines[0]
        return
    matched = any(has_key(card, line.key) for line in lines)
    for line in lines:
        key = line.key
        if not key or key.startswith("rune:") or (
                has_key(card, key) if key != "default" else not matched):
            yield line


def sources(state: State, fighter: Fighter) -> Iterator[tuple[int, tuple[Line, ...]]]:
    """(source id, lines) of what a character carries: its own ability first, then its
    attachments in attachment order (ER-6.14)."""
    if fighter.card.ability:
        yield fighter.id, fighter.card.ability
    cards = state.cards
    for cid in fighter.attachments:
        card = cards[cid]
        if isinstance(card, Card):
            yield cid, card.lines


def carried(state: State, fighter: Fighter) -> Carried:
    """The summary of the character's static lines and timings, built on first use after its
    attachments changed."""
    found = fighter.carried
    if found is None:
        found = fighter.carried = _summarise(state, fighter)
    return found


def _summarise(state: State, fighter: Fighter) -> Carried:
    attack = defense = spirit = hand = 0
    dual = False
    timed: dict[str, list[tuple[int, tuple[Line, ...]]]] = {}
    for source, lines in sources(state, fighter):
        for line in lines_for(lines, fighter.card):
            if line.when != "static":
                found = timed.setdefault(line.when, [])
                if not found or found[-1][0] != source:
                    found.append((source, lines))
                continue
            for effect in line.effects:
                if isinstance(effect, Modify):
                    attack, defense = attack + effect.attack, defense + effect.defense
                    spirit += effect.spirit
                elif isinstance(effect, HandSize):
                    hand += effect.amount
                elif isinstance(effect, DualWield):
                    dual = True
    return Carried(attack, defense, spirit, hand, dual,
                   {when: tuple(found) for when, found in timed.items()})


def timed(state: State, fighter: Fighter, when: str) -> tuple[tuple[int, tuple[Line, ...]], ...]:
    """The (source id, lines) of what the character carries that have a line of `when`."""
    return (fighter.carried or carried(state, fighter)).timed.get(when, ())


def holders(state: State, *whens: str) -> list[Fighter]:
    """The living characters carrying a line of one of `whens`, active player's first, each
    line by position (ER-5.7, ER-6.14); usually none, so one pass decides."""
    found = [f for f in state.fighters.values()
             if not f.defeated and any(w in (f.carried or carried(state, f)).timed
                                       for w in whens)]
    if found and state.active == 1:
        found.sort(key=lambda f: f.owner != 1)
    return found


def stats(state: State, fighter: Fighter) -> tuple[int, int, int]:
    """(Attack, Defense, Spirit) now (ER-7.10)."""
    card = fighter.card
    extra = fighter.carried or carried(state, fighter)
    attack, defense, spirit = extra.attack, extra.defense, extra.spirit
    for mod in fighter.mods:
        attack += mod.attack
        defense += mod.defense
        spirit += mod.spirit
    if card.looter_target is not None:
        attack += looter_bonus(state, fighter)
    return (max(0, attack + card.attack), max(0, defense + card.defense),
            max(0, spirit + card.spirit))


def looter_bonus(state: State, fighter: Fighter) -> int:
    """+1 Attack when the opposing combatant has the Looter's class (ER-9.5)."""
    target = fighter.card.looter_target
    if target is None:
        return 0
    if fighter.id == state.attacker:
        other = state.defender
    elif fighter.id == state.defender:
        other = state.attacker
    else:
        return 0
    return 1 if other is not None and target in state.fighters[other].card.classes else 0


def dual_wield(state: State, fighter: Fighter) -> bool:
    return carried(state, fighter).dual_wield


def hand_target(state: State, seat: int) -> int:
    """5 cards, more if cards in play say so, never more than 8 (ER-5.5, ER-5.19, ER-5.20)."""
    extra = 0
    for fighter in state.fighters.values():
        if fighter.owner == seat and not fighter.defeated:
            extra += (fighter.carried or carried(state, fighter)).hand
    return min(HAND_CAP, HAND_SIZE + extra)
