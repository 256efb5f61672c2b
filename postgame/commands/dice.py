"""`postgame dice`: the exact odds of a V20 roll (engine.v20.dice), for a storyteller weighing a
difficulty or a designer weighing a build: every outcome as a fraction and a percentage, the
chance of success and of a botch, and the expected net successes."""
from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from engine.v20.dice import (
    chance_of_botch,
    chance_of_success,
    clamp_difficulty,
    distribution,
    expected_net,
    outcome_name,
)
from postgame.commands.common import OK, UserError, add_command, int_in, print_json

MAX_POOL = 60
"""More dice than any character rolls (a 13th-generation pool is a dozen at most); the exact
law stays instant up to here."""
EXAMPLES = """\
examples:
  postgame dice 6 7                   # Dexterity 3 + Melee 3 at difficulty 7
  postgame dice 6 6 --specialty       # a specialty: each 10 counts twice (V20-2.5)
  postgame dice 5 6 --auto 1          # 1 Willpower spent: an automatic success (V20-11.1)
  postgame dice 7 6 --no-botch        # a damage or soak roll cannot botch (V20-2.10)
  postgame dice 4 8 --json            # for scripts
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "dice", help="exact odds of a V20 roll (pool, difficulty)",
                    description="The exact distribution of a Vampire V20 roll of POOL d10s at "
                                "DIFFICULTY, as the engine scores it (V20-2.6 cancellation, "
                                "V20-2.8 botches): each outcome as a fraction and a percentage, "
                                "the chance of success (1 net success or more) and of a botch, "
                                "and the expected net successes.", examples=EXAMPLES)
    p.add_argument("pool", type=int_in(0, MAX_POOL), metavar="POOL", help="dice rolled")
    p.add_argument("difficulty", type=int_in(-99, 99), metavar="DIFFICULTY",
                   help="after modifiers; clamped to 2-10 (V20-2.4)")
    p.add_argument("--specialty", action="store_true",
                   help="the action is within a specialty: each 10 counts twice (V20-2.5)")
    p.add_argument("--auto", type=int_in(0, MAX_POOL), default=0, metavar="N",
                   help="automatic successes (Willpower, Potence, ambush), never cancelled")
    p.add_argument("--no-botch", action="store_true",
                   help="a damage or soak roll: cannot botch, its 1s still cancel (V20-2.10)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.pool < 1:
        raise UserError("a pool below 1 die cannot be rolled (V20-2.13): an action with it "
                        "cannot be taken, a soak scores 0, a virtue roll fails")
    odds = figures(args.pool, args.difficulty, args.specialty, args.auto, not args.no_botch)
    if args.json:
        print_json(odds)
    else:
        print("\n".join(table(odds)))
    return OK


def figures(pool: int, difficulty: int, specialty: bool, auto: int,
            can_botch: bool) -> dict[str, Any]:
    law = distribution(pool, difficulty, specialty=specialty, auto=auto, can_botch=can_botch)
    return {
        "pool": pool, "difficulty": clamp_difficulty(difficulty), "asked_difficulty": difficulty,
        "specialty": specialty, "auto": auto, "can_botch": can_botch,
        "outcomes": [{"outcome": outcome_name(k), "net_successes": max(k, 0), "botch": k < 0,
                      **_exact(p)} for k, p in law.items()],
        "success": _exact(chance_of_success(law)),
        "botch": _exact(chance_of_botch(law)),
        "expected_net_successes": _exact(expected_net(law)),
    }


def _exact(value: Fraction) -> dict[str, Any]:
    return {"fraction": f"{value.numerator}/{value.denominator}", "decimal": float(value)}


def table(odds: dict[str, Any]) -> list[str]:
    extras = [part for part in (
        "specialty" if odds["specialty"] else "",
        f"+{odds['auto']} automatic" if odds["auto"] else "",
        "cannot botch" if not odds["can_botch"] else "") if part]
    head = f"{odds['pool']} dice at difficulty {odds['difficulty']}"
    if odds["difficulty"] != odds["asked_difficulty"]:
        head += f" (asked {odds['asked_difficulty']}, clamped to 2-10 by V20-2.4)"
    lines = [head + (f", {', '.join(extras)}" if extras else ""), ""]
    width = max(len(row["fraction"]) for row in odds["outcomes"])
    for row in odds["outcomes"]:
        lines.append(f"  {row['outcome']:<14} {row['fraction']:>{width}}  "
                     f"{100 * row['decimal']:7.3f}%")
    success, botch, mean = odds["success"], odds["botch"], odds["expected_net_successes"]
    lines += ["", f"  success (1+)   {100 * success['decimal']:.3f}%  ({success['fraction']})",
              f"  botch          {100 * botch['decimal']:.3f}%  ({botch['fraction']})",
              f"  expected net   {mean['decimal']:.4f} successes  ({mean['fraction']})"]
    return lines
