"""Vitorian Wars (rules: VW- IDs), registered as "vitorian@1"."""
from engine.ruleset import register
from engine.vitorian.rules import RULES

register(RULES)
