"""Vitorian Wars' one registration: its metadata (data/vitorian/game.toml) and where each layer is.

Layers outside engine/ (the lake's facts and charge catalog, the app's board) are named by
reference only, so engine/ never imports pipeline/ or dashboards/.
"""
from __future__ import annotations

from engine.games import GameKit
from engine.registry import Registration, info, load_info


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
    from engine.vitorian.render import render_text

    meta = info("vitorian")
    return GameKit(
        name=meta.name, ruleset=meta.rulesets[-1], prefix=meta.prefix,
        archetypes=tuple(ARCHETYPES), build_deck=build_deck, check_deck=check_deck,
        bots={"greedy": GreedyBot}, default_bot="greedy", render_text=render_text,
        card_catalog=load_catalog,
    )
