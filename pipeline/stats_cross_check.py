"""The metric models again, in plain pandas (groupby and merge), written from the definitions
and not from the SQL: the tests hold the DuckDB models to these numbers, and the metrics
benchmark times them against the SQL.

Every function takes the fact tables as DataFrames (`Facts`: table name -> frame, the columns
of pipeline/schema.py) and returns the model's columns. A deck-game is a seat with its row of
decks (faction, deck name and id live there; the result on the seat). The Wilson interval here is the
textbook p-form, (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), not the SQL's k-form,
so a slip in either shows. Definitions shared with the SQL: a draw counts as not a win; mirror
matches leave the win rates and are counted apart; "drawn" means ever in hand.

`run_all(read_lake(lake, SUITE_COLUMNS), game)` is a game's whole suite (metrics.suite) this
way, read from the lake's Parquet files with pandas alone: what the scale benchmark times
beside DuckDB and Spark. A suite model without a reference here is refused by name.
"""
from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
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
SUITE_COLUMNS: dict[str, list[str]] = {
    "matches": ["match_id", "format", "started_at", "ruleset", "ruleset_version", "is_draw",
                "turns"],
    "seats": ["match_id", "seat", "result", "is_first"],
    "decks": ["match_id", "seat", "deck_id", "deck_name", "faction"],
    "deck_cards": ["match_id", "seat", "deck_id", "card", "card_name", "section", "copies"],
    "card_events": ["match_id", "seat", "card", "kind", "turn"],
}
"""What the models of REFERENCE read of each table, all of them together."""


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
    """Per (match, seat, card): in the opening hand, ever in hand, ever played, first turn
    played."""
    ev = _scoped(facts, "card_events", game, ids)
    ev = ev[ev["kind"].isin(IN_HAND + ("played",))]
    flags = ev.assign(in_opening=ev["kind"] == "opening_hand", in_hand=ev["kind"].isin(IN_HAND),
                      was_played=ev["kind"] == "played",
                      played_turn=ev["turn"].where(ev["kind"] == "played").astype("float64"))
    return flags.groupby(["match_id", "seat", "card"], as_index=False).agg(
        in_opening=("in_opening", "max"), in_hand=("in_hand", "max"),
        was_played=("was_played", "max"), first_played_turn=("played_turn", "min"))


def _included_decks(facts: Facts, game: str, ids: pd.Series,
                    seats: pd.DataFrame) -> pd.DataFrame:
    """One row per deck-game holding a card, with its result, its hand and play flags and
    `counted`: 0 in the card's mirror matches (another deck of the match holds it too)."""
    lines = _scoped(facts, "deck_cards", game, ids).groupby(
        ["match_id", "seat", "card"], as_index=False).agg(
        card_name=("card_name", "min"), section=("section", "min"), copies=("copies", "sum"))
    holders = lines.groupby(["match_id", "card"])["seat"].transform("nunique")
    lines["counted"] = (holders == 1).astype("int64")
    inc = lines.merge(seats[["match_id", "seat", "won", "drew"]], on=["match_id", "seat"])
    inc = inc.merge(_card_seat_events(facts, game, ids), on=["match_id", "seat", "card"],
                    how="left")
    for flag in ("in_opening", "in_hand", "was_played"):
        inc[flag] = inc[flag].fillna(False).astype("int64")
    inc["drawn_later"] = inc["in_hand"] - inc["in_opening"]
    inc["not_in_hand"] = 1 - inc["in_hand"]
    return inc


SITUATIONS = {"played": "was_played", "drawn": "in_hand", "opening": "in_opening",
              "drawn_later": "drawn_later", "not_drawn": "not_in_hand"}
"""A card's situations in a deck-game, each a flag of _included_decks."""


def _usage_counts(inc: pd.DataFrame) -> pd.DataFrame:
    """Usage counts over every deck holding the card; wins, draws and games outside its
    mirrors (counted), per situation."""
    w = inc.assign(games=inc.counted, deck_wins=inc.counted * inc.won,
                   deck_draws=inc.counted * inc.drew)
    sums = {"games": ("games", "sum"), "deck_wins": ("deck_wins", "sum"),
            "deck_draws": ("deck_draws", "sum")}
    for name, flag in SITUATIONS.items():
        w[f"{name}_games"] = w[flag] * w.counted
        w[f"{name}_wins"] = w[flag] * w.counted * w.won
        w[f"{name}_draws"] = w[flag] * w.counted * w.drew
        sums.update({f"{name}_{c}": (f"{name}_{c}", "sum") for c in ("games", "wins", "draws")})
    mirrors = inc[inc.counted == 0].groupby("card")["match_id"].nunique()
    out = w.groupby("card", as_index=False).agg(
        card_name=("card_name", "min"), section=("section", "min"),
        included=("card", "size"), avg_copies=("copies", "mean"),
        played=("was_played", "sum"), drawn=("in_hand", "sum"),
        avg_turn_first_played=("first_played_turn", "mean"), **sums)
    out["mirror_matches"] = out["card"].map(mirrors).fillna(0).astype("int64")
    for name in ("deck", "played", "drawn"):
        games = "games" if name == "deck" else f"{name}_games"
        out[f"{name}_decided"] = out[games] - out[f"{name}_draws"]
    return out


def card_usage(facts: Facts, game: str, format: str | None = None,
               date_from: date | None = None, date_to: date | None = None,
               min_sample: int = 0) -> pd.DataFrame:
    """card_usage.sql from the same facts, by groupby and merge (before the model's Python
    step, pipeline.card_rates: its columns are the SQL's own)."""
    ids = scoped_matches(facts, game, format, date_from, date_to)["match_id"]
    seats = _deck_games(facts, game, ids)
    included = _included_decks(facts, game, ids, seats)
    out = _usage_counts(included)
    out.insert(3, "decks", len(seats))
    out["scope_wins"] = int(seats["won"].sum())
    out = out.merge(_within_faction(seats, included, game), on="card", how="left")
    out = out[out["included"] >= min_sample].copy()
    for name, k, n in (("inclusion_rate", "included", "decks"),
                       ("inclusion_in_faction", "included_in_faction", "faction_decks"),
                       ("played_rate", "played", "included"),
                       ("drawn_rate", "drawn", "included"),
                       ("baseline_win_rate", "scope_wins", "decks"),
                       ("deck_win_rate", "deck_wins", "games"),
                       ("deck_win_rate_decided", "deck_wins", "deck_decided"),
                       ("win_rate_when_played", "played_wins", "played_games"),
                       ("win_rate_when_played_decided", "played_wins", "played_decided"),
                       ("win_rate_when_drawn", "drawn_wins", "drawn_games"),
                       ("win_rate_when_drawn_decided", "drawn_wins", "drawn_decided"),
                       ("win_rate_in_opening_hand", "opening_wins", "opening_games"),
                       ("win_rate_when_drawn_later", "drawn_later_wins", "drawn_later_games"),
                       ("win_rate_when_not_drawn", "not_drawn_wins", "not_drawn_games")):
        add_rate(out, name, k, n)
    _add_difference(out, "improvement_when_drawn", "win_rate_when_drawn",
                    "win_rate_when_not_drawn")
    out = _hand_rates_where_meant(out, game)
    for rate, wins, games in (("deck_win_rate", "deck_wins", "games"),
                              ("win_rate_when_played", "played_wins", "played_games"),
                              ("win_rate_when_drawn", "drawn_wins", "drawn_games")):
        out[f"{rate}_q"] = benjamini_hochberg(score_test(out[wins], out[games],
                                                         out["baseline_win_rate"]))
    return out.sort_values(["included", "card"], ascending=[False, True], ignore_index=True)


def _within_faction(seats: pd.DataFrame, included: pd.DataFrame, game: str) -> pd.DataFrame:
    """Per card made for a faction (GameKit.card_factions): the decks of its faction (a deck
    of "a+b" is of a and of b) and how many of them hold it; nothing for other cards."""
    from engine import registry
    from engine.games import get_game

    known = registry.is_registered(game) and registry.has_layer(game, "kit")
    hook = get_game(game).card_factions if known else None
    made_for = {card: set(f) for card, f in (hook() if hook else {}).items() if f}
    parts = seats[["match_id", "seat", "faction"]].assign(
        parts=seats["faction"].fillna("").str.split("+").map(set))
    rows = []
    for card, factions in made_for.items():
        mine = parts[[bool(p & factions) for p in parts["parts"]]]
        holding = included[included["card"] == card].merge(mine[["match_id", "seat"]])
        rows.append({"card": card, "faction_decks": len(mine),
                     "included_in_faction": len(holding)})
    frame = pd.DataFrame(rows, columns=["card", "faction_decks", "included_in_faction"])
    return frame[frame["faction_decks"] > 0]


def _hand_rates_where_meant(out: pd.DataFrame, game: str) -> pd.DataFrame:
    """A card of a section never drawn (data/<game>/game.toml hand_sections) has no hand or
    play figures: blank, as NaN."""
    from engine import registry

    sections = registry.info(game).hand_sections if registry.is_registered(game) else ()
    out["reaches_hand"] = out["section"].isin(sections) if sections else True
    hand = [c for c in out.columns if c.startswith(("played", "drawn", "opening", "not_drawn",
                                                    "win_rate_", "improvement_"))
            or c == "avg_turn_first_played"]
    out[hand] = out[hand].astype("float64")
    out.loc[~out["reaches_hand"], hand] = np.nan
    return out


def score_test(k: pd.Series, n: pd.Series, p0: pd.Series) -> pd.Series:
    """Two-sided p of k/n = p0 by the normal score test, erfc written out; NaN without n."""
    from math import erfc, sqrt

    out = []
    for wins, games, base in zip(k, n, p0):
        if pd.isna(wins) or pd.isna(games) or games <= 0 or not 0 < base < 1:
            out.append(np.nan)
            continue
        z = (wins - games * base) / sqrt(games * base * (1 - base))
        out.append(erfc(abs(z) / sqrt(2)))
    return pd.Series(out, index=k.index, dtype="float64")


def benjamini_hochberg(p: pd.Series) -> pd.Series:
    """q_i = min over j >= i (in ascending p) of p_j * m / j, capped at 1; NaN stays NaN."""
    tested = p.dropna().sort_values()
    m = len(tested)
    q = pd.Series(np.nan, index=p.index)
    running = 1.0
    for rank in range(m, 0, -1):
        label = tested.index[rank - 1]
        running = min(running, tested.iloc[rank - 1] * m / rank)
        q[label] = running
    return q


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


def _archetypes_of(facts: Facts, game: str, ids: pd.Series) -> pd.DataFrame:
    """The deck-games in scope with their archetype: each deck list (deck_id) read from the
    first seat-game that played it, clustered by pipeline.archetypes (the clustering is the
    definition; the counting around it is this module's own)."""
    from pipeline.archetypes import cluster

    seats = _deck_games(facts, game, ids)
    first = seats.sort_values(["match_id", "seat"]).drop_duplicates("deck_id")
    lines = _scoped(facts, "deck_cards", game, ids).merge(
        first[["match_id", "seat", "deck_id", "faction"]], on=["match_id", "seat", "deck_id"])
    lists = lines.groupby(["deck_id", "faction", "section", "card"], as_index=False,
                          dropna=False).agg(card_name=("card_name", "min"),
                                            copies=("copies", "sum"))
    lists["decks"] = lists["deck_id"].map(seats["deck_id"].value_counts())
    found = cluster(lists, game).drop(columns="faction")
    return seats.merge(found, on="deck_id")


def archetype_win_rates(facts: Facts, game: str, format: str | None = None,
                        date_from: date | None = None, date_to: date | None = None,
                        min_sample: int = 0) -> pd.DataFrame:
    """archetype_win_rates.sql: per archetype (cluster of lists), its own mirrors apart."""
    ids = scoped_matches(facts, game, format, date_from, date_to)["match_id"]
    games = _archetypes_of(facts, game, ids)
    key = ["archetype", "archetype_name", "faction", "signature"]
    flagged = _mirror_flagged(games, ["archetype"])
    out = _win_rate_counts(flagged, key)
    lists = flagged.groupby("archetype")["deck_id"].nunique()
    out["lists"] = out["archetype"].map(lists)
    out = out[out["seat_games"] >= min_sample].copy()
    add_rate(out, "meta_share", "seat_games", "all_seat_games")
    add_rate(out, "win_rate", "wins", "games")
    return out.sort_values(["seat_games", "archetype_name"], ascending=[False, True],
                           ignore_index=True)


def archetype_matchups(facts: Facts, game: str, format: str | None = None,
                       date_from: date | None = None, date_to: date | None = None,
                       min_sample: int = 0) -> pd.DataFrame:
    """archetype_matchups.sql: as matchups, archetype against archetype."""
    ids = scoped_matches(facts, game, format, date_from, date_to)["match_id"]
    pairs = _pairs(_archetypes_of(facts, game, ids), ["archetype", "archetype_name"])
    pairs = pairs.rename(columns={"archetype_opp": "opponent",
                                  "archetype_name_opp": "opponent_name"})
    key = ["archetype", "archetype_name", "opponent", "opponent_name"]
    same = pairs["archetype"] == pairs["opponent"]
    cross = pairs[~same].groupby(key, as_index=False).agg(
        n=("won", "size"), wins=("won", "sum"), losses=("lost", "sum"), draws=("drew", "sum"))
    mirror = pairs[same].assign(drawn_match=pairs["match_id"].where(pairs["drew"] == 1))
    mirror = mirror.groupby(key, as_index=False).agg(
        n=("match_id", "nunique"), draws=("drawn_match", "nunique"))
    out = pd.concat([cross.assign(is_mirror=False), mirror.assign(is_mirror=True)],
                    ignore_index=True)
    out = out[out["n"] >= min_sample].copy()
    add_rate(out, "win_rate", "wins", "n")
    return out.sort_values(["archetype_name", "opponent_name"], ignore_index=True)


REFERENCE = {"card_usage": card_usage, "matchups": matchups, "first_player": first_player,
             "faction_win_rates": faction_win_rates, "deck_archetypes": deck_archetypes,
             "coverage": coverage, "archetype_win_rates": archetype_win_rates,
             "archetype_matchups": archetype_matchups}


def suite(game: str) -> dict[str, Callable[..., pd.DataFrame]]:
    """The reference of each model of the game's suite (metrics.suite), in its order."""
    from pipeline import metrics

    names = metrics.suite(game)
    missing = [name for name in names if name not in REFERENCE]
    if missing:
        raise KeyError(f"no pandas reference for {', '.join(missing)} of {game}'s suite: "
                       "write one in pipeline/stats_cross_check.py, from the model's header")
    return {name: REFERENCE[name] for name in names}


def run_all(facts: Facts, game: str, format: str | None = None, date_from: date | None = None,
            date_to: date | None = None, min_sample: int = 0,
            seconds: dict[str, float] | None = None) -> dict[str, pd.DataFrame]:
    """metrics.run_all from the same facts: the game's suite for one scope, in its order (a
    model without a sample threshold, as coverage, takes no min_sample). `seconds`, if given,
    receives each model's wall-clock time."""
    scope = {"format": format, "date_from": date_from, "date_to": date_to,
             "min_sample": min_sample}
    results = {}
    for name, model in suite(game).items():
        takes = inspect.signature(model).parameters
        started = time.perf_counter()
        results[name] = model(facts, game, **{k: v for k, v in scope.items() if k in takes})
        if seconds is not None:
            seconds[name] = time.perf_counter() - started
    return results
