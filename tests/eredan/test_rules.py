"""Eredan rules beyond the worked examples: every refusal names its rule ID, and each mechanic
(classes, races, runes, items, timings, ignores, scores, deck-out) holds on exact numbers."""
from __future__ import annotations

import pytest

from engine.eredan.cards import ActivateFury, Heal, Line, LoseHP, Modify, PlaceRune
from engine.eredan.stats import hand_target, stats
from engine.ruleset import DeckError, RuleViolation, UnsupportedRule
from events.base import Header, Seat
from events.eredan import (
    ChooseCombatants,
    Discard,
    Initiative,
    Leave,
    Play,
    PlayCards,
    Shuffle,
)
from events.vitorian import EndPhase
from tests.eredan.scenario import (
    P1,
    P2,
    RULES,
    attach,
    card,
    character,
    end_turn,
    fight,
    fighter,
    header,
    in_hand,
    named,
    plays,
    put,
    refused,
    spell,
    started,
    sturdy_lines,
)


def choose(state, attacker: int | None = None, defender: int | None = None) -> tuple[int, int]:
    attacker = attacker or fighter(state, state.active).id
    defender = defender or fighter(state, state.passive).id
    RULES.apply(state, ChooseCombatants(seat=state.active, attacker=attacker, defender=defender))
    return attacker, defender


def submit(state, *cards: int, target: int | None = None) -> None:
    RULES.apply(state, PlayCards(seat=state.active, plays=plays(*cards, target=target)))


def hp(state, fid: int) -> int:
    return state.fighters[fid].hp


# Setup and chance ------------------------------------------------------------------------------

def test_setup_refuses_bad_headers_decks_and_formats():
    """ER-1.1, ER-2.14, ER-3.2."""
    seats = header().seats
    with pytest.raises(RuleViolation) as err:
        RULES.setup(Header(game="eredan", ruleset="eredan@1", match_id="x", seats=seats[:1]))
    assert err.value.rule == "ER-1.1"
    with pytest.raises(UnsupportedRule) as unsupported:
        RULES.setup(header(fmt="vintage"))
    assert unsupported.value.rule == "ER-3.2"
    bad = Seat(seat=0, player="a", setup=type(seats[0].setup)(sections={
        "characters": seats[0].setup.section("characters")[:2], "deck": []}))
    with pytest.raises(DeckError) as deck:
        RULES.setup(Header(game="eredan", ruleset="eredan@1", match_id="x",
                           seats=[bad, seats[1]]))
    assert {rule for rule, _ in deck.value.problems} == {"ER-2.1"}
    assert RULES.setup(header(fmt="open")).format.name == "open"


def test_shuffles_then_initiative_then_decisions():
    """ER-4.2, ER-4.3, ER-4.6."""
    state = RULES.setup(header())
    refused(state, ChooseCombatants(seat=P1, attacker=91, defender=191), "ER-4.2")
    refused(state, Initiative(seat=P1, ticket=0), "ER-4.6")
    refused(state, Shuffle(seat=P2, order=tuple(state.players[P2].deck)), "ER-4.2")
    refused(state, Shuffle(seat=P1, order=(1, 2, 3)), "ER-4.2")
    for seat in (P1, P2):
        RULES.apply(state, Shuffle(seat=seat, order=tuple(reversed(state.players[seat].deck))))
    assert [len(p.hand) for p in state.players] == [5, 5]
    refused(state, Shuffle(seat=P1, order=tuple(state.players[P1].deck)), "ER-4.2")
    refused(state, Initiative(seat=P1, ticket=10), "ER-4.6")
    RULES.apply(state, Initiative(seat=P1, ticket=4))
    assert (state.turn, state.window, RULES.to_move(state)) == (1, "choose", P1)


def test_events_of_another_game_and_after_the_end_are_refused():
    """ER-1.1, ER-1.8, ER-1.9."""
    state = started()
    refused(state, EndPhase(seat=P1), "ER-1.1")
    refused(state, Leave(seat=4), "ER-1.8")
    RULES.apply(state, Leave(seat=P2))
    assert (state.winner, state.reason, state.rule) == (P1, "left", "ER-1.8")
    assert RULES.to_move(state) is None and RULES.legal(state) == []
    refused(state, Leave(seat=P1), "ER-1.9")


def test_a_player_may_leave_at_any_moment_even_during_setup():
    """ER-1.8."""
    state = RULES.setup(header())
    RULES.apply(state, Leave(seat=P1))
    assert RULES.outcome(state).winner == P2


# Phase 1 ---------------------------------------------------------------------------------------

def test_combatants_are_one_own_and_one_opposing_living_untapped_character():
    """ER-5.8, ER-5.9."""
    state = started()
    mine, theirs = fighter(state, P1).id, fighter(state, P2).id
    refused(state, ChooseCombatants(seat=P1, attacker=theirs, defender=mine), "ER-5.8")
    refused(state, ChooseCombatants(seat=P1, attacker=mine, defender=92), "ER-5.8")
    refused(state, ChooseCombatants(seat=P2, attacker=theirs, defender=mine), "ER-5.8")
    refused(state, PlayCards(seat=P1), "ER-5.12")
    state.fighters[theirs].defeated = True
    refused(state, ChooseCombatants(seat=P1, attacker=mine, defender=theirs), "ER-5.9")


# Phase 2: who may play what ---------------------------------------------------------------------

def test_cards_come_from_the_hand_once_and_in_turn():
    """ER-5.12, ER-5.15."""
    state = started()
    choose(state)
    (parry,) = in_hand(state, P1, named("Parry"))
    refused(state, PlayCards(seat=P1, plays=plays(999)), "ER-5.12")
    refused(state, PlayCards(seat=P1, plays=(Play(card=parry), Play(card=parry))), "ER-5.12")
    refused(state, PlayCards(seat=P2), "ER-5.12")
    submit(state, parry)
    assert parry in state.players[P1].hand  # secret until both submitted
    RULES.apply(state, PlayCards(seat=P2))
    assert parry not in state.players[P1].hand


@pytest.mark.parametrize(("user", "card_name", "rule"), [
    ("Iro", "Flaming Arrow", "ER-6.3"),
    ("Kounok", "Flaming Arrow", "ER-6.3"),
    ("Iro", "Healing Light L1", "ER-6.4"),
    ("Aku", "War Axe", "ER-6.5"),
    ("Iro", "Court Intrigue", "ER-6.5"),
    ("Zahal", "Katana", "ER-6.6"),
    ("Iro", "Mercenary Contract", "ER-6.6"),
    ("Aez", "Golem Heart", "ER-6.5"),
])
def test_play_restrictions_name_their_rule(user, card_name, rule):
    """ER-6.3 to ER-6.6."""
    state = started()
    me = put(state, P1, 1, named(user))
    choose(state, me)
    (cid,) = in_hand(state, P1, named(card_name))
    target = fighter(state, P2).id if card_name in ("Fireball",) else None
    refused(state, PlayCards(seat=P1, plays=(Play(card=cid, target=target),)), rule)


@pytest.mark.parametrize(("user", "card_name"), [
    ("Kounok", "Draconic Breath"),  # ER-10.4
    ("The Shadow", "Shadow Bolt"),  # ER-10.4
    ("Ilian the Radiant", "Healing Light L1"),  # ER-9.14
    ("Stonebound", "War Axe"),  # ER-10.2
    ("Stonebound", "Katana"),  # ER-6.6, ER-10.2
    ("Lady Mei", "Court Intrigue"),  # ER-9.9
    ("Aez", "Mercenary Contract"),
    ("Zahal", "War Axe"),  # ER-9.10
    ("Lady Vesper", "Soul Drain"),  # ER-9.16
])
def test_who_may_play(user, card_name):
    state = started()
    me = put(state, P1, 1, named(user))
    choose(state, me)
    in_hand(state, P1, named(card_name))
    event = next(e for e in RULES.legal(state)
                 if e.plays and state.cards[e.plays[0].card] is named(card_name))
    RULES.apply(state, event)


def test_targets_are_checked():
    """ER-7.8: a chosen target is named and valid; ER-7.12: the defeated are out of reach
    except for a return to play."""
    state = started()
    cleric = put(state, P1, 1, named("Amaya"))
    choose(state, cleric)
    fireball, heal, smite = in_hand(state, P1, named("Fireball"), named("Healing Light L1"),
                                    named("Divine Smite"))
    refused(state, PlayCards(seat=P1, plays=(Play(card=fireball),)), "ER-6.3")
    refused(state, PlayCards(seat=P1, plays=(Play(card=heal),)), "ER-7.8")
    refused(state, PlayCards(seat=P1, plays=(Play(card=heal, target=191),)), "ER-7.8")
    refused(state, PlayCards(seat=P1, plays=(Play(card=smite, target=191),)), "ER-7.8")
    state.fighters[92].defeated = True
    refused(state, PlayCards(seat=P1, plays=(Play(card=heal, target=92),)), "ER-7.8")
    (pact,) = in_hand(state, P1, named("Resurrection"))
    refused(state, PlayCards(seat=P1, plays=(Play(card=pact, target=93),)), "ER-7.12")
    RULES.apply(state, PlayCards(seat=P1, plays=(Play(card=pact, target=92),)))


def test_chains_name_their_rules():
    """ER-5.13, ER-5.14, ER-6.7."""
    state = started()
    choose(state)
    quick, parry, sword, cry, potion = in_hand(
        state, P1, named("Quick Strike"), named("Parry"), named("Iron Sword"),
        named("Battle Cry"), named("Healing Potion"))
    refused(state, PlayCards(seat=P1, plays=plays(parry, quick)), "ER-6.7")
    refused(state, PlayCards(seat=P1, plays=plays(quick, sword)), "ER-6.7")
    refused(state, PlayCards(seat=P1, plays=plays(cry, parry, quick)), "ER-5.14")
    RULES.apply(state, PlayCards(seat=P1, plays=plays(cry, potion)))
    chain3 = started()
    choose(chain3)
    cry2, quick2, parry2 = in_hand(chain3, P1, named("Battle Cry"), named("Quick Strike"),
                                   named("Parry"))
    RULES.apply(chain3, PlayCards(seat=P1, plays=plays(cry2, quick2, parry2)))  # card text


@pytest.mark.parametrize(("user", "first", "chains"), [
    ("Aku", "Flaming Arrow", True),  # ER-9.4
    ("Aku", "Meteor Rain", False),  # ER-9.4: Area of Effect
    ("Zahal", "Flaming Arrow", False),  # ER-9.11
    ("Lady Vesper", "Flaming Arrow", False),  # ER-9.16
    ("Arwel", "Flaming Arrow", False),  # ER-9.12
    ("Kounok", "Draconic Breath", False),  # ER-10.5
    ("Iro", "Katana", True),  # ER-9.3
    ("Iro", "Leather Armor", False),  # ER-9.3: not its subtype
    ("Zahal", "Dragon Scale Mail", False),  # ER-9.11
    ("Sylwen", "Wooden Shield", True),  # ER-9.13, ER-9.17: printed
    ("Vael", "Leather Armor", False),  # ER-9.15
])
def test_class_chains(user, first, chains):
    state = started()
    me = put(state, P1, 1, named(user))
    choose(state, me)
    a, b = in_hand(state, P1, named(first), named("Parry"))
    event = PlayCards(seat=P1, plays=plays(a, b))
    if chains:
        RULES.apply(state, event)
    else:
        refused(state, event, "ER-6.7")


def test_item_slots():
    """ER-8.2 to ER-8.4: one Armor; a two-handed Weapon never beside another one."""
    state = started()
    iro = put(state, P1, 1, named("Iro"))
    attach(state, iro, named("Leather Armor"), named("Katana"))
    choose(state, iro)
    armor, axe, jewel = in_hand(state, P1, named("Lacquered Armor"), named("War Axe"),
                                named("Amulet of Vigor"))
    refused(state, PlayCards(seat=P1, plays=plays(armor)), "ER-8.4")
    refused(state, PlayCards(seat=P1, plays=plays(axe)), "ER-8.4")
    RULES.apply(state, PlayCards(seat=P1, plays=plays(jewel)))
    fresh = started()
    iro2 = put(fresh, P1, 1, named("Iro"))
    choose(fresh, iro2)
    sword, katana = in_hand(fresh, P1, named("Katana"), named("Wakisashi"))
    RULES.apply(fresh, PlayCards(seat=P1, plays=plays(sword, katana)))  # ER-9.3 + Dual Wield


def test_artisan_attaches_anywhere_others_to_themselves():
    """ER-8.5, ER-9.8."""
    state = started()
    hanzo = put(state, P1, 1, named("Hanzo the Smith"))
    choose(state, hanzo)
    plate, sword = in_hand(state, P1, named("Forged Plate"), named("Iron Sword"))
    refused(state, PlayCards(seat=P1, plays=(Play(card=sword, receiver=92),)), "ER-8.5")
    refused(state, PlayCards(seat=P1, plays=(Play(card=plate, receiver=777),)), "ER-9.8")
    enemy = fighter(state, P2, 2).id
    RULES.apply(state, PlayCards(seat=P1, plays=(Play(card=plate, receiver=enemy),)))
    RULES.apply(state, PlayCards(seat=P2))
    assert state.fighters[enemy].attachments == [plate]
    assert stats(state, state.fighters[enemy])[1] == named("Aku").defense + 2


# Phase 2 effects and Phase 3 ---------------------------------------------------------------------

def test_fury_once_per_turn_and_keyed_lines_with_default():
    """ER-9.2, ER-6.15: Blood Rage gives a Berserker its Fury (Attack +3), others Attack +1."""
    state = started()
    telendar = put(state, P1, 1, named("Telendar"))
    fury = card("action", Line(effects=(ActivateFury(),)), chain="any")
    a, b = in_hand(state, P1, fury, named("Blood Rage"))
    choose(state, telendar)
    submit(state, a, b)
    RULES.apply(state, PlayCards(seat=P2))
    assert stats(state, state.fighters[telendar])[0] == 5 + 3
    other = started()
    iro = put(other, P1, 1, named("Iro"))
    choose(other, iro)
    submit(other, *in_hand(other, P1, named("Blood Rage")))
    RULES.apply(other, PlayCards(seat=P2))
    assert stats(other, other.fighters[iro])[0] == 5 + 1 + 1  # Turn 1 bonus, default line


def test_golem_reads_the_keyed_lines_of_items():
    """ER-10.2: Stonebound (Mercenary, Unknown) gets the Golem Heart's default line; a Golem
    Warrior would get its Warrior line."""
    state = started()
    golem = put(state, P1, 1, named("Stonebound"))
    attach(state, golem, named("Golem Heart"))
    assert stats(state, state.fighters[golem])[:2] == (4 + 1, 3 + 1)
    warrior = put(state, P1, 2, character(race="golem", classes=("warrior",),
                                          warrior_item="armor", attack=4))
    attach(state, warrior, named("Golem Heart"))
    assert stats(state, state.fighters[warrior])[0] == 4 + 2


def test_combat_turn_and_end_of_combat_effects():
    """ER-6.13, ER-6.14, ER-7.1: a combat effect only in combat, a turn effect every turn, an
    end-of-combat healing after the damage and before the defeat check."""
    state = started()
    sturdy_lines(state)
    bearer, idle = fighter(state, P1, 1).id, fighter(state, P1, 2).id
    attach(state, bearer, named("Fire Salamander"))
    state.fighters[idle].hp = 20
    attach(state, idle, named("Amulet of Vigor"))
    enemy = fighter(state, P2, 1).id
    fight(state, bearer, enemy)
    assert hp(state, enemy) == 29 and hp(state, idle) == 21
    saved = started()
    hero = put(saved, P1, 1, character(attack=0, defense=0, hp=4))
    foe = put(saved, P2, 1, character(attack=5, hp=30))
    fight(saved, hero, foe, active=plays(*in_hand(saved, P1, named("Second Wind"))))
    assert hp(saved, hero) == 3 and not saved.fighters[hero].defeated


def test_spirit_resists_each_card_and_losing_hp_is_not_damage():
    """ER-7.4, ER-7.7, ER-7.13."""
    state = started()
    mage = put(state, P1, 1, character(classes=("mage",), attack=0, hp=30))
    target = put(state, P2, 1, character(attack=0, spirit=2, defense=9, hp=30))
    bolt = spell(3)
    poison = card("action", Line(effects=(LoseHP(amount=3),)))
    a, b = in_hand(state, P1, bolt, poison)
    fight(state, mage, target, active=plays(a, b))
    assert hp(state, target) == 30 - 1 - 3
    assert state.players[P1].damage == 1
    again = started()
    mage2 = put(again, P1, 1, character(classes=("mage",), attack=0, hp=30))
    target2 = put(again, P2, 1, character(attack=0, spirit=2, hp=30))
    twice = card("spell", Line(effects=(LoseHP(amount=0),)), spell_type="x", chain="any")
    ids = in_hand(again, P1, spell(3), twice)
    fight(again, mage2, target2, active=plays(*ids))
    assert hp(again, target2) == 29


def test_hp_stays_between_zero_and_max_and_scores_count_what_really_changed():
    """ER-7.9, ER-7.13."""
    state = started()
    hero = put(state, P1, 1, character(attack=9, hp=30))
    foe = put(state, P2, 1, character(attack=0, defense=0, hp=5))
    state.fighters[hero].hp = 28
    heal = card("action", Line(effects=(Heal(amount=5),)))
    fight(state, hero, foe, active=plays(*in_hand(state, P1, heal)))
    assert hp(state, hero) == 30 and hp(state, foe) == 0
    assert (state.players[P1].damage, state.players[P1].healed) == (5, 2)


def test_an_ignored_card_loses_its_modifiers_but_not_its_moves():
    """ER-6.12: Disrupt (slot 2) ignores the Parry activated in slot 1."""
    state = started()
    hero = put(state, P1, 1, character(attack=0, defense=1, hp=30))
    foe = put(state, P2, 1, character(attack=4, hp=30))
    (parry,) = in_hand(state, P1, named("Parry"))
    (disrupt,) = in_hand(state, P2, named("Disrupt"))
    fight(state, hero, foe, active=plays(parry), passive=plays(disrupt))
    assert hp(state, hero) == 30 - 3
    assert [s.ignored for s in state.slots] == [True, False]
    end_turn(state)
    assert parry in state.players[P1].discard and disrupt in state.players[P2].discard


def test_items_count_this_turn_stay_and_are_lost_at_defeat():
    """ER-6.16, ER-7.12, ER-8.6."""
    state = started()
    hero = put(state, P1, 1, character(attack=3, hp=30))
    foe = put(state, P2, 1, character(attack=40, defense=1, hp=30))
    (sword,) = in_hand(state, P1, named("Iron Sword"))
    fight(state, hero, foe, active=plays(sword))
    assert hp(state, foe) == 30 - 3
    assert state.fighters[hero].defeated and state.players[P1].discard == [sword]


def test_resurrection_returns_a_fresh_character():
    """ER-7.12: untapped, the stated HP, starting runes, nothing attached."""
    state = started()
    cleric = put(state, P1, 1, named("Amaya"))
    fallen = put(state, P1, 2, character(hp=20, rune_capacity=2, starting_runes=("cor",)))
    state.fighters[fallen].hp, state.fighters[fallen].defeated = 0, True
    state.fighters[fallen].runes, state.fighters[fallen].tapped = [], True
    (pact,) = in_hand(state, P1, named("Resurrection"))
    choose(state, cleric)
    RULES.apply(state, PlayCards(seat=P1, plays=(Play(card=pact, target=fallen),)))
    RULES.apply(state, PlayCards(seat=P2))
    back = state.fighters[fallen]
    assert (back.defeated, back.tapped, back.hp, back.runes) == (False, False, 6, ["cor"])


def test_rune_lines_need_their_rune_in_printed_order():
    """ER-11.4, ER-11.5: no rune, no line; the rest of the card still resolves."""
    state = started()
    hero = put(state, P1, 1, character(attack=2, hp=30, rune_capacity=3,
                                       starting_runes=("yr",)))
    both = card("action", Line(effects=(Modify(attack=1),)),
                Line(key="rune:nox", effects=(Modify(attack=5),)),
                Line(key="rune:yr", effects=(Modify(defense=2),)),
                Line(key="rune:yr", effects=(Modify(defense=7),)),
                Line(effects=(PlaceRune(rune="nox"),)))
    fight(state, hero, fighter(state, P2).id, active=plays(*in_hand(state, P1, both)))
    assert stats(state, state.fighters[hero])[:2] == (3, 1 + 2)
    assert state.fighters[hero].runes == ["nox"]


def test_an_area_spell_hits_every_opposing_character():
    """ER-7.8."""
    state = started()
    sturdy_lines(state)
    mage = put(state, P1, 1, character(classes=("mage",), attack=0, hp=30))
    fight(state, mage, fighter(state, P2).id, active=plays(*in_hand(state, P1, spell(
        3, area=True, target="all_enemies"))))
    assert [hp(state, fighter(state, P2, i).id) for i in (1, 2, 3)] == [28, 28, 28]


# Turn start and end ------------------------------------------------------------------------------

def test_hand_target_grows_with_cards_in_play_but_never_past_eight():
    """ER-5.5, ER-5.19, ER-5.20."""
    state = started()
    assert hand_target(state, P1) == 5
    attach(state, fighter(state, P1).id, *[named("Traveler's Satchel")] * 4)
    assert hand_target(state, P1) == 8
    for _ in range(2):
        attach(state, fighter(state, P1, 2).id, named("Traveler's Satchel"))
    assert hand_target(state, P1) == 8
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    end_turn(state)
    assert len(state.players[P1].hand) == 8


def test_a_full_hand_draws_nothing_even_from_an_empty_deck():
    """ER-5.6."""
    state = started()
    sturdy_lines(state)
    state.players[P1].deck.clear()
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    end_turn(state)
    assert not state.players[P1].deck_out and not state.over


def test_both_decked_is_a_draw_and_elimination_beats_deck_out():
    """ER-1.7, ER-1.11."""
    state = started()
    sturdy_lines(state)
    for player in state.players:
        player.discard += player.deck
        player.deck.clear()
        player.hand.pop()
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    end_turn(state)
    assert all(p.deck_out for p in state.players)
    fight(state, fighter(state, P2, 2).id, fighter(state, P1, 2).id)
    end_turn(state)
    assert (state.over, state.winner, state.rule) == (True, None, "ER-1.7")
    rescue = started()
    for position in (2, 3):
        put(rescue, P2, position, character(hp=1))
        rescue.fighters[190 + position].defeated = True
    rescue.players[P1].deck.clear()
    rescue.players[P1].hand.pop()
    killer = put(rescue, P1, 1, character(attack=50, hp=30))
    fight(rescue, killer, fighter(rescue, P2).id)
    assert (rescue.over, rescue.winner, rescue.rule) == (True, P1, "ER-1.2")


def test_start_of_turn_effects_after_the_refill():
    """ER-5.7: the Sun Amulet heals at the start of each turn."""
    state = started()
    sturdy_lines(state)
    bearer = fighter(state, P2, 3).id
    state.fighters[bearer].hp = 20
    attach(state, bearer, named("Sun Amulet"))
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    end_turn(state)
    assert hp(state, bearer) == 21


def test_discards_are_secret_until_both_chose():
    """Hidden information: Phase 5."""
    state = started()
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    card_id = state.players[P1].hand[0]
    refused(state, Discard(seat=P1, cards=(555,)), "ER-5.18")
    refused(state, Discard(seat=P2), "ER-5.18")
    RULES.apply(state, Discard(seat=P1, cards=(card_id,)))
    assert RULES.view(state, P2)["seats"][P1]["discarding"] is None
    assert RULES.view(state, P1)["seats"][P1]["discarding"] == [card_id]
    assert card_id in state.players[P1].hand
    RULES.apply(state, Discard(seat=P2))
    assert state.players[P1].discard == [card_id]


def test_statistics_for_experience():
    """ER-12.2: played, combats, damage, healing, defeats per card, public."""
    state = started()
    hero = put(state, P1, 1, character(attack=6, hp=30))
    foe = put(state, P2, 1, character(attack=0, defense=1, hp=5))
    (potion,) = in_hand(state, P1, named("Healing Potion"))
    state.fighters[hero].hp = 27
    fight(state, hero, foe, active=plays(potion))
    rows = {row["id"]: row for row in RULES.view(state, "spectator")["statistics"]}
    assert (rows[hero]["combats"], rows[hero]["damage"]) == (1, 5)
    assert (rows[potion]["played"], rows[potion]["healing"]) == (1, 3)
    assert rows[foe]["defeats"] == 1


def test_the_turn_cap_ends_a_stalled_match_as_a_draw():
    """Not an ER- rule: the engine's safety stop, named as such."""
    from engine.eredan.flow import TURN_CAP, TURN_CAP_RULE

    state = started()
    sturdy_lines(state)
    state.turn = TURN_CAP
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    end_turn(state)
    assert (state.over, state.winner, state.reason, state.rule) == (
        True, None, "turn_cap", TURN_CAP_RULE)


def test_a_line_whose_last_ready_character_falls_at_the_start_of_the_turn_untaps():
    """ER-5.4, ER-5.7: start-of-turn effects come before Phase 1, so the untap is checked again
    after their defeat check."""
    state = started()
    sturdy_lines(state)
    doom = card("item", Line(when="start_of_turn", effects=(LoseHP(amount=99, target="user"),)),
                subtype="jewel")
    ready = fighter(state, P2, 3).id
    attach(state, ready, doom)
    state.fighters[fighter(state, P2, 2).id].tapped = True
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    end_turn(state)
    assert state.fighters[ready].defeated
    assert not any(f.tapped for f in state.living(P2))
    assert RULES.legal(state)


def test_a_pure_mage_whose_spell_is_ignored_still_makes_no_attack():
    """ER-7.6 [decision], ER-6.12: Magic Shield (slot 1) ignores the passive Mage's Arrow
    before it activates; the Mage still makes no physical attack."""
    state = started()
    shielder = put(state, P1, 1, character(classes=("mage",), attack=0, defense=0, hp=30))
    mage = put(state, P2, 1, character(classes=("mage",), attack=5, hp=30))
    (shield,) = in_hand(state, P1, named("Magic Shield"))
    (arrow,) = in_hand(state, P2, named("Flaming Arrow"))
    fight(state, shielder, mage, active=plays(shield), passive=plays(arrow))
    assert hp(state, shielder) == 30
    assert [(s.activated, s.ignored) for s in state.slots] == [(True, False), (False, True)]


def test_several_turn_bonuses_of_the_same_turn_all_apply():
    """ER-5.10: every line of the Order whose N is the turn counter."""
    from engine.eredan.cards import OrderLine

    state = started()
    hero = put(state, P1, 1, character(attack=3, defense=1, spirit=0, hp=30, order=(
        OrderLine(turn=1, attack=1), OrderLine(turn=1, spirit=2), OrderLine(turn=2, defense=5))))
    choose(state, hero)
    assert stats(state, state.fighters[hero]) == (4, 1, 2)
