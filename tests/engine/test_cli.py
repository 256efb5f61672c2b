"""The command line as a person uses it: help, clear one-line errors, and the toy game's
simulate -> verify -> replay -> convert round."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from postgame import cli
from postgame.commands import replay as replay_command

ROOT = Path(__file__).resolve().parents[2]
SUBCOMMANDS = [["simulate"], ["verify"], ["replay"], ["log"], ["log", "convert"], ["deck"],
               ["deck", "check"], ["rulesets"], ["games"]]


def first_log(folder):
    return min(folder.rglob("*.pglog"))


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("words", SUBCOMMANDS, ids=" ".join)
def test_every_command_has_help(capsys, words):
    with pytest.raises(SystemExit) as exit_:
        cli.main([*words, "--help"])
    assert exit_.value.code == 0
    assert "usage: postgame" in capsys.readouterr().out


def test_console_script_runs():
    exe = Path(sys.executable).with_name("postgame")
    done = subprocess.run([str(exe), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "examples:" in done.stdout


def test_rulesets_and_games_list_the_toy_game(capsys):
    code, out, _ = run(capsys, "rulesets", "--json")
    assert code == 0 and {"key": "toy@1", "game": "toy"} in json.loads(out)
    code, out, _ = run(capsys, "games")
    assert code == 0 and "toy: ruleset toy@1; archetypes low, high, mixed" in out


def test_games_lists_each_games_metadata(capsys):
    code, out, _ = run(capsys, "games", "--json")
    meta = {row["game"]: row["metadata"] for row in json.loads(out)}
    assert code == 0 and {"vitorian", "eredan", "toy"} <= set(meta)
    for game, prefix in (("vitorian", "vw"), ("eredan", "er")):
        m = meta[game]
        assert (m["prefix"], m["min_seats"], m["max_seats"], len(m["sides"])) == (prefix, 2, 2, 2)
        assert m["symmetric"] and m["chance"] and not m["storyteller"]
        assert m["information"] == "hidden" and "board" in m["capabilities"]
    code, out, _ = run(capsys, "games")
    assert "Vitorian Wars (tournaments vw-...): 2 seats; symmetric; chance; no Storyteller" in out


def test_deck_check_lists_every_broken_rule(capsys, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("name: lows\n[Deck]\n4 1\n4 2\n")
    code, out, _ = run(capsys, "deck", "check", "toy", good)
    assert (code, out.splitlines()[0]) == (0, f"legal ({good}, Toy Duel deck 'lows')")
    bad = tmp_path / "bad.txt"
    bad.write_text("[Deck]\n5 1\n1 joker\n")
    code, out, _ = run(capsys, "deck", "check", "toy", bad, "--json")
    assert code == 1
    assert [p["rule"] for p in json.loads(out)["problems"]] == ["TOY-D3", "TOY-D2"]


def test_user_errors_are_one_line_with_exit_2(capsys, tmp_path):
    for argv in (["deck", "check", "toy", tmp_path / "none.txt"],
                 ["deck", "check", "chess", tmp_path / "none.txt"],
                 ["simulate", "chess", "--out", tmp_path],
                 ["replay", tmp_path / "none.pglog"],
                 ["verify", tmp_path / "nowhere"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "", argv
        assert err.count("\n") == 1 and "Traceback" not in err, err
    line = tmp_path / "line.txt"
    line.write_text("[Deck]\nfour of a kind\n")
    code, _, err = run(capsys, "deck", "check", "toy", line)
    assert code == 2 and f"{line}:2:" in err


# With logs: needs events.log --------------------------------------------------------------

@pytest.fixture(scope="module")
def season(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    code = cli.main(["simulate", "toy", "--players", "5", "--rounds", "2", "--seed", "3",
                     "--out", str(out), "--quiet", "--json"])
    assert code == 0
    return out


def test_simulate_json_summary_names_every_log(season, capsys):
    code, out, _ = run(capsys, "simulate", "toy", "--players", "5", "--rounds", "2", "--seed",
                       "3", "--out", season, "--quiet", "--json")
    data = json.loads(out)
    paths = [m["path"] for t in data["tournaments"] for m in t["matches"]]
    assert code == 0 and len(paths) == 4 and all(Path(p).is_file() for p in paths)
    assert data["tournaments"][0]["standings"][0]["rank"] == 1


def test_verify_accepts_simulated_logs(season, capsys):
    code, out, err = run(capsys, "verify", season)
    assert (code, out) == (0, "") and "verified 4 logs: 0 bad" in err


def test_verify_names_file_seq_and_rule_of_an_illegal_event(season, capsys, tmp_path):
    from events.log import read_log, write_log
    from tests.engine import toy_game

    src = first_log(season)
    log = read_log(src)
    events = list(log.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, toy_game.Play))
    events[at] = toy_game.Play(seat=events[at].seat, card=4242)
    bad = tmp_path / "bad.pglog"
    write_log(bad, log.header, events)
    code, out, _ = run(capsys, "verify", bad, src)
    assert code == 1
    assert out == f"{bad}: seq {at + 1}: TOY-5: card 4242 is not in seat {events[at].seat}'s hand\n"


def test_verify_reports_damage_and_unknown_rulesets(season, capsys, tmp_path):
    from events.log import read_log, write_log

    src = first_log(season)
    damaged = tmp_path / "damaged.pglog"
    data = bytearray(src.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    log = read_log(src)
    unknown = tmp_path / "unknown.pglog"
    import msgspec
    write_log(unknown, msgspec.structs.replace(log.header, ruleset="toy@9"), list(log.events))
    code, out, _ = run(capsys, "verify", tmp_path, "--json")
    found = {Path(f["path"]).name: f for f in json.loads(out)["logs"]}
    assert code == 1
    assert found["damaged.pglog"]["rule"] == "LOG"
    assert found["unknown.pglog"]["rule"] == "RULESET"


def test_replay_one_step_as_each_perspective(season, capsys):
    log = first_log(season)
    code, out, _ = run(capsys, "replay", log, "--turn", "1", "--json")
    organiser = json.loads(out)
    assert code == 0 and organiser["turn"] == 1
    assert all(isinstance(s["hand"], list) for s in organiser["view"]["seats"])
    _, out, _ = run(capsys, "replay", log, "--step", str(organiser["step"]), "--as", "1",
                    "--json")
    seat1 = json.loads(out)
    assert isinstance(seat1["view"]["seats"][0]["hand"], int)
    assert all(c.get("card") is None for c in seat1["changes"] if c.get("secret_to") == 0)
    assert seat1["event"]["hidden"] is True  # the shuffle that started turn 1 is chance
    code, _, err = run(capsys, "replay", log, "--step", "9999")
    assert code == 2 and "outside" in err


def test_replay_without_tty_prints_every_step(season, capsys):
    log = first_log(season)
    code, out, _ = run(capsys, "replay", log, "--as", "spectator")
    assert code == 0 and out.startswith("step 0/") and "\nend: " in out
    assert "shuffle (details hidden)" in out


def test_interactive_keys(season, capsys, monkeypatch):
    log = first_log(season)
    keys = iter(["", "n", "p", "g 3", "t 2", "a 0", "x", "g", "q"])
    monkeypatch.setattr(replay_command, "_interactive", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(keys))
    code, out, _ = run(capsys, "replay", log)
    assert code == 0
    assert "step 1/" in out and "step 3/" in out and "turn 2" in out
    assert "unknown key 'x'" in out and "'g' needs a number" in out


def test_convert_round_trip_is_lossless(season, capsys, tmp_path):
    src = first_log(season)
    jsonl, back = tmp_path / "m.jsonl", tmp_path / "m.pglog"
    assert run(capsys, "log", "convert", src, jsonl)[0] == 0
    assert run(capsys, "log", "convert", jsonl, back)[0] == 0
    assert back.read_bytes() == src.read_bytes()
    code, _, err = run(capsys, "log", "convert", src, tmp_path / "m.txt")
    assert code == 2 and "--to" in err


def test_verify_reads_json_lines_and_reports_a_torn_tail(season, capsys, tmp_path):
    src = first_log(season)
    jsonl = tmp_path / "m.jsonl"
    assert run(capsys, "log", "convert", src, jsonl)[0] == 0
    torn = tmp_path / "torn.pglog"
    torn.write_bytes(src.read_bytes() + b"\x40\x00")
    code, out, _ = run(capsys, "verify", tmp_path, "--json")
    found = {Path(f["path"]).name: f for f in json.loads(out)["logs"]}
    assert code == 1 and found["m.jsonl"]["ok"] and found["m.jsonl"]["finished"]
    assert found["torn.pglog"]["rule"] == "LOG" and "torn tail" in found["torn.pglog"]["reason"]
    assert found["torn.pglog"]["seq"] == found["torn.pglog"]["events"] + 1
