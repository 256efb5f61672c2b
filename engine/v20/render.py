"""The V20 scene as text, for the terminal replay and the app's text board: the turn and its
initiative, each side's characters with their health track as the game draws it ("2X + 1/"),
level and statuses, and, where the perspective may see them, blood and Willpower
(engine.v20.view decides what is there)."""
from __future__ import annotations

from typing import Any

STATES = ("frenzy", "rotschreck", "cornered", "blind", "full_defense", "gone", "npc")


def render_text(view: dict[str, Any]) -> str:
    names = {c["id"]: c["name"] for side in view["sides"] for c in side["characters"]}
    lines = [f"turn {view['turn']} · {view['phase']}"]
    order = [f"{names.get(i['character'], i['character'])} {i['initiative']}"
             for i in view["initiative"] if i["initiative"] is not None]
    if order:
        lines.append("  initiative: " + ", ".join(order))
    for side in view["sides"]:
        party = f" · {side['party']}" if side.get("party") else ""
        lines.append(f"  side {side['side']}{party}")
        lines += [f"    {_character(c)}" for c in side["characters"]]
    return "\n".join(lines)


def _character(c: dict[str, Any]) -> str:
    health = "unhurt" if not c["boxes"] else f"{c['track']}, {c['level']}"
    states = [c["status"]] if c["status"] != "active" else []
    states += [s.replace("_", " ") for s in STATES if c.get(s)]
    text = f"{c['name']} ({c['kind']}): {health}" + "".join(f", {s}" for s in states)
    if "blood" in c:
        text += (f" · BP {c['blood']['pool']}/{c['blood']['max']}"
                 f" · WP {c['willpower']['pool']}/{c['willpower']['rating']}")
    declared = [a.replace("_", " ") for a in c["declared"] + c["extra"]]
    if declared:
        text += " · declared " + ", ".join(declared)
    return text
