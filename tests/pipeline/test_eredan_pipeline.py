"""Eredan through the pipeline: a simulated standard season ingested into a lake, its facts
checked against the engine, its charge tables against the plain-Python reference of
test_charges, and the metrics by guild run on it."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import duckdb
import pytest

from engine.eredan.cards import load_catalog
from engine.eredan.charges import card_base
from engine.replay import ReplayVisitor, replay_log
from engine.ruleset import get_ruleset
from engine.tournament import SeasonConfig, run_season
from events.base import DeckEntry, DeckList
from events.log import read_log
from pipeline import charges as ch
from pipeline import metrics
from pipeline.ingest import IngestReport, find_logs, ingest
from pipeline.lake import Lake
from tests.pipeline.test_charges import computed, reference_charges

SEASON = SeasonConfig(game="eredan", players=8, rounds=3, seed=23, out=Path("unused"),
                      tournaments=20)
"""20 tournaments x 3 rounds x 4 tables = 240 matches; epochs of two tournaments (CH-2.1)."""
MATCHES = 240


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], IngestReport]:
    out = tmp_path_factory.mktemp("eredan-season")
    run_season(SeasonConfig(**{**SEASON.__dict__, "out": out}))
    logs = find_logs([out])
    assert len(logs) == MATCHES
    report = ingest(logs, Lake(tmp_path_factory.mktemp("eredan-lake") / "lake"), workers=1,
                    batch_size=100)
    return logs, report


@pytest.fixture(scope="module")
def con(season: tuple[list[Path], IngestReport]) -> duckdb.DuckDBPyConnection:
    return Lake(season[1].lake).connect()


def test_every_log_goes_in_and_the_audits_pass(season):
    _, report = season
    assert report.ingested == MATCHES and not report.quarantined
    assert not report.audits_failed, [a.to_json() for a in report.audits_failed]


def test_decks_carry_the_guild_and_the_three_characters(con):
    catalog = load_catalog()
    rows = con.execute("SELECT faction, leader FROM decks WHERE game = 'eredan'").fetchall()
    assert len(rows) == 2 * MATCHES
    guilds = {g for c in catalog.characters for g in c.guilds} | {"Mercenaries"}
    for faction, leader in rows:
        assert set(faction.split("+")) <= guilds
        ids = leader.split("+")
        assert len(ids) == 3 and ids == sorted(ids)
        assert all(i in catalog.by_id for i in ids)
    sections = {s for (s,) in con.execute("SELECT DISTINCT section FROM deck_cards").fetchall()}
    assert sections == {"characters", "deck"}


def test_card_events_of_every_kind_and_five_card_opening_hands(con):
    kinds = dict(con.execute("SELECT kind, count(*) FROM card_events GROUP BY 1").fetchall())
    assert set(kinds) == {"opening_hand", "drawn", "played", "destroyed", "hit"}
    assert kinds["opening_hand"] == 2 * 5 * MATCHES  # ER-4.3
    assert con.execute("SELECT count(*) FROM card_events WHERE kind = 'played' AND target IS "
                       "NULL").fetchone() == (0,)


class _Damage(ReplayVisitor):
    def end(self, state, outcome):  # type: ignore[no-untyped-def]
        self.damage = [p.damage for p in state.players]
        self.defeats = Counter({(cid // 100, state.cards[cid].id): n for (cid, stat), n in
                                state.stats.items() if stat == "defeats" and n})
        """Per character, resurrections (ER-10) included: defeated twice counts twice."""


def test_hits_and_defeats_agree_with_the_engine(season, con):
    """The hits' amounts per seat are the engine's damage score (ER-1.3, ER-7.13)."""
    logs, _ = season
    for path in logs[:: len(logs) // 12]:
        log = read_log(path)
        header, events = log.header, log.events
        visitor = _Damage()
        replay_log(get_ruleset(header.ruleset), header, events, visitor)
        hits = dict(con.execute("SELECT seat, sum(amount) FROM card_events WHERE match_id = ? "
                                "AND kind = 'hit' GROUP BY 1", [header.match_id]).fetchall())
        assert [hits.get(seat, 0) for seat in (0, 1)] == visitor.damage
        destroyed = Counter(tuple(row) for row in con.execute(
            "SELECT seat, card FROM card_events WHERE match_id = ? AND kind = 'destroyed'",
            [header.match_id]).fetchall())
        assert destroyed == visitor.defeats


def test_charge_tables_change_every_two_tournaments_as_the_reference_computes(con):
    season = ch.compute_charges(con, "eredan", "standard")
    assert len(season.tournaments) == 20
    assert season.epochs["decks_registered"].tolist()[:10] == [16] * 10
    catalog = load_catalog()
    expected = reference_charges(con, "eredan", "standard",
                                 ch.load_formats().settings("eredan", "standard"),
                                 base=lambda card: card_base(card, catalog))
    tables = computed(season)
    assert tables == expected
    assert all(tables[k] != tables[k - 1] for k in range(1, 11))
    # evolutions share the base card's charge (CH-2.10): only family bases are listed
    assert all(card_base(card, catalog) == card for table in tables.values() for card in table)


def test_card_usage_and_matchups_by_guild(con):
    usage = metrics.card_usage(con, "eredan", "standard")
    assert len(usage) > 20
    pairs = metrics.matchups(con, "eredan", "standard")
    factions = {f for (f,) in con.execute("SELECT DISTINCT faction FROM decks").fetchall()}
    assert set(pairs["faction"]) == factions
    assert int(pairs["n"].sum()) > MATCHES


def test_every_deck_fits_the_cap_of_the_table_in_force(con):
    """The simulator builds each tournament's decks under its epoch's table (CH-2.2, CH-2.8), the
    one the lake computes from the season's earlier registrations."""
    season = ch.compute_charges(con, "eredan", "standard")
    rows = con.execute("SELECT m.match_id, m.started_at, d.seat, d.section, d.card, d.copies "
                       "FROM deck_cards d JOIN matches m USING (match_id) "
                       "ORDER BY m.match_id, d.seat").fetchall()
    decks: dict[tuple[str, int], tuple[object, dict[str, list[DeckEntry]]]] = {}
    for match, started, seat, section, card, copies in rows:
        _, sections = decks.setdefault((match, seat), (started, {}))
        sections.setdefault(section, []).append(DeckEntry(card=card, count=copies))
    charges = []
    for (match, seat), (started, sections) in decks.items():
        result = season.check(DeckList(name=f"{match}/{seat}", sections=sections),
                              when=started.date())
        assert result.legal, result.problems
        charges.append(result.charge)
    assert max(charges) <= 500 and max(charges) > 400  # the cap binds, and holds


def test_a_capped_season_is_byte_identical_whatever_the_workers(tmp_path: Path):
    """Tables come from registrations only, never results: the same logs with 1 or 2 workers."""
    def play(workers: int) -> dict[str, bytes]:
        out = tmp_path / f"w{workers}"
        cfg = SeasonConfig(game="eredan", players=8, rounds=1, seed=7, out=out, tournaments=6,
                           workers=workers)
        run_season(cfg)
        return {str(p.relative_to(out)): p.read_bytes() for p in find_logs([out])}

    one = play(1)
    assert len(one) == 24 and one == play(2)


class _Aimed(ReplayVisitor):
    """Every revealed card with the character it was aimed at (an Artisan's receiver, else the
    chosen target), by the engine's own Revealed changes."""

    def begin(self, header, state):  # type: ignore[no-untyped-def]
        self.aimed: Counter[tuple[int, str, str]] = Counter()

    def step(self, seq, event, changes, state):  # type: ignore[no-untyped-def]
        for change in changes:
            aim = getattr(change, "receiver", None) or getattr(change, "target", None)
            if change.kind == "revealed" and aim is not None:
                self.aimed[(seq, state.cards[change.card].id, state.cards[aim].id)] += 1


def test_a_played_card_is_credited_to_the_character_it_was_aimed_at(season, con):
    """Both seats' submissions are revealed by the second one (ER-5.15): the first seat's cards
    keep their own targets, not the second submission's or their user's."""
    logs, _ = season
    for path in logs[:40]:
        log = read_log(path)
        aimed = _Aimed()
        replay_log(get_ruleset(log.header.ruleset), log.header, log.events, aimed)
        rows = con.execute("SELECT seq, card, target FROM card_events WHERE match_id = ? AND "
                           "kind = 'played'", [log.header.match_id]).fetchall()
        assert aimed.aimed <= Counter(rows), log.header.match_id
