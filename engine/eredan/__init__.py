"""Eredan iTCG (rules: ER- IDs), ruleset "eredan@1"; registered once, in engine/eredan/game.py."""
