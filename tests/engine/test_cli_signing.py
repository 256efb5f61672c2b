"""Signed and anchored logs at the command line: an organiser's key, a forger without it, a
log cut back by a commit, a lake whose file was swapped after ingest."""
from __future__ import annotations

import json
import os
from pathlib import Path

import msgspec
import pytest

from events.jsonl import from_jsonl, to_jsonl
from events.log import read_log
from events.vitorian import FirstPlayer
from postgame import cli
from tests.events.strategies import frame_offsets
from tests.vitorian.scenario import header


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Keys, and a small Vitorian season signed with the organiser's."""
    root = tmp_path_factory.mktemp("signed")
    for name in ("organiser", "forger"):
        assert cli.main(["keys", "new", str(root / name)]) == 0
    assert cli.main(["simulate", "vitorian", "--players", "4", "--rounds", "1", "--seed", "5",
                     "--out", str(root / "logs"), "--quiet", "--sign-key",
                     str(root / "organiser.key")]) == 0
    return root


def logs(root: Path) -> list[Path]:
    return sorted((root / "logs").rglob("*.pglog"))


def test_a_signed_season_verifies_with_its_key_and_is_refused_with_another(capsys, season
                                                                            ) -> None:
    code, _, err = run(capsys, "verify", season / "logs", "--key", season / "organiser.pub")
    assert code == 0 and "verified 2 logs: 0 bad" in err
    code, out, _ = run(capsys, "verify", season / "logs", "--key", season / "forger.pub")
    assert code == 1
    assert out.count(": seq 0: SIGNATURE: the header is signed by key") == 2


def test_without_a_key_verify_says_who_signed_and_that_nobody_checked(capsys, season) -> None:
    code, out, err = run(capsys, "verify", season / "logs", "--json")
    report = json.loads(out)
    assert code == 0 and report["bad"] == 0
    key = report["logs"][0]["signed_by"]
    assert f"2 logs are signed by key {key}; the signatures were not checked" in err
    assert any("signed by key" in notice for notice in report["notices"])


def test_unsigned_logs_verify_and_say_they_are_unsigned(capsys, tmp_path: Path) -> None:
    assert run(capsys, "simulate", "vitorian", "--players", "2", "--rounds", "1", "--out",
               tmp_path, "--quiet")[0] == 0
    code, _, err = run(capsys, "verify", tmp_path)
    assert code == 0 and "notice: 1 log is unsigned" in err


def test_a_forged_match_rechained_without_the_key_is_refused(capsys, season, tmp_path: Path
                                                             ) -> None:
    original = logs(season)[0]
    to_jsonl(original, tmp_path / "m.jsonl")
    lines = (tmp_path / "m.jsonl").read_text().splitlines()
    seq, prev, event, *stamp = json.loads(lines[-1])
    event["seat"] = 1 - event["seat"]  # the last decision, made by the other player
    lines[-1] = json.dumps([seq, prev, event, *stamp])
    (tmp_path / "m.jsonl").write_text("\n".join(lines) + "\n")
    from_jsonl(tmp_path / "m.jsonl", tmp_path / "forged.pglog", rechain=True)
    code, out, _ = run(capsys, "verify", tmp_path / "forged.pglog", "--key",
                       season / "organiser.pub")
    assert code == 1 and "SIGNATURE: the signature of the commit at seq 1 does not check" in out
    code, _, _ = run(capsys, "verify", tmp_path / "forged.pglog")
    assert code in (0, 1)  # without the key the forgery may well be a legal match


def test_ingest_with_a_key_quarantines_what_it_did_not_sign(capsys, season, tmp_path: Path
                                                           ) -> None:
    assert run(capsys, "simulate", "vitorian", "--players", "2", "--rounds", "1", "--seed", "9",
               "--out", tmp_path / "unsigned", "--quiet")[0] == 0
    code, out, _ = run(capsys, "ingest", season / "logs", tmp_path / "unsigned", "--lake",
                       tmp_path / "lake", "--key", season / "organiser.pub", "--quiet", "--json")
    report = json.loads(out)
    assert code == 0 and report["ingested"] == 2
    assert [(q["rule"], q["seq"]) for q in report["quarantine"]] == [("SIGNATURE", 0)]
    from pipeline.lake import Lake
    con = Lake(tmp_path / "lake").connect()
    rows = con.execute("SELECT head, signed_by FROM matches ORDER BY match_id").fetchall()
    heads = sorted(read_log(path).head.hex() for path in logs(season))
    assert sorted(head for head, _ in rows) == heads
    assert {signed for _, signed in rows} == {json.loads(run(
        capsys, "verify", logs(season)[0], "--json")[1])["logs"][0]["signed_by"]}


def live_match(capsys, season: Path, path: Path) -> list[str]:
    """A signed live log: header, then two appends; the heads printed at each step."""
    (season / "header.json").write_bytes(msgspec.json.encode(header()))
    heads = []
    code, out, err = run(capsys, "log", "start", path, season / "header.json", "--sign-key",
                         season / "organiser.key", "--json")
    assert code == 0 and "head " in err
    heads.append(json.loads(out)["head"])
    for seq, event in ((1, FirstPlayer(seat=0)), (2, FirstPlayer(seat=1))):
        (season / "moves.jsonl").write_bytes(msgspec.json.encode(event) + b"\n")
        code, out, err = run(capsys, "log", "append", path, season / "moves.jsonl",
                             "--expect-seq", seq, "--sign-key", season / "organiser.key",
                             "--json")
        if code:
            break
        heads.append(json.loads(out)["head"])
        assert f"head {heads[-1]}" in err
    return heads


def test_a_dropped_last_commit_fails_the_anchor(capsys, season, tmp_path: Path) -> None:
    path = tmp_path / "live.pglog"
    heads = live_match(capsys, season, path)
    assert len(heads) == 2  # the second FirstPlayer is refused by the rules (VW-4.2)
    code, _, _ = run(capsys, "verify", path, "--anchor", heads[-1], "--key",
                     season / "organiser.pub")
    assert code == 0
    whole = path.read_bytes()
    path.write_bytes(whole[:frame_offsets(whole)[-2]])
    code, out, _ = run(capsys, "verify", path, "--anchor", heads[-1], "--key",
                       season / "organiser.pub")
    assert code == 1 and "ANCHOR: the log ends at head" in out and "commits were dropped" in out
    path.write_bytes(whole)
    code, out, _ = run(capsys, "verify", path, "--anchor", heads[0])
    assert code == 1 and "ANCHOR: the log goes on past its anchor (record 0): 1 more record" in out


def test_an_unfinished_log_is_a_notice_without_complete_and_bad_with_it(capsys, season,
                                                                       tmp_path: Path) -> None:
    path = tmp_path / "live.pglog"
    live_match(capsys, season, path)
    code, _, err = run(capsys, "verify", path)
    assert code == 0 and f"notice: {path}: unfinished: the log ends after seq 1" in err
    code, out, _ = run(capsys, "verify", path, "--complete")
    assert code == 1 and "END: the log stops before the match ends" in out


def test_appends_with_the_wrong_key_or_none_write_nothing(capsys, season, tmp_path: Path
                                                          ) -> None:
    path = tmp_path / "live.pglog"
    live_match(capsys, season, path)
    before = path.read_bytes()
    (season / "moves.jsonl").write_bytes(msgspec.json.encode(FirstPlayer(seat=0)) + b"\n")
    code, _, err = run(capsys, "log", "append", path, season / "moves.jsonl", "--expect-seq", 2)
    assert code == 2 and "appends must be signed with it too (--sign-key); nothing written" in err
    code, _, err = run(capsys, "log", "append", path, season / "moves.jsonl", "--expect-seq", 2,
                       "--sign-key", season / "forger.key")
    assert code == 2 and "not by the key given" in err
    assert path.read_bytes() == before


def test_an_empty_append_is_an_error(capsys, season, tmp_path: Path) -> None:
    path = tmp_path / "live.pglog"
    live_match(capsys, season, path)
    (tmp_path / "empty.jsonl").write_text("")
    code, _, err = run(capsys, "log", "append", path, tmp_path / "empty.jsonl", "--expect-seq", 2,
                       "--sign-key", season / "organiser.key")
    assert code == 2 and "no events to append" in err


def test_replay_from_a_lake_refuses_a_file_changed_since_ingest(capsys, season, tmp_path: Path
                                                                ) -> None:
    copy = tmp_path / "logs"
    copy.mkdir()
    for path in logs(season):
        (copy / path.name).write_bytes(path.read_bytes())
    assert cli.main(["ingest", str(copy), "--lake", str(tmp_path / "lake"), "--quiet"]) == 0
    match_id = read_log(min(copy.iterdir())).header.match_id
    code, out, _ = run(capsys, "replay", match_id, "--lake", tmp_path / "lake", "--step", 1)
    assert code == 0 and "step 1/" in out
    first, second = sorted(copy.iterdir())
    os.replace(second, first)  # another match's log now sits where the lake's match was
    code, _, err = run(capsys, "replay", match_id, "--lake", tmp_path / "lake")
    assert code == 2 and f"the log at {first} changed since it was ingested" in err
    first.unlink()
    code, _, err = run(capsys, "replay", match_id, "--lake", tmp_path / "lake")
    assert code == 2 and "is not there any more" in err
    code, _, err = run(capsys, "replay", "no-such-match", "--lake", tmp_path / "lake")
    assert code == 2 and "the lake holds no match 'no-such-match'" in err
