"""Rule coverage, classes, races, runes and evolutions: the class slot (ER-9.1), the Warrior
and Mage chains (ER-9.3, ER-9.4), Courtiers (ER-9.9), multiclasses (ER-9.10 to ER-9.17), races
without rules (ER-10.1), Guemelites (ER-10.4 to ER-10.7), runes (ER-11.1) and evolution levels
(ER-12.3). Each test applies the rule through the engine and asserts its consequence, or its
refusal naming the rule."""
from __future__ import annotations

import msgspec
import pytest

from engine.eredan.cards import RACES, Card, Character, Line, Modify, PlaceRune
from engine.eredan.deckcheck import check_deck
from engine.eredan.stats import stats
from engine.ruleset import RuleViolation
from events.base import DeckEntry, DeckList
from events.eredan import ChooseCombatants, Play, PlayCards
from tests.eredan.scenario import (
    CATALOG,
    P1,
    P2,
    RULES,
    character,
    fighter,
    in_hand,
    named,
    plays,
    put,
    refused,
    started,
)


def _ready(user: str | Character, foe: Character | None = None):
    """A match on turn 1 with `user` fighting for seat 0 against `foe` (or seat 1's first)."""
    state = started()
    char = named(user) if isinstance(user, str) else user
    assert isinstance(char, Character)
    me = put(state, P1, 1, char)
    them = put(state, P2, 1, foe) if foe is not None else fighter(state, P2).id
    RULES.apply(state, ChooseCombatants(seat=P1, attacker=me, defender=them))
    return state, me, them


def _play(state, *cards: int, target: int | None = None) -> None:
    RULES.apply(state, PlayCards(seat=P1, plays=plays(*cards, target=target)))
    RULES.apply(state, PlayCards(seat=P2))


def _chains(user: str | Character, first: str, second: str = "Parry") -> bool:
    """Whether `user` may play `first` then `second`; a refusal must name ER-6.7."""
    state, _, them = _ready(user)
    ids = in_hand(state, P1, named(first), named(second))
    event = PlayCards(seat=P1, plays=tuple(
        Play(card=cid, target=them if _aimed(state.cards[cid]) else None) for cid in ids))
    try:
        RULES.apply(state, event)
    except RuleViolation:
        refused(state, event, "ER-6.7")
        return False
    return True


def _lost(user: str | Character, spell: str, foe: Character) -> int:
    """HP the defender loses when `user` plays `spell` at it and the combat resolves."""
    state, _, them = _ready(user, foe)
    (cid,) = in_hand(state, P1, named(spell))
    target = them if _aimed(named(spell)) else None
    _play(state, cid, target=target)
    return foe.hp - state.fighters[them].hp


def _aimed(printed) -> bool:
    """Whether the card's player names an opposing character for it."""
    return any(getattr(e, "target", "") == "chosen_enemy" for line in printed.lines
               for e in line.effects)


def _target(**extra) -> Character:
    """A harmless defender: no Attack, Defense 0, Spirit 1, 30 HP (unless told)."""
    return character(**({"attack": 0, "defense": 0, "spirit": 1, "hp": 30} | extra))


WARRIOR = {"classes": ("warrior",), "warrior_item": "weapon"}
CLERIC = {"classes": ("cleric",)}
BERSERKER = {"classes": ("berserker",), "fury": (Line(effects=(Modify(attack=1),)),)}


# ER-9.1: the class slot ---------------------------------------------------------------------------

def test_er_9_1_one_or_two_classes_or_the_courtier_caste_in_the_class_slot():
    """ER-9.1: a character without a class or with three is refused naming ER-9.1; a Courtier
    shows its caste instead of a class (refused with a class, ER-9.9)."""
    base = {"attack": 1, "defense": 1, "spirit": 1, "hp": 10, "race": "human", "act": 6}
    with pytest.raises(ValueError, match=r"ER-9\.1\b"):
        Character(id="X-C1", name="Classless", affiliation=("kotoba",), classes=(), **base)
    with pytest.raises(ValueError, match=r"ER-9\.1\b"):
        Character(id="X-C2", name="Triple", affiliation=("kotoba",),
                  classes=("mage", "cleric", "looter"), looter_target="mage", **base)
    with pytest.raises(ValueError, match=r"ER-9\.9"):
        Character(id="X-C3", name="Courtier Mage", affiliation=("kotoba", "zil"),
                  caste="courtier", classes=("mage",), **base)
    mei = named("Lady Mei")
    assert (mei.caste, mei.classes) == ("courtier", ())


def test_er_9_1_the_unknown_class_has_no_special_rule():
    """ER-9.1: an Unknown character plays neither Spells (ER-6.3) nor Theurgies (ER-6.4),
    gets no Chain after an Item or a Spell, no Attack bonus, and deals Attack - Defense."""
    unknown = character(classes=("unknown",), attack=4, hp=30)
    state, _, _ = _ready(unknown)
    arrow, smite = in_hand(state, P1, named("Flaming Arrow"), named("Divine Smite"))
    refused(state, PlayCards(seat=P1, plays=plays(arrow)), "ER-6.3")
    refused(state, PlayCards(seat=P1, plays=plays(smite)), "ER-6.4")
    assert not _chains(character(classes=("unknown",)), "Iron Sword")
    assert _lost(character(classes=("unknown",), attack=4, hp=30), "Parry",
                 _target(defense=1, **WARRIOR)) == 3


# ER-9.3, ER-9.4: class chains -------------------------------------------------------------------

def test_er_9_3_a_warrior_chains_any_card_after_an_item_of_its_printed_subtype():
    """ER-9.3: Oruk names Armor: Leather Armor then Parry, or then a Healing Potion, is legal;
    a Weapon first gives no second card, nor does the Armor played second."""
    assert named("Oruk").warrior_item == "armor"
    assert _chains("Oruk", "Leather Armor", "Parry")
    assert _chains("Oruk", "Leather Armor", "Healing Potion")
    assert not _chains("Oruk", "Iron Sword", "Parry")
    assert not _chains("Oruk", "Parry", "Leather Armor")
    state, me, _ = _ready("Oruk")
    armor, parry = in_hand(state, P1, named("Leather Armor"), named("Parry"))
    _play(state, armor, parry)
    assert state.fighters[me].attachments == [armor]
    assert stats(state, state.fighters[me])[1] == named("Oruk").defense + 1 + 2


def test_er_9_4_a_mage_chains_after_a_non_area_spell_with_any_card_it_can_play():
    """ER-9.4: Aku's Flaming Arrow lets a second card of any type follow (an Action, an Item);
    an Area of Effect spell does not; the second card must still be one Aku may play."""
    assert _chains("Aku", "Flaming Arrow", "Quick Strike")
    assert _chains("Aku", "Flaming Arrow", "Healing Potion")
    assert not _chains("Aku", "Meteor Rain", "Parry")
    state, _, _ = _ready("Aku")
    arrow, smite = in_hand(state, P1, named("Flaming Arrow"), named("Divine Smite"))
    refused(state, PlayCards(seat=P1, plays=plays(arrow, smite)), "ER-6.4")


# ER-9.9: Courtiers ----------------------------------------------------------------------------------

def test_er_9_9_a_courtier_uses_courtier_cards_and_the_cards_of_its_guilds():
    """ER-9.9: Lady Mei (Kotoba and Noz'Dingard) plays Court Intrigue, reserved to Courtiers
    (draw 2, opposing combatant Attack -2), which Iro may not (ER-6.5); she plays both a
    Kotoba and a Noz'Dingard card."""
    state, _, them = _ready("Lady Mei")
    (intrigue,) = in_hand(state, P1, named("Court Intrigue"))
    hand = len(state.players[P1].hand)
    attack = stats(state, state.fighters[them])[0]
    _play(state, intrigue)
    assert len(state.players[P1].hand) == hand - 1 + 2
    assert stats(state, state.fighters[them])[0] == max(0, attack - 2)
    other, _, _ = _ready("Iro")
    refused(other, PlayCards(seat=P1, plays=plays(*in_hand(other, P1, named("Court Intrigue")))),
            "ER-6.5")
    for guild_card in ("Katana", "Dragon Scale Mail"):
        mei, who, _ = _ready("Lady Mei")
        (cid,) = in_hand(mei, P1, named(guild_card))
        _play(mei, cid)
        assert mei.fighters[who].attachments == [cid]


# ER-9.10 to ER-9.17: multiclasses -------------------------------------------------------------

def test_er_9_10_a_multiclass_uses_the_cards_of_either_class():
    """ER-9.10: Lady Vesper (Mage/Cleric) casts a Spell and a Theurgy; Zahal (Mage/Warrior)
    a Spell and the War Axe, restricted to Warriors."""
    assert _lost("Lady Vesper", "Arcane Bolt", _target(defense=50)) == 4 - 1
    assert _lost("Lady Vesper", "Divine Smite", _target(defense=50)) == 3 - 1
    assert _lost("Zahal", "Flaming Arrow", _target(defense=50)) == 5 - 1
    state, me, _ = _ready("Zahal")
    (axe,) = in_hand(state, P1, named("War Axe"))
    _play(state, axe)
    assert state.fighters[me].attachments == [axe]


def test_er_9_11_mage_warrior_no_chains_but_spell_and_attack_together():
    """ER-9.11: Zahal gets no Chain from a Spell, no Warrior second card after an Item, and his
    Flaming Arrow (5 - Spirit 1) comes with his attack (4 - Defense 1)."""
    zahal = named("Zahal")
    assert zahal.classes == ("mage", "warrior") and zahal.warrior_item is None
    assert not _chains("Zahal", "Flaming Arrow")
    assert not _chains("Zahal", "Leather Armor")
    assert not _chains("Zahal", "Iron Sword")
    assert _lost("Zahal", "Flaming Arrow", _target(defense=1)) == 4 + 3


def test_er_9_12_mage_looter_no_spell_chain_keeps_plus_one_and_attacks():
    """ER-9.12: Arwel (Mage/Looter against Warriors) gets no Chain from Lightning; against a
    Warrior his Lightning (3 - 1) comes with his attack (3 + 1 - 0)."""
    assert named("Arwel").looter_target == "warrior"
    assert not _chains("Arwel", "Lightning L1")
    assert _lost("Arwel", "Lightning L1", _target(**WARRIOR)) == 2 + 4
    assert _lost("Arwel", "Lightning L1", _target()) == 2 + 3


def test_er_9_13_looter_warrior_keeps_the_looters_plus_one():
    """ER-9.13: Sylwen (Looter against Clerics, Attack 4) deals 5 to a Cleric, 4 to others."""
    assert named("Sylwen").looter_target == "cleric"
    assert _lost("Sylwen", "Parry", _target(**CLERIC)) == 5
    assert _lost("Sylwen", "Parry", _target()) == 4


def test_er_9_14_warrior_cleric_uses_both_classes_cards():
    """ER-9.14: Ilian plays the Warriors' War Axe and the Cleric's Theurgies (Divine Smite's
    3 damage, Healing Light on himself)."""
    state, me, _ = _ready("Ilian the Radiant", _target())
    (axe,) = in_hand(state, P1, named("War Axe"))
    _play(state, axe)
    assert state.fighters[me].attachments == [axe]
    assert _lost("Ilian the Radiant", "Divine Smite", _target(defense=50)) == 3 - 1
    heal, me2, _ = _ready("Ilian the Radiant", _target())
    heal.fighters[me2].hp -= 3
    (light,) = in_hand(heal, P1, named("Healing Light L1"))
    _play(heal, light, target=me2)
    assert heal.fighters[me2].hp == named("Ilian the Radiant").hp


def test_er_9_15_cleric_looter_keeps_the_looters_plus_one():
    """ER-9.15: Vael (Looter against Berserkers, Attack 3) deals 4 to a Berserker, 3 to
    others, and casts Theurgies."""
    assert named("Vael").looter_target == "berserker"
    assert _lost("Vael", "Parry", _target(**BERSERKER)) == 4
    assert _lost("Vael", "Parry", _target()) == 3
    assert _lost("Vael", "Divine Smite", _target(defense=50)) == 3 - 1


def test_er_9_16_mage_cleric_no_spell_chain_and_spell_with_attack():
    """ER-9.16: Lady Vesper gets no Chain from Soul Drain, and its 3 damage (- Spirit 1) comes
    with her attack (3 - Defense 0)."""
    assert not _chains("Lady Vesper", "Soul Drain")
    assert _lost("Lady Vesper", "Soul Drain", _target()) == 2 + 3


def test_er_9_17_warrior_multiclasses_chain_after_an_item_only_if_printed():
    """ER-9.17: Sylwen prints Shield and Ilian Armor: each chains after it; the same pairs
    without a printed subtype get no second card."""
    assert _chains("Sylwen", "Wooden Shield") and _chains("Ilian the Radiant", "Leather Armor")
    bare_lw = character(classes=("looter", "warrior"), looter_target="mage")
    bare_wc = character(classes=("warrior", "cleric"))
    for bare in (bare_lw, bare_wc):
        assert bare.warrior_item is None
        for item in ("Wooden Shield", "Leather Armor", "Iron Sword"):
            assert not _chains(bare, item)


# ER-10: races -----------------------------------------------------------------------------------

RULELESS = [r for r in RACES if r not in ("golem", "guemelite")]


@pytest.mark.parametrize("race", RULELESS)
def test_er_10_1_races_other_than_golem_and_guemelite_change_nothing(race):
    """ER-10.1: a character of any other race plays, is refused and fights exactly like a
    Human of the same card: no Spell (ER-6.3), no Golem Item (ER-6.5), Attack - Defense."""
    def line(r: str) -> Character:
        return character(race=r, classes=("unknown",), attack=4, hp=30)

    state, _, _ = _ready(line(race))
    arrow, heart, _ = in_hand(state, P1, named("Flaming Arrow"), named("Golem Heart"),
                              named("Parry"))
    refused(state, PlayCards(seat=P1, plays=plays(arrow)), "ER-6.3")
    refused(state, PlayCards(seat=P1, plays=plays(heart)), "ER-6.5")
    human, _, _ = _ready(line("human"))
    in_hand(human, P1, named("Flaming Arrow"), named("Golem Heart"), named("Parry"))
    assert len(RULES.legal(state)) == len(RULES.legal(human))
    assert _lost(line(race), "Parry", _target(defense=1)) == 3



def test_er_10_4_a_guemelite_casts_spells_of_its_own_type_within_its_guild():
    """ER-10.4: The Shadow casts Shadow Bolt (4 - Spirit 1) but not the Draconic Breath; a
    Draconic Guemelite of the Zil Warriors may not cast the Noz'Dingard Draconic Breath
    (the guild restriction still applies, ER-6.6)."""
    assert named("The Shadow").spell_type == "shadow"
    assert _lost("The Shadow", "Shadow Bolt", _target(defense=50)) == 4 - 1
    state, _, _ = _ready("The Shadow")
    refused(state, PlayCards(seat=P1, plays=plays(*in_hand(state, P1, named("Draconic Breath")))),
            "ER-6.3")
    zil = character(race="guemelite", spell_type="draconic", affiliation=("zil",))
    other, _, _ = _ready(zil)
    refused(other, PlayCards(seat=P1, plays=plays(*in_hand(other, P1, named("Draconic Breath")))),
            "ER-6.6")
    assert _lost("Kounok", "Draconic Breath", _target(defense=50)) == 5 - 1


def test_er_10_5_a_guemelite_that_is_not_a_mage_never_chains_from_spells():
    """ER-10.5: Kounok (Unknown class) gets no Chain after his Draconic Breath; a Guemelite
    that is a Mage chains after its Spell like any Mage (ER-9.4)."""
    assert named("Kounok").classes == ("unknown",)
    assert not _chains("Kounok", "Draconic Breath")
    assert not _chains("The Shadow", "Shadow Bolt")
    mage = character(race="guemelite", spell_type="fire", classes=("mage",))
    assert _chains(mage, "Flaming Arrow")


def test_er_10_6_a_non_mage_guemelites_spell_keeps_its_physical_attack():
    """ER-10.6: Kounok (Attack 4) casts Draconic Breath (5) at Defense 1, Spirit 1: 4 + 3;
    a pure Mage Guemelite's spell would replace its attack (ER-7.6)."""
    assert _lost("Kounok", "Draconic Breath", _target(defense=1)) == 4 + 3
    mage = character(race="guemelite", spell_type="fire", classes=("mage",), attack=4, hp=30)
    assert _lost(mage, "Flaming Arrow", _target(defense=1)) == 4


def test_er_10_7_a_guemelite_whose_type_has_no_spell_casts_none():
    """ER-10.7: no catalog Spell is of the Water type, so a Water Guemelite holding every
    Spell of the catalog is offered none and each is refused (ER-6.3); it still plays other
    cards."""
    spells = [c for c in CATALOG.cards if c.type == "spell"]
    assert spells and not [c for c in spells if c.spell_type == "water"]
    water = character(race="guemelite", spell_type="water", affiliation=("mercenary",))
    state, _, _ = _ready(water)
    ids = in_hand(state, P1, *spells)
    (parry,) = in_hand(state, P1, named("Parry"))
    offered = {p.card for e in RULES.legal(state) for p in e.plays}
    assert not offered & set(ids) and parry in offered
    for cid in ids:
        target = fighter(state, P2).id
        with pytest.raises(RuleViolation) as err:
            RULES.apply(state, PlayCards(seat=P1, plays=(Play(card=cid, target=target),)))
        assert err.value.rule == "ER-6.3", state.cards[cid].name


# ER-11.1: runes ---------------------------------------------------------------------------------

def test_er_11_1_three_runes_placed_by_runic_legion_cards():
    """ER-11.1: the cards that place runes are Runic Legion cards, so a Kotoba character may
    not play them (ER-6.6) while Yorunn does; only Cor, Nox and Yr exist."""
    placers = [c for c in CATALOG.cards
               if any(isinstance(e, PlaceRune) for line in c.lines for e in line.effects)]
    assert placers and all(c.affiliation == ("runic_legion",) for c in placers)
    assert {e.rune for c in placers for line in c.lines for e in line.effects
            if isinstance(e, PlaceRune)} == {"cor", "nox", "yr"}
    state, _, _ = _ready("Iro")
    refused(state, PlayCards(seat=P1, plays=plays(*in_hand(state, P1, named("Rune of Nox")))),
            "ER-6.6")
    runic, me, _ = _ready("Yorunn")
    _play(runic, *in_hand(runic, P1, named("Rune of Nox")))
    assert runic.fighters[me].runes == ["cor", "nox"]
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"id": "X-1", "name": "Rune of Zed", "type": "action", "act": 6,
                         "lines": [{"effects": [{"do": "place_rune", "rune": "zed"}]}]}, Card)


# ER-12.3: evolution levels ------------------------------------------------------------------------

def test_er_12_3_each_evolution_level_is_its_own_card_of_one_family():
    """ER-12.3: Lightning L1 and L2 are distinct cards (3 and 4 damage in play) of the one
    family "lightning", whose copies a deck counts together (ER-2.11)."""
    l1, l2 = named("Lightning L1"), named("Lightning L2")
    assert l1.id != l2.id and l1.family_id == l2.family_id == "lightning"
    assert _lost("Aku", "Lightning L1", _target(defense=50)) == 3 - 1
    assert _lost("Aku", "Lightning L2", _target(defense=50)) == 4 - 1
    filler = [("Parry", 3), ("Quick Strike", 3), ("Healing Potion", 3), ("Iron Sword", 3),
              ("Leather Armor", 3), ("Wooden Shield", 3), ("Focus", 2)]

    def deck(lightning: list[tuple[str, int]]) -> DeckList:
        return DeckList(name="t", sections={
            "characters": [DeckEntry(card=c, count=1) for c in ("Aez", "Hares the Runic", "Aku")],
            "deck": [DeckEntry(card=c, count=n) for c, n in lightning + filler]})

    assert check_deck(deck([("Lightning L1", 1), ("Lightning L2", 2)])) == []
    assert [r for r, _ in check_deck(deck([("Lightning L1", 2), ("Lightning L2", 2)]))] == [
        "ER-2.11"]
