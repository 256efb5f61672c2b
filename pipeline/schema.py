"""The fact tables of the lake: one pyarrow schema per table (docs/lake.md explains each column).

Every fact table but quarantine carries `game` and `month` ("YYYY-MM" of the match start), the
hive partition keys: LAKE/<table>/game=<game>/month=<month>/part-<batch>-<n>.parquet.
"""
from __future__ import annotations

import pyarrow as pa

TS = pa.timestamp("us", tz="UTC")

MATCHES = pa.schema([
    ("match_id", pa.string()), ("game", pa.string()), ("month", pa.string()),
    ("ruleset", pa.string()), ("ruleset_version", pa.int32()),
    ("tournament", pa.string()), ("format", pa.string()),
    ("round", pa.int32()), ("table_no", pa.int32()), ("started_at", TS),
    ("seed", pa.int64()), ("first_seat", pa.int8()),
    ("winner_seat", pa.int8()), ("result_reason", pa.string()), ("result_rule", pa.string()),
    ("turns", pa.int32()), ("events", pa.int32()),
    ("content_hash", pa.string()), ("log_path", pa.string()),
    ("head", pa.string()), ("signed_by", pa.string()),
    ("batch", pa.string()), ("ingested_at", TS),
])

SEATS = pa.schema([
    ("match_id", pa.string()), ("game", pa.string()), ("month", pa.string()),
    ("seat", pa.int8()), ("player", pa.string()),
    ("deck_id", pa.string()), ("deck_name", pa.string()),
    ("faction", pa.string()), ("leader", pa.string()),
    ("is_first", pa.bool_()), ("result", pa.string()),
])

DECK_CARDS = pa.schema([
    ("match_id", pa.string()), ("game", pa.string()), ("month", pa.string()),
    ("seat", pa.int8()), ("deck_id", pa.string()), ("section", pa.string()),
    ("card", pa.string()), ("card_name", pa.string()), ("copies", pa.int16()),
])

CARD_EVENTS = pa.schema([
    ("match_id", pa.string()), ("game", pa.string()), ("month", pa.string()),
    ("seq", pa.int32()), ("turn", pa.int16()), ("seat", pa.int8()),
    ("card", pa.string()), ("kind", pa.string()),
    ("target", pa.string()), ("amount", pa.int32()),
])

QUARANTINE = pa.schema([
    ("path", pa.string()), ("content_hash", pa.string()),
    ("match_id", pa.string()), ("game", pa.string()),
    ("seq", pa.int32()), ("rule", pa.string()), ("reason", pa.string()),
    ("batch", pa.string()), ("quarantined_at", TS),
])

TABLES: dict[str, pa.Schema] = {
    "matches": MATCHES, "seats": SEATS, "deck_cards": DECK_CARDS, "card_events": CARD_EVENTS,
    "quarantine": QUARANTINE,
}
PARTITIONED = ("matches", "seats", "deck_cards", "card_events")

CARD_EVENT_KINDS = (
    "opening_hand",  # in the hand the seat kept (after mulligans)
    "drawn",         # drawn after the opening hand (turn >= 1)
    "played",        # put into play from hand: unit mobilized, equipment linked, order played...
    "destroyed",     # a unit of this card left play destroyed (seat = its owner)
    "hit",           # this card's attack hit the opposing Sovereign/characters; amount = hits
)
