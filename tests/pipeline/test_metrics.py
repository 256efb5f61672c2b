"""The metric models as a designer relies on them: every number the SQL gives is the number an
independent pandas computation gives from the same facts (to 1e-9), on a small season told by
hand, on a larger random one, and on the fixture lake; the Wilson interval matches published
values; filters select what they say and travel as parameters; the SQL stays portable."""
from __future__ import annotations

import csv
import io
import json
import os
import random
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute
import pytest

from pipeline import metrics
from pipeline import stats_cross_check as ref
from pipeline.schema import tables

FACT_TABLES = ("matches", "seats", "decks", "deck_cards", "card_events")
SUITE = metrics.suite("vitorian")
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "metrics"
SCOPES = [
    {},
    {"format": "standard"},
    {"date_from": date(2026, 2, 1)},
    {"date_from": date(2026, 1, 15), "date_to": date(2026, 2, 14), "format": "standard"},
    {"min_sample": 6},
]


# ---------------------------------------------------------------- facts built by hand

def facts_table(name: str, rows: list[dict]) -> pa.Table:
    """Rows as a fact table of pipeline.schema, unnamed columns null (a row may carry other
    tables' columns too: a seat's dict feeds both seats and decks)."""
    schema = tables()[name]
    return pa.Table.from_pylist([{f.name: r.get(f.name) for f in schema} for r in rows], schema)


def connect(facts: dict[str, pa.Table]) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    for name, table in facts.items():
        con.register(name, table)
    return con


def _match(mid: str, fmt: str, when: datetime, first: int, winner: int | None,
           game: str = "vitorian", turns: int = 8) -> dict:
    return {"match_id": mid, "game": game, "month": f"{when:%Y-%m}", "ruleset": game,
            "ruleset_version": 1, "format": fmt, "started_at": when, "first_seat": first,
            "seats": 2, "is_draw": winner is None, "winner": winner, "turns": turns,
            "tournament": "t1"}


def _seat(m: dict, seat: int, faction: str, deck: str) -> dict:
    """A seat and its deck in one dict: its seats columns and its decks columns."""
    result = ("draw" if m["winner"] is None else "win" if m["winner"] == seat else "loss")
    return {"match_id": m["match_id"], "game": m["game"], "month": m["month"], "seat": seat,
            "player": f"p{seat}", "setup_id": f"{deck}#{seat}", "setup_name": deck,
            "deck_id": f"{deck}#{seat}", "deck_name": deck, "faction": faction,
            "is_first": m["first_seat"] == seat, "result": result}


def story_facts() -> dict[str, pa.Table]:
    """Five Vitorian matches and one Eredan match, small enough to count on fingers.

    m1 standard Jan 10: red (first) beats blue     m4 standard Feb 15: blue draws green (first)
    m2 standard Jan 20: red beats blue (first)     m5 draft    Feb 20: green (first) beats red
    m3 standard Feb 05: red mirror, seat 0 wins    e1 eredan   Feb 01: must never show up
    Card "lance" is in every red deck (2 copies) and in m4's blue deck (1 copy).
    """
    t = datetime(2026, 1, 10, 12, tzinfo=UTC)
    ms = [_match("m1", "standard", t, 0, 0), _match("m2", "standard", t + timedelta(10), 0, 1),
          _match("m3", "standard", datetime(2026, 2, 5, 23, 59, tzinfo=UTC), 1, 0),
          _match("m4", "standard", datetime(2026, 2, 15, tzinfo=UTC), 1, None),
          _match("m5", "draft", datetime(2026, 2, 20, tzinfo=UTC), 0, 0),
          _match("e1", "standard", datetime(2026, 2, 1, tzinfo=UTC), 0, 0, game="eredan")]
    sides = {"m1": ("red", "blue"), "m2": ("blue", "red"), "m3": ("red", "red"),
             "m4": ("blue", "green"), "m5": ("green", "red"), "e1": ("red", "blue")}
    seats = [_seat(m, s, sides[m["match_id"]][s], f"{sides[m['match_id']][s]}-mid")
             for m in ms for s in (0, 1)]
    return {"matches": facts_table("matches", ms), "seats": facts_table("seats", seats),
            "decks": facts_table("decks", seats),
            "deck_cards": facts_table("deck_cards", _story_decks(seats)),
            "card_events": facts_table("card_events", _story_events(seats))}


def _story_decks(seats: list[dict]) -> list[dict]:
    rows = []
    for s in seats:
        base = {k: s[k] for k in ("match_id", "game", "month", "seat", "deck_id")}
        rows.append({**base, "section": "maneuver", "card": "pike", "card_name": "Pike",
                     "copies": 3})
        if s["faction"] == "red" or (s["match_id"] == "m4" and s["faction"] == "blue"):
            copies = 2 if s["faction"] == "red" else 1
            rows.append({**base, "section": "maneuver", "card": "lance", "card_name": "Lance",
                         "copies": copies})
    return rows


def _story_events(seats: list[dict]) -> list[dict]:
    """Lance: in hand and played on turn 2 in m1, drawn (never played) in m3 seat 1,
    played on turn 4 after being drawn in m5; a destroyed and a hit event that must not count."""
    ev = [("m1", 0, "lance", "opening_hand", 0), ("m1", 0, "lance", "played", 2),
          ("m1", 0, "lance", "played", 5), ("m3", 1, "lance", "drawn", 3),
          ("m5", 1, "lance", "drawn", 2), ("m5", 1, "lance", "played", 4),
          ("m2", 1, "lance", "destroyed", 6), ("m2", 1, "lance", "hit", 6),
          ("m1", 1, "pike", "opening_hand", 0), ("e1", 0, "lance", "played", 1)]
    month = {s["match_id"]: (s["game"], s["month"]) for s in seats}
    return [{"match_id": m, "game": month[m][0], "month": month[m][1], "seq": i, "turn": turn,
             "seat": seat, "card": card, "kind": kind} for i, (m, seat, card, kind, turn)
            in enumerate(ev)]


# ---------------------------------------------------------------- a larger random season

def random_facts(seed: int = 7, matches: int = 400) -> dict[str, pa.Table]:
    """A season drawn at random: two games, two formats, four factions, draws, mirrors,
    matches near midnight UTC, events of cards no deck holds. One line per card and deck, as
    the audits demand of a lake (decks_have_cards: no card in two sections)."""
    rng = random.Random(seed)
    factions = ["red", "blue", "green", "gold"]
    cards = [(f"c{i:02d}", "defense" if i >= 26 else "maneuver") for i in range(30)]
    rows: dict[str, list[dict]] = {t: [] for t in FACT_TABLES}
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(matches):
        when = start + timedelta(minutes=rng.randrange(0, 90 * 24 * 60, 30))
        winner = rng.choice([0, 1, 0, 1, None])
        m = _match(f"m{i:04d}", rng.choice(["standard", "draft"]), when, rng.randint(0, 1),
                   winner, game=rng.choice(["vitorian"] * 5 + ["eredan"]), turns=rng.randint(3, 15))
        rows["matches"].append(m)
        for s in (0, 1):
            seat = _seat(m, s, rng.choice(factions), "")
            seat["deck_name"] = f"{seat['faction']}-{rng.choice(['mid', 'rush'])}"
            seat["deck_id"] = f"{seat['deck_name']}-{rng.randint(0, 3)}"
            seat["setup_name"], seat["setup_id"] = seat["deck_name"], seat["deck_id"]
            rows["seats"].append(seat)
            rows["decks"].append(seat)
            _random_deck(rng, seat, cards, rows)
    return {t: facts_table(t, r) for t, r in rows.items()}


def _random_deck(rng: random.Random, seat: dict, cards: list, rows: dict) -> None:
    base = {k: seat[k] for k in ("match_id", "game", "month", "seat")}
    listed = random.Random(seat["deck_id"])  # a deck_id is one list, as ingest's hash makes it
    deck = listed.sample(cards, 8)
    for card, section in deck:
        rows["deck_cards"].append({**base, "deck_id": seat["deck_id"], "section": section,
                                   "card": card, "card_name": card.upper(),
                                   "copies": listed.randint(1, 3)})
    kinds = ["opening_hand", "drawn", "played", "destroyed", "hit"]
    for card, _ in deck + [("token", "none")]:
        for _ in range(rng.randint(0, 3)):
            rows["card_events"].append({**base, "seq": len(rows["card_events"]),
                                        "turn": rng.randint(0, 12), "card": card,
                                        "kind": rng.choice(kinds), "amount": 1})


@pytest.fixture(scope="module")
def story():
    facts = story_facts()
    return connect(facts), {k: v.to_pandas() for k, v in facts.items()}


@pytest.fixture(scope="module")
def season():
    facts = random_facts()
    return connect(facts), {k: v.to_pandas() for k, v in facts.items()}


# ---------------------------------------------------------------- comparing frames

def assert_same(sql: pd.DataFrame, expected: pd.DataFrame, model: str) -> None:
    """Same columns (in any order), same rows in the same order, numbers equal to 1e-9, NULL
    where NaN."""
    assert sorted(sql.columns) == sorted(expected.columns), model
    assert len(sql) == len(expected), f"{model}: {len(sql)} rows, expected {len(expected)}"
    for col in expected.columns:
        a, b = sql[col].reset_index(drop=True), expected[col].reset_index(drop=True)
        if pd.api.types.is_numeric_dtype(b) and not pd.api.types.is_bool_dtype(b):
            x, y = a.astype("float64").to_numpy(), b.astype("float64").to_numpy()
            assert np.array_equal(np.isnan(x), np.isnan(y)), f"{model}.{col}: NULLs differ"
            assert np.allclose(x, y, rtol=0, atol=1e-9, equal_nan=True), f"{model}.{col}"
        else:
            assert [None if pd.isna(v) else v for v in a] == \
                   [None if pd.isna(v) else v for v in b], f"{model}.{col}"


def check_model(con, facts, model: str, scope: dict, game: str = "vitorian") -> pd.DataFrame:
    got = metrics.run_model(con, model, game=game, **scope)
    reference = ref.REFERENCE[model]
    kwargs = {k: v for k, v in scope.items()
              if k != "min_sample" or "min_sample" in reference.__code__.co_varnames}
    assert_same(got, reference(facts, game, **kwargs), model)
    return got


# ---------------------------------------------------------------- the Wilson interval

@pytest.mark.parametrize("k, n, low, high", [
    (8, 10, 0.4902, 0.9433), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0),
    (1, 2, 0.0945, 0.9055), (81, 263, 0.2553, 0.3662)])
def test_wilson_interval_matches_published_values(k, n, low, high):
    p, lo, hi = metrics.wilson_sql("k", "n")
    row = duckdb.connect().execute(f"SELECT {p}, {lo}, {hi} FROM (SELECT {k} AS k, {n} AS n)").fetchone()
    assert row[0] == pytest.approx(k / n)
    assert (round(row[1], 4), round(row[2], 4)) == (low, high)
    _, lr, hr = ref.wilson(pd.Series([k]), pd.Series([n]))
    assert (lr[0], hr[0]) == pytest.approx((row[1], row[2]), abs=1e-12)


def test_wilson_interval_of_nothing_is_null():
    p, lo, hi = metrics.wilson_sql("k", "n")
    sql = f"SELECT {p}, {lo}, {hi} FROM (SELECT 0 AS k, 0 AS n)"
    assert duckdb.connect().execute(sql).fetchone() == \
        (None, None, None)


# ---------------------------------------------------------------- the story, by hand

def test_card_usage_counts_the_story_by_hand(story):
    con, _ = story
    usage = metrics.card_usage(con, "vitorian").set_index("card")
    lance = usage.loc["lance"]
    assert (lance.decks, lance.included) == (10, 6)  # 5 Vitorian matches, 2 seats each
    assert lance.inclusion_rate == pytest.approx(0.6)
    assert lance.avg_copies == pytest.approx((2 * 5 + 1) / 6)
    # m3 is lance's mirror (both red decks hold it): its usage counts, its result does not
    assert (lance.mirror_matches, lance.games) == (1, 4)
    assert (lance.deck_wins, lance.deck_draws) == (2, 1)  # m1 s0, m2 s1 won; m4 blue drew
    assert lance.deck_win_rate == pytest.approx(2 / 4)
    assert lance.deck_win_rate_decided == pytest.approx(2 / 3)
    assert (lance.played, lance.played_games, lance.played_wins) == (2, 2, 1)  # m1 won, m5 lost
    assert (lance.drawn, lance.drawn_games, lance.drawn_wins) == (3, 2, 1)  # m3's in the mirror
    assert (lance.opening_games, lance.opening_wins) == (1, 1)  # m1
    assert (lance.drawn_later_games, lance.drawn_later_wins) == (1, 0)  # m5
    assert (lance.not_drawn_games, lance.not_drawn_wins, lance.not_drawn_draws) == (2, 1, 1)
    assert lance.improvement_when_drawn == pytest.approx(1 / 2 - 1 / 2)
    assert lance.avg_turn_first_played == pytest.approx((2 + 4) / 2)
    assert lance.win_rate_when_played_low < 0.5 < lance.win_rate_when_played_high
    assert lance.baseline_win_rate == pytest.approx(4 / 10)  # 4 wins, 1 draw in 5 matches
    pike = usage.loc["pike"]  # in every deck: every match is its mirror
    assert (pike.drawn, pike.played, pike.games, pike.mirror_matches) == (1, 0, 0, 5)
    assert pd.isna(pike.deck_win_rate) and pd.isna(pike.deck_win_rate_q)


def test_cards_that_never_reach_a_hand_get_no_hand_rates(story):
    """A defense card (VW-3.9: not of the Maneuver Deck) is never drawn: its inclusion and
    deck win rate stand, its hand and play figures are blank, not 0%."""
    _, facts = story
    extra = facts["deck_cards"].iloc[:1].assign(section="defense", card="wall",
                                                card_name="Wall", copies=1)
    con2 = duckdb.connect()
    for name, frame in facts.items():
        con2.register(name, pd.concat([frame, extra]) if name == "deck_cards" else frame)
    wall = metrics.card_usage(con2, "vitorian").set_index("card").loc["wall"]
    assert not wall.reaches_hand and wall.included == 1 and wall.deck_win_rate == 1.0
    assert pd.isna(wall.played_rate) and pd.isna(wall.win_rate_when_not_drawn)
    assert pd.isna(wall.played) and pd.isna(wall.improvement_when_drawn)
    assert metrics.card_usage(con2, "vitorian").set_index("card").loc["lance"].reaches_hand


def test_mirrors_count_once_per_match_and_carry_no_win_rate(story):
    con, _ = story
    long = metrics.matchups(con, "vitorian").set_index(["faction", "opponent_faction"])
    assert long.loc[("red", "blue")][["n", "wins", "losses", "draws"]].tolist() == [2, 2, 0, 0]
    assert long.loc[("blue", "red")].win_rate == 0.0
    mirror = long.loc[("red", "red")]
    assert bool(mirror.is_mirror) and (mirror.n, mirror.draws) == (1, 0)
    assert pd.isna(mirror.wins) and pd.isna(mirror.win_rate)
    factions = metrics.run_model(con, "faction_win_rates", game="vitorian").set_index("faction")
    red = factions.loc["red"]
    assert (red.seat_games, red.games, red.wins, red.mirror_matches) == (5, 3, 2, 1)


def test_first_player_and_draws(story):
    con, _ = story
    first = metrics.first_player(con, "vitorian").set_index("format")
    std = first.loc["standard"]
    assert (std.matches, std.first_wins, std.first_losses, std.draws) == (4, 1, 2, 1)
    assert std.first_player_win_rate == pytest.approx(0.25)
    assert std.decided_first_player_win_rate == pytest.approx(1 / 3)


def test_matchup_matrix_reads_row_against_column(story):
    con, _ = story
    grid = metrics.matchup_matrix(metrics.matchups(con, "vitorian"))
    assert list(grid.index) == list(grid.columns) == ["blue", "green", "red"]
    assert grid.loc["red", "blue"] == 1.0 and grid.loc["blue", "red"] == 0.0
    assert pd.isna(grid.loc["red", "red"]) and pd.isna(grid.loc["blue", "blue"])


# ---------------------------------------------------------------- filters

def test_filters_select_game_format_and_inclusive_days(story):
    con, _ = story
    def decks(**scope):
        return int(metrics.card_usage(con, **scope).set_index("card").loc["pike"].decks)
    assert decks(game="vitorian") == 10
    assert decks(game="eredan") == 2
    assert decks(game="vitorian", format="draft") == 2
    assert decks(game="vitorian", date_to="2026-02-05") == 6  # m3 at 23:59 UTC counts
    assert decks(game="vitorian", date_from=date(2026, 2, 5), date_to=date(2026, 2, 15)) == 4
    assert metrics.card_usage(con, "vitorian", date_from="2027-01-01").empty


def test_match_days_are_utc_days_whatever_the_session_zone(story):
    con, _ = story
    con.execute("SET TimeZone = 'America/Los_Angeles'")  # DuckDB's Python wheel ships ICU
    usage = metrics.card_usage(con, "vitorian", date_from="2026-02-05", date_to="2026-02-05")
    assert usage.set_index("card").loc["pike"].decks == 2  # m3, 23:59 UTC on Feb 5


def test_filters_are_parameters_not_text(story):
    con, _ = story
    assert metrics.card_usage(con, "vitorian", format="standard' OR 1=1 --").empty
    assert metrics.card_usage(con, "x'; DROP VIEW matches; --").empty
    assert con.execute("SELECT COUNT(*) FROM matches").fetchone() == (6,)


def test_min_sample_keeps_cards_seen_often_enough(story):
    con, _ = story
    assert set(metrics.card_usage(con, "vitorian", min_sample=7).card) == {"pike"}
    assert set(metrics.card_usage(con, "vitorian", min_sample=6).card) == {"pike", "lance"}


def test_bad_requests_are_refused_clearly(story):
    con, _ = story
    with pytest.raises(TypeError, match="formt"):
        metrics.run_model(con, "card_usage", game="vitorian", formt="draft")
    with pytest.raises(KeyError, match="unknown metric model"):
        metrics.run_model(con, "../../etc/passwd", game="vitorian")
    with pytest.raises(ValueError, match="needs a game"):
        metrics.run_model(con, "matchups", game="")
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        metrics.card_usage(con, "vitorian", date_from="last tuesday")


# ---------------------------------------------------------------- SQL against pandas

@pytest.mark.parametrize("model", SUITE)
def test_every_model_matches_pandas_on_the_story(story, model):
    con, facts = story
    for scope in SCOPES:
        check_model(con, facts, model, scope)
    check_model(con, facts, model, {}, game="eredan")


@pytest.mark.parametrize("model", SUITE)
@pytest.mark.parametrize("scope", SCOPES, ids=lambda s: ",".join(s) or "all")
def test_every_model_matches_pandas_on_a_random_season(season, model, scope):
    con, facts = season
    got = check_model(con, facts, model, scope)
    assert not got.empty


def _other_table_sizes(facts: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """The random season with a third seat in some matches (a copy of seat 0's deck or of
    another list) and a lone seat in others: what the archetype models' rollup keeps a row a
    deck-game (rollup_deck_pairs), where a two-deck match is a pair of lists."""
    frames = {name: table.to_pandas() for name, table in facts.items()}
    matches = frames["matches"]["match_id"]
    third = set(matches.iloc[::9])
    lone = set(matches.iloc[4::13]) - third
    extra = {}
    for name in ("seats", "decks", "deck_cards"):
        frame = frames[name]
        added = frame[frame["match_id"].isin(third) & (frame["seat"] == 0)].assign(seat=2)
        extra[name] = pd.concat([frame[~(frame["match_id"].isin(lone) & (frame["seat"] == 1))],
                                 added], ignore_index=True)
    extra["seats"] = extra["seats"].assign(result=lambda f: f["result"].where(f["seat"] < 2,
                                                                          "loss"))
    return {name: pa.Table.from_pandas(extra[name], schema=table.schema, preserve_index=False)
            if name in extra else table for name, table in facts.items()}


@pytest.mark.parametrize("model", ["archetype_win_rates", "archetype_matchups"])
def test_matches_of_one_or_three_decks_count_as_their_seats_say(model):
    """Two deck-games make a pair of lists in the rollup; a match of one or three keeps its
    deck-games, grouped by archetype per match as the pandas reference does."""
    facts = _other_table_sizes(random_facts(seed=11, matches=240))
    con = connect(facts)
    frames = {k: v.to_pandas() for k, v in facts.items()}
    assert frames["seats"].groupby("match_id").size().isin([1, 3]).any()
    for scope in SCOPES:
        got = check_model(con, frames, model, scope)
        assert scope.get("min_sample") or not got.empty
    assert check_model(con, frames, model, {})["n" if model == "archetype_matchups"
                                                else "mirror_matches"].sum() > 0


def test_run_all_is_the_suite(season):
    con, facts = season
    suite = metrics.run_all(con, "vitorian", format="draft")
    assert list(suite) == list(SUITE)
    assert_same(suite["card_usage"], ref.card_usage(facts, "vitorian", "draft"), "card_usage")


def test_rates_sit_beside_their_counts(season):
    con, _ = season
    cols = list(metrics.card_usage(con, "vitorian").columns)
    at = cols.index("played_wins")
    assert cols[at + 1:at + 4] == ["win_rate_when_played", "win_rate_when_played_low",
                                   "win_rate_when_played_high"]
    assert cols.index("improvement_when_drawn") > cols.index("win_rate_when_not_drawn_high")
    usage = metrics.card_usage(con, "vitorian")
    assert all(pd.api.types.is_integer_dtype(usage[c]) for c in ("included", "deck_wins", "drawn"))
    assert cols.index("win_rate_when_played_q") == cols.index("win_rate_when_played_high") + 1


# ---------------------------------------------------------------- the fixture lake

@pytest.fixture(scope="module")
def lake_facts(fixture_lake):
    """The pipeline's fixture lake (tests/pipeline/conftest.py)."""
    con = fixture_lake.connect()
    return con, {t: con.table(t).df() for t in FACT_TABLES}


@pytest.mark.parametrize("model", SUITE)
def test_every_model_matches_pandas_on_the_fixture_lake(lake_facts, model):
    con, facts = lake_facts
    assert not check_model(con, facts, model, {}).empty
    check_model(con, facts, model, {"min_sample": 3})
    january = check_model(con, facts, model, {"date_to": date(2026, 1, 31)})
    assert not january.empty  # the season's first tournament: 12 matches on Jan 31


def test_the_fixture_season_is_what_its_conftest_says(lake_facts):
    con, _ = lake_facts
    coverage = metrics.run_model(con, "coverage", game="vitorian")
    assert coverage[["format", "matches"]].to_dict("records") == [
        {"format": "standard", "matches": 48}]
    january = metrics.run_model(con, "coverage", game="vitorian", date_to="2026-01-31")
    assert january["matches"].tolist() == [12]
    first = metrics.first_player(con, "vitorian")
    assert first["matches"].tolist() == [48]
    assert metrics.card_usage(con, "vitorian")["decks"].unique().tolist() == [96]


@pytest.mark.parametrize("model", SUITE)
def test_the_fixture_lake_gives_the_golden_numbers(lake_facts, model):
    """Numbers pinned for the seeded season (tests/golden/metrics); a change to the engine, the
    bots or a model shows here. POSTGAME_UPDATE_GOLDEN=1 rewrites them after a reviewed change."""
    con, _ = lake_facts
    text = metrics.run_model(con, model, game="vitorian").to_csv(index=False)
    path = GOLDEN / f"{model}.csv"
    if os.environ.get("POSTGAME_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    expected = pd.read_csv(path)
    assert_same(pd.read_csv(io.StringIO(text)), expected, model)
    assert list(pd.read_csv(io.StringIO(text)).columns) == list(expected.columns)


# ---------------------------------------------------------------- the SQL itself

SQL_FILES = [metrics.model_paths()[name] for name in SUITE + tuple(metrics.staging_names())]


@pytest.mark.parametrize("path", SQL_FILES, ids=lambda p: p.stem)
def test_each_model_states_its_grain_and_stays_portable(path):
    text = path.read_text()
    assert re.search(r"^-- grain: ", text, re.MULTILINE), f"{path.name}: no grain in the header"
    body = re.sub(r"--[^\n]*", "", text).upper()
    for duckdb_only in ("QUALIFY", "::", "MACRO", "EXCLUDE", "FROM_JSON", "STRUCT_PACK"):
        assert duckdb_only not in body, f"{path.name}: {duckdb_only}"
    staging = path.stem.startswith(metrics.STAGING_PREFIX)
    assert ("GROUP BY" in body) != staging, "staging renames and casts; metrics aggregate"
    if not staging:
        assert re.search(r"^-- params: \$game", text, re.MULTILINE)


def test_the_models_live_in_folders_by_what_they_need():
    assert not list(metrics.SQL_DIR.glob("*.sql")), "every model sits in a folder"
    folders = {name: path.parent.name for name, path in metrics.model_paths().items()}
    assert {n for n, f in folders.items() if f == "core"} == {
        "stg_matches", "stg_scope", "stg_seats", "stg_seat_games", "coverage", "first_player",
        "rollup_coverage", "rollup_first_player"}
    assert {n for n, f in folders.items() if f == "cards"} >= {
        "stg_decks", "stg_deck_games", "card_usage", "matchups", "faction_win_rates"}
    assert set(SUITE) <= set(metrics.model_names())
    for path in metrics.model_paths()["coverage"].parent.glob("*.sql"):
        assert not re.search(r"\b(decks|deck_cards|card_events)\b",
                             re.sub(r"--[^\n]*", "", path.read_text())), \
            f"{path.name}: a core model reads only matches and seats"


def test_a_games_own_models_are_found_and_names_stay_unique(tmp_path, monkeypatch):
    sql = tmp_path / "sql"
    for folder in metrics.MODEL_FOLDERS:
        (sql / folder).mkdir(parents=True)
    (sql / "vitorian").mkdir()
    (sql / "vitorian" / "sovereign_rates.sql").write_text("-- grain: x\nSELECT 1\n")
    monkeypatch.setattr(metrics, "SQL_DIR", sql)
    assert metrics.model_names() == ["sovereign_rates"]
    (sql / "cards" / "sovereign_rates.sql").write_text("-- grain: x\nSELECT 1\n")
    with pytest.raises(metrics.ModelError, match="unique across"):
        metrics.model_paths()


def test_each_game_names_its_suite_as_data():
    assert metrics.suite("vitorian") == metrics.suite("eredan") == (
        "coverage", "card_usage", "matchups", "first_player", "faction_win_rates",
        "deck_archetypes", "archetype_win_rates", "archetype_matchups")
    assert metrics.suite("not-a-game") == metrics.CORE_SUITE


@pytest.mark.parametrize("model", SUITE)
def test_each_compiled_model_transpiles_to_spark(model):
    import sqlglot

    spark = sqlglot.transpile(metrics.compile_model(model), read="duckdb", write="spark")[0]
    assert ":game" in spark and "$" not in spark


# ---------------------------------------------------------------- the command line

def write_lake(root, facts: dict[str, pa.Table]):
    """A lake holding these facts, committed through the lake's own writer."""
    from pipeline.lake import Lake
    from pipeline.lake_layout import new_batch_id

    lake = Lake(root)
    parts = {}
    for table in FACT_TABLES:
        frame = facts[table]
        keys = sorted(set(zip(frame["game"].to_pylist(), frame["month"].to_pylist())))
        for game, month in keys:
            mask = pa.compute.and_(pa.compute.equal(frame["game"], game),
                                   pa.compute.equal(frame["month"], month))
            parts[(table, game, month)] = frame.filter(mask)
    with lake.writer() as writer:
        writer.commit(new_batch_id(), parts)
    return lake


@pytest.fixture(scope="module")
def story_lake(tmp_path_factory):
    return write_lake(tmp_path_factory.mktemp("story") / "lake", story_facts()).root


def cli(capsys, *argv):
    from postgame import cli as entry

    code = entry.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", ["stats", "matchups", "export"])
def test_each_lake_command_explains_itself(capsys, command):
    from postgame import cli as entry

    with pytest.raises(SystemExit) as exit_:
        entry.main([command, "--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and "usage: postgame" in out and "examples:" in out
    assert "--lake" in out and "--from" in out


def test_stats_prints_a_readable_table(capsys, story_lake):
    code, out, _ = cli(capsys, "stats", "--lake", story_lake, "--game", "vitorian")
    assert code == 0
    assert "card usage: vitorian, all formats, 2026-01-10 to 2026-02-20, 5 matches" in out
    assert "Lance" in out and "60.0%" in out  # lance in 6 of 10 decks


def test_the_game_may_be_left_out_of_a_one_game_lake_and_written_in_any_case(capsys,
                                                                            tmp_path):
    assert cli(capsys, "simulate", "V20", "--scenario", "alley", "--matches", "1", "--seed",
               "3", "--out", tmp_path / "logs", "--quiet")[0] == 0
    assert cli(capsys, "ingest", tmp_path / "logs", "--lake", tmp_path / "lake", "--quiet")[0] == 0
    code, out, err = cli(capsys, "stats", "--lake", tmp_path / "lake")
    assert code == 0 and "coverage: v20, all formats" in out, err
    assert cli(capsys, "stats", "--lake", tmp_path / "lake", "--game", "V20")[1] == out


def test_a_lake_of_two_games_asks_which(capsys, story_lake, tmp_path):
    code, _, err = cli(capsys, "stats", "--lake", story_lake)
    assert code == 2 and "holds eredan, vitorian: choose one with --game" in err
    code, _, err = cli(capsys, "stats", "--lake", tmp_path / "nowhere")
    assert code == 2 and "no such lake folder" in err


def test_postgame_says_its_version(capsys):
    from postgame import cli as entry

    with pytest.raises(SystemExit) as exit_:
        entry.main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("postgame ")


def test_stats_json_is_the_model_with_its_filters(capsys, story_lake):
    code, out, _ = cli(capsys, "stats", "--lake", story_lake, "--game", "vitorian",
                       "--format", "standard", "--to", "2026-02-05", "--json")
    data = json.loads(out)
    assert code == 0 and data["matches"] == 3 and data["table"] == "card_usage"
    assert data["filters"] == {"game": "vitorian", "format": "standard",
                               "from": "the first match", "to": "2026-02-05", "min_sample": "0"}
    lance = {row["card"]: row for row in data["rows"]}["lance"]
    assert (lance["decks"], lance["included"], lance["played"]) == (6, 4, 1)
    assert lance["win_rate_when_played_low"] is not None and lance["played_draws"] == 0


def test_stats_csv_sort_limit_and_tables(capsys, story_lake):
    code, out, _ = cli(capsys, "stats", "--lake", story_lake, "--game", "vitorian", "--csv",
                       "--sort", "included:asc", "--limit", "1")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["card"] for r in rows] == ["lance"]
    assert "win_rate_when_not_drawn_high" in rows[0]
    code, out, _ = cli(capsys, "stats", "--lake", story_lake, "--game", "vitorian",
                       "--table", "factions", "--json")
    assert code == 0 and {r["faction"] for r in json.loads(out)["rows"]} == {"red", "blue",
                                                                              "green"}


def test_matchups_prints_the_matrix_and_the_list(capsys, story_lake):
    code, out, _ = cli(capsys, "matchups", "--lake", story_lake, "--game", "vitorian")
    assert code == 0 and "mirror n=1" in out and "100.0% n=2" in out
    code, out, _ = cli(capsys, "matchups", "--lake", story_lake, "--game", "vitorian", "--json")
    data = json.loads(out)
    assert data["matrix"]["red"]["blue"] == 1.0 and data["matrix"]["red"]["red"] is None
    assert {"faction": "red", "opponent_faction": "red", "is_mirror": True, "n": 1, "draws": 0,
            "losses": None, "wins": None, "win_rate": None, "win_rate_low": None,
            "win_rate_high": None} in data["matchups"]
    code, out, _ = cli(capsys, "matchups", "--lake", story_lake, "--game", "vitorian", "--csv")
    assert out.startswith("faction,opponent_faction,is_mirror,n,")


UNANSWERABLE = [
    (["--lake", "{missing}"], "no such lake folder"),
    (["--lake", "{empty}"], "the lake holds no matches"),
    (["--lake", "{lake}", "--game", "dracula"], "no dracula matches; the lake holds eredan"),
    (["--lake", "{lake}", "--from", "2027-01-01"], "no vitorian matches in all formats from"),
    (["--lake", "{lake}", "--from", "2026-02-01", "--to", "2026-01-01"], "is after --to"),
]


@pytest.mark.parametrize("command, argv, message", [
    *[("stats", argv, message) for argv, message in UNANSWERABLE],
    *[("matchups", argv, message) for argv, message in UNANSWERABLE],
    ("stats", ["--lake", "{lake}", "--sort", "charisma"], "--sort: no column 'charisma'"),
])
def test_a_lake_that_cannot_answer_is_a_friendly_exit_2(capsys, tmp_path, story_lake, argv,
                                                        message, command):
    (tmp_path / "empty").mkdir()
    paths = {"missing": tmp_path / "nope", "empty": tmp_path / "empty", "lake": story_lake}
    argv = [a.format(**paths) for a in argv]
    if "--game" not in argv:
        argv += ["--game", "vitorian"]
    code, out, err = cli(capsys, command, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"postgame {command}: ") and message in err
    assert "Traceback" not in err
