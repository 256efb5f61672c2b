"""Phase 3, the combat result: healing, simultaneous damage, end-of-combat effects, the defeat
check, and the victory conditions it leads to (ER-1.2 to ER-1.5, ER-7)."""
from __future__ import annotations

from engine.eredan import zones
from engine.eredan.cards import Card
from engine.eredan.changes import APPLIED, Defeated, MatchOver
from engine.eredan.effects import Context, run_lines
from engine.eredan.state import Fighter, Pending, State
from engine.eredan.stats import stats, timed
from engine.ruleset import Change

Changes = list[Change]


def combat_result(state: State, out: Changes) -> None:
    """(a) pending healing, (b) all damage at once, (c) end-of-combat effects, (d) the defeat
    check (ER-7.1)."""
    pendings, state.pendings = state.pendings, []
    apply_batch(state, [p for p in pendings if p.kind == "heal"], out)
    hits = [p for p in pendings if p.kind != "heal"] + _physical(state)
    apply_batch(state, _resisted(state, hits), out)
    end_of_combat(state, out)
    defeat_check(state, out)


def _physical(state: State) -> list[Pending]:
    """Each combatant deals max(0, Attack - the other's Defense), even one already at 0 HP
    (ER-7.2, ER-7.3), unless a pure Mage's spell replaced its attack (ER-7.6)."""
    if state.attacker is None or state.defender is None:
        return []
    fighters = state.fighters
    a, d = fighters[state.attacker], fighters[state.defender]
    (a_atk, a_def, _), (d_atk, d_def, _) = stats(state, a), stats(state, d)
    hits = []
    if a.id not in state.no_attack and a_atk > d_def:
        hits.append(Pending(a.id, a.owner, d.id, a_atk - d_def, "physical"))
    if d.id not in state.no_attack and d_atk > a_def:
        hits.append(Pending(d.id, d.owner, a.id, d_atk - a_def, "physical"))
    return hits


def _resisted(state: State, hits: list[Pending]) -> list[Pending]:
    """Magic damage is resisted by Spirit, card by card (ER-7.4); computed before any HP
    changes, so the exchange is simultaneous (ER-7.10)."""
    out = []
    for hit in hits:
        if hit.kind == "magic":
            spirit = stats(state, state.fighters[hit.target])[2]
            hit = Pending(hit.source, hit.seat, hit.target, max(0, hit.amount - spirit), "magic")
        out.append(hit)
    return out


def apply_batch(state: State, changes: list[Pending], out: Changes) -> None:
    """Apply HP changes in order, HP kept within 0..max (ER-7.9); scores and statistics count
    only HP really removed or restored, and "loses X HP" is not damage (ER-7.7, ER-7.13)."""
    fighters, players = state.fighters, state.players
    for change in changes:
        fighter = fighters[change.target]
        if fighter.defeated:
            continue
        if change.kind == "heal":
            done = min(change.amount, fighter.card.hp - fighter.hp)
            fighter.hp += done
            players[fighter.owner].healed += done
            stat = "healing"
        else:
            done = min(change.amount, fighter.hp)
            fighter.hp -= done
            if change.kind == "lose" or fighter.owner == change.seat:
                stat = "hp_lost"
            else:
                players[change.seat].damage += done
                stat = "damage"
        state.count(change.source, stat, done)
        out.append(APPLIED[change.kind](seat=change.seat, character=fighter.id, hp=done,
                                        source=change.source))


def end_of_combat(state: State, out: Changes) -> None:
    """End-of-combat effects: the combatants' own (active player's first), then those of the
    cards played, in slot order; their HP changes land together (ER-7.1 c)."""
    for fid in (state.attacker, state.defender):
        fighter = state.fighters[fid] if fid is not None else None
        if fighter is not None and not fighter.defeated:
            for source, lines in timed(state, fighter, "end_of_combat"):
                run_lines(state, Context(fighter.owner, source, fighter), lines,
                          "end_of_combat", out)
    for slot in state.slots:
        card = state.cards[slot.card]
        if slot.activated and not slot.ignored and isinstance(card, Card) and not card.stays:
            ctx = Context(slot.seat, slot.card, state.fighters[slot.user], slot.target, slot)
            run_lines(state, ctx, card.lines, "end_of_combat", out)
    pendings, state.pendings = state.pendings, []
    if pendings:
        heals = [p for p in pendings if p.kind == "heal"]
        apply_batch(state, heals + _resisted(state, [p for p in pendings if p.kind != "heal"]),
                    out)


def defeat_check(state: State, out: Changes) -> None:
    """Every character at 0 HP is defeated, its attachments and runes lost (ER-7.11, ER-7.12);
    then the victory conditions (ER-1.2, ER-1.3), which only a new defeat can bring about."""
    fallen = [f for f in state.fighters.values() if f.hp <= 0 and not f.defeated]
    if not fallen:
        return
    for fighter in fallen:
        _defeat(state, fighter, out)
    down = [all(f.defeated for f in state.line(seat)) for seat in (0, 1)]
    if down[0] and down[1]:
        _by_score(state, out)
    elif down[0] or down[1]:
        end_match(state, 1 if down[0] else 0, "elimination", "ER-1.2", out)


def _defeat(state: State, fighter: Fighter, out: Changes) -> None:
    fighter.defeated = True
    for cid in fighter.clear_attachments():
        zones.to_discard(state, cid, out)
    fighter.runes = []
    fighter.mods = []
    state.count(fighter.id, "defeats")
    out.append(Defeated(seat=fighter.owner, character=fighter.id))


def _by_score(state: State, out: Changes) -> None:
    """All six down: the higher damage + healing wins, equal is a draw (ER-1.3 to ER-1.5)."""
    scores = [p.damage + p.healed for p in state.players]
    if scores[0] == scores[1]:
        end_match(state, None, "score_tie", "ER-1.5", out)
    else:
        end_match(state, 0 if scores[0] > scores[1] else 1, "score", "ER-1.3", out)


def end_match(state: State, winner: int | None, reason: str, rule: str, out: Changes) -> None:
    """The match ends at once; later events are refused (ER-1.9)."""
    state.over, state.winner, state.reason, state.rule = True, winner, reason, rule
    state.window, state.pending = "over", -1
    out.append(MatchOver(seat=winner, winner=winner, reason=reason, rule=rule))
