"""The charge cap of logged matches in `postgame ingest` and `postgame verify`, Eredan's
(ER-2.13, ER-3.3, ER-3.6) and Vitorian Wars' (CH-2.8): each deck against the charge table in
force at its match's start, computed from the lake's tournaments (charges.md CH-2.2), the
batch's own earlier epochs included.

The season: 2 tournaments of 8 players, 1 round (8 matches, epoch 0, all-zero table). Its 16
registered decks make the table of epoch 1, under which several of them are over 500: played
again in a later tournament (a hand-made log, the engine's greedy bots playing it out), such a
deck breaks the cap of the table in force.
"""
from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path

import msgspec
import pytest

from engine.bots import make_bot
from engine.eredan.cards import load_catalog
from engine.eredan.charges import ChargeTable, card_base, deck_charge
from engine.eredan.deckcheck import resolve
from engine.games import get_game
from engine.ruleset import get_ruleset
from engine.simulate import play_match
from engine.tournament import SeasonConfig, Tournament, run_season
from events.base import DeckList, Header, Seat
from events.log import read_log, write_log
from pipeline import charges as ch
from pipeline.ingest import find_logs, ingest
from pipeline.lake import Lake
from postgame import cli
from tests.pipeline.conftest import table_counts

CAP = 500


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Tournament]]:
    """`postgame simulate eredan --players 8 --rounds 1 --tournaments 2 --seed 5`."""
    out = tmp_path_factory.mktemp("cap-season") / "season"
    tours = run_season(SeasonConfig(game="eredan", players=8, rounds=1, seed=5, out=out,
                                    tournaments=2))
    assert len(find_logs([out])) == 8
    return out, tours


@pytest.fixture(scope="module")
def season_lake(tmp_path_factory: pytest.TempPathFactory,
                season: tuple[Path, list[Tournament]]) -> Lake:
    """The season alone, ingested (read-only)."""
    lake = Lake(tmp_path_factory.mktemp("cap-lake") / "lake")
    report = ingest([season[0]], lake)
    assert report.ingested == 8 and not report.quarantined
    return lake


def registered(tours: list[Tournament]) -> list[DeckList]:
    return [e.deck for t in tours for e in t.entrants.values()]


def reference_table(previous: ch.Table, decks: Iterable[DeckList],
                    settings: ch.FormatSettings) -> ch.Table:
    """CH-2.3 - CH-2.7 by hand: each registered deck once, evolutions folded into their base."""
    decks = list(decks)
    counts: dict[str, int] = {}
    for deck in decks:
        for card in {card_base(e.card) for es in deck.sections.values() for e in es if e.count}:
            counts[card] = counts.get(card, 0) + 1
    return ch.next_table(previous, counts, len(decks), settings)[0]


def charge(deck: DeckList, table: ch.Table) -> int:
    """CH-2.8 / ER-3.3 by the engine's own count: every copy, the characters included."""
    catalog = load_catalog()
    engine_table = ChargeTable(version="ref", charges={c: s.charge for c, s in table.items()})
    counted = [(catalog.by_id[e.card], e.count) for es in resolve(deck, catalog).sections.values()
               for e in es]
    return deck_charge(counted, engine_table, catalog)[0]


def play(out: Path, like: Header, match_id: str, tournament: str, days: int,
         seats: list[tuple[str, DeckList]]) -> Path:
    """A hand-made log: a match of `tournament` `days` after `like` started, these players and
    decks, played out by the greedy bots (legal in every other respect)."""
    assert like.started_at is not None
    header = msgspec.structs.replace(
        like, match_id=match_id, tournament=tournament, round=1, table=1,
        started_at=like.started_at + timedelta(days=days),
        seats=[Seat(seat=i, player=player, setup=deck) for i, (player, deck) in enumerate(seats)])
    kit = get_game("eredan")
    bots = {i: make_bot("greedy", dict(kit.bots)) for i in range(2)}
    events, _ = play_match(get_ruleset(header.ruleset), header, bots, random.Random(header.seed))
    path = out / f"{match_id}.pglog"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_log(path, header, events)
    return path


def first_header(season: tuple[Path, list[Tournament]]) -> Header:
    return read_log(min(season[0].rglob("*.pglog"))).header


def dearest(tours: list[Tournament], table: ch.Table) -> tuple[str, DeckList, int]:
    """The registered deck with the highest charge under `table`: (player, deck, charge)."""
    entrants = [e for t in tours for e in t.entrants.values()]
    best = max(entrants, key=lambda e: charge(e.deck, table))
    return best.name, best.deck, charge(best.deck, table)


def epoch_one(tours: list[Tournament]) -> ch.Table:
    settings = ch.load_formats().settings("eredan", "standard")
    return reference_table(ch.initial_table(settings), registered(tours), settings)


@pytest.fixture(scope="module")
def over_cap(tmp_path_factory: pytest.TempPathFactory,
             season: tuple[Path, list[Tournament]]) -> tuple[Path, str, int]:
    """A log of a third tournament (epoch 1) whose seat 0 plays the season's dearest deck:
    (path, player, its charge under epoch 1's table, over 500)."""
    player, deck, total = dearest(season[1], epoch_one(season[1]))
    assert total > CAP
    out = tmp_path_factory.mktemp("over-cap")
    path = play(out, first_header(season), "er-2026-003-r1-t1", "er-2026-003", 30,
                [(player, deck), ("Nova Quill", deck)])
    return path, player, total


# --- ingest --------------------------------------------------------------------------------

def test_an_over_cap_deck_is_quarantined_as_ER_3_3_and_the_rest_of_the_batch_goes_in(
        season, over_cap, tmp_path):
    path, player, total = over_cap
    lake = Lake(tmp_path / "lake")
    report = ingest([season[0], path], lake)  # one batch: epoch 1's table from its own epoch 0
    assert (report.ingested, report.seen) == (8, 9)
    (quarantined,) = report.quarantined
    assert (quarantined.path, quarantined.match_id, quarantined.rule, quarantined.seq) == \
        (str(path), "er-2026-003-r1-t1", "ER-3.3", 0)
    reason = quarantined.reason
    assert reason.startswith(f"seat 0 ({player}): deck charge {total} exceeds {CAP} in table "
                             "epoch-1")
    assert "; seat 1 (Nova Quill): deck charge" in reason  # both seats named
    assert report.to_json()["quarantined_by_rule"] == {"ER-3.3": 1}
    assert table_counts(lake)["matches"] == 8
    con = lake.connect()
    assert con.execute("SELECT match_id, rule, seq FROM quarantine").fetchall() == \
        [("er-2026-003-r1-t1", "ER-3.3", 0)]
    assert con.execute("SELECT count(*) FROM seats WHERE match_id LIKE 'er-2026-003%'"
                       ).fetchone() == (0,)
    assert not report.audits_failed, [a.to_json() for a in report.audits_failed]


def test_the_lake_computes_the_same_total_as_the_quarantine_reason(season_lake, over_cap):
    """CH-2.8 by the pipeline's own deck check agrees with the engine's ER-3.3 count."""
    path, _, total = over_cap
    header = read_log(path).header
    season = ch.compute_charges(season_lake.connect(), "eredan", "standard")
    checked = season.check(header.seats[0].setup, header.started_at)
    assert (checked.charge, checked.table.epoch, checked.within_cap) == (total, 1, False)


def test_ingesting_again_skips_the_quarantined_log(season, over_cap, tmp_path):
    lake = Lake(tmp_path / "lake")
    ingest([season[0], over_cap[0]], lake)
    again = ingest([season[0], over_cap[0]], lake)
    assert (again.skipped, again.ingested, again.quarantined) == (9, 0, [])
    assert table_counts(lake)["quarantine"] == 1


def test_the_log_is_judged_by_the_lake_when_ingested_after_its_season(season, over_cap,
                                                                      tmp_path):
    lake = Lake(tmp_path / "lake")
    ingest([season[0]], lake)
    report = ingest([over_cap[0]], lake)
    assert report.ingested == 0 and [q.rule for q in report.quarantined] == ["ER-3.3"]


def test_a_match_before_any_epoch_is_checked_against_the_initial_table(season, tmp_path):
    """CH-2.2: epoch 0 uses the format's initial table; here one that charges every card of
    one deck 50, so that deck's match is over the cap while every other goes in."""
    logs = find_logs([season[0]])
    header = read_log(logs[0]).header
    deck = resolve(header.seats[0].setup, load_catalog())
    initial = {card_base(e.card): 50 for es in deck.sections.values() for e in es}
    formats = ch.parse_formats(
        "[eredan.standard]\nscale = 50\nmax_charge = 50\ncap = 500\n[eredan.standard.initial]\n"
        + "".join(f'"{card}" = 50\n' for card in sorted(initial)))
    report = ingest(logs, Lake(tmp_path / "lake"), charge_formats=formats)
    offenders = {q.match_id: q for q in report.quarantined}
    assert header.match_id in offenders and report.ingested == 8 - len(offenders)
    assert {q.rule for q in offenders.values()} == {"ER-3.3"}
    assert f"seat 0 ({header.seats[0].player}): deck charge" in offenders[header.match_id].reason
    assert "in table epoch-0" in offenders[header.match_id].reason


def test_a_season_ingested_in_one_go_has_no_charge_quarantine(tmp_path):
    """The simulator builds each deck under the cap of its epoch (SeasonCharges); the lake's
    tables, computed as the batches go, agree: every match goes in, each checked against its
    tournament's epoch, and the later tables do charge."""
    out = tmp_path / "season"
    run_season(SeasonConfig(game="eredan", players=8, rounds=1, seed=9, out=out,
                            tournaments=6))
    lake = Lake(tmp_path / "lake")
    report = ingest([out], lake, batch_size=10)  # three batches, each on the ones before
    assert (report.ingested, report.quarantined, report.batches) == (24, [], 3)
    tables = ch.MatchCharges(lake.connect())
    epochs = {}
    for path in find_logs([out]):
        header = read_log(path).header
        verdict = tables.check(header)
        assert verdict is not None and verdict.within_cap, verdict
        epochs[header.tournament] = verdict.table.version
    assert sorted(set(epochs.values())) == ["epoch-0", "epoch-1", "epoch-2"]
    assert max(tables.in_force(header).charges.values()) > 0


def test_quarantining_recomputes_the_later_epochs_before_judging_them(season, tmp_path):
    """The fixpoint: X (epoch 1) is over the cap; its decks would, if counted, push epoch 2's
    table so that Y (epoch 2) is over too. Without X, Y is within: only X goes to quarantine.
    Thin epochs count here (min_decks 1), so every epoch is computed, none carried over."""
    tours = season[1]
    settings = msgspec.structs.replace(ch.load_formats().settings("eredan", "standard"),
                                       min_decks=1)
    formats = ch.ChargeFormats(games={"eredan": {"standard": settings}})
    decks = registered(tours)
    table1 = reference_table(ch.initial_table(settings), decks, settings)
    x, a, b, c, y = fixpoint_decks(decks, table1, settings)
    like = first_header(season)
    out = tmp_path / "late"
    play(out, like, "er-2026-003-r1-t1", "er-2026-003", 30, [("Xena Dear", x), ("Abel A", a)])
    play(out, like, "er-2026-003-r1-t2", "er-2026-003", 30, [("Bea B", b), ("Cid C", c)])
    play(out, like, "er-2026-004-r1-t1", "er-2026-004", 33, [("Bea B", b), ("Cid C", c)])
    play(out, like, "er-2026-005-r1-t1", "er-2026-005", 36, [("Yan Y", y), ("Zoe Z", y)])
    report = ingest([season[0], out], Lake(tmp_path / "lake"), charge_formats=formats)
    assert [(q.match_id, q.rule) for q in report.quarantined] == \
        [("er-2026-003-r1-t1", "ER-3.3")]
    assert report.ingested == 11


def fixpoint_decks(decks: list[DeckList], table1: ch.Table, settings: ch.FormatSettings
                   ) -> tuple[DeckList, ...]:
    """Decks x (over the cap under epoch 1's table), a, b, c (b and c within it) and y, within
    the cap under epoch 2's table made of b and c twice, over it if x and a count too."""
    over = [d for d in decks if charge(d, table1) > CAP]
    within = [d for d in decks if charge(d, table1) <= CAP]
    for x, (a, b, c) in itertools.product(over, itertools.permutations(within, 3)):
        with_x = reference_table(table1, [x, a, b, c, b, c], settings)
        without_x = reference_table(table1, [b, c, b, c], settings)
        for y in decks:
            if charge(y, without_x) <= CAP < charge(y, with_x):
                return x, a, b, c, y
    raise AssertionError("the season offers no such decks: change its seed")


# --- verify --------------------------------------------------------------------------------

def verify(capsys: pytest.CaptureFixture, *args: object) -> tuple[int, str, str]:
    code = cli.main(["verify", *(str(a) for a in args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_with_a_lake_reports_the_over_cap_log_at_the_header(season_lake, over_cap,
                                                                   capsys):
    path, player, total = over_cap
    code, out, err = verify(capsys, path, "--lake", season_lake.root)
    assert code == 1
    assert out.startswith(f"{path}: seq 0: ER-3.3: seat 0 ({player}): deck charge {total} "
                          f"exceeds {CAP} in table epoch-1")
    assert "notice" not in err and "verified 1 log: 1 bad" in err
    code, out, _ = verify(capsys, path, "--lake", season_lake.root, "--json")
    (log,) = json.loads(out)["logs"]
    assert code == 1 and (log["ok"], log["seq"], log["rule"], log["charge_table"]) == \
        (False, 0, "ER-3.3", "epoch-1")
    assert json.loads(out)["notices"] == []


def test_verify_with_a_lake_passes_the_season_against_its_own_tables(season, season_lake,
                                                                      capsys):
    code, out, _ = verify(capsys, season[0], "--lake", season_lake.root, "--json")
    report = json.loads(out)
    assert code == 0 and report["bad"] == 0 and report["checked"] == 8
    assert {log["charge_table"] for log in report["logs"]} == {"epoch-0"}


def test_verify_without_a_lake_says_the_cap_was_not_checked(season, over_cap, capsys):
    code, out, err = verify(capsys, season[0], over_cap[0])
    assert code == 0 and out == ""
    assert ("notice: ER-3.3 (charge cap) was not checked for 9 eredan logs: no charge tables "
            "were given; add --lake DIR") in err
    code, out, err = verify(capsys, over_cap[0], "--json")
    report = json.loads(out)
    assert code == 0 and report["logs"][0]["cap_unchecked"] is True
    notice = ("ER-3.3 (charge cap) was not checked for 1 eredan log: no charge tables were "
              "given; add --lake DIR to check each deck against the lake's table in force at its "
              "match date (ER-3.6)")
    unsigned = ("1 log is unsigned: nothing shows who recorded them (record with --sign-key, "
                "check with --key)")
    assert report["notices"] == [notice, unsigned]


def test_verify_checks_the_vitorian_cap_CH_2_8_against_a_lake(copy_logs, capsys, tmp_path):
    """CH-2.8 holds Vitorian standard decks to a cap, checked by its rules: without a lake verify
    says it had no tables to check them against; with one, nothing goes unchecked."""
    logs = copy_logs(2)
    code, _, err = verify(capsys, *logs)
    assert code == 0
    assert ("notice: CH-2.8 (charge cap) was not checked for 2 vitorian logs: no charge tables "
            "were given; add --lake DIR") in err
    code, out, err = verify(capsys, *logs, "--lake", tmp_path, "--json")
    report = json.loads(out)
    assert code == 0 and not any("CH-2.8" in notice for notice in report["notices"])
    assert {log["charge_table"] for log in report["logs"]} == {"epoch-0"}


def test_ingest_checks_the_vitorian_cap_CH_2_8(copy_logs, tmp_path):
    report = ingest(copy_logs(3), Lake(tmp_path / "lake"))
    assert report.ingested == 3 and not report.quarantined
    assert report.notices == [] and report.to_json()["notices"] == []


def test_ingest_says_when_a_game_s_rules_do_not_check_its_cap(copy_logs, tmp_path, monkeypatch):
    """A game whose format has charges but whose rules supply no cap check (none today) is
    not passed in silence: the report says for how many logs CH-2.8 went unchecked."""
    monkeypatch.setattr("pipeline.ingest.checks_cap", lambda game: False)
    report = ingest(copy_logs(3), Lake(tmp_path / "lake"))
    assert report.ingested == 3 and not report.quarantined
    assert report.notices == [
        ("CH-2.8 (charge cap) was not checked for 3 vitorian logs: the vitorian rules do not "
         "check it yet (postgame charges --deck checks one deck)")]
    assert report.to_json()["notices"] == report.notices


def test_a_vitorian_deck_over_the_cap_is_quarantined_as_CH_2_8(copy_logs, tmp_path):
    """CH-2.2, CH-2.8: an initial table charging 25 for every card of one Vitorian deck's
    Sovereign and Maneuver Deck (51 cards, 1275 > 500) quarantines that deck's matches at the
    header, naming the seat, the charge, the cap, the table and the top contributors; Convoy and
    Defense Pile cards are not charged (formats.toml `sections`)."""
    logs = copy_logs(8)
    header = read_log(logs[0]).header
    deck = header.seats[0].setup
    charged = {e.card for section in ("sovereign", "maneuver") for e in deck.section(section)}
    formats = ch.parse_formats(
        '[vitorian.standard]\nsections = ["sovereign", "maneuver"]\nscale = 25\n'
        "max_charge = 25\ncap = 500\n[vitorian.standard.initial]\n"
        + "".join(f'"{card}" = 25\n' for card in sorted(charged)))
    report = ingest(logs, Lake(tmp_path / "lake"), charge_formats=formats)
    offenders = {q.match_id: q for q in report.quarantined}
    assert header.match_id in offenders and report.ingested == 8 - len(offenders)
    assert {(q.rule, q.seq) for q in offenders.values()} == {("CH-2.8", 0)}
    reason = offenders[header.match_id].reason
    player = header.seats[0].player
    assert reason.startswith(f"seat 0 ({player}): deck charge 1275 exceeds 500 in table "
                             "epoch-0 (top: ")
    assert reason.count("x25=") >= 3


def test_verify_help_teaches_the_lake_option(capsys):
    with pytest.raises(SystemExit):
        cli.main(["verify", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--lake DIR" in text and "ER-3.3" in text and "in force at the match date" in text


def test_verify_with_a_missing_lake_is_a_user_error(over_cap, capsys, tmp_path):
    code, _, err = verify(capsys, over_cap[0], "--lake", tmp_path / "nowhere")
    assert code == 2 and "nowhere: no such lake folder" in err


def test_the_ingest_command_reports_the_charge_quarantine(season, over_cap, capsys, tmp_path):
    code = cli.main(["ingest", str(season[0]), str(over_cap[0]), "--lake",
                     str(tmp_path / "lake"), "--json", "--quiet", "--strict"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["quarantined_by_rule"] == {"ER-3.3": 1}
    assert report["quarantine"][0]["seq"] == 0
