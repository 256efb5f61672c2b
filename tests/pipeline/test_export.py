"""A usage report as the person it is sent to meets it: each form is written, holds the same
numbers as the metrics, says what it covers (filters, days, matches, rules, when made), and the
HTML page opens with no network at all."""
from __future__ import annotations

import html
import json
import re
import sys
from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from pipeline import export, metrics
from pipeline.metrics import Scope
from tests.pipeline.test_metrics import cli, connect, random_facts, story_facts, write_lake

MADE_AT = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
SCOPE = Scope("vitorian", "standard", date(2026, 1, 1), date(2026, 2, 28))
TABLES = ["coverage", "card_usage", "matchups", "first_player", "faction_win_rates",
          "deck_archetypes", "matchup_matrix"]


@pytest.fixture(scope="module")
def season_con():
    return connect(random_facts())


@pytest.fixture(scope="module")
def written(season_con, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    report, paths = export.export(season_con, SCOPE, out, source={"lake": "/lakes/test"},
                                  made_at=MADE_AT)
    return report, paths, out


def test_every_form_is_written(written):
    _, paths, out = written
    names = {p.name for p in paths}
    for table in TABLES:
        assert {f"{table}.csv", f"{table}.parquet"} <= names
    assert {"report.xlsx", "report.html", "about.json"} <= names
    assert all(p.parent == out and p.stat().st_size > 0 for p in paths)


def test_the_files_hold_the_metrics_numbers(written, season_con):
    _, _, out = written
    usage = metrics.card_usage(season_con, "vitorian", "standard", "2026-01-01", "2026-02-28")
    from_csv = pd.read_csv(out / "card_usage.csv")
    from_parquet = pq.read_table(out / "card_usage.parquet").to_pandas()
    from_excel = pd.read_excel(out / "report.xlsx", sheet_name="card_usage")
    for frame in (from_csv, from_parquet, from_excel):
        assert list(frame.columns) == list(usage.columns)
        assert list(frame["card"]) == list(usage["card"])
        for col in ("included", "win_rate_when_drawn_low", "improvement_when_drawn_high"):
            assert frame[col].astype(float).fillna(-1).tolist() == pytest.approx(
                usage[col].astype(float).fillna(-1).tolist(), abs=1e-12)


def test_each_form_states_what_it_covers(written):
    report, _, out = written
    about = json.loads((out / "about.json").read_text())
    assert about["filters"] == {"game": "vitorian", "format": "standard", "from": "2026-01-01",
                                "to": "2026-02-28", "min_sample": "0"}
    assert about["matches"] == int(report.tables["coverage"]["matches"].sum()) > 0
    assert about["ruleset_versions"] == ["vitorian@1"]
    assert about["made_at"] == "2026-03-01T09:30:00+00:00"
    assert "2026-01-01" <= about["first_day"] <= about["last_day"] <= "2026-02-28"
    meta = pq.read_schema(out / "matchups.parquet").metadata[b"postgame.about"]
    assert json.loads(meta)["filters"]["format"] == "standard"
    sheet = pd.read_excel(out / "report.xlsx", sheet_name="about").set_index("what")["value"]
    assert sheet["format"] == "standard" and sheet["from"] == "2026-01-01"
    assert sheet["matches"] == about["matches"] and sheet["ruleset versions"] == "vitorian@1"
    assert sheet["made at"] == about["made_at"] and sheet["lake"] == "/lakes/test"


def test_the_workbook_has_about_first_then_one_sheet_per_table(written):
    from openpyxl import load_workbook

    book = load_workbook(written[2] / "report.xlsx")
    assert book.sheetnames[0] == "about"
    assert set(TABLES) <= set(book.sheetnames)
    usage = book["card_usage"]
    header = [c.value for c in usage[1]]
    rate = usage.cell(row=2, column=header.index("inclusion_rate") + 1)
    assert rate.number_format == "0.0%" and usage.freeze_panes == "A2"


def test_the_html_page_needs_no_network_and_says_what_it_covers(written):
    page = (written[2] / "report.html").read_text()
    srcs = re.findall(r'src="([^"]*)"', page)
    assert len(srcs) >= 3 and all(re.fullmatch(r"data:image/png;base64,[A-Za-z0-9+/=]+", s)
                                  for s in srcs)
    text = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", page)
    assert not re.search(r"https?:|//[a-z]|<script|<link|<iframe|@import|url\(", text, re.IGNORECASE)
    about = written[0].about
    for text in ("Vitorian Wars usage report", "standard", "2026-01-01", "2026-02-28",
                 f"<dd>{about['matches']}</dd>", "vitorian@1", "2026-03-01T09:30:00+00:00",
                 "A draw counts as not a win"):
        assert text in page, text
    for table in TABLES:
        assert f'<section id="{table}">' in page


def test_the_html_page_names_columns_as_designers_do_and_defines_them(written):
    """Display names in the headers, each header's definition on hover, and a glossary of
    every described column the report holds."""
    from pipeline import glossary

    page = (written[2] / "report.html").read_text()
    usage = page[page.index('<section id="card_usage">'):]
    usage = usage[:usage.index("</section>")]
    heads = re.findall(r'<th class="[tn]" title="([^"]*)">([^<]*)</th>', usage)
    names = [name for _, name in heads]
    assert {"GIH WR", "OH WR", "GD WR", "GNS WR", "IWD", "Inclusion"} <= set(names)
    assert "win_rate_when_drawn" not in names
    gih = {name: tip for tip, name in heads}["GIH WR"]
    assert "in hand" in gih and "17lands" in gih
    section = page[page.index('<section id="glossary">'):]
    for topic in glossary.conventions().values():
        assert html.escape(topic) in section
    assert "<code>win_rate_when_drawn</code>" in section
    assert "Baseline WR" in section


def test_only_the_forms_asked_for_are_written(season_con, tmp_path):
    _, paths = export.export(season_con, SCOPE, tmp_path / "r", ["html"], made_at=MADE_AT)
    assert [p.name for p in paths] == ["report.html"]
    with pytest.raises(ValueError, match="unknown report format"):
        export.export(season_con, SCOPE, tmp_path / "r", ["pdf"])


def test_charges_join_when_the_module_can_compute_them(season_con, tmp_path, monkeypatch):
    calls = []

    def charge_table(con, game, fmt):
        calls.append((game, fmt))
        if fmt == "draft":
            raise ValueError("no charges in draft")
        return pd.DataFrame({"card": ["c01"], "charge": [3]})

    fake = type(sys)("pipeline.charges")
    fake.charge_table = charge_table
    monkeypatch.setitem(sys.modules, "pipeline.charges", fake)
    report = export.build_report(season_con, Scope("vitorian"), made_at=MADE_AT)
    assert calls == [("vitorian", "draft"), ("vitorian", "standard")]
    assert report.tables["charges"].to_dict("records") == [
        {"format": "standard", "card": "c01", "charge": 3}]
    assert any("draft: skipped, no charges in draft" in n for n in report.about["notes"])


def test_without_the_charges_module_the_report_says_so(season_con, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pipeline.charges", None)  # import raises ImportError
    report, _ = export.export(season_con, SCOPE, tmp_path, ["html", "csv"], made_at=MADE_AT)
    assert "charges" not in report.tables
    assert any("charges: skipped" in n for n in report.about["notes"])
    assert "charges: skipped" in (tmp_path / "report.html").read_text()
    assert "charges: skipped" in (tmp_path / "about.json").read_text()


def test_a_report_of_a_tiny_scope_still_renders(tmp_path):
    con = connect(story_facts())
    report, _ = export.export(con, Scope("vitorian", "draft"), tmp_path, made_at=MADE_AT)
    assert report.about["matches"] == 1
    assert not report.tables["matchups"]["is_mirror"].any()
    assert (tmp_path / "report.html").read_text().count("data:image/png") >= 2


# ---------------------------------------------------------------- the command

@pytest.fixture(scope="module")
def lake_dir(tmp_path_factory):
    return write_lake(tmp_path_factory.mktemp("exp") / "lake", random_facts()).root


def test_export_command_writes_the_forms_asked_for(capsys, lake_dir, tmp_path):
    code, out, err = cli(capsys, "export", "--lake", lake_dir, "--game", "vitorian",
                         "--format", "draft", "--out", tmp_path / "r", "--as", "csv,xlsx",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    files = {Path(f).name for f in data["files"]}
    assert "report.xlsx" in files and "card_usage.csv" in files and "report.html" not in files
    assert data["about"]["filters"]["format"] == "draft"
    assert data["about"]["source"]["lake"] == str(lake_dir.resolve())
    code, out, _ = cli(capsys, "export", "--lake", lake_dir, "--game", "vitorian",
                       "--out", tmp_path / "h", "--as", "html")
    assert code == 0 and "wrote" in out and (tmp_path / "h" / "report.html").exists()


@pytest.mark.parametrize("argv, message", [
    (["--as", "pdf"], "--as: pdf is not a report form"),
    (["--lake-missing"], "no such lake folder"),
    (["--game", "dracula"], "no dracula matches"),
])
def test_export_command_refuses_clearly(capsys, lake_dir, tmp_path, argv, message):
    lake = tmp_path / "none" if argv == ["--lake-missing"] else lake_dir
    argv = [a for a in argv if a != "--lake-missing"]
    game = [] if "--game" in argv else ["--game", "vitorian"]
    code, _, err = cli(capsys, "export", "--lake", lake, *game, "--out", tmp_path / "r", *argv)
    assert code == 2 and message in err and not (tmp_path / "r").exists()


def test_a_game_without_cards_reports_its_own_suite(tally, tmp_path, capsys):
    """Tally names no suite, so it gets the core models; no card table, no matrix, no charges
    (its metadata declares none), and the card commands say so."""
    from tests.pipeline.tally_game import GAME
    from tests.pipeline.test_schema import tally_lake

    lake = tally_lake(tmp_path / "lake")
    with lake.connect() as con:
        report, paths = export.export(con, Scope(GAME), tmp_path / "out", ["csv"],
                                      made_at=MADE_AT)
    assert list(report.tables) == list(metrics.CORE_SUITE) and report.notes == []
    assert report.about["matches"] == 1
    assert {p.name for p in paths} == {"about.json", "coverage.csv", "first_player.csv"}
    code, out, err = cli(capsys, "stats", "--lake", lake.root, "--game", GAME, "--json")
    assert code == 0 and json.loads(out)["table"] == "coverage"
    code, _, err = cli(capsys, "stats", "--lake", lake.root, "--game", GAME, "--table", "cards")
    assert code == 2 and "tally has no card usage table; its tables: first-player, coverage" in err
    code, _, err = cli(capsys, "matchups", "--lake", lake.root, "--game", GAME)
    assert code == 2 and "tally has no matchups" in err
