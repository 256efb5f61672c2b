"""Bots: who chooses a seat's decisions when the simulator plays a match.

Hidden information is sacred: a bot decides from what its own seat may see, never from the
state. The simulator hands it an `Observation` (the seat's `ruleset.view`, or a richer per-seat
observation the game owns through `ruleset.observe`), the legal decisions (public to the acting
seat) and an `rng`; a bot that needs a whole state for a lookahead samples the hidden part from
its observation with that rng (each game's determinize module), it never reads it. All a bot's
randomness comes from the `rng` it is handed, so a match stays reproducible from its seed.
Chance stays with the simulator, which is the dealer, not a player.

Game-independent bots live in BOTS; a game adds its own (e.g. Vitorian's greedy bot) through its
GameKit.bots.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from engine.ruleset import OMNISCIENT, STORYTELLER, Ruleset


class Observation(ABC):
    """What `seat` may see now, and nothing more. `view()` is its `ruleset.view(state, seat)`; a
    game's own observation adds what its bots need (still nothing the seat may not see) and
    builds the view only when asked, since most bots never read it."""

    seat: int

    @abstractmethod
    def view(self) -> dict[str, Any]:
        """The seat's view of the match (engine/ruleset.py `view`)."""


@dataclass(frozen=True, slots=True)
class SeatView(Observation):
    """The observation of a game without its own: the seat's view, taken when it was to act."""

    seat: int
    shown: Mapping[str, Any]

    def view(self) -> dict[str, Any]:
        return dict(self.shown)


class MaskedSight(Observation):
    """An observation told from a copy of the state with holes where the seat may not see
    (`known`), and the cards behind those holes as the game groups them (`unseen`).

    The copy is made the first time a bot reads it, not when the simulator hands it over: most
    decisions (a random bot's, a forced one) never read it, and a state copy per decision
    would more than halve simulation speed. A bot reads it within `choose`, before the match
    moves on; once made, the copy is all the observation keeps."""

    def __init__(self, seat: int, mask: Callable[[], tuple[Any, tuple[Any, ...]]]) -> None:
        self.seat = seat
        self._mask: Callable[[], tuple[Any, tuple[Any, ...]]] | None = mask
        self._masked: tuple[Any, tuple[Any, ...]] | None = None

    def _made(self) -> tuple[Any, tuple[Any, ...]]:
        if self._masked is None:
            assert self._mask is not None
            self._masked, self._mask = self._mask(), None
        return self._masked

    @property
    def known(self) -> Any:
        return self._made()[0]

    @property
    def unseen(self) -> tuple[Any, ...]:
        return self._made()[1]

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and isinstance(other, MaskedSight)
                and other.seat == self.seat and other._made() == self._made())

    __hash__ = None  # type: ignore[assignment]


Seen = TypeVar("Seen", bound=Observation)


class Bot(Protocol):
    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        """One of `legal` (or another event the rules accept) for `seen.seat` to play now."""
        ...


def observe(ruleset: Ruleset, state: Any, seat: int) -> Observation:
    """The observation the simulator hands `seat`'s bot: the game's own (`ruleset.observe`) when
    it has one, else the seat's view. This is the only place a bot's input is made from the state.
    The Storyteller (STORYTELLER) rules over the whole table: it sees what the organiser sees.
    """
    if seat == STORYTELLER:
        return SeatView(seat=seat, shown=ruleset.view(state, OMNISCIENT))
    game_observe = getattr(ruleset, "observe", None)
    if game_observe is not None:
        seen = game_observe(state, seat)
        if not isinstance(seen, Observation):
            raise TypeError(f"{ruleset.name}.observe gave {type(seen).__name__}, "
                            "not an Observation")
        return seen
    return SeatView(seat=seat, shown=ruleset.view(state, seat))


def require_observation(seen: object, kind: type[Seen]) -> Seen:
    """`seen` as an observation of `kind`, refused with a TypeError if it is anything else: a
    bot handed the state would be peeking at hidden cards."""
    if not isinstance(seen, kind):
        raise peeking(seen, kind.__name__)
    return seen


def peeking(seen: object, wanted: str) -> TypeError:
    """The error for a bot handed something other than the observation it decides from."""
    return TypeError(f"a bot decides from an {wanted}, not from {type(seen).__name__} "
                     "(bots never see the state)")


class RandomBot:
    """Uniform among the legal decisions: the baseline every other bot is measured against."""

    name = "random"

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        if not isinstance(seen, Observation):
            raise peeking(seen, "Observation")
        if not legal:
            raise ValueError(f"seat {seen.seat} has no legal decision to choose from")
        return legal[rng.randrange(len(legal))]


BotFactory = Callable[[], Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot}
"""Bots that play any game, by name."""


def make_bot(name: str, extra: dict[str, BotFactory] | None = None) -> Bot:
    """The bot called `name`, looked up in a game's own bots first, then in BOTS."""
    table = {**BOTS, **(extra or {})}
    if name not in table:
        raise KeyError(f"unknown bot {name!r}; known bots: {', '.join(sorted(table))}")
    return table[name]()
