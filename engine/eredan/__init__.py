"""Eredan iTCG (rules: ER- IDs), rulesets "eredan@1" and "eredan@2" (engine.eredan.rules);
registered once, in engine/eredan/game.py."""
