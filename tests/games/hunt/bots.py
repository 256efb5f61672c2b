"""The Hunt's heuristic bot, deciding from its own seat's view like every bot (engine.bots).

As the fox it goes to ground and runs where the nearest hound is farthest; as a hound it runs
to close on every place the fox may be: where it was last sighted, widened by one step for each
run since (anywhere on the field, before its first sighting)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.bots import Observation, SeatView, require_observation
from tests.games.hunt.board import FIELD
from tests.games.hunt.events import Chase, Run


class Tracker:
    name = "tracker"

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        view = require_observation(seen, SeatView).view()
        if not legal:
            raise ValueError(f"seat {seen.seat} has no legal decision to choose from")
        if type(legal[0]) is Chase:
            return _best(legal, lambda e: _closing(e.to, fox_places(view)), rng)
        hounds = [h["place"] for h in view["hounds"]]
        return _best(legal, lambda e: -min(FIELD.distance[_place(e), h] for h in hounds), rng)


def fox_places(view: dict[str, Any]) -> list[str]:
    """Where the fox may be, as a hound may know it."""
    fox = view["fox"]
    if fox["place"] is not None:
        return [fox["place"]]
    hounds = {h["place"] for h in view["hounds"]}
    if fox["seen"] is None:
        return [p for p in FIELD.places if p not in hounds]
    runs = view["round"] - fox["seen"]["round"] + (view["phase"] == "chase")
    return [p for p in FIELD.within(fox["seen"]["place"], runs) if p not in hounds] or \
        list(FIELD.places)


def _closing(place: str, targets: list[str]) -> tuple[int, int]:
    """Nearest target first, then the nearest on the whole (lower is better)."""
    distances = [FIELD.distance[place, t] for t in targets]
    return min(distances), sum(distances)


def _place(event: Any) -> str:
    return str(event.to if type(event) is Run else event.place)


def _best(legal: Sequence[Any], cost: Any, rng: random.Random) -> Any:
    """One of the cheapest of `legal`, drawn with the match's rng (so a match replays)."""
    costs = [cost(e) for e in legal]
    low = min(costs)
    return rng.choice([e for e, c in zip(legal, costs) if c == low])
