"""What the metric models' columns mean, in designers' words (data/glossary.toml): one place
that the app's tooltips and glossary page, the HTML export and the command line all read.

A column NAME_low, NAME_high or NAME_q is described by NAME's term: `term("x_low")` is the term
of "x" with "low (95%)" said in its label.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

GLOSSARY = Path(__file__).resolve().parents[1] / "data" / "glossary.toml"
SUFFIXES = {"_low": ("low", "lower bound of the 95% interval of"),
            "_high": ("high", "upper bound of the 95% interval of"),
            "_q": ("FDR q", ("false-discovery-rate adjusted p-value (Benjamini-Hochberg, "
                             "across the table's rows) of the test against the baseline of"))}


@dataclass(frozen=True)
class Term:
    column: str
    label: str
    help: str
    aka: str = ""

    @property
    def tooltip(self) -> str:
        return f"{self.help} ({self.aka})" if self.aka else self.help


class GlossaryError(ValueError):
    """data/glossary.toml cannot be read as a glossary."""


@cache
def _glossary() -> tuple[dict[str, str], dict[str, Term]]:
    try:
        raw = tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))
        terms = {column: Term(column, entry["label"], entry["help"], entry.get("aka", ""))
                 for column, entry in raw["columns"].items()}
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as err:
        raise GlossaryError(f"{GLOSSARY}: not a glossary: {err}") from err
    return dict(raw.get("conventions", {})), terms


def conventions() -> dict[str, str]:
    """The definitions every table shares (decks, draws, mirrors, intervals...), by topic."""
    return _glossary()[0]


def terms() -> dict[str, Term]:
    """Every described column, by column name."""
    return _glossary()[1]


def term(column: str) -> Term | None:
    """The column's term, an interval bound's or q-value's from its rate's; None if unknown."""
    known = terms()
    if column in known:
        return known[column]
    for suffix, (short, words) in SUFFIXES.items():
        base = known.get(column.removesuffix(suffix)) if column.endswith(suffix) else None
        if base is not None:
            return Term(column, f"{base.label} {short}", f"The {words} {base.label}.")
    return None


def label(column: str) -> str:
    """The column's display name; the column name with spaces when it is not described."""
    found = term(column)
    return found.label if found else column.replace("_", " ")


def tooltip(column: str) -> str | None:
    found = term(column)
    return found.tooltip if found else None
