"""Tables that never drop or cut a column silently: `postgame stats`, `matchups` and `charges`
on a narrow terminal (COLUMNS), piped (no width), and with --columns A,B,... The model's column
lists are read from the frames the commands print (--json, --csv), never written out here:
the models gain columns."""
from __future__ import annotations

import contextlib
import csv
import io
import json
import re

import pytest
from rich.cells import cell_len

from pipeline.export import SHOWN
from postgame import cli
from postgame.commands import charges as charges_command
from postgame.commands.screen import Screen, TableColumn
from postgame.commands.stats import NARROW

LEFT_OUT = re.compile(r"Left out to fit (\d+) characters: (\d+) of (\d+) columns \(([^)]*)\)")
MORE = re.compile(r"(\d+) more columns of (\w+)")


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    """`postgame simulate vitorian --players 8 --rounds 3 --seed 1`, ingested: 12 matches."""
    root = tmp_path_factory.mktemp("columns")
    assert cli.main(["simulate", "vitorian", "--players", "8", "--rounds", "3", "--seed", "1",
                     "--out", str(root / "logs"), "--quiet"]) == 0
    assert cli.main(["ingest", str(root / "logs"), "--lake", str(root / "lake"),
                     "--quiet"]) == 0
    return root / "lake"


@pytest.fixture(scope="module")
def cards(lake):
    """The card usage frame's columns (its --csv header) and rows (--json), read once."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["stats", "--lake", str(lake), "--csv", "--limit", "1"]) == 0
    columns = next(csv.reader(io.StringIO(out.getvalue())))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["stats", "--lake", str(lake), "--json"]) == 0
    return columns, json.loads(out.getvalue())["rows"]


@pytest.fixture
def piped(monkeypatch):
    """stdout is pytest's capture (no terminal) and no COLUMNS: a pipe."""
    monkeypatch.delenv("COLUMNS", raising=False)


def frame_columns(capsys, *argv):
    """The columns of what a command prints, as its --csv header gives them."""
    code, out, err = run(capsys, *argv, "--csv")
    assert code == 0, err
    return next(csv.reader(io.StringIO(out)))


def note_of(out):
    """The line under the table (one logical line, however the terminal wrapped it)."""
    lines = out.rstrip("\n").split("\n")
    start = max(i for i, line in enumerate(lines)
                if line.startswith(("Left out to fit", "Not in this table")))
    return " ".join(line.strip() for line in lines[start:])


def header_text(out):
    """The header rows of the (last) table: the lines right above its rule (the stats' tables
    have a blank line over them, the charges' a vertical rule in them)."""
    lines = out.split("\n")
    rule = max(i for i, line in enumerate(lines) if "───" in line or "━━━" in line)
    heavy = "━" in lines[rule]
    top = rule
    while top > 0 and lines[top - 1].strip() and (not heavy or "┃" in lines[top - 1]):
        top -= 1
    return " ".join(lines[top:rule]).replace("┃", " ")


def accounted(out, model, columns):
    """Check every column of the frame is in the table (by its header, or as the interval of a
    shown rate) or said in the line under it, named or counted; return the left-out names."""
    shown = SHOWN[model]
    note = note_of(out)
    left = []
    if found := LEFT_OUT.search(note):
        left = found.group(4).split(", ")
        assert int(found.group(2)) == len(left) and int(found.group(3)) == len(shown)
    heads = header_text(out).split()
    said = set()  # in the table, or named as left out (a rate with its interval)
    for col in shown:
        if col.name not in left:
            assert all(word in heads for word in col.header.split()), (col.header, heads)
        said.add(col.name)
        if col.kind in ("rate", "diff"):
            said |= {f"{col.name}_low", f"{col.name}_high"}
    rest = [c for c in columns if c not in said]
    counted = MORE.search(note)
    if counted:
        assert counted.groups() == (str(len(rest)), model), note
    else:
        assert all(re.search(rf"\b{re.escape(name)}\b", note) for name in rest), (rest, note)
    assert "--columns" in note and "--json" in note
    return left


# --- piped: every column of the table, at full width --------------------------------------

@pytest.mark.parametrize("table, model", [("cards", "card_usage"),
                                          ("factions", "faction_win_rates")])
def test_piped_stats_print_every_column_whole(capsys, lake, piped, table, model):
    columns = frame_columns(capsys, "stats", "--lake", lake, "--table", table)
    code, out, _ = run(capsys, "stats", "--lake", lake, "--table", table)
    assert code == 0
    assert accounted(out, model, columns) == [], "a pipe leaves no column out"
    assert "…" not in out and all(line == line.rstrip() for line in out.splitlines())
    rows = json.loads(run(capsys, "stats", "--lake", lake, "--table", table, "--json")[1])["rows"]
    texts = [col.name for col in SHOWN[model] if col.kind == "text"]
    assert rows and all(str(row[name]) in out for row in rows for name in texts), "never cut"


def test_piped_matchups_show_the_matrix_and_every_pair_column(capsys, lake, piped):
    columns = frame_columns(capsys, "matchups", "--lake", lake)
    code, out, _ = run(capsys, "matchups", "--lake", lake)
    assert code == 0 and "vs" in out and "every pair, from the row faction's side" in out
    assert "Left out" not in out
    assert accounted(out, "matchups", columns) == []


# --- a narrow terminal: whole columns left out, and said ------------------------------------

@pytest.mark.parametrize("width", [40, 60, 80, 100])
def test_narrow_stats_name_what_they_leave_out(capsys, lake, cards, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    columns, rows = cards
    code, out, _ = run(capsys, "stats", "--lake", lake)
    assert code == 0
    assert max(cell_len(line) for line in out.splitlines()) <= width
    assert "…" not in out
    left = accounted(out, "card_usage", columns)
    assert left, f"13 columns do not fit {width} characters"
    kept = [c.name for c in SHOWN["card_usage"] if c.name not in left]
    if width >= 80:  # the columns a narrow terminal keeps longest are all there
        assert set(NARROW["card_usage"]) <= set(kept)
    words = set(out.split())
    assert all(set(row["card_name"].split()) <= words for row in rows), "names wrap, whole"


def test_a_terminal_that_fits_everything_leaves_nothing_out(capsys, lake, cards, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    code, out, _ = run(capsys, "stats", "--lake", lake)
    assert code == 0 and "Left out" not in out
    assert accounted(out, "card_usage", cards[0]) == []


def test_the_width_is_the_terminals_or_columns_and_a_pipe_has_none(monkeypatch):
    from rich.console import Console

    from postgame.commands.screen import table_width

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert table_width() is None  # not rich's guess (80, or stderr's terminal's width)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    assert table_width() == Console().width
    monkeypatch.setenv("COLUMNS", "70")
    assert table_width() == 70
    monkeypatch.setattr("sys.stdout.isatty", lambda: False, raising=False)
    assert table_width() == 70, "a pipe told its width by COLUMNS fits it"


def test_narrow_matchups_leave_out_opponents_and_say_where_they_are(capsys, lake, monkeypatch):
    monkeypatch.setenv("COLUMNS", "36")
    code, out, _ = run(capsys, "matchups", "--lake", lake)
    assert code == 0 and max(cell_len(line) for line in out.splitlines()) <= 36
    matrix = out.split("every pair, from the row faction's side")[0]
    assert "Left out to fit 36 characters" in matrix
    assert "the list below has every pair" in " ".join(matrix.split())
    assert {"win", "rate"} <= set(header_text(out).split()), "the list keeps its win rate"


# --- --columns: exactly those, everywhere -----------------------------------------------------

ASKED = ["win_rate_when_drawn", "card_name", "drawn", "deck_win_rate_low"]


def test_columns_pick_exactly_the_asked_columns_in_order(capsys, lake, piped):
    code, out, _ = run(capsys, "stats", "--lake", lake, "--columns", ",".join(ASKED))
    assert code == 0
    assert header_text(out).split() == ASKED
    assert "Left out" not in out and "Not in this table" not in out
    data = json.loads(run(capsys, "stats", "--lake", lake, "--columns", ",".join(ASKED),
                          "--json")[1])
    assert all(list(row) == ASKED for row in data["rows"]) and data["rows"]
    assert frame_columns(capsys, "stats", "--lake", lake, "--columns", ",".join(ASKED)) == ASKED


def test_columns_are_wrapped_not_dropped_on_a_narrow_terminal(capsys, lake, monkeypatch):
    monkeypatch.setenv("COLUMNS", "50")
    code, out, _ = run(capsys, "stats", "--lake", lake, "--columns", "card_name,card,included")
    assert code == 0 and "Left out" not in out
    assert header_text(out).split() == ["card_name", "card", "included"]
    assert max(cell_len(line) for line in out.splitlines()) <= 50


def test_matchups_columns_print_the_list_alone(capsys, lake, piped):
    code, out, _ = run(capsys, "matchups", "--lake", lake, "--columns", "opponent_faction,n")
    assert code == 0 and "vs" not in out.split() and "mirror n=" not in out
    assert header_text(out).split() == ["opponent_faction", "n"]
    assert frame_columns(capsys, "matchups", "--lake", lake, "--columns",
                         "win_rate,faction") == ["win_rate", "faction"]
    data = json.loads(run(capsys, "matchups", "--lake", lake, "--columns", "faction,n",
                          "--json")[1])
    assert {tuple(row) for row in data["matchups"]} == {("faction", "n")}


@pytest.mark.parametrize("command", ["stats", "matchups"])
def test_an_unknown_column_is_a_clear_user_error(capsys, lake, command):
    columns = frame_columns(capsys, command, "--lake", lake)
    for extra in ([], ["--json"], ["--csv"]):
        code, out, err = run(capsys, command, "--lake", lake, "--columns", "faction,charisma",
                             *extra)
        assert (code, out) == (2, "") and err.count("\n") == 1, err
        assert err.startswith(f"postgame {command}: --columns: ") and "'charisma'" in err
        assert err.rstrip().endswith(", ".join(columns)), "it lists the known columns"
    near = {"stats": ("card_nmae", "card_name"), "matchups": ("opponent_factoin",
                                                             "opponent_faction")}[command]
    code, _, err = run(capsys, command, "--lake", lake, "--columns", near[0])
    assert code == 2 and f"(did you mean {near[1]}?)" in err


@pytest.mark.parametrize("value, message", [(",", "name at least one column"),
                                            ("n,n", "n named twice")])
def test_a_malformed_column_list_is_a_usage_error(capsys, lake, value, message):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["stats", "--lake", str(lake), "--columns", value])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("command", ["stats", "matchups", "charges"])
def test_help_explains_columns_with_an_example(capsys, command):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--columns A,B,..." in out and "print exactly these columns, in this order" in out
    assert re.search(rf"postgame {command} --lake lake --game vitorian .*--columns \w+,\w+", out)


# --- charges ---------------------------------------------------------------------------------

@pytest.fixture
def charges(monkeypatch, tmp_path):
    """`postgame charges` over the red-starter season of tests/pipeline/test_charges.py."""
    from tests.pipeline.test_charges import red_lake

    monkeypatch.setattr(charges_command, "connect_lake", lambda root, args=None: red_lake())

    def call(capsys, *argv):
        return run(capsys, "charges", "--lake", tmp_path, "--game", "vitorian", *argv)
    return call


def test_charges_narrow_and_piped(capsys, charges, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = charges(capsys)
    assert code == 0 and "Left out" not in out and "Marechal Zahir" in out
    columns = next(csv.reader(io.StringIO(charges(capsys, "--csv")[1])))
    note = note_of(out)
    shown = [key for key, _ in charges_command.CARD_COLUMNS]
    assert all(re.search(rf"\b{name}\b", note) for name in columns if name not in shown)
    monkeypatch.setenv("COLUMNS", "40")
    code, out, _ = charges(capsys)
    assert code == 0 and max(cell_len(line) for line in out.splitlines()) <= 40
    left = LEFT_OUT.search(note_of(out)).group(4).split(", ")
    assert left and left == [k for k, _ in charges_command.CARD_COLUMNS[-len(left):]]


def test_charges_history_leaves_out_the_oldest_epoch_first(capsys, charges, monkeypatch):
    lefts = []
    for width in (20, 24, 28, 32, 36, 40, 60):
        monkeypatch.setenv("COLUMNS", str(width))
        code, out, _ = charges(capsys, "--history")
        found = LEFT_OUT.search(note_of(out))
        left = set(found.group(4).split(", ")) if found else set()
        assert code == 0 and ("e1" not in left or "name" in left) and (not left or "e0" in left)
        assert left.isdisjoint(header_text(out).split())
        lefts.append(left)
    assert set() in lefts and {"e0"} in lefts and {"e0", "name"} in lefts


def test_charges_columns(capsys, charges, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = charges(capsys, "--columns", "charge,name")
    assert code == 0 and header_text(out).split() == ["charge", "name"]
    assert charges(capsys, "--columns", "charge,name", "--csv")[1].startswith("charge,name\n")
    data = json.loads(charges(capsys, "--movers", "2", "--columns", "delta,card", "--json")[1])
    assert [list(row) for row in data["movers"]] == [["delta", "card"]] * 2
    code, out, _ = charges(capsys, "--history", "--columns", "name,e1")
    assert code == 0 and header_text(out).split() == ["name", "e1"]
    code, _, err = charges(capsys, "--history", "--columns", "e1", "--csv")
    assert code == 2 and "one row a card and epoch" in err and "epoch, charge" in err
    code, out, err = charges(capsys, "--columns", "card,price")
    assert (code, out) == (2, "") and "no column 'price'" in err and "smoothed_share" in err
    code, _, err = charges(capsys, "--deck", "deck.txt", "--columns", "card")
    assert code == 2 and "drop it with --deck" in err


# --- the fitting itself -----------------------------------------------------------------------

def test_a_word_longer_than_the_screen_folds_and_loses_nothing(capsys):
    word = "x" * 50
    Screen(width=20).table([TableColumn("a", "a", [word]), TableColumn("b", "b", ["y"])])
    out = capsys.readouterr().out
    assert "…" not in out and "".join(out.split()).count("x") == 50
    assert "Left out to fit 20 characters: 1 of 2 columns (b)" in note_of(out)
