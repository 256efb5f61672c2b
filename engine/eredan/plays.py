"""Which cards a combatant may play in Phase 2, with which targets, receivers and chains
(ER-5.12 to ER-5.14, ER-6.1 to ER-6.7, ER-7.8, ER-8, ER-9, ER-10).

`refusal` answers why one card cannot be played (rule ID and reason) or None; `check_plays`
refuses a whole submission naming the first rule it breaks. The legal-move generator uses the
same predicates, so what it offers and what `apply` accepts cannot drift apart.
"""
from __future__ import annotations

from collections.abc import Sequence

from engine.eredan.cards import CHOSEN, Card, Character
from engine.eredan.state import Fighter, State
from engine.eredan.stats import dual_wield
from engine.ruleset import RuleViolation
from events.eredan import Play

SLOT_LIMITED = ("weapon", "armor", "shield")  # ER-8.2


def refusal(char: Character, card: Card) -> tuple[str, str] | None:
    """Why `char` may not play `card` (type, class, race, printed restriction, affiliation)."""
    golem_item = char.race == "golem" and card.type == "item"  # ER-10.2, ER-6.6
    if card.type == "spell" and "mage" not in char.classes and not (
            char.race == "guemelite" and char.spell_type == card.spell_type):
        return "ER-6.3", f"{char.name} is neither a Mage nor a Guemelite of {card.spell_type}"
    if card.type == "theurgy" and "cleric" not in char.classes:
        return "ER-6.4", f"{char.name} is not a Cleric"
    if not golem_item:
        if card.requires_classes and not set(card.requires_classes) & set(char.classes):
            return "ER-6.5", f"{card.name} is for {'/'.join(card.requires_classes)} only"
        if card.requires_races and char.race not in card.requires_races:
            return "ER-6.5", f"{card.name} is for {'/'.join(card.requires_races)} only"
        if card.requires_caste and char.caste != card.requires_caste:
            return "ER-6.5", f"{card.name} is reserved to Courtiers (ER-9.9)"
        if card.affiliation and not any(a in char.affiliation for a in card.affiliation):
            return "ER-6.6", (f"{card.name} is of {'/'.join(card.affiliation)}; "
                              f"{char.name} is of {'/'.join(char.affiliation)}")
    return None


def chosen_target(card: Card) -> str | None:
    """The kind of target the player names for `card` (ER-7.8), or None when all are derived."""
    for line in card.lines:
        for effect in line.effects:
            target = getattr(effect, "target", None)
            if target in CHOSEN:
                return target
    return None


def target_options(state: State, seat: int, card: Card) -> list[int | None]:
    """The characters `card` may be aimed at: living opposing or own characters, or defeated
    own ones for a return to play (ER-7.12)."""
    kind = chosen_target(card)
    if kind is None:
        return [None]
    if kind == "chosen_enemy":
        return [f.id for f in state.living(1 - seat)]
    own = state.line(seat)
    if kind == "chosen_ally":
        return [f.id for f in own if not f.defeated]
    return [f.id for f in own if f.defeated]


def is_artisan_play(user: Fighter, card: Card) -> bool:
    return card.artisan and "artisan" in user.card.classes


def receiver_options(state: State, user: Fighter, card: Card) -> list[int | None]:
    """An Artisan attaches an Artisan card to any living character (ER-8.5, ER-9.8); None
    means the user itself."""
    if not is_artisan_play(user, card):
        return [None]
    return [None] + [f.id for f in state.fighters.values() if not f.defeated and f is not user]


def item_fits(state: State, receiver: Fighter, card: Card, incoming: Sequence[Card]) -> bool:
    """One Weapon, one Armor, one Shield; two one-handed Weapons with Dual Wield; never a
    two-handed Weapon beside another Weapon (ER-8.2 to ER-8.4). `incoming` are Items of the
    same submission attached to this receiver before `card`."""
    if card.type != "item" or card.subtype not in SLOT_LIMITED:
        return True
    cards = state.cards
    carried = [c for c in (cards[i] for i in receiver.attachments) if isinstance(c, Card)]
    same = [c for c in (*carried, *incoming) if c.subtype == card.subtype]
    if not same:
        return True
    if card.subtype != "weapon" or len(same) > 1:
        return False
    return card.hands == 1 and same[0].hands == 1 and dual_wield(state, receiver)


def class_chain(user: Fighter, card: Card) -> bool:
    """A pure Mage chains after a non-Area Spell (ER-9.4, ER-9.11, ER-10.5); a Warrior that is
    not a Mage after an Item of its printed subtype (ER-9.3, ER-9.11, ER-9.17)."""
    char = user.card
    if card.type == "spell":
        return char.is_pure_mage and not card.area
    return (card.type == "item" and char.warrior_item is not None
            and card.subtype == char.warrior_item)


def chain_allows(previous: Card, first: bool, user: Fighter, card: Card) -> bool:
    """Whether `card` may follow `previous` (ER-5.13, ER-6.7): the previous card's Chain of
    the right type, or the class chain after the first card."""
    chain = previous.chain
    if chain is not None and (chain == "any" or chain == card.type):
        return True
    return first and class_chain(user, previous)


def check_plays(state: State, seat: int, plays: tuple[Play, ...]) -> None:
    """Refuse a Phase 2 submission that breaks a rule, naming it; accept it silently."""
    player = state.players[seat]
    fid = state.combatant(seat)
    if not plays:
        return
    if fid is None:
        raise RuleViolation("ER-6.1", "a card is played with a combatant")
    user = state.fighters[fid]
    ids = [p.card for p in plays]
    if len(set(ids)) != len(ids) or not set(ids) <= set(player.hand):
        raise RuleViolation("ER-5.12", "each card played comes from your hand, once")
    before: list[tuple[Card, int]] = []
    for index, play in enumerate(plays):
        card = state.cards[play.card]
        assert isinstance(card, Card)
        receiver = _check_one(state, seat, user, card, play, before)
        if index:
            _check_chain(before[-1][0], index, user, card)
        before.append((card, receiver))


def _check_one(state: State, seat: int, user: Fighter, card: Card, play: Play,
               before: list[tuple[Card, int]]) -> int:
    """Check one card of a submission; returns the id of the character it attaches to."""
    why = refusal(user.card, card)
    if why is not None:
        raise RuleViolation(*why)
    if play.target not in target_options(state, seat, card):
        raise RuleViolation("ER-7.8" if chosen_target(card) != "defeated_ally" else "ER-7.12",
                            f"{card.name}: target {play.target} is not one it may take")
    if play.receiver is not None:
        if not is_artisan_play(user, card):
            raise RuleViolation("ER-8.5", f"{card.name} attaches to its user; only an Artisan "
                                          "chooses a receiver for an Artisan card")
        if play.receiver != user.id and play.receiver not in receiver_options(state, user, card):
            raise RuleViolation("ER-9.8", f"{card.name}: receiver {play.receiver} is not a "
                                          "living character")
    receiver = state.fighters[play.receiver] if play.receiver is not None else user
    incoming = [c for c, r in before if r == receiver.id]
    if not item_fits(state, receiver, card, incoming):
        raise RuleViolation("ER-8.4", f"{receiver.card.name} cannot carry another "
                                      f"{card.subtype} ({card.name})")
    return receiver.id


def _check_chain(previous: Card, index: int, user: Fighter, card: Card) -> None:
    if chain_allows(previous, index == 1, user, card):
        return
    if index >= 2:
        raise RuleViolation("ER-5.14", f"a card beyond the second needs a Chain "
                                       f"({previous.name} grants none for {card.name})")
    raise RuleViolation("ER-6.7", f"{card.name} needs a Chain from {previous.name} "
                                  "(or a class Chain) of its type")
