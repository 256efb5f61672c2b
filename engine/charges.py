"""Charge rules (/work/shared/rules/charges.md, CH-2), game-neutral and free of the lake.

Owns what a charge table *is* and how one epoch's table follows from the previous one:
- the per-format settings kept as data (data/charges/formats.toml: scale, max_charge, cap, window,
  prior_decks, min_decks, sections, initial table) and their errors (ChargeError, UnknownFormat);
- the recursion over epochs (CH-2.2, CH-2.4 - CH-2.7): the initial table, smoothing toward the
  previous table, round_half_up, the clamp and the carry-over, in exact fractions so a .5 rounds
  up exactly.

It takes counts (N and n_c per base card) from its caller and never reads a log or the lake: the
lake's pipeline.charges adds them up in SQL over every registered deck, the simulator's
engine.tournament.SeasonCharges over the decks of its own season. What it hands a game is a
ChargeTable: one epoch's charges, its cap and the sections it charges, in no game's words, so the
core never imports a game. Game rules stay in their game (engine/eredan/charges.py: evolutions ->
base card and ER-3.3; engine/vitorian/charges.py: CH-2.8 for Vitorian Wars).

Decisions where charges.md is silent (each one tested in tests/pipeline/test_charges.py):
- prev_share (CH-2.5) is the previous table's *smoothed* share, so a table is a moving average of
  all past epochs; a carried-over table (CH-2.7) passes its shares on unchanged. An initial table
  (CH-2.2) gives charges; its prior share is charge / scale (0 for the all-zero default).
- The cards of epoch k's table: every card of the previous table plus every card seen in a counted
  deck of epoch k-1; a card absent from every deck of k-1 still gets
  (0 + prior * prev_share) / (N + prior). A card never seen is not listed: its charge is 0.
- N == 0 always carries over (nothing to compute from), whatever min_decks says. A carried-over
  table lists the cards first seen in its thin epoch at charge 0, the charge they had implicitly.
"""
from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Annotated

import msgspec

ROOT = Path(__file__).resolve().parents[1]
FORMATS_FILE = ROOT / "data" / "charges" / "formats.toml"


# --- errors ---------------------------------------------------------------------------------

class ChargeError(ValueError):
    """A charge request that cannot be answered as asked (one line for the command line)."""


class UnknownFormat(ChargeError):
    pass


# --- settings (data/charges/formats.toml) ----------------------------------------------------

Count = Annotated[int, msgspec.Meta(ge=0)]


class FormatSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The CH-2.x constants of one game and format, kept as data so designers tune them."""

    scale: Annotated[int, msgspec.Meta(gt=0)]
    max_charge: Count
    cap: Count
    window: Annotated[int, msgspec.Meta(ge=1)] = 2
    prior_decks: Count = 8
    min_decks: Count = 16
    sections: tuple[str, ...] = ()
    """Deck-list sections whose cards carry charges; empty means every section."""
    initial: dict[str, Count] = {}

    def __post_init__(self) -> None:
        over = sorted(card for card, charge in self.initial.items() if charge > self.max_charge)
        if over:
            raise ValueError(f"initial charges above max_charge {self.max_charge}: "
                             f"{', '.join(over)}")


class ChargeFormats(msgspec.Struct, frozen=True):
    """Every game's charge formats; `source` names the file in every error."""

    games: dict[str, dict[str, FormatSettings]]
    source: str = "<formats>"

    def settings(self, game: str, fmt: str) -> FormatSettings:
        """CH-1.2: charges exist only in the formats the file lists."""
        formats = self.games.get(game)
        if formats is None:
            raise UnknownFormat(f"{self.source}: no charge formats for game {game!r}; "
                                f"games with charges: {', '.join(sorted(self.games))}")
        if fmt not in formats:
            raise UnknownFormat(f"{self.source}: {game} has no charges in format {fmt!r} "
                                f"(CH-1.2); formats: {', '.join(sorted(formats))}")
        return formats[fmt]


def parse_formats(text: str, source: str = "<formats>") -> ChargeFormats:
    """Decode formats TOML; unknown keys, wrong types and bad values raise naming `source`."""
    try:
        games = msgspec.convert(tomllib.loads(text), dict[str, dict[str, FormatSettings]])
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as err:
        raise ChargeError(f"{source}: invalid charge formats: {err}") from err
    return ChargeFormats(games=games, source=source)


@cache
def load_formats(path: Path = FORMATS_FILE) -> ChargeFormats:
    return parse_formats(path.read_text(encoding="utf-8"), source=str(path))


# --- the recursion over epochs (CH-2.2, CH-2.5 - CH-2.7) -------------------------------------

@dataclass(frozen=True)
class Standing:
    """One card in one table: the share the next epoch is smoothed toward, and its charge."""

    smoothed: Fraction
    charge: int


Table = dict[str, Standing]


def round_half_up(value: Fraction) -> int:
    """CH-2.6: .5 goes up (Python's round() would send 12.5 to 12)."""
    return math.floor(value + Fraction(1, 2))


def charge_of(smoothed: Fraction, settings: FormatSettings) -> int:
    """CH-2.6: round_half_up(scale * s), clamped to [0, max_charge]."""
    return min(max(round_half_up(settings.scale * smoothed), 0), settings.max_charge)


def initial_table(settings: FormatSettings) -> Table:
    """CH-2.2: the epoch-0 table; each card's prior share is the one its charge stands for."""
    return {card: Standing(min(Fraction(charge, settings.scale), Fraction(1)), charge)
            for card, charge in settings.initial.items()}


def recompute(previous: Table, counts: Mapping[str, int], decks: int,
              settings: FormatSettings) -> Table:
    """CH-2.4 - CH-2.6 for every card listed before or seen in the source epoch."""
    prior = settings.prior_decks
    table: Table = {}
    for card in previous.keys() | counts.keys():
        prev_share = previous[card].smoothed if card in previous else Fraction(0)
        smoothed = Fraction(counts.get(card, 0) + prior * prev_share) / (decks + prior)
        table[card] = Standing(smoothed, charge_of(smoothed, settings))
    return table


def carry_over(previous: Table, counts: Mapping[str, int]) -> Table:
    """CH-2.7: the previous table unchanged; cards first seen now are listed at their implicit 0."""
    return {**{card: Standing(Fraction(0), 0) for card in counts}, **previous}


def next_table(previous: Table, counts: Mapping[str, int], decks: int,
               settings: FormatSettings) -> tuple[Table, bool]:
    """The table of epoch k from epoch k-1's decks (N = `decks`, n_c = `counts` per base card),
    and whether it was carried over."""
    if decks == 0 or decks < settings.min_decks:
        return carry_over(previous, counts), True
    return recompute(previous, counts, decks, settings), False


# --- a table as the games' rules check decks against it (CH-2.8) -----------------------------

class ChargeTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One table version (an epoch of a format, CH-3.1) as a game's rules check a deck against
    it: card id -> charge (a card not listed counts 0, CH-2.2), the cap (CH-2.8) and the deck
    sections whose cards carry charges (empty: every section). Games may extend it (Eredan's
    evolutions share their family's charge, CH-2.10)."""

    version: str
    charges: dict[str, int]
    cap: int | None = None
    """The cap to check against; None: the format's own, where the game's catalog has one."""
    sections: tuple[str, ...] = ()

    def charges_section(self, section: str) -> bool:
        """Whether the cards of a deck-list section carry charges (FormatSettings.sections)."""
        return not self.sections or section in self.sections


def epoch_table(epoch: int, table: Table, settings: FormatSettings) -> ChargeTable:
    """The ChargeTable of epoch `epoch` ("epoch-k", as the lake's tables are versioned)."""
    return ChargeTable(version=f"epoch-{epoch}", cap=settings.cap, sections=settings.sections,
                       charges={card: s.charge for card, s in sorted(table.items())})
