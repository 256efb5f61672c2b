"""Ingest as an organiser relies on it: the lake says what the logs say (checked against an
independent reading of the same logs), ingesting again changes nothing, a crash at any point
leaves the lake as it was or fully updated, bad logs are quarantined with their reason while the
rest of the batch goes in, and the command reports all of it."""
from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

from engine.replay import Replay
from engine.ruleset import get_ruleset
from engine.vitorian.deckcheck import resolve
from events.base import DeckEntry, DeckList
from events.jsonl import to_jsonl
from events.log import encode_log, read_log, write_log
from events.vitorian import (
    EndPhase,
    FirstPlayer,
    LinkEquipment,
    Mobilize,
    Mulligan,
    PlayFieldCondition,
    PlayOrder,
)
from pipeline.audits import all_audits
from pipeline.ingest import IngestError, examine, ingest, young_collected_after
from pipeline.known import Seen
from pipeline.lake import Lake
from pipeline.lake_durable import CRASH_ENV
from pipeline.lake_layout import MANIFEST, STAGING
from pipeline.rollups import written_by
from pipeline.schema import game_tables
from postgame.cli import main
from tests.pipeline.conftest import table_counts

WRITTEN = game_tables("vitorian")
ROLLED_UP = written_by("vitorian")
"""The tables a lake of Vitorian logs writes part files to (every registered game declares
its own, which such a lake leaves empty)."""

ROOT = Path(__file__).resolve().parents[2]
PLAYED = (Mobilize, LinkEquipment, PlayFieldCondition, PlayOrder)


# ------------------------------------------------------------ the facts say what the log says

def independent_reading(path: Path) -> dict:
    """Counts per (seat, kind) from the log's events and the engine's changes, not the lake."""
    log = read_log(path)
    rules = get_ruleset(log.header.ruleset)
    replay = Replay(rules, log.header, log.events)
    cards = replay.seek(len(replay)).cards  # every instance dealt by the end (vitorian@2 deals
    replay.seek(0)                          # them by chance events, after setup)
    counts: Counter = Counter()
    played: Counter = Counter()
    mulligans = Counter(e.seat for e in log.events if isinstance(e, Mulligan))
    draws: Counter = Counter()
    for step in range(1, len(replay) + 1):
        replay.seek(step)
        for change in replay.changes:
            if change.kind == "draw":
                draws[change.seat] += 1
            elif change.kind == "destroyed":
                counts[(change.seat, "destroyed")] += 1
            elif change.kind in ("sovereign_hit", "sovereign_fell"):
                counts[(1 - change.seat, "hit")] += 1
    for event in log.events:
        if isinstance(event, PLAYED):
            counts[(event.seat, "played")] += 1
            aim = event.unit if isinstance(event, LinkEquipment) else getattr(event, "target", None)
            target = cards[aim].id if aim is not None else None
            played[(event.seat, cards[event.card].id, target)] += 1
    for seat in (0, 1):  # 6 dealt, 6 more per mulligan; one card bottomed per mulligan
        counts[(seat, "drawn")] = draws[seat] - 6 * (1 + mulligans[seat])
        counts[(seat, "opening_hand")] = 6 - mulligans[seat]
    first = next(e.seat for e in log.events if isinstance(e, FirstPlayer))
    return {"header": log.header, "outcome": replay.outcome, "events": len(log.events),
            "ruleset": rules,
            "turns": max(replay.turns), "first": first,
            "counts": {k: v for k, v in counts.items() if v}, "played": played}


def test_card_events_match_an_independent_reading_of_every_log(fixture_lake, fixture_logs):
    con = fixture_lake.connect()
    for path in fixture_logs:
        truth = independent_reading(path)
        mid = truth["header"].match_id
        lake_counts = {(seat, kind): n for seat, kind, n in con.execute(
            "SELECT seat, kind, count(*) FROM card_events WHERE match_id = ? GROUP BY ALL",
            [mid]).fetchall()}
        assert lake_counts == truth["counts"], mid
        lake_played = Counter(con.execute(
            "SELECT seat, card, target FROM card_events WHERE match_id = ? AND kind = 'played'",
            [mid]).fetchall())
        assert lake_played == truth["played"], mid


def test_matches_and_seats_match_the_log_and_its_outcome(fixture_lake, fixture_logs):
    con = fixture_lake.connect()
    for path in fixture_logs:
        truth = independent_reading(path)
        header, outcome = truth["header"], truth["outcome"]
        row = con.execute(
            "SELECT seats, is_draw, winning_side, result_reason, result_rule, turns, events, "
            "first_seat, tournament, round, table_no, seed, scenario, log_path, ruleset, "
            "ruleset_version FROM matches WHERE match_id = ?", [header.match_id]).fetchone()
        assert row == (2, outcome.winner is None, None, outcome.reason, outcome.rule,
                       truth["turns"], truth["events"], truth["first"], header.tournament,
                       header.round, header.table, header.seed, None, str(path), "vitorian",
                       truth["ruleset"].version)
        seats = con.execute(
            "SELECT s.seat, s.player, s.side, s.role, s.result, s.is_first, s.setup_id, "
            "s.setup_name, d.deck_id, d.deck_name FROM seats s JOIN decks d USING "
            "(match_id, seat) WHERE match_id = ? ORDER BY seat", [header.match_id]).fetchall()
        assert [row[:6] for row in seats] == [
            (s.seat, s.player, None, None, outcome.results[s.seat], s.seat == truth["first"])
            for s in header.seats]
        assert all(setup == deck and name == header.seats[seat].setup.name == deck_name
                   for seat, *_, setup, name, deck, deck_name in seats)


def test_deck_cards_are_the_resolved_lists_and_deck_ids_name_them(fixture_lake, fixture_logs):
    con = fixture_lake.connect()
    lists: dict[str, set] = {}
    for path in fixture_logs:
        header = read_log(path).header
        for seat in header.seats:
            resolved = resolve(seat.setup)
            expected = sorted((section, e.card, e.count) for section, entries in
                              resolved.sections.items() for e in entries)
            rows = con.execute("SELECT section, card, copies, deck_id FROM deck_cards "
                               "WHERE match_id = ? AND seat = ? ORDER BY ALL",
                               [header.match_id, seat.seat]).fetchall()
            assert [r[:3] for r in rows] == expected
            assert len({r[3] for r in rows}) == 1
            lists.setdefault(rows[0][3], set()).add(tuple(expected))
    assert all(len(contents) == 1 for contents in lists.values()), "one deck id, one list"
    assert len(lists) == len({c for contents in lists.values() for c in contents})


def test_deck_id_ignores_the_name_and_the_order_of_lines():
    from pipeline.facts.vitorian import deck_facts

    deck = read_deck_of_a_starter()
    renamed = DeckList(name="another name", sections={
        k: list(reversed(v)) for k, v in reversed(list(deck.sections.items()))})
    one, two = (deck_facts(msgspec.msgpack.encode(d))[0] for d in (deck, renamed))
    assert one == two
    changed = DeckList(name=deck.name, sections={**deck.sections, "convoy": [
        DeckEntry(card=e.card, count=e.count) for e in deck.sections["convoy"]][:-1]})
    assert deck_facts(msgspec.msgpack.encode(changed))[0] != one


def read_deck_of_a_starter() -> DeckList:
    from engine.decklist import load_decklist

    return load_decklist(min((ROOT / "data" / "vitorian" / "decks").glob("*")))


def test_one_worker_and_two_workers_make_the_same_lake(fixture_lake, fixture_logs, small_lake):
    ingest(fixture_logs, small_lake, workers=1, batch_size=1000)
    for table, order in (("matches", "match_id"), ("seats", "match_id, seat"),
                         ("decks", "match_id, seat"), ("deck_cards", "ALL"),
                         ("card_events", "match_id, seq, kind, card")):
        drop = " EXCLUDE (batch, ingested_at)" if table == "matches" else ""
        query = f"SELECT *{drop} FROM {table} ORDER BY {order}"
        assert small_lake.connect().execute(query).fetchall() == \
            fixture_lake.connect().execute(query).fetchall(), table



def test_an_outcome_crosses_processes_with_its_header_whole(fixture_logs):
    """A worker's outcome reaches the parent with the header the charge cap is checked on
    (ER-3.6, CH-2.8), each seat's deck list decoded as its game's own type."""
    outcome, _, _ = examine(fixture_logs[0], "batch", datetime.now(UTC))
    assert outcome.header is not None
    back = pickle.loads(pickle.dumps(outcome))
    assert back == outcome and back.header == outcome.header
    assert all(isinstance(seat.setup, DeckList) for seat in back.header.seats)
    assert pickle.loads(pickle.dumps(replace(outcome, header=None))).header is None
    again = pickle.loads(pickle.dumps(outcome))  # the same lists, every round: decoded once
    assert [s.setup for s in again.header.seats] == [s.setup for s in back.header.seats]
    assert all(a.setup is b.setup for a, b in zip(again.header.seats, back.header.seats))



def test_a_chunk_replays_with_the_collector_off_and_leaves_no_cycle_behind():
    """The cyclic collector does not run while a chunk's logs replay; a cycle made meanwhile
    is collected once the chunk is done, and the collector is on again."""
    import gc
    import weakref

    class Node:
        pass

    with young_collected_after():
        assert not gc.isenabled()
        node = Node()
        node.me = node
        gone = weakref.ref(node)
        del node
        assert gone() is not None  # no collection while replaying
    assert gc.isenabled() and gone() is None


def test_workers_start_before_the_lake_is_read(copy_logs, small_lake, monkeypatch):
    """A forked worker inherits what its parent holds: the pool starts before the parent reads
    what the lake holds (pipeline.known.Seen), so a worker's memory does not grow with it."""
    children: list[int] = []
    read = Seen.of

    def reading(connect):
        children.append(len(multiprocessing.active_children()))
        return read(connect)

    monkeypatch.setattr(Seen, "of", reading)
    report = ingest(copy_logs(4), small_lake, workers=2)
    assert children == [2] and report.ingested == 4


# ------------------------------------------------------------ idempotent

def test_ingesting_again_changes_nothing(copy_logs, small_lake):
    logs = copy_logs(12)
    first = ingest(logs, small_lake)
    manifest = (small_lake.root / MANIFEST).read_bytes()
    counts = table_counts(small_lake)
    again = ingest(logs, small_lake, workers=2)
    assert (first.ingested, again.ingested, again.skipped) == (12, 0, 12)
    assert (small_lake.root / MANIFEST).read_bytes() == manifest
    assert table_counts(small_lake) == counts


def test_new_logs_go_in_beside_those_already_there(copy_logs, small_lake):
    logs = copy_logs(12)
    ingest(logs[:5], small_lake)
    report = ingest(logs, small_lake)
    assert (report.ingested, report.skipped) == (7, 5)
    assert table_counts(small_lake)["matches"] == 12


def test_a_jsonl_twin_is_the_same_content(copy_logs, small_lake, tmp_path):
    log = copy_logs(1)[0]
    twin = tmp_path / "twin.jsonl"
    to_jsonl(log, twin)
    report = ingest([log, twin], small_lake)
    assert (report.ingested, report.skipped, report.quarantined) == (1, 1, [])
    assert ingest([twin], small_lake).skipped == 1


def test_a_match_id_with_other_content_is_quarantined_not_overwritten(copy_logs, small_lake,
                                                                      tmp_path):
    log = copy_logs(1)[0]
    ingest([log], small_lake)
    original = read_log(log)
    other = tmp_path / "other.pglog"
    write_log(other, msgspec.structs.replace(original.header, seed=1), original.events)
    report = ingest([other], small_lake)
    assert report.ingested == 0
    [q] = report.quarantined
    assert (q.rule, q.match_id) == ("DUPLICATE", original.header.match_id)
    assert "match id already ingested with other content" in q.reason
    con = small_lake.connect()
    assert con.execute("SELECT seed FROM matches").fetchall() == [(original.header.seed,)]
    assert ingest([other], small_lake).skipped == 1, "the quarantined content is known too"


# ------------------------------------------------------------ quarantine

def bad_logs(good: Path, folder: Path) -> dict[str, Path]:
    """One log per way of going wrong, each a new match id (so none is a mere duplicate)."""
    log = read_log(good)
    header, events = log.header, log.events

    def write(name: str, events: list, **changes: object) -> Path:
        path = folder / f"{name}.pglog"
        new = msgspec.structs.replace(header, match_id=f"bad-{name}", **changes)
        write_log(path, new, events)
        return path

    paths = {
        "illegal": write("illegal", [*events, EndPhase(seat=0)]),
        "ruleset": write("ruleset", events, ruleset="vitorian@9"),
        "unfinished": write("unfinished", events[:20]),
        "deck": write("deck", events, seats=[msgspec.structs.replace(
            header.seats[0], setup=DeckList(sections={"maneuver": [
                DeckEntry(card="Steel Grenadiers", count=9)]})), header.seats[1]]),
    }
    data = bytearray(paths["unfinished"].read_bytes())
    corrupt, truncated = folder / "corrupt.pglog", folder / "truncated.pglog"
    data[len(data) // 2] ^= 0x40
    corrupt.write_bytes(bytes(data))
    live = encode_log(msgspec.structs.replace(header, match_id="bad-cut"), [[e] for e in events])
    truncated.write_bytes(live[0][:-5])  # a live table's log, one frame per decision, cut short
    return {**paths, "corrupt": corrupt, "truncated": truncated}


def test_bad_logs_are_quarantined_with_reason_rule_and_seq_and_the_rest_goes_in(
        copy_logs, small_lake, tmp_path):
    good = copy_logs(6)
    bad_folder = tmp_path / "bad"
    bad_folder.mkdir()
    bad = bad_logs(good[0], bad_folder)
    events = len(read_log(good[0]).events)
    report = ingest([*good[:3], bad_folder, *good[3:]], small_lake, batch_size=4)
    assert report.ingested == 6 and not report.audits_failed
    con = small_lake.connect()
    rows = {Path(r[0]).stem: r[1:] for r in con.execute(
        "SELECT path, match_id, seq, rule, reason, content_hash IS NOT NULL FROM quarantine"
    ).fetchall()}
    assert set(rows) == set(bad)
    assert rows["illegal"][:3] == ("bad-illegal", events + 1, "VW-12.1")
    assert rows["ruleset"][2] == "RULESET" and "unknown ruleset 'vitorian@9'" in rows["ruleset"][3]
    assert rows["unfinished"][1:3] == (20, "END")
    assert rows["deck"][1:3] == (0, "VW-3.1") and "VW-3.5: seat 0" in rows["deck"][3]
    assert rows["corrupt"][0] is None and rows["corrupt"][2] == "LOG"
    assert rows["corrupt"][1] is not None and "CRC" in rows["corrupt"][3]
    assert rows["truncated"][1:3] == (events, "LOG") and "torn tail" in rows["truncated"][3]
    assert all(r[4] for r in rows.values()), "content hashes make re-runs skip them"
    assert ingest([bad_folder], small_lake).skipped == len(bad)
    assert table_counts(small_lake)["quarantine"] == len(bad)


def test_a_log_quarantined_as_unfinished_goes_in_once_finished(copy_logs, small_lake):
    log = copy_logs(1)[0]
    full = read_log(log)
    write_log(log, full.header, full.events[:30])
    assert ingest([log], small_lake).quarantined[0].rule == "END"
    write_log(log, full.header, full.events)
    assert ingest([log], small_lake).ingested == 1


# ------------------------------------------------------------ crashes

def ingest_in_subprocess(paths: list[Path], lake: Lake, crash: str | None = None,
                         *options: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(CRASH_ENV, None)
    if crash:
        env[CRASH_ENV] = crash
    command = [sys.executable, "-m", "postgame.cli", "ingest", *map(str, paths), "--lake",
               str(lake.root), "--quiet", *options]
    return subprocess.run(command, check=False, env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=120, start_new_session=True)


def lake_state(lake: Lake) -> tuple[bytes, dict[str, int]]:
    return (lake.root / MANIFEST).read_bytes(), table_counts(lake)


def assert_clean(lake: Lake) -> None:
    """No staging left, every file on disk listed (as committed or retired), none missing."""
    manifest = lake.manifest()
    listed = {e["path"] for entries in manifest["tables"].values() for e in entries}
    listed |= {r["path"] for r in manifest["retired"]}
    on_disk = {p.relative_to(lake.root).as_posix() for p in lake.root.rglob("*.parquet")}
    assert not (lake.root / STAGING).exists()
    assert on_disk == listed


@pytest.mark.parametrize("point", ["staged", "moving", "moved", "manifest-written"])
def test_a_crash_before_the_manifest_leaves_the_lake_as_it_was(copy_logs, small_lake, point):
    logs = copy_logs(12)
    ingest(logs[:6], small_lake)
    before = lake_state(small_lake)
    crashed = ingest_in_subprocess(logs, small_lake, point)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert lake_state(small_lake) == before
    rerun = ingest_in_subprocess(logs, small_lake, None, "--json")
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(rerun.stdout)["ingested"] == 6
    assert table_counts(small_lake)["matches"] == 12
    assert_clean(small_lake)


def test_a_crash_after_the_manifest_leaves_the_lake_fully_updated(copy_logs, small_lake):
    logs = copy_logs(12)
    ingest(logs[:6], small_lake)
    crashed = ingest_in_subprocess(logs, small_lake, "committed")
    assert crashed.returncode == -signal.SIGKILL
    assert table_counts(small_lake)["matches"] == 12
    rerun = ingest_in_subprocess(logs, small_lake, None, "--json")
    assert json.loads(rerun.stdout)["skipped"] == 12
    assert_clean(small_lake)


def test_a_crash_in_the_second_batch_keeps_the_first(copy_logs, small_lake):
    logs = copy_logs(12)
    crashed = ingest_in_subprocess(logs, small_lake, "moved#2", "--batch-size", "5")
    assert crashed.returncode == -signal.SIGKILL
    assert table_counts(small_lake)["matches"] == 5
    assert ingest(logs, small_lake).ingested == 7
    assert_clean(small_lake)


def test_a_crash_during_compaction_then_a_rerun_compacts(copy_logs, small_lake):
    logs = copy_logs(5)  # one tournament: one month, one partition per table
    ingest(logs[:4], small_lake, batch_size=1)
    assert len(small_lake.files("matches")) == 4
    crashed = ingest_in_subprocess(logs, small_lake, "moved#2", "--batch-size", "1")
    assert crashed.returncode == -signal.SIGKILL
    assert len(small_lake.files("matches")) == 5, "the batch committed, its compaction not"
    assert table_counts(small_lake)["matches"] == 5
    # one per table: the facts' and the rollups'
    assert ingest(logs, small_lake).compactions == len(WRITTEN) + len(ROLLED_UP)
    assert len(small_lake.files("matches")) == 1
    assert table_counts(small_lake)["matches"] == 5
    assert_clean(small_lake)


def test_killed_workers_do_not_hold_the_lake(copy_logs, small_lake):
    logs = copy_logs(12)
    crashed = ingest_in_subprocess(logs, small_lake, "staged", "--workers", "2")
    assert crashed.returncode == -signal.SIGKILL
    rerun = ingest_in_subprocess(logs, small_lake, None, "--workers", "2", "--json")
    assert rerun.returncode == 0 and json.loads(rerun.stdout)["ingested"] == 12


# ------------------------------------------------------------ the command

def run_cli(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(["ingest", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_prints_counts_and_json(copy_logs, small_lake, capsys, tmp_path):
    logs = copy_logs(4)
    code, out, _ = run_cli(capsys, str(logs[0].parent), "--lake", str(small_lake.root))
    assert code == 0
    assert "4 logs seen, 4 ingested, 0 already there, 0 quarantined" in out
    audits = len(all_audits())
    assert "events/s" in out and f"audits: {audits} of {audits} hold" in out
    code, out, _ = run_cli(capsys, str(logs[0].parent), "--lake", str(small_lake.root),
                           "--json")
    report = json.loads(out)
    assert (code, report["logs"], report["skipped"], report["ingested"]) == (0, 4, 4, 0)
    assert all(a["ok"] for a in report["audits"])


def test_strict_fails_on_quarantine_only_when_asked(copy_logs, small_lake, capsys, tmp_path):
    good = copy_logs(2)
    bad = tmp_path / "bad.pglog"
    bad.write_bytes(good[0].read_bytes()[:-3])
    lake = str(small_lake.root)
    code, out, _ = run_cli(capsys, str(bad), str(good[0]), "--lake", lake)
    assert code == 0 and "quarantined" in out and "torn tail" in out
    code, out, _ = run_cli(capsys, str(good[1]), "--lake", lake, "--strict")
    assert code == 0, "nothing quarantined in this run"
    bad.write_bytes(b"junk")
    code, out, _ = run_cli(capsys, str(bad), "--lake", lake, "--strict", "--json")
    assert code == 1 and json.loads(out)["quarantined_by_rule"] == {"LOG": 1}


def test_a_missing_path_is_a_user_error(small_lake, capsys, tmp_path):
    code, _, err = run_cli(capsys, str(tmp_path / "nowhere"), "--lake", str(small_lake.root))
    assert code == 2 and "nowhere: no such file or folder" in err
    with pytest.raises(IngestError):
        ingest([tmp_path / "nowhere"], small_lake)


def test_progress_counts_every_log(copy_logs, small_lake):
    calls: list[tuple[int, int]] = []
    progress: Callable[[int, int], None] = lambda done, total: calls.append((done, total))
    ingest(copy_logs(7), small_lake, batch_size=3, progress=progress)
    assert calls[0] == (0, 7) and calls[-1] == (7, 7)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_facts_that_do_not_fit_the_columns_quarantine_that_log_only(copy_logs, small_lake):
    logs = copy_logs(3)
    log = read_log(logs[1])
    write_log(logs[1], msgspec.structs.replace(log.header, round=2 ** 40), log.events)
    report = ingest(logs, small_lake)
    assert report.ingested == 2
    [q] = report.quarantined
    assert (q.path, q.rule) == (str(logs[1]), "FACTS") and "fit the lake's columns" in q.reason
    assert not report.audits_failed
