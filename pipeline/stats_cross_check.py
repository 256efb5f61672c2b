"""The metric models again, in plain pandas (groupby and merge), written from the definitions
and not from the SQL: the tests hold the DuckDB models to these numbers, and the metrics
benchmark times them against the SQL.

Every function takes the fact tables as DataFrames (`Facts`: table name -> frame, the columns
of pipeline/schema.py) and returns the model's columns. A deck-game is a seat with its row of
decks (faction, deck name and id live there; the result on the seat). The Wilson interval here is the
textbook p-form, (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), not the SQL's k-form,
so a slip in either shows. Definitions shared with the SQL: a draw counts as not a win; mirror
matches leave the win rates and are counted apart; "drawn" means ever in hand.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from pipeline.lake import Lake

Facts = Mapping[str, pd.DataFrame]
Z = 1.959963984540054
IN_HAND = ("opening_hand", "drawn")


def wilson(k: pd.Series, n: pd.Series) -> tuple[pd.Series, pd.Series, pd.Series]:
    """k/n with its Wilson 95% interval, NaN where n is 0 or k is missing."""
    k, n = k.astype("float64"), n.astype("float64").where(n > 0)
    p = k / n
    centre = p + Z * Z / (2 * n)
    spread = Z * np.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return p, (centre - spread) / (1 + Z * Z / n), (centre + spread) / (1 + Z * Z / n)


def add_rate(frame: pd.DataFrame, name: str, k: str, n: str) -> None:
    frame[name], frame[f"{name}_low"], frame[f"{name}_high"] = wilson(frame[k], frame[n])


CARD_USAGE_COLUMNS: dict[str, list[str]] = {
    "matches": ["match_id", "format", "started_at"],
    "seats": ["match_id", "seat", "result"],
    "decks": ["match_id", "seat"],
    "deck_cards": ["match_id", "seat", "card", "card_name", "section", "copies"],
    "card_events": ["match_id", "seat", "card", "kind", "turn"],
}
"""What card_usage reads of each table (the partition keys come from the file paths)."""


def read_lake(lake: Lake, columns: Mapping[str, list[str]] = CARD_USAGE_COLUMNS
              ) -> dict[str, pd.DataFrame]:
    """The committed Parquet files of each table read with pandas, as a pandas user would:
    file by file, the hive keys (game, month) added from each path."""
    from pipeline.lake_layout import partition_of

    tables = {}
    for table, wanted in columns.items():
        frames = []
        for path in lake.files(table):
            _, game, month = partition_of(path.relative_to(lake.root).as_posix())
            frames.append(pd.read_parquet(path, columns=wanted).assign(game=game, month=month))
        tables[table] = pd.concat(frames, ignore_index=True)
    return tables


def scoped_matches(facts: Facts, game: str, format: str | None = None,
                   date_from: date | None = None, date_to: date | None = None) -> pd.DataFrame:
    """The matches of the game, format and UTC day range (both ends inclusive)."""
    m = facts["matches"]
    m = m[m["game"] == game]
    day = pd.to_datetime(m["started_at"], utc=True).dt.date
    keep = pd.Series(True, index=m.index)
    if format is not None:
        keep &= m["format"] == format
    if date_from is not None:
        keep &= day >= date_from
    if date_to is not None:
        keep &= day <= date_to
    return m[keep].assign(match_date=day[keep])


def _scoped(facts: Facts, table: str, game: str, ids: pd.Series) -> pd.DataFrame:
    frame = facts[table]
    return frame[(frame["game"] == game) & frame["match_id"].isin(ids)]


def _seat_games(facts: Facts, game: str, ids: pd.Series) -> pd.DataFrame:
    seats = _scoped(facts, "seats", game, ids).copy()
    seats["won"] = (seats["result"] == "win").astype("int64")
    seats["lost"] = (seats["result"] == "loss").astype("int64")
    seats["drew"] = (seats["result"] == "draw").astype("int64")
    return seats


def _deck_games(facts: Facts, game: str, ids: pd.Series) -> pd.DataFrame:
    """The seat-games that played a deck, with it (deck_id, deck_name, faction)."""
    decks = _scoped(facts, "decks", game, ids)
    wanted = [c for c in ("deck_id", "deck_name", "faction") if c in decks.columns]
    return _seat_games(facts, game, ids).merge(decks[["match_id", "seat", *wanted]],
                                               on=["match_id", "seat"])


def _card_seat_events(facts: Facts, game: str, ids: pd.Series) -> pd.DataFrame:
    """Per (match, seat, card): ever in hand, ever played, first turn played."""
    ev = _scoped(facts, "card_events", game, ids)
    ev = ev[ev["kind"].isin(IN_HAND + ("played",))]
    flags = ev.assign(in_hand=ev["kind"].isin(IN_HAND), was_played=ev["kind"] == "played",
                      played_turn=ev["turn"].where(ev["kind"] == "played").astype("float64"))
    return flags.groupby(["match_id", "seat", "card"], as_index=False).agg(
        in_hand=("in_hand", "max"), was_played=("was_played", "max"),
        first_played_turn=("played_turn", "min"))


def _included_decks(facts: Facts, game: str, ids: pd.Series,
                    seats: pd.DataFrame) -> pd.DataFrame:
    lines = _scoped(facts, "deck_cards", game, ids).groupby(
        ["match_id", "seat", "card"], as_index=False).agg(
        card_name=("card_name", "min"), section=("section", "min"), copies=("copies", "sum"))
    inc = lines.merge(seats[["match_id", "seat", "won", "drew"]], on=["match_id", "seat"])
    inc = inc.merge(_card_seat_events(facts, game, ids), on=["match_id", "seat", "card"],
                    how="left")
    inc["in_hand"] = inc["in_hand"].fillna(False).astype("int64")
    inc["was_played"] = inc["was_played"].fillna(False).astype("int64")
    inc["not_in_hand"] = 1 - inc["in_hand"]
    return inc


def _usage_counts(inc: pd.DataFrame) -> pd.DataFrame:
    w = inc.assign(pw=inc.was_played * inc.won, pd_=inc.was_played * inc.drew,
                   dw=inc.in_hand * inc.won, dd=inc.in_hand * inc.drew,
                   nw=inc.not_in_hand * inc.won, nd=inc.not_in_hand * inc.drew)
    return w.groupby("card", as_index=False).agg(
        card_name=("card_name", "min"), section=("section", "min"),
        included=("card", "size"), avg_copies=("copies", "mean"),
        deck_draws=("drew", "sum"), deck_wins=("won", "sum"),
        played=("was_played", "sum"), played_draws=("pd_", "sum"), played_wins=("pw", "sum"),
        drawn=("in_hand", "sum"), drawn_draws=("dd", "sum"), drawn_wins=("dw", "sum"),
        not_drawn=("not_in_hand", "sum"), not_drawn_draws=("nd", "sum"),
        not_drawn_wins=("nw", "sum"), avg_turn_first_played=("first_played_turn", "mean"))


def card_usage(facts: Facts, game: str, format: str | None = None,
               date_from: date | None = None, date_to: date | None = None,
               min_sample: int = 0) -> pd.DataFrame:
    """card_usage.sql from the same facts, by groupby and merge."""
    ids = scoped_matches(facts, game, format, date_from, date_to)["match_id"]
    seats = _deck_games(facts, game, ids)
    out = _usage_counts(_included_decks(facts, game, ids, seats))
    out.insert(3, "decks", len(seats))
    out = out[out["included"] >= min_sample].copy()
    for name, k, n in (("inclusion_rate", "included", "decks"),
                       ("deck_win_rate", "deck_wins", "included"),
                       ("played_rate", "played", "included"),
                       ("win_rate_when_played", "played_wins", "played"),
                       ("win_rate_when_drawn", "drawn_wins", "drawn"),
                       ("win_rate_when_not_drawn", "not_drawn_wins", "not_drawn")):
        add_rate(out, name, k, n)
    _add_difference(out, "improvement_when_drawn", "win_rate_when_drawn",
                    "win_rate_when_not_drawn")
    return out.sort_values(["included", "card"], ascending=[False, True], ignore_index=True)


def _add_difference(frame: pd.DataFrame, name: str, a: str, b: str) -> None:
    """Newcombe's hybrid score interval for a - b, from the two Wilson intervals."""
    d = frame[a] - frame[b]
    frame[name] = d
    frame[f"{name}_low"] = d - np.hypot(frame[a] - frame[f"{a}_low"], frame[f"{b}_high"] - frame[b])
    frame[f"{name}_high"] = d + np.hypot(frame[f"{a}_high"] - frame[a], frame[b] - frame[f"{b}_low"])


def _pairs(seats: pd.DataFrame, key: list[str]) -> pd.DataFrame:
    """Every seat-game against every other seat of its match, the opponent's `key` suffixed."""
    other = seats[["match_id", "seat", *key]]
    pairs = seats.merge(other, on="match_id", suffixes=("", "_opp"))
    return pairs[pairs["seat"] != pairs["seat_opp"]]


def matchups(facts: Facts, game: str, format: str | None = None,
             date_from: date | None = None, date_to: date | None = None,
             min_sample: int = 0) -> pd.DataFrame:
    """matchups.sql: seat-side counts across factions, mirrors counted once per match."""
    ids = scoped_matches(facts, game, format, date_from, date_to)["match_id"]
    pairs = _pairs(_deck_games(facts, game, ids), ["faction"])
    pairs = pairs.rename(columns={"faction_opp": "opponent_faction"})
    key = ["faction", "opponent_faction"]
    cross = pairs[pairs["faction"] != pairs["opponent_faction"]].groupby(key, as_index=False).agg(
        n=("won", "size"), wins=("won", "sum"), losses=("lost", "sum"), draws=("drew", "sum"))
    mirror = pairs[pairs["faction"] == pairs["opponent_faction"]]
    mirror = mirror.assign(drawn_match=mirror["match_id"].where(mirror["drew"] == 1))
    mirror = mirror.groupby(key, as_index=False).agg(
        n=("match_id", "nunique"), draws=("drawn_match", "nunique"))
    out = pd.concat([cross.assign(is_mirror=False), mirror.assign(is_mirror=True)],
                    ignore_index=True)
    out = out[out["n"] >= min_sample].copy()
    add_rate(out, "win_rate", "wins", "n")
    return out.sort_values(key, ignore_index=True)


def first_player(facts: Facts, game: str, format: str | None = None,
                 date_from: date | None = None, date_to: date | None = None) -> pd.DataFrame:
    """first_player.sql: the first seat's record per format."""
    m = scoped_matches(facts, game, format, date_from, date_to)
    seats = _seat_games(facts, game, m["match_id"])
    first = seats[seats["is_first"]].merge(m[["match_id", "format"]], on="match_id")
    out = first.groupby("format", as_index=False).agg(
        matches=("won", "size"), first_wins=("won", "sum"), first_losses=("lost", "sum"),
        draws=("drew", "sum"))
    out["decided"] = out["matches"] - out["draws"]
    add_rate(out, "first_player_win_rate", "first_wins", "matches")
    add_rate(out, "decided_first_player_win_rate", "first_wins", "decided")
    return out.sort_values("format", ignore_index=True)


def _mirror_flagged(seats: pd.DataFrame, key: list[str]) -> pd.DataFrame:
    """Seat-games with is_mirror: some other seat of the match has the same `key`."""
    pairs = _pairs(seats, key)
    same = np.logical_and.reduce([pairs[k] == pairs[f"{k}_opp"] for k in key])
    flags = pairs.assign(is_mirror=same.astype("int64")).groupby(
        ["match_id", "seat"], as_index=False)["is_mirror"].max()
    out = seats.merge(flags, on=["match_id", "seat"], how="left")
    out["is_mirror"] = out["is_mirror"].fillna(0).astype("int64")
    out["fair"] = 1 - out["is_mirror"]
    return out


def _win_rate_counts(flagged: pd.DataFrame, key: list[str]) -> pd.DataFrame:
    f = flagged.assign(fw=flagged.fair * flagged.won, fl=flagged.fair * flagged.lost,
                       fd=flagged.fair * flagged.drew,
                       mirror_match=flagged["match_id"].where(flagged.is_mirror == 1))
    out = f.groupby(key, as_index=False, dropna=False).agg(
        seat_games=("seat", "size"), games=("fair", "sum"), wins=("fw", "sum"),
        losses=("fl", "sum"), draws=("fd", "sum"), mirror_matches=("mirror_match", "nunique"))
    out.insert(len(key), "all_seat_games", len(flagged))
    return out


def faction_win_rates(facts: Facts, game: str, format: str | None = None,
                      date_from: date | None = None, date_to: date | None = None,
                      min_sample: int = 0) -> pd.DataFrame:
    """faction_win_rates.sql: share of decks and win rate outside mirrors, first and second."""
    ids = scoped_matches(facts, game, format, date_from, date_to)["match_id"]
    flagged = _mirror_flagged(_deck_games(facts, game, ids), ["faction"])
    first = flagged["is_first"].astype("int64")
    flagged = flagged.assign(f1=flagged.fair * first, f1w=flagged.fair * first * flagged.won,
                             f2=flagged.fair * (1 - first),
                             f2w=flagged.fair * (1 - first) * flagged.won)
    out = _win_rate_counts(flagged, ["faction"])
    sides = flagged.groupby("faction", as_index=False).agg(
        first_games=("f1", "sum"), first_wins=("f1w", "sum"),
        second_games=("f2", "sum"), second_wins=("f2w", "sum"))
    out = out.merge(sides, on="faction")
    out = out[out["seat_games"] >= min_sample].copy()
    for name, k, n in (("meta_share", "seat_games", "all_seat_games"), ("win_rate", "wins", "games"),
                       ("first_win_rate", "first_wins", "first_games"),
                       ("second_win_rate", "second_wins", "second_games")):
        add_rate(out, name, k, n)
    return out.sort_values(["seat_games", "faction"], ascending=[False, True], ignore_index=True)


def deck_archetypes(facts: Facts, game: str, format: str | None = None,
                    date_from: date | None = None, date_to: date | None = None,
                    min_sample: int = 0) -> pd.DataFrame:
    """deck_archetypes.sql: per deck name within faction, mirrors of the same archetype apart."""
    ids = scoped_matches(facts, game, format, date_from, date_to)["match_id"]
    key = ["deck_name", "faction"]
    flagged = _mirror_flagged(_deck_games(facts, game, ids), key)
    out = _win_rate_counts(flagged, key)
    lists = flagged.groupby(key, as_index=False)["deck_id"].nunique()
    out = out.merge(lists.rename(columns={"deck_id": "distinct_decks"}), on=key)
    out = out[out["seat_games"] >= min_sample].copy()
    add_rate(out, "meta_share", "seat_games", "all_seat_games")
    add_rate(out, "win_rate", "wins", "games")
    return out.sort_values(["seat_games", "faction", "deck_name"], ascending=[False, True, True],
                           ignore_index=True)


def coverage(facts: Facts, game: str, format: str | None = None,
             date_from: date | None = None, date_to: date | None = None) -> pd.DataFrame:
    """coverage.sql: matches, day range, draws and length per format and ruleset version."""
    m = scoped_matches(facts, game, format, date_from, date_to)
    key = ["format", "ruleset", "ruleset_version"]
    out = m.assign(drawn=m["is_draw"].fillna(False).astype("int64")).groupby(
        key, as_index=False).agg(matches=("match_id", "size"), first_day=("match_date", "min"),
                                 last_day=("match_date", "max"), draws=("drawn", "sum"),
                                 avg_turns=("turns", "mean"))
    add_rate(out, "draw_rate", "draws", "matches")
    return out.sort_values(key, ignore_index=True)


REFERENCE = {"card_usage": card_usage, "matchups": matchups, "first_player": first_player,
             "faction_win_rates": faction_win_rates, "deck_archetypes": deck_archetypes,
             "coverage": coverage}
