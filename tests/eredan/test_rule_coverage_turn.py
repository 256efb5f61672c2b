"""Rule coverage, match and turn: victory and precedence (ER-1), setup (ER-4), the turn's
structure and timings (ER-5), when Phase 2 effects land (ER-6.9, ER-6.17) and the combat
result's stats and defeat checks (ER-7.10, ER-7.11). Each test applies the rule through the
engine and asserts its consequence, or its refusal naming the rule."""
from __future__ import annotations

from engine.eredan.archetypes import starter_deck
from engine.eredan.cards import Heal, Line, LoseHP, Modify, OrderLine
from engine.eredan.changes import (
    Activated,
    Defeated,
    Drawn,
    MagicDamage,
    Modified,
    PendingDamage,
    PendingHeal,
    TurnStarted,
)
from engine.eredan.stats import dual_wield, hand_target, stats
from events.base import DeckEntry, DeckList
from events.eredan import ChooseCombatants, Discard, Leave, Play, PlayCards
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
    named,
    plays,
    put,
    refused,
    started,
    sturdy_lines,
)


def _hp(state, fid: int) -> int:
    return state.fighters[fid].hp


def _choose(state, attacker: int, defender: int) -> None:
    RULES.apply(state, ChooseCombatants(seat=state.active, attacker=attacker, defender=defender))


# ER-1: victory, draws and precedence -----------------------------------------------------------

def test_er_1_2_the_last_opposing_character_down_is_an_elimination_victory():
    """ER-1.2: B's last living character falls while A still has characters: A wins by
    elimination, decided at the Phase 3 defeat check (no discard window follows)."""
    state = started()
    for position in (2, 3):
        fid = put(state, P2, position, character(hp=1))
        state.fighters[fid].hp, state.fighters[fid].defeated = 0, True
    killer = put(state, P1, 1, character(attack=30, hp=30))
    last = put(state, P2, 1, character(attack=0, defense=0, hp=10))
    fight(state, killer, last)
    assert state.fighters[last].defeated and not state.fighters[killer].defeated
    assert (state.over, state.winner, state.reason, state.rule) == (
        True, P1, "elimination", "ER-1.2")
    assert state.window == "over" and RULES.legal(state) == []


def test_er_1_5_all_six_down_on_equal_scores_is_a_draw():
    """ER-1.5: every character falls in the same Phase 3 and both scores are equal (6 + 0
    each): the match is a draw, not a win for either (ER-1.3 needs a higher score)."""
    state = started()
    for seat in (P1, P2):
        put(state, seat, 1, character(classes=("mage",), attack=0, spirit=0, hp=2))
        for position in (2, 3):
            put(state, seat, position, character(attack=0, spirit=0, hp=2))
    rain = named("Meteor Rain")
    fight(state, fighter(state, P1).id, fighter(state, P2).id,
          active=plays(*in_hand(state, P1, rain)), passive=plays(*in_hand(state, P2, rain)))
    assert all(f.defeated for f in state.fighters.values())
    assert [p.damage + p.healed for p in state.players] == [6, 6]
    assert (state.over, state.winner, state.reason, state.rule) == (
        True, None, "score_tie", "ER-1.5")


def test_er_1_10_card_text_beats_the_rules_it_contradicts():
    """ER-1.10: Battle Cry's untyped Chain lets a third card be played although ER-5.14 stops
    at two without card text, and a Traveler's Satchel lets a hand of 6 through Phase 5
    although ER-5.19 brings hands down to 5; without the card texts both are refused."""
    state = started()
    _choose(state, fighter(state, P1).id, fighter(state, P2).id)
    cry, quick, parry = in_hand(state, P1, named("Battle Cry"), named("Quick Strike"),
                                named("Parry"))
    RULES.apply(state, PlayCards(seat=P1, plays=plays(cry, quick, parry)))
    plain = started()
    _choose(plain, fighter(plain, P1).id, fighter(plain, P2).id)
    parry2, quick2, parry3 = in_hand(plain, P1, named("Parry"), named("Quick Strike"),
                                     named("Parry"))
    refused(plain, PlayCards(seat=P1, plays=plays(quick2, parry2, parry3)), "ER-5.14")

    bag = started()
    attach(bag, fighter(bag, P1, 2).id, named("Traveler's Satchel"))
    in_hand(bag, P1, named("Parry"))
    fight(bag, fighter(bag, P1).id, fighter(bag, P2).id)
    assert len(bag.players[P1].hand) == 6 and hand_target(bag, P1) == 6
    RULES.apply(bag, Discard(seat=P1))
    assert len(bag.players[P1].hand) == 6
    bare = started()
    in_hand(bare, P1, named("Parry"))
    fight(bare, fighter(bare, P1).id, fighter(bare, P2).id)
    refused(bare, Discard(seat=P1), "ER-5.19")


# ER-4: setup -----------------------------------------------------------------------------------

def test_er_4_1_the_line_takes_the_deck_lists_positions_at_full_hp_untapped():
    """ER-4.1: characters in the positions the deck list gives (1-3), full HP, untapped."""
    kotoba = starter_deck("kotoba")
    listed = [e.card for e in kotoba.section("characters")]
    reordered = DeckList(name="reordered", sections={
        "characters": [DeckEntry(card=c, count=1) for c in reversed(listed)],
        "deck": kotoba.section("deck")})
    state = RULES.setup(header(deck0=reordered))
    line = sorted(state.line(P1), key=lambda f: f.position)
    assert [f.position for f in line] == [1, 2, 3]
    assert [f.card.id for f in line] == [named(c).id for c in reversed(listed)]
    assert all(f.hp == f.card.hp and not f.tapped and not f.defeated for f in line)
    view = RULES.view(state, "spectator")["characters"]
    assert [(c["position"], c["hp"], c["tapped"]) for c in view if c["owner"] == P1] == [
        (1, line[0].card.hp, False), (2, line[1].card.hp, False), (3, line[2].card.hp, False)]


def test_er_4_4_setup_applies_starting_runes_and_static_abilities():
    """ER-4.4: before any card is played, Yorunn carries his starting Cor and Vael her Nox;
    Iro's static Dual Wield and Lady Mei's static hand size are already in force."""
    state = started(("runic_legion", "kotoba"))
    runes = {f.card.name: f.runes for f in state.line(P1)}
    assert runes == {"Yorunn": ["cor"], "Brakka": [], "Vael": ["nox"]}
    iro = next(f for f in state.line(P2) if f.card.name == "Iro")
    assert dual_wield(state, iro)
    mei = started()
    put(mei, P1, 3, named("Lady Mei"))
    assert hand_target(mei, P1) == 6 and hand_target(mei, P2) == 5


def test_er_11_2_starting_runes_are_on_the_line_from_setup_and_public():
    """ER-11.2: the runes a card gives at the start are attached at setup (ER-4.4), in every
    perspective's view, and the first rune line played consumes them."""
    state = started(("runic_legion", "kotoba"))
    yorunn = next(f for f in state.line(P1) if f.card.name == "Yorunn")
    assert yorunn.runes == list(named("Yorunn").starting_runes) == ["cor"]
    for who in (P1, P2, "spectator"):
        shown = {c["id"]: c["runes"] for c in RULES.view(state, who)["characters"]}
        assert shown[yorunn.id] == ["cor"]
    spend = card("action", Line(key="rune:cor", effects=(Modify(attack=4),)))
    fight(state, yorunn.id, fighter(state, P2).id, active=plays(*in_hand(state, P1, spend)))
    assert yorunn.runes == []


# ER-5: the turn ----------------------------------------------------------------------------------

def test_er_5_1_the_turn_counter_starts_at_1_and_adds_1_each_turn():
    """ER-5.1."""
    state = started()
    sturdy_lines(state)
    turns = [state.turn]
    for _ in range(4):
        advance(state, 1)
        turns.append(state.turn)
    assert turns == [1, 2, 3, 4, 5]
    assert RULES.view(state, "spectator")["turn"] == 5


def test_er_5_2_player_1_is_active_on_odd_turns_player_2_on_even_turns():
    """ER-5.2: the initiative winner (here seat 1) is Player 1; the other seat is passive."""
    state = started(first=P2)
    sturdy_lines(state)
    seen = []
    for _ in range(4):
        seen.append((state.turn, state.active, state.passive))
        advance(state, 1)
    assert seen == [(1, P2, P1), (2, P1, P2), (3, P2, P1), (4, P1, P2)]
    refused(state, ChooseCombatants(seat=P1, attacker=fighter(state, P1).id,
                                    defender=fighter(state, P2).id), "ER-5.8")


def test_er_5_3_a_turn_runs_start_phase_1_to_5_end_in_order():
    """ER-5.3: the changes of one turn come in the order of the phases, and a decision of a
    later phase is refused before its phase (each naming its phase's rule)."""
    state = started()
    sturdy_lines(state)
    advance(state, 1)
    attacker = put(state, P2, 2, character(attack=5, hp=30, order=(OrderLine(turn=2,
                                                                             attack=1),)))
    defender = fighter(state, P1, 2).id
    (parry,) = in_hand(state, P2, named("Parry"))
    refused(state, PlayCards(seat=P2, plays=plays(parry)), "ER-5.12")
    refused(state, Discard(seat=P2), "ER-5.18")
    out = fight(state, attacker, defender, active=plays(parry))
    refused(state, ChooseCombatants(seat=P2, attacker=attacker, defender=defender), "ER-5.8")
    out += end_turn(state)
    kinds = [c.kind for c in out]
    order = ["combatants", "turn_bonus", "revealed", "activated", "physical", "tapped",
             "to_discard", "turn"]
    assert all(k in kinds for k in order), kinds
    assert [kinds.index(k) for k in order] == sorted(kinds.index(k) for k in order)
    assert (state.turn, state.active, state.window) == (3, P1, "choose")


def test_er_5_17_a_tapped_character_can_still_be_targeted():
    """ER-5.17: after Phase 4 both combatants are tapped and cannot be chosen, but a Fireball
    may still be aimed at the tapped one."""
    state = started()
    sturdy_lines(state)
    a1, b1 = fighter(state, P1).id, fighter(state, P2).id
    fight(state, a1, b1)
    assert state.fighters[a1].tapped and state.fighters[b1].tapped
    end_turn(state)
    mage = put(state, P2, 2, character(classes=("mage",), attack=0, hp=30))
    refused(state, ChooseCombatants(seat=P2, attacker=b1, defender=fighter(state, P1, 2).id),
            "ER-5.9")
    (fireball,) = in_hand(state, P2, named("Fireball"))
    fight(state, mage, fighter(state, P1, 2).id,
          active=(Play(card=fireball, target=a1),))
    assert _hp(state, a1) == 30 - (4 - state.fighters[a1].card.spirit)


def test_er_5_18_a_player_may_discard_any_number_of_cards():
    """ER-5.18: four of five cards discarded at will, to the discard pile; the refill of the
    next turn draws four; a card not in hand is refused."""
    state = started()
    sturdy_lines(state)
    fight(state, fighter(state, P1).id, fighter(state, P2).id)
    hand = list(state.players[P1].hand)
    refused(state, Discard(seat=P1, cards=(hand[0], hand[0])), "ER-5.18")
    RULES.apply(state, Discard(seat=P1, cards=tuple(hand[:4])))
    out = RULES.apply(state, Discard(seat=P2))
    assert state.players[P1].discard == hand[:4]
    assert len([c for c in out if isinstance(c, Drawn) and c.seat == P1]) == 4
    assert len(state.players[P1].hand) == 5


def test_er_5_21_at_the_end_of_the_turn_effects_expire_and_played_cards_leave_play():
    """ER-5.21: the passive player's Quick Strike (+1 Attack this turn) expires and goes to
    its owner's discard pile, the Iron Sword stays attached and keeps counting, then the next
    turn starts."""
    state = started()
    sturdy_lines(state)
    hero, foe = fighter(state, P1).id, fighter(state, P2).id
    (sword,) = in_hand(state, P1, named("Iron Sword"))
    (quick,) = in_hand(state, P2, named("Quick Strike"))
    fight(state, hero, foe, active=plays(sword), passive=plays(quick))
    assert stats(state, state.fighters[foe])[0] == 1
    out = end_turn(state)
    assert stats(state, state.fighters[foe])[0] == 0
    assert state.players[P2].discard == [quick] and sword not in state.players[P1].discard
    assert state.fighters[hero].attachments == [sword]
    assert stats(state, state.fighters[hero])[0] == 1
    assert TurnStarted(seat=P2, turn=2) in out and state.window == "choose"
    assert (state.turn, state.active, state.slots) == (2, P2, [])


# ER-6.9, ER-6.17: when Phase 2 effects land -----------------------------------------------------

def test_er_6_9_damage_and_healing_wait_for_phase_3_other_effects_apply_at_once():
    """ER-6.9: the Arrow's damage is only pending when it activates and lands after every
    activation, so the defender's later Focus (+2 Spirit, slot 2) still resists it; the
    Focus's modifier and draw apply when it activates; a heal also waits."""
    state = started()
    mage = put(state, P1, 1, character(classes=("mage",), attack=0, hp=30))
    target = put(state, P2, 1, character(attack=0, spirit=1, hp=30))
    state.fighters[target].hp = 25
    (arrow,) = in_hand(state, P1, named("Flaming Arrow"))
    (focus,) = in_hand(state, P2, named("Focus"))
    out = fight(state, mage, target, active=plays(arrow), passive=plays(focus))
    at = {type(c): i for i, c in reversed(list(enumerate(out)))}
    activations = [i for i, c in enumerate(out) if isinstance(c, Activated)]
    assert activations[0] < at[PendingDamage] < activations[1]
    assert activations[1] < at[Modified] and activations[1] < at[Drawn]
    assert at[MagicDamage] > max(activations)
    assert _hp(state, target) == 25 - (5 - 1 - 2)
    healer = started()
    cleric = put(healer, P1, 1, character(classes=("cleric",), attack=0, hp=30))
    healer.fighters[cleric].hp = 20
    mend = card("theurgy", Line(effects=(Heal(amount=4),)))
    changes = fight(healer, cleric, fighter(healer, P2).id,
                    active=plays(*in_hand(healer, P1, mend)))
    pending = next(i for i, c in enumerate(changes) if isinstance(c, PendingHeal))
    healed = next(i for i, c in enumerate(changes) if c.kind == "heal")
    assert pending < healed and changes[healed].hp == 4


def test_er_6_17_an_effect_without_a_duration_lasts_until_the_end_of_the_turn():
    """ER-6.17: Parry (+2 Defense, no duration) protects in this turn's combat and is gone on
    the next turn."""
    state = started()
    sturdy_lines(state)
    hero = put(state, P1, 1, character(attack=0, defense=1, hp=30))
    foe = put(state, P2, 1, character(attack=4, defense=1, hp=30))
    fight(state, hero, foe, active=plays(*in_hand(state, P1, named("Parry"))))
    assert _hp(state, hero) == 30 - (4 - 3)
    assert stats(state, state.fighters[hero])[1] == 3
    end_turn(state)
    assert stats(state, state.fighters[hero])[1] == 1 and not state.fighters[hero].mods


# ER-7.10, ER-7.11: the combat result -----------------------------------------------------------

def test_er_7_10_damage_uses_the_stats_after_every_modifier_in_force():
    """ER-7.10: Attack 3 + Order (turn 1) 1 + Iron Sword 1 + Quick Strike 1 + Looter vs Mage 1
    = 7, against Defense 1 + the defender's own Parry 2 (activated after) = 3: 4 damage."""
    state = started()
    hero = put(state, P1, 1, character(classes=("looter",), looter_target="mage", attack=3,
                                       hp=30, order=(OrderLine(turn=1, attack=1),)))
    attach(state, hero, named("Iron Sword"))
    foe = put(state, P2, 1, character(classes=("mage",), attack=0, defense=1, hp=30))
    fight(state, hero, foe, active=plays(*in_hand(state, P1, named("Quick Strike"))),
          passive=plays(*in_hand(state, P2, named("Parry"))))
    assert stats(state, state.fighters[hero])[0] == 7
    assert _hp(state, foe) == 30 - 4


def test_er_7_11_defeat_checks_in_phase_3_at_the_start_and_at_the_end_of_the_turn():
    """ER-7.11: a character at 0 HP is defeated at the Phase 3 check; one brought to 0 HP at
    the start of the turn is defeated before Phase 1 (and its line's loss is evaluated at
    once, ER-1.2); the end-of-turn check catches a character at 0 HP after Phase 3."""
    state = started()
    sturdy_lines(state)
    foe = put(state, P2, 1, character(attack=0, defense=0, hp=3))
    out = fight(state, put(state, P1, 1, character(attack=5, hp=30)), foe)
    assert state.fighters[foe].defeated and Defeated(seat=P2, character=foe) in out

    late = started()
    sturdy_lines(late)
    idle = fighter(late, P2, 3).id
    fight(late, fighter(late, P1).id, fighter(late, P2).id)
    late.fighters[idle].hp = 0  # e.g. after Phase 3; nothing else checks it
    assert not late.fighters[idle].defeated
    RULES.apply(late, Discard(seat=P1))
    out = RULES.apply(late, Discard(seat=P2))
    assert late.fighters[idle].defeated
    assert [type(c) for c in out].index(Defeated) < [type(c) for c in out].index(TurnStarted)

    dawn = started()
    sturdy_lines(dawn)
    for position in (1, 2):
        dawn.fighters[fighter(dawn, P2, position).id].defeated = True
        dawn.fighters[fighter(dawn, P2, position).id].hp = 0
    last = fighter(dawn, P2, 3).id
    doom = card("item", Line(when="start_of_turn", effects=(LoseHP(amount=99, target="user"),)),
                subtype="jewel")
    attach(dawn, last, doom)
    fight(dawn, fighter(dawn, P1).id, last)
    end_turn(dawn)
    assert dawn.fighters[last].defeated and dawn.turn == 2
    assert (dawn.over, dawn.winner, dawn.rule) == (True, P1, "ER-1.2")
    refused(dawn, Leave(seat=P2), "ER-1.9")
