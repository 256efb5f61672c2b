"""Winning chances, step by step: after every step of a match, each seat's estimated chance of
winning from there, as one perspective may estimate it.

Each estimate is the share of seeded bot playouts won from that position. A playout starts from
a whole state sampled from what the perspective may see (the game's `determinize`, the same
sampler its bots look ahead with: a seat's own unseen cards shuffled into their places, the
opponent's hidden ones guessed from the catalog), never from the real hidden cards; so the line
shown to a seat depends on nothing that seat cannot see. The organiser sees everything: its
playouts start from the real state. The bots then play it out, each from its own view (a game
with a Storyteller gets its rulings from the match's simulated Storyteller), and chance is drawn
from the sampled state.

A finished match needs no playout: its chances are its results (1 for a win, 0 otherwise). The
estimate comes with its sample size and Wilson 95% interval, and the steps where the chances
swing most are the match's turning points. Playout i draws from the same random stream at
every step (common random numbers), so the swing from one step to the next measures what the
step changed more than the luck of two independent samples.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.bots import Bot, RandomBot
from engine.replay import Replay
from engine.ruleset import OMNISCIENT, SPECTATOR, WIN, Perspective, Ruleset
from engine.simulate import SimulationError, derive_seed, play_on
from events.base import Header

NO_SEAT = -1
"""The seat a spectator's sight is taken for: no seat, so every hand is hidden."""


class ChancesUnavailable(ValueError):
    """Winning chances cannot be estimated for this game or perspective, or a playout could not
    finish (the message says which and why)."""


@dataclass(frozen=True)
class StepChances:
    """One step's estimate: per seat, the share of playouts it won and its 95% interval."""

    step: int
    turn: int
    playouts: int
    """0 when the match is over at this step: the chances are its results."""
    chance: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class ChanceLine:
    perspective: Perspective
    seed: int
    playouts: int
    steps: tuple[StepChances, ...]

    def turning_points(self, seat: int = 0, count: int = 5) -> list[tuple[int, float]]:
        """The steps whose chance for `seat` moved most from the step before, biggest swing
        first (ties: the earlier step), with the swing (signed)."""
        swings = [(b.step, b.chance[seat] - a.chance[seat])
                  for a, b in zip(self.steps, self.steps[1:])]
        swings.sort(key=lambda s: (-abs(s[1]), s[0]))
        return [s for s in swings[:count] if s[1] != 0]


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The Wilson 95% score interval of wins / n (statsmodels); no sample, no knowledge."""
    from statsmodels.stats.proportion import proportion_confint

    if n == 0:
        return 0.0, 1.0
    low, high = proportion_confint(wins, n, alpha=0.05, method="wilson")
    return float(low), float(high)


Sampler = Callable[[Any, random.Random], Any]
"""(a seat's observation, rng) -> a whole state consistent with it (GameKit.determinize)."""


def sample_world(ruleset: Ruleset, state: Any, perspective: Perspective,
                 determinize: Sampler | None, rng: random.Random) -> Any:
    """A whole state to play out from, drawn from what `perspective` may see."""
    if perspective == OMNISCIENT:
        return ruleset.clone(state)
    observe = getattr(ruleset, "observe", None)
    if determinize is None or observe is None:
        raise ChancesUnavailable(f"{ruleset.name}: winning chances need the game's sampler of "
                                 "hidden information (GameKit.determinize) to play out a "
                                 "position as a seat sees it")
    if perspective == SPECTATOR:
        return determinize(observe(state, NO_SEAT), rng)
    if not isinstance(perspective, int):
        raise ChancesUnavailable(f"{ruleset.name}: winning chances are estimated for a seat, "
                                 f"the spectator or the organiser, not {perspective!r}")
    return determinize(observe(state, perspective), rng)


def winning_chances(ruleset: Ruleset, header: Header, events: Sequence[Any],
                    perspective: Perspective, *, determinize: Sampler | None,
                    bots: Callable[[], dict[int, Bot]] | None = None, playouts: int = 24,
                    seed: int = 0, steps: Sequence[int] | None = None,
                    progress: Callable[[int, int], None] | None = None,
                    max_events: int = 5_000,
                    storyteller: Callable[[], Bot] | None = None) -> ChanceLine:
    """The chance line of a logged match for one perspective: `playouts` playouts at each of
    `steps` (default: every step), reproducible from `seed`. `bots` makes the playout bots
    (default: random bots for every seat); `storyteller` makes the Storyteller's policy of a
    game that has one, one per playout (default: none, for games without a Storyteller: a
    playout that awaits one cannot finish); `progress(done, total)` is told after each step."""
    replay = Replay(ruleset, header, events)
    seats = len(header.seats)
    chosen = list(range(len(events) + 1)) if steps is None else sorted(set(steps))
    make = bots or (lambda: {seat: RandomBot() for seat in range(seats)})
    line = []
    for done, step in enumerate(chosen, start=1):
        state = replay.seek(step)
        turn = ruleset.turn(state)
        line.append(_estimate(ruleset, header, state, step, turn, perspective, determinize,
                              make, playouts, seed, max_events, seats,
                              storyteller=storyteller))
        if progress is not None:
            progress(done, len(chosen))
    return ChanceLine(perspective, seed, playouts, tuple(line))


def _estimate(ruleset: Ruleset, header: Header, state: Any, step: int, turn: int,
              perspective: Perspective, determinize: Sampler | None,
              bots: Callable[[], dict[int, Bot]], playouts: int, seed: int, max_events: int,
              seats: int, *, storyteller: Callable[[], Bot] | None = None) -> StepChances:
    over = ruleset.outcome(state) if not ruleset.awaiting(state) else None
    if over is not None:
        won = tuple(1.0 if result == WIN else 0.0 for result in over.results)
        return StepChances(step, turn, 0, won, won, won)
    wins = [0] * seats
    for i in range(playouts):
        rng = random.Random(derive_seed(seed, i, str(perspective)))  # the same at every step
        world = sample_world(ruleset, state, perspective, determinize, rng)
        try:
            _, outcome = play_on(ruleset, header, world, bots(), rng, max_events=max_events,
                                 storyteller=None if storyteller is None else storyteller())
        except SimulationError as err:
            raise ChancesUnavailable(f"step {step}: a playout could not finish: {err}") from err
        for seat, result in enumerate(outcome.results):
            wins[seat] += result == WIN
    bounds = [wilson(w, playouts) for w in wins]
    return StepChances(step, turn, playouts, tuple(w / playouts for w in wins),
                       tuple(b[0] for b in bounds), tuple(b[1] for b in bounds))
