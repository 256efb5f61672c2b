"""Vampire V20 combat (spec ../shared/rules/v20-combat.md, rule IDs V20-): one combat scene
between two sides of characters, with a Storyteller actor and public d10 rolls."""
