"""Eredan iTCG (rules: ER- IDs), registered as "eredan@1"."""
from engine.eredan.rules import RULES
from engine.ruleset import register

register(RULES)
