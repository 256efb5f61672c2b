"""pipeline.known: the compact index of what a lake holds, exact whatever its keys collide on."""
from __future__ import annotations

import hashlib
import pickle

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pipeline import known
from pipeline.known import Digests, Seen, digest_array

hexes = st.binary(min_size=16, max_size=16).map(bytes.hex)


@given(st.lists(hexes, max_size=40), st.lists(hexes, max_size=40))
@example(["00" * 16, "ab" * 8 + "00" * 8], ["00" * 15 + "01", "ab" * 8 + "00" * 7 + "01"])
def test_digests_hold_exactly_the_hashes_given(members: list[str], others: list[str]) -> None:
    digests = Digests(digest_array(members))
    assert len(digests) == len(members)  # a twin is kept twice: membership is all it answers
    for h in members + others:
        assert (h in digests) == (h in members)


def test_digests_refuse_what_is_no_digest() -> None:
    digests = Digests(digest_array(["00" * 16]))
    assert "00" * 15 not in digests and "zz" * 16 not in digests and None not in digests


def lake_con(rows: list[tuple[str, str]], quarantined: list[str | None]) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.register("matches", pa.table({"match_id": [m for m, _ in rows],
                                      "content_hash": [h for _, h in rows]}))
    con.register("quarantine", pa.table({"content_hash": pa.array(quarantined, pa.string())}))
    return con


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def test_seen_knows_the_lake_and_the_run() -> None:
    rows = [(f"m{i}", digest(f"log {i}")) for i in range(250)]
    seen = Seen.of(lambda: lake_con(rows, [digest("bad"), None]))
    assert seen.known(digest("log 7")) and seen.known(digest("bad"))
    assert not seen.known(digest("log 999"))
    assert seen.holder("m7") == digest("log 7") and seen.holder("m999") is None
    seen.saw(digest("new"))
    seen.ingested("m999", digest("new"))
    assert seen.known(digest("new")) and seen.holder("m999") == digest("new")
    seen.withdrawn("m999")
    assert seen.holder("m999") is None and seen.known(digest("new"))


def test_a_match_id_key_collision_is_confirmed_against_the_lake(monkeypatch) -> None:
    seen = Seen.of(lambda: lake_con([("m1", digest("one"))], []))
    m1 = known.id_key("m1")
    monkeypatch.setattr(known, "id_key", lambda match_id: m1)  # every id has m1's key
    assert seen.holder("m1") == digest("one")
    assert seen.holder("another id") is None


def test_the_keys_read_in_sql_are_the_keys_of_python() -> None:
    ids = ["m1", "vw-2026-001-r1-t1", "é-ü-名", ""]
    seen = Seen.of(lambda: lake_con([(i, digest(i)) for i in ids], []))
    assert sorted(int(k) for k in seen.lake_ids) == sorted(known.id_key(i) for i in ids)
    assert all(digest(i) in seen.lake_digests for i in ids)


def test_the_lake_is_read_in_pieces(monkeypatch) -> None:
    monkeypatch.setattr(known, "READ_ROWS", 7)
    rows = [(f"m{i}", digest(f"log {i}")) for i in range(100)]
    seen = Seen.of(lambda: lake_con(rows, []))
    assert len(seen.lake_digests) == 100 and np.all(np.diff(seen.lake_ids.astype(object)) >= 0)
    assert all(seen.holder(m) == h for m, h in rows)


def test_the_lake_is_read_once_and_held_once_however_many_ids_a_run_shares_with_it() -> None:
    rows = [(f"m{i}", digest(f"log {i}")) for i in range(50)]
    opened: list[duckdb.DuckDBPyConnection] = []

    def connect() -> duckdb.DuckDBPyConnection:
        opened.append(lake_con(rows, []))
        return opened[-1]

    seen = Seen.of(connect)
    assert len(opened) == 1  # read, and closed: its buffers are given back
    with pytest.raises(duckdb.ConnectionException):
        opened[0].execute("SELECT 1")
    assert seen.holder("m999") is None and len(opened) == 1  # no key: no connection
    assert all(seen.holder(m) == h for m, h in rows) and len(opened) == 2
    seen.close()
    with pytest.raises(duckdb.ConnectionException):  # closed, not left open
        opened[1].execute("SELECT 1")


def test_a_connection_whose_files_are_gone_is_opened_again(tmp_path) -> None:
    """Compaction moves a partition's rows into a new file and, in time, deletes the old one
    that a connection opened earlier reads."""
    files = [tmp_path / "part-1.parquet"]
    pq.write_table(pa.table({"match_id": ["m1"], "content_hash": [digest("one")]}), files[0])

    def connect() -> duckdb.DuckDBPyConnection:
        con = duckdb.connect()
        con.execute(f"CREATE VIEW matches AS SELECT * FROM read_parquet('{files[-1]}')")
        con.register("quarantine", pa.table({"content_hash": pa.array([], pa.string())}))
        return con

    seen = Seen.of(connect)
    files.append(tmp_path / "part-2.parquet")
    pq.write_table(pq.read_table(files[0]), files[1])
    files[0].unlink()
    assert seen.holder("m1") == digest("one")
    seen.close()


@settings(deadline=None, max_examples=30)  # each example reads a lake: two DuckDB connections
@given(st.lists(hexes, max_size=40), st.lists(hexes, max_size=40))
def test_the_lake_read_into_mapped_files_holds_exactly_its_hashes(members: list[str],
                                                                   others: list[str]) -> None:
    rows = [(f"m{i}", h) for i, h in enumerate(members)]
    seen = Seen.of(lambda: lake_con(rows, []))
    try:
        assert seen.lake_digests.sorted.path is not None  # mapped, not held
        assert len(seen.lake_digests) == len(members)
        for h in members + others:
            assert (h in seen.lake_digests) == (h in members)
    finally:
        seen.close()


def test_mapped_pages_handed_back_are_read_again(monkeypatch) -> None:
    monkeypatch.setattr(known, "RELEASE_EVERY", 1)  # hand back after every lookup
    rows = [(f"m{i}", digest(f"log {i}")) for i in range(3000)]
    seen = Seen.of(lambda: lake_con(rows, []))
    for _ in range(2):
        assert all(seen.known(h) for _, h in rows[::7])
        assert all(seen.holder(f"x{i}") is None for i in range(50))
    assert seen.lake_digests.sorted.searches == 2 * len(rows[::7])
    seen.close()


def test_a_mapped_index_travels_as_its_path_and_in_memory_as_its_values() -> None:
    rows = [(f"m{i}", digest(f"log {i}")) for i in range(2000)]
    seen = Seen.of(lambda: lake_con(rows, [digest("bad")]))
    mapped, held = pickle.dumps(seen.lake_digests), pickle.dumps(seen.lake_digests.in_memory())
    assert len(mapped) < 500 < 2001 * 16 < len(held)
    for copy in (pickle.loads(mapped), pickle.loads(held)):
        assert digest("log 1999") in copy and digest("bad") in copy and digest("x") not in copy
    seen.close()



def test_a_process_maps_a_file_sent_again_and_again_once() -> None:
    """A pool worker receives the run's hashes with every chunk: it maps the file at the first
    and keeps only the last MAPPED_FILES files mapped."""
    runs = [Seen.of(lambda i=i: lake_con([(f"m{i}", digest(f"log {i}"))], []))
            for i in range(known.MAPPED_FILES + 1)]
    sent = [pickle.dumps(seen.lake_digests) for seen in runs]
    first = pickle.loads(sent[0]).sorted
    assert pickle.loads(sent[0]).sorted is first
    for data in sent[1:]:
        pickle.loads(data)
    assert pickle.loads(sent[0]).sorted is not first
    assert len(known._MAPPED) == known.MAPPED_FILES
    assert all(digest(f"log {i}") in pickle.loads(data) for i, data in enumerate(sent))
    for seen in runs:
        seen.close()


def test_the_run_files_are_removed_when_it_closes() -> None:
    seen = Seen.of(lambda: lake_con([("m1", digest("one"))], []))
    path = seen.lake_digests.sorted.path
    assert path is not None and path.exists()
    seen.close()
    assert not path.parent.exists()


def test_an_empty_lake_maps_nothing_and_knows_nothing() -> None:
    seen = Seen.of(lambda: lake_con([], []))
    assert len(seen.lake_digests) == 0 and not seen.known(digest("x"))
    assert seen.holder("m1") is None
    seen.close()


def test_columns_written_must_be_the_rows_counted(tmp_path) -> None:
    piece = np.arange(6, dtype=np.uint64).reshape(3, 2)
    known.write_columns(tmp_path / "ok", 3, [piece[:1], piece[1:]])
    columns = known.Columns.mapped(tmp_path / "ok", 2)
    assert [list(c) for c in columns.columns] == [[0, 2, 4], [1, 3, 5]]
    with pytest.raises(RuntimeError, match="2 rows read of the 3 counted"):
        known.write_columns(tmp_path / "short", 3, [piece[:2]])
    with pytest.raises(RuntimeError, match="more rows than the 2 counted"):
        known.write_columns(tmp_path / "long", 2, [piece])


@given(st.lists(st.integers(0, 40), max_size=60), st.integers(-1, 42))
def test_a_search_by_fences_finds_where_a_bisection_of_the_whole_would(keys: list[int],
                                                                     value: int) -> None:
    array = np.array(sorted(keys), np.uint64)
    for fence in (1, 2, 4, 256):
        known.FENCE = fence
        try:
            columns = known.Columns([array])
        finally:
            known.FENCE = 256
        assert columns.search(max(value, 0)) == int(np.searchsorted(array, np.uint64(max(value, 0))))
