"""`postgame deck check`: is a deck list legal, and if not, every rule it breaks."""
from __future__ import annotations

import argparse
from pathlib import Path

from engine.games import get_game, known_games
from postgame.commands.common import FOUND_PROBLEMS, OK, UserError, add_command, print_json

EXAMPLES = """\
examples:
  postgame deck check vitorian my-deck.txt
  postgame deck check vitorian my-deck.json --json

Deck files: the text form (sections in [brackets], 'COUNT CARD' lines) or DeckList JSON.
Exit status 1 when the deck is illegal, 2 when the file cannot be read.
"""


def register(sub: argparse._SubParsersAction) -> None:
    deck = sub.add_parser("deck", help="deck list tools (check)", description="Deck list tools.")
    tools = deck.add_subparsers(dest="deck_command", metavar="TOOL", required=True)
    p = add_command(
        tools, "check", help="check a deck list against a game's construction rules",
        description="Check a deck list and list every construction rule it breaks.",
        examples=EXAMPLES)
    p.add_argument("game", help=f"game ({', '.join(known_games())})")
    p.add_argument("file", type=Path, help="deck list file")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.decklist import DeckListError, load_decklist

    kit = get_game(args.game)
    if not args.file.is_file():
        raise UserError(f"{args.file}: no such deck file")
    try:
        deck = load_decklist(args.file)
    except DeckListError as err:  # names the file and the line
        raise UserError(str(err)) from err
    problems = kit.check_deck(deck)
    if args.json:
        print_json({"file": str(args.file), "game": kit.name, "deck": deck.name,
                    "legal": not problems,
                    "problems": [{"rule": r, "reason": why} for r, why in problems]})
    elif problems:
        print(f"{args.file}: illegal {kit.name} deck ({len(problems)} problems)")
        for rule, why in problems:
            print(f"  {rule}: {why}")
    else:
        print(f"{args.file}: legal {kit.name} deck" + (f" ({deck.name})" if deck.name else ""))
    return FOUND_PROBLEMS if problems else OK
