"""V20 combat in the lake, as an organiser runs it: a seeded sweep and an ambush scene simulated
through the command line, ingested, the audits holding, every table of the game holding one row
per thing counted straight from replaying the logs, the metric models' numbers recomputed from
the logs by other means, and the dice audit passing fair dice and flagging a loaded die.

The counts here read the changes and the replayed states (engine.replay through
tests.games.checks.replayed), never the facts extractor's bookkeeping: attacks are followed
from their roll to their Hit or Missed, falls read off each step's state, initiative dice
checked against each character's total less its bonus."""
from __future__ import annotations

import contextlib
import io
import json
import random
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from engine.v20 import changes as ch
from engine.v20 import pools
from engine.v20.rules import V20Rules
from events.log import read_log
from events.v20 import Roll
from pipeline import dice_audit, metrics
from pipeline.audits import run_audits
from pipeline.lake import Lake
from postgame import cli as command_line
from tests.games.checks import Keeper, replayed

SWEEP = ["--matches", "2", "--seed", "3"]
"""4 builds x 4 x 2: 32 fights, mirrors included."""
AMBUSH = ["--matches", "4", "--seed", "5", "--start", "2027-03-01"]
"""A year apart from the sweep, so the tournaments' match ids differ."""
SCENE = """
name = "alley_wp"
title = "Two ambushes, Willpower on both"
turn_limit = 10

[[ambushes]]
ambusher = "silas"
target = "margarethe"
willpower = true
specialty = true

[[ambushes]]
ambusher = "ilse"
target = "nicky"
willpower = true

[storyteller]
confirm_positions = true

[[storyteller.triggers]]
kind = "frenzy"
cause = "taste_of_blood"
when = "tastes_blood"

[sides.A]
name = "The coterie"
fighters = [{ id = "silas", character = "silas" }, { id = "ilse", character = "ilse" }]

[sides.B]
name = "The hunters"
fighters = [{ id = "margarethe", character = "margarethe" },
            { id = "nicky", character = "nicky" }]
"""
LOADED_SWEEP = ["--matches", "6", "--seed", "3"]
TABLES = ("characters", "rolls", "damage", "statuses", "spends")
FALLEN = ("incapacitated", "torpor", "final_death", "dead")
LOADED_FACES = list(range(1, 11))
LOADED_WEIGHTS = [1, 1, 1, 1, 1, 1, 1, 2, 2, 2]
"""A loaded d10: 8, 9 and 10 twice as likely as each other face."""


def run(*argv: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = command_line.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


@dataclass
class Fight:
    header: Any
    kept: Keeper

    @property
    def changes(self) -> list[tuple[int, Any]]:
        return [(s.seq, c) for s in self.kept.steps for c in s.changes]

    def sheets(self) -> dict[str, tuple[int, str]]:
        """Character id -> (seat, catalog sheet), from the header's parties."""
        return {f.id: (seat.seat, f.character) for seat in self.header.seats
                for f in seat.setup.fighters}


@dataclass
class Season:
    root: Path
    lake: Lake
    ingest: str
    fights: list[Fight]


def simulate_and_ingest(root: Path, runs: list[list[Any]], replay: bool = True) -> Season:
    for i, argv in enumerate(runs):
        code, _, err = run("simulate", "v20", *argv, "--out", root / "logs" / str(i),
                           "--workers", "1", "--quiet")
        assert code == 0, err
    code, out, err = run("ingest", root / "logs", "--lake", root / "lake", "--quiet")
    assert code == 0, err
    fights = []
    for path in sorted((root / "logs").rglob("*.pglog")) if replay else ():
        log = read_log(path)
        fights.append(Fight(log.header, replayed(log.header, list(log.events))))
    return Season(root, Lake(root / "lake"), out + err, fights)


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Season:
    root = tmp_path_factory.mktemp("v20")
    scene = root / "alley_wp.toml"
    scene.write_text(SCENE, encoding="utf-8")
    return simulate_and_ingest(root, [SWEEP, ["--scenario", scene, *AMBUSH]])


@pytest.fixture
def con(season: Season) -> Iterator[duckdb.DuckDBPyConnection]:
    with contextlib.closing(season.lake.connect()) as connection:
        yield connection


def rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple[Any, ...]]:
    return con.execute(sql).fetchall()


# Ingest and audits ----------------------------------------------------------------------------

def test_every_fight_is_ingested_and_the_audits_hold(season, con):
    n = len(season.fights)
    assert n == 32 + 4
    assert f"{n} ingested" in season.ingest and "0 quarantined" in season.ingest
    results = run_audits(con)
    assert all(r.ok for r in results), [(r.name, r.rows) for r in results if not r.ok]
    names = {r.name for r in results}
    assert {f"v20_{t}_reference_matches" for t in TABLES} <= names
    assert rows(con, "SELECT count(*), count(first_seat) FROM matches") == [(n, 0)]


def test_the_lake_holds_public_facts_only(con):
    secret = {"dexterity", "wits", "stamina", "strength", "perception", "self_control",
              "courage", "conscience", "conviction", "path", "rating", "totals", "total",
              "willpower", "blood", "max_blood", "derangements", "initiative"}
    for table in TABLES:
        columns = {r[0] for r in rows(con, f"DESCRIBE v20_{table}")}
        assert not columns & secret, (table, columns & secret)


# One row per thing -----------------------------------------------------------------------------

def _counted(fight: Fight) -> Counter[str]:
    """The rows each table should hold for one fight, counted from the log's changes (and,
    for statuses reached by damage, the states before and after)."""
    counts: Counter[str] = Counter(characters=len(fight.sheets()))
    steps = fight.kept.steps
    for before, after in pairwise(steps):
        for change in after.changes:
            if isinstance(change, ch.Rolled):
                counts["rolls"] += 1
            elif isinstance(change, ch.Initiative):
                counts["rolls"] += len(after.event.dice)
            elif isinstance(change, ch.Damaged):
                counts["damage"] += 1
                was = before.state.fighters[change.character].status
                counts["statuses"] += change.status != was
            elif isinstance(change, ch.Spent):
                counts["spends"] += 1
            counts["statuses"] += _status_change(change)
    return counts


def _status_change(change: Any) -> int:
    if isinstance(change, ch.Became):
        return 1
    if isinstance(change, ch.Mastery):
        return change.result in ("frenzy", "rotschreck")
    return isinstance(change, ch.Ruled) and change.ruling == "frenzy_ends"


def _setup_willpower(fight: Fight) -> dict[str, int]:
    """Willpower spent before the first event (the first ambush's point, V20-11.1): the pool
    each party lists (full, when it lists none) less the pool after setup."""
    start = fight.kept.steps[0].state
    spent = {}
    for seat in fight.header.seats:
        for listed in seat.setup.fighters:
            f = start.fighters[listed.id]
            pool = f.sheet.willpower if listed.willpower is None else listed.willpower
            if pool != f.willpower:
                spent[listed.id] = pool - f.willpower
    return spent


def test_each_table_holds_one_row_per_thing_of_the_logs(season, con):
    want: dict[str, Counter[str]] = {f.header.match_id: _counted(f) for f in season.fights}
    for table in TABLES:
        got = dict(rows(con, f"SELECT match_id, count(*) FROM v20_{table} GROUP BY match_id"))
        expected = {m: c[table] for m, c in want.items() if c[table]}
        assert got == expected, table
    assert sum(c["statuses"] for c in want.values()) > 0
    assert not any(_setup_willpower(f) for f in season.fights), "setup spends nothing: " \
        "an ambusher's Willpower is spent with its roll, a change like any other"


def test_initiative_dice_belong_to_the_characters_who_rolled_them(season, con):
    """A die is its character's total less its bonus (V20-4.2), read off the states around
    the Roll: the dice follow the step's listing, not the resulting order."""
    seen = 0
    for fight in season.fights:
        dice = {(seq, c): d for seq, c, d in rows(con, (
            "SELECT seq, character, CAST(dice AS INTEGER) FROM v20_rolls WHERE match_id = "
            f"'{fight.header.match_id}' AND purpose = 'initiative'"))}
        steps = fight.kept.steps
        for before, after in pairwise(steps):
            for change in after.changes:
                if isinstance(change, ch.Initiative):
                    for fid in change.order:
                        bonus = pools.initiative_bonus(before.state.fighters[fid])
                        total = after.state.fighters[fid].initiative
                        assert dice[after.seq, fid] == total - bonus, (after.seq, fid)
                        seen += 1
    assert seen > 100


def test_every_attack_roll_names_its_weapon_and_ends_in_a_hit_or_a_miss(con):
    found = rows(con, "SELECT count(*), count(weapon), count(attack_kind), count(opponent), "
                 "count(attack_result) FROM v20_rolls WHERE purpose = 'attack'")
    (n, *named), = found
    assert n > 100 and named == [n, n, n, n]
    kinds = {r[0] for r in rows(con, "SELECT DISTINCT attack_kind FROM v20_rolls "
                                "WHERE purpose = 'attack'")}
    assert kinds <= {"brawl", "melee", "firearms", "athletics"}
    bad = rows(con, "SELECT purpose, count(*) FROM v20_rolls WHERE can_botch = "
               "(purpose IN ('damage', 'soak', 'initiative')) GROUP BY purpose")
    assert bad == []


# The models against the logs -------------------------------------------------------------------

@pytest.fixture(scope="module")
def suite(season: Season) -> dict[str, pd.DataFrame]:
    with contextlib.closing(season.lake.connect()) as connection:
        return metrics.run_all(connection, "v20")


def test_the_suite_is_the_games_models(suite):
    assert tuple(suite) == metrics.suite("v20") == (
        "coverage", "character_win_rates", "build_matchups", "damage_per_attack",
        "time_to_fall", "frenzy_rates", "spends_per_fight", "dice_fairness")
    assert all(metrics.model_paths()[name].parent.name == "v20" for name in suite
               if name != "coverage")


def _sheet_records(season: Season) -> dict[str, Counter[str]]:
    """Per sheet: fights, mirror fights and the non-mirror results, from headers and
    outcomes."""
    found: dict[str, Counter[str]] = defaultdict(Counter)
    for fight in season.fights:
        sheets = fight.sheets()
        for seat, sheet in sheets.values():
            row = found[sheet]
            row["fights"] += 1
            if any(s == sheet and other != seat for other, s in sheets.values()):
                row["mirror_fights"] += 1
                continue
            result = fight.kept.outcome.results[seat]
            row["wins"] += result == "win"
            row["draws"] += result == "draw"
            row["losses"] += result == "loss"
    return found


def test_character_win_rates_are_the_logs(season, suite):
    found = suite["character_win_rates"].set_index("sheet")
    want = _sheet_records(season)
    assert set(found.index) == set(want)
    for sheet, row in want.items():
        got = found.loc[sheet]
        for column in ("fights", "mirror_fights", "wins", "draws", "losses"):
            assert int(got[column]) == row[column], (sheet, column)
        games = row["fights"] - row["mirror_fights"]
        assert int(got["games"]) == games
        assert got["win_rate"] == pytest.approx(row["wins"] / games)


def test_build_matchups_are_the_logs(season, suite):
    found = suite["build_matchups"]
    want: Counter[tuple[str, str, str]] = Counter()
    for fight in season.fights:
        builds = [s.setup.name for s in fight.header.seats]
        if builds[0] == builds[1]:
            continue
        for seat, result in enumerate(fight.kept.outcome.results):
            want[builds[seat], builds[1 - seat], result] += 1
    decided = found[~found["is_mirror"]]
    for row in decided.itertuples():
        assert row.wins == want[row.build, row.opponent_build, "win"]
        assert row.n == sum(want[row.build, row.opponent_build, r]
                            for r in ("win", "loss", "draw"))
    assert found[found["is_mirror"]]["win_rate"].isna().all()


def _attacks(fight: Fight) -> list[dict[str, Any]]:
    """Every attack followed through the changes: its roll opens it, the Hit or Missed that
    follows names its weapon, the Damaged after a hit adds its levels; a counter-blow's damage
    is nobody's attack."""
    attacks: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for _, change in fight.changes:
        if isinstance(change, ch.Rolled) and change.purpose == "attack":
            current = {"weapon": None, "hit": False, "levels": 0}
            attacks.append(current)
        elif isinstance(change, (ch.Hit, ch.Missed)) and current is not None:
            current["weapon"] = change.weapon
            current["hit"] = isinstance(change, ch.Hit)
        elif isinstance(change, ch.Counter):
            current = None
        elif isinstance(change, ch.Damaged) and current is not None:
            current["levels"] += change.levels
    return attacks


def test_damage_per_attack_is_the_logs(season, suite):
    want: dict[str, Counter[str]] = defaultdict(Counter)
    for fight in season.fights:
        for attack in _attacks(fight):
            row = want[attack["weapon"]]
            row["attacks"] += 1
            row["hits"] += attack["hit"]
            row["levels"] += attack["levels"]
    found = suite["damage_per_attack"].set_index("weapon")
    assert set(found.index) == set(want)
    for weapon, row in want.items():
        got = found.loc[weapon]
        assert (int(got["attacks"]), int(got["hits"]), int(got["levels"])) == (
            row["attacks"], row["hits"], row["levels"]), weapon
        assert got["levels_per_attack"] == pytest.approx(row["levels"] / row["attacks"])
        if row["hits"]:
            assert got["levels_per_hit"] == pytest.approx(row["levels"] / row["hits"])


def test_frenzy_rates_are_the_logs(season, suite):
    want: dict[str, Counter[str]] = defaultdict(Counter)
    for fight in season.fights:
        sheets = fight.sheets()
        start = fight.kept.steps[0].state
        for fid, (_, sheet) in sheets.items():
            if start.fighters[fid].kind != "vampire":
                continue
            mine = [c for _, c in fight.changes if getattr(c, "character", None) == fid]
            row = want[sheet]
            row["fights"] += 1
            for test, column in (("frenzy", "frenzy"), ("rotschreck", "rotschreck")):
                row[f"{column}_triggered"] += any(
                    isinstance(c, ch.Triggered) and c.test == test and not c.ignored
                    for c in mine)
                row[f"{column}_fell"] += any(
                    isinstance(c, ch.Mastery) and c.result == test for c in mine)
    found = suite["frenzy_rates"].set_index("sheet")
    assert set(found.index) == set(want)
    for sheet, row in want.items():
        got = found.loc[sheet]
        assert int(got["fights"]) == row["fights"]
        assert int(got["frenzy_triggered"]) == row["frenzy_triggered"]
        assert int(got["frenzied"]) == row["frenzy_fell"]
        assert int(got["rotschreck_triggered"]) == row["rotschreck_triggered"]
        assert int(got["rotschrecked"]) == row["rotschreck_fell"]
        assert got["rotschreck_rate"] == pytest.approx(row["rotschreck_fell"] / row["fights"])
    assert found["rotschrecked"].sum() > 0


def test_time_to_fall_reads_each_fall_off_the_states(season, suite):
    """A character's fall: the first event after which its state shows it Incapacitated, in
    torpor, destroyed or dead, in the turn that event was played in (the turn of the state
    before it: the event may go on to begin the next turn)."""
    want: dict[str, Counter[str]] = defaultdict(Counter)
    turns: dict[str, list[int]] = defaultdict(list)
    for fight in season.fights:
        steps = fight.kept.steps
        for fid, (_, sheet) in fight.sheets().items():
            want[sheet]["fights"] += 1
            fell = next((before.state.turn for before, after in pairwise(steps)
                         if after.state.fighters[fid].status in FALLEN), None)
            if fell is not None:
                want[sheet]["fell"] += 1
                turns[sheet].append(fell)
    found = suite["time_to_fall"].set_index("sheet")
    for sheet, row in want.items():
        got = found.loc[sheet]
        assert (int(got["fights"]), int(got["fell"])) == (row["fights"], row["fell"]), sheet
        if turns[sheet]:
            assert got["avg_fell_turn"] == pytest.approx(sum(turns[sheet]) / len(turns[sheet]))
            assert int(got["first_fell_turn"]) == min(turns[sheet])


def test_spends_per_fight_are_the_logs(season, suite):
    want: Counter[tuple[str, str]] = Counter()
    for fight in season.fights:
        sheets = fight.sheets()
        for _, change in fight.changes:
            if isinstance(change, ch.Spent):
                want[sheets[change.character][1], change.pool] += change.points
    found = suite["spends_per_fight"]
    got = {(r.sheet, r.pool): int(r.points) for r in found.itertuples()}
    assert {k: v for k, v in got.items() if v} == dict(want)
    fights = {r.sheet: int(r.fights) for r in suite["character_win_rates"].itertuples()}
    for row in found.itertuples():
        assert row.points_per_fight == pytest.approx(row.points / fights[row.sheet])


def test_every_rate_sits_inside_its_wilson_interval(suite):
    checked = 0
    for name, frame in suite.items():
        for rate in metrics.load_model(name).rates:
            value = frame[rate.name].astype("float64")
            low = frame[f"{rate.name}_low"].astype("float64")
            high = frame[f"{rate.name}_high"].astype("float64")
            known = value.notna()
            assert (low[known] <= value[known] + 1e-12).all(), name
            assert (value[known] <= high[known] + 1e-12).all(), name
            assert ((low[known] >= -1e-12) & (high[known] <= 1 + 1e-12)).all(), name
            checked += int(known.sum())
    assert checked > 50


# The dice audit --------------------------------------------------------------------------------

def test_fair_dice_pass_the_audit(suite):
    audit = suite["dice_fairness"]
    cells = audit[audit["scope"] == "cell"]
    assert len(cells) >= 10 and (cells["rolls"] >= dice_audit.MIN_ROLLS).all()
    assert not audit["loaded"].any(), audit[audit["loaded"]]
    kinds = audit[audit["scope"] == "kind"].set_index("kind")
    for kind, row in kinds.iterrows():
        mine = cells[(cells["kind"] == kind) & cells["p_value"].notna()]
        assert row["rolls"] == mine["rolls"].sum()
        assert row["chi2"] == pytest.approx(mine["chi2"].sum())
    tested = audit[audit["p_value"].notna()]
    assert ((tested["p_value"] >= 0) & (tested["p_value"] <= 1)).all()
    assert (tested["p_bonferroni"] >= tested["p_value"]).all()
    (initiative,) = cells[cells["kind"] == "initiative"].itertuples()
    assert (initiative.pool, initiative.outcomes, initiative.bins) == (1, 10, 10)
    assert initiative.mean_expected == pytest.approx(5.5)
    assert set(cells["kind"]) >= {"action", "damage", "soak", "initiative"}
    several = cells[cells["p_value"].notna()]["kind"].value_counts()
    assert set(kinds.index) == set(several[several >= 2].index) and len(kinds) >= 2
    assert not cells[cells["kind"].isin(["damage", "soak"])]["can_botch"].any()


def test_the_audit_counts_every_roll_of_its_cells(con, suite):
    audit = suite["dice_fairness"]
    for row in audit[(audit["kind"] == "soak") & (audit["scope"] == "cell")].itertuples():
        (n,), = rows(con, f"SELECT count(*) FROM v20_rolls WHERE purpose = 'soak' AND pool = "
                     f"{row.pool} AND difficulty = {row.difficulty} AND auto = {row.auto}")
        assert row.rolls == n


def test_a_cell_of_the_wrong_law_is_flagged_and_pooling_keeps_the_counts():
    law = dice_audit.law_of("action", 5, 6, False, 0, True)
    fair = {k: round(1000 * float(p)) for k, p in law.items()}
    assert dice_audit.judge_cell(fair, law).p_value > 0.5
    skewed = {**fair, 0: fair[0] + 120}
    assert dice_audit.judge_cell(skewed, law).p_value < 1e-6
    assert dice_audit.judge_cell({99: 40}, law).p_value == 0.0
    obs, exp = dice_audit.pooled([1, 2, 30, 2, 1], [2.0, 3.0, 30.0, 3.0, 2.0])
    assert sum(obs) == 36 and sum(exp) == pytest.approx(40.0)
    assert min(exp) >= dice_audit.MIN_EXPECTED


def _loaded_roll(self: V20Rules, state: Any, rng: random.Random) -> Roll:
    head = state.queue[0]
    return Roll(dice=tuple(rng.choices(LOADED_FACES, LOADED_WEIGHTS, k=head.pool)))


def test_a_loaded_die_is_flagged(tmp_path, monkeypatch):
    """Loaded dice end fights sooner, so the sweep is three times the fair one."""
    monkeypatch.setattr(V20Rules, "sample_chance", _loaded_roll)
    loaded = simulate_and_ingest(tmp_path, [LOADED_SWEEP], replay=False)
    with contextlib.closing(loaded.lake.connect()) as connection:
        audit = metrics.run_model(connection, "dice_fairness", game="v20")
    kinds = audit[audit["scope"] == "kind"]
    assert set(kinds["kind"]) >= {"action", "damage", "soak", "virtue"}
    assert kinds["loaded"].all(), kinds
    cells = audit[audit["scope"] == "cell"]
    big = cells[cells["rolls"] >= 200]
    assert len(big) >= 3 and big["loaded"].all(), big
    assert cells[cells["kind"] == "initiative"]["loaded"].all()
    flagged = audit[audit["loaded"]]
    assert (flagged["mean_observed"] > flagged["mean_expected"]).all()


def test_the_export_shows_the_dice_audit(season, tmp_path):
    code, out, err = run("export", "--lake", season.lake.root, "--game", "v20",
                         "--out", tmp_path, "--json")
    assert code == 0, err
    names = {Path(p).name for p in json.loads(out)["files"]}
    assert {"dice_fairness.csv", "damage_per_attack.csv", "character_win_rates.csv"} <= names
    table = pd.read_csv(tmp_path / "dice_fairness.csv")
    assert {"p_value", "loaded", "observed", "expected"} <= set(table.columns)
