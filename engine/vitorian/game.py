"""Vitorian Wars' one registration: its metadata (data/vitorian/game.toml) and where each layer is.

Layers outside engine/ (the lake's facts and charge catalog, the app's board) are named by
reference only, so engine/ never imports pipeline/ or dashboards/.
"""
from __future__ import annotations

from engine.games import GameKit
from engine.registry import Registration, info, load_info

COLOUR_NAMES = {"red": "Scarlet Red – Steel Sultanate",
                "blue": "Imperial Blue – Sky Federation",
                "white": "Ivory White – Dominion of the Sacred Order",
                "green": "Moss Green – Monsoon Dominion", "gold": "Gold – Royal Guard",
                "gray": "Gray – Neutral Labor"}
"""Each colour of the catalog (engine.vitorian.cards.Color) with its nation, as the rules name
them (vitorian-wars.md, "Colors"; VW-11)."""


def registration() -> Registration:
    return Registration(info=load_info("vitorian"), layers={
        "events": "events.vitorian:Event",
        "setup": "events.base:DeckList",
        "ruleset": "engine.vitorian.rules:RULESETS",
        "narration": "engine.vitorian.narrate:NARRATION",
        "kit": "engine.vitorian.game:kit",
        "facts": "pipeline.facts.vitorian:VitorianFacts",
        "cards": "pipeline.charges:vitorian_cards",
        "board": "dashboards.boards.vitorian:render_svg",
    })


def kit() -> GameKit:
    """The simulator's kit: imported only when asked for, so other games never load its catalog."""
    from engine.vitorian.archetypes import ARCHETYPES, build_deck
    from engine.vitorian.bot import GreedyBot
    from engine.vitorian.cards import load_catalog
    from engine.vitorian.deckcheck import check_deck
    from engine.vitorian.determinize import determinize
    from engine.vitorian.render import render_text

    meta = info("vitorian")
    return GameKit(
        name=meta.name, ruleset=meta.rulesets[-1], prefix=meta.prefix,
        archetypes=tuple(ARCHETYPES), build_deck=build_deck, check_deck=check_deck,
        bots={"greedy": GreedyBot}, default_bot="greedy", render_text=render_text,
        card_catalog=load_catalog, faction_names=faction_names, card_factions=card_factions,
        determinize=determinize,
    )


def faction_names() -> dict[str, str]:
    """A deck's faction (its Sovereign's colour) by the rules' name: "red" -> "Scarlet Red –
    Steel Sultanate". A colour of the catalog without a name here keeps its id."""
    import typing

    from engine.vitorian.cards import Color

    return {colour: COLOUR_NAMES.get(colour, colour) for colour in typing.get_args(Color)}


UTILITY_COLOURS = ("gold", "gray")
"""Colours any deck may hold (VW-3.7)."""


def card_factions() -> dict[str, tuple[str, ...]]:
    """Each card by the colours whose decks it is made for (a deck's faction is its Sovereign's
    colour, VW-3.7): its nation colour; none for a utility colour (Gold, Gray: any deck, VW-3.7)
    or a resource (colour identity ignored, VW-3.11)."""
    from engine.vitorian.cards import Card, load_catalog

    def nations(card: Card) -> tuple[str, ...]:
        colours = card.colors or ((card.color,) if card.color else ())
        return tuple(c for c in colours if c not in UTILITY_COLOURS)

    return {card.id: nations(card) for card in load_catalog().cards}
