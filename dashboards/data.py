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


def _scoped_cursor(lake: LakeRef, game: str,
                   faction: str | None) -> duckdb.DuckDBPyConnection:
    """A private cursor; with a faction, its `decks` are that faction's decks only.

    The card models count deck-games from `decks` (a seat with its deck), so shadowing that
    view on this cursor (the faction a bound parameter) gives every card rate among the
    faction's decks, with the models unchanged and every other session's cursor untouched."""
    cursor = _cursor(lake)
    if faction is not None:
        mine = cursor.execute("SELECT * FROM main.decks WHERE game = $game AND "
                              "faction = $faction", {"game": game, "faction": faction}).df()
        cursor.register("decks", mine)
    return cursor


@st.cache_data(show_spinner=False)
def card_stats(lake: LakeRef, game: str, fmt: str | None, date_from: date | None,
               date_to: date | None, faction: str | None, min_sample: int) -> pd.DataFrame:
    """Every card metric of pipeline/sql/cards/card_usage.sql with sample sizes and
    intervals."""
    from pipeline import metrics

    cursor = _scoped_cursor(lake, game, faction)
    try:
        return metrics.card_usage(cursor, game, fmt, date_from, date_to, min_sample)
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
    filters bound parameters) narrows every model alike, as _scoped_cursor does for a faction,
    with the SQL unchanged and every other session's cursor untouched."""
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
