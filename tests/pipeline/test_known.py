"""pipeline.known: the compact index of what a lake holds, exact whatever its keys collide on."""
from __future__ import annotations

import hashlib

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import example, given
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


def test_the_lake_is_connected_to_once_however_many_ids_a_run_shares_with_it() -> None:
    rows = [(f"m{i}", digest(f"log {i}")) for i in range(50)]
    opened: list[duckdb.DuckDBPyConnection] = []

    def connect() -> duckdb.DuckDBPyConnection:
        opened.append(lake_con(rows, []))
        return opened[-1]

    seen = Seen.of(connect)
    assert all(seen.holder(m) == h for m, h in rows) and len(opened) == 1
    seen.close()
    with pytest.raises(duckdb.ConnectionException):  # closed, not left open
        opened[0].execute("SELECT 1")


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
