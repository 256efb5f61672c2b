"""`postgame deck check`: is a deck list legal, and if not, every rule it breaks (construction
and, given a lake, the charge cap: pipeline.deck_verdict, which `postgame charges --deck` shares)."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from engine.games import get_game, known_games
from pipeline.deck_verdict import NO_CHARGES, DeckVerdict, judge_deck, read_deck_file
from postgame.commands.common import FOUND_PROBLEMS, OK, UserError, add_command, print_json

EXAMPLES = """\
examples:
  postgame deck check vitorian my-deck.txt
  postgame deck check vitorian my-deck.json --json
  postgame deck check vitorian my-deck.txt --lake lake --tournament vw-2026-004

Deck files: the text form (sections in [brackets], 'COUNT CARD' lines) or DeckList JSON.
One verdict over every rule: the game's construction rules and, with --lake, the charge cap of
the table in force (charges.md); without a lake the output says the cap was not checked.
Exit status 1 when the deck is not legal, 2 when the file cannot be read.
"""


def register(sub: argparse._SubParsersAction) -> None:
    deck = sub.add_parser("deck", help="deck list tools (check)", description="Deck list tools.")
    tools = deck.add_subparsers(dest="deck_command", metavar="TOOL", required=True)
    p = add_command(
        tools, "check", help="check a deck list against a game's construction rules and cap",
        description="Check a deck list and list every rule it breaks: construction and, with "
                    "--lake, the charge cap.",
        examples=EXAMPLES)
    p.add_argument("game", type=str.lower, help=f"game ({', '.join(known_games())})")
    p.add_argument("file", type=Path, help="deck list file")
    p.add_argument("--lake", type=Path, help="a lake folder whose charge table sets the cap")
    p.add_argument("--format", dest="format_name", default="standard", metavar="FORMAT",
                   help="the format whose charges apply (default: standard)")
    when = p.add_mutually_exclusive_group()
    when.add_argument("--date", type=iso_date, metavar="YYYY-MM-DD",
                      help="use the table in force on this day")
    when.add_argument("--tournament", metavar="ID", help="use the table in force at this tournament")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=run)


NO_LAKE = "no lake given (--lake LAKE checks the charge cap)"


def run(args: argparse.Namespace) -> int:
    from postgame.commands.charges import connect_lake

    get_game(args.game)  # an unknown game is refused before the file is read
    charges = None
    if args.lake is not None:
        con = connect_lake(args.lake)
        charges = season_of(con, args.game, args.format_name)
    return show_verdict(args.game, args.file, charges, args.date or args.tournament,
                        args.json, NO_LAKE)


def season_of(con: Any, game: str, fmt: str) -> Callable[[], Any]:
    """The charge season of a lake's connection, computed only when the verdict needs it."""
    def season() -> Any:
        from pipeline.charges import compute_charges

        return compute_charges(con, game, fmt)
    return season


def load_deck(path: Path) -> tuple[Any, dict[tuple[str, int], int] | None]:
    """The deck list in `path` and its entries' lines; a missing or bad file is a user error."""
    from engine.decklist import DeckListError

    if not path.is_file():
        raise UserError(f"{path}: no such deck file")
    try:
        return read_deck_file(path)
    except DeckListError as err:  # names the file and the line
        raise UserError(str(err)) from err


def judge_file(game: str, path: Path, charges: Callable[[], Any] | None,
               when: date | str | None, no_charges: str = NO_CHARGES) -> DeckVerdict:
    """The verdict on the deck in `path` (pipeline.deck_verdict); an unreadable file or a tournament
    the lake does not hold is a user error."""
    from pipeline.charges import ChargeError

    deck, lines = load_deck(path)
    try:
        return judge_deck(game, deck, lines=lines, charges=charges, when=when,
                          no_charges=no_charges)
    except ChargeError as err:
        raise UserError(str(err)) from err


def show_verdict(game: str, path: Path, charges: Callable[[], Any] | None,
                 when: date | str | None, as_json: bool, no_charges: str = NO_CHARGES,
                 extra: Callable[[DeckVerdict], None] | None = None) -> int:
    """Judge the deck in `path` and print the verdict, as text or JSON; `extra` adds a
    command's own detail below the text (the charges command's contributions)."""
    verdict = judge_file(game, path, charges, when, no_charges)
    if as_json:
        print_json({"file": str(path), **verdict.as_json()})
    else:
        print("\n".join(verdict.text(str(path))))
        if extra is not None:
            extra(verdict)
    return OK if verdict.legal else FOUND_PROBLEMS


def iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None
