"""One verdict over every rule of a deck list, the same from `postgame deck check` and
`postgame charges --deck`: construction problems first (the ones that cause others before
them), each with its line, then the cap or why it was not checked."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.decklist import parse_decklist
from pipeline.deck_verdict import judge_deck
from postgame import cli
from postgame.commands import charges as charges_command
from tests.pipeline.test_charges import red_lake

ROOT = Path(__file__).resolve().parents[2]
RED = ROOT / "data" / "vitorian" / "decks" / "red.txt"
ZIL = ROOT / "data" / "eredan" / "decks" / "zil.txt"
GRENADIERS = 11  # the line of "4 Steel Grenadiers" in red.txt


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def red_with(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "deck.txt"
    text = RED.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return path


@pytest.fixture
def lake(monkeypatch, tmp_path):
    """A lake folder whose connection is the red-starter season (epoch 1: every card at 17)."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(charges_command, "connect_lake", lambda root, args=None: red_lake())
    return tmp_path


def test_a_51_card_deck_with_five_copies_is_illegal_in_both_commands(capsys, tmp_path, lake):
    deck = red_with(tmp_path, "4 Steel Grenadiers", "5 Steel Grenadiers")
    code, out, _ = run(capsys, "deck", "check", "vitorian", deck)
    assert code == 1
    assert out.splitlines() == [
        f"not legal: 2 problems ({deck}, Vitorian Wars deck 'Steel Sultanate Starter')",
        "  VW-3.3: the Maneuver Deck needs exactly 50 cards, found 51",
        f"  VW-3.5: 5 copies of Steel Grenadiers; at most 4 (line {GRENADIERS})",
        "charge cap not checked: no lake given (--lake LAKE checks the charge cap)"]
    code, out, _ = run(capsys, "charges", "--lake", lake, "--game", "vitorian", "--deck", deck,
                       "--tournament", "vw-02", "--json")
    verdict = json.loads(out)
    assert code == 1 and not verdict["legal"] and verdict["cap_checked"]
    assert [(p["rule"], p["line"]) for p in verdict["problems"]] == [
        ("VW-3.3", None), ("VW-3.5", GRENADIERS)]
    assert verdict["charge"]["charge"] == 0 and verdict["charge"]["within_cap"]


def test_both_commands_give_the_same_verdict_over_the_cap(capsys, tmp_path, lake):
    deck = red_with(tmp_path, "4 Steel Grenadiers", "5 Steel Grenadiers")
    code, out, _ = run(capsys, "deck", "check", "vitorian", deck, "--lake", lake, "--json")
    from_deck = json.loads(out)
    code2, out, _ = run(capsys, "charges", "--lake", lake, "--game", "vitorian", "--deck", deck,
                        "--json")
    assert (code, from_deck) == (code2, json.loads(out))
    assert [p["rule"] for p in from_deck["problems"]] == ["VW-3.3", "VW-3.5", "CH-2.8"]
    assert from_deck["charge"]["charge"] == 52 * 17 and not from_deck["charge"]["within_cap"]
    code, out, _ = run(capsys, "charges", "--lake", lake, "--game", "vitorian", "--deck", deck)
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("not legal: 3 problems")
    assert lines[3].startswith("  CH-2.8: deck charge 884 is over the cap of 500")
    assert lines[4] == "charge 884 / cap 500: over the cap (vitorian standard, table of epoch 1)"


def test_the_legal_starter_is_legal_with_and_without_a_lake(capsys, lake):
    code, out, _ = run(capsys, "deck", "check", "vitorian", RED)
    assert code == 0 and out.startswith(f"legal ({RED}, Vitorian Wars deck")
    code, out, _ = run(capsys, "charges", "--lake", lake, "--game", "vitorian", "--deck", RED,
                       "--date", "2026-01-06", "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["legal"] and verdict["cap_checked"]
    assert verdict["cap_note"] == "checked against the cap of 500 in the table of epoch 0"


def test_an_unknown_card_is_suggested_and_leaves_the_charge_unknown(capsys, tmp_path, lake):
    deck = red_with(tmp_path, "4 Steel Grenadiers", "4 Steel Granadiers")
    code, out, _ = run(capsys, "charges", "--lake", lake, "--game", "vitorian", "--deck", deck)
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("not legal: 1 problem (")
    assert lines[1] == ("  VW-3.17: [maneuver] entry 3: unknown card 'Steel Granadiers'; did you "
                        f"mean Steel Grenadiers? (line {GRENADIERS})")
    assert lines[2] == ("charge cap not checked: the charge could not be computed: unknown card "
                        "'Steel Granadiers'")
    assert "over the cap" not in out and "CH-2.9" not in out


def test_a_section_typo_comes_first_and_the_charge_is_not_guessed(capsys, tmp_path, lake):
    deck = red_with(tmp_path, "[Maneuver]", "[Maneuvre]")
    code, out, _ = run(capsys, "deck", "check", "vitorian", deck, "--lake", lake, "--json")
    verdict = json.loads(out)
    first = verdict["problems"][0]
    assert code == 1 and first["rule"] == "VW-3.17" and first["line"] == 8
    assert first["reason"].startswith("unknown section [maneuvre]")
    assert first["reason"].endswith("did you mean [maneuver]?")
    assert verdict["charge"] is None
    assert verdict["cap_note"] == ("the charge could not be computed: unknown section "
                                   "[maneuvre]")


@pytest.mark.parametrize(("game", "path", "said"), [
    ("eredan", RED, "this looks like a Vitorian Wars deck, not an Eredan iTCG one"),
    ("vitorian", ZIL, "this looks like an Eredan iTCG deck, not a Vitorian Wars one")])
def test_a_deck_of_another_game_says_so_in_one_line(capsys, game, path, said):
    code, out, _ = run(capsys, "deck", "check", game, path)
    lines = out.splitlines()
    assert code == 1 and len(lines) == 3 and lines[0].startswith("not legal: 1 problem (")
    assert said in lines[1]


def test_the_game_without_charges_or_a_lake_says_why_the_cap_was_not_checked(capsys, lake):
    code, out, _ = run(capsys, "charges", "--lake", lake, "--game", "vitorian", "--format",
                       "draft", "--deck", RED, "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["legal"] and not verdict["cap_checked"]
    assert "vitorian has no charges in format 'draft'" in verdict["cap_note"]
    verdict = judge_deck("vitorian", parse_decklist(RED.read_text()))
    assert verdict.legal and verdict.charge is None and verdict.cap_note


def test_an_unknown_tournament_and_a_bad_file_are_user_errors(capsys, tmp_path, lake):
    code, _, err = run(capsys, "deck", "check", "vitorian", RED, "--lake", lake,
                       "--tournament", "vw-99")
    assert code == 2 and "'vw-99' is not a tournament of vitorian" in err
    bad = tmp_path / "bad.txt"
    bad.write_text("[Maneuver]\nfour Steel Grenadiers\n")
    code, _, err = run(capsys, "charges", "--lake", lake, "--game", "vitorian", "--deck", bad)
    assert code == 2 and f"{bad}:2:" in err


def test_a_json_deck_has_no_lines(capsys, tmp_path):
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"sections": {"maneuver": [{"card": "Steel Grenadiers",
                                                           "count": 5}]}}))
    code, out, _ = run(capsys, "deck", "check", "vitorian", deck, "--json")
    assert code == 1 and {p["line"] for p in json.loads(out)["problems"]} == {None}

