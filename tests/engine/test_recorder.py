"""Recording a live Vitorian match: illegal appends are refused before anything is written."""
from __future__ import annotations

import pytest

from engine.recorder import record, start_match
from engine.replay import IllegalEvent
from events.log import ConcurrencyError, read_log
from events.vitorian import EndPhase, FirstPlayer, Shuffle
from tests.vitorian.scenario import header


def test_append_legal_events_then_refuse_an_illegal_one(tmp_path):
    path = tmp_path / "live.pglog"
    start_match(path, header())
    assert record(path, [FirstPlayer(seat=0)], expected_seq=1).next_seq == 2
    before = path.read_bytes()
    with pytest.raises(IllegalEvent) as err:
        record(path, [EndPhase(seat=0)], expected_seq=2)
    assert err.value.rule == "VW-4.2" and err.value.seq == 2
    assert path.read_bytes() == before


def test_a_bad_shuffle_in_a_batch_refuses_the_whole_batch(tmp_path):
    path = tmp_path / "live.pglog"
    start_match(path, header())
    log_deck = list(range(50))
    batch = [FirstPlayer(seat=1), Shuffle(seat=0, zone="maneuver", order=tuple(log_deck)),
             Shuffle(seat=0, zone="convoy", order=(1, 2))]
    with pytest.raises(IllegalEvent) as err:
        record(path, batch, expected_seq=1)
    assert err.value.seq == 3 and err.value.rule == "VW-4.2"
    assert read_log(path).events == []


def test_stale_writer_is_refused(tmp_path):
    path = tmp_path / "live.pglog"
    start_match(path, header())
    record(path, [FirstPlayer(seat=0)], expected_seq=1)
    with pytest.raises(ConcurrencyError):
        record(path, [FirstPlayer(seat=0)], expected_seq=1)
