"""Vitorian Wars tests (rules: VW- IDs)."""
