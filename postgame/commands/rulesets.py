"""`postgame rulesets` and `postgame games`: what this build can replay and simulate."""
from __future__ import annotations

import argparse
from typing import Any

import msgspec

from engine import registry
from engine.games import get_game, known_games
from engine.ruleset import get_ruleset, known_rulesets
from postgame.commands.common import OK, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rulesets", help="list the registered rulesets (name@version)",
                       description="List the rulesets logs can name in their header.")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_rulesets)
    g = sub.add_parser("games", help="list the games that can be simulated, with archetypes",
                       description="List the games: kit (ruleset, archetypes, bots) and metadata (seats, "
                             "sides, chance, information, capabilities).")
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
    rows = [_game_row(name) for name in known_games()]
    if args.json:
        print_json(rows)
        return OK
    for row in rows:
        print(f"{row['game']}: ruleset {row['ruleset']}; archetypes {', '.join(row['archetypes'])};"
              f" bots {', '.join(row['bots'])} (default {row['default_bot']})")
        print(f"  {_metadata_text(row['metadata'])}")
    return OK


def _game_row(name: str) -> dict[str, Any]:
    """A game's kit (what simulate plays) and its metadata (what the game is, as data)."""
    from engine.bots import BOTS

    kit = get_game(name)
    return {"game": name, "ruleset": kit.ruleset, "archetypes": list(kit.archetypes),
            "bots": sorted({*BOTS, *kit.bots}), "default_bot": kit.default_bot,
            "metadata": msgspec.to_builtins(registry.info(name))}


def _metadata_text(meta: dict[str, Any]) -> str:
    seats = (f"{meta['min_seats']} seats" if meta["min_seats"] == meta["max_seats"]
             else f"{meta['min_seats']}-{meta['max_seats']} seats")
    sides = ", ".join(f"{s['name']} ({s['seats']} seat{'s' if s['seats'] != 1 else ''}"
                      f"{'; roles ' + '/'.join(s['roles']) if s['roles'] else ''})"
                      for s in meta["sides"])
    traits = [seats, "symmetric" if meta["symmetric"] else "asymmetric",
              "chance" if meta["chance"] else "no chance",
              "Storyteller" if meta["storyteller"] else "no Storyteller",
              f"{meta['information']} information"]
    return (f"{meta['title']} (tournaments {meta['prefix']}-...): {'; '.join(traits)}; "
            f"sides {sides}; rulesets {', '.join(meta['rulesets'])}; "
            f"capabilities {', '.join(meta['capabilities']) or 'none'}")
