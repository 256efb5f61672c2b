"""The rows every game's extractor shares (pipeline.facts.FactVisitor), told with a team game:
results per seat from the outcome, the winning side, draws, sides and roles from the header,
a setup id for setups that are no deck list, the scenario's name."""
from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from engine.ruleset import Outcome
from events.base import Header, Seat
from pipeline.facts import FactVisitor, LogMeta, Unfinished, setup_id
from pipeline.schema import MATCHES, SEATS
from tests.pipeline.tally_game import GAME, TallyFacts

META = LogMeta("hash", "/logs/ta-1.pglog", "b1", datetime(2026, 2, 1, tzinfo=UTC))
ROLES = ("Dracula", "Lord Godalming", "Mina Harker", "Van Helsing")


class Sheet(msgspec.Struct, frozen=True):
    """A setup that is no deck list: a character sheet."""

    name: str
    blood: int


def header(scenario: Any = None) -> Header:
    seats = [Seat(seat=i, player=f"p{i}", setup=Sheet(name=role, blood=10 + i),
                  side="dracula" if i == 0 else "hunters", role=role)
             for i, role in enumerate(ROLES)]
    return Header(game=GAME, ruleset="tally@1", match_id="ta-1", seats=seats,
                  started_at=datetime(2026, 1, 31, 10, 0), scenario=scenario)


def visitor(scenario: Any = None) -> FactVisitor:
    return TallyFacts(header(scenario), SimpleNamespace(name="tally", version=1), META)


def row(schema: Any, values: tuple[Any, ...]) -> dict[str, Any]:
    assert len(values) == len(schema.names)
    return dict(zip(schema.names, values))


def test_the_hunters_win_as_a_team(tally):
    facts = visitor({"name": "Castle Dracula", "days": 6})
    outcome = Outcome(results=("loss", "win", "win", "win"), side="hunters",
                      reason="dracula_destroyed", rule="FD-9.1")
    assert facts.finish(outcome, first=-1, turns=12) is None
    [match] = [row(MATCHES, r) for r in facts.rows["matches"]]
    assert {k: match[k] for k in ("seats", "is_draw", "winning_side", "first_seat",
                                  "scenario", "month", "result_reason")} == {
        "seats": 4, "is_draw": False, "winning_side": "hunters", "first_seat": None,
        "scenario": "Castle Dracula", "month": "2026-01", "result_reason": "dracula_destroyed"}
    seats = [row(SEATS, r) for r in facts.rows["seats"]]
    assert [(s["side"], s["role"], s["result"], s["is_first"]) for s in seats] == [
        ("dracula", "Dracula", "loss", False), ("hunters", "Lord Godalming", "win", False),
        ("hunters", "Mina Harker", "win", False), ("hunters", "Van Helsing", "win", False)]
    assert [s["setup_name"] for s in seats] == list(ROLES)
    assert seats[0]["setup_id"] == setup_id(Sheet(name="Dracula", blood=10))
    assert len({s["setup_id"] for s in seats}) == 4
    assert set(facts.rows) == {"matches", "seats", "tally_scores"}, "no deck tables"


def test_a_draw_is_every_seat_drawing_and_a_seat_may_play_first(tally):
    facts = visitor()
    facts.finish(Outcome(results=("draw",) * 4, reason="dawn", rule="FD-1.1"), 2, 5)
    [match] = [row(MATCHES, r) for r in facts.rows["matches"]]
    assert (match["is_draw"], match["winning_side"], match["first_seat"],
            match["scenario"]) == (True, None, 2, None)
    assert [row(SEATS, r)["is_first"] for r in facts.rows["seats"]] == [False, False, True, False]


def test_a_games_own_setup_id_is_kept(tally):
    facts = visitor()
    facts.finish(Outcome.decided(1, 4, "x", "FD-1"), 0, 1, {0: "deck-a", 3: "deck-b"})
    assert [row(SEATS, r)["setup_id"] for r in facts.rows["seats"]][::3] == ["deck-a", "deck-b"]


def test_an_outcome_without_a_result_for_every_seat_is_an_error(tally):
    with pytest.raises(ValueError, match="gives 2 results for 4 seats"):
        visitor().finish(Outcome(results=("win", "loss"), reason="x", rule="y"), 0, 1)
    with pytest.raises(Unfinished):
        visitor().finish(None, 0, 1)


def test_a_games_own_rows(tally):
    facts = visitor()
    facts.points(1, 7)  # type: ignore[attr-defined]
    assert facts.rows["tally_scores"] == [("ta-1", GAME, "2026-01", 1, 7)]


def test_vitorian_handlers_name_change_kinds_the_engine_has():
    """The Vitorian extractor looks each change up by its class; a handler registered for a
    kind no change class carries is refused when the table is built, never silently unused."""
    from pipeline.facts import vitorian

    assert {cls.__struct_config__.tag for cls in vitorian._BY_CLASS} == set(vitorian._HANDLERS)
    with pytest.raises(ValueError, match="no Vitorian change of kind hits"):
        vitorian._by_class({"hits": vitorian.VitorianFacts._hit})
