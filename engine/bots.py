"""Bots: who chooses a seat's decisions when the simulator plays a match.

A bot sees the whole state (simulated matches are not about hidden-information play) and picks
one of the legal decisions it is offered; all its randomness comes from the `rng` it is handed,
so a match stays reproducible from its seed. Game-independent bots live in BOTS; a game adds its
own (e.g. Vitorian's greedy bot) through its GameKit.bots.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.ruleset import Ruleset


class Bot(Protocol):
    def choose(self, ruleset: Ruleset, state: Any, seat: int, legal: Sequence[Any],
               rng: random.Random) -> Any:
        """One of `legal` (or another event the rules accept) for `seat` to play now."""
        ...


class RandomBot:
    """Uniform among the legal decisions: the baseline every other bot is measured against."""

    name = "random"

    def choose(self, ruleset: Ruleset, state: Any, seat: int, legal: Sequence[Any],
               rng: random.Random) -> Any:
        if not legal:
            raise ValueError(f"seat {seat} has no legal decision to choose from")
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
