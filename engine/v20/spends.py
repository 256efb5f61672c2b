"""Phase 2's reflexive commitments (V20-4.1): Celerity, Willpower to ignore wounds or keep
control, blood to raise an Attribute or to look human, Willpower against a derangement.

A side's Commit is checked whole before anything is spent: what each character can pay (an
empty pool refuses, V20-11.5), the blood a turn allows (V20-10.8; Celerity's blood does not
count, V20-5.5), the caps of each use.
"""
from __future__ import annotations

from typing import Any

from engine.ruleset import RuleViolation
from engine.v20 import changes as ch
from engine.v20.catalog import load_catalog
from engine.v20.state import Fighter, State
from engine.v20.status import can_act, spends_blood
from events.v20 import AppearHuman, Boost, Celerity, Commit, Control, IgnoreWounds, Resist, Spend

HUMANE = 8
"""V20-10.6: appearing human costs 8 - Humanity BP."""


def spend_name(spend: Spend) -> str:
    """The spend's kind, its tag ("celerity", "boost"...)."""
    return str(type(spend).__struct_config__.tag)


def blood_limit(f: Fighter) -> int:
    """BP a turn allows toward heals, boosts and looking human (V20-3.3, V20-3.4)."""
    return load_catalog().limits(f.sheet).blood_per_turn


def cost(f: Fighter, spend: Spend) -> tuple[int, int, int]:
    """(BP toward the turn's limit, BP outside it, Willpower) a spend takes."""
    if isinstance(spend, Celerity):
        return 0, spend.actions, 0
    if isinstance(spend, Boost):
        return spend.points, 0, 0
    if isinstance(spend, AppearHuman):
        return max(1, HUMANE - f.path), 0, 0
    return 0, 0, 1


def check_commit(state: State, commit: Commit) -> None:
    """The whole commit, as it would leave each character: refused naming the rule if any
    spend breaks one."""
    totals: dict[str, list[int]] = {}
    for spend in commit.spends:
        f = state.fighters.get(spend.character)
        if f is None or f.seat != commit.seat:
            raise RuleViolation("V20-1.1", f"side {'AB'[commit.seat]} commits for "
                                f"{spend.character!r}, not one of its characters")
        _check_spend(f, spend, commit.spends)
        limited, free, will = cost(f, spend)
        total = totals.setdefault(f.id, [0, 0, 0])
        total[0], total[1], total[2] = total[0] + limited, total[1] + free, total[2] + will
    for fid, (limited, free, will) in totals.items():
        _check_totals(state.fighter(fid), limited, free, will)


def _check_totals(f: Fighter, limited: int, free: int, will: int) -> None:
    if limited and not spends_blood(f):
        raise RuleViolation("V20-3.5", f"{f.name} is a mortal and cannot spend blood")
    if f.blood_this_turn + limited > blood_limit(f):
        raise RuleViolation("V20-10.8", f"{f.name} may spend {blood_limit(f)} BP a turn on "
                            f"heals, boosts and looking human, not {f.blood_this_turn + limited}")
    if limited + free > f.blood:
        raise RuleViolation("V20-10.1", f"{f.name} has {f.blood} BP, not {limited + free}")
    if will > f.willpower:
        raise RuleViolation("V20-11.5", f"{f.name} has {f.willpower} Willpower, not {will}")


def _check_spend(f: Fighter, spend: Spend, all_spends: tuple[Spend, ...]) -> None:
    if sum(1 for s in all_spends if type(s) is type(spend) and s.character == f.id
           and not isinstance(s, Boost)) > 1:
        raise RuleViolation("V20-11.5", f"{f.name}: one {spend_name(spend)} a turn")
    if isinstance(spend, Celerity):
        _check_celerity(f, spend)
    elif isinstance(spend, Boost):
        _check_boost(f, spend)
    elif isinstance(spend, IgnoreWounds) and f.status in ("incapacitated", "torpor"):
        raise RuleViolation("V20-11.3", f"{f.name} is {f.status}: Willpower cannot make it "
                            "ignore its wounds")
    elif isinstance(spend, AppearHuman) and (not f.sheet.is_vampire
                                             or f.sheet.path.id != "humanity"):
        raise RuleViolation("V20-10.6", f"only a vampire of Humanity may appear human, not "
                            f"{f.name}")
    elif isinstance(spend, Control) and not (f.frenzy or f.rotschreck):
        raise RuleViolation("V20-12.8", f"{f.name} is in no frenzy or Rötschreck to control")
    elif isinstance(spend, Resist) and f.manifest is None:
        raise RuleViolation("V20-11.2", f"no derangement of {f.name} manifests this turn")


def _check_celerity(f: Fighter, spend: Celerity) -> None:
    if f.kind == "mortal" or not can_act(f):
        raise RuleViolation("V20-5.5", f"{f.name} cannot activate Celerity "
                            f"({f.kind}, {f.status})")
    if not 1 <= spend.actions <= f.discipline("celerity"):
        raise RuleViolation("V20-5.5", f"{f.name} has Celerity {f.discipline('celerity')}: "
                            f"1 to that many extra actions, not {spend.actions}")


def _check_boost(f: Fighter, spend: Boost) -> None:
    cap = load_catalog().limits(f.sheet).trait_maximum
    if f.kind == "ghoul":
        cap = min(cap, 5)
    now = f.attribute(spend.attribute)
    if spend.points < 1 or now + spend.points > cap:
        raise RuleViolation("V20-10.5", f"{f.name}'s {spend.attribute} {now} may rise to "
                            f"{cap}, not by {spend.points}")


def apply_commit(state: State, commit: Commit, out: list[Any]) -> None:
    for spend in commit.spends:
        f = state.fighter(spend.character)
        limited, free, will = cost(f, spend)
        f.blood -= limited + free
        f.blood_this_turn += limited
        f.willpower -= will
        _effect(f, spend, out)
        if limited + free:
            out.append(ch.Spent(character=f.id, pool="blood", points=limited + free,
                                purpose=spend_name(spend)))
        if will:
            out.append(ch.Spent(character=f.id, pool="willpower", points=will,
                                purpose=spend_name(spend)))


def _effect(f: Fighter, spend: Spend, out: list[Any]) -> None:
    if isinstance(spend, Celerity):
        f.celerity_actions = spend.actions
    elif isinstance(spend, Boost):
        f.boosts[spend.attribute] = f.boosts.get(spend.attribute, 0) + spend.points
        out.append(ch.Boosted(character=f.id, attribute=spend.attribute,
                              points=f.attribute(spend.attribute)))
    elif isinstance(spend, IgnoreWounds):
        f.ignore_wounds = True
    elif isinstance(spend, Control):
        f.controlled = True
    elif isinstance(spend, AppearHuman):
        f.appears_human = True
    elif isinstance(spend, Resist):
        f.resisted = True
