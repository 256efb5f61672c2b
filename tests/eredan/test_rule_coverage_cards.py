"""Rule coverage, cards and decks: affiliations (ER-2.3), charges (ER-3.1, ER-3.6, ER-3.7),
who plays a card and with what (ER-6.1, ER-6.2, ER-6.4, ER-6.5), cards put into play by
cards (ER-6.8), Item subtypes (ER-8.1) and Golem decks (ER-10.3). Each test applies the rule
through the engine and asserts its consequence, or its refusal naming the rule."""
from __future__ import annotations

import msgspec
import pytest

from engine.eredan.cards import Card, Character
from engine.eredan.changes import Activated, MagicDamage, Pulled, Revealed
from engine.eredan.charges import ChargeTable, catalog_table
from engine.eredan.deckcheck import check_deck
from engine.eredan.rules import EredanRules
from engine.eredan.stats import stats
from engine.ruleset import DeckError
from events.base import DeckEntry, DeckList
from events.eredan import ChooseCombatants, Discard, Initiative, Play, PlayCards, Shuffle
from tests.eredan.scenario import (
    CATALOG,
    P1,
    P2,
    RULES,
    card,
    character,
    end_turn,
    fighter,
    header,
    in_hand,
    named,
    on_top,
    plays,
    put,
    refused,
    started,
    sturdy_lines,
)


def _choose(state, attacker: int, defender: int | None = None) -> None:
    defender = defender or fighter(state, state.passive).id
    RULES.apply(state, ChooseCombatants(seat=state.active, attacker=attacker, defender=defender))


def _deck(characters: list[str], cards: list[tuple[str, int]]) -> DeckList:
    return DeckList(name="test", sections={
        "characters": [DeckEntry(card=c, count=1) for c in characters],
        "deck": [DeckEntry(card=c, count=n) for c, n in cards]})


NEUTRAL = [("Parry", 3), ("Quick Strike", 3), ("Healing Potion", 3), ("Iron Sword", 3),
           ("Leather Armor", 3), ("Wooden Shield", 3), ("Focus", 2)]
"""20 cards affiliated with nothing."""


# ER-2.3: affiliations ------------------------------------------------------------------------------

def test_er_2_3_characters_have_guilds_or_mercenary_and_cards_may_be_neutral():
    """ER-2.3: a character without affiliation, a Mercenary with a guild and a card of both a
    guild and the Mercenaries are refused naming ER-2.3; a card of no affiliation (neutral)
    goes in a guild deck and a Mercenaries-only deck alike, and any character plays it."""
    stats_ = {"attack": 1, "defense": 1, "spirit": 1, "hp": 10, "race": "human", "act": 6,
              "classes": ("warrior",), "warrior_item": "weapon"}
    with pytest.raises(ValueError, match=r"ER-2\.3"):
        Character(id="X-C1", name="Nobody", affiliation=(), **stats_)
    with pytest.raises(ValueError, match=r"ER-2\.3"):
        Character(id="X-C2", name="Turncoat", affiliation=("mercenary", "kotoba"), **stats_)
    with pytest.raises(ValueError, match=r"ER-2\.3"):
        Card(id="X-1", name="Both", type="action", act=6, affiliation=("mercenary", "kotoba"))
    assert named("Parry").affiliation == ()
    assert check_deck(_deck(["Aez", "Iro", "Amaya"], NEUTRAL)) == []
    assert check_deck(_deck(["Aez", "Hares the Runic", "Kael the Wanderer"], NEUTRAL)) == []
    for user in ("Iro", "Aez", "Zahal"):
        state = started()
        me = put(state, P1, 1, named(user))
        _choose(state, me)
        (parry,) = in_hand(state, P1, named("Parry"))
        out = fight_cards(state, plays(parry))
        assert Activated(seat=P1, card=parry) in out, user


# ER-3: charges -------------------------------------------------------------------------------

def test_er_3_1_every_card_and_character_has_a_numeric_charge():
    """ER-3.1: in every table version each card, characters included, has a charge, and the
    deck's charge the engine records at setup is the sum over every copy of them."""
    for version in CATALOG.charge_versions:
        table = catalog_table(version, CATALOG)
        for printed in (*CATALOG.characters, *CATALOG.cards):
            value = table.charge(printed, CATALOG)
            assert isinstance(value, int) and value >= 0 and value == printed.charges[version]
    table = catalog_table(CATALOG.charge_versions[-1], CATALOG)
    state = RULES.setup(header(), charges=table)
    for seat in (P1, P2):
        setup = header().seats[seat].setup
        expected = sum(named(e.card).charges[table.version] * e.count
                       for section in setup.sections.values() for e in section)
        assert state.players[seat].charge == expected
    characters = {e.card for e in header().seats[P1].setup.section("characters")}
    heavier = ChargeTable(version="heavier", charges=table.charges | {
        named(c).id: named(c).charges[table.version] + 1 for c in characters})
    assert RULES.setup(header(), charges=heavier).players[P1].charge == \
        state.players[P1].charge + 3


def test_er_3_6_the_table_in_force_at_the_start_is_recorded_and_not_rechecked():
    """ER-3.6: the deck is checked once, against the table the provider gives when the match
    starts; its version is recorded, and a later (stricter) table changes nothing in the
    match in progress."""
    calls: list[str] = []
    tables = {"now": ChargeTable(version="epoch-1", charges={}),
              "later": ChargeTable(version="epoch-2", charges={named("Iro").id: 900})}

    def provider(head):
        calls.append(head.match_id)
        return tables["now"]

    rules = EredanRules(charge_tables=provider, version=1)
    state = rules.setup(header())
    assert state.charge_version == "epoch-1" and calls == ["scenario"]
    assert RULES.view(state, "spectator")["charge_table"] == "epoch-1"
    tables["now"] = tables["later"]  # the table in force changes during the match
    with pytest.raises(DeckError) as err:
        rules.setup(header())
    assert err.value.problems[0][0] == "ER-3.3"
    for seat in (P1, P2):
        rules.apply(state, Shuffle(seat=seat, order=tuple(state.players[seat].deck)))
    rules.apply(state, Initiative(seat=P1, ticket=0))
    sturdy_lines(state)
    while state.turn < 3:
        rules.apply(state, rules.legal(state)[0])
    assert state.turn == 3 and not state.over and state.charge_version == "epoch-1"
    assert calls == ["scenario", "scenario"]


def test_er_3_7_the_charge_table_is_public_to_every_perspective():
    """ER-3.7: in the standard format the charge table in force is named to both seats and to
    spectators, each card's value is readable from that public table, and each seat is shown
    its own deck's charge, computed from those public values."""
    table = catalog_table(CATALOG.charge_versions[0], CATALOG)
    state = RULES.setup(header(), charges=table)
    assert state.format.name == "standard"
    for who in (P1, P2, "spectator", "organiser"):
        assert RULES.view(state, who)["charge_table"] == table.version
    assert table.charge(named("Katana"), CATALOG) == named("Katana").charges[table.version]
    for seat in (P1, P2):
        mine = RULES.view(state, seat)["seats"][seat]
        assert mine["deck_charge"] == state.players[seat].charge > 0


# ER-6.1 to ER-6.5: who plays what ---------------------------------------------------------------

def test_er_6_1_a_card_is_played_with_the_combatant_its_user():
    """ER-6.1: the combatant is the user: Parry's +2 Defense goes to it, and the restriction
    is checked against it: with Aez fighting, a Theurgy is refused although the Cleric Amaya
    stands on the same line."""
    state = started()
    aez = put(state, P1, 1, named("Aez"))
    amaya = put(state, P1, 2, named("Amaya"))
    foe = fighter(state, P2).id
    _choose(state, aez, foe)
    smite, parry = in_hand(state, P1, named("Divine Smite"), named("Parry"))
    refused(state, PlayCards(seat=P1, plays=plays(smite)), "ER-6.4")
    RULES.apply(state, PlayCards(seat=P1, plays=plays(parry)))
    (quick,) = in_hand(state, P2, named("Quick Strike"))
    out = RULES.apply(state, PlayCards(seat=P2, plays=plays(quick)))
    users = {c.card: c.user for c in out if isinstance(c, Revealed)}
    assert users == {parry: aez, quick: foe}
    assert stats(state, state.fighters[aez])[1] == named("Aez").defense + 2
    assert stats(state, state.fighters[amaya])[1] == named("Amaya").defense


@pytest.mark.parametrize("user", ["Iro", "Amaya", "Aku", "Stonebound", "Lady Mei", "Kounok",
                                  "Telendar", "Hanzo the Smith"])
def test_er_6_2_any_character_plays_an_unrestricted_action(user):
    """ER-6.2: Parry, an Action without restriction, is legal for every class, caste and race,
    and activates for its user."""
    state = started()
    me = put(state, P1, 1, named(user))
    _choose(state, me)
    (parry,) = in_hand(state, P1, named("Parry"))
    assert PlayCards(seat=P1, plays=(Play(card=parry),)) in RULES.legal(state)
    out = fight_cards(state, plays(parry))
    assert Activated(seat=P1, card=parry) in out


def test_er_6_2_an_action_whose_text_restricts_it_is_refused_to_others():
    """ER-6.2: "unless its text restricts it": a Mage-only Action is refused to a Warrior
    (the printed restriction, ER-6.5) and played by a Mage."""
    mage_only = card("action", requires_classes=("mage",))
    state = started()
    _choose(state, put(state, P1, 1, named("Iro")))
    refused(state, PlayCards(seat=P1, plays=plays(*in_hand(state, P1, mage_only))), "ER-6.5")
    other = started()
    _choose(other, put(other, P1, 1, named("Aku")))
    RULES.apply(other, PlayCards(seat=P1, plays=plays(*in_hand(other, P1, mage_only))))


def fight_cards(state, active: tuple[Play, ...]) -> list:
    out = RULES.apply(state, PlayCards(seat=state.active, plays=active))
    return out + RULES.apply(state, PlayCards(seat=state.passive))


@pytest.mark.parametrize(("user", "legal"), [
    ("Iro", False), ("Aku", False), ("Aez", False),
    ("Amaya", True), ("Ilian the Radiant", True), ("Lady Vesper", True), ("Vael", True)])
def test_er_6_4_only_clerics_play_theurgies(user, legal):
    """ER-6.4: Divine Smite (3 damage) is refused to a non-Cleric naming ER-6.4; Clerics and
    multiclass Clerics play it and it deals its damage."""
    state = started()
    me = put(state, P1, 1, named(user))
    foe = put(state, P2, 1, character(attack=0, spirit=0, defense=50, hp=30))
    _choose(state, me, foe)
    (smite,) = in_hand(state, P1, named("Divine Smite"))
    if not legal:
        refused(state, PlayCards(seat=P1, plays=plays(smite)), "ER-6.4")
        return
    fight_cards(state, plays(smite))
    assert state.fighters[foe].hp == 30 - 3


def test_er_6_5_items_and_pets_follow_their_printed_restrictions_golems_ignore_items():
    """ER-6.5: War Axe (Warriors/Berserkers) is refused to the Mage Aku and played by Iro;
    Golem Heart (Golems) is refused to Aez and played by Stonebound; a Pet for Elfines only is
    refused to a Human and played by an Elfine."""
    for user, item, rule in (("Aku", "War Axe", "ER-6.5"), ("Iro", "War Axe", None),
                             ("Aez", "Golem Heart", "ER-6.5"), ("Stonebound", "Golem Heart",
                                                                None)):
        state = started()
        me = put(state, P1, 1, named(user))
        _choose(state, me)
        (cid,) = in_hand(state, P1, named(item))
        if rule:
            refused(state, PlayCards(seat=P1, plays=plays(cid)), rule)
        else:
            fight_cards(state, plays(cid))
            assert state.fighters[me].attachments == [cid], user
    elfine_pet = card("pet", requires_races=("elfine",))
    human = started()
    _choose(human, put(human, P1, 1, character(race="human")))
    refused(human, PlayCards(seat=P1, plays=plays(*in_hand(human, P1, elfine_pet))), "ER-6.5")
    elf = started()
    me = put(elf, P1, 1, character(race="elfine"))
    _choose(elf, me)
    (pet,) = in_hand(elf, P1, elfine_pet)
    fight_cards(elf, plays(pet))
    assert elf.fighters[me].attachments == [pet]


# ER-6.8: cards put into play by cards ----------------------------------------------------------

def test_er_6_8_a_pulled_card_has_the_same_user_comes_next_and_takes_no_slot():
    """ER-6.8: Iro (no Mage) plays Battle Cry then Hungry Void, the passive player Battle Cry
    then Parry. The Void's Flaming Arrow from Iro's deck is used by Iro although he could not
    play a Spell, activates right after the Void and before the passive player's second card,
    is a third card of Iro's turn beyond ER-5.14, and goes to its owner's discard pile."""
    state = started()
    iro = fighter(state, P1).id
    foe = put(state, P2, 1, character(attack=0, defense=9, spirit=1, hp=30))
    (arrow,) = on_top(state, P1, named("Flaming Arrow"))
    cry, void = in_hand(state, P1, named("Battle Cry"), named("Hungry Void"))
    cry2, parry = in_hand(state, P2, named("Battle Cry"), named("Parry"))
    _choose(state, iro, foe)
    (lone,) = in_hand(state, P1, named("Lightning L1"))
    refused(state, PlayCards(seat=P1, plays=plays(lone)), "ER-6.3")
    state.players[P1].hand.remove(lone)
    RULES.apply(state, PlayCards(seat=P1, plays=plays(cry, void)))
    out = RULES.apply(state, PlayCards(seat=P2, plays=plays(cry2, parry)))
    assert [c.card for c in out if isinstance(c, Activated)] == [cry, cry2, void, arrow, parry]
    assert Pulled(seat=P1, card=arrow, source=void) in out
    pulled = next(s for s in state.slots if s.pulled)
    assert (pulled.card, pulled.user, pulled.seat) == (arrow, iro, P1)
    assert [c.hp for c in out if isinstance(c, MagicDamage) and c.source == arrow] == [5 - 1]
    assert arrow not in state.players[P1].deck
    end_turn(state)
    assert arrow in state.players[P1].discard


# ER-8.1: Item subtypes ---------------------------------------------------------------------------

def test_er_8_1_the_six_item_subtypes_and_no_other():
    """ER-8.1: an Item of each subtype is played as an Item (Weapon, Armor, Shield and Jewel
    stay attached, Scroll and Potion are used up, ER-6.16); a subtype outside the list is
    refused when the catalog is decoded."""
    items = {"weapon": "Iron Sword", "armor": "Leather Armor", "shield": "Wooden Shield",
             "jewel": "Amulet of Vigor", "scroll": "Scroll of Wisdom", "potion": "Healing Potion"}
    for subtype, name in items.items():
        state = started()
        me = put(state, P1, 1, named("Aez"))
        _choose(state, me)
        (cid,) = in_hand(state, P1, named(name))
        assert (state.cards[cid].type, state.cards[cid].subtype) == ("item", subtype)
        fight_cards(state, plays(cid))
        stays = subtype not in ("scroll", "potion")
        assert (cid in state.fighters[me].attachments) == stays, subtype
        RULES.apply(state, Discard(seat=P1, cards=tuple(state.players[P1].hand[5:])))
        RULES.apply(state, Discard(seat=P2))
        assert (cid in state.players[P1].discard) == (not stays), subtype
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"id": "X-9", "name": "Ring", "type": "item", "subtype": "ring",
                         "act": 6}, Card)


# ER-10.3: Golem decks ------------------------------------------------------------------------------

def test_er_10_3_a_golem_deck_holds_items_of_any_guild_and_plays_them():
    """ER-10.3 (through ER-2.9): with Stonebound in the line a Noz'Dingard deck may hold the
    Kotoba Katana, the match starts, and the Golem plays it; without the Golem the same deck
    is refused under ER-2.7, and a non-Item of another guild stays refused."""
    cards = [("Katana", 2)] + NEUTRAL[:-1] + [("Focus", 1)]
    golem = _deck(["Stonebound", "Aez", "Zahal"], cards)
    assert check_deck(golem) == []
    assert [r for r, _ in check_deck(_deck(["Hares the Runic", "Aez", "Zahal"], cards))] == [
        "ER-2.7"]
    assert [r for r, _ in check_deck(_deck(["Stonebound", "Aez", "Zahal"],
                                           [("Shuriken", 1)] + NEUTRAL))] == ["ER-2.7"]
    state = RULES.setup(header(deck0=golem))
    for seat in (P1, P2):
        RULES.apply(state, Shuffle(seat=seat, order=tuple(state.players[seat].deck)))
    RULES.apply(state, Initiative(seat=P1, ticket=0))
    stonebound = next(f.id for f in state.line(P1) if f.card.name == "Stonebound")
    katana = next(c for c in state.players[P1].hand + state.players[P1].deck
                  if state.cards[c].name == "Katana")
    if katana not in state.players[P1].hand:
        state.players[P1].deck.remove(katana)
        state.players[P1].hand.append(katana)
    _choose(state, stonebound)
    fight_cards(state, plays(katana))
    assert state.fighters[stonebound].attachments == [katana]
