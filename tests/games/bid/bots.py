"""Bid's heuristic bot and its Storyteller policy, each deciding from what it is shown.

The steady bidder spreads its purse over the rounds left, give or take a coin, and bids one
more when the ruling favours its side; the narrator (the simulated Storyteller, who sees the whole table) keeps the
match close: it favours the weaker side, by 2 when it trails by 4 or more, and calls a calm
round when the sides are level or, one time in four, anyway."""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from engine.bots import Observation, SeatView, require_observation
from tests.games.bid.events import Bid, Ruling


class Steady:
    name = "steady"

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        view = require_observation(seen, SeatView).view()
        me = view["seats"][seen.seat]
        left = view["rounds"] - view["round"] + 1
        amount = math.ceil(me["purse"] / left) + rng.choice((-1, 0, 0, 1))
        if view["ruling"] and view["ruling"]["favours"] == me["side"]:
            amount += 1
        return Bid(seat=seen.seat, amount=max(0, min(amount, me["purse"])))


class Narrator:
    name = "narrator"

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        view = require_observation(seen, SeatView).view()
        red, blue = view["strength"]["red"], view["strength"]["blue"]
        if red == blue or rng.random() < 0.25:
            ruling = Ruling()
        else:
            ruling = Ruling(favours="red" if red < blue else "blue",
                            bonus=2 if abs(red - blue) >= 4 else 1)
        return ruling if ruling in legal else rng.choice(list(legal))
