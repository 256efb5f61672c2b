"""Each test game end to end, as an organiser runs it: a seeded tournament simulated (the same
logs every time), verified, replayed from every perspective without telling anyone a secret,
ingested into a lake whose audits hold, its own metric model run and checked against a count
made straight from the logs, its app pages rendered, and its report exported.

The lake gets only what is public once a match is over: the Hunt's die, sightings and catches
(never the fox's runs), Bid's bids (revealed at the end of each round) and rulings."""
from __future__ import annotations

import contextlib
import io
import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

from dashboards.replaying import frame, open_replay
from engine.ruleset import OMNISCIENT, Perspective
from events.log import read_log
from pipeline import metrics
from pipeline.audits import run_audits
from pipeline.lake import Lake
from postgame import cli as command_line
from tests.games.bid.events import Bid, Sealed
from tests.games.checks import Keeper, replayed
from tests.games.hunt.board import FIELD
from tests.games.hunt.events import Den, Rolled, Run, Sighted
from tests.games.hunt.rules import FOX_SIDE

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboards" / "app.py"
TOURNAMENTS = {
    "hunt": ["--seats", "3", "--players", "9", "--rounds", "3", "--seed", "7"],
    "bid": ["--seats", "4", "--matches", "2", "--seed", "7"],
}
MODEL = {"hunt": "fox_escapes", "bid": "build_win_rates"}
GAMES = {"hunt": "tests.games.hunt.registration:registration",
         "bid": "tests.games.bid.registration:registration"}


def run(*argv: Any) -> tuple[int, str, str]:
    """The command line as a person runs it: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = command_line.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


@dataclass
class Season:
    game: str
    logs: Path
    lake: Lake
    ingest: str
    """What ingest printed."""
    played: list[tuple[Any, Keeper]]
    """Each log's header and its replay (every step, checked by the rules), read back."""


@pytest.fixture(scope="module", params=sorted(TOURNAMENTS))
def season(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Season]:
    game = request.param
    root = tmp_path_factory.mktemp(game)
    code, _, err = run("simulate", game, *TOURNAMENTS[game], "--out", root / "logs", "--quiet")
    assert code == 0, err
    with pytest.MonkeyPatch.context() as env:
        # worker processes load the game from its reference, named in the environment
        env.setenv("POSTGAME_GAMES", ",".join(f"{g}={ref}" for g, ref in GAMES.items()))
        code, out, err = run("ingest", root / "logs", "--lake", root / "lake", "--workers", "2",
                             "--quiet")
    assert code == 0, err
    played = []
    for path in sorted((root / "logs").rglob("*.pglog")):
        log = read_log(path)
        played.append((log.header, replayed(log.header, list(log.events))))
    yield Season(game, root / "logs", Lake(root / "lake"), out + err, played)


@pytest.fixture
def con(season: Season) -> Iterator[duckdb.DuckDBPyConnection]:
    with contextlib.closing(season.lake.connect()) as connection:
        yield connection


# Simulate and verify ----------------------------------------------------------------------

def test_a_seeded_tournament_writes_the_same_logs_every_time(season, tmp_path):
    code, _, err = run("simulate", season.game, *TOURNAMENTS[season.game], "--out", tmp_path,
                       "--quiet")
    assert code == 0, err
    first = {p.relative_to(season.logs): p.read_bytes() for p in season.logs.rglob("*.pglog")}
    again = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*.pglog")}
    assert first and first == again


def test_every_log_of_the_tournament_verifies(season):
    code, out, err = run("verify", season.logs, "--complete")
    n = len(season.played)
    assert (code, out) == (0, "") and f"verified {n} logs: 0 bad" in err
    assert all(kept.outcome is not None for _, kept in season.played)


# Replay from every perspective, nothing leaked -------------------------------------------------

def _secret_of(game: str, header: Any, kept: Keeper, at: int) -> dict[Any, list[str]]:
    """What each seat keeps to itself at step `at`: the words that would give it away, by the
    seat (or side) allowed to know them."""
    step = kept.steps[at]
    if game == "hunt":
        state = step.state
        place = state.at[state.fox]
        if place is None or state.shown:
            return {}
        return {state.fox: [f"at {FIELD.name(place)}", f"to {FIELD.name(place)}"]}
    secrets: dict[Any, list[str]] = {}
    if type(step.event) is Bid and any(isinstance(c, Sealed) for c in step.changes):
        secrets[step.event.seat] = [f"bids {step.event.amount}"]
    return secrets


def _allowed(game: str, perspective: Perspective, seat: int) -> bool:
    if perspective in (OMNISCIENT, seat):
        return True
    return game == "hunt" and perspective == FOX_SIDE


def test_every_perspective_replays_every_match_and_learns_no_secret(season):
    for header, kept in season.played:
        (path,) = [p for p in season.logs.rglob(f"{header.match_id}.pglog")]
        cursor = open_replay(path)
        assert cursor.total == len(kept.steps) - 1
        shown: set[Perspective] = set()
        for perspective, _ in cursor.perspectives():
            shown.add(perspective)
            for at in range(cursor.total + 1):
                seen = frame(cursor, at, perspective)
                words = " ".join([seen.event, *seen.changes])
                for seat, giveaways in _secret_of(season.game, header, kept, at).items():
                    if _allowed(season.game, perspective, seat):
                        continue
                    leaked = [w for w in giveaways if w in words]
                    assert not leaked, (header.match_id, at, perspective, words)
                    _view_keeps_secret(season.game, kept, at, perspective, seat)
            assert seen.outcome  # the last frame tells how the match ended
        assert OMNISCIENT in shown and set(range(len(header.seats))) <= shown


def _view_keeps_secret(game: str, kept: Keeper, at: int, perspective: Perspective,
                       seat: int) -> None:
    from engine.ruleset import get_ruleset

    ruleset = get_ruleset(f"{game}@1")
    view = ruleset.view(kept.steps[at].state, perspective)
    if game == "hunt":
        assert view["fox"]["place"] is None
    else:
        assert view["seats"][seat]["bid"] is None


def test_the_organiser_and_the_secret_holder_are_told_the_secret(season):
    """The check above has teeth: the perspectives that may know are told."""
    told = 0
    for header, kept in season.played[:3]:
        (path,) = [p for p in season.logs.rglob(f"{header.match_id}.pglog")]
        cursor = open_replay(path)
        for at in range(1, cursor.total + 1):
            for seat, giveaways in _secret_of(season.game, header, kept, at).items():
                event = kept.steps[at].event
                if season.game == "hunt" and type(event) not in (Den, Run):
                    continue
                for perspective in (OMNISCIENT, seat):
                    seen = frame(cursor, at, perspective)
                    words = " ".join([seen.event, *seen.changes])
                    told += any(w in words for w in giveaways)
    assert told > 0


# Ingest and audits ------------------------------------------------------------------------------

def test_ingest_takes_every_log_and_the_audits_hold(season, con):
    n = len(season.played)
    assert f"{n} ingested" in season.ingest and "0 quarantined" in season.ingest
    results = run_audits(con)
    assert results and all(r.count == 0 for r in results if r.must_hold), [
        (r.name, r.rows) for r in results if r.count]
    names = {r.name for r in results}
    own = "hunt_chases" if season.game == "hunt" else "bid_rounds"
    assert f"{own}_reference_matches" in names
    assert con.execute("SELECT count(*) FROM matches").fetchone() == (n,)


def test_the_lake_holds_only_public_facts(season, con):
    if season.game == "hunt":
        columns = [r[0] for r in con.execute("DESCRIBE hunt_chases").fetchall()]
        assert not {"place", "to", "den"} & set(columns)
        rolls = sum(1 for _, kept in season.played for s in kept.steps
                    for c in s.changes if isinstance(c, Rolled))
        assert con.execute("SELECT count(*) FROM hunt_chases").fetchone() == (rolls,)
    else:
        bids = sum(1 for _, kept in season.played for s in kept.steps if type(s.event) is Bid)
        assert con.execute("SELECT count(*) FROM bid_rounds").fetchone() == (bids,)


# The game's own metric model -------------------------------------------------------------------

def _hunt_counts(season: Season) -> pd.DataFrame:
    rows: dict[int, Counter[str]] = defaultdict(Counter)
    for header, kept in season.played:
        assert kept.outcome is not None
        row = rows[len(header.seats) - 1]
        row["hunts"] += 1
        row["escapes"] += kept.outcome.side == "fox"
        row["catches"] += kept.outcome.side == "hounds"
        row["draws"] += kept.outcome.side is None
        changes = [c for s in kept.steps for c in s.changes]
        row["sighted"] += any(isinstance(c, Sighted) for c in changes)
        row["rounds"] += sum(isinstance(c, Rolled) for c in changes)
    return pd.DataFrame([{"hounds": h, **c} for h, c in sorted(rows.items())])


def _bid_counts(season: Season) -> pd.DataFrame:
    rows: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for header, kept in season.played:
        assert kept.outcome is not None
        for seat in header.seats:
            row = rows[seat.setup.name, str(seat.side)]
            row["seat_games"] += 1
            row["wins"] += kept.outcome.results[seat.seat] == "win"
            row["draws"] += kept.outcome.results[seat.seat] == "draw"
            row["coins_bid"] += sum(s.event.amount for s in kept.steps
                                    if type(s.event) is Bid and s.event.seat == seat.seat)
    return pd.DataFrame([{"build": b, "side": s, **c} for (b, s), c in sorted(rows.items())])


def test_the_suite_runs_the_games_own_model_and_its_numbers_are_the_logs(season, con):
    assert metrics.suite(season.game) == ("coverage", MODEL[season.game])
    assert metrics.model_paths()[MODEL[season.game]].is_relative_to(ROOT / "tests" / "games")
    tables = metrics.run_all(con, season.game)
    assert int(tables["coverage"]["matches"].sum()) == len(season.played)
    found = tables[MODEL[season.game]]
    if season.game == "hunt":
        want = _hunt_counts(season)
        got = found[["hounds", "hunts", "escapes", "catches", "draws", "sighted"]]
        pd.testing.assert_frame_equal(got.astype("int64"), want.drop(columns="rounds")
                                      .astype("int64"), check_dtype=False)
        assert list(found["avg_rounds"]) == pytest.approx(list(want["rounds"] / want["hunts"]))
        rate, n, k = found["escape_rate"], found["hunts"], found["escapes"]
    else:
        want = _bid_counts(season)
        got = found[["build", "side", "seat_games", "wins", "draws", "coins_bid"]]
        pd.testing.assert_frame_equal(got.reset_index(drop=True), want, check_dtype=False)
        rate, n, k = found["win_rate"], found["seat_games"], found["wins"]
    assert list(rate) == pytest.approx(list(k / n))
    name = rate.name
    assert (found[f"{name}_low"] <= rate).all() and (rate <= found[f"{name}_high"]).all()
    assert ((found[f"{name}_low"] >= 0) & (found[f"{name}_high"] <= 1)).all()


# The app --------------------------------------------------------------------------------------

@pytest.mark.parametrize("page", [None, "lake", "export"])
def test_the_apps_pages_for_the_game_render(season, page, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from dashboards.data import LAKE_ENV
    from dashboards.pages import pages_for

    listed = [spec.path for specs in pages_for(season.game).values() for spec in specs]
    assert not any(p.endswith(("cards.py", "matchups.py", "charges.py")) for p in listed)
    monkeypatch.setenv(LAKE_ENV, str(season.lake.root))
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    if page is not None:
        at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, at.exception
    if page is None:
        step = next(m.value for m in at.markdown if m.value.startswith("**Step "))
        assert step.startswith("**Step 0/")
        words = "\n".join(str(getattr(e, "value", "")) for kind in (
            "title", "markdown", "caption", "info", "success", "warning", "error")
            for e in at.get(kind))
        assert f"{len(season.played)} match(es)" in words
        assert not at.error and not at.warning, words


# Export ---------------------------------------------------------------------------------------

def test_the_export_writes_the_games_suite(season, tmp_path):
    code, out, err = run("export", "--lake", season.lake.root, "--game", season.game,
                         "--out", tmp_path, "--json")
    assert code == 0, err
    files = [Path(p) for p in json.loads(out)["files"]]
    model = MODEL[season.game]
    assert all(p.is_file() and p.stat().st_size > 0 for p in files)
    assert {p.name for p in files} >= {f"{model}.csv", f"{model}.parquet", "coverage.csv",
                                       "report.xlsx", "report.html", "about.json"}
    csv = pd.read_csv(tmp_path / f"{model}.csv")
    assert len(csv) > 0
    assert model in (tmp_path / "report.html").read_text(encoding="utf-8")
