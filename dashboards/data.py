"""Every query the app makes, in one cached module: pages describe the UI and call only this.

- One read-only DuckDB connection per lake and manifest version (st.cache_resource): the views
  are bound to the files the manifest listed when they were made, so a later ingest (a new
  version) gets a new connection and every cached answer keyed by the old version is left behind.
- Query results are cached per parameters (st.cache_data); each query runs on its own cursor of
  the shared connection, which is how DuckDB wants one database used from several threads.
- Filters reach SQL only as bound parameters ($name), never as text.
- Replays are opened only for matches the lake lists (a page passes a match id, never a path),
  and only while the file there is the log ingested (its content hash is the lake's).
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pandas as pd
import streamlit as st

from dashboards import replaying

if TYPE_CHECKING:
    from pipeline.deck_verdict import DeckVerdict

LAKE_ENV = "POSTGAME_LAKE"
MATCH_LIMIT = 500


@dataclass(frozen=True)
class LakeRef:
    """Which lake, and which committed state of it: the key of every cached answer."""

    root: str
    version: int


class LakeUnavailable(ValueError):
    """The lake folder is missing, unreadable or holds no matches yet."""


def lake_root() -> Path | None:
    """The lake the app was started on (`postgame app --lake DIR` sets the variable)."""
    value = os.environ.get(LAKE_ENV, "").strip()
    return Path(value).expanduser().resolve() if value else None


def current_lake() -> LakeRef:
    """The lake and its manifest version now; LakeUnavailable says why there is nothing to show."""
    root = lake_root()
    if root is None:
        raise LakeUnavailable(f"no lake given: start the app with `postgame app --lake DIR` "
                              f"(or set {LAKE_ENV})")
    if not root.is_dir():
        raise LakeUnavailable(f"{root} does not exist yet")
    from pipeline.lake import Lake
    from pipeline.lake_layout import LakeError

    try:
        manifest = Lake(root).manifest()
    except LakeError as err:
        raise LakeUnavailable(str(err)) from err
    ref = LakeRef(str(root), int(manifest.get("version", 0)))
    if not any(manifest["tables"].get("matches")):
        raise LakeUnavailable(f"{root} holds no matches yet")
    return ref


@st.cache_resource(show_spinner=False, max_entries=4)
def _connection(root: str, version: int) -> duckdb.DuckDBPyConnection:
    from pipeline.lake import Lake

    return Lake(root).connect()


def _cursor(lake: LakeRef) -> duckdb.DuckDBPyConnection:
    return _connection(lake.root, lake.version).cursor()


def query(lake: LakeRef, sql: str, params: dict[str, Any] | None = None) -> pd.DataFrame:
    """Run SQL written in this module with bound parameters; pages never write SQL."""
    cursor = _cursor(lake)
    try:
        return cursor.execute(sql, params or {}).df()
    finally:
        cursor.close()


# Lake overview --------------------------------------------------------------------------------

@st.cache_data(show_spinner=False)
def games(lake: LakeRef) -> list[str]:
    return query(lake, "SELECT DISTINCT game FROM matches ORDER BY game")["game"].tolist()


@st.cache_data(show_spinner=False)
def lake_summary(lake: LakeRef) -> pd.DataFrame:
    """Per game: matches, events logged, tournaments and the first and last match start."""
    return query(lake, """
        SELECT game, count(*) AS matches, coalesce(sum(events), 0) AS events,
               count(DISTINCT tournament) AS tournaments,
               min(started_at) AS first_match, max(started_at) AS last_match
        FROM matches GROUP BY game ORDER BY game""")


@st.cache_data(show_spinner=False)
def table_rows(lake: LakeRef) -> pd.DataFrame:
    """Rows per table of the lake (core, capability and the games' own: pipeline.schema), so
    a person sees at once whether ingest wrote every table. The names are the schema's."""
    from pipeline.schema import tables

    return query(lake, " UNION ALL ".join(f"SELECT '{table}' AS table_name, count(*) AS rows "
                                          f"FROM {table}" for table in tables()))


@st.cache_data(show_spinner=False)
def quarantined(lake: LakeRef) -> pd.DataFrame:
    return query(lake, """
        SELECT path, match_id, game, seq, rule, reason, quarantined_at, batch
        FROM quarantine ORDER BY quarantined_at DESC, path""")


# Replay: finding a match ----------------------------------------------------------------------

@st.cache_data(show_spinner=False)
def tournaments(lake: LakeRef, game: str) -> list[str]:
    return _values(lake, "matches", "tournament", game)


@st.cache_data(show_spinner=False)
def players(lake: LakeRef, game: str) -> list[str]:
    return _values(lake, "seats", "player", game)


@st.cache_data(show_spinner=False)
def played_cards(lake: LakeRef, game: str) -> pd.DataFrame:
    """Cards played at least once (card id and name), for the 'card played' filter."""
    return query(lake, """
        WITH played AS (SELECT DISTINCT card FROM card_events
                        WHERE game = $game AND kind = 'played')
        SELECT p.card, coalesce(min(d.card_name), p.card) AS name
        FROM played AS p LEFT JOIN deck_cards AS d ON d.game = $game AND d.card = p.card
        GROUP BY p.card ORDER BY name, p.card""", {"game": game})


@st.cache_data(show_spinner=False)
def find_matches(lake: LakeRef, game: str, tournament: str | None = None,
                 player: str | None = None, card: str | None = None) -> pd.DataFrame:
    """Matches of a game through the filters, newest tournament rounds last, at most 500."""
    return query(lake, """
        SELECT m.match_id, m.tournament, m.format, m.round, m.table_no, m.started_at,
               m.is_draw, m.result_reason, m.turns, m.events,
               coalesce(m.winning_side, (SELECT string_agg('seat ' || CAST(s.seat AS VARCHAR),
                                                           ', ' ORDER BY s.seat)
                                         FROM seats AS s WHERE s.match_id = m.match_id
                                           AND s.result = 'win')) AS winners,
               (SELECT string_agg(s.player, ' vs ' ORDER BY s.seat) FROM seats AS s
                WHERE s.match_id = m.match_id) AS players
        FROM matches AS m
        WHERE m.game = $game
          AND ($tournament IS NULL OR m.tournament = $tournament)
          AND ($player IS NULL OR EXISTS (SELECT 1 FROM seats AS s
               WHERE s.match_id = m.match_id AND s.player = $player))
          AND ($card IS NULL OR EXISTS (SELECT 1 FROM card_events AS e
               WHERE e.match_id = m.match_id AND e.kind = 'played' AND e.card = $card))
        ORDER BY m.started_at, m.tournament, m.round, m.table_no, m.match_id
        LIMIT $limit""", {"game": game, "tournament": tournament, "player": player,
                          "card": card, "limit": MATCH_LIMIT})


def match_log_path(lake: LakeRef, match_id: str) -> str | None:
    """Where the lake says the match's log is; None when the lake has no such match."""
    found = match_log(lake, match_id)
    return None if found is None else found.path


@dataclass(frozen=True)
class LoggedMatch:
    """Where the lake says a match's log is and the content hash ingest recorded for it."""

    path: str
    content_hash: str | None


@st.cache_data(show_spinner=False)
def match_log(lake: LakeRef, match_id: str) -> LoggedMatch | None:
    """The lake's log path and content hash of a match; None when the lake has no such match."""
    found = query(lake, "SELECT log_path, content_hash FROM matches WHERE match_id = $match_id "
                        "LIMIT 1", {"match_id": match_id})
    if found.empty:
        return None
    digest = found["content_hash"].iloc[0]
    return LoggedMatch(str(found["log_path"].iloc[0]), None if pd.isna(digest) else str(digest))


# Replay: stepping through a match -------------------------------------------------------------

LogSource = tuple[str, str, tuple[int, int]]
"""A log as the replay caches know it: path, the lake's content hash, the file's stamp."""


def _log_stamp(path: str) -> tuple[int, int]:
    """A changed file gets a new stamp (time, size), so the app reads it again and checks it
    against the lake's content hash once more."""
    stat = Path(path).stat()
    return stat.st_mtime_ns, stat.st_size


@st.cache_resource(show_spinner=False, max_entries=32)
def _replay(path: str, content_hash: str, stamp: tuple[int, int]) -> replaying.ReplayCursor:
    return replaying.open_replay(path, content_hash)


def _replay_source(lake: LakeRef, match_id: str) -> LogSource:
    """The log the lake lists for a match, its content hash and its stamp; ReplayUnavailable
    says why there is none to replay (LogChanged: the file is gone)."""
    found = match_log(lake, match_id)
    if found is None:
        raise replaying.ReplayUnavailable(f"the lake has no match {match_id!r}")
    if found.content_hash is None:
        raise replaying.ReplayUnavailable(f"the lake recorded no content hash for match "
                                          f"{match_id!r}, so its log {found.path} cannot be "
                                          "checked against what was ingested")
    try:
        return found.path, found.content_hash, _log_stamp(found.path)
    except FileNotFoundError as err:
        raise replaying.missing_log(found.path, found.content_hash) from err
    except OSError as err:
        raise replaying.ReplayUnavailable(f"{found.path}: cannot read the file: "
                                          f"{err.strerror or err}") from err


def replay_cursor(lake: LakeRef, match_id: str) -> replaying.ReplayCursor:
    """The checked replay of a match the lake lists (pages never name a log file): only the
    log ingested, unchanged since (replaying.LogChanged otherwise)."""
    return _replay(*_replay_source(lake, match_id))


def replay_frame(lake: LakeRef, match_id: str, step: int,
                 perspective: int | str) -> replaying.Frame:
    return _frame(*_replay_source(lake, match_id), step, perspective)


def replay_events(lake: LakeRef, match_id: str, perspective: int | str) -> pd.DataFrame:
    return _events(*_replay_source(lake, match_id), perspective)


@st.cache_data(show_spinner=False, max_entries=4096)
def _frame(path: str, content_hash: str, stamp: tuple[int, int], step: int,
           perspective: int | str) -> replaying.Frame:
    return replaying.frame(_replay(path, content_hash, stamp), step, perspective)


@st.cache_data(show_spinner=False, max_entries=64)
def _events(path: str, content_hash: str, stamp: tuple[int, int],
            perspective: int | str) -> pd.DataFrame:
    return replaying.event_table(_replay(path, content_hash, stamp), perspective)


# Replay: winning chances ------------------------------------------------------------------------

CHANCE_PLAYOUTS = (16, 24, 48, 96)
"""The playouts a step the page offers: 24 by default, about 10 s for a typical match here."""


@st.cache_resource(show_spinner=False, max_entries=1)
def _chance_lines() -> dict[tuple[Any, ...], Any]:
    """Chance lines computed this server's life, by log, perspective, playouts and seed: a
    line takes seconds of playouts, so it is made once, on demand, and then read."""
    return {}


def chance_key(lake: LakeRef, match_id: str, perspective: int | str, playouts: int,
               seed: int) -> tuple[Any, ...]:
    return (*_replay_source(lake, match_id), str(perspective), playouts, seed)


def chance_line(lake: LakeRef, match_id: str, perspective: int | str, playouts: int,
                seed: int, progress: Any = None) -> Any:
    """engine.chances.ChanceLine of a match the lake lists, as `perspective` may estimate it:
    the one made before, else made now (`progress(done, total)` told after every step).
    ChancesUnavailable says why a game or perspective has none."""
    from engine.chances import ChancesUnavailable, winning_chances
    from engine.games import UnknownGame, get_game

    key = chance_key(lake, match_id, perspective, playouts, seed)
    lines = _chance_lines()
    if key in lines:
        return lines[key]
    replay = replay_cursor(lake, match_id).replay
    try:
        kit = get_game(replay.header.game)
    except UnknownGame as err:
        raise ChancesUnavailable(str(err)) from err
    storyteller = kit.playout_storyteller
    line = winning_chances(replay.ruleset, replay.header, replay.events, perspective,
                           determinize=kit.determinize, playouts=playouts, seed=seed,
                           progress=progress,
                           storyteller=None if storyteller is None
                           else functools.partial(storyteller, replay.header))
    lines[key] = line
    return line


def known_chance_line(lake: LakeRef, match_id: str, perspective: int | str, playouts: int,
                      seed: int) -> Any:
    """The line made before, or None (nothing is computed)."""
    return _chance_lines().get(chance_key(lake, match_id, perspective, playouts, seed))


# Balance: filters and metrics -----------------------------------------------------------------

@st.cache_data(show_spinner=False)
def formats(lake: LakeRef, game: str) -> list[str]:
    return _values(lake, "matches", "format", game)


@st.cache_data(show_spinner=False)
def factions(lake: LakeRef, game: str) -> list[str]:
    """The factions of the game's decks (decks.faction); none for a game without decks."""
    return _values(lake, "decks", "faction", game)


def _values(lake: LakeRef, table: str, column: str, game: str) -> list[str]:
    """The distinct values a column of a fact table takes for a game, sorted, NULL left out: a
    filter's choices. table and column are this module's names, never a user's text."""
    return query(lake, f"SELECT DISTINCT {column} FROM {table} WHERE game = $game "
                       f"AND {column} IS NOT NULL ORDER BY {column}",
                 {"game": game})[column].tolist()


@st.cache_data(show_spinner=False)
def match_days(lake: LakeRef, game: str) -> tuple[date, date]:
    """The first and last match day (UTC) of a game: the date filter's bounds."""
    found = query(lake, "SELECT CAST(min(started_at) AS DATE) AS first_day, "
                        "CAST(max(started_at) AS DATE) AS last_day FROM matches "
                        "WHERE game = $game", {"game": game})
    return (pd.Timestamp(found["first_day"].iloc[0]).date(),
            pd.Timestamp(found["last_day"].iloc[0]).date())


@st.cache_data(show_spinner=False)
def card_stats(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
               date_to: date | None, faction: str | None, min_sample: int) -> pd.DataFrame:
    """Every card metric of pipeline/sql/cards/card_usage.sql with sample sizes and
    intervals, for the cards in at least `min_sample` decks: the model's rows over every card
    (run once per scope), kept from the minimum on, the FDR q-values made across those."""
    from pipeline.card_rates import with_q

    every = _card_usage(lake, game, fmt, date_from, date_to, faction)
    if not min_sample:
        return every
    return with_q(every[every["included"] >= min_sample].reset_index(drop=True))


@st.cache_data(show_spinner=False)
def _card_usage(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
                date_to: date | None, faction: str | None) -> pd.DataFrame:
    from pipeline import metrics

    cursor = _cursor(lake)
    try:
        return metrics.card_usage(cursor, game, fmt, date_from, date_to, 0, faction)
    finally:
        cursor.close()


@st.cache_data(show_spinner=False)
def matchups(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
             date_to: date | None, min_sample: int) -> pd.DataFrame:
    """Faction against faction, one row per ordered pair, with counts and intervals."""
    from pipeline import metrics

    cursor = _cursor(lake)
    try:
        return metrics.matchups(cursor, game, fmt, date_from, date_to, min_sample)
    finally:
        cursor.close()


@st.cache_data(show_spinner=False)
def first_player(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
                 date_to: date | None) -> pd.DataFrame:
    from pipeline import metrics

    cursor = _cursor(lake)
    try:
        return metrics.first_player(cursor, game, fmt, date_from, date_to)
    finally:
        cursor.close()


@st.cache_data(show_spinner=False)
def archetypes(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
               date_to: date | None, min_sample: int) -> pd.DataFrame:
    """Archetypes clustered from what decks hold (pipeline.archetypes), with their meta share
    and win rates (archetype_win_rates.sql)."""
    return _model(lake, "archetype_win_rates", game, fmt, date_from, date_to, min_sample)


@st.cache_data(show_spinner=False)
def archetype_matchups(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
                       date_to: date | None, min_sample: int) -> pd.DataFrame:
    """Archetype against archetype, one row per ordered pair (archetype_matchups.sql)."""
    return _model(lake, "archetype_matchups", game, fmt, date_from, date_to, min_sample)


def _model(lake: LakeRef, name: str, game: str, fmt: str | None, date_from: date | None,
           date_to: date | None, min_sample: int) -> pd.DataFrame:
    from pipeline import metrics

    cursor = _cursor(lake)
    try:
        return metrics.run_model(cursor, name, game=game, format=fmt, date_from=date_from,
                                 date_to=date_to, min_sample=min_sample)
    finally:
        cursor.close()


# A card's page ---------------------------------------------------------------------------------

_IN_SCOPE = """m.game = $game AND ($format IS NULL OR m.format = $format)
          AND ($date_from IS NULL OR CAST(timezone('UTC', m.started_at) AS DATE) >= $date_from)
          AND ($date_to IS NULL OR CAST(timezone('UTC', m.started_at) AS DATE) <= $date_to)"""
"""The balance pages' scope (format, UTC match days) on `matches AS m`, as stg_scope has it."""


def _card_params(game: str, card: str, fmt: str | None, date_from: date | None,
                 date_to: date | None) -> dict[str, Any]:
    return {"game": game, "card": card, "format": fmt, "date_from": date_from,
            "date_to": date_to}


@st.cache_data(show_spinner=False)
def card_matches(lake: LakeRef, game: str, card: str, fmt: str | None, date_from: date | None,
                 date_to: date | None) -> pd.DataFrame:
    """The decks in scope that held the card, newest first (at most 500): the match, the
    seat, its player and result, and the step and turn it first played the card (none if it
    never did), where a replay link opens."""
    return query(lake, f"""
        WITH holders AS (
            SELECT DISTINCT d.match_id, d.seat FROM deck_cards AS d
            WHERE d.game = $game AND d.card = $card),
        plays AS (
            SELECT e.match_id, e.seat, min(e.seq) AS first_played_step,
                   arg_min(e.turn, e.seq) AS first_played_turn
            FROM card_events AS e
            WHERE e.game = $game AND e.card = $card AND e.kind = 'played'
            GROUP BY e.match_id, e.seat)
        SELECT m.match_id, m.tournament, m.round, m.started_at, h.seat, s.player, s.result,
               p.first_played_step, p.first_played_turn,
               (SELECT count(*) FROM holders AS o WHERE o.match_id = h.match_id) > 1
                   AS card_mirror
        FROM holders AS h
        JOIN matches AS m ON m.match_id = h.match_id
        JOIN seats AS s ON s.match_id = h.match_id AND s.seat = h.seat
        LEFT JOIN plays AS p ON p.match_id = h.match_id AND p.seat = h.seat
        WHERE {_IN_SCOPE}
        ORDER BY m.started_at DESC, m.match_id, h.seat
        LIMIT $limit""", {**_card_params(game, card, fmt, date_from, date_to),
                          "limit": MATCH_LIMIT})


@st.cache_data(show_spinner=False)
def card_trend(lake: LakeRef, game: str, card: str, fmt: str | None, date_from: date | None,
               date_to: date | None) -> pd.DataFrame:
    """Per tournament (in order of its first match): decks in scope, decks holding the card,
    and outside its mirrors the games, wins, games in hand and wins in hand; the page puts the
    rates and their intervals on them."""
    return query(lake, f"""
        WITH scoped AS (
            SELECT m.match_id, m.tournament, m.started_at FROM matches AS m WHERE {_IN_SCOPE}),
        decks AS (
            SELECT s.match_id, s.seat, sc.tournament,
                   CASE WHEN s.result = 'win' THEN 1 ELSE 0 END AS won
            FROM seats AS s
            JOIN main.decks AS k ON k.match_id = s.match_id AND k.seat = s.seat
            JOIN scoped AS sc ON sc.match_id = s.match_id),
        holders AS (
            SELECT d.match_id, d.seat,
                   CASE WHEN count(*) OVER (PARTITION BY d.match_id) > 1 THEN 0 ELSE 1 END
                       AS counted
            FROM deck_cards AS d
            JOIN scoped AS sc ON sc.match_id = d.match_id
            WHERE d.game = $game AND d.card = $card),
        in_hand AS (
            SELECT DISTINCT e.match_id, e.seat FROM card_events AS e
            WHERE e.game = $game AND e.card = $card AND e.kind IN ('opening_hand', 'drawn'))
        SELECT d.tournament, min(sc.started_at) AS first_match,
               count(*) AS decks,
               count(h.seat) AS included,
               CAST(coalesce(sum(h.counted), 0) AS BIGINT) AS games,
               CAST(coalesce(sum(h.counted * d.won), 0) AS BIGINT) AS deck_wins,
               count(CASE WHEN h.counted = 1 AND i.seat IS NOT NULL THEN 1 END) AS drawn_games,
               count(CASE WHEN h.counted = 1 AND i.seat IS NOT NULL AND d.won = 1 THEN 1 END)
                   AS drawn_wins
        FROM decks AS d
        JOIN scoped AS sc ON sc.match_id = d.match_id
        LEFT JOIN holders AS h ON h.match_id = d.match_id AND h.seat = d.seat
        LEFT JOIN in_hand AS i ON i.match_id = d.match_id AND i.seat = d.seat
        GROUP BY d.tournament
        ORDER BY first_match, d.tournament""", _card_params(game, card, fmt, date_from, date_to))


@st.cache_data(show_spinner=False)
def card_companions(lake: LakeRef, game: str, card: str, fmt: str | None,
                    date_from: date | None, date_to: date | None,
                    top: int = 15) -> pd.DataFrame:
    """The cards most often in the same decks as the card: how many of its decks hold each,
    and that share."""
    return query(lake, f"""
        WITH mine AS (
            SELECT DISTINCT d.match_id, d.seat FROM deck_cards AS d
            JOIN matches AS m ON m.match_id = d.match_id
            WHERE d.game = $game AND d.card = $card AND {_IN_SCOPE})
        SELECT o.card, min(o.card_name) AS card_name, count(DISTINCT (o.match_id, o.seat))
                   AS decks_together,
               count(DISTINCT (o.match_id, o.seat)) / (SELECT count(*) FROM mine)
                   AS share_of_its_decks
        FROM deck_cards AS o
        JOIN mine ON mine.match_id = o.match_id AND mine.seat = o.seat
        WHERE o.game = $game AND o.card <> $card
        GROUP BY o.card
        ORDER BY decks_together DESC, o.card
        LIMIT $top""", {**_card_params(game, card, fmt, date_from, date_to), "top": top})


@st.cache_data(show_spinner=False)
def card_archetypes(lake: LakeRef, game: str, card: str, fmt: str | None,
                    date_from: date | None, date_to: date | None) -> pd.DataFrame:
    """The archetypes (clustered from what decks hold: pipeline.archetypes) of the decks
    holding the card, most common first, with their wins outside the card's mirrors."""
    from pipeline.archetypes import archetype_of

    params = _card_params(game, card, fmt, date_from, date_to)
    cursor = _cursor(lake)
    try:
        cursor.register("archetype_of", archetype_of(cursor, params))
        return cursor.execute(f"""
            WITH holders AS (
                SELECT d.match_id, d.seat, d.deck_id,
                       CASE WHEN count(*) OVER (PARTITION BY d.match_id) > 1 THEN 0 ELSE 1 END
                           AS counted
                FROM deck_cards AS d
                JOIN matches AS m ON m.match_id = d.match_id
                WHERE d.game = $game AND d.card = $card AND {_IN_SCOPE})
            SELECT coalesce(a.archetype_name, 'no archetype') AS archetype, count(*) AS decks,
                   CAST(sum(h.counted) AS BIGINT) AS games,
                   CAST(sum(h.counted * CASE WHEN s.result = 'win' THEN 1 ELSE 0 END)
                        AS BIGINT) AS wins
            FROM holders AS h
            JOIN seats AS s ON s.match_id = h.match_id AND s.seat = h.seat
            LEFT JOIN archetype_of AS a ON a.deck_id = h.deck_id
            GROUP BY 1
            ORDER BY decks DESC, archetype""", params).df()
    finally:
        cursor.close()


# Charges --------------------------------------------------------------------------------------

@st.cache_data(show_spinner=False)
def charge_formats(lake: LakeRef, game: str) -> list[str]:
    """Formats of the game that have charges (data/charges/formats.toml) and matches here."""
    from pipeline.charges import ChargeError, load_formats

    settings = load_formats()
    found = []
    for fmt in formats(lake, game):
        try:
            settings.settings(game, fmt)
        except ChargeError:
            continue
        found.append(fmt)
    return found


@st.cache_resource(show_spinner=False, max_entries=8)
def _season(root: str, version: int, game: str, fmt: str) -> Any:
    """Every epoch's charge table of a format, computed once per lake version."""
    from pipeline.charges import compute_charges

    cursor = _cursor(LakeRef(root, version))
    try:
        return compute_charges(cursor, game, fmt)
    finally:
        cursor.close()


def charge_season(lake: LakeRef, game: str, fmt: str) -> Any:
    """pipeline.charges.ChargeSeason: epochs, tables, history, movers, deck checks."""
    return _season(lake.root, lake.version, game, fmt)


MAX_DECK_CHARS = 20_000
"""The longest deck list the checker reads: a real one is a few hundred characters, and a
pasted or uploaded file of megabytes would only tie the server up."""


def deck_check(lake: LakeRef, game: str, fmt: str, text: str, when: date | str | None,
               source: str = "<pasted deck>") -> DeckVerdict:
    """A deck list (as people write it, or its JSON form) judged as the command line judges it
    (pipeline.deck_verdict.judge_deck: the game's deck rules and the charge cap of the table in
    force, one verdict); a list that cannot be read raises ValueError naming the line
    (engine.decklist), as do an unknown tournament and an overlong text."""
    from pipeline.deck_verdict import deck_lines, judge_deck

    deck = read_deck(text, source)
    return judge_deck(game, deck, lines=deck_lines(text),
                      charges=lambda: charge_season(lake, game, fmt), when=when)


def read_deck(text: str, source: str) -> Any:
    """The deck list in `text`: JSON when it starts with '{' (as load_decklist decides), the
    text form otherwise."""
    from engine.decklist import decode_json_decklist, parse_decklist

    if len(text) > MAX_DECK_CHARS:
        raise ValueError(f"{source}: more than {MAX_DECK_CHARS:,} characters, too long for "
                         "a deck list")
    if text.lstrip().startswith("{"):
        return decode_json_decklist(text, source)
    return parse_decklist(text, source)


# Exports --------------------------------------------------------------------------------------

REPORT_FORMS = {"html": ("report.html", "text/html"),
                "xlsx": ("report.xlsx",
                         "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
                "csv": ("report-csv.zip", "application/zip"),
                "parquet": ("report-parquet.zip", "application/zip")}
"""Each form `postgame export` writes, as one download (the many-file forms zipped)."""


@st.cache_resource(show_spinner=False, max_entries=8)
def _report(root: str, version: int, game: str, fmt: str | None, date_from: date | None,
            date_to: date | None, min_sample: int) -> Any:
    from pipeline.export import build_report
    from pipeline.metrics import Scope

    cursor = _cursor(LakeRef(root, version))
    try:
        scope = Scope(game, fmt, date_from, date_to, min_sample)
        return build_report(cursor, scope, {"lake": root, "lake version": str(version)})
    finally:
        cursor.close()


@st.cache_data(show_spinner=False, max_entries=32)
def report_file(lake: LakeRef, form: str, game: str, fmt: str | None, date_from: date | None,
                date_to: date | None, min_sample: int) -> bytes:
    """One report form as the bytes of one download, made by pipeline.export itself."""
    import io
    import tempfile
    import zipfile

    from pipeline.export import write_report

    report = _report(lake.root, lake.version, game, fmt, date_from, date_to, min_sample)
    with tempfile.TemporaryDirectory(prefix="postgame-report-") as folder:
        paths = write_report(report, Path(folder), [form])
        if len(paths) == 1:
            return paths[0].read_bytes()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in paths:
                archive.write(path, path.name)
        return buffer.getvalue()


def report_notes(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
                 date_to: date | None, min_sample: int) -> tuple[dict[str, Any], list[str]]:
    """What the report says about itself (filters, days, matches) and what it left out."""
    report = _report(lake.root, lake.version, game, fmt, date_from, date_to, min_sample)
    return report.about, list(report.notes)


# Vampire V20 combat ---------------------------------------------------------------------------

@st.cache_data(show_spinner=False)
def scenarios(lake: LakeRef, game: str) -> list[str]:
    """The scenarios the game's matches were played from (matches.scenario): a filter's
    choices, since a sweep of the bonfire and an alley ambush are different fights."""
    return _values(lake, "matches", "scenario", game)


def _match_scoped_cursor(lake: LakeRef, game: str, tournament: str | None,
                         scenario: str | None) -> duckdb.DuckDBPyConnection:
    """A private cursor; with a tournament or a scenario, its `matches` are those matches only.

    The models take no tournament or scenario parameter, but every one of them reads its
    matches through stg_scope (over `matches`), so shadowing that view on this cursor (the
    filters bound parameters) narrows every model alike, with the SQL unchanged and every other
    session's cursor untouched. (The rollups then no longer summarize the facts this cursor
    sees, so pipeline.metrics computes them from its facts: pipeline.rollups.stored.)"""
    cursor = _cursor(lake)
    if tournament is not None or scenario is not None:
        mine = cursor.sql("SELECT * FROM main.matches WHERE game = $game "
                          "AND ($tournament IS NULL OR tournament = $tournament) "
                          "AND ($scenario IS NULL OR scenario = $scenario)",
                          params={"game": game, "tournament": tournament,
                                  "scenario": scenario}).to_arrow_table()
        cursor.register("matches", mine)
    return cursor


@st.cache_data(show_spinner=False)
def combat_model(lake: LakeRef, name: str, game: str, fmt: str | None, date_from: date | None,
                 date_to: date | None, min_sample: int, tournament: str | None = None,
                 scenario: str | None = None) -> pd.DataFrame:
    """One model of the game's suite (data/<game>/game.toml: coverage, character_win_rates,
    build_matchups, damage_per_attack, time_to_fall, frenzy_rates, spends_per_fight,
    dice_fairness) as pipeline.metrics runs it, on the matches of a tournament and a scenario
    when given. Only a suite's model is run: `name` picks one, it never becomes SQL."""
    from pipeline import metrics

    if name not in metrics.suite(game):
        raise ValueError(f"{name!r} is not a model of {game}'s suite")
    cursor = _match_scoped_cursor(lake, game, tournament, scenario)
    try:
        return metrics.run_model(cursor, name, game=game, format=fmt, date_from=date_from,
                                 date_to=date_to, min_sample=min_sample)
    finally:
        cursor.close()


@st.cache_data(show_spinner=False)
def weapon_names(game: str) -> dict[str, str]:
    """Weapon id -> the catalog's name ("heavy_pistol" -> "Heavy pistol"): damage_per_attack
    counts attacks by the id the log wrote, and a designer reads names."""
    if game != "v20":
        return {}
    from engine.v20.catalog import load_catalog

    return {weapon_id: weapon.name for weapon_id, weapon in load_catalog().weapons.items()}


@st.cache_data(show_spinner=False)
def dice_cell_law(kind: str, pool: int, difficulty: int | None, specialty: bool, auto: int,
                  can_botch: bool) -> dict[int, float]:
    """The exact law the dice audit tests a cell against (pipeline.dice_audit.law_of: an
    initiative die's faces, else the net successes, -1 a botch), as probabilities per
    outcome: what the observed counts of a cell are drawn beside."""
    from pipeline.dice_audit import law_of

    law = law_of(kind, pool, difficulty, specialty, auto, can_botch)
    return {int(outcome): float(p) for outcome, p in sorted(law.items())}


# Matchups -------------------------------------------------------------------------------------

@st.cache_data(show_spinner=False)
def faction_names(game: str) -> dict[str, str]:
    """Faction id (decks.faction, as the logs store it) -> the game's own name for it
    ("runic_legion" -> "Runic Legion"): pipeline.factions, from the game's kit."""
    from pipeline.factions import faction_names as named

    return named(game)


def faction_name(names: dict[str, str], faction: object) -> str:
    """A faction's display name (pipeline.factions.faction_name)."""
    from pipeline.factions import faction_name as name

    return name(names, faction)


@st.cache_data(show_spinner=False)
def pair_matches(lake: LakeRef, game: str, faction: str, opponent: str, fmt: str | None,
                 date_from: date | None, date_to: date | None) -> pd.DataFrame:
    """The matches of a matchup cell, in the matchups model's scope (format, match days UTC):
    one seat's deck of `faction` against another seat's of `opponent` (two seats of the faction
    for a mirror), one row per match, oldest first, at most 500. The seat and result columns
    are the `faction` seat's (its first, with more than one), the opponent's beside them."""
    return query(lake, """
        WITH scoped AS (
            SELECT match_id, tournament, format, round, table_no, started_at, turns
            FROM matches
            WHERE game = $game
              AND ($format IS NULL OR format = $format)
              AND ($date_from IS NULL OR CAST(started_at AS DATE) >= $date_from)
              AND ($date_to IS NULL OR CAST(started_at AS DATE) <= $date_to)),
        met AS (
            SELECT a.match_id, a.seat, a.deck_name, b.seat AS opponent_seat,
                   b.deck_name AS opponent_deck
            FROM decks AS a
            INNER JOIN decks AS b ON b.match_id = a.match_id AND b.seat <> a.seat
            WHERE a.game = $game AND b.game = $game
              AND a.faction = $faction AND b.faction = $opponent
            QUALIFY row_number() OVER (PARTITION BY a.match_id ORDER BY a.seat, b.seat) = 1)
        SELECT m.match_id, m.tournament, m.format, m.round, m.table_no, m.started_at,
               sa.player, t.deck_name, sa.result, sb.player AS opponent_player,
               t.opponent_deck, m.turns
        FROM met AS t
        INNER JOIN scoped AS m ON m.match_id = t.match_id
        INNER JOIN seats AS sa ON sa.match_id = t.match_id AND sa.seat = t.seat
        INNER JOIN seats AS sb ON sb.match_id = t.match_id AND sb.seat = t.opponent_seat
        ORDER BY m.started_at, m.tournament, m.round, m.table_no, m.match_id
        LIMIT $limit""", {"game": game, "faction": faction, "opponent": opponent,
                          "format": fmt, "date_from": date_from, "date_to": date_to,
                          "limit": MATCH_LIMIT})


# V20 characters and builds ----------------------------------------------------------------------

FIGHTER_KINDS = ("character", "build")
"""What the V20 character page (dashboards/app_pages/fighter.py) is about: a catalog character
sheet (v20_characters.sheet) or a build, a side's party (seats.setup_name, the party's title)."""

_V20_SCOPED = """scoped AS (
    SELECT m.match_id, m.tournament, m.round, m.table_no, m.scenario, m.started_at, m.turns,
           m.result_reason
    FROM matches AS m
    WHERE m.game = $game
      AND ($format IS NULL OR m.format = $format)
      AND ($date_from IS NULL OR CAST(timezone('UTC', m.started_at) AS DATE) >= $date_from)
      AND ($date_to IS NULL OR CAST(timezone('UTC', m.started_at) AS DATE) <= $date_to)
      AND ($tournament IS NULL OR m.tournament = $tournament)
      AND ($scenario IS NULL OR m.scenario = $scenario))"""
"""The combat pages' scope (format, UTC match days, tournament, scenario) as stg_scope and
_match_scoped_cursor give it, as a CTE of the V20 character queries."""

_V20_MINE = """mine AS (
    SELECT c.match_id, CAST(c.seat AS INTEGER) AS seat, c.side, c.character, c.sheet,
           c.final_status, CAST(c.fell_turn AS INTEGER) AS fell_turn, c.gone,
           CASE WHEN $what = 'character' THEN c.character
                ELSE CAST(c.seat AS VARCHAR) END AS unit
    FROM v20_characters AS c
    INNER JOIN scoped AS m ON m.match_id = c.match_id
    WHERE c.game = $game
      AND CASE WHEN $what = 'character' THEN c.sheet = $value ELSE c.build = $value END)"""
"""The characters of the side-fights asked for: the sheet's character, or the build's party.
unit: what one side-fight is, the character (a sheet fights once per character) or the seat."""


def _fighter_params(game: str, what: str, value: str, fmt: str | None, date_from: date | None,
                    date_to: date | None, tournament: str | None,
                    scenario: str | None) -> dict[str, Any]:
    if what not in FIGHTER_KINDS:
        raise ValueError(f"{what!r} is neither of {FIGHTER_KINDS}")
    return {"game": game, "what": what, "value": value, "format": fmt, "date_from": date_from,
            "date_to": date_to, "tournament": tournament, "scenario": scenario}


@st.cache_data(show_spinner=False)
def v20_character_names() -> dict[str, str]:
    """Catalog sheet id -> the character's name ("marcus" -> "Marcus Vell"), as the catalog
    (data/v20/characters.toml) has it."""
    from engine.v20.catalog import load_catalog

    return {sheet: character.name for sheet, character in load_catalog().characters.items()}


@st.cache_data(show_spinner=False)
def v20_build_ids() -> dict[str, str]:
    """A build's title, as the lake stores it (seats.setup_name) -> its id in
    data/v20/builds.toml ("Two young brawlers" -> "brawlers"): the id a link names."""
    from engine.v20.game import builds

    return {party.name: build for build, party in builds().items()}


def v20_build_id(name: object) -> str:
    """The id of a build in links: builds.toml's, else (a scenario's own party) its name."""
    return v20_build_ids().get(str(name), str(name))


def v20_fighter_link(what: str, fighter: object, game: str = "v20") -> str:
    """The address of a character's or a build's page (dashboards/app_pages/fighter.py):
    `./fighter?game=v20&character=marcus`, `./fighter?game=v20&build=brawlers`."""
    from urllib.parse import urlencode

    if what not in FIGHTER_KINDS:
        raise ValueError(f"{what!r} is neither of {FIGHTER_KINDS}")
    return f"./fighter?{urlencode({'game': game, what: str(fighter)})}"


@st.cache_data(show_spinner=False)
def v20_fighters(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
                 date_to: date | None, tournament: str | None = None,
                 scenario: str | None = None) -> pd.DataFrame:
    """The characters (by sheet) and builds that fought in scope, most fights first: `what`,
    `id` (the address's: the sheet, the builds.toml id), `value` (the lake's: sheet, setup
    name), `name` (the catalog's, the build's title) and `fights` (side-fights: a mirror
    counts once per side)."""
    found = query(lake, f"""
        WITH {_V20_SCOPED}
        SELECT 'character' AS what, c.sheet AS value, min(c.name) AS lake_name,
               count(*) AS fights
        FROM v20_characters AS c INNER JOIN scoped AS m ON m.match_id = c.match_id
        WHERE c.game = $game AND c.sheet IS NOT NULL
        GROUP BY c.sheet
        UNION ALL
        SELECT 'build' AS what, c.build AS value, c.build AS lake_name,
               count(DISTINCT (c.match_id, c.seat)) AS fights
        FROM v20_characters AS c INNER JOIN scoped AS m ON m.match_id = c.match_id
        WHERE c.game = $game AND c.build IS NOT NULL
        GROUP BY c.build""",
                  {"game": game, "format": fmt, "date_from": date_from, "date_to": date_to,
                   "tournament": tournament, "scenario": scenario})
    names = v20_character_names()
    characters = found["what"] == "character"
    found["id"] = [value if is_character else v20_build_id(value)
                   for value, is_character in zip(found["value"], characters)]
    found["name"] = [names.get(value, lake_name) if is_character else value
                     for value, lake_name, is_character in
                     zip(found["value"], found["lake_name"], characters)]
    found["fights"] = found["fights"].astype(int)
    return (found.sort_values(["what", "fights", "name"], ascending=[False, False, True])
            [["what", "id", "value", "name", "fights"]].reset_index(drop=True))


@st.cache_data(show_spinner=False)
def v20_fighter_fights(lake: LakeRef, game: str, what: str, value: str, fmt: str | None,
                       date_from: date | None, date_to: date | None,
                       tournament: str | None = None,
                       scenario: str | None = None) -> pd.DataFrame:
    """Every side-fight in scope of a character sheet (one row per character-fight, as
    character_win_rates counts them) or of a build (one row per seat that played it), oldest
    first: the match and its seat and side (the Replay perspective), the player, the build and
    the opposing build, the sheets on either side, the result, whether it is a mirror (the
    sheet, or the build, on the other side too), the match's turns, the turn it fell (a build:
    when its last character fell, if all did), how it ended, whether it fled (a build: one of
    its characters) or conceded, its attacks and the attacks on it with their hits, and the
    health levels it dealt and took after soak (counter-blows included)."""
    return query(lake, f"""
        WITH {_V20_SCOPED}, {_V20_MINE},
        sides AS (
            SELECT match_id, seat, unit, min(side) AS side,
                   list(sheet ORDER BY character) AS sheets,
                   string_agg(replace(final_status, '_', ' '), ', ' ORDER BY character)
                       AS final_status,
                   CASE WHEN count(fell_turn) = count(*) THEN max(fell_turn) END AS fell_turn,
                   bool_or(gone) AS fled
            FROM mine GROUP BY match_id, seat, unit),
        parties AS (
            SELECT c.match_id, CAST(c.seat AS INTEGER) AS seat, min(c.build) AS build,
                   list(c.sheet ORDER BY c.character) AS sheets
            FROM v20_characters AS c INNER JOIN scoped AS m ON m.match_id = c.match_id
            WHERE c.game = $game
            GROUP BY c.match_id, c.seat),
        attacks AS (
            SELECT r.match_id, i.unit, count(*) AS attacks,
                   count(*) FILTER (WHERE r.attack_result = 'hit') AS hits
            FROM v20_rolls AS r
            INNER JOIN mine AS i ON i.match_id = r.match_id AND i.character = r.character
            WHERE r.game = $game AND r.purpose = 'attack'
            GROUP BY r.match_id, i.unit),
        received AS (
            SELECT r.match_id, i.unit, count(*) AS attacks,
                   count(*) FILTER (WHERE r.attack_result = 'hit') AS hits
            FROM v20_rolls AS r
            INNER JOIN mine AS i ON i.match_id = r.match_id AND i.character = r.opponent
            WHERE r.game = $game AND r.purpose = 'attack'
            GROUP BY r.match_id, i.unit),
        dealt AS (
            SELECT d.match_id, i.unit, sum(d.levels) AS levels
            FROM v20_damage AS d
            INNER JOIN mine AS i ON i.match_id = d.match_id AND i.character = d.attacker
            WHERE d.game = $game
            GROUP BY d.match_id, i.unit),
        taken AS (
            SELECT d.match_id, i.unit, sum(d.levels) AS levels
            FROM v20_damage AS d
            INNER JOIN mine AS i ON i.match_id = d.match_id AND i.character = d.target
            WHERE d.game = $game
            GROUP BY d.match_id, i.unit)
        SELECT m.match_id, m.tournament, m.round, m.table_no, m.scenario, m.started_at,
               sd.seat, sd.side, s.player, s.setup_name AS build,
               o.build AS opponent_build, sd.sheets, o.sheets AS opponent_sheets, s.result,
               EXISTS (SELECT 1 FROM mine AS x
                       WHERE x.match_id = sd.match_id AND x.seat <> sd.seat) AS mirror,
               CAST(m.turns AS INTEGER) AS turns, sd.fell_turn, sd.final_status, sd.fled,
               coalesce(m.result_reason = 'side ' || sd.side || ' concedes', FALSE)
                   AS conceded,
               CAST(coalesce(a.attacks, 0) AS BIGINT) AS attacks,
               CAST(coalesce(a.hits, 0) AS BIGINT) AS hits,
               CAST(coalesce(r.attacks, 0) AS BIGINT) AS attacks_received,
               CAST(coalesce(r.hits, 0) AS BIGINT) AS hits_received,
               CAST(coalesce(d.levels, 0) AS BIGINT) AS levels_dealt,
               CAST(coalesce(t.levels, 0) AS BIGINT) AS levels_taken
        FROM sides AS sd
        INNER JOIN scoped AS m ON m.match_id = sd.match_id
        INNER JOIN seats AS s ON s.match_id = sd.match_id AND s.seat = sd.seat
        LEFT JOIN parties AS o ON o.match_id = sd.match_id AND o.seat <> sd.seat
        LEFT JOIN attacks AS a ON a.match_id = sd.match_id AND a.unit = sd.unit
        LEFT JOIN received AS r ON r.match_id = sd.match_id AND r.unit = sd.unit
        LEFT JOIN dealt AS d ON d.match_id = sd.match_id AND d.unit = sd.unit
        LEFT JOIN taken AS t ON t.match_id = sd.match_id AND t.unit = sd.unit
        ORDER BY m.started_at, m.tournament, m.round, m.table_no, m.match_id, sd.seat,
                 sd.unit""",
                 _fighter_params(game, what, value, fmt, date_from, date_to, tournament,
                                 scenario))


@st.cache_data(show_spinner=False)
def v20_fighter_damage(lake: LakeRef, game: str, what: str, value: str, fmt: str | None,
                       date_from: date | None, date_to: date | None,
                       tournament: str | None = None,
                       scenario: str | None = None) -> pd.DataFrame:
    """The damage a character sheet or a build dealt and took in scope, by direction (dealt,
    taken) and kind (bashing, lethal, aggravated): the applications, the health levels after
    soak (attack_levels: those of attacks, counter-blows left out, V20-7.5), the damage rolls'
    successes and the soak's."""
    return query(lake, f"""
        WITH {_V20_SCOPED}, {_V20_MINE},
        applied AS (
            SELECT 'dealt' AS direction, d.damage_type, d.stage, d.levels, d.damage, d.soaked
            FROM v20_damage AS d
            INNER JOIN mine AS i ON i.match_id = d.match_id AND i.character = d.attacker
            WHERE d.game = $game
            UNION ALL
            SELECT 'taken' AS direction, d.damage_type, d.stage, d.levels, d.damage, d.soaked
            FROM v20_damage AS d
            INNER JOIN mine AS i ON i.match_id = d.match_id AND i.character = d.target
            WHERE d.game = $game)
        SELECT direction, damage_type, count(*) AS applications,
               CAST(sum(levels) AS BIGINT) AS levels,
               CAST(coalesce(sum(levels) FILTER (WHERE stage <> 'counter'), 0) AS BIGINT)
                   AS attack_levels,
               CAST(sum(damage) AS BIGINT) AS damage, CAST(sum(soaked) AS BIGINT) AS soaked
        FROM applied
        GROUP BY direction, damage_type
        ORDER BY direction, damage_type""",
                 _fighter_params(game, what, value, fmt, date_from, date_to, tournament,
                                 scenario))


@st.cache_data(show_spinner=False)
def v20_fighter_weapons(lake: LakeRef, game: str, what: str, value: str, fmt: str | None,
                        date_from: date | None, date_to: date | None,
                        tournament: str | None = None,
                        scenario: str | None = None) -> pd.DataFrame:
    """The attacks a character sheet or a build rolled in scope by weapon, as
    damage_per_attack counts them (an attack roll; a hit outlasted the defense, V20-7.1):
    attacks, hits and the health levels they dealt after soak, most used first."""
    return query(lake, f"""
        WITH {_V20_SCOPED}, {_V20_MINE},
        attacks AS (
            SELECT r.match_id, r.seq, r.weapon, r.attack_kind,
                   CASE WHEN r.attack_result = 'hit' THEN 1 ELSE 0 END AS hit
            FROM v20_rolls AS r
            INNER JOIN mine AS i ON i.match_id = r.match_id AND i.character = r.character
            WHERE r.game = $game AND r.purpose = 'attack'),
        dealt AS (
            SELECT d.match_id, d.attack_seq, sum(d.levels) AS levels
            FROM v20_damage AS d
            INNER JOIN mine AS i ON i.match_id = d.match_id AND i.character = d.attacker
            WHERE d.game = $game AND d.attack_seq IS NOT NULL AND d.stage <> 'counter'
            GROUP BY d.match_id, d.attack_seq)
        SELECT a.weapon, a.attack_kind, count(*) AS attacks, CAST(sum(a.hit) AS BIGINT) AS hits,
               CAST(coalesce(sum(d.levels), 0) AS BIGINT) AS levels
        FROM attacks AS a
        LEFT JOIN dealt AS d ON d.match_id = a.match_id AND d.attack_seq = a.seq
        GROUP BY a.weapon, a.attack_kind
        ORDER BY attacks DESC, a.weapon""",
                 _fighter_params(game, what, value, fmt, date_from, date_to, tournament,
                                 scenario))


def wilson(k: int, n: int) -> tuple[float | None, float | None, float | None]:
    """k / n and its 95% Wilson interval (statsmodels), or three Nones without a sample."""
    from statsmodels.stats.proportion import proportion_confint

    if n <= 0:
        return None, None, None
    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    return k / n, float(low), float(high)


def v20_fighter_matchups(fights: pd.DataFrame, by: str) -> pd.DataFrame:
    """The side-fights of v20_fighter_fights against each opposing build (`by="build"`: every
    fight once, so the rows' fights add up to them all) or each opposing character sheet
    (`by="character"`: a fight once per opposing character it met). Mirror fights are rows of
    their own with no win rate, as character_win_rates and build_matchups leave them out: one
    copy wins exactly when the other loses. Win rate: wins / fights, a draw not a win, with
    its 95% Wilson interval; most fights first."""
    columns = ["opponent", "mirror", "fights", "wins", "draws", "losses", "win_rate",
               "win_rate_low", "win_rate_high"]
    if fights.empty:
        return pd.DataFrame(columns=columns)
    if by == "build":
        met = fights.assign(opponent=fights["opponent_build"])
    elif by == "character":
        met = fights.assign(opponent=fights["opponent_sheets"].map(
            lambda sheets: sorted(set(sheets)) if sheets is not None else [])).explode("opponent")
    else:
        raise ValueError(f"{by!r} is neither 'build' nor 'character'")
    met = met[met["opponent"].notna()]
    rows = []
    for (opponent, mirror), group in met.groupby(["opponent", "mirror"], sort=False):
        results = group["result"]
        wins, draws = int((results == "win").sum()), int((results == "draw").sum())
        losses = int((results == "loss").sum())
        rate, low, high = (None, None, None) if mirror else wilson(wins, len(group))
        rows.append({"opponent": opponent, "mirror": bool(mirror), "fights": len(group),
                     "wins": None if mirror else wins, "draws": draws,
                     "losses": None if mirror else losses, "win_rate": rate,
                     "win_rate_low": low, "win_rate_high": high})
    frame = pd.DataFrame(rows, columns=columns).astype({"wins": "Int64", "losses": "Int64"})
    return frame.sort_values(["fights", "opponent"], ascending=[False, True],
                             kind="stable").reset_index(drop=True)


@st.cache_data(show_spinner=False)
def v20_has_concessions(lake: LakeRef, game: str) -> bool:
    """Whether any fight of the game in the lake ended in a concession (V20-14.2: "side A
    concedes"): the character page counts them only then."""
    found = query(lake, "SELECT count(*) AS n FROM matches WHERE game = $game "
                        "AND result_reason LIKE 'side % concedes'", {"game": game})
    return bool(int(found["n"].iloc[0]))
