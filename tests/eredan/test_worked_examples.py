"""Every worked example of the Eredan spec (EX-5 to EX-22) on the numbers it states; the deck
building examples (EX-1 to EX-4, EX-11, EX-23) are in test_deckcheck.py."""
from __future__ import annotations

import pytest

from engine.eredan.cards import ActivateOrder, Damage, Draw, Line, Modify, OrderLine, PlaceRune
from engine.eredan.changes import Activated, MagicDamage, PhysicalDamage
from engine.eredan.charges import ChargeTable
from engine.eredan.rules import EredanRules, ticket_owner
from engine.eredan.stats import stats
from engine.ruleset import DeckError
from events.eredan import ChooseCombatants, Discard, Initiative, Play, PlayCards, Shuffle
from tests.eredan.scenario import (
    P1,
    P2,
    RULES,
    advance,
    attach,
    card,
    character,
    end_turn,
    fight,
    fighter,
    header,
    in_hand,
    modify,
    named,
    on_top,
    plays,
    put,
    refused,
    spell,
    started,
    sturdy_lines,
)


def _attack(state, fid: int) -> int:
    return stats(state, state.fighters[fid])[0]


def test_ex_5_turn_bonus_applies_only_on_its_turn():
    """ER-5.10: "Turn 2: Attack +1", Attack 4: 5 when chosen on turn 2, 4 on turn 3."""
    bonus = character(attack=4, hp=30, order=(OrderLine(turn=2, attack=1),))
    state = started()
    sturdy_lines(state)
    hero = put(state, P1, 2, bonus)
    advance(state, 1)
    assert state.turn == 2 and state.active == P2
    RULES.apply(state, ChooseCombatants(seat=P2, attacker=fighter(state, P2, 2).id,
                                        defender=hero))
    assert _attack(state, hero) == 5
    late = started()
    sturdy_lines(late)
    other = put(late, P1, 3, bonus)
    advance(late, 2)
    assert late.turn == 3
    RULES.apply(late, ChooseCombatants(seat=P1, attacker=other,
                                       defender=fighter(late, P2, 3).id))
    assert _attack(late, other) == 4


def test_ex_6_an_activated_order_gives_every_line():
    """ER-5.11: Turn 2 Attack +1 and Turn 8 Defense +1, Order activated on turn 5: both."""
    state = started()
    sturdy_lines(state)
    hero = put(state, P1, 3, character(attack=4, defense=1, hp=30, order=(
        OrderLine(turn=2, attack=1), OrderLine(turn=8, defense=1))))
    advance(state, 4)
    assert state.turn == 5 and state.active == P1
    call = in_hand(state, P1, card("action", Line(effects=(ActivateOrder(),))))
    choice = next(e for e in RULES.legal(state) if e.attacker == hero)
    fight(state, hero, choice.defender, active=plays(*call))
    attack, defense, _ = stats(state, state.fighters[hero])
    assert (attack, defense) == (5, 2)


def test_ex_7_aku_flaming_arrow_at_aez_takes_four():
    """ER-7.4, ER-7.5: 5 damage against Spirit 1; Aku's spell replaces his attack (ER-7.6)."""
    state = started()
    aku = put(state, P1, 1, named("Aku"))
    aez = put(state, P2, 1, named("Aez"))
    assert (named("Aez").defense, named("Aez").spirit) == (3, 1)
    arrow = in_hand(state, P1, named("Flaming Arrow"))
    changes = fight(state, aku, aez, active=plays(*arrow))
    assert state.fighters[aez].hp == named("Aez").hp - 4
    assert [(c.source, c.hp) for c in changes
            if isinstance(c, MagicDamage) and c.character == aez] == [(arrow[0], 4)]
    assert not [c for c in changes if c.kind == "physical" and c.seat == P1]


def test_ex_8_activation_follows_an_n():
    """ER-5.16: A1 (Chain) + A2 against P1 activates A1, P1, A2."""
    state = started()
    a1, a2 = in_hand(state, P1, named("Quick Strike"), named("Parry"))
    (p1,) = in_hand(state, P2, named("Parry"))
    changes = fight(state, fighter(state, P1).id, fighter(state, P2).id,
                    active=plays(a1, a2), passive=plays(p1))
    assert [c.card for c in changes if isinstance(c, Activated)] == [a1, p1, a2]


def _shield_and_void(active_shield: bool) -> tuple[object, int, int]:
    """EX-9 set-up: a Mage with Magic Shield on one side, Hungry Void on the other side pulling
    the Flaming Arrow from its own deck. Nobody has Attack, so only the Arrow can hurt."""
    state = started()
    mage = character(classes=("mage",), attack=0, spirit=1, hp=30)
    void_user = character(attack=0, spirit=1, hp=30)
    shield_seat = P1 if active_shield else P2
    void_seat = 1 - shield_seat
    shield_user = put(state, shield_seat, 1, mage)
    void_char = put(state, void_seat, 1, void_user)
    (shield,) = in_hand(state, shield_seat, named("Magic Shield"))
    (void,) = in_hand(state, void_seat, named("Hungry Void"))
    on_top(state, void_seat, named("Flaming Arrow"))
    attacker, defender = (shield_user, void_char) if active_shield else (void_char, shield_user)
    mine, theirs = plays(shield), plays(void)
    fight(state, attacker, defender, *((mine, theirs) if active_shield else (theirs, mine)))
    return state, shield_user, void_char


def test_ex_9_magic_shield_before_the_void_does_not_ignore_the_pulled_spell():
    """ER-6.10, ER-6.11: the Arrow appeared after the Shield activated: 5 - Spirit 1 = 4."""
    state, shield_user, _ = _shield_and_void(active_shield=True)
    assert state.fighters[shield_user].hp == 30 - 4
    arrow = next(s for s in state.slots if s.pulled)
    assert arrow.activated and not arrow.ignored


def test_ex_9_magic_shield_after_the_void_ignores_the_pulled_spell():
    """ER-6.10 to ER-6.12: the Arrow appeared before the Shield: ignored, damage cancelled."""
    state, shield_user, _ = _shield_and_void(active_shield=False)
    assert state.fighters[shield_user].hp == 30
    arrow = next(s for s in state.slots if s.pulled)
    assert arrow.activated and arrow.ignored
    assert not state.pendings


def test_ex_10_initiative_tickets():
    """ER-4.5, ER-4.6: 5 vs 5 is 1/2 each; a bonus ticket makes it 6/11."""
    state = RULES.setup(header())
    assert [p.tickets for p in state.players] == [5, 5]
    assert [ticket_owner(state, t) for t in range(10)].count(P1) == 5
    mei = named("Lady Mei")
    assert mei.initiative_bonus == 1
    deck = header().seats[0].setup
    with_mei = type(deck)(name="mei", sections={
        "characters": [type(e)(card=mei.id, count=1) if e.card == named("Amaya").id else e
                       for e in deck.section("characters")],
        "deck": deck.section("deck")})
    state = RULES.setup(header(deck0=with_mei))
    assert [p.tickets for p in state.players] == [6, 5]
    owners = [ticket_owner(state, t) for t in range(11)]
    assert owners.count(P1) == 6 and owners.count(P2) == 5
    for seat in (0, 1):
        RULES.apply(state, Shuffle(seat=seat, order=tuple(state.players[seat].deck)))
    refused(state, Initiative(seat=P2, ticket=5), "ER-4.6")
    RULES.apply(state, Initiative(seat=P2, ticket=6))
    assert (state.first, state.active, state.turn) == (P2, P2, 1)


def test_ex_11_charge_cap_501_refused_500_accepted():
    """ER-2.13, ER-3.3: the deck's charge (characters included) against the table given."""
    iro = named("Iro").id
    good, bad = (ChargeTable(version=f"t{n}", charges={iro: n}) for n in (500, 501))
    RULES.setup(header(), charges=good)
    with pytest.raises(DeckError) as err:
        RULES.setup(header(), charges=bad)
    assert err.value.problems[0][0] == "ER-3.3"
    bound = EredanRules(charge_tables=lambda h: bad)
    with pytest.raises(DeckError):
        bound.setup(header())
    state = EredanRules(charge_tables=lambda h: good).setup(header())
    assert state.charge_version == "t500" and state.players[0].charge == 500


def test_ex_12_hand_of_seven_discards_two_and_a_draw_at_eight_draws_nothing():
    """ER-5.19: 7 cards at Phase 5 -> discard 2. ER-5.20: a draw with 8 in hand draws none."""
    state = started()
    extra = in_hand(state, P1, named("Parry"), named("Parry"))
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    assert len(state.players[P1].hand) == 7
    refused(state, Discard(seat=P1, cards=(extra[0],)), "ER-5.19")
    assert all(len(e.cards) == 2 for e in RULES.legal(state))
    RULES.apply(state, Discard(seat=P1, cards=tuple(extra)))
    RULES.apply(state, Discard(seat=P2))
    assert len(state.players[P1].hand) == 5 and state.players[P1].discard == extra
    full = started()
    in_hand(full, P1, *[named("Parry")] * 3)
    (study,) = in_hand(full, P1, card("action", Line(effects=(Draw(count=2),))))
    deck = len(full.players[P1].deck)
    fight(full, fighter(full, P1).id, fighter(full, P2).id, active=plays(study))
    assert len(full.players[P1].hand) == 8 and len(full.players[P1].deck) == deck


def test_ex_13_damage_is_simultaneous():
    """ER-7.2, ER-7.3: A6/D1/HP3 against A5/D2/HP4: both lose 4 (HP 0) and both fall."""
    state = started()
    a = put(state, P1, 1, character(attack=6, defense=1, hp=3))
    d = put(state, P2, 1, character(attack=5, defense=2, hp=4))
    changes = fight(state, a, d)
    assert [(c.character, c.hp) for c in changes if isinstance(c, PhysicalDamage)] == [
        (d, 4), (a, 3)]
    assert state.fighters[a].defeated and state.fighters[d].defeated
    assert not state.over


def test_ex_14_tapped_characters_wait_until_the_whole_line_is_tapped():
    """ER-5.4, ER-5.9, ER-5.17."""
    state = started()
    sturdy_lines(state)
    a1, a2, a3 = (fighter(state, P1, i).id for i in (1, 2, 3))
    b1, b2, b3 = (fighter(state, P2, i).id for i in (1, 2, 3))
    fight(state, a1, b1)
    end_turn(state)
    fight(state, b2, a2)
    end_turn(state)
    assert RULES.legal(state) == [ChooseCombatants(seat=P1, attacker=a3, defender=b3)]
    refused(state, ChooseCombatants(seat=P1, attacker=a1, defender=b3), "ER-5.9")
    fight(state, a3, b3)
    end_turn(state)
    assert state.turn == 4
    assert not any(f.tapped for f in state.fighters.values())


def test_ex_15_a_pure_mage_spell_replaces_its_attack_a_multiclass_keeps_it():
    """ER-7.6, ER-9.12: Lightning (3) at Spirit 1, Defense 0: 2 only; Mage/Looter: 2 + 4."""
    lightning = named("Lightning L1")
    for classes, lost in ((("mage",), 2), (("mage", "looter"), 6)):
        state = started()
        extra = {"looter_target": "cleric"} if "looter" in classes else {}
        mage = put(state, P1, 1, character(classes=classes, attack=4, hp=30, **extra))
        target = put(state, P2, 1, character(attack=0, defense=0, spirit=1, hp=30))
        fight(state, mage, target, active=plays(*in_hand(state, P1, lightning)))
        assert state.fighters[target].hp == 30 - lost, classes


def test_ex_16_a_cleric_theurgy_keeps_the_physical_attack():
    """ER-9.6: Theurgy 2 at Defense 1, Spirit 0, Attack 3: 2 + (3 - 1) = 4."""
    state = started()
    cleric = put(state, P1, 1, character(classes=("cleric",), attack=3, hp=30))
    target = put(state, P2, 1, character(attack=0, defense=1, spirit=0, hp=30))
    theurgy = card("theurgy", Line(effects=(Damage(amount=2),)))
    fight(state, cleric, target, active=plays(*in_hand(state, P1, theurgy)))
    assert state.fighters[target].hp == 30 - 4


def test_ex_17_looter_gets_attack_plus_one_against_its_class():
    """ER-9.5: Looter "vs Warrior", Attack 3, against a Mage/Warrior with Defense 2: 2."""
    state = started()
    looter = put(state, P1, 1, character(classes=("looter",), looter_target="warrior",
                                         attack=3, hp=30))
    target = put(state, P2, 1, character(classes=("mage", "warrior"), attack=0, defense=2,
                                         hp=30))
    fight(state, looter, target)
    assert state.fighters[target].hp == 30 - 2


def test_ex_18_one_weapon_unless_dual_wield_with_two_one_handed():
    """ER-8.2, ER-8.3, ER-8.4."""
    state = started()
    kenzo = put(state, P1, 1, named("Kenzo"))
    attach(state, kenzo, named("Katana"))
    (waki,) = in_hand(state, P1, named("Wakisashi"))
    RULES.apply(state, ChooseCombatants(seat=P1, attacker=kenzo, defender=fighter(state, P2).id))
    refused(state, PlayCards(seat=P1, plays=plays(waki)), "ER-8.4")
    state = started()
    iro = fighter(state, P1, 1).id
    assert iro == put(state, P1, 1, named("Iro"))
    katana = attach(state, iro, named("Katana"))
    (waki,) = in_hand(state, P1, named("Wakisashi"))
    fight(state, iro, fighter(state, P2).id, active=plays(waki))
    assert state.fighters[iro].attachments == [*katana, waki]


def test_ex_19_a_new_pet_replaces_the_old_one():
    """ER-8.7: Pet X goes to the discard pile, Pet Y is attached."""
    state = started()
    hero = fighter(state, P1).id
    (x,) = attach(state, hero, named("Owl Familiar"))
    (y,) = in_hand(state, P1, named("War Hound"))
    fight(state, hero, fighter(state, P2).id, active=plays(y))
    assert state.fighters[hero].attachments == [y]
    assert state.players[P1].discard == [x]


def test_ex_20_runes_newest_replaces_oldest_and_a_rune_line_consumes_it():
    """ER-11.3, ER-11.4: [Cor, Nox, Yr] + Cor -> [Nox, Yr, Cor]; "Nox: +2 Attack" -> [Yr, Cor]."""
    state = started()
    hero = put(state, P1, 1, character(attack=3, hp=30, rune_capacity=3,
                                       starting_runes=("cor", "nox", "yr")))
    place = card("action", Line(effects=(PlaceRune(rune="cor"),)), chain="any")
    nox = card("action", Line(key="rune:nox", effects=(Modify(attack=2),)))
    ids = in_hand(state, P1, place, nox)
    RULES.apply(state, ChooseCombatants(seat=P1, attacker=hero, defender=fighter(state, P2).id))
    RULES.apply(state, PlayCards(seat=P1, plays=plays(*ids)))
    RULES.apply(state, PlayCards(seat=P2))
    assert state.fighters[hero].runes == ["yr", "cor"]
    assert _attack(state, hero) == 5
    solo = started()
    runic = put(solo, P1, 1, character(hp=30, rune_capacity=3, starting_runes=("cor", "nox", "yr")))
    fight(solo, runic, fighter(solo, P2).id, active=plays(*in_hand(solo, P1, place)))
    assert solo.fighters[runic].runes == ["nox", "yr", "cor"]


def test_ex_21_deck_out_loses_at_the_end_of_the_turn():
    """ER-1.6, ER-5.6: turn 9, needs 3, deck has 1: draws 1, deck-out, loses at turn end."""
    state = started()
    sturdy_lines(state)
    advance(state, 7)
    choice = RULES.legal(state)[0]
    fight(state, choice.attacker, choice.defender)
    player = state.players[P1]
    player.discard += player.hand[2:] + player.deck[1:]
    del player.hand[2:], player.deck[1:]
    end_turn(state)
    assert state.turn == 9 and player.deck_out and len(player.hand) == 3 and not player.deck
    assert not state.over
    advance(state, 1)
    assert (state.over, state.winner, state.rule) == (True, P2, "ER-1.6")


def test_ex_22_all_six_down_the_higher_score_wins():
    """ER-1.3, ER-1.4, ER-7.13: A 31 + 4 = 35, B 30 + 6 = 36: B wins."""
    state = started()
    for seat in (P1, P2):
        put(state, seat, 1, character(classes=("mage",), attack=0, spirit=0, hp=2))
        for position in (2, 3):
            put(state, seat, position, character(attack=0, spirit=0, hp=2))
    a, b = state.players
    a.damage, a.healed, b.damage, b.healed = 25, 4, 24, 6
    rain = named("Meteor Rain")
    fight(state, fighter(state, P1).id, fighter(state, P2).id,
          active=plays(*in_hand(state, P1, rain)), passive=plays(*in_hand(state, P2, rain)))
    assert all(f.defeated for f in state.fighters.values())
    assert (a.damage + a.healed, b.damage + b.healed) == (35, 36)
    assert (state.over, state.winner, state.rule) == (True, P2, "ER-1.3")


def test_modify_helper_is_a_plain_action():
    assert modify(attack=1).type == "action"
    assert spell(2).type == "spell" and isinstance(Play(card=1), Play)
