"""Eredan iTCG's one registration: its metadata (data/eredan/game.toml) and where each layer is.

Layers outside engine/ (the lake's facts and charge catalog, the app's board) are named by
reference only, so engine/ never imports pipeline/ or dashboards/.
"""
from __future__ import annotations

from engine.games import GameKit
from engine.registry import Registration, info, load_info


def registration() -> Registration:
    return Registration(info=load_info("eredan"), layers={
        "events": "events.eredan:Event",
        "setup": "events.base:DeckList",
        "ruleset": "engine.eredan.rules:RULESETS",
        "narration": "engine.eredan.narrate:NARRATION",
        "kit": "engine.eredan.game:kit",
        "facts": "pipeline.facts.eredan:EredanFacts",
        "cards": "pipeline.charges:eredan_cards",
        "board": "dashboards.boards.eredan:render_svg",
    })


def kit() -> GameKit:
    """One archetype per guild plus Mercenaries, the greedy bot by default."""
    from engine.eredan.archetypes import ARCHETYPES, build_deck
    from engine.eredan.bot import GreedyBot
    from engine.eredan.cards import load_catalog
    from engine.eredan.charges import card_base
    from engine.eredan.deckcheck import check_deck
    from engine.eredan.render import render_text

    meta = info("eredan")
    return GameKit(
        name=meta.name, ruleset=meta.rulesets[-1], prefix=meta.prefix, archetypes=ARCHETYPES,
        build_deck=build_deck, check_deck=check_deck, bots={"greedy": GreedyBot},
        default_bot="greedy", render_text=render_text, card_base=card_base,
        card_catalog=load_catalog,
    )
