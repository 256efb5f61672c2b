"""The Hunt's kit: played in role rotation at tables of 2 to 5 (one fox, the rest hounds), each
seat's setup built for its role, the tracker bot, and a board in text."""
from __future__ import annotations

import random
from typing import Any

from engine.games import ROLES, GameKit, Place
from tests.games.hunt.board import FIELD
from tests.games.hunt.bots import Tracker
from tests.games.hunt.events import Start
from tests.games.hunt.rules import FOX, HOUND, SIDE_OF

FOX_PLACE = Place(side=SIDE_OF[FOX], role=FOX)
HOUND_PLACE = Place(side=SIDE_OF[HOUND], role=HOUND)


def layout(size: int) -> tuple[Place, ...]:
    """Seat 0 the fox, every other seat a hound (HUNT-1)."""
    return (FOX_PLACE,) + (HOUND_PLACE,) * (size - 1)


def build_setup(archetype: str, place: Place, rng: random.Random) -> Start:
    """A hound starts from a kennel the rng picks; the fox brings nothing (HUNT-1.3)."""
    return Start() if place.role == FOX else Start(place=rng.choice(FIELD.data.kennels))


def render_text(view: dict[str, Any]) -> str:
    fox = view["fox"]
    lines = [f"round {view['round']} of {view['rounds']} · {view['phase']}"
             + (f" · hounds run up to {view['reach']}" if view["reach"] else "")]
    where = FIELD.name(fox["place"])
    seen = fox["seen"]
    lines.append(f"  fox (seat {fox['seat']}): {where}" + (
        f"; last sighted at {FIELD.name(seen['place'])} in round {seen['round']}" if seen
        else ""))
    lines += [f"  hound (seat {h['seat']}): {FIELD.name(h['place'])}" for h in view["hounds"]]
    return "\n".join(lines)


def kit() -> GameKit:
    return GameKit(name="hunt", ruleset="hunt@1", prefix="hunt", bots={"tracker": Tracker},
                   default_bot="tracker", render_text=render_text, format=ROLES,
                   table_sizes=(2, 3, 4, 5), default_table_size=4, layout=layout,
                   build_setup=build_setup)
