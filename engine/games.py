"""Game kits: what the simulator and the command line need to know about each game.

A kit bundles the ruleset key, the deck archetypes and how to build and check decks, the game's
own bots, an optional text board renderer and the card -> base card mapping of charges (CH-2.10,
what the simulator's SeasonCharges counts decks by). Kits are registered by an import reference
("module:function") rather than by object, so that loading a game stays lazy (the toy game of the
tests never imports Vitorian) and a worker process can load the same kit from the reference alone,
whatever the multiprocessing start method.
"""
from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.bots import BotFactory
from events.base import DeckList

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


class UnknownGame(ValueError):
    pass


_KITS: dict[str, str] = {"vitorian": "engine.games:vitorian_kit",
                         "eredan": "engine.games:eredan_kit"}


def register_game(name: str, ref: str) -> None:
    """Register (or replace) the kit of `name`, built by the function at ref "module:function"."""
    _KITS[name] = ref
    load_kit.cache_clear()


def known_games() -> list[str]:
    return sorted(_KITS)


def game_ref(name: str) -> str:
    if name not in _KITS:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(known_games())}")
    return _KITS[name]


def get_game(name: str) -> GameKit:
    return load_kit(game_ref(name))


@cache
def load_kit(ref: str) -> GameKit:
    """Import and call the kit function a reference names (cached per process)."""
    module, _, attr = ref.partition(":")
    kit = getattr(importlib.import_module(module), attr)()
    if not isinstance(kit, GameKit):
        raise TypeError(f"{ref} returned {type(kit).__name__}, not a GameKit")
    return kit


def vitorian_kit() -> GameKit:
    """Vitorian Wars: imported only when asked for, so other games never load its catalog."""
    from engine.vitorian.archetypes import ARCHETYPES, build_deck
    from engine.vitorian.bot import GreedyBot
    from engine.vitorian.deckcheck import check_deck
    from engine.vitorian.render import render_text

    return GameKit(
        name="vitorian", ruleset="vitorian@1", prefix="vw", archetypes=tuple(ARCHETYPES),
        build_deck=build_deck, check_deck=check_deck, bots={"greedy": GreedyBot},
        default_bot="greedy",
        render_text=render_text,
    )


def eredan_kit() -> GameKit:
    """Eredan iTCG: one archetype per guild plus Mercenaries, the greedy bot by default."""
    from engine.eredan.archetypes import ARCHETYPES, build_deck
    from engine.eredan.bot import GreedyBot
    from engine.eredan.charges import card_base
    from engine.eredan.deckcheck import check_deck
    from engine.eredan.render import render_text

    return GameKit(
        name="eredan", ruleset="eredan@1", prefix="er", archetypes=ARCHETYPES,
        build_deck=build_deck, check_deck=check_deck, bots={"greedy": GreedyBot},
        default_bot="greedy", render_text=render_text, card_base=card_base,
    )
