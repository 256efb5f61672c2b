"""The lake as readers and the writer see it: the layout of docs/lake.md, typed views over exactly
the manifest's files (on a read-only folder too), recovery from what a crash leaves, and
compaction that keeps a lake from ending as one file per match."""
from __future__ import annotations

import json
import re
import shutil
import stat

import pyarrow as pa
import pytest

from pipeline.ingest import ingest
from pipeline.lake import Lake, duck_type
from pipeline.lake_layout import MANIFEST, STAGING, LakeError, file_schema
from pipeline.lake_writer import MAX_SMALL_FILES
from pipeline.rollups import written_by
from pipeline.schema import game_tables, partitioned, tables
from tests.pipeline.conftest import table_counts

WRITTEN = [*game_tables("vitorian"), *written_by("vitorian")]
"""The tables a Vitorian commit writes: its facts and their rollups."""
"""The tables a lake of Vitorian logs writes part files to (every registered game declares
its own, which such a lake leaves empty)."""

PART = re.compile(r"(matches|seats|decks|deck_cards|card_events|rollup_[a-z_]+)"
                  r"/game=vitorian/month=2026-0[12]/"
                  r"part-\d{8}T\d{12}-[0-9a-f]{6}-0\.parquet|quarantine/part-\d{8}T\d{12}-"
                  r"[0-9a-f]{6}\.parquet")


def test_the_layout_is_that_of_docs_lake(fixture_lake):
    manifest = json.loads((fixture_lake.root / MANIFEST).read_text())
    assert manifest["format"] == 1 and manifest["version"] >= 3 and manifest["batch"]
    assert manifest["layout"] == 2
    assert set(manifest["tables"]) == set(tables())
    for entries in manifest["tables"].values():
        for entry in entries:
            assert PART.fullmatch(entry["path"]), entry["path"]
            path = fixture_lake.root / entry["path"]
            assert path.stat().st_size == entry["bytes"]
    months = {p.name for p in (fixture_lake.root / "matches" / "game=vitorian").iterdir()}
    assert months == {"month=2026-01", "month=2026-02"}


def test_files_are_the_manifests_and_nothing_else(fixture_lake):
    listed = {p for table in tables() for p in fixture_lake.files(table)}
    assert listed == set(fixture_lake.root.rglob("*.parquet"))
    assert all(p.is_absolute() for p in listed)
    with pytest.raises(LakeError, match="unknown table 'sovereigns'"):
        fixture_lake.files("sovereigns")


def test_part_files_leave_the_partition_keys_to_their_path(fixture_lake):
    import pyarrow.parquet as pq

    for table in partitioned():
        for path in fixture_lake.files(table):
            assert pq.read_schema(path).names == file_schema(table).names
            assert "game" not in file_schema(table).names


@pytest.mark.parametrize("table", list(tables()))
def test_views_have_the_schema_types(fixture_lake, tmp_path, table):
    expected = [(f.name, duck_type(f.type)) for f in tables()[table]]
    for lake in (fixture_lake, Lake(tmp_path / "empty")):
        con = lake.connect()
        described = [(name, kind) for name, kind, *_ in con.execute(f"DESCRIBE {table}").fetchall()]
        assert described == [(n, "TIMESTAMP WITH TIME ZONE" if t == "TIMESTAMPTZ" else t)
                             for n, t in expected]


def test_an_empty_lake_reads_as_empty_tables(tmp_path):
    lake = Lake(tmp_path / "nothing-here")
    assert table_counts(lake) == dict.fromkeys(tables(), 0)
    assert lake.summary()["games"] == {} and lake.manifest()["version"] == 0
    assert not lake.root.exists(), "reading never creates the lake"


def test_a_read_only_lake_is_readable_and_untouched(fixture_lake, tmp_path):
    lake = Lake(tmp_path / "ro")
    shutil.copytree(fixture_lake.root, lake.root)
    before = sorted(p.relative_to(lake.root) for p in lake.root.rglob("*"))
    for path in [lake.root, *lake.root.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        assert table_counts(lake) == table_counts(fixture_lake)
        assert lake.summary()["games"]["vitorian"]["matches"] == 48
    finally:
        for path in [lake.root, *lake.root.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    assert sorted(p.relative_to(lake.root) for p in lake.root.rglob("*")) == before


def test_summary_counts_matches_events_and_dates(fixture_lake, fixture_report):
    summary = fixture_lake.summary()
    game = summary["games"]["vitorian"]
    assert (game["matches"], game["events"]) == (48, fixture_report.events)
    assert game["first"].date().isoformat() == "2026-01-31" and game["first"] < game["last"]
    assert summary["quarantined"] == 0 and summary["version"] == fixture_lake.manifest()["version"]


def test_a_damaged_manifest_is_named(tmp_path):
    lake = Lake(tmp_path)
    (tmp_path / MANIFEST).write_text("{not json")
    with pytest.raises(LakeError, match=f"{tmp_path / MANIFEST}: cannot read the manifest"):
        lake.connect()


def test_the_writer_removes_what_a_crash_left_and_leaves_unlisted_parts_alone(fixture_lake,
                                                                              tmp_path):
    lake = Lake(tmp_path / "lake")
    shutil.copytree(fixture_lake.root, lake.root)
    committed = set(lake.root.rglob("*.parquet"))
    orphan = lake.root / "card_events" / "game=vitorian" / "month=2026-03" / "part-x-0.parquet"
    orphan.parent.mkdir(parents=True)
    shutil.copy(next(iter(committed)), orphan)
    (lake.root / STAGING / "b1" / "matches").mkdir(parents=True)
    (lake.root / ".manifest.abc.tmp").write_text("{}")
    with lake.writer() as writer:
        assert writer.manifest == lake.manifest()
        assert writer.strays == [orphan.relative_to(lake.root).as_posix()]
    assert set(lake.root.rglob("*.parquet")) == committed | {orphan}, "no ledger names it"
    assert not (lake.root / STAGING).exists() and not list(lake.root.glob(".manifest.*"))


def test_compaction_merges_small_files_and_keeps_every_row(copy_logs, small_lake, fixture_lake):
    logs = copy_logs(12)  # the first tournament: one month
    report = ingest(logs, small_lake, batch_size=1, retain_s=0)
    assert report.batches == 12 and report.compactions == 2 * len(WRITTEN)
    for table in partitioned():
        assert len(small_lake.files(table)) <= MAX_SMALL_FILES
    assert {p for t in tables() for p in small_lake.files(t)} == set(small_lake.root.rglob(
        "*.parquet")), "with no retention, replaced files are gone"
    query = "SELECT * EXCLUDE (batch, ingested_at, log_path) FROM matches ORDER BY match_id"
    ids = tuple(f"vw-2026-001-r{r}-t{t}" for r in (1, 2, 3) for t in (1, 2, 3, 4))
    assert small_lake.connect().execute(query).fetchall() == [
        row for row in fixture_lake.connect().execute(query).fetchall() if row[0] in ids]
    assert table_counts(small_lake)["card_events"] == fixture_lake.connect().execute(
        f"SELECT count(*) FROM card_events WHERE match_id IN {ids}").fetchone()[0]


def test_replaced_files_outlive_the_manifest_for_readers_that_still_use_them(copy_logs,
                                                                              small_lake):
    logs = copy_logs(5)
    ingest(logs[:4], small_lake, batch_size=1)
    reader = small_lake.connect()  # bound to the four files of each partition
    ingest(logs, small_lake, batch_size=1)
    retired = small_lake.manifest()["retired"]
    assert len(retired) == 5 * len(WRITTEN)
    assert all((small_lake.root / r["path"]).exists() for r in retired)
    assert reader.execute("SELECT count(*) FROM matches").fetchone() == (4,)
    assert small_lake.connect().execute("SELECT count(*) FROM matches").fetchone() == (5,)
    ingest(copy_logs(6), small_lake, retain_s=0)
    assert small_lake.manifest()["retired"] == []
    assert not any((small_lake.root / r["path"]).exists() for r in retired)


def test_files_written_before_a_column_was_added_still_merge(small_lake):
    from pipeline.lake_writer import conform

    old = pa.table({"match_id": ["m1"], "seq": pa.array([3], pa.int32())})
    new = conform(old, file_schema("card_events"))
    assert new.schema == file_schema("card_events")
    assert new.to_pylist()[0] == {**dict.fromkeys(new.column_names), "match_id": "m1", "seq": 3}


def test_a_column_no_file_has_yet_reads_as_nulls(tmp_path):
    """Every rollup_deck_lines file written before first_match was added: the view opens, the
    column null (what rollups.stored then leaves unread, their definition being another)."""
    import duckdb
    import pyarrow.parquet as pq

    from pipeline.lake import create_view

    schema = file_schema("rollup_deck_lines")
    rows = {f.name: pa.array([None], f.type) for f in schema if f.name != "first_match"}
    folder = tmp_path / "rollup_deck_lines" / "game=vitorian" / "month=2026-01"
    folder.mkdir(parents=True)
    pq.write_table(pa.table(rows | {"deck_id": pa.array(["d1"])}), folder / "part-a.parquet")
    con = duckdb.connect()
    create_view(con, "rollup_deck_lines", [folder / "part-a.parquet"])
    assert con.execute("SELECT deck_id, first_match, game FROM rollup_deck_lines").fetchall() == \
        [("d1", None, "vitorian")]
