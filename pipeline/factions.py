"""Factions by the game's own names: the lake counts decks by faction id (decks.faction, as
the logs wrote it: "runic_legion", "kotoba+noz_dingard", "red"), people read "Runic Legion".
Each game names its own through its kit (engine.games.GameKit.faction_names)."""
from __future__ import annotations

from functools import cache


@cache
def faction_names(game: str) -> dict[str, str]:
    """Faction id -> the game's name for it; none for a game without the hook, or one this
    build does not know (faction_name then shows the id)."""
    from engine import registry
    from engine.games import get_game

    if not registry.is_registered(game) or not registry.has_layer(game, "kit"):
        return {}
    named = get_game(game).faction_names
    return {} if named is None else {str(k): str(v) for k, v in named().items()}


def faction_name(names: dict[str, str], faction: object) -> str:
    """A faction's display name: the game's, else (an id of several "+"-joined parts, every
    part named) the parts' names joined with " + ", else the id itself."""
    text = str(faction)
    if text in names:
        return names[text]
    parts = text.split("+")
    if len(parts) > 1 and all(part in names for part in parts):
        return " + ".join(names[part] for part in parts)
    return text
