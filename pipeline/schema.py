"""The tables of the lake, layout 2: one pyarrow schema per table (docs/lake.md explains each
column), and which of them a game writes.

Three kinds of table: the core ones every game writes (matches, seats; quarantine for the logs
that could not go in), the capability tables a game writes when its metadata declares the
capability (engine.registry.GameInfo.capabilities: "decks" -> decks and deck_cards, "cards" ->
card_events), and the tables a game declares for itself on its fact extractor
(FactVisitor.TABLES, named `<game>_<name>` in the lake). Beside the facts, the rollup tables
(ROLLUPS): sums of the facts per match day that the metric models read, written by the same
commits (pipeline.rollups).

Every fact table but quarantine carries `game` and `month` ("YYYY-MM" of the match start) after
`match_id`, the hive partition keys: LAKE/<table>/game=<game>/month=<month>/part-<batch>-<n>.parquet;
a rollup table starts with them.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

import pyarrow as pa

from engine import registry

LAYOUT = 2
"""The lake layout this code reads and writes (the manifest's `layout`; none: layout 1)."""
TS = pa.timestamp("us", tz="UTC")
KEYS = (("match_id", pa.string()), ("game", pa.string()), ("month", pa.string()))
"""The first columns of every partitioned table: the match, then the partition keys."""

MATCHES = pa.schema([
    *KEYS, ("ruleset", pa.string()), ("ruleset_version", pa.int32()),
    ("tournament", pa.string()), ("format", pa.string()),
    ("round", pa.int32()), ("table_no", pa.int32()), ("started_at", TS),
    ("seed", pa.int64()), ("scenario", pa.string()), ("first_seat", pa.int8()),
    ("seats", pa.int8()), ("is_draw", pa.bool_()), ("winning_side", pa.string()),
    ("result_reason", pa.string()), ("result_rule", pa.string()),
    ("turns", pa.int32()), ("events", pa.int32()),
    ("content_hash", pa.string()), ("log_path", pa.string()),
    ("head", pa.string()), ("signed_by", pa.string()),
    ("batch", pa.string()), ("ingested_at", TS),
])

SEATS = pa.schema([
    *KEYS, ("seat", pa.int8()), ("player", pa.string()),
    ("side", pa.string()), ("role", pa.string()),
    ("setup_id", pa.string()), ("setup_name", pa.string()),
    ("is_first", pa.bool_()), ("result", pa.string()),
])

QUARANTINE = pa.schema([
    ("path", pa.string()), ("content_hash", pa.string()),
    ("match_id", pa.string()), ("game", pa.string()),
    ("seq", pa.int32()), ("rule", pa.string()), ("reason", pa.string()),
    ("batch", pa.string()), ("quarantined_at", TS),
])

DECKS = pa.schema([
    *KEYS, ("seat", pa.int8()), ("deck_id", pa.string()), ("deck_name", pa.string()),
    ("faction", pa.string()), ("leader", pa.string()),
])

DECK_CARDS = pa.schema([
    *KEYS, ("seat", pa.int8()), ("deck_id", pa.string()), ("section", pa.string()),
    ("card", pa.string()), ("card_name", pa.string()), ("copies", pa.int16()),
])

CARD_EVENTS = pa.schema([
    *KEYS, ("seq", pa.int32()), ("turn", pa.int16()), ("seat", pa.int8()),
    ("card", pa.string()), ("kind", pa.string()),
    ("target", pa.string()), ("amount", pa.int32()),
])

CORE: Mapping[str, pa.Schema] = {"matches": MATCHES, "seats": SEATS, "quarantine": QUARANTINE}
CAPABILITY_TABLES: Mapping[str, Mapping[str, pa.Schema]] = {
    "decks": {"decks": DECKS, "deck_cards": DECK_CARDS},
    "cards": {"card_events": CARD_EVENTS},
}
"""A capability -> the tables a game declaring it writes."""
UNPARTITIONED = ("quarantine",)

ROLLUP_KEYS = (("game", pa.string()), ("month", pa.string()), ("batch", pa.string()),
               ("format", pa.string()), ("match_date", pa.date32()))
"""The first columns of every rollup table: the partition keys, the commit that wrote the row
(what tells its rows from another commit's, as match_id does for the facts), then the scope's
own keys (a report's scope is a game, a format and a range of match days: stg_scope.sql)."""


def _counts(*names: str) -> list[tuple[str, pa.DataType]]:
    return [(name, pa.int64()) for name in names]


ROLLUPS: Mapping[str, pa.Schema] = {
    "rollup_facts": pa.schema([
        ("game", pa.string()), ("month", pa.string()), ("batch", pa.string()),
        ("definition", pa.string()), ("fact_table", pa.string()), *_counts("fact_rows"),
    ]),
    "rollup_deck_games": pa.schema([
        *ROLLUP_KEYS, ("faction", pa.string()),
        *_counts("seat_games", "seat_wins", "games", "draws", "losses", "wins",
                 "mirror_matches", "first_games", "first_wins", "second_games",
                 "second_wins"),
    ]),
    "rollup_card_usage": pa.schema([
        *ROLLUP_KEYS, ("deck_faction", pa.string()), ("card", pa.string()),
        ("card_name", pa.string()), ("section", pa.string()),
        *_counts("included", "copies", "mirror_matches", "mirror_matches_in_faction", "games",
                 "deck_draws", "deck_decided", "deck_wins", "played", "played_games",
                 "played_draws", "played_decided", "played_wins", "drawn", "drawn_games",
                 "drawn_draws", "drawn_decided", "drawn_wins", "opening_games",
                 "opening_draws", "opening_wins", "drawn_later_games", "drawn_later_draws",
                 "drawn_later_wins", "not_drawn_games", "not_drawn_draws", "not_drawn_wins",
                 "first_played", "first_played_turns"),
    ]),
    "rollup_deck_names": pa.schema([
        *ROLLUP_KEYS, ("faction", pa.string()), ("deck_name", pa.string()),
        ("deck_id", pa.string()),
        *_counts("seat_games", "games", "draws", "losses", "wins", "mirror_matches"),
        ("first_match", pa.string()),
    ]),
    "rollup_matchups": pa.schema([
        *ROLLUP_KEYS, ("faction", pa.string()), ("opponent_faction", pa.string()),
        ("is_mirror", pa.bool_()), *_counts("n", "draws", "losses", "wins"),
    ]),
    "rollup_first_player": pa.schema([
        *ROLLUP_KEYS, *_counts("matches", "draws", "first_losses", "first_wins", "decided"),
    ]),
    "rollup_coverage": pa.schema([
        *ROLLUP_KEYS, ("ruleset", pa.string()), ("ruleset_version", pa.int32()),
        *_counts("matches", "draws", "turns", "timed_matches"),
    ]),
    "rollup_deck_lines": pa.schema([
        *ROLLUP_KEYS, ("deck_id", pa.string()), ("first_match", pa.string()),
        ("section", pa.string()), ("card", pa.string()),
        ("card_name", pa.string()), *_counts("copies"),
    ]),
    "rollup_deck_pairs": pa.schema([
        *ROLLUP_KEYS, ("match_id", pa.string()), ("seat", pa.int8()), ("deck_id", pa.string()),
        ("opponent_deck_id", pa.string()), *_counts("seat_games", "wins", "losses", "draws"),
    ]),
}
"""The rollup tables (pipeline.rollups): what the metric models sum, written at ingest beside
the facts of each commit; rollup_facts counts the fact rows each commit's rollups summarize,
and by which definition of them (pipeline.rollups.definition).
A rollup's columns are those of its model, pipeline/sql/<folder>/<table>.sql, after the
partition keys and the batch."""
_TABLE_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")

CARD_EVENT_KINDS = (
    "opening_hand",  # in the hand the seat kept (after mulligans)
    "drawn",         # drawn after the opening hand (turn >= 1)
    "played",        # put into play from hand: unit mobilized, equipment linked, order played...
    "destroyed",     # a unit of this card left play destroyed (seat = its owner)
    "hit",           # this card's attack hit the opposing Sovereign/characters; amount = hits
)


class TableError(ValueError):
    """A game declares a table the lake cannot hold (a clash of names, no partition keys)."""


def tables() -> dict[str, pa.Schema]:
    """Every table the lake knows: core, capability, and each registered game's own."""
    return dict(_tables(tuple((game, registry.game_ref(game)) for game in
                              registry.games_with("facts"))))


def partitioned() -> tuple[str, ...]:
    """The tables partitioned by game and month: all but quarantine."""
    return tuple(name for name in tables() if name not in UNPARTITIONED)


def game_tables(game: str) -> dict[str, pa.Schema]:
    """The tables a game's facts fill: the core ones (but quarantine), those of its
    capabilities, and its own."""
    found = {name: schema for name, schema in CORE.items() if name not in UNPARTITIONED}
    for capability in registry.info(game).capabilities:
        found.update(CAPABILITY_TABLES.get(capability, {}))
    found.update(declared_tables(game))
    return found


def declared_tables(game: str) -> dict[str, pa.Schema]:
    """A game's own tables as the lake names them (`<game>_<name>`), from its extractor."""
    if not registry.has_layer(game, "facts"):
        return {}
    own: Mapping[str, pa.Schema] = getattr(registry.layer(game, "facts"), "TABLES", {})
    return {f"{game}_{name}": schema for name, schema in own.items()}


@cache
def _tables(games: tuple[tuple[str, str], ...]) -> tuple[tuple[str, pa.Schema], ...]:
    """Cached per set of registered games (a game registered later makes a new key). In
    order: the partitioned core tables, the capability tables, the games' own, quarantine."""
    found = {name: schema for name, schema in CORE.items() if name not in UNPARTITIONED}
    for capability in CAPABILITY_TABLES.values():
        found.update(capability)
    for game, _ in games:
        for name, schema in declared_tables(game).items():
            _check_declared(game, name, schema, {**found, **CORE, **ROLLUPS})
            found[name] = schema
    return tuple({**found, **ROLLUPS, **CORE}.items())


def _check_declared(game: str, name: str, schema: pa.Schema,
                    known: Mapping[str, pa.Schema]) -> None:
    if not _TABLE_NAME.match(name):
        raise TableError(f"game {game!r} declares table {name!r}: a table's name is lower case "
                         "letters, digits and _")
    if name in known:
        raise TableError(f"game {game!r} declares table {name!r}, which the lake already has")
    if [(f.name, f.type) for f in schema][:len(KEYS)] != list(KEYS):
        raise TableError(f"game {game!r}: table {name!r} must start with the columns "
                         f"{', '.join(k for k, _ in KEYS)} (strings), as every fact table does")
