"""Vampire V20 combat's one registration (data/v20/game.toml) and its simulation kit: parties as
builds (data/v20/builds.toml), scenes from scenario files (data/v20/scenarios/*.toml or a path),
played in scenario sweeps, with the tactical bot and the simulated Storyteller; winning chances
play out from scenes sampled from a side's view (engine.v20.determinize), ruled by the
scenario's Storyteller (playout_storyteller).

A scenario file may seat its own two parties ([sides.A], [sides.B]): a sweep then plays that
pairing alone; without them it is the frame every pairing of builds is fought in.
"""
from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.bots import Observation, SeatView, require_observation
from engine.games import SWEEP, GameKit, Place
from engine.registry import DATA_DIR, Registration, info, load_info
from events.base import Header
from events.v20 import Party, Scenario

HERE = DATA_DIR / "v20"
SCENARIOS = HERE / "scenarios"
SIDES = ("A", "B")


def registration() -> Registration:
    return Registration(info=load_info("v20"), layers={
        "events": "events.v20:Event",
        "setup": "events.v20:Party",
        "scenario": "events.v20:Scenario",
        "ruleset": "engine.v20.rules:RULESETS",
        "narration": "engine.v20.narrate:NARRATION",
        "kit": "engine.v20.game:kit",
        "facts": "pipeline.facts.v20:V20Facts",
        "commands": "postgame.commands.dice:register",
        "board": "dashboards.boards.v20:render_svg",
    })


class ScenarioFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A scenario file as a storyteller writes it: the header's scenario block, and maybe the
    two parties it seats."""

    name: str
    title: str = ""
    turn_limit: int | None = None
    ambushes: tuple[Any, ...] = ()
    storyteller: dict[str, Any] = {}
    sides: dict[str, dict[str, Any]] = {}


def _builds() -> dict[str, Party]:
    raw = tomllib.loads((HERE / "builds.toml").read_text(encoding="utf-8"))["builds"]
    return {name: msgspec.convert({"name": fields.get("title", name),
                                   "fighters": fields["fighters"]}, Party)
            for name, fields in raw.items()}


BUILDS: dict[str, Party] = {}
"""The parties a sweep pairs (data/v20/builds.toml), by name."""
SEATED: dict[str, tuple[str, str]] = {}
"""Scenario name -> the builds it seats, once its file is loaded."""
SCENE_PARTIES: dict[str, Party] = {}
"""The parties scenario files seat, as "<scenario>:A" and "<scenario>:B": builds a sweep of
that scenario plays, never paired with the others."""


def builds() -> dict[str, Party]:
    if not BUILDS:
        BUILDS.update(_builds())
    return BUILDS


def layout(size: int) -> tuple[Place, ...]:
    return (Place(side="A"), Place(side="B"))


def build_setup(build: str, place: Place, rng: random.Random) -> Party:
    """The party of `build`; on side B a sweep's ids get "_b" so a mirror match keeps every
    id unique (a scenario's own parties keep theirs)."""
    table = builds() | SCENE_PARTIES
    if build not in table:
        raise ValueError(f"unknown build {build!r}; builds: {', '.join(builds())}")
    party = table[build]
    if place.side != "B" or ":" in build:
        return party
    fighters = tuple(msgspec.structs.replace(f, id=f"{f.id}_b") for f in party.fighters)
    return msgspec.structs.replace(party, fighters=fighters)


def load_scenario(name: str) -> Scenario:
    """A scenario by name (data/v20/scenarios/NAME.toml) or from a file: its header block; the
    parties it seats become builds "<name>:A" and "<name>:B"."""
    path = SCENARIOS / f"{name}.toml" if (SCENARIOS / f"{name}.toml").is_file() else Path(name)
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in SCENARIOS.glob("*.toml")))
        raise ValueError(f"no scenario {name!r}: neither one of {known} nor a file")
    try:
        written = msgspec.convert(tomllib.loads(path.read_text(encoding="utf-8")), ScenarioFile)
        scenario = msgspec.convert({k: v for k, v in msgspec.to_builtins(written).items()
                                    if k != "sides"}, Scenario)
        parties = {side: msgspec.convert(written.sides[side], Party) for side in written.sides}
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path}: not a V20 scenario: {err}") from None
    except msgspec.ValidationError as err:
        raise ValueError(f"{path}: not a V20 scenario: {err}{_rule_of(str(err))}") from None
    _seat(path, scenario, parties)
    return scenario


FIELD_RULES = {"turn_limit": "V20-14.2", "ambushes": "V20-6.7", "storyteller": "V20-12.12",
               "sides": "V20-1.1", "blood": "V20-3.6", "willpower": "V20-3.6",
               "damage": "V20-3.6", "weapons": "V20-3.6", "armor": "V20-3.6"}
"""The rule a scenario field serves, named when the field is wrong."""


def _rule_of(message: str) -> str:
    found = [rule for name, rule in FIELD_RULES.items() if f".{name}" in message
             or f"`{name}`" in message]
    return f" ({found[-1]})" if found else ""


def _seat(path: Path, scenario: Scenario, parties: dict[str, Party]) -> None:
    """The file's own parties, if it seats some, as the builds its name now stands for (a
    scenario read again, or another file of the same name, replaces what was there)."""
    SEATED.pop(scenario.name, None)
    if not parties:
        return
    if sorted(parties) != list(SIDES):
        raise ValueError(f"{path}: [sides] holds A and B, not {', '.join(sorted(parties))} "
                         "(V20-1.1)")
    from engine.v20.setup import initial_state
    from events.base import Header, Seat

    seats = [Seat(seat=i, player=side, setup=parties[side]) for i, side in enumerate(SIDES)]
    try:  # the scene as the rules will set it up: a bad fighter is refused now, by name
        initial_state(Header(game="v20", ruleset="v20@1", match_id=scenario.name,
                             seats=seats, scenario=scenario))
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
    for side, party in parties.items():
        SCENE_PARTIES[f"{scenario.name}:{side}"] = party
    SEATED[scenario.name] = (f"{scenario.name}:A", f"{scenario.name}:B")


def scenario_builds(scenario: Any) -> tuple[str, ...] | None:
    return SEATED.get(getattr(scenario, "name", ""))


class ScenarioStoryteller:
    """The simulated Storyteller of a logged match, for the playouts of its winning chances
    (engine.chances): StorytellerPolicyBot ruling with the policy of the header's scenario,
    which is the one the match was simulated with (V20Rules.setup puts it in the state). A scene
    sampled from a side's view holds no policy (the organiser alone sees it,
    engine.v20.determinize), so this one brings it along."""

    name = "storyteller"

    def __init__(self, policy: dict[str, Any] | None) -> None:
        self.policy = policy

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        from engine.v20.storyteller import StorytellerPolicyBot

        view = require_observation(seen, SeatView).view()
        ruled = SeatView(seat=seen.seat, shown={**view, "policy": self.policy})
        return StorytellerPolicyBot().choose(ruled, legal, rng)


def playout_storyteller(header: Header) -> ScenarioStoryteller:
    """The Storyteller policy the playouts of a logged match are ruled by: its scenario's
    (header.scenario.storyteller), as `postgame simulate v20` ruled it; none for a header with
    no scenario block (the rules' defaults: positions confirmed, no trigger)."""
    scenario = header.scenario if isinstance(header.scenario, Scenario) else None
    return ScenarioStoryteller(None if scenario is None else
                               msgspec.to_builtins(scenario.storyteller))


def kit() -> GameKit:
    from engine.v20.bot import TacticalBot
    from engine.v20.determinize import determinize
    from engine.v20.render import render_text
    from engine.v20.storyteller import StorytellerPolicyBot

    meta = info("v20")
    return GameKit(
        name=meta.name, ruleset=meta.rulesets[-1], prefix=meta.prefix,
        archetypes=tuple(builds()), bots={"tactical": TacticalBot}, default_bot="tactical",
        render_text=render_text, storyteller=StorytellerPolicyBot, format=SWEEP,
        table_sizes=(2,), layout=layout, build_setup=build_setup, load_scenario=load_scenario,
        default_scenario="bonfire", scenario_builds=scenario_builds, determinize=determinize,
        playout_storyteller=playout_storyteller)
