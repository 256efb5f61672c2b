"""Bid's kit: played in scenario sweeps (every pairing of builds, both sides) at tables of 2 to
4 (seats alternate red, blue), builds and scenarios read from builds.toml and scenarios.toml or
a scenario file, the steady bot and the narrator as the simulated Storyteller."""
from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import msgspec

from engine.games import SWEEP, GameKit, Place
from tests.games.bid.bots import Narrator, Steady
from tests.games.bid.events import Build, Scenario
from tests.games.bid.rules import SIDES

HERE = Path(__file__).parent


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads((HERE / name).read_text(encoding="utf-8"))
    return data


BUILDS = {name: msgspec.convert({"name": name, **fields}, Build)
          for name, fields in _read("builds.toml")["builds"].items()}
SCENARIOS = {name: msgspec.convert({"name": name, **fields}, Scenario)
             for name, fields in _read("scenarios.toml")["scenarios"].items()}


def layout(size: int) -> tuple[Place, ...]:
    """Seats alternate red, blue, red, blue (BID-1)."""
    return tuple(Place(side=SIDES[seat % 2]) for seat in range(size))


def build_setup(build: str, place: Place, rng: random.Random) -> Build:
    if build not in BUILDS:
        raise ValueError(f"unknown build {build!r}; builds: {', '.join(BUILDS)}")
    return BUILDS[build]


def load_scenario(name: str) -> Scenario:
    """A scenario of scenarios.toml by name, or a TOML file of one (name, title, strength,
    rounds)."""
    if name in SCENARIOS:
        return SCENARIOS[name]
    path = Path(name)
    if not path.is_file():
        raise ValueError(f"no scenario {name!r}: neither one of {', '.join(SCENARIOS)} nor a "
                         "file")
    try:
        return msgspec.convert(tomllib.loads(path.read_text(encoding="utf-8")), Scenario)
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as err:
        raise ValueError(f"{path}: not a Bid scenario: {err}") from None


def render_text(view: dict[str, Any]) -> str:
    ruling = view["ruling"]
    told = "-" if ruling is None else "calm" if ruling["favours"] is None else \
        f"{ruling['favours']} +{ruling['bonus']}"
    lines = [f"{view['scenario']}: round {view['round']} of {view['rounds']} · ruling {told}",
             "  strength " + ", ".join(f"{s} {n}" for s, n in view["strength"].items())]
    for seat in view["seats"]:
        bid = "-" if not seat["sealed"] else "sealed" if seat["bid"] is None else seat["bid"]
        lines.append(f"  seat {seat['seat']} ({seat['side']}): purse {seat['purse']:>2}  "
                     f"guard {seat['guard']}  bid {bid}")
    return "\n".join(lines)


def kit() -> GameKit:
    return GameKit(name="bid", ruleset="bid@1", prefix="bid", archetypes=tuple(BUILDS),
                   bots={"steady": Steady}, default_bot="steady", render_text=render_text,
                   storyteller=Narrator, format=SWEEP, table_sizes=(2, 3, 4), layout=layout,
                   build_setup=build_setup, load_scenario=load_scenario,
                   default_scenario="skirmish")
