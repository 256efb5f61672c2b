"""Trust (issue 9): one bad file never stops a batch and never gives a traceback; every error is
one line naming the file the person gave and the place in it; options outside what the log
format and a tournament can hold are refused naming the range."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.jsonl import BOM
from postgame import cli

OUT_OF_RANGE = "an integer outside the range a log can hold"
RANGE = "(-9223372036854775808 to 18446744073709551615)"
SEEDS = "choose 0 to 9223372036854775807"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.rstrip("\n")


def refused_by_argparse(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    """The last stderr line of an argparse refusal (after its usage lines), exit 2."""
    with pytest.raises(SystemExit) as exit_:
        cli.main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err, err
    return err.splitlines()[-1]


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`postgame simulate vitorian --players 4 --rounds 1 --seed 1`: two real match logs."""
    out = tmp_path_factory.mktemp("sim")
    assert cli.main(["simulate", "vitorian", "--players", "4", "--rounds", "1", "--seed", "1",
                     "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture
def lines(season: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[bytes]:
    """A real log's JSON lines, through `postgame log convert`."""
    jsonl = tmp_path / "real.jsonl"
    assert cli.main(["log", "convert", str(min(season.rglob("*.pglog"))), str(jsonl)]) == 0
    capsys.readouterr()
    return jsonl.read_bytes().splitlines()


def edited(lines: list[bytes], number: int, old: str, new: str) -> bytes:
    """The lines with old replaced by new in line `number` (from 1), once."""
    changed = list(lines)
    assert old.encode() in changed[number - 1]
    changed[number - 1] = changed[number - 1].replace(old.encode(), new.encode(), 1)
    return b"\n".join(changed) + b"\n"


def header_file(lines: list[bytes], path: Path, **changes: object) -> Path:
    path.write_text(json.dumps(json.loads(lines[0])[2] | changes, indent=2))
    return path


# 1. Integers beyond 64 bits --------------------------------------------------------------------

@pytest.fixture
def huge(lines: list[bytes], season: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A folder of the season's good logs with two bad ones: seat 2**70, seed 10**30."""
    folder = tmp_path / "batch"
    folder.mkdir()
    for log in season.rglob("*.pglog"):
        (folder / log.name).write_bytes(log.read_bytes())
    seat, seed = folder / "a-seat.jsonl", folder / "a-seed.jsonl"
    first = json.loads(lines[1])[2]["seat"]
    seat.write_bytes(edited(lines, 2, f'"seat":{first}', f'"seat":{2**70}'))
    text = json.loads(lines[0])
    text[2]["seed"] = 10**30
    seed.write_bytes(b"\n".join([json.dumps(text, separators=(",", ":")).encode(), *lines[1:]]))
    return folder, seat, seed


def test_verify_reports_huge_integers_by_line_and_goes_on(capsys, huge) -> None:
    folder, seat, seed = huge
    code, out, err = run(capsys, "verify", folder)
    assert code == 1 and "verified 4 logs: 2 bad" in err and "Traceback" not in err
    assert out.splitlines() == [f"{seat}: LOG: line 2: $[2].seat: {OUT_OF_RANGE} {RANGE}",
                                f"{seed}: LOG: line 1: $[2].seed: {OUT_OF_RANGE} {RANGE}"]


def test_ingest_quarantines_huge_integers_and_ingests_the_rest(capsys, huge, tmp_path) -> None:
    folder, seat, seed = huge
    code, out, err = run(capsys, "ingest", folder, "--lake", tmp_path / "lake", "--quiet")
    assert code == 0 and "Traceback" not in err
    assert "4 logs seen, 2 ingested, 0 already there, 2 quarantined" in out
    assert f"quarantined {seat}: seq 1: LOG: line 2: $[2].seat: {OUT_OF_RANGE}" in out
    assert f"quarantined {seed}: seq 0: LOG: line 1: $[2].seed: {OUT_OF_RANGE}" in out


@pytest.mark.parametrize("command", [["log", "convert"], ["replay"]], ids=" ".join)
def test_convert_and_replay_name_the_line_of_a_huge_integer(capsys, huge, tmp_path,
                                                            command) -> None:
    _, seat, seed = huge
    for bad, where in ((seat, "line 2: $[2].seat"), (seed, "line 1: $[2].seed")):
        extra = [tmp_path / "out.pglog"] if command[0] == "log" else []
        code, out, err = run(capsys, *command, bad, *extra)
        assert code == 2 and out == ""
        assert one_line(err) == f"postgame {command[0]}: {bad}: {where}: {OUT_OF_RANGE} {RANGE}"


def test_log_start_and_append_refuse_huge_integers_naming_the_file(capsys, lines,
                                                                   tmp_path) -> None:
    header = header_file(lines, tmp_path / "header.json", seed=10**30)
    live = tmp_path / "live.pglog"
    code, _, err = run(capsys, "log", "start", live, header)
    assert code == 2 and not live.exists()
    assert one_line(err).startswith(f"postgame log: {header}: not a match header: $.seed: "
                                    f"{OUT_OF_RANGE}")
    good = header_file(lines, tmp_path / "good.json")
    assert run(capsys, "log", "start", live, good)[0] == 0
    moves = tmp_path / "moves.jsonl"
    moves.write_text('{"type": "first_player", "seat": 0}\n\n'
                     f'{{"type": "pass", "seat": {2**70}}}\n')
    code, _, err = run(capsys, "log", "append", live, moves, "--expect-seq", "1")
    assert code == 2
    assert one_line(err).startswith(f"postgame log: {moves}: line 3: $.seat: {OUT_OF_RANGE}")


# 3. Errors name the file the person gave ------------------------------------------------------

def test_header_errors_name_the_header_file(capsys, lines, tmp_path) -> None:
    live = tmp_path / "live.pglog"
    cut = tmp_path / "cut.json"
    cut.write_text('{"type": "header", "game":')
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"game": "vitorian",\n "ruleset": "caf\xe9"}')
    ruleset = header_file(lines, tmp_path / "ruleset.json", ruleset="chess@1")
    for path, message in ((cut, "not a match header: Input data was truncated"),
                          (latin, "line 2: not UTF-8 text: byte 0xe9 at column 17"),
                          (ruleset, "unknown ruleset 'chess@1'")):
        code, _, err = run(capsys, "log", "start", live, path)
        assert code == 2 and one_line(err).startswith(f"postgame log: {path}: {message}")
    assert not live.exists()


def test_a_header_breaking_a_rule_names_the_header_the_log_and_the_rule(capsys, lines,
                                                                        tmp_path) -> None:
    raw = json.loads(lines[0])[2]
    raw["seats"][0]["setup"]["sections"]["maneuver"] = []
    header = tmp_path / "header.json"
    header.write_text(json.dumps(raw))
    live = tmp_path / "live.pglog"
    code, _, err = run(capsys, "log", "start", live, header)
    assert code == 1 and not live.exists()
    assert one_line(err).startswith(f"postgame log: {header}: refused, {live} not created: "
                                    "VW-3.3: seat 0")


def test_a_byte_order_mark_is_accepted_everywhere(capsys, lines, season, tmp_path) -> None:
    header = header_file(lines, tmp_path / "header.json")
    header.write_bytes(BOM + header.read_bytes())
    live = tmp_path / "live.pglog"
    assert run(capsys, "log", "start", live, header)[0] == 0
    moves = tmp_path / "moves.jsonl"
    first = json.dumps(json.loads(lines[1])[2]).encode()  # the log's own first event
    moves.write_bytes(BOM + first + b"\n")
    assert run(capsys, "log", "append", live, moves, "--expect-seq", "1")[0] == 0
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(BOM + b"\n".join(lines) + b"\n")
    code, out, err = run(capsys, "verify", marked)
    assert (code, out) == (0, "") and "verified 1 log: 0 bad" in err
    starter = Path(__file__).resolve().parents[2] / "data" / "vitorian" / "decks" / "red.txt"
    deck = tmp_path / "red.txt"
    deck.write_bytes(BOM + starter.read_bytes())
    code, out, _ = run(capsys, "deck", "check", "vitorian", deck)
    assert (code, out.splitlines()[0]) == \
        (0, f"legal ({deck}, Vitorian Wars deck 'Steel Sultanate Starter')")


def test_a_deck_list_that_is_not_utf8_is_named_by_file_and_line(capsys, tmp_path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes(b"[Sovereign]\nMarechal Zahir\n[Maneuver]\n4 Caf\xe9 Guard\n")
    code, out, err = run(capsys, "deck", "check", "vitorian", deck)
    assert code == 2 and out == ""
    assert one_line(err) == f"postgame deck: {deck}:4: not UTF-8 text: byte 0xe9 at column 6"


def test_an_unwritable_destination_is_named_as_given(capsys, season, tmp_path) -> None:
    src = min(season.rglob("*.pglog"))
    (tmp_path / "a-file").write_text("")
    for dst in (tmp_path / "missing" / "m.jsonl", tmp_path / "a-file" / "m.jsonl"):
        code, _, err = run(capsys, "log", "convert", src, dst)
        assert code == 2 and ".tmp" not in err
        assert one_line(err).startswith(f"postgame log: {dst}: ")


# 4. Bounds ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "message"), [
    (["--rounds", "0"], "argument --rounds: 0 is out of range: choose 1 to 9999"),
    (["--rounds", "1000000"], "argument --rounds: 1000000 is out of range: choose 1 to 9999"),
    (["--players", "1"], "argument --players: 1 is out of range: choose 2 to 9999"),
    (["--players", "10000"], "argument --players: 10000 is out of range: choose 2 to 9999"),
    (["--tournaments", "0"], "argument --tournaments: 0 is out of range: choose 1 to 999"),
    (["--tournaments", "1000"], "argument --tournaments: 1000 is out of range: choose 1 to 999"),
    (["--workers", "0"], "argument --workers: 0 is out of range: choose 1 to "),
    (["--workers", "1000000"], "argument --workers: 1000000 is out of range: choose 1 to "),
    (["--seed", "-1"], f"argument --seed: -1 is out of range: {SEEDS}"),
    (["--seed", str(2**63)], f"argument --seed: {2**63} is out of range: {SEEDS}"),
    (["--seed", "9" * 5000], f"argument --seed: {'9' * 21}... is out of range: {SEEDS}"),
    (["--rounds", "two"], "argument --rounds: not a whole number: 'two'"),
])
def test_simulate_refuses_values_outside_the_range(capsys, tmp_path, options, message) -> None:
    out = tmp_path / "out"
    last = refused_by_argparse(capsys, "simulate", "vitorian", "--out", out, "--quiet",
                               *options)
    assert last.startswith(f"postgame simulate: error: {message}"), last
    assert not out.exists()


@pytest.mark.parametrize(("players", "rounds", "most"), [(4, 4, 3), (5, 6, 5), (2, 2, 1)])
def test_simulate_refuses_more_rounds_than_opponents(capsys, tmp_path, players, rounds,
                                                     most) -> None:
    out = tmp_path / "out"
    code, _, err = run(capsys, "simulate", "vitorian", "--players", players, "--rounds", rounds,
                       "--out", out, "--quiet")
    assert code == 2 and not out.exists()
    assert one_line(err) == (f"postgame simulate: --rounds {rounds}: a Swiss tournament of "
                             f"{players} players has 1 to {most} rounds (one per opponent)")


@pytest.mark.parametrize(("argv", "message"), [
    (["stats", "--limit", "0"], "argument --limit: must be from 1 to 9223372036854775807"),
    (["stats", "--min-sample", "1" + "0" * 45],
     f"argument --min-sample: 1{'0' * 20}... is out of range: {SEEDS}"),
    (["matchups", "--min-sample", "-1"], "argument --min-sample: not a count"),
    (["export", "--out", "x", "--min-sample", str(2**63)], "argument --min-sample: "),
    (["charges", "--movers", "0"], "argument --movers: 0 is out of range: choose 1 to "),
    (["charges", "--movers", "-3"], "argument --movers: -3 is out of range"),
    (["charges", "--epoch", "-1"], "argument --epoch: -1 is out of range: choose 0 to "),
])
def test_lake_commands_refuse_counts_outside_the_range(capsys, tmp_path, argv, message) -> None:
    last = refused_by_argparse(capsys, *argv, "--lake", tmp_path, "--game", "vitorian")
    assert last.startswith(f"postgame {argv[0]}: error: {message}"), last


def test_app_refuses_a_lake_that_is_a_file_and_ports_outside_the_range(capsys,
                                                                       tmp_path) -> None:
    lake = tmp_path / "lake.txt"
    lake.write_text("")
    code, out, err = run(capsys, "app", "--lake", lake)
    assert code == 2 and out == ""
    assert one_line(err).startswith(f"postgame app: {lake}: is a file, not a lake folder")
    for port in ("0", "65536", "-80"):
        last = refused_by_argparse(capsys, "app", "--lake", tmp_path, "--port", port)
        assert last == (f"postgame app: error: argument --port: {port} is out of range: "
                        "choose 1 to 65535")
