"""The app's pages by game: each page is registered once, for every game or for the games that
declare a capability (engine.registry GameInfo.capabilities), or as one game's own page, as
boards are registered by game (dashboards/boards).

The navigation lists the pages of the game chosen in the sidebar, so a game without card
statistics shows no card pages at all, rather than empty ones; a page reached anyway (an old
address) says in one line that its game has none (widgets.require_capability).
"""
from __future__ import annotations

from dataclasses import dataclass

from engine import registry


@dataclass(frozen=True)
class PageSpec:
    """One page: its script (relative to dashboards/app.py), title, icon and section, and which
    games have it: every game, those declaring `needs`, or only `game`."""

    path: str
    title: str
    icon: str
    section: str
    needs: str | None = None
    game: str | None = None


DEFAULT = "app_pages/replay.py"
WELCOME = PageSpec("app_pages/welcome.py", "Getting started", ":material/waving_hand:", "")
_PAGES: list[PageSpec] = [
    PageSpec(DEFAULT, "Replay", ":material/play_circle:", "Matches"),
    PageSpec("app_pages/cards.py", "Card stats", ":material/style:", "Balance", needs="cards"),
    PageSpec("app_pages/card.py", "Card", ":material/playing_cards:", "Balance", needs="cards"),
    PageSpec("app_pages/matchups.py", "Matchups", ":material/grid_on:", "Balance",
             needs="decks"),
    PageSpec("app_pages/archetypes.py", "Archetypes", ":material/hub:", "Balance",
             needs="decks"),
    PageSpec("app_pages/charges.py", "Charges", ":material/balance:", "Balance",
             needs="charges"),
    PageSpec("app_pages/combat.py", "Combat balance", ":material/swords:", "Balance",
             game="v20"),
    PageSpec("app_pages/fighter.py", "Character or build", ":material/man:", "Balance", game="v20"),
    PageSpec("app_pages/dice.py", "Dice odds", ":material/casino:", "Rules", needs="dice"),
    PageSpec("app_pages/dice_audit.py", "Dice fairness", ":material/fact_check:", "Rules",
             game="v20"),
    PageSpec("app_pages/glossary.py", "Glossary", ":material/menu_book:", "Balance",
             needs="cards"),
    PageSpec("app_pages/export.py", "Export", ":material/download:", "Lake"),
    PageSpec("app_pages/lake.py", "Data", ":material/database:", "Lake"),
]
"""Matchups need decks: a faction is a deck's (decks.faction)."""


def register_page(spec: PageSpec) -> None:
    """Add a page (or replace the one at the same path), e.g. a game's own."""
    _PAGES[:] = [page for page in _PAGES if page.path != spec.path] + [spec]


def capabilities(game: str) -> tuple[str, ...]:
    """What the game declares; nothing for a game this build does not know."""
    return registry.info(game).capabilities if registry.is_registered(game) else ()


def has_page(game: str, spec: PageSpec) -> bool:
    if spec.game is not None and spec.game != game:
        return False
    return spec.needs is None or spec.needs in capabilities(game)


def pages_for(game: str) -> dict[str, list[PageSpec]]:
    """The game's pages by section, in registration order."""
    sections: dict[str, list[PageSpec]] = {}
    for spec in _PAGES:
        if has_page(game, spec):
            sections.setdefault(spec.section, []).append(spec)
    return sections
