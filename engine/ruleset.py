"""The contract every game's rules meet, the errors they raise, and lookup by name@version.

Rulesets are found through the game registry (engine.registry), so this module, which every game
imports, imports no game: no cycle runs through the whole engine.
"""
from __future__ import annotations

import random
from typing import Any, ClassVar, Protocol

import msgspec

from engine import registry
from events.base import Header

CHANCE = -1
"""The actor of a chance outcome (a shuffle, a die roll): the dealer, never a player."""
STORYTELLER = -2
"""The actor of a Storyteller's ruling (a game master's input): neither a seat nor chance."""
Actor = int
"""A seat number (0, 1, ...), CHANCE or STORYTELLER."""

OMNISCIENT = "organiser"
SPECTATOR = "spectator"
Perspective = int | str
"""A seat number, OMNISCIENT (the organiser sees everything), SPECTATOR (public only), or a
perspective a game lists for itself (a side's, "side:hunters")."""

DEAL_RULE = "engine:deal"
"""The rule a refused Deal breaks. Dealing a seat's cards random instance ids at setup is our
[decision], in no game's spec: an id then tells nothing of the hidden list beyond the card
itself (the card games' "Hidden information")."""

WIN, LOSS, DRAW = "win", "loss", "draw"
RESULTS = (WIN, LOSS, DRAW)


def actor_name(actor: Actor) -> str:
    """An actor in words, for messages: "seat 1", "chance", "the Storyteller"."""
    return {CHANCE: "chance", STORYTELLER: "the Storyteller"}.get(actor, f"seat {actor}")


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


class Change(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="kind"):
    """One derived consequence of an event (a draw, a destruction, a hit...): the base of every
    game's change types, which each game declares like its events, as tagged Structs (`kind` is
    the tag: "draw", "destroyed"...), with fields in its own words.

    `seat` is the seat the change concerns (None: the table). `secret_to` names the only seat
    allowed to see the fields the class lists as `private` (a drawn card): every other
    perspective but the organiser sees them as None (engine.narration.mask_change).
    """

    seat: int | None = None
    secret_to: int | None = None
    private: ClassVar[tuple[str, ...]] = ()

    @property
    def kind(self) -> str:
        """The change's tag, its kind in the game's words."""
        return str(type(self).__struct_config__.tag)


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a match ended: a result per seat, the winning side where there is one, why, and the
    rule that ended it."""

    results: tuple[str, ...]
    """Per seat, in seat order: WIN, LOSS or DRAW. Team games give every seat of the winning
    side WIN."""
    reason: str
    rule: str
    side: str | None = None
    """The side that won, in its game's words, for games of sides with several seats or roles
    (None: a draw, or a game whose seats each play for themselves, where `results` says it)."""

    def __post_init__(self) -> None:
        odd = [r for r in self.results if r not in RESULTS]
        if odd:
            raise ValueError(f"an outcome's results are {', '.join(RESULTS)}, not {odd}")

    @classmethod
    def decided(cls, winner: int | None, seats: int, reason: str, rule: str) -> Outcome:
        """The outcome of a game of seats playing for themselves: `winner` wins, every other
        seat loses; no winner is a draw for all."""
        results = tuple(DRAW if winner is None else WIN if seat == winner else LOSS
                        for seat in range(seats))
        return cls(results=results, reason=reason, rule=rule)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, result in enumerate(self.results) if result == WIN)

    @property
    def winner(self) -> int | None:
        """The one seat that won, when exactly one did (None: a draw, or a side of several)."""
        won = self.winners
        return won[0] if len(won) == 1 else None


class Ruleset(Protocol):
    """One game's rules. `apply` validates fully before it mutates, so a refused event leaves the
    state untouched.

    Actors: `awaiting` names every actor whose event the state waits for: one seat, CHANCE (the
    simulator or the recorder deals a chance outcome) or STORYTELLER (a ruling), or several seats
    at once when they choose in secret at the same time. Their events are logged one after the
    other in any order (the log stays totally ordered); `view` hides each choice from the
    others until the game reveals them all, once the last is in."""

    name: str
    game: str
    version: int
    event_type: Any

    def setup(self, header: Header) -> Any: ...
    def clone(self, state: Any) -> Any: ...
    def awaiting(self, state: Any) -> tuple[Actor, ...]: ...
    def legal(self, state: Any, actor: Actor) -> list[Any]: ...
    def sample_chance(self, state: Any, rng: random.Random) -> Any: ...
    def apply(self, state: Any, event: Any) -> list[Change]: ...
    def turn(self, state: Any) -> int: ...
    def view(self, state: Any, perspective: Perspective) -> dict[str, Any]: ...
    def outcome(self, state: Any) -> Outcome | None: ...


class PendingSeatRules:
    """The Ruleset glue shared by games of two seats taking turns, whose state has copy(), over,
    chance (outcomes awaited), pending (the seat awaited), turn, and winner, reason and rule once
    over."""

    def clone(self, state: Any) -> Any:
        return state.copy()

    def awaiting(self, state: Any) -> tuple[Actor, ...]:
        if state.over:
            return ()
        return (CHANCE,) if state.chance else (state.pending,)

    def to_move(self, state: Any) -> Actor | None:
        """The one actor awaited (these games never await two at once); None once over."""
        actors = self.awaiting(state)
        return actors[0] if actors else None

    def turn(self, state: Any) -> int:
        return int(state.turn)

    def outcome(self, state: Any) -> Outcome | None:
        """How the match ended, once it is over (VW-12.1, ER-1.9); None while it goes on."""
        if not state.over:
            return None
        return Outcome.decided(state.winner, len(state.players), state.reason, state.rule)


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
