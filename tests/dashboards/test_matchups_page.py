"""The Matchups page: factions by the games' own names, cells faded by their sample, and a pair
(clicked, or picked in the selectbox) listing its matches with links to their replays.

Run with AppTest on the fixture lake (Vitorian) and on a small Eredan season (guilds, a
Courtier's two-guild deck, Mercenaries); the numbers a page must show are computed here with
plain SQL on the lake. One browser test clicks a cell in chromium, as a person would.
"""
from __future__ import annotations

import io
import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import duckdb
import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from engine.tournament import SeasonConfig, run_season
from pipeline.ingest import find_logs
from pipeline.lake import Lake
from tests.dashboards.conftest import lake_of, texts

OpenApp = Callable[..., AppTest]
PAIR, OPEN = "matchups_pair", "matchups_open"
VITORIAN = {"red": "Scarlet Red – Steel Sultanate", "blue": "Imperial Blue – Sky Federation",
            "white": "Ivory White – Dominion of the Sacred Order",
            "green": "Moss Green – Monsoon Dominion"}
EREDAN = {"kotoba": "Kotoba", "zil": "Zil Warriors", "noz_dingard": "Noz'Dingard",
          "runic_legion": "Runic Legion", "nightmares": "Nightmares",
          "Mercenaries": "Mercenaries"}
"""The names the rules give (vitorian-wars.md "Colors"; eredan.md "Affiliation / Guild")."""


@pytest.fixture(scope="module")
def eredan_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """`postgame simulate eredan --players 16 --rounds 2 --seed 7`, ingested: every guild, a
    Courtier's Kotoba + Noz'Dingard deck and a Mercenaries deck."""
    out = tmp_path_factory.mktemp("eredan-matchups")
    run_season(SeasonConfig(game="eredan", players=16, rounds=2, seed=7, out=out / "logs"))
    return lake_of(find_logs([out / "logs"]), out / "lake")


def matchups(open_app: OpenApp, lake: Lake) -> AppTest:
    """The page on a lake with no minimum sample (a small lake's pairs are all small)."""
    at = open_app(lake.root, "matchups")
    at.number_input(key="scope_min_sample").set_value(0).run()
    assert not at.exception
    return at


def chart(at: AppTest) -> tuple[dict[str, Any], pd.DataFrame]:
    """The heatmap's Vega-Lite spec and the rows it draws (Streamlit sends them as Arrow)."""
    element = at.get("vega_lite_chart")[0]
    spec = json.loads(element.proto.spec)
    rows = pa.ipc.open_stream(io.BytesIO(element.proto.datasets[0].data.data)).read_all()
    return spec, rows.to_pandas()


def layers(spec: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    rated, mirrors, text = spec["layer"]
    return rated, mirrors, text


def table(at: AppTest, column: str) -> pd.DataFrame:
    """The dataframe holding `column` ("replay": a pair's matches; "faction_name": every
    pair)."""
    return next(frame.value for frame in at.dataframe if column in frame.value.columns)


def pair_match_ids(con: duckdb.DuckDBPyConnection, faction: str, opponent: str,
                   days: tuple[date, date] | None = None) -> set[str]:
    """The matches where one seat's deck is of `faction` and another seat's of `opponent`."""
    found = con.execute("""
        SELECT DISTINCT a.match_id FROM decks AS a
        JOIN decks AS b ON b.match_id = a.match_id AND b.seat <> a.seat
        JOIN matches AS m ON m.match_id = a.match_id
        WHERE a.faction = ? AND b.faction = ?
          AND (CAST(? AS DATE) IS NULL OR CAST(m.started_at AS DATE) >= ?)
          AND (CAST(? AS DATE) IS NULL OR CAST(m.started_at AS DATE) <= ?)""",
                        [faction, opponent, *(d for day in (days or (None, None))
                                              for d in (day, day))]).fetchall()
    return {str(row[0]) for row in found}


def linked_ids(matches: pd.DataFrame) -> list[str]:
    """The match id each row's replay link opens (`./?match=ID`, the Replay page's address)."""
    ids = []
    for url in matches["replay"]:
        parts = urlsplit(url)
        assert parts.path == "./" and not parts.netloc, url
        query = parse_qs(parts.query)
        assert query["game"], url  # a link opened afresh (a new tab) shows its game
        ids.append(query["match"][0])
    return ids


# Names ---------------------------------------------------------------------------------------

def test_faction_names_are_the_games_own_through_their_kits() -> None:
    from engine.eredan.cards import GUILDS
    from engine.games import get_game

    eredan, vitorian = data.faction_names("eredan"), data.faction_names("vitorian")
    assert EREDAN.items() <= eredan.items()
    assert VITORIAN.items() <= vitorian.items()
    assert all(eredan[guild] != guild for guild in GUILDS)  # a catalog guild left unnamed
    assert get_game("eredan").faction_names is not None  # the kit's hook, not the app's
    assert data.faction_names("v20") == {}  # a game whose kit names no faction
    assert data.faction_names("no-such-game") == {}
    assert data.faction_name(eredan, "a_new_guild") == "a_new_guild"  # unknown: the id
    assert data.faction_name(eredan, "kotoba+noz_dingard") == "Kotoba + Noz'Dingard"
    assert data.faction_name(vitorian, "red+blue") == (
        "Scarlet Red – Steel Sultanate + Imperial Blue – Sky Federation")


@pytest.mark.parametrize("game", ["vitorian", "eredan"])
def test_heatmap_and_tables_show_display_names(open_app: OpenApp, fixture_lake: Lake,
                                               eredan_lake: Lake, game: str) -> None:
    lake, expected = (fixture_lake, VITORIAN) if game == "vitorian" else (eredan_lake, EREDAN)
    con = lake.connect()
    ids = {row[0] for row in con.execute("SELECT DISTINCT faction FROM decks").fetchall()}
    con.close()
    names = sorted((data.faction_name(expected, i) for i in ids), key=str.casefold)
    at = matchups(open_app, lake)
    spec, rows = chart(at)
    rated, _, _ = layers(spec)
    x, y = rated["encoding"]["x"], rated["encoding"]["y"]
    assert (x["field"], y["field"]) == ("opponent_name", "faction_name")
    assert x["sort"] == y["sort"] == names  # both axes, by name, every faction
    for axis in (x["axis"], y["axis"]):
        assert axis["labelLimit"] == 0 and axis["labelOverlap"] is False  # never cut or hidden
    assert x["title"] and y["title"]
    wrapped = json.loads(x["axis"]["labelExpr"].split("[datum.label]")[0])
    assert {name: " ".join(lines) for name, lines in wrapped.items()} == {n: n for n in names}
    assert set(rows["faction_name"]) | set(rows["opponent_name"]) == set(names)
    assert set(rows["faction_name"]).isdisjoint(ids - set(expected.values()))
    pairs = table(at, "faction_name")
    assert set(pairs["faction_name"]) == set(names)
    config = json.loads(next(frame for frame in at.dataframe
                             if "faction_name" in frame.value.columns).proto.columns)
    assert config["faction_name"]["label"] == "faction" and config["n"]["label"] == "games"
    assert all(config[c].get("help") for c in ("faction_name", "opponent_name", "n",
                                                "win_rate", "win_rate_low", "win_rate_high"))
    tips = {tip.get("title", tip["field"]) for tip in rated["encoding"]["tooltip"]}
    assert {"faction", "against", "games", "wins", "losses", "draws", "win rate",
            "low (95%)", "high (95%)"} <= tips
    options = at.selectbox(key=PAIR).options
    assert all(" vs " in option for option in options)
    assert any(option.startswith(f"{names[0]} vs ") for option in options)


# Fading --------------------------------------------------------------------------------------

def test_cell_opacity_grows_with_games_and_mirrors_stay_grey(open_app: OpenApp,
                                                             fixture_lake: Lake) -> None:
    at = matchups(open_app, fixture_lake)
    spec, rows = chart(at)
    rated, mirrors, _ = layers(spec)
    opacity = rated["encoding"]["opacity"]
    assert opacity["field"] == "n" and "fewer" in opacity["title"]  # the legend says so
    domain, shades = opacity["scale"]["domain"], opacity["scale"]["range"]
    assert domain == sorted(set(domain)) and domain[0] == 0
    assert all(a < b for a, b in pairwise(shades))  # strictly monotone in n
    assert 0 < shades[0] < shades[-1] == 1
    rated_rows = rows[~rows["is_mirror"].astype(bool)]
    assert set(rated_rows["n"]) <= set(domain)  # every cell's n is a stop: exact shades
    by_n = dict(zip(domain, shades))
    assert all(by_n[n] == shade for n, shade in zip(rated_rows["n"], rated_rows["shade"]))
    ordered = rated_rows.sort_values("n")
    assert ordered["shade"].is_monotonic_increasing
    assert mirrors["mark"]["color"] == "#cbd5e1" and "opacity" not in mirrors["encoding"]
    assert [layer["transform"] for layer in (rated, mirrors)] == [
        [{"filter": "!datum.is_mirror"}], [{"filter": "datum.is_mirror"}]]
    assert "Fainter cells rest on fewer games" in texts(at)


# A pair's matches ----------------------------------------------------------------------------

def test_a_picked_pair_lists_its_matches_linked_to_their_replays(
        open_app: OpenApp, fixture_lake: Lake, lake_con: duckdb.DuckDBPyConnection) -> None:
    at = matchups(open_app, fixture_lake)
    assert not any("replay" in frame.value.columns for frame in at.dataframe)  # none yet
    pairs = table(at, "faction_name")
    rated = pairs[~pairs["is_mirror"].astype(bool)].sort_values(["n", "faction"])
    pick = rated.iloc[-1]
    pair = (pick["faction"], pick["opponent_faction"])
    at.selectbox(key=PAIR).set_value(pair).run()
    assert not at.exception
    matches = table(at, "replay")
    ids = linked_ids(matches)
    assert set(ids) == pair_match_ids(lake_con, *pair) and len(ids) == len(set(ids))
    assert ids == list(matches["match_id"]) and len(ids) == pick["n"]  # two seats: n matches
    config = json.loads(next(frame for frame in at.dataframe
                             if "replay" in frame.value.columns).proto.columns)
    assert config["replay"]["type_config"]["type"] == "link"
    shown = re.search(config["replay"]["type_config"]["display_text"], matches["replay"].iloc[0])
    assert shown and shown.group(1) == ids[0]  # the link shows the match id
    said = f"{len(ids)} match(es) of {VITORIAN[pair[0]]} against {VITORIAN[pair[1]]}"
    assert said in texts(at).replace("\\", "")
    results = dict(lake_con.execute(
        "SELECT d.match_id, s.result FROM decks AS d JOIN seats AS s USING (match_id, seat) "
        "WHERE d.faction = ?", [pair[0]]).fetchall())
    assert list(matches["result"]) == [results[m] for m in ids]  # the row faction's result
    link = at.get("page_link")[0].proto
    assert parse_qs(link.query_string) == {"game": ["vitorian"], "match": [ids[0]]}
    at.selectbox(key=OPEN).set_value(ids[-1]).run()
    assert parse_qs(at.get("page_link")[0].proto.query_string) == {"game": ["vitorian"],
                                                                   "match": [ids[-1]]}


def test_a_mirror_pair_lists_its_mirror_matches(open_app: OpenApp, eredan_lake: Lake) -> None:
    con = eredan_lake.connect()
    at = matchups(open_app, eredan_lake)
    pairs = table(at, "faction_name")
    mirror = pairs[pairs["is_mirror"].astype(bool)].sort_values("n").iloc[-1]
    pair = (mirror["faction"], mirror["faction"])
    at.selectbox(key=PAIR).set_value(pair).run()
    ids = linked_ids(table(at, "replay"))
    assert set(ids) == pair_match_ids(con, *pair) and len(ids) == mirror["n"]
    con.close()


def test_the_pairs_matches_keep_to_the_pages_days(open_app: OpenApp, fixture_lake: Lake,
                                                  lake_con: duckdb.DuckDBPyConnection) -> None:
    days = [row[0] for row in lake_con.execute(
        "SELECT DISTINCT CAST(started_at AS DATE) FROM matches ORDER BY 1").fetchall()]
    assert len(days) >= 3, "the fixture season should span several match days"
    window = (days[1], days[-2])
    at = matchups(open_app, fixture_lake)
    at.date_input(key="scope_days_vitorian").set_value(window).run()
    pairs = table(at, "faction_name")
    pick = pairs[~pairs["is_mirror"].astype(bool)].sort_values(["n", "faction"]).iloc[-1]
    pair = (pick["faction"], pick["opponent_faction"])
    at.selectbox(key=PAIR).set_value(pair).run()
    ids = linked_ids(table(at, "replay"))
    assert set(ids) == pair_match_ids(lake_con, *pair, days=window)
    assert set(ids) < pair_match_ids(lake_con, *pair)  # the other days' matches left out
    assert len(ids) == pick["n"]  # as many as the heatmap's cell counts


def test_a_minimum_sample_says_how_many_pairs_it_hid(open_app: OpenApp,
                                                     fixture_lake: Lake) -> None:
    at = matchups(open_app, fixture_lake)
    every = table(at, "faction_name")
    cut = int(every["n"].median()) + 1
    at.number_input(key="scope_min_sample").set_value(cut).run()
    hidden = int((every["n"] < cut).sum())
    assert len(table(at, "faction_name")) == len(every) - hidden
    assert f"{hidden} pair(s) met fewer than {cut} times are left out" in texts(at)


# In a browser --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def matchups_url(fixture_lake: Lake) -> Iterator[str]:
    from tests.dashboards.browsing import start_app, stop

    server, url = start_app(Path(fixture_lake.root))
    yield f"{url}/matchups"
    stop(server)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from tests.dashboards.browsing import CHROMIUM_ARGS

    path = shutil.which("chromium")
    assert path, "chromium is not on PATH: apt-get install -y chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, headless=True,
                                              args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def test_clicking_a_cell_lists_its_matches_in_the_browser(
        chromium: Any, matchups_url: str, lake_con: duckdb.DuckDBPyConnection) -> None:
    """At 1400 pixels: every name whole on the chart; a click on a cell (off its text) lists
    the pair's matches; "Open in Replay" opens the first of them in the same tab."""
    from tests.dashboards.browsing import idle

    page = chromium.new_page(viewport={"width": 1400, "height": 1300})
    try:
        page.goto(matchups_url)
        page.wait_for_selector('[data-testid="stApp"]')
        idle(page)
        sample = page.locator('[data-testid="stSidebar"] [data-testid="stNumberInputField"]')
        sample.first.fill("0")
        sample.first.press("Enter")
        idle(page)
        svg = page.locator(".vega-embed svg").first
        svg.wait_for(timeout=30_000)
        drawn = svg.text_content() or ""
        assert "…" not in drawn
        assert all(word in drawn for name in VITORIAN.values() for word in name.split())
        assert svg.bounding_box()["x"] + svg.bounding_box()["width"] <= 1400  # no overflow
        row = lake_con.execute("""
            SELECT count(*) AS n FROM decks AS a
            JOIN decks AS b ON b.match_id = a.match_id AND b.seat <> a.seat
            WHERE a.faction <> b.faction GROUP BY a.faction, b.faction
            ORDER BY n DESC LIMIT 1""").fetchone()
        assert row is not None
        n = row[0]
        cells = [t for t in page.locator(".vega-embed svg text").all()
                 if re.fullmatch(rf"\d+% · {n}", t.text_content() or "")]
        assert cells, f"no cell of {n} games drawn"
        box = cells[0].bounding_box()
        page.mouse.click(box["x"] - 20, box["y"] - 25)  # the cell, beside its label
        idle(page)
        said = page.locator('[data-testid="stCaptionContainer"]', has_text=" match(es) of ")
        said.first.wait_for(timeout=30_000)
        words = said.first.inner_text()
        got = re.match(r"(\d+) match\(es\) of (.+) against (.+) in this scope", words)
        assert got, words
        assert int(got.group(1)) == n
        chosen = {v: k for k, v in VITORIAN.items()}
        ids = pair_match_ids(lake_con, chosen[got.group(2)], chosen[got.group(3)])
        assert len(ids) == n
        page.get_by_role("link", name=re.compile("Open in Replay")).click()
        idle(page)
        time.sleep(0.5)
        page.get_by_role("heading", name="Replay").first.wait_for()
        assert parse_qs(urlsplit(page.url).query)["match"][0] in ids
    finally:
        page.close()
