"""Play one match between bots, producing the events a client would have logged.

Reproducibility: a match draws every random choice (chance outcomes and bot choices) from one
`random.Random`, seeded from its header's seed; seeds are derived from a tournament seed, round
and table with a stable hash (never Python's salted `hash()`), so a whole season replays
identically from one number, in any process and with any worker count.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from engine.bots import Bot, observe
from engine.ruleset import CHANCE, STORYTELLER, Outcome, Ruleset, RuleViolation, actor_name
from events.base import Header

MAX_EVENTS = 20_000
"""A match longer than this is a runaway (a ruleset or bot that never ends): stop it."""


class SimulationError(RuntimeError):
    """A simulated match that cannot go on: a bot chose an illegal event or it never ended."""


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from its parts, the same on every machine and Python version."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def play_match(ruleset: Ruleset, header: Header, bots: Mapping[int, Bot], rng: random.Random,
               max_events: int = MAX_EVENTS, storyteller: Bot | None = None
               ) -> tuple[list[Any], Outcome]:
    """Play from setup to the end; returns the events (chance outcomes, rulings and decisions)
    and the outcome.

    Every chosen event goes through `apply`, so a bot cannot smuggle an illegal move into a log.
    A bot gets its seat's observation, never the state (engine/bots.py); chance outcomes are drawn
    here from the real state, the simulator being the dealer; a game with a Storyteller gets its
    rulings from the `storyteller` policy. When several seats are awaited at once (secret
    choices made at the same time) they choose in the order the game lists them, each from its
    own observation, in which the others' choices are still hidden.
    """
    return play_on(ruleset, header, ruleset.setup(header), bots, rng, max_events, storyteller)


def play_on(ruleset: Ruleset, header: Header, state: Any, bots: Mapping[int, Bot],
            rng: random.Random, max_events: int = MAX_EVENTS, storyteller: Bot | None = None
            ) -> tuple[list[Any], Outcome]:
    """Play `state` (changed in place) to the end, as play_match plays from setup: the events
    from here on and the outcome. What a playout from a position of a match is
    (engine.chances)."""
    events: list[Any] = []
    while actors := ruleset.awaiting(state):
        if len(events) >= max_events:
            raise SimulationError(f"match {header.match_id}: no end after {max_events} events")
        actor = actors[0]
        event = _next_event(ruleset, state, actor, bots, storyteller, rng, header)
        try:
            ruleset.apply(state, event)
        except RuleViolation as err:
            raise SimulationError(f"match {header.match_id}: event {len(events) + 1} by "
                                  f"{actor_name(actor)} refused: {err}") from err
        events.append(event)
    outcome = ruleset.outcome(state)
    if outcome is None:
        raise SimulationError(f"match {header.match_id}: nobody to move but no outcome")
    return events, outcome


def _next_event(ruleset: Ruleset, state: Any, actor: int, bots: Mapping[int, Bot],
                storyteller: Bot | None, rng: random.Random, header: Header) -> Any:
    if actor == CHANCE:
        return ruleset.sample_chance(state, rng)
    if actor == STORYTELLER:
        if storyteller is None:
            raise SimulationError(f"match {header.match_id}: the rules await the Storyteller "
                                  "but the simulation has no Storyteller policy")
        bot = storyteller
    else:
        bot = bots[actor]
    return bot.choose(observe(ruleset, state, actor), ruleset.legal(state, actor), rng)
