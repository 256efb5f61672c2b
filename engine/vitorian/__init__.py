"""Vitorian Wars (rules: VW- IDs)."""
