"""The one registry of games: each game registers once, every layer is looked up from it.

A game is registered by an import reference ("engine.vitorian.game:registration") to a function
of its own package returning a Registration: the game's metadata (GameInfo, read from
data/<game>/game.toml) and an import reference per layer (its event union, ruleset, kit, fact
extractor, charge catalog, board picture). Nothing is imported until a layer is asked for, so the
toy game of the tests never loads Vitorian, a worker process rebuilds the same registry from a
reference alone, and engine/ names the pipeline's and the app's layers without importing them.

This module imports no game and no other engine module: events/, engine/ruleset.py, pipeline/
and dashboards/ all ask it, so it must stay below all of them.
"""
from __future__ import annotations

import importlib
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

DATA_DIR = Path(__file__).resolve().parents[1] / "data"

REQUIRED_LAYERS = ("events", "setup", "ruleset", "narration", "kit", "facts")
"""The layers every game has: logs to read (its events and what a seat brings to the table, a
deck list or a character sheet), rules to check them, what each perspective may see of a match
and the words for it (engine.narration), a kit to simulate, lake facts."""
CAPABILITY_LAYERS: Mapping[str, str] = {"charges": "cards", "board": "board"}
"""A capability -> the layer it needs: charges need the game's card catalog for the pipeline
(pipeline.charges.GameCards), a board needs the app's SVG renderer."""
OPTIONAL_LAYERS = ("scenario", "sql", "commands")
"""A game played from scenarios registers the type of a header's scenario block; a game whose
package holds its own metric models registers their folder ("sql": a Path or a folder name,
pipeline.metrics reads it besides pipeline/sql/<game>); a game with command-line tools of its
own registers the function that adds them ("commands": register(subparsers), as each of
postgame.commands does)."""
LAYERS = (*REQUIRED_LAYERS, *OPTIONAL_LAYERS, "cards", "board")


class Side(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One side of the table: how many seats play it and the roles they take (none: all alike)."""

    name: str
    seats: int = 1
    roles: tuple[str, ...] = ()


class GameInfo(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a game is, as data: what `postgame games` lists and what tests check layers against."""

    name: str
    """As in Header.game and Ruleset.game."""
    title: str
    rulesets: tuple[str, ...]
    """Every ruleset key logs of the game may name ("vitorian@1"); the last one is played."""
    prefix: str
    """Short code starting tournament ids ("vw" -> "vw-2026-001")."""
    min_seats: int
    max_seats: int
    sides: tuple[Side, ...]
    symmetric: bool
    """Whether every side plays by the same rules (no roles, no Storyteller)."""
    chance: bool
    """Whether the log holds chance outcomes (shuffles, dice)."""
    storyteller: bool
    information: str
    """"hidden" (some seats know what others do not) or "open"."""
    capabilities: tuple[str, ...] = ()
    """Among "decks", "cards", "charges", "board": CAPABILITY_LAYERS says what each needs."""
    suite: tuple[str, ...] = ()
    """The metric models a report of the game runs, in order (pipeline/sql/*/<model>.sql);
    none named: the core models every game has (pipeline.metrics.CORE_SUITE)."""
    hand_sections: tuple[str, ...] = ()
    """The deck sections whose cards are drawn into a hand; a card of another section (a
    Sovereign, a character, a resource pile) never is, so the card rates about hands and plays
    say nothing of it. None named: every section reaches the hand."""
    archetype_sections: tuple[str, ...] = ()
    """The deck sections whose cards make a deck's archetype (pipeline.archetypes clusters deck
    lists by them and names archetypes by their cards); resource piles every deck fills alike
    would only blur it. None named: every section."""


@dataclass(frozen=True)
class Registration:
    """One game's single registration: its metadata and a "module:attribute" per layer."""

    info: GameInfo
    layers: Mapping[str, str] = field(default_factory=dict)


class UnknownGame(ValueError):
    pass


class MissingLayer(LookupError):
    """A game asked for a layer it does not register."""


BUILTIN: Mapping[str, str] = {"vitorian": "engine.vitorian.game:registration",
                              "eredan": "engine.eredan.game:registration",
                              "v20": "engine.v20.game:registration"}
GAMES_VARIABLE = "POSTGAME_GAMES"
"""Games of one's own, without editing postgame: `POSTGAME_GAMES="hunt=mygames.hunt:registration"`
(name=reference pairs, comma-separated) registers each for every command and worker process."""


def _from_environment(text: str) -> dict[str, str]:
    found = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, ref = item.partition("=")
        if not sep or not name.strip() or ":" not in ref:
            raise UnknownGame(f"{GAMES_VARIABLE}: {item!r} is not name=module:function")
        found[name.strip()] = ref.strip()
    return found


_REFS: dict[str, str] = dict(BUILTIN) | _from_environment(os.environ.get(GAMES_VARIABLE, ""))
_LOADED: dict[str, Registration] = {}


def load_info(game: str) -> GameInfo:
    """A game's metadata from data/<game>/game.toml, checked field by field."""
    path = DATA_DIR / game / "game.toml"
    return msgspec.convert(tomllib.loads(path.read_text(encoding="utf-8")), GameInfo)


def register_game(name: str, ref: str) -> None:
    """Register (or replace) the game `name`, whose registration the function at `ref` builds."""
    _REFS[name] = ref
    _LOADED.pop(name, None)


def known_games() -> list[str]:
    return sorted(_REFS)


def is_registered(name: object) -> bool:
    return isinstance(name, str) and name in _REFS


def game_ref(name: str) -> str:
    """The reference of a game's registration: what worker processes load the game from."""
    if name not in _REFS:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(known_games())}")
    return _REFS[name]


def registration(name: str) -> Registration:
    """A game's registration, built once per process."""
    if name not in _LOADED:
        _LOADED[name] = load_registration(game_ref(name))
    return _LOADED[name]


def load_registration(ref: str) -> Registration:
    """The registration at `ref`, registered in this process under its game's name if it is not
    yet (a worker process gets only the reference)."""
    reg = load_ref(ref)()
    if not isinstance(reg, Registration):
        raise TypeError(f"{ref} returned {type(reg).__name__}, not a Registration")
    _REFS.setdefault(reg.info.name, ref)
    if _REFS[reg.info.name] == ref:
        _LOADED.setdefault(reg.info.name, reg)
    return reg


def info(name: str) -> GameInfo:
    return registration(name).info


def has_layer(name: str, layer: str) -> bool:
    return is_registered(name) and layer in registration(name).layers


def layer(name: str, layer: str) -> Any:
    """The object a game registers for `layer`, imported on first use."""
    ref = registration(name).layers.get(layer)
    if ref is None:
        raise MissingLayer(f"game {name!r} registers no {layer} layer")
    return load_ref(ref)


def games_with(layer: str) -> list[str]:
    """The registered games that register `layer` (each one's registration is loaded)."""
    return [name for name in known_games() if has_layer(name, layer)]


@cache
def load_ref(ref: str) -> Any:
    """Import the module of a "module:attribute" reference and get the attribute (cached)."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def missing_layers(reg: Registration) -> list[str]:
    """What a registration lacks of what every game needs and its capabilities declare, each in
    words naming the layer (the completeness test's message)."""
    game = reg.info.name
    problems = [f"game {game!r} registers no {name} layer (every game needs one)"
                for name in REQUIRED_LAYERS if name not in reg.layers]
    problems += [f"game {game!r} declares capability {cap!r} but registers no {needed} layer"
                 for cap in reg.info.capabilities
                 if (needed := CAPABILITY_LAYERS.get(cap)) and needed not in reg.layers]
    problems += [f"game {game!r} registers an unknown layer {name!r}"
                 for name in reg.layers if name not in LAYERS]
    return problems
