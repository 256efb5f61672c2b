"""Eredan iTCG's one registration: its metadata (data/eredan/game.toml) and where each layer is.

Layers outside engine/ (the lake's facts and charge catalog, the app's board) are named by
reference only, so engine/ never imports pipeline/ or dashboards/.
"""
from __future__ import annotations

from engine.games import GameKit
from engine.registry import Registration, info, load_info

GUILD_NAMES = {"kotoba": "Kotoba", "zil": "Zil Warriors", "noz_dingard": "Noz'Dingard",
               "runic_legion": "Runic Legion", "nightmares": "Nightmares"}
"""Each guild of the catalog (engine.eredan.cards.GUILDS) by the rules' name (eredan.md,
"Affiliation / Guild"; Noz'Dingard as the examples shorten the Envoys of Noz'Dingard)."""
MERCENARIES = "Mercenaries"
"""The faction of a deck without a guild (ER-2.6), as the lake's facts write it."""


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
    from engine.eredan.determinize import determinize
    from engine.eredan.render import render_text

    meta = info("eredan")
    return GameKit(
        name=meta.name, ruleset=meta.rulesets[-1], prefix=meta.prefix, archetypes=ARCHETYPES,
        build_deck=build_deck, check_deck=check_deck, bots={"greedy": GreedyBot},
        default_bot="greedy", render_text=render_text, card_base=card_base,
        card_catalog=load_catalog, faction_names=faction_names, card_factions=card_factions,
        determinize=determinize,
    )


def faction_names() -> dict[str, str]:
    """Each guild by its name, and Mercenaries; a deck of several guilds ("kotoba+noz_dingard",
    as the lake's facts write it) is named by its parts (pipeline.factions.faction_name). A
    guild of the catalog without a name here keeps its id."""
    from engine.eredan.cards import GUILDS

    return {MERCENARIES: MERCENARIES, **{g: GUILD_NAMES.get(g, g) for g in sorted(GUILDS)}}


def card_factions() -> dict[str, tuple[str, ...]]:
    """Each card and character by the factions whose decks it is made for, as the lake counts
    decks (decks.faction parts): its guilds (ER-2.3), Mercenaries for a Mercenary card, none for
    a neutral card (any deck)."""
    from engine.eredan.cards import load_catalog

    catalog = load_catalog()
    return {card.id: (MERCENARIES,) if card.is_mercenary else tuple(card.guilds)
            for card in (*catalog.characters, *catalog.cards)}
