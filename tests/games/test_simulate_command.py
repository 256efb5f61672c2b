"""`postgame simulate` in each format, as a person runs it: role rotation with --seats, a sweep
with --scenario and --matches, --json summaries, and one-line refusals of what a format does not
take."""
from __future__ import annotations

import json

import pytest

from tests.engine import toy_game  # noqa: F401 (registers the toy, a two-seat Swiss game)
from tests.games.checks import cli


def test_simulate_a_role_rotation_at_tables_of_three(capsys, tmp_path):
    code, out, _ = cli(capsys, "simulate", "hunt", "--seats", "3", "--players", "6",
                       "--rounds", "3", "--out", tmp_path, "--quiet", "--json")
    data = json.loads(out)
    (tour,) = data["tournaments"]
    assert code == 0 and (data["format"], data["seats"]) == ("roles", 3)
    assert len(tour["matches"]) == 6 and set(tour["roles"]) == {"fox", "hound"}
    assert all(len(m["seats"]) == 3 for m in tour["matches"])
    code, out, err = cli(capsys, "verify", tmp_path, "--complete")
    assert code == 0 and "verified 6 logs: 0 bad" in err


def test_simulate_a_sweep_from_a_scenario_file(capsys, tmp_path):
    scenario = tmp_path / "ambush.toml"
    scenario.write_text('name = "ambush"\ntitle = "An ambush"\nstrength = 6\nrounds = 4\n')
    code, out, _ = cli(capsys, "simulate", "bid", "--scenario", scenario, "--matches", "2",
                       "--seats", "4", "--out", tmp_path / "logs", "--quiet", "--json")
    (tour,) = json.loads(out)["tournaments"]
    assert code == 0 and len(tour["matches"]) == 2 * 9
    assert {p["played"] for p in tour["pairings"]} == {2} and set(tour["sides"]) == {"red", "blue"}
    from events.log import read_log

    log = read_log(tour["matches"][0]["path"])
    assert log.header.scenario.name == "ambush" and len(log.header.seats) == 4


def test_simulate_prints_standings_per_role_and_per_side(capsys, tmp_path):
    code, out, _ = cli(capsys, "simulate", "hunt", "--out", tmp_path / "h", "--quiet")
    assert code == 0 and "as fox" in out and "as hound" in out and "8 match logs" in out
    code, out, _ = cli(capsys, "simulate", "bid", "--out", tmp_path / "b", "--quiet")
    assert code == 0 and "on side red" in out and "pairings" in out


@pytest.mark.parametrize(("argv", "says"), [
    (["toy", "--seats", "3"], "toy is played at tables of 2 seats only"),
    (["hunt", "--seats", "6"], "tables of 2, 3, 4, 5 seats, not 6"),
    (["hunt", "--seats", "3", "--players", "7"], "choose a multiple of 3"),
    (["hunt", "--matches", "2"], "--matches: hunt is played in roles rounds"),
    (["hunt", "--scenario", "siege"], "hunt is not played from scenarios"),
    (["bid", "--players", "4"], "a sweep seats the game's builds"),
    (["bid", "--rounds", "4"], "a sweep seats the game's builds"),
    (["bid", "--scenario", "picnic"], "no scenario 'picnic'"),
])
def test_what_a_format_does_not_take_is_refused_in_one_line(capsys, tmp_path, argv, says):
    code, out, err = cli(capsys, "simulate", *argv, "--out", tmp_path)
    assert (code, out) == (2, "") and says in err and err.count("\n") == 1
    assert not any(tmp_path.iterdir())


def test_simulate_help_teaches_every_format(capsys):
    with pytest.raises(SystemExit):
        cli(capsys, "simulate", "--help")
    out = capsys.readouterr().out
    assert all(word in out for word in ("--seats", "--scenario", "--matches", "swiss",
                                        "roles", "sweep"))
