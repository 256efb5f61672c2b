"""Charges on the lake (/work/shared/rules/charges.md, CH-): usage-based card values per game,
format and epoch, from every registered deck of the lake.

Owns the lake's side: the aggregation of registrations into N and n_c per epoch (SQL), the epochs
of a game's tournaments with their dates, the CH-3 outputs (tables, history, movers, deck checks),
what each game's catalog supplies (GameCards) and the table in force at a logged match's start
(MatchCharges, over SeasonTables: every epoch's charges without the CH-3 frames, resumable from a
closed prefix, which pipeline.charge_epochs keeps across ingest batches). The rules themselves
(the settings of data/charges/formats.toml and the recursion over epochs) are engine.charges',
re-exported here so callers keep one import.

Why two halves: the aggregation runs as SQL (pipeline/sql/charges/*.sql) because that is where the
volume is (every deck card of every match) and because the same models must run on Spark later;
the recursion over epochs (engine.charges: smoothing toward the previous table, carry-over) is a
short Python loop over a few hundred cards per epoch, done in exact fractions so round_half_up at
.5 is exact.

Decisions where charges.md is silent (each one tested in tests/pipeline/test_charges.py; those of
the recursion itself are in engine.charges):
- The cards of epoch k's table: every card of the initial table plus every card seen in any
  counted deck of epochs 0..k-1. A catalog card never seen is not listed: its charge is 0.
- Epochs: K = the last epoch with a tournament. When K is complete (`window` tournaments), epoch
  K+1 is listed too, flagged `upcoming`: computed from K's decks and in force for the next
  tournament. The default epoch of every output is the last one listed (the table in force now).
- The table in force on a date: the epoch whose span (UTC date of its first match to UTC date of
  its last match) contains it; a date between two spans takes the next epoch (the table is
  recomputed as soon as an epoch closes, CH-1.4); a date before the first tournament takes epoch 0,
  one after the last takes the last epoch listed.
- CH-2.10 (Eredan evolutions) and CH-2.9 (card pool) need the game's catalog: each game supplies a
  GameCards. Vitorian Wars has no evolutions (identity mapping) and its standard pool is the whole
  catalog; Eredan's (eredan_cards) maps evolutions to their family's base card and takes the
  pool from the catalog's formats. A game without one refuses with NotSupported unless the
  caller passes its own GameCards. Each game's rules check its cap (CH-2.8): Eredan's as ER-3.3,
  Vitorian's as CH-2.8 (engine/vitorian/charges.py), both handed the table in force as the
  game-neutral engine.charges.ChargeTable.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from fractions import Fraction
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pandas as pd
import pyarrow as pa

from engine import registry
from engine.charges import (
    FORMATS_FILE,
    ROOT,
    ChargeError,
    ChargeFormats,
    ChargeTable,
    Count,
    FormatSettings,
    Standing,
    Table,
    UnknownFormat,
    carry_over,
    charge_of,
    initial_table,
    load_formats,
    next_table,
    parse_formats,
    recompute,
    round_half_up,
)
from events.base import DeckList, Header

# The public API. The CH-2 rules imported above from engine.charges (settings, errors, the
# recursion) are part of it, re-exported so callers and tests keep importing them from here.
__all__ = [
    "CHECKPOINT", "EPOCH_COLUMNS", "FORMATS_FILE", "INPUT_PREFIX", "ROOT", "ROW_COLUMNS",
    "SQL_DIR", "TABLE_COLUMNS", "CapCheck", "CapVerdict", "ChargeError", "ChargeFormats",
    "ChargeSeason", "ChargeTable", "Contribution", "Count", "DeckCharge", "Entry", "EpochInfo",
    "FormatSettings", "GameCards", "Key", "MatchCharges", "NoTournaments", "NotSupported",
    "OutsideCard", "SeasonOf", "SeasonTables", "StaleEpochs", "Standing", "Table",
    "TableInForce", "UnknownFormat", "Usage", "all_tables", "biggest_movers", "cap_applies",
    "cap_rule", "carry_over", "charge_history", "charge_of", "charge_table", "charged",
    "checks_cap", "compute_charges", "deck_check", "epoch_on", "epoch_spans",
    "eredan_cap_problems", "eredan_cards", "game_cards", "initial_table", "load_formats",
    "load_tournaments", "load_usage", "model_inputs", "model_sql", "next_table",
    "parse_formats", "recompute", "round_half_up", "run_model", "season_tables",
    "table_in_force", "table_rows", "tables_frame", "tournament_key", "vitorian_cards",
]

SQL_DIR = Path(__file__).resolve().parent / "sql" / "charges"
INPUT_PREFIX = "charges__"
TABLE_COLUMNS = (
    "epoch", "card", "name", "n_c", "N", "share", "smoothed_share", "charge", "previous_charge",
    "delta", "carried_over", "upcoming", "first_tournament", "last_tournament", "start_date",
    "end_date",
)
ROW_COLUMNS = (
    "epoch", "card", "n_c", "N", "share", "smoothed_share", "charge", "previous_charge", "delta",
    "carried_over",
)
EPOCH_COLUMNS = (
    "epoch", "tournaments", "first_tournament", "last_tournament", "start_date", "end_date",
    "decks_registered", "carried_over", "upcoming",
)


# --- errors ---------------------------------------------------------------------------------

# ChargeError and UnknownFormat (settings) are engine.charges'; these two are the lake's.

class NoTournaments(ChargeError):
    pass


class NotSupported(ChargeError):
    pass


# --- what a game's catalog supplies ------------------------------------------------------------

def _identity(card: str) -> str:
    return card


def _as_written(deck: DeckList) -> DeckList:
    return deck


def _no_name(card: str) -> str | None:
    return None


CapCheck = Callable[[Header, "TableInForce"], list[tuple[str, str]]]
"""(match header, the table in force at its start) -> the (rule ID, reason) of each deck over the
cap, in the game's own words."""


@dataclass(frozen=True)
class GameCards:
    """What charges need from a game's catalog, pluggable because catalogs differ per game."""

    card_base: Callable[[str], str] = _identity
    """CH-2.10: a card id -> the id whose charge it shares (an evolution -> its base card)."""
    resolve: Callable[[DeckList], DeckList] = _as_written
    """A deck list as written -> card ids; unknown cards stay as written."""
    in_pool: Callable[[str, str], bool] | None = None
    """CH-2.9: (format, card id) -> is the card legal in the format; None: every card is."""
    card_name: Callable[[str], str | None] = _no_name
    """A readable name for cards the lake never saw (initial table, deck checks)."""
    cap_problems: CapCheck | None = None
    """The rules' own check of a logged match's decks against a table in force (ER-3.3 for
    Eredan); None: the game's logs are not checked against the cap (MatchCharges)."""
    cap_rule: str = "CH-2.8"
    """The rule ID of the cap in the game's rules, for notices about checks not made."""


def vitorian_cards() -> GameCards:
    """Vitorian Wars: no evolutions, names from the catalog, the standard pool = the catalog,
    the cap checked by its rules (engine/vitorian/charges.py, CH-2.8)."""
    from engine.vitorian.cards import load_catalog
    from engine.vitorian.charges import cap_problems
    from engine.vitorian.deckcheck import resolve

    catalog = load_catalog()

    def name(card: str) -> str | None:
        found = catalog.by_id.get(card)
        return found.name if found else None

    return GameCards(resolve=lambda deck: resolve(deck, catalog),
                     in_pool=lambda fmt, card: card in catalog.by_id, card_name=name,
                     cap_problems=lambda header, table: cap_problems(
                         header, table.rules_table, catalog),
                     cap_rule="CH-2.8")


def eredan_cards() -> GameCards:
    """Eredan iTCG: evolutions share their family's base charge (CH-2.10), the format's card
    pool from the catalog (ER-3.4, CH-2.9); wired as engine/eredan/charges.py describes."""
    from engine.eredan.cards import load_catalog
    from engine.eredan.charges import card_base, in_format
    from engine.eredan.deckcheck import resolve

    catalog = load_catalog()

    def name(card: str) -> str | None:
        found = catalog.by_id.get(card)
        return found.name if found else None

    return GameCards(card_base=lambda card: card_base(card, catalog),
                     resolve=lambda deck: resolve(deck, catalog),
                     in_pool=lambda fmt, card: in_format(fmt, card, catalog), card_name=name,
                     cap_problems=lambda header, table: eredan_cap_problems(header, table,
                                                                            catalog),
                     cap_rule="ER-3.3")


def eredan_cap_problems(header: Header, table: TableInForce, catalog: Any = None
                        ) -> list[tuple[str, str]]:
    """ER-2.13, ER-3.3, ER-3.6: the engine's cap check of both seats' decks, handed the table
    as the engine's ChargeTable (engine/eredan/charges.py shows the wiring)."""
    from engine.eredan.charges import ChargeTable, cap_problems

    return cap_problems(header, ChargeTable.of(table.rules_table), catalog)


def game_cards(game: str) -> GameCards:
    """The game's card catalog for charges: the "cards" layer of its registration
    (engine.registry), a function building GameCards."""
    if not registry.has_layer(game, "cards"):
        raise NotSupported(
            f"charges of {game!r} are not supported in this build: they need the game's catalog "
            "for evolutions (CH-2.10) and the format's card pool (CH-2.9); games with one: "
            f"{', '.join(registry.games_with('cards'))}")
    cards: GameCards = registry.layer(game, "cards")()
    return cards


# --- the SQL models ---------------------------------------------------------------------------

_PARAMETER = re.compile(r"\$([A-Za-z_]\w*)")


@cache
def model_sql(name: str) -> str:
    """The text of pipeline/sql/charges/<name>.sql (also what the Spark check transpiles)."""
    return (SQL_DIR / f"{name}.sql").read_text(encoding="utf-8")


def run_model(con: duckdb.DuckDBPyConnection, name: str, params: Mapping[str, Any]
              ) -> pd.DataFrame:
    """Run one model with bound parameters (only those it names: DuckDB refuses extras)."""
    sql = model_sql(name)
    bound = {key: params[key] for key in set(_PARAMETER.findall(sql))}
    try:
        return con.execute(sql, bound).df()
    except duckdb.CatalogException as err:
        raise ChargeError(f"charges model {name}: the lake lacks a table or column: "
                          f"{str(err).splitlines()[0]}") from err


@contextmanager
def model_inputs(con: duckdb.DuckDBPyConnection, **tables: pa.Table) -> Iterator[None]:
    """Register the results a model reads (charges__<name>) for its run only, as dbt's ref()."""
    names = [INPUT_PREFIX + name for name in tables]
    for name, table in zip(names, tables.values()):
        con.register(name, table)
    try:
        yield
    finally:
        for name in names:
            con.unregister(name)


# --- the season: tournaments, epochs and every epoch's table ---------------------------------

@dataclass(frozen=True)
class Usage:
    """What the SQL models add up, per epoch of registered decks."""

    decks: dict[int, int]
    """N: registrations per epoch (CH-2.4)."""
    counts: dict[int, dict[str, int]]
    """n_c per epoch and base card."""
    names: dict[str, str]
    bases: dict[str, str] = field(default_factory=dict)
    """Each card id the decks held -> its base card (GameCards.card_base, CH-2.10)."""


def _utc_dates(values: pd.Series) -> pd.Series:
    """UTC calendar dates of timestamps (naive ones are taken as UTC, as the lake writes them)."""
    return pd.to_datetime(values, utc=True).dt.date


def load_tournaments(con: duckdb.DuckDBPyConnection, game: str, fmt: str, window: int
                     ) -> pd.DataFrame:
    frame = run_model(con, "tournament_epochs",
                      {"game": game, "format": fmt, "window_size": window})
    if frame.empty:
        raise NoTournaments(f"no tournaments of {game} in format {fmt!r} in the lake")
    frame["start_date"] = _utc_dates(frame["started_at"])
    frame["end_date"] = _utc_dates(frame["last_match_at"])
    return frame


def load_usage(con: duckdb.DuckDBPyConnection, game: str, fmt: str, tournaments: pd.DataFrame,
               cards: GameCards, sections: tuple[str, ...] = ()) -> Usage:
    """N and n_c per epoch, evolutions folded into their base card (CH-2.10), counting only
    the charged sections."""
    params = {"game": game, "format": fmt}
    with model_inputs(con, sections=_sections_table(con, game, sections)):
        seen = run_model(con, "cards_registered", params)
    bases = [cards.card_base(card) for card in seen["card"]]
    epochs = pa.table({"tournament": pa.array(tournaments["tournament"], pa.string()),
                       "epoch": pa.array(tournaments["epoch"], pa.int32())})
    card_bases = pa.table({"card": pa.array(seen["card"], pa.string()),
                           "base_card": pa.array(bases, pa.string())})
    with model_inputs(con, tournament_epochs=epochs, card_bases=card_bases):
        decks = run_model(con, "epoch_decks", params)
        usage = run_model(con, "card_usage", params)
    counts: dict[int, dict[str, int]] = {}
    for epoch, card, n in usage.itertuples(index=False):
        counts.setdefault(int(epoch), {})[card] = int(n)
    names = _base_names(seen, bases)
    return Usage(decks={int(e): int(n) for e, n in decks.itertuples(index=False)},
                 counts=counts, names=names, bases=dict(zip(seen["card"], bases)))


def _sections_table(con: duckdb.DuckDBPyConnection, game: str,
                    sections: tuple[str, ...]) -> pa.Table:
    """The charged sections as a model input; every section of the game's decks when none are
    configured."""
    if not sections:
        found = con.execute("SELECT DISTINCT section FROM deck_cards WHERE game = $game",
                            {"game": game}).fetchall()
        sections = tuple(row[0] for row in found)
    return pa.table({"section": pa.array(sections, pa.string())})


def _base_names(seen: pd.DataFrame, bases: list[str]) -> dict[str, str]:
    """A base card's own name where the lake saw it, else the name of a card folded into it."""
    names: dict[str, str] = {}
    for card, name, base in zip(seen["card"], seen["card_name"], bases):
        if name is not None and (card == base or base not in names):
            names[base] = name
    return names


def epoch_spans(tournaments: pd.DataFrame, usage: Usage, window: int) -> pd.DataFrame:
    """One row per epoch with tournaments, plus the upcoming epoch when the last one is full."""
    grouped = tournaments.groupby("epoch", sort=True)
    spans = pd.DataFrame({
        "tournaments": grouped.size(),
        "first_tournament": grouped["tournament"].first(),
        "last_tournament": grouped["tournament"].last(),
        "start_date": grouped["start_date"].min(),
        "end_date": grouped["end_date"].max(),
    }).reset_index()
    spans["decks_registered"] = [usage.decks.get(int(e), 0) for e in spans["epoch"]]
    spans["upcoming"] = False
    last = spans.iloc[-1]
    if last["tournaments"] == window:
        upcoming = {"epoch": int(last["epoch"]) + 1, "tournaments": 0, "decks_registered": 0,
                    "upcoming": True}
        spans = pd.concat([spans, pd.DataFrame([upcoming])], ignore_index=True)
    return spans


# --- every epoch's table (the recursion itself is engine.charges': CH-2.2, CH-2.5 - CH-2.7) ---

def table_rows(epoch: int, table: Table, previous: Table | None, counts: Mapping[str, int],
               decks: int, carried: bool) -> list[dict[str, Any]]:
    """The CH-3.1 columns of one epoch's table (previous None: epoch 0, nothing before it)."""
    rows = []
    for card, standing in table.items():
        before = None if previous is None else previous.get(card, Standing(Fraction(0), 0)).charge
        n_c = counts.get(card, 0)
        rows.append({
            "epoch": epoch, "card": card, "n_c": n_c, "N": decks,
            "share": n_c / decks if decks else math.nan,
            "smoothed_share": float(standing.smoothed), "charge": standing.charge,
            "previous_charge": before,
            "delta": None if before is None else standing.charge - before,
            "carried_over": carried,
        })
    return rows


def all_tables(epochs: pd.DataFrame, usage: Usage, settings: FormatSettings
               ) -> tuple[list[dict[str, Any]], dict[int, bool]]:
    """Every epoch's table rows, epoch 0 first; and which epochs were carried over."""
    table = initial_table(settings)
    rows = table_rows(0, table, None, {}, 0, False)
    carried_over = {0: False}
    for epoch in epochs["epoch"].iloc[1:]:
        epoch = int(epoch)
        counts, decks = usage.counts.get(epoch - 1, {}), usage.decks.get(epoch - 1, 0)
        new, carried = next_table(table, counts, decks, settings)
        rows += table_rows(epoch, new, table, counts, decks, carried)
        carried_over[epoch] = carried
        table = new
    return rows, carried_over


def tables_frame(rows: list[dict[str, Any]], epochs: pd.DataFrame, names: Mapping[str, str],
                 cards: GameCards) -> pd.DataFrame:
    """The long frame of every epoch's table, with names and each epoch's span (CH-3.1)."""
    frame = pd.DataFrame(rows, columns=list(ROW_COLUMNS))
    frame["name"] = [names.get(card) or cards.card_name(card) or card for card in frame["card"]]
    span = epochs[["epoch", "upcoming", "first_tournament", "last_tournament", "start_date",
                   "end_date"]]
    frame = frame.merge(span, on="epoch", how="left")
    frame = frame.astype({"epoch": "int64", "n_c": "int64", "N": "int64", "share": "float64",
                          "smoothed_share": "float64", "charge": "int64",
                          "previous_charge": "Int64", "delta": "Int64", "carried_over": "bool",
                          "upcoming": "bool"})
    frame = frame.sort_values(["epoch", "charge", "card"], ascending=[True, False, True])
    return frame[list(TABLE_COLUMNS)].reset_index(drop=True)


# --- outputs ---------------------------------------------------------------------------------

class EpochInfo(msgspec.Struct, frozen=True, kw_only=True):
    """Which table is meant: its epoch, that epoch's tournaments and dates, how it was made."""

    epoch: int
    tournaments: int
    first_tournament: str | None
    last_tournament: str | None
    start_date: date | None
    end_date: date | None
    decks: int
    """N: the decks of the previous epoch the table was computed from (0 for epoch 0)."""
    carried_over: bool
    upcoming: bool
    """No tournament of this epoch is in the lake yet: the table the next tournament uses."""


class Contribution(msgspec.Struct, frozen=True, kw_only=True):
    card: str
    name: str
    copies: int
    charge: int
    contribution: int
    base_card: str | None = None
    """Set when the card shares another card's charge (an evolution, CH-2.10)."""


class OutsideCard(msgspec.Struct, frozen=True, kw_only=True):
    card: str
    section: str
    copies: int


class DeckCharge(msgspec.Struct, frozen=True, kw_only=True):
    """CH-3.2: a deck checked against the table in force; `problems` says why it is illegal."""

    game: str
    format: str
    deck: str
    table: EpochInfo
    charge: int
    cap: int
    within_cap: bool
    """CH-2.8: charge <= cap."""
    legal: bool
    """Within the cap and no card outside the format's pool (CH-2.9)."""
    contributions: list[Contribution]
    outside_pool: list[OutsideCard]
    problems: list[tuple[str, str]]

    def top(self, count: int = 3) -> list[Contribution]:
        return [c for c in self.contributions if c.contribution > 0][:count]


def _missing(value: Any) -> bool:
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))


def _utc_day(when: date) -> date:
    if isinstance(when, datetime):
        return when.astimezone(UTC).date() if when.tzinfo else when.date()
    return when


def epoch_on(spans: Iterable[tuple[int, Any, Any]], day: date, last: int) -> int:
    """The epoch in force on a UTC day, from each epoch's (epoch, start date, end date): the
    latest whose span holds it, else the first that starts after it, else `last` (see the
    module docstring). An epoch without dates holds no day."""
    spans = [(int(e), start, end) for e, start, end in spans]
    inside = [e for e, start, end in spans
              if not _missing(start) and not _missing(end) and start <= day <= end]
    if inside:
        return max(inside)
    later = [e for e, start, _ in spans if not _missing(start) and start > day]
    return min(later) if later else last


@dataclass(frozen=True)
class ChargeSeason:
    """Every epoch's table of one game and format, computed once and then asked many ways."""

    game: str
    format: str
    settings: FormatSettings
    cards: GameCards
    tournaments: pd.DataFrame
    """One row per tournament: tournament, started_at, ordinal, epoch, start_date, end_date."""
    epochs: pd.DataFrame
    """One row per epoch (EPOCH_COLUMNS)."""
    tables: pd.DataFrame = field(repr=False)
    """Every epoch's table (TABLE_COLUMNS)."""

    @property
    def last_epoch(self) -> int:
        return int(self.epochs["epoch"].iloc[-1])

    def epoch(self, epoch: int | None = None) -> int:
        """`epoch` checked, or the last one listed (the table in force now)."""
        if epoch is None:
            return self.last_epoch
        if epoch not in set(self.epochs["epoch"]):
            raise ChargeError(f"{self.game} {self.format} has no epoch {epoch}; epochs: "
                              f"0-{self.last_epoch}")
        return epoch

    def table(self, epoch: int | None = None) -> pd.DataFrame:
        """CH-3.1: one epoch's table, highest charge first."""
        chosen = self.epoch(epoch)
        return self.tables[self.tables["epoch"] == chosen].reset_index(drop=True)

    def info(self, epoch: int | None = None) -> EpochInfo:
        """The epoch's identity; `decks` is N, the previous epoch's registrations."""
        row = self.epochs[self.epochs["epoch"] == self.epoch(epoch)].iloc[0]
        optional = {key: (None if _missing(row[key]) else row[key]) for key in
                    ("first_tournament", "last_tournament", "start_date", "end_date")}
        source = self.epochs["decks_registered"].shift(1, fill_value=0)[row.name]
        return EpochInfo(epoch=int(row["epoch"]), tournaments=int(row["tournaments"]),
                         decks=int(source), carried_over=bool(row["carried_over"]),
                         upcoming=bool(row["upcoming"]), **optional)

    def history(self) -> pd.DataFrame:
        """CH-3.3: every card's charge in every epoch, for plots. Before a card is first listed
        its charge is 0, exactly what a deck check counts for it, so the grid is filled."""
        cards = self.tables.drop_duplicates("card")[["card", "name"]]
        per_epoch = self.epochs[["epoch", "carried_over", "upcoming"]]
        grid = cards.merge(per_epoch, how="cross")
        listed = self.tables[["epoch", "card", "n_c", "smoothed_share", "charge"]]
        frame = grid.merge(listed, on=["epoch", "card"], how="left")
        frame = frame.fillna({"n_c": 0, "smoothed_share": 0.0, "charge": 0})
        frame = frame.astype({"n_c": "int64", "charge": "int64"})
        frame["delta"] = frame.groupby("card")["charge"].diff().astype("Int64")
        columns = ["card", "name", "epoch", "charge", "delta", "n_c", "smoothed_share",
                   "carried_over", "upcoming"]
        return frame.sort_values(["card", "epoch"])[columns].reset_index(drop=True)

    def movers(self, epoch: int | None = None, top: int = 10) -> pd.DataFrame:
        """CH-3.3: the cards whose charge changed most from the previous table (ties: the rise
        first, then by card id); unchanged cards are not movers."""
        table = self.table(epoch)
        moved = table[table["delta"].fillna(0) != 0].copy()
        moved["size"] = moved["delta"].abs()
        moved = moved.sort_values(["size", "delta", "card"], ascending=[False, False, True])
        return moved.drop(columns="size").head(top).reset_index(drop=True)

    def epoch_in_force(self, when: date | str) -> int:
        """The epoch whose table governs a tournament id or a date (see the module docstring)."""
        if isinstance(when, str):
            return self._tournament_epoch(when)
        spans = self.epochs[~self.epochs["upcoming"]]
        return epoch_on(zip(spans["epoch"], spans["start_date"], spans["end_date"]),
                        _utc_day(when), self.last_epoch)

    def _tournament_epoch(self, tournament: str) -> int:
        found = self.tournaments[self.tournaments["tournament"] == tournament]
        if found.empty:
            raise ChargeError(f"{tournament!r} is not a tournament of {self.game} in format "
                              f"{self.format!r} in the lake")
        return int(found["epoch"].iloc[0])

    def in_force(self, when: date | str) -> pd.DataFrame:
        return self.table(self.epoch_in_force(when))

    def check(self, deck: DeckList, when: date | str | None = None) -> DeckCharge:
        """CH-2.8, CH-2.9, CH-3.2: the deck's charge under the table in force `when` (default:
        the table in force now); every copy counts, Sovereign and characters included."""
        epoch = self.last_epoch if when is None else self.epoch_in_force(when)
        table = self.table(epoch)
        charges = dict(zip(table["card"], table["charge"]))
        names = dict(zip(table["card"], table["name"]))
        copies, outside = self._deck_cards(self.cards.resolve(deck))
        contributions = sorted((self._contribution(card, count, charges, names)
                                for card, count in copies.items()),
                               key=lambda c: (-c.contribution, -c.charge, c.card))
        total = sum(c.contribution for c in contributions)
        problems = _charge_problems(total, self.settings.cap, epoch, contributions)
        problems += [("CH-2.9", self._outside_reason(card)) for card in outside]
        return DeckCharge(
            game=self.game, format=self.format, deck=deck.name, table=self.info(epoch),
            charge=total, cap=self.settings.cap, within_cap=total <= self.settings.cap,
            legal=not problems, contributions=contributions, outside_pool=outside,
            problems=problems)

    def _outside_reason(self, card: OutsideCard) -> str:
        return f"{card.card!r} [{card.section}] is not in the {self.format} card pool of {self.game}"

    def _deck_cards(self, deck: DeckList) -> tuple[dict[str, int], list[OutsideCard]]:
        """Copies per card id over every section, and the lines outside the pool (CH-2.9)."""
        in_pool = self.cards.in_pool
        copies: dict[str, int] = {}
        outside: list[OutsideCard] = []
        charged = self.settings.sections
        for section, entries in deck.sections.items():
            if charged and section not in charged:
                continue
            for entry in entries:
                if in_pool is not None and not in_pool(self.format, entry.card):
                    outside.append(OutsideCard(card=entry.card, section=section,
                                               copies=entry.count))
                elif entry.count > 0:
                    copies[entry.card] = copies.get(entry.card, 0) + entry.count
        return copies, outside

    def _contribution(self, card: str, copies: int, charges: Mapping[str, int],
                      names: Mapping[str, str]) -> Contribution:
        """A card's share of the deck charge: an evolution counts at its base card's charge."""
        base = self.cards.card_base(card)
        charge = int(charges.get(base, 0))
        name = self.cards.card_name(card) or names.get(card) or names.get(base) or card
        return Contribution(card=card, name=name, copies=copies, charge=charge,
                            contribution=copies * charge,
                            base_card=base if base != card else None)


def _charge_problems(total: int, cap: int, epoch: int,
                     contributions: list[Contribution]) -> list[tuple[str, str]]:
    """CH-2.8 over the cap, naming the top contributors so the designer knows what to cut."""
    if total <= cap:
        return []
    top = ", ".join(f"{c.name} {c.copies}x{c.charge}={c.contribution}"
                    for c in contributions[:3] if c.contribution > 0)
    reason = (f"deck charge {total} is over the cap of {cap} (table of epoch {epoch}); "
              f"top contributors: {top}")
    return [("CH-2.8", reason)]


# --- the API ---------------------------------------------------------------------------------

def compute_charges(con: duckdb.DuckDBPyConnection, game: str, format: str, *,
                    formats: ChargeFormats | None = None, cards: GameCards | None = None
                    ) -> ChargeSeason:
    """Every epoch's table of `game` in `format`, from a connection with the views matches,
    seats, decks and deck_cards (a Lake's, or any other). `formats` and `cards` replace the
    data file and the game's registered catalog (tests, designers trying settings)."""
    settings = (formats or load_formats()).settings(game, format)
    cards = cards or game_cards(game)
    tournaments = load_tournaments(con, game, format, settings.window)
    usage = load_usage(con, game, format, tournaments, cards, settings.sections)
    epochs = epoch_spans(tournaments, usage, settings.window)
    rows, carried = all_tables(epochs, usage, settings)
    epochs["carried_over"] = [carried[int(e)] for e in epochs["epoch"]]
    epochs = epochs[list(EPOCH_COLUMNS)]
    return ChargeSeason(game=game, format=format, settings=settings, cards=cards,
                        tournaments=tournaments, epochs=epochs,
                        tables=tables_frame(rows, epochs, usage.names, cards))


def charge_table(con: duckdb.DuckDBPyConnection, game: str, format: str,
                 epoch: int | None = None, *, formats: ChargeFormats | None = None,
                 cards: GameCards | None = None) -> pd.DataFrame:
    """CH-3.1: one epoch's table (default: the last listed, the one in force now)."""
    return compute_charges(con, game, format, formats=formats, cards=cards).table(epoch)


def charge_history(con: duckdb.DuckDBPyConnection, game: str, format: str, *,
                   formats: ChargeFormats | None = None, cards: GameCards | None = None
                   ) -> pd.DataFrame:
    """CH-3.3: every card's charge per epoch."""
    return compute_charges(con, game, format, formats=formats, cards=cards).history()


def biggest_movers(con: duckdb.DuckDBPyConnection, game: str, format: str,
                   epoch: int | None = None, top: int = 10, *,
                   formats: ChargeFormats | None = None, cards: GameCards | None = None
                   ) -> pd.DataFrame:
    """CH-3.3: the `top` cards whose charge moved most into `epoch`."""
    season = compute_charges(con, game, format, formats=formats, cards=cards)
    return season.movers(epoch, top)


def table_in_force(con: duckdb.DuckDBPyConnection, game: str, format: str, when: date | str,
                   *, formats: ChargeFormats | None = None, cards: GameCards | None = None
                   ) -> pd.DataFrame:
    """The table governing a date or a tournament id (CH-2.2)."""
    return compute_charges(con, game, format, formats=formats, cards=cards).in_force(when)


def deck_check(con: duckdb.DuckDBPyConnection, game: str, format: str, deck: DeckList,
               when: date | str | None = None, *, formats: ChargeFormats | None = None,
               cards: GameCards | None = None) -> DeckCharge:
    """CH-3.2: a deck's charge and verdict under the table in force `when`."""
    season = compute_charges(con, game, format, formats=formats, cards=cards)
    return season.check(deck, when)


# --- the table in force at a logged match's start (ER-3.3, ER-3.6) --------------------------

@dataclass(frozen=True)
class TableInForce:
    """One epoch's charges as a match's decks are checked against them (ER-3.6)."""

    game: str
    format: str
    epoch: int
    charges: Mapping[str, int]
    """Base card id -> charge; a card not listed counts 0 (CH-2.2)."""
    cap: int
    sections: tuple[str, ...] = ()
    """The deck sections whose cards carry charges (FormatSettings.sections; empty: all)."""

    @property
    def version(self) -> str:
        """The table's version as the engine records it (the simulator's SeasonCharges too)."""
        return f"epoch-{self.epoch}"

    @cached_property
    def rules_table(self) -> ChargeTable:
        """The table as the games' rules take it (engine.charges.ChargeTable), built once."""
        return ChargeTable(version=self.version, charges=dict(self.charges), cap=self.cap,
                           sections=self.sections)


@dataclass(frozen=True)
class CapVerdict:
    """A logged match's decks under the table in force at its start; `problems` lists each seat
    over the cap, as (rule ID, reason)."""

    match_id: str
    table: TableInForce
    problems: list[tuple[str, str]]

    @property
    def within_cap(self) -> bool:
        return not self.problems


@cache
def checks_cap(game: str) -> bool:
    """Whether the rules of `game` supply a cap check of logged matches (GameCards.cap_problems)."""
    try:
        return game_cards(game).cap_problems is not None
    except NotSupported:
        return False


def charged(header: Header, formats: ChargeFormats | None = None) -> bool:
    """Whether a logged match's format has charges, and so a deck cap (CH-1.2, CH-2.8; formats
    without charges have no cap, ER-3.2)."""
    formats = formats or load_formats()
    return header.format in formats.games.get(header.game, {})


def cap_applies(header: Header, formats: ChargeFormats | None = None) -> bool:
    """Whether a logged match's decks are held to a charge cap: its format has charges and its
    game's rules check the cap (charged, checks_cap)."""
    return checks_cap(header.game) and charged(header, formats)


def cap_rule(game: str) -> str:
    """The rule ID of the game's charge cap (ER-3.3 for Eredan)."""
    return game_cards(game).cap_rule


# --- every epoch's charges for the cap check, resumable from a closed prefix -----------------

Key = tuple[bool, int, str]
"""A tournament's place in CH-2.1 order: (no start known, its start in ns since 1970 UTC, its
id), sorting as the tournament_epochs model does (start time, ties by id, no start last)."""
CHECKPOINT = 32
"""A SeasonTables keeps the exact table (Fractions) of every CHECKPOINT-th epoch: a prefix cut
back to an earlier epoch resumes the recursion from the nearest one."""


def tournament_key(tournament: str, started_at: Any) -> Key:
    """CH-2.1: where a tournament that started at `started_at` (None: unknown) sorts."""
    stamp = None if _missing(started_at) else pd.Timestamp(started_at)
    if stamp is None:
        return (True, 0, tournament)
    stamp = stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp
    return (False, int(stamp.value), tournament)


@dataclass(frozen=True)
class Entry:
    """A tournament of the season, in CH-2.1 order, with its UTC dates (its epoch's span)."""

    tournament: str
    key: Key
    start_date: date | None
    end_date: date | None


@dataclass(frozen=True)
class SeasonTables:
    """Every epoch's charges of one game and format as the cap check asks for them: the table of
    a tournament's epoch, or of a date's (ChargeSeason's rules, without its CH-3 frames).

    It also keeps what lets it be resumed: the exact table (Fractions) of every CHECKPOINT-th
    epoch, so that a prefix of it (`prefix`) can stand for epochs known not to change and only
    the later ones be computed again from a connection that holds just their tournaments
    (season_tables(closed=...), which pipeline.charge_epochs uses across ingest batches)."""

    game: str
    format: str
    settings: FormatSettings
    tournaments: tuple[Entry, ...]
    """Every tournament in CH-2.1 order; tournament i is in epoch i // window."""
    charges: tuple[Mapping[str, int], ...]
    """The table of each epoch 0..last_epoch (card -> charge; not listed: 0)."""
    exact: Mapping[int, Table] = field(repr=False)
    """The exact tables kept: epoch 0, every CHECKPOINT-th, and the one asked for."""
    bases: Mapping[str, str] = field(default_factory=dict, repr=False)
    """card -> base card (CH-2.10) of every card the counted decks held."""
    settled: int = 0
    """How many of the first epochs no tournament of `unsettled` was in (season_tables)."""

    @classmethod
    def empty(cls, game: str, fmt: str, settings: FormatSettings) -> SeasonTables:
        """No tournament yet: epoch 0 and its initial table (CH-2.2)."""
        table = initial_table(settings)
        return cls(game, fmt, settings, (), ({c: s.charge for c, s in table.items()},),
                   {0: table})

    @property
    def last_epoch(self) -> int:
        """The last epoch listed: the upcoming one when the last epoch is full (CH-3.1)."""
        return len(self.tournaments) // self.settings.window

    @property
    def full_epochs(self) -> int:
        return len(self.tournaments) // self.settings.window

    @cached_property
    def _epochs(self) -> dict[str, int]:
        window = self.settings.window
        return {e.tournament: i // window for i, e in enumerate(self.tournaments)}

    def tournament_epoch(self, tournament: str | None) -> int | None:
        """The epoch of a tournament of the season, None for any other."""
        return None if tournament is None else self._epochs.get(tournament)

    def epoch_in_force(self, when: date) -> int:
        """The epoch whose table governs a date (ChargeSeason.epoch_in_force's rule)."""
        window, spans = self.settings.window, []
        for first in range(0, len(self.tournaments), window):
            group = self.tournaments[first:first + window]
            starts = [e.start_date for e in group if e.start_date is not None]
            ends = [e.end_date for e in group if e.end_date is not None]
            spans.append((first // window, min(starts, default=None), max(ends, default=None)))
        return epoch_on(spans, _utc_day(when), self.last_epoch)

    def prefix(self, epochs: int) -> SeasonTables:
        """The season of its first `epochs` full epochs, cut back to the latest exact table at
        or before them (so that it can be resumed); nothing of `unsettled` is kept."""
        epochs = max(e for e in self.exact if e <= min(epochs, self.full_epochs))
        return SeasonTables(
            self.game, self.format, self.settings,
            self.tournaments[:epochs * self.settings.window], self.charges[:epochs + 1],
            {e: t for e, t in self.exact.items() if e <= epochs}, self.bases, epochs)


def season_tables(con: duckdb.DuckDBPyConnection, game: str, format: str, *,
                  formats: ChargeFormats | None = None, cards: GameCards | None = None,
                  closed: SeasonTables | None = None, unsettled: Collection[str] = ()
                  ) -> SeasonTables:
    """Every epoch's charges of `game` in `format`, the same as compute_charges', from a
    connection with the views matches, seats, decks and deck_cards.

    closed: a prefix of the season (SeasonTables.prefix) whose tournaments are still the first
    in CH-2.1 order and whose decks are unchanged; only the later tournaments are counted, so
    `con` needs to hold their matches only (any rows of the closed ones are left out). A
    tournament of `con` that sorts inside the prefix means it is stale: StaleEpochs.
    unsettled: the tournaments whose decks may still change (an ingest batch's); `settled` of
    the result counts the full epochs before the first of them, whose exact table is kept."""
    settings = (formats or load_formats()).settings(game, format)
    cards = cards or game_cards(game)
    start = closed or SeasonTables.empty(game, format, settings)
    if start.settings != settings:
        raise StaleEpochs(f"the closed epochs of {game} {format} were computed with other "
                          "settings")
    later = _later_tournaments(con, start)
    frame = pd.DataFrame({"tournament": [e.tournament for e in later],
                          "epoch": [(len(start.tournaments) + i) // settings.window
                                    for i in range(len(later))]})
    usage = (load_usage(con, game, format, frame, cards, settings.sections) if later
             else Usage(decks={}, counts={}, names={}))
    tournaments = start.tournaments + tuple(later)
    settled = _settled(tournaments, set(unsettled), settings.window)
    charges, exact = _resume(start, len(tournaments) // settings.window, usage, settled)
    return SeasonTables(game, format, settings, tournaments, charges, exact,
                        {**start.bases, **usage.bases}, settled)


class StaleEpochs(ChargeError):
    """A closed prefix no longer matches the history it is resumed on."""


def _later_tournaments(con: duckdb.DuckDBPyConnection, start: SeasonTables) -> list[Entry]:
    """The tournaments of `con` after the prefix `start`, in CH-2.1 order."""
    frame = run_model(con, "tournament_epochs", {"game": start.game, "format": start.format,
                                                 "window_size": start.settings.window})
    known = {e.tournament for e in start.tournaments}
    frame = frame[~frame["tournament"].isin(known)]
    starts, ends = _utc_dates(frame["started_at"]), _utc_dates(frame["last_match_at"])
    later = sorted((Entry(t, tournament_key(t, at), None if _missing(a) else a,
                          None if _missing(b) else b)
                    for t, at, a, b in zip(frame["tournament"], frame["started_at"], starts,
                                           ends)), key=lambda e: e.key)
    if start.tournaments and later and later[0].key <= start.tournaments[-1].key:
        raise StaleEpochs(f"{later[0].tournament!r} sorts among the closed epochs of "
                          f"{start.game} {start.format} (CH-2.1)")
    return later


def _settled(tournaments: tuple[Entry, ...], unsettled: set[str], window: int) -> int:
    """The full epochs before the first tournament of `unsettled` (all full ones if none)."""
    first = next((i for i, e in enumerate(tournaments) if e.tournament in unsettled),
                 len(tournaments))
    return first // window


def _resume(start: SeasonTables, last: int, usage: Usage, keep: int
            ) -> tuple[tuple[Mapping[str, int], ...], dict[int, Table]]:
    """CH-2.2, CH-2.5 - CH-2.7 from the prefix's last table on: each epoch's charges up to
    `last`, the exact tables at checkpoints and at `keep`."""
    settings, charges, exact = start.settings, list(start.charges), dict(start.exact)
    table = start.exact[start.last_epoch]
    for epoch in range(start.last_epoch + 1, last + 1):
        table, _ = next_table(table, usage.counts.get(epoch - 1, {}),
                              usage.decks.get(epoch - 1, 0), settings)
        charges.append({card: standing.charge for card, standing in table.items()})
        if epoch % CHECKPOINT == 0 or epoch == keep:
            exact[epoch] = table
    return tuple(charges), exact


# --- the table in force at each logged match's start -----------------------------------------

SeasonOf = Callable[[str, str], SeasonTables]
"""(game, format) -> that season's tables, as MatchCharges asks for them."""


class MatchCharges:
    """The charge table in force at each logged match's start, computed from one connection's
    history (a lake's views, or a lake plus the batch about to be committed), and the check of
    the match's decks against its cap (ER-2.13, ER-3.3, ER-3.6, CH-2.2, CH-2.8).

    Which table: a match of a tournament the history holds takes its tournament's epoch (CH-2.2:
    epoch k's table governs every match of epoch k); any other match (no tournament, or one not
    in the history yet) the epoch in force on its start date (ChargeSeason.epoch_in_force), and
    the table in force now when it has no date. A history without a tournament of the format has
    only the initial table: epoch 0 (CH-2.2). Formats without charges are not checked (ER-3.2).
    Each game's and format's season is computed once, on first use, by `seasons` (default:
    season_tables over the whole connection; an ingest hands its cache of closed epochs)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, *, formats: ChargeFormats | None = None,
                 seasons: SeasonOf | None = None) -> None:
        self.con = con
        self.formats = formats or load_formats()
        self.seasons = seasons or (lambda game, fmt: season_tables(con, game, fmt,
                                                                   formats=self.formats))
        self._seasons: dict[tuple[str, str], SeasonTables] = {}
        self._tables: dict[tuple[str, str, int], TableInForce] = {}
        self._checks: dict[str, CapCheck | None] = {}

    def checks(self, header: Header) -> bool:
        """Whether the match is checked (cap_applies)."""
        return cap_applies(header, self.formats)

    def in_force(self, header: Header) -> TableInForce:
        """The table in force when the match started (ER-3.6)."""
        season = self.season(header.game, header.format)
        return self._table(season, _match_epoch(season, header))

    def check(self, header: Header) -> CapVerdict | None:
        """Both decks against the table in force; None when the match is not checked."""
        if not self.checks(header):
            return None
        table = self.in_force(header)
        if header.game not in self._checks:
            self._checks[header.game] = game_cards(header.game).cap_problems
        check = self._checks[header.game]
        assert check is not None
        return CapVerdict(header.match_id, table, check(header, table))

    def season(self, game: str, fmt: str) -> SeasonTables:
        if (game, fmt) not in self._seasons:
            self._seasons[game, fmt] = self.seasons(game, fmt)
        return self._seasons[game, fmt]

    def _table(self, season: SeasonTables, epoch: int) -> TableInForce:
        key = (season.game, season.format, epoch)
        if key not in self._tables:
            settings = season.settings
            self._tables[key] = TableInForce(season.game, season.format, epoch,
                                             season.charges[epoch], settings.cap,
                                             settings.sections)
        return self._tables[key]


def _match_epoch(season: SeasonTables, header: Header) -> int:
    """The tournament's epoch when the season holds it, else the one in force on its date."""
    epoch = season.tournament_epoch(header.tournament)
    if epoch is not None:
        return epoch
    if header.started_at is None:
        return season.last_epoch
    return season.epoch_in_force(header.started_at)
