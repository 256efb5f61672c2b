"""The contract every game's rules meet, the errors they raise, and lookup by name@version.

Rulesets are found through the game registry (engine.registry), so this module, which every game
imports, imports no game: no cycle runs through the whole engine.
"""
from __future__ import annotations

import random
from typing import Any, Protocol

import msgspec

from engine import registry
from events.base import Header

CHANCE = -1
"""The seat number `to_move` answers when the next event must be a chance outcome."""

OMNISCIENT = "organiser"
SPECTATOR = "spectator"
Perspective = int | str
"""A seat number, OMNISCIENT (the organiser sees everything) or SPECTATOR (public only)."""


def sees_seat(perspective: Perspective, seat: int) -> bool:
    """Whether `perspective` may see what only `seat` knows (its hand, its secret changes): the
    organiser and that seat itself."""
    return perspective == OMNISCIENT or perspective == seat


class RuleViolation(ValueError):
    """An event the rules forbid; carries the rule ID it breaks."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


class UnsupportedRule(RuleViolation):
    """Something the engine does not support yet, refused naming the rule it would need."""


class DeckError(ValueError):
    """A deck list that breaks construction rules; lists every broken rule."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{rule}: {why}" for rule, why in problems))
        self.problems = problems


class UnknownRuleset(ValueError):
    pass


class Change(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One derived consequence of an event (a draw, a destruction, a hit...).

    `secret_to` names the only seat allowed to see `card`; other perspectives see it as hidden.
    """

    kind: str
    seat: int | None = None
    card: int | None = None
    name: str | None = None
    cell: tuple[int, int] | None = None
    amount: int | None = None
    secret_to: int | None = None
    text: str = ""


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    winner: int | None
    reason: str
    rule: str


class Ruleset(Protocol):
    """One game's rules. `apply` validates fully before it mutates, so a refused event leaves the
    state untouched."""

    name: str
    game: str
    version: int
    event_type: Any

    def setup(self, header: Header) -> Any: ...
    def clone(self, state: Any) -> Any: ...
    def to_move(self, state: Any) -> int | None: ...
    def legal(self, state: Any) -> list[Any]: ...
    def sample_chance(self, state: Any, rng: random.Random) -> Any: ...
    def apply(self, state: Any, event: Any) -> list[Change]: ...
    def turn(self, state: Any) -> int: ...
    def view(self, state: Any, perspective: Perspective) -> dict[str, Any]: ...
    def outcome(self, state: Any) -> Outcome | None: ...


class PendingSeatRules:
    """The Ruleset glue shared by games whose state has copy(), over, chance (outcomes awaited),
    pending (the seat awaited), turn, and winner, reason and rule once over."""

    def clone(self, state: Any) -> Any:
        return state.copy()

    def to_move(self, state: Any) -> int | None:
        if state.over:
            return None
        return CHANCE if state.chance else state.pending

    def turn(self, state: Any) -> int:
        return int(state.turn)

    def outcome(self, state: Any) -> Outcome | None:
        """How the match ended, once it is over (VW-12.1, ER-1.9); None while it goes on."""
        if not state.over:
            return None
        return Outcome(winner=state.winner, reason=state.reason, rule=state.rule)


def get_ruleset(key: str) -> Ruleset:
    """The ruleset a game registers as "name@version" (engine.registry, so this contract imports
    no game); a bare name means the newest version its game lists."""
    game = _game_of(key)
    if game is None:
        known = ", ".join(known_rulesets()) or "none"
        raise UnknownRuleset(f"unknown ruleset {key!r}; known rulesets: {known}")
    keys = registry.info(game).rulesets
    wanted = key if key in keys else keys[-1]
    for ruleset in _rulesets_of(game):
        if f"{ruleset.name}@{ruleset.version}" == wanted:
            return ruleset
    raise UnknownRuleset(f"game {game!r} lists ruleset {wanted!r} but its ruleset layer has "
                         "no such version")


def known_rulesets() -> list[str]:
    """Every ruleset key the registered games list (their metadata, no game is imported)."""
    return sorted(key for game in registry.known_games() for key in registry.info(game).rulesets)


def _game_of(key: str) -> str | None:
    """The registered game listing ruleset `key`, or named `key` (a bare name). The game named
    like the ruleset is asked first, so looking up one game's rules loads no other game."""
    named = key.partition("@")[0]
    first = [named] if registry.is_registered(named) else []
    for game in first + [g for g in registry.known_games() if g != named]:
        keys = registry.info(game).rulesets
        if key in keys or any(k.partition("@")[0] == key for k in keys):
            return game
    return None


def _rulesets_of(game: str) -> tuple[Ruleset, ...]:
    """A game's ruleset layer: one Ruleset, or a sequence of its versions."""
    found = registry.layer(game, "ruleset")
    return tuple(found) if isinstance(found, (list, tuple)) else (found,)
