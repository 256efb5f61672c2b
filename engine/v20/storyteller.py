"""The simulated Storyteller: the scenario's policy (events.v20.StorytellerPolicy), applied to
what the Storyteller sees (the organiser's view), so that every simulated fight replays without
a human (V20-1.1).

Each trigger rule fires once per character and scene, on a vampire still in the fight and not
already in frenzy: "start" on turn 1, "tastes_blood" after it fed or was fed on, "low_blood" when
its pool is below the rule's `below`, "hurt" when its track holds `boxes` or more. Its difficulty
is the rule's, else the cause's reference difficulty (V20-12.12). Flank and rear tags are
confirmed as the policy says (V20-6.4); a vampire fleeing in Rötschreck is cornered when the
policy corners the fleeing (V20-12.10).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.bots import Observation, SeatView, require_observation
from engine.v20.catalog import load_catalog
from events.v20 import Confirm, Cornered, Rulings, Trigger


class StorytellerPolicyBot:
    name = "storyteller"

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        view = require_observation(seen, SeatView).view()
        policy = view.get("policy") or {}
        step = (view.get("awaiting") or {}).get("step")
        if step == "confirm":
            return Confirm(confirmed=bool(policy.get("confirm_positions", True)))
        if step == "rulings":
            return Rulings(rulings=tuple(rulings(view, policy)))
        return legal[rng.randrange(len(legal))]


def rulings(view: dict[str, Any], policy: dict[str, Any]) -> list[Any]:
    found: list[Any] = []
    for character in (c for side in view["sides"] for c in side["characters"]):
        if character["status"] in ("final_death", "dead", "torpor") or character["gone"]:
            continue
        if policy.get("corner_fleeing") and character["rotschreck"] and not character.get(
                "cornered"):
            found.append(Cornered(character=character["id"]))
        if character["kind"] != "vampire" or character["frenzy"]:
            continue
        for rule in policy.get("triggers", ()):
            if rule["cause"] not in character["triggered"] and _fires(rule, character,
                                                                      view["turn"]):
                found.append(Trigger(character=character["id"], kind=rule.get("kind", "frenzy"),
                                     cause=rule["cause"], difficulty=_difficulty(rule)))
    return found


def _fires(rule: dict[str, Any], character: dict[str, Any], turn: int) -> bool:
    when = rule["when"]
    if when == "start":
        return turn == 1
    if when == "tastes_blood":
        return bool(character["fed"])
    if when == "low_blood":
        return int(character["blood"]["pool"]) < int(rule.get("below", 1))
    return len(character["boxes"]) >= int(rule.get("boxes", 4))


def _difficulty(rule: dict[str, Any]) -> int:
    if rule.get("difficulty") is not None:
        return int(rule["difficulty"])
    catalog = load_catalog()
    table = catalog.frenzy_triggers if rule.get("kind", "frenzy") == "frenzy" else \
        catalog.rotschreck_triggers
    if rule["cause"] in table:
        return table[rule["cause"]].difficulty
    raise ValueError(f"no reference difficulty for {rule['cause']!r} (V20-12.12): give the "
                     "trigger a difficulty")
