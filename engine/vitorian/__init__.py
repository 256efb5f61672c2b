"""Vitorian Wars (rules: VW- IDs), ruleset "vitorian@1"; registered once, in engine/vitorian/game.py."""
