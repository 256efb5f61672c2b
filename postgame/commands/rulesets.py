"""`postgame rulesets` and `postgame games`: what this build can replay and simulate."""
from __future__ import annotations

import argparse

from engine.games import get_game, known_games
from engine.ruleset import get_ruleset, known_rulesets
from postgame.commands.common import OK, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rulesets", help="list the registered rulesets (name@version)",
                       description="List the rulesets logs can name in their header.")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_rulesets)
    g = sub.add_parser("games", help="list the games that can be simulated, with archetypes",
                       description="List the game kits: ruleset, archetypes and bots.")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=run_games)


def run_rulesets(args: argparse.Namespace) -> int:
    rows = [{"key": key, "game": get_ruleset(key).game} for key in known_rulesets()]
    if args.json:
        print_json(rows)
        return OK
    for row in rows:
        print(f"{row['key']}  (game {row['game']})")
    return OK


def run_games(args: argparse.Namespace) -> int:
    from engine.bots import BOTS

    rows = []
    for name in known_games():
        kit = get_game(name)
        rows.append({"game": name, "ruleset": kit.ruleset, "archetypes": list(kit.archetypes),
                     "bots": sorted({*BOTS, *kit.bots}), "default_bot": kit.default_bot})
    if args.json:
        print_json(rows)
        return OK
    for row in rows:
        print(f"{row['game']}: ruleset {row['ruleset']}; archetypes {', '.join(row['archetypes'])};"
              f" bots {', '.join(row['bots'])} (default {row['default_bot']})")
    return OK
