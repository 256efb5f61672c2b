"""Vitorian Wars (rules: VW- IDs), rulesets "vitorian@1" and "vitorian@2"; registered once, in
engine/vitorian/game.py."""
