"""Closed charge epochs cached across an ingest's batches and runs (pipeline.charge_epochs): the
cap verdicts (ER-3.3, ER-3.6, CH-2.2) must be those of computing every table afresh, whatever
arrives late, and the cache must actually be used.

The season: 8 Eredan tournaments of 8 players, 1 round (32 matches, epochs 0-3, CH-2.1), ingested
4 logs a batch, so that each batch finds earlier epochs closed. Hand-made logs arrive late: a
match of the first tournament with two new players (its epoch, long closed, gets two more decks,
CH-2.3, and every later table moves), a tournament dated before every other (every tournament
moves one place, CH-2.1), and decks over the cap of the table in force (quarantined, the
fixpoint of pipeline.ingest.quarantine_over_cap).
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import msgspec
import pytest

from engine.eredan.cards import load_catalog
from engine.eredan.charges import ChargeTable, deck_charge
from engine.eredan.deckcheck import resolve
from engine.tournament import SeasonConfig, Tournament, run_season
from events.base import DeckList, Header
from events.log import read_log
from pipeline import charge_epochs as ce
from pipeline import charges as ch
from pipeline import ingest as ingest_module
from pipeline.ingest import IngestReport, find_logs, ingest
from pipeline.lake import Lake
from tests.pipeline.test_charge_cap import play

BATCH = 4


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Tournament]]:
    out = tmp_path_factory.mktemp("epochs-season") / "season"
    tours = run_season(SeasonConfig(game="eredan", players=8, rounds=1, seed=9, out=out,
                                    tournaments=8))
    return out, tours


def season_logs(season: tuple[Path, list[Tournament]], first: int, last: int) -> list[Path]:
    """The logs of tournaments first..last (1-based, in date order)."""
    return [path for tour in season[1][first - 1:last]
            for path in find_logs([season[0] / tour.id])]


def charge(deck: DeckList, charges: dict[str, int]) -> int:
    catalog = load_catalog()
    counted = [(catalog.by_id[e.card], e.count)
               for es in resolve(deck, catalog).sections.values() for e in es]
    return deck_charge(counted, ChargeTable(version="t", charges=charges), catalog)[0]


@pytest.fixture(scope="module")
def late(tmp_path_factory: pytest.TempPathFactory,
         season: tuple[Path, list[Tournament]]) -> dict[str, Path]:
    """The hand-made logs, by what they do."""
    tours = season[1]
    out = tmp_path_factory.mktemp("epochs-late")
    like = read_log(season_logs(season, 1, 1)[0]).header
    decks = [e.deck for t in tours for e in t.entrants.values()]
    lake = Lake(out / "reference")
    ingest([season[0]], lake, audit=False)
    upcoming = ch.compute_charges(lake.connect(), "eredan", "standard").table()
    charges = dict(zip(upcoming["card"], upcoming["charge"].astype(int)))
    dearest = max(decks, key=lambda deck: charge(deck, charges))
    assert charge(dearest, charges) > 500, "the season has no deck over the cap: change its seed"
    return {
        "closed": play(out / "closed", like, "er-2026-001-r2-t1", tours[0].id, 0,
                       [("Late Lou", decks[3]), ("Late Lia", decks[12])]),
        "over": play(out / "over", like, "er-2026-009-r1-t1", "er-2026-009", 40,
                     [("Dear Dora", dearest), ("Cheap Cas", decks[0])]),
        "over-again": play(out / "over-again", like, "er-2026-009-r1-t2", "er-2026-009", 40,
                           [("Dear Dan", dearest), ("Dear Dot", dearest)]),
        "first": play(out / "first", like, "er-2025-900-r1-t1", "er-2025-900", -60,
                      [("Early Eve", decks[5]), ("Early Eli", decks[9])]),
        "later": play(out / "later", like, "er-2026-010-r1-t1", "er-2026-010", 44,
                      [("Dear Dax", dearest), ("Cheap Cy", decks[1])]),
    }


def ingest_as(paths: list[Path], lake: Lake, cached: bool,
              monkeypatch: pytest.MonkeyPatch) -> IngestReport:
    with monkeypatch.context() as patch:
        patch.setattr(ingest_module, "CACHE_EPOCHS", cached)
        return ingest(paths, lake, batch_size=BATCH, audit=False)


def verdicts(report: IngestReport) -> tuple[int, list[tuple[str | None, str, str]]]:
    return report.ingested, [(q.match_id, q.rule, q.reason) for q in report.quarantined]


def lake_rows(lake: Lake) -> dict[str, list[tuple]]:
    con = lake.connect()
    return {
        "matches": con.execute("SELECT match_id, content_hash FROM matches ORDER BY ALL"
                               ).fetchall(),
        "deck_cards": con.execute("SELECT match_id, seat, card, copies FROM deck_cards "
                                  "ORDER BY ALL").fetchall(),
        "quarantine": con.execute("SELECT match_id, rule, seq, reason FROM quarantine "
                                  "ORDER BY ALL").fetchall(),
    }


@pytest.fixture
def resumed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The number of closed tournaments each season computation resumed from."""
    calls: list[int] = []
    real = ce.season_tables

    def spy(*args: object, closed: ch.SeasonTables | None = None, **kwargs: object
            ) -> ch.SeasonTables:
        calls.append(0 if closed is None else len(closed.tournaments))
        return real(*args, closed=closed, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(ce, "season_tables", spy)
    yield calls


# --- cached and uncached verdicts are the same ----------------------------------------------

def test_a_multi_batch_ingest_with_late_logs_gives_the_uncached_verdicts(
        season, late, tmp_path, monkeypatch, resumed):
    """Tournaments 1-6, then a late match of tournament 1 (epoch 0, closed by then), then 7-8
    and two tournaments of decks over the cap: the same matches in, the same quarantined with
    the same reasons, the same lake, batch after batch."""
    paths = [*season_logs(season, 1, 6), late["closed"], *season_logs(season, 7, 8),
             late["over"], late["over-again"], late["later"]]
    cached = ingest_as(paths, Lake(tmp_path / "cached"), True, monkeypatch)
    calls = list(resumed)
    plain = ingest_as(paths, Lake(tmp_path / "plain"), False, monkeypatch)
    assert verdicts(cached) == verdicts(plain)
    assert lake_rows(Lake(tmp_path / "cached")) == lake_rows(Lake(tmp_path / "plain"))
    assert cached.ingested == len(paths) - len(cached.quarantined)
    assert {q.rule for q in cached.quarantined} == {"ER-3.3"}
    assert {q.match_id for q in cached.quarantined} >= {"er-2026-009-r1-t2"}
    late_batch = paths.index(late["closed"]) // BATCH
    assert max(calls[:late_batch]) > 0, "the batches before the late log found no closed epoch"
    assert calls[late_batch] == 0, "the late log of epoch 0 must cut every closed epoch"
    assert calls[-1] > 0
    assert set(resumed[len(calls):]) == {0}, "without the cache nothing is resumed"


def test_a_tournament_that_sorts_first_reopens_every_epoch(season, late, tmp_path,
                                                            monkeypatch, resumed):
    """CH-2.1: a tournament dated before every other moves each one a place (epochs change
    members): arriving last, it finds every epoch closed, and cuts them all."""
    paths = [*season_logs(season, 1, 8), late["first"], late["over"]]
    cached = ingest_as(paths, Lake(tmp_path / "cached"), True, monkeypatch)
    calls = list(resumed)
    plain = ingest_as(paths, Lake(tmp_path / "plain"), False, monkeypatch)
    assert verdicts(cached) == verdicts(plain)
    assert lake_rows(Lake(tmp_path / "cached")) == lake_rows(Lake(tmp_path / "plain"))
    assert calls[paths.index(late["first"]) // BATCH] == 0


def test_later_runs_resume_from_the_lake_s_file_with_the_same_verdicts(
        season, late, tmp_path, monkeypatch, resumed):
    """Across runs the closed epochs come from LAKE/_derived/charge_epochs, validated: a run
    that only adds later tournaments resumes from it at its first batch; one whose log sorts
    inside it (the late match of tournament 1) cuts it; both agree with a lake that never had
    a cache."""
    cached, plain = Lake(tmp_path / "cached"), Lake(tmp_path / "plain")
    first = season_logs(season, 1, 8)
    for lake, on in ((cached, True), (plain, False)):
        ingest_as(first, lake, on, monkeypatch)
    stored = cached.root / ce.FOLDER / "eredan.standard.json"
    assert stored.is_file() and not (plain.root / ce.FOLDER).exists()
    resumed.clear()
    runs = ([late["over"]], [late["closed"], late["later"]])
    for paths in runs:
        before = len(resumed)
        got = ingest_as(paths, cached, True, monkeypatch)
        want = ingest_as(paths, plain, False, monkeypatch)
        assert verdicts(got) == verdicts(want)
        assert lake_rows(cached) == lake_rows(plain)
        if paths == runs[0]:
            assert resumed[before] > 0, "the second run did not resume from the file"
        else:
            assert resumed[before] == 0


def test_a_file_the_lake_does_not_confirm_is_not_trusted(season, late, tmp_path,
                                                          monkeypatch, resumed):
    """A lake that grew without the cache (another version of postgame, say) by a tournament
    that sorts first, then a file edited by hand: each time the file is dropped and the verdicts
    stay the uncached ones."""
    cached, plain = Lake(tmp_path / "cached"), Lake(tmp_path / "plain")
    first = season_logs(season, 1, 8)
    for lake, on in ((cached, True), (plain, False)):
        ingest_as(first, lake, on, monkeypatch)
    stored = cached.root / ce.FOLDER / "eredan.standard.json"
    good = stored.read_bytes()
    for lake in (cached, plain):  # a run that does not keep the cache
        ingest_as([late["first"]], lake, False, monkeypatch)
    resumed.clear()
    assert verdicts(ingest_as([late["over"]], cached, True, monkeypatch)) == \
        verdicts(ingest_as([late["over"]], plain, False, monkeypatch))
    assert resumed[0] == 0
    edited = json.loads(good)
    edited["epochs"]["charges"][1] = {card: 0 for card in edited["epochs"]["charges"][1]}
    stored.write_text(json.dumps(edited))
    resumed.clear()
    assert verdicts(ingest_as([late["later"]], cached, True, monkeypatch)) == \
        verdicts(ingest_as([late["later"]], plain, False, monkeypatch))
    assert resumed[0] == 0


# --- the parts -----------------------------------------------------------------------------

def entries(*days: int) -> tuple[ch.Entry, ...]:
    start = datetime(2026, 3, 1, 10, tzinfo=UTC)
    return tuple(ch.Entry(f"t{i}", ch.tournament_key(f"t{i}", start + timedelta(days=d)),
                          (start + timedelta(days=d)).date(), (start + timedelta(days=d)).date())
                 for i, d in enumerate(days))


def prefix_of(tournaments: tuple[ch.Entry, ...]) -> ch.SeasonTables:
    """A closed prefix of these tournaments (window 2) with an exact table at every epoch."""
    settings = ch.load_formats().settings("eredan", "standard")
    epochs = len(tournaments) // settings.window
    table = ch.initial_table(settings)
    return ch.SeasonTables("eredan", "standard", settings, tournaments,
                           tuple({} for _ in range(epochs + 1)),
                           {e: table for e in range(epochs + 1)}, {}, epochs)


def test_cut_keeps_the_full_epochs_before_the_earliest_touched_place_CH_2_1():
    closed = prefix_of(entries(0, 3, 7, 10, 14, 17))  # epochs 0-2
    key = closed.tournaments[3].key
    assert len(ce.cut(closed, {}).tournaments) == 6
    assert len(ce.cut(closed, {"new": (False, key[1] + 1, "new")}).tournaments) == 4
    assert len(ce.cut(closed, {"t3": (False, key[1] + 10**15, "t3")}).tournaments) == 2
    assert len(ce.cut(closed, {"t0": closed.tournaments[0].key}).tournaments) == 0
    same_start = (False, key[1], "t2z")  # same start as t3, an id sorting before it
    assert len(ce.cut(closed, {"t2z": same_start}).tournaments) == 2


def test_a_prefix_is_cut_back_to_its_latest_exact_table():
    closed = prefix_of(entries(0, 3, 7, 10, 14, 17))
    closed = ch.SeasonTables(closed.game, closed.format, closed.settings, closed.tournaments,
                             closed.charges, {0: closed.exact[0], 3: closed.exact[3]}, {}, 3)
    assert closed.prefix(2).last_epoch == 0 and closed.prefix(3).last_epoch == 3


def test_the_history_holds_every_month_an_open_match_can_be_in():
    """A match's month partition is its start's month in its own offset, less than a day from
    UTC: the month of the day before the last closed start is the first one read."""
    closed = prefix_of(entries(0, 1))  # the last closed tournament starts on March 2
    assert ce.since_month(closed) == "2026-03"
    early = prefix_of(tuple(replace_day(e, date(2026, 3, 1)) for e in entries(0, 0)))
    assert ce.since_month(early) == "2026-02"
    assert ce.since_month(None) is None
    since = {"eredan": "2026-03", "vitorian": None}
    assert ce.in_history("deck_cards/game=eredan/month=2026-03/part-x-0.parquet", since)
    assert ce.in_history("deck_cards/game=eredan/month=unknown/part-x-0.parquet", since)
    assert not ce.in_history("deck_cards/game=eredan/month=2026-02/part-x-0.parquet", since)
    assert ce.in_history("deck_cards/game=vitorian/month=2020-01/part-x-0.parquet", since)
    assert not ce.in_history("deck_cards/game=v20/month=2026-03/part-x-0.parquet", since)


def replace_day(entry: ch.Entry, day: date) -> ch.Entry:
    at = datetime(day.year, day.month, day.day, 10, tzinfo=UTC)
    return ch.Entry(entry.tournament, ch.tournament_key(entry.tournament, at), day, day)


def test_tournament_keys_sort_as_the_model_does():
    """CH-2.1: by start, ties by id, no start last."""
    at = datetime(2026, 1, 5, 10, tzinfo=UTC)
    keys = [ch.tournament_key("b", at), ch.tournament_key("a", at + timedelta(seconds=1)),
            ch.tournament_key("a", at), ch.tournament_key("c", None)]
    assert sorted(keys) == [keys[2], keys[0], keys[1], keys[3]]
    naive = ch.tournament_key("b", at.replace(tzinfo=None))
    assert naive == keys[0]


def test_season_tables_match_compute_charges_and_resume_from_any_prefix(fixture_lake):
    con = fixture_lake.connect()
    season = ch.compute_charges(con, "vitorian", "standard")
    tables = ch.season_tables(con, "vitorian", "standard")
    for epoch in range(season.last_epoch + 1):
        table = season.table(epoch)
        assert tables.charges[epoch] == dict(zip(table["card"], table["charge"]))
    assert tables.last_epoch == season.last_epoch
    for tournament in season.tournaments["tournament"]:
        assert tables.tournament_epoch(tournament) == season.epoch_in_force(tournament)
    for offset in range(-3, 70):
        day = date(2026, 1, 1) + timedelta(days=offset)
        assert tables.epoch_in_force(day) == season.epoch_in_force(day)
    for epochs in range(tables.full_epochs + 1):
        resumed = ch.season_tables(con, "vitorian", "standard", closed=tables.prefix(epochs))
        assert resumed.charges == tables.charges


def test_a_stale_prefix_is_refused_not_resumed(fixture_lake):
    """A tournament of the history that sorts among the closed ones: StaleEpochs."""
    con = fixture_lake.connect()
    tables = ch.season_tables(con, "vitorian", "standard")
    skipped = ch.SeasonTables(tables.game, tables.format, tables.settings,
                              tables.tournaments[1:3], tables.charges[:2],
                              {0: tables.exact[0], 1: ch.initial_table(tables.settings)}, {}, 1)
    with pytest.raises(ch.StaleEpochs, match="sorts among the closed epochs"):
        ch.season_tables(con, "vitorian", "standard", closed=skipped)


def test_the_stored_file_round_trips_and_names_what_it_checks(fixture_lake, tmp_path):
    con = fixture_lake.connect()
    tables = ch.season_tables(con, "vitorian", "standard")
    closed = tables.prefix(tables.full_epochs)
    marks = {t: mark for t, (_, mark) in ce.fingerprints(con, "vitorian", "standard",
                                                         None).items()}
    kept = ce.stored(ce.Closed(closed, marks))
    again = ce.restored(msgspec.json.decode(msgspec.json.encode(kept), type=ce.StoredEpochs),
                        "vitorian", "standard", closed.settings)
    assert again is not None
    assert again.season.tournaments == closed.tournaments
    assert again.season.charges == closed.charges
    last = closed.last_epoch
    assert again.season.exact[last] == closed.exact[last]
    other = msgspec.structs.replace(closed.settings, prior_decks=9)
    assert ce.restored(kept, "vitorian", "standard", other) is None
    assert ce.restored(msgspec.structs.replace(kept, code="0" * 32), "vitorian", "standard",
                       closed.settings) is None


def test_a_plan_for_matches_without_a_cap_reads_nothing(fixture_lake):
    """Matches of a format without charges (ER-3.2): no season to compute, no month to read."""
    cache = ce.EpochCache(fixture_lake)
    header = Header(game="vitorian", ruleset="vitorian@1", match_id="x", format="draft",
                    seats=[])
    plan = cache.plan([header], {}, ch.load_formats(), fixture_lake.manifest())
    assert plan.prefixes == {} and plan.since == {}
