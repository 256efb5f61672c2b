"""Eredan iTCG engine tests (rules: ER- IDs)."""
