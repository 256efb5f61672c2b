"""Game kits: what the simulator and the command line need to know about each game.

A kit bundles the ruleset key, the deck archetypes and how to build and check decks, the game's
own bots, an optional text board renderer and the card -> base card mapping of charges (CH-2.10,
what the simulator's SeasonCharges counts decks by). A game whose seats bring something else
than a deck (a start, a build) gives a setup builder instead; a game of roles or of scenarios
says which event format it is played in (engine.formats), at which table sizes, how a table of
each size is seated (side and role per seat), and where its scenarios are; a game with a
Storyteller gives the policy that rules in simulation. Each game's kit is one layer of
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
from engine.bots import Bot, BotFactory
from engine.registry import UnknownGame
from events.base import DeckList, Header

__all__ = ["FORMATS", "ROLES", "SWEEP", "SWISS", "GameKit", "Place", "UnknownGame", "game_ref",
           "get_game", "known_games", "load_kit", "register_game", "same_card", "seats_alike"]

SWISS, ROLES, SWEEP = "swiss", "roles", "sweep"
FORMATS = (SWISS, ROLES, SWEEP)
"""How a game's events are run (engine.formats): Swiss pairing of two-seat symmetric games,
role rotation for games of roles, sweeps of every pairing of builds for games of scenarios."""


@dataclass(frozen=True)
class Place:
    """One seat of a table as the game lays it out: its side and role, in the game's words (both
    None for games whose seats are all alike)."""

    side: str | None = None
    role: str | None = None


DeckBuilder = Callable[[str, random.Random, str], DeckList]
DeckChecker = Callable[[DeckList], list[tuple[str, str]]]
BoardRenderer = Callable[[dict[str, Any]], str]
CardBase = Callable[[str], str]
SeatLayout = Callable[[int], tuple[Place, ...]]
"""A table size -> the place of each seat, seat 0 first."""
SetupBuilder = Callable[[str, Place, random.Random], Any]
"""(archetype or build, the seat's place, rng) -> what the seat brings: the game's setup type."""
ScenarioLoader = Callable[[str], Any]
"""A scenario's name or a file -> the header's scenario block (ValueError if it has none)."""


def same_card(card: str) -> str:
    """The card_base of a game without evolutions: every card is its own base."""
    return card


def seats_alike(count: int) -> tuple[Place, ...]:
    """The layout of a game whose seats are all alike: no sides, no roles."""
    return tuple(Place() for _ in range(count))


def no_decks(deck: DeckList) -> list[tuple[str, str]]:
    """The deck check of a game whose seats bring no deck: any deck list is refused."""
    why = "this game is played without decks: each seat brings its game's own setup"
    return [("SETUP", why)]


def no_deck_builder(archetype: str, rng: random.Random, name: str) -> DeckList:
    raise ValueError("this game is played without decks: build its seats with build_setup")


@dataclass(frozen=True)
class GameKit:
    name: str
    """The game's name, as in Header.game and Ruleset.game."""
    ruleset: str
    """The registry key of the ruleset new matches are played with ("vitorian@1")."""
    prefix: str
    """Short code starting tournament ids ("vw" -> "vw-2026-001")."""
    archetypes: tuple[str, ...] = ()
    """Deck archetypes (Swiss, roles) or the builds a sweep pairs (the setup builder's names)."""
    build_deck: DeckBuilder = no_deck_builder
    check_deck: DeckChecker = no_decks
    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    default_bot: str = "random"
    render_text: BoardRenderer | None = None
    card_base: CardBase = same_card
    """CH-2.10: a card id -> the id whose charge it shares and as which it counts for n_c (an
    Eredan evolution -> its family's base card); identity for games without evolutions."""
    storyteller: BotFactory | None = None
    """The seeded policy that logs the Storyteller's rulings in simulation (games that have a
    Storyteller, engine.registry.GameInfo.storyteller)."""
    format: str = SWISS
    """The event format the game is played in (FORMATS)."""
    table_sizes: tuple[int, ...] = (2,)
    """The seat counts a table of the game may have."""
    default_table_size: int | None = None
    """The table size when none is asked for (None: the smallest)."""
    layout: SeatLayout = seats_alike
    build_setup: SetupBuilder | None = None
    """What a seat brings, for games without decks (None: the seat brings build_deck's deck)."""
    load_scenario: ScenarioLoader | None = None
    """A game played from scenarios: its scenario blocks by name (or from a file)."""
    default_scenario: str | None = None
    card_catalog: Callable[[], Any] | None = None
    """A card game's catalog as deck files name cards (`find(name)`, `by_id`): what deck checks
    suggest near-miss names from and tell a deck of another game by."""
    scenario_builds: Callable[[Any], tuple[str, ...] | None] | None = None
    """A scenario that seats its own builds (one per side, in layout order; their names work
    with build_setup): a sweep then plays that pairing alone. None: every scenario is a frame
    for all the builds."""
    faction_names: Callable[[], Mapping[str, str]] | None = None
    """The game's own name of each faction its decks are counted by (the lake's decks.faction:
    a Vitorian Sovereign's colour, an Eredan deck's guilds), as people read them ("runic_legion"
    -> "Runic Legion"), for the app's labels. None: the ids are shown as the logs wrote them."""
    determinize: Callable[[Any, random.Random], Any] | None = None
    """(a seat's observation from the ruleset's `observe`, rng) -> a whole state consistent
    with it, hidden cards drawn, never the real ones: what winning chances play out from
    (engine.chances). None: the game's chances cannot be estimated yet."""
    card_factions: Callable[[], Mapping[str, tuple[str, ...]]] | None = None
    """Each card id -> the factions (as decks.faction spells them, or its "+"-joined parts) whose
    decks it is made for; () for a card any deck may hold. What a card's inclusion within its own
    faction counts over (pipeline.card_rates). None: no card has a faction."""
    playout_storyteller: Callable[[Header], Bot] | None = None
    """A logged match's header -> the Storyteller policy its winning chances' playouts are ruled
    by (engine.chances winning_chances(storyteller=...)), brought from the header since a state
    sampled from a seat's view holds none (games that have a Storyteller; None: the game has
    none)."""

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"{self.name}: unknown event format {self.format!r}; formats: "
                             f"{', '.join(FORMATS)}")
        if self.default_table_size not in (None, *self.table_sizes):
            raise ValueError(f"{self.name}: default table size {self.default_table_size} is "
                             f"not among {self.table_sizes}")

    def table_size(self, asked: int | None = None) -> int:
        """The seats per table: `asked` if the game has tables of that size (ValueError else)."""
        size = asked if asked is not None else self.default_table_size or min(self.table_sizes)
        if size not in self.table_sizes:
            sizes = ", ".join(map(str, self.table_sizes))
            raise ValueError(f"{self.name} is played at tables of {sizes} seats, not {size}")
        return size

    def setup(self, archetype: str, place: Place, rng: random.Random) -> Any:
        """What a seat brings: the setup builder's, or else a deck of the archetype."""
        if self.build_setup is not None:
            return self.build_setup(archetype, place, rng)
        return self.build_deck(archetype, rng, archetype)

    def fixed_builds(self, scenario: Any) -> tuple[str, ...] | None:
        """The builds `scenario` seats, if it seats its own (scenario_builds)."""
        if self.scenario_builds is None or scenario is None:
            return None
        return self.scenario_builds(scenario)

    def scenario(self, asked: str | None = None) -> Any:
        """The scenario block matches are played from (None: a game without scenarios)."""
        name = asked or self.default_scenario
        if self.load_scenario is None:
            if asked:
                raise ValueError(f"{self.name} is not played from scenarios")
            return None
        if name is None:
            raise ValueError(f"{self.name} is played from scenarios: name one")
        return self.load_scenario(name)


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
