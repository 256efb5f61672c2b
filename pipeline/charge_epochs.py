"""Closed charge epochs, kept across an ingest's batches and runs, so that checking a batch's decks
against the charge cap costs what the batch adds, not the lake's whole history.

Why: the table in force at a match (CH-2.2) follows from every earlier epoch's decks, and ingest
checks each batch against the lake plus the batch (pipeline.ingest.check_caps). Computed afresh,
every batch reads every deck card of the lake and runs the recursion over every epoch: seconds
per batch on a lake of 100,000 matches, for tables that the batch cannot change.

Closed, by construction. Tournaments are ordered by start time, ties by id (CH-2.1), and an
epoch's table depends only on the tournaments before it and their decks. A batch can change a
tournament only by adding matches to it, and so its place only by moving it earlier (its start
is its earliest match). So with K the earliest place of any tournament the batch touches (its
start in the batch, or its place among the cached ones if it is one of them), every tournament
before K keeps its place, its epoch and its decks: the full epochs entirely before K are closed
for that batch (`cut`). What the batch cannot change is computed once and kept (SeasonTables, a
prefix of the season with the exact table of its last epoch, so the recursion resumes from it);
the rest is read from a history restricted to the months where the open tournaments' matches
can be (`since_month`): a match's month partition is the month of its start in its own offset,
never more than a day from its UTC start. After each batch, the epochs before its first
tournament, now committed and unchanged by it, join the cache (`EpochCache.keep`).

Where it lives: in memory for one writer's run (pipeline.ingest keeps one per LakeWriter, which
holds the lake's lock, so nothing else commits meanwhile), and in
LAKE/_derived/charge_epochs/<game>.<format>.json for later runs. That file is written atomically
(temp file, fsync, rename), with a checksum of its content, and, when read, trusted only as far
as the lake confirms it: the checksum, its format, the digest of the code and SQL that computed
it, the format's settings and the catalog's card -> base card mapping must all hold today, and
the committed matches must hold, tournament by tournament in CH-2.1 order, the same start, last
match, number of matches and digest of (match id, content hash) pairs. The epochs after the
first mismatch are dropped. That check reads the matches table once per run (a fraction of
what computing the tables reads); a match's deck rows are trusted to be those of its content
(the lake writes a match's rows once, with its content hash, and compaction moves rows, never
changes them). Anything unreadable is ignored: the file only ever saves work. The run's own
cache checks, before each batch, that the lake holds exactly the matches it was told of (a
commit it did not see, from any path, sends it back to the file, validated).
"""
from __future__ import annotations

import bisect
import contextlib
import hashlib
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from engine.charges import ChargeFormats, FormatSettings, Standing, Table, initial_table
from events.base import Header
from pipeline.charges import (
    SQL_DIR,
    Entry,
    Key,
    SeasonOf,
    SeasonTables,
    cap_applies,
    game_cards,
    model_inputs,
    season_tables,
    tournament_key,
)
from pipeline.lake import Lake, view_sql
from pipeline.lake_durable import replace_durably
from pipeline.lake_layout import partition_of
from pipeline.manifest import Manifest

CACHE_FORMAT = 1
FOLDER = Path("_derived") / "charge_epochs"
"""Where the closed epochs of each game and format are kept, below the lake root."""
_SAFE_NAME = re.compile(r"[A-Za-z0-9_-]+\Z")
_CODE = (Path(__file__), Path(__file__).with_name("charges.py"),
         Path(__file__).resolve().parents[1] / "engine" / "charges.py")
FINGERPRINTS = """
SELECT
    m.tournament,
    MIN(m.started_at) AS started_at,
    MAX(m.started_at) AS last_match_at,
    COUNT(*) AS matches,
    CAST(SUM(md5_number_upper(m.match_id || ' ' || coalesce(m.content_hash, ''))) AS VARCHAR)
        || '.'
        || CAST(SUM(md5_number_lower(m.match_id || ' ' || coalesce(m.content_hash, ''))) AS VARCHAR)
        AS digest
FROM matches AS m
WHERE m.game = $game AND m.format = $format AND m.tournament IS NOT NULL
  AND ($every OR m.tournament IN (SELECT tournament FROM charges__wanted))
GROUP BY m.tournament
"""
"""What the lake must still say of each closed tournament for a stored prefix to be trusted. Its
digest is the sum of the MD5s of its (match id, content hash) pairs, a multiset hash: an
aggregate in constant memory, where a concatenation of every pair held the whole history's ids
at once (some 300 MB at a million matches, the largest part of ingest's peak)."""


# --- what a batch can and cannot change -------------------------------------------------------

Touched = dict[str, Key]
"""The tournaments an ingest batch adds matches to, each at its place by the batch's matches."""


def touched_tournaments(matches: pa.Table) -> dict[tuple[str, str], Touched]:
    """Per game and format, the tournaments of a batch's matches rows (game, format, tournament,
    started_at), each at the place of its earliest match in the batch (CH-2.1)."""
    frame = matches.select(["game", "format", "tournament", "started_at"]).to_pandas()
    frame = frame[frame["tournament"].notna()]
    found: dict[tuple[str, str], Touched] = {}
    for (game, fmt, tournament), group in frame.groupby(["game", "format", "tournament"],
                                                         dropna=False, sort=True):
        starts = group["started_at"].dropna()
        key = tournament_key(str(tournament), starts.min() if len(starts) else None)
        found.setdefault((str(game), str(fmt)), {})[str(tournament)] = key
    return found


def cut(closed: SeasonTables, touched: Touched) -> SeasonTables:
    """The full epochs of `closed` entirely before the earliest place the batch touches: a
    tournament of `closed` it adds to counts at its cached place, any other at its batch start."""
    place = {e.tournament: e.key for e in closed.tournaments}
    earliest = min((min(key, place.get(tournament, key)) for tournament, key in touched.items()),
                   default=None)
    if earliest is None:
        return closed
    before = bisect.bisect_left([e.key for e in closed.tournaments], earliest)
    return closed.prefix(before // closed.settings.window)


def since_month(closed: SeasonTables | None) -> str | None:
    """The first month partition that can hold a match of a tournament after `closed` (None:
    every month): those start at or after its last tournament's start, and a partition is the
    month of a match's start in its own offset (less than a day from UTC)."""
    if closed is None or not closed.tournaments:
        return None
    unknown, ns, _ = closed.tournaments[-1].key
    if unknown:
        return None
    return (pd.Timestamp(ns, tz="UTC") - timedelta(days=1)).strftime("%Y-%m")


def in_history(path: str, since: Mapping[str, str | None]) -> bool:
    """Whether a part file of a charge table is one the restricted history reads: a game of
    `since`, from its month on (a month that is no YYYY-MM, such as "unknown", always)."""
    _, game, month = partition_of(path)
    if game is None or game not in since:
        return False
    first = since[game]
    return first is None or month is None or not re.fullmatch(r"\d{4}-\d{2}", month) \
        or month >= first


# --- the cache ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fingerprint:
    """What a closed tournament is made of, as the committed matches say (FINGERPRINTS)."""

    last_match: int | None
    matches: int
    digest: str


@dataclass
class Closed:
    """One game's and format's closed epochs, and the fingerprint of each of their tournaments."""

    season: SeasonTables
    prints: dict[str, Fingerprint] = field(default_factory=dict)


class EpochCache:
    """The closed epochs of every game and format one writer's run has checked, loaded from the
    lake's derived file on first use (validated) and written back as they grow. `enabled`
    False: nothing is kept, every batch computes every table (the reference the cache is held
    to)."""

    def __init__(self, lake: Lake, *, enabled: bool = True, persist: bool = True) -> None:
        self.lake, self.enabled, self.persist = lake, enabled, persist
        self._closed: dict[tuple[str, str], Closed | None] = {}
        self._rows: dict[str, int] = {}
        """Per game, the committed matches rows the lake holds once the batch checked last is
        in: anything else means a commit the cache did not see."""

    def plan(self, headers: Iterable[Header], touched: Mapping[tuple[str, str], Touched],
             formats: ChargeFormats, manifest: Manifest) -> BatchPlan:
        """For the matches about to be checked: each season's closed prefix cut for the batch,
        and the months of each game the history must hold."""
        wanted = sorted({(h.game, h.format) for h in headers if cap_applies(h, formats)})
        for game in {*self._rows, *(game for game, _ in wanted)}:
            self._sync(game, manifest)
        prefixes: dict[tuple[str, str], SeasonTables | None] = {}
        for game, fmt in wanted:
            closed = self._load(game, fmt, formats.settings(game, fmt), manifest)
            prefixes[game, fmt] = None if closed is None else \
                cut(closed.season, touched.get((game, fmt), {}))
        return BatchPlan(self, formats, prefixes, dict(touched))

    def keep(self, season: SeasonTables, con: duckdb.DuckDBPyConnection) -> None:
        """Keep the epochs of `season` before the batch's first tournament (committed, and
        unchanged by the batch: closed), with the fingerprints of their tournaments, in place
        of what was kept (which the batch may have cut); write them to the lake if they
        changed."""
        if not self.enabled:
            return
        key = (season.game, season.format)
        old = self._closed.get(key)
        settled = season.prefix(season.settled)
        if old is not None and old.season.tournaments == settled.tournaments:
            return
        known = old.prints if old else {}
        prints = {e.tournament: known[e.tournament] for e in settled.tournaments
                  if e.tournament in known}
        missing = [e.tournament for e in settled.tournaments if e.tournament not in prints]
        prints.update({t: mark for t, (_, mark) in
                       fingerprints(con, season.game, season.format, missing).items()})
        self._closed[key] = Closed(settled, prints) if settled.tournaments else None
        if self.persist and settled.tournaments:
            self._write(Closed(settled, prints))

    def committing(self, matches: pa.Table, manifest: Manifest) -> None:
        """Record what the batch about to be committed adds (its matches rows, after every
        quarantine), so that the next plan can tell whether anything else was committed."""
        for game in self._games():
            added = 0 if matches.num_rows == 0 else \
                int(pc.sum(pc.equal(matches["game"], game)).as_py() or 0)
            self._rows[game] = committed_rows(manifest, game) + added

    def _sync(self, game: str, manifest: Manifest) -> None:
        """Forget a game's closed epochs if the lake holds matches of it the cache was not told
        of (a commit it did not see): they are read again from the file, and validated."""
        if game in self._rows and self._rows[game] != committed_rows(manifest, game):
            for key in [key for key in self._closed if key[0] == game]:
                del self._closed[key]
        self._rows.pop(game, None)

    def _games(self) -> set[str]:
        return {game for game, _ in self._closed}

    def _load(self, game: str, fmt: str, settings: FormatSettings, manifest: Manifest
              ) -> Closed | None:
        if not self.enabled:
            return None
        if (game, fmt) not in self._closed:
            self._closed[game, fmt] = self._read(game, fmt, settings, manifest) \
                if self.persist else None
        return self._closed[game, fmt]

    def _path(self, game: str, fmt: str) -> Path | None:
        if not (_SAFE_NAME.match(game) and _SAFE_NAME.match(fmt)):
            return None
        return self.lake.root / FOLDER / f"{game}.{fmt}.json"

    def _write(self, closed: Closed) -> None:
        path = self._path(closed.season.game, closed.season.format)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        for stale in path.parent.glob(f".{path.name}.*.tmp"):  # a crash's leftovers
            stale.unlink(missing_ok=True)
        payload = msgspec.json.encode(stored(closed))
        data = msgspec.json.encode(StoredFile(checksum=checksum(payload),
                                              epochs=msgspec.Raw(payload)))
        replace_durably(path.parent, path.name, data, f".{path.name}")

    def _read(self, game: str, fmt: str, settings: FormatSettings, manifest: Manifest
              ) -> Closed | None:
        """The lake's stored prefix, as far as the lake confirms it; None when nothing holds."""
        path = self._path(game, fmt)
        if path is None or not path.is_file():
            return None
        try:
            found = msgspec.json.decode(path.read_bytes(), type=StoredFile)
            if found.checksum != checksum(bytes(found.epochs)):
                return None
            kept = msgspec.json.decode(found.epochs, type=StoredEpochs)
            closed = restored(kept, game, fmt, settings)
        except (OSError, msgspec.DecodeError, ValueError, ZeroDivisionError):
            return None
        if closed is None:
            return None
        with contextlib.closing(matches_history(self.lake, manifest, game)) as con:
            return confirmed(closed, fingerprints(con, game, fmt, None))


@dataclass(frozen=True)
class BatchPlan:
    """What one check of a batch reads: per game and format, the closed prefix it resumes from
    (None: none, every epoch computed) and the tournaments the batch touches."""

    cache: EpochCache
    formats: ChargeFormats
    prefixes: Mapping[tuple[str, str], SeasonTables | None]
    touched: Mapping[tuple[str, str], Touched]

    @property
    def since(self) -> dict[str, str | None]:
        """Each checked game's first month partition the history must hold (in_history)."""
        months: dict[str, str | None] = {}
        for (game, _), prefix in self.prefixes.items():
            month = since_month(prefix)
            earlier = months.get(game, month)
            months[game] = None if month is None or earlier is None else min(month, earlier)
        return months

    def seasons(self, con: duckdb.DuckDBPyConnection) -> SeasonOf:
        """MatchCharges' seasons: each resumed from its prefix on `con`, and kept."""
        def season(game: str, fmt: str) -> SeasonTables:
            found = season_tables(con, game, fmt, formats=self.formats,
                                  closed=self.prefixes.get((game, fmt)),
                                  unsettled=self.touched.get((game, fmt), {}).keys())
            self.cache.keep(found, con)
            return found
        return season


# --- the lake's word on closed tournaments ----------------------------------------------------

def fingerprints(con: duckdb.DuckDBPyConnection, game: str, fmt: str,
                 tournaments: Collection[str] | None) -> dict[str, tuple[Key, Fingerprint]]:
    """Each tournament's place and fingerprint in `con`'s matches (None: every tournament of
    the format; else only these, which `con` must hold whole)."""
    wanted = pa.table({"tournament": pa.array(sorted(tournaments or ()), pa.string())})
    with model_inputs(con, wanted=wanted):
        frame = con.execute(FINGERPRINTS, {"game": game, "format": fmt,
                                           "every": tournaments is None}).df()
    found = {}
    for tournament, start, last, count, digest in frame.itertuples(index=False):
        last_key = tournament_key(tournament, last)
        mark = Fingerprint(None if last_key[0] else last_key[1], int(count), str(digest))
        found[tournament] = (tournament_key(tournament, start), mark)
    return found


def committed_rows(manifest: Manifest, game: str) -> int:
    """The matches rows of a game the manifest lists (compaction moves rows, never drops them)."""
    return sum(e["rows"] for e in manifest["tables"]["matches"]
               if partition_of(e["path"])[1] == game)


def matches_history(lake: Lake, manifest: Manifest, game: str) -> duckdb.DuckDBPyConnection:
    """The committed matches of one game, the only table a stored prefix is checked against."""
    con = duckdb.connect(":memory:")
    con.execute("SET TimeZone = 'UTC'")
    files = [lake.root / e["path"] for e in manifest["tables"]["matches"]
             if partition_of(e["path"])[1] == game]
    con.execute(f"CREATE VIEW matches AS {view_sql('matches', files)}")
    return con


def confirmed(closed: Closed, lake: Mapping[str, tuple[Key, Fingerprint]]) -> Closed | None:
    """`closed` cut back to the epochs whose tournaments are, in order, the lake's first ones,
    unchanged (None when not even the first epoch is)."""
    ordered = sorted(lake.items(), key=lambda item: item[1][0])
    same = 0
    for entry, (tournament, (key, mark)) in zip(closed.season.tournaments, ordered):
        if (entry.tournament, entry.key, closed.prints.get(entry.tournament)) != \
                (tournament, key, mark):
            break
        same += 1
    season = closed.season.prefix(same // closed.season.settings.window)
    if not season.tournaments:
        return None
    return Closed(season, {e.tournament: closed.prints[e.tournament]
                           for e in season.tournaments})


# --- the derived file --------------------------------------------------------------------------

class StoredTournament(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tournament: str
    start: int | None
    """ns since 1970 UTC; None: no start known."""
    start_date: str | None
    end_date: str | None
    last_match: int | None
    matches: int
    digest: str


class StoredEpochs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The derived file: a closed prefix and what it must be checked against when read."""

    format: int
    code: str
    """Digest of the code and SQL that computed it (code_digest)."""
    game: str
    charge_format: str
    settings: FormatSettings
    tournaments: list[StoredTournament]
    charges: list[dict[str, int]]
    exact: dict[str, tuple[str, int]]
    """The last epoch's exact table: card -> ("numerator/denominator" in hexadecimal, which
    no digit limit applies to, charge)."""
    bases: dict[str, str]


class StoredFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The file as written: the stored epochs and the checksum of their bytes (a file damaged
    or edited in part is ignored)."""

    checksum: str
    epochs: msgspec.Raw


def checksum(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@cache
def code_digest() -> str:
    """The code and SQL a stored prefix was computed by (as this process loaded them, once):
    any change to them drops it."""
    digest = hashlib.blake2b(str(CACHE_FORMAT).encode(), digest_size=16)
    for path in (*_CODE, *sorted(SQL_DIR.glob("*.sql"))):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def stored(closed: Closed) -> StoredEpochs:
    season = closed.season
    last = season.exact[season.last_epoch]
    return StoredEpochs(
        format=CACHE_FORMAT, code=code_digest(), game=season.game, charge_format=season.format,
        settings=season.settings,
        tournaments=[_stored_tournament(e, closed.prints[e.tournament])
                     for e in season.tournaments],
        charges=[dict(c) for c in season.charges],
        exact={card: (f"{s.smoothed.numerator:x}/{s.smoothed.denominator:x}", s.charge)
               for card, s in last.items()},
        bases=dict(season.bases))


def _stored_tournament(entry: Entry, mark: Fingerprint) -> StoredTournament:
    unknown, ns, _ = entry.key
    return StoredTournament(
        tournament=entry.tournament, start=None if unknown else ns,
        start_date=None if entry.start_date is None else entry.start_date.isoformat(),
        end_date=None if entry.end_date is None else entry.end_date.isoformat(),
        last_match=mark.last_match, matches=mark.matches, digest=mark.digest)


def restored(kept: StoredEpochs, game: str, fmt: str, settings: FormatSettings
             ) -> Closed | None:
    """The stored prefix if it was made by today's code, settings and catalog, else None."""
    window = settings.window
    if (kept.format, kept.code, kept.game, kept.charge_format, kept.settings) != \
            (CACHE_FORMAT, code_digest(), game, fmt, settings) or \
            len(kept.tournaments) % window or len(kept.charges) != len(kept.tournaments) // \
            window + 1:
        return None
    cards = game_cards(game)
    if any(cards.card_base(card) != base for card, base in kept.bases.items()):
        return None
    entries = tuple(_entry(t) for t in kept.tournaments)
    last = len(entries) // window
    exact: dict[int, Table] = {0: initial_table(settings), last: _exact(kept.exact)}
    season = SeasonTables(game, fmt, settings, entries, tuple(kept.charges), exact,
                          dict(kept.bases), last)
    prints = {t.tournament: Fingerprint(t.last_match, t.matches, t.digest)
              for t in kept.tournaments}
    return Closed(season, prints)


def _entry(kept: StoredTournament) -> Entry:
    key = tournament_key(kept.tournament, None if kept.start is None
                         else pd.Timestamp(kept.start, tz="UTC"))
    return Entry(kept.tournament, key, _day(kept.start_date), _day(kept.end_date))


def _day(text: str | None) -> Any:
    return None if text is None else pd.Timestamp(text).date()


def _exact(kept: Mapping[str, tuple[str, int]]) -> Table:
    table = {}
    for card, (share, charge) in kept.items():
        numerator, _, denominator = share.partition("/")
        table[card] = Standing(Fraction(int(numerator, 16), int(denominator, 16)), charge)
    return table


__all__ = ["CACHE_FORMAT", "FOLDER", "BatchPlan", "Closed", "EpochCache", "Fingerprint",
           "StoredEpochs", "StoredFile", "Touched", "checksum", "code_digest", "committed_rows", "confirmed", "cut",
           "fingerprints", "in_history", "matches_history", "restored", "since_month", "stored",
           "touched_tournaments"]
