"""Game kits: what the simulator and the command line need to know about each game.

A kit bundles the ruleset key, the deck archetypes and how to build and check decks, the game's
own bots, an optional text board renderer and the card -> base card mapping of charges (CH-2.10,
what the simulator's SeasonCharges counts decks by). Each game's kit is one layer of
its registration (engine.registry), found by an import reference ("module:function") rather than
by object, so that loading a game stays lazy (the toy game of the tests never imports Vitorian)
and a worker process can load the same kit from the reference alone, whatever the
multiprocessing start method.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine import registry
from engine.bots import BotFactory
from engine.registry import UnknownGame
from events.base import DeckList

__all__ = ["GameKit", "UnknownGame", "game_ref", "get_game", "known_games", "load_kit",
           "register_game", "same_card"]

DeckBuilder = Callable[[str, random.Random, str], DeckList]
DeckChecker = Callable[[DeckList], list[tuple[str, str]]]
BoardRenderer = Callable[[dict[str, Any]], str]
CardBase = Callable[[str], str]


def same_card(card: str) -> str:
    """The card_base of a game without evolutions: every card is its own base."""
    return card


@dataclass(frozen=True)
class GameKit:
    name: str
    """The game's name, as in Header.game and Ruleset.game."""
    ruleset: str
    """The registry key of the ruleset new matches are played with ("vitorian@1")."""
    prefix: str
    """Short code starting tournament ids ("vw" -> "vw-2026-001")."""
    archetypes: tuple[str, ...]
    build_deck: DeckBuilder
    check_deck: DeckChecker
    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    default_bot: str = "random"
    render_text: BoardRenderer | None = None
    card_base: CardBase = same_card
    """CH-2.10: a card id -> the id whose charge it shares and as which it counts for n_c (an
    Eredan evolution -> its family's base card); identity for games without evolutions."""
    storyteller: BotFactory | None = None
    """The seeded policy that logs the Storyteller's rulings in simulation (games that have a
    Storyteller, engine.registry.GameInfo.storyteller)."""


def known_games() -> list[str]:
    return registry.known_games()


def game_ref(name: str) -> str:
    """The reference worker processes load the game from (its registration's)."""
    return registry.game_ref(name)


def get_game(name: str) -> GameKit:
    return load_kit(game_ref(name))


@cache
def load_kit(ref: str) -> GameKit:
    """The kit of the game whose registration `ref` names, registering the game in this process
    if needed (cached per process)."""
    reg = registry.load_registration(ref)
    kit = registry.load_ref(reg.layers["kit"])()
    if not isinstance(kit, GameKit):
        raise TypeError(f"{ref} built {type(kit).__name__}, not a GameKit")
    return kit


def register_game(name: str, ref: str) -> None:
    """Register (or replace) the game `name`, whose registration the function at `ref` builds."""
    registry.register_game(name, ref)
    load_kit.cache_clear()
