"""The steps a V20 scene queues for chance: a roll whose pool and difficulty are fixed when it
is queued, so the log must then hold exactly that many dice (V20-2.2)."""
from __future__ import annotations

from typing import Any

from engine.ruleset import CHANCE
from engine.v20.pools import Pool
from engine.v20.state import Attack, Fighter, Step


def roll_step(f: Fighter, purpose: str, pool: Pool, *, can_botch: bool = True,
              attack: Attack | None = None, data: dict[str, Any] | None = None) -> Step:
    return Step(what="roll", actor=CHANCE, character=f.id, purpose=purpose,
                pool=max(pool.dice, 0), difficulty=pool.difficulty, specialty=pool.specialty,
                auto=pool.auto, can_botch=can_botch, attack=attack, data=dict(data or {}))
