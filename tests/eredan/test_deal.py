"""Card instance ids that tell nothing (eredan@2, events.eredan.Deal): each deck card gets its id
from a uniformly random deal before the shuffles, so an id revealed in play says nothing of the
deck list behind it; and eredan@1 still reads the logs written before, step for step."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from engine.eredan.determinize import observe
from engine.eredan.narrate import NARRATION
from engine.eredan.rules import DEAL_RULE, RULES_V2
from engine.eredan.state import State
from engine.replay import ReplayVisitor, replay_log
from engine.ruleset import CHANCE, OMNISCIENT, Change, RuleViolation, get_ruleset
from events.eredan import Deal, Shuffle
from events.jsonl import read_jsonl
from tests.eredan.scenario import RULES, header
from tests.eredan.test_properties import EREDAN

GOLDEN = Path(__file__).parent / "golden"
V2 = header(ruleset="eredan@2")


def dealt(seed: int = 0) -> tuple[State, list[Deal]]:
    """An eredan@2 match after both deals, and the deals."""
    state, rng, deals = RULES_V2.setup(V2), random.Random(seed), []
    for _ in (0, 1):
        deal = RULES_V2.sample_chance(state, rng)
        RULES_V2.apply(state, deal)
        deals.append(deal)
    return state, deals


def test_the_deals_come_first_and_the_deck_size_stays_public() -> None:
    state = RULES_V2.setup(V2)
    assert RULES_V2.awaiting(state) == (CHANCE,) and state.chance[:2] == [(0, "deal"), (1, "deal")]
    listed = [len(cards) for cards in state.deck_lists]
    assert [p.deck for p in state.players] == [[], []]
    assert [s["deck_count"] for s in RULES_V2.view(state, 1)["seats"]] == listed
    assert all(cid % 100 > 90 for cid in state.cards)  # only the public lines have ids yet
    sight = observe(state, 0).known  # a seat knows its own list, not the other's
    assert sight.deck_lists == (state.deck_lists[0], ())


def test_a_deal_is_a_permutation_giving_each_listed_card_its_id() -> None:
    before = RULES_V2.setup(V2)
    state, deals = dealt()
    for seat, deal in enumerate(deals):
        ids = list(range(seat * 100, seat * 100 + len(before.deck_lists[seat])))
        assert sorted(deal.labels) == ids and list(deal.labels) != ids
        assert [state.cards[cid] for cid in deal.labels] == list(before.deck_lists[seat])
        assert state.players[seat].deck == ids
    assert state.chance == [(0, "deck"), (1, "deck")]


@pytest.mark.parametrize("labels, why", [
    (lambda ids: ids[:-1] + ids[:1], "once"),
    (lambda ids: ids[:-1], "once"),
    (lambda ids: [cid + 100 for cid in ids], "once"),
])
def test_a_deal_that_is_not_a_bijection_is_refused(labels, why) -> None:
    state = RULES_V2.setup(V2)
    ids = list(range(len(state.deck_lists[0])))
    with pytest.raises(RuleViolation, match=why) as err:
        RULES_V2.apply(state, Deal(seat=0, labels=tuple(labels(ids))))
    assert err.value.rule == DEAL_RULE and state.players[0].deck == []


def test_deals_and_shuffles_come_in_their_order() -> None:
    state = RULES_V2.setup(V2)
    with pytest.raises(RuleViolation) as err:
        RULES_V2.apply(state, Shuffle(seat=0, order=()))
    assert err.value.rule == "ER-4.2" and "deal" in err.value.reason
    ids = tuple(range(100, 100 + len(state.deck_lists[1])))
    with pytest.raises(RuleViolation, match="seat 0"):
        RULES_V2.apply(state, Deal(seat=1, labels=ids))
    old = RULES.setup(header())
    with pytest.raises(RuleViolation, match="eredan@1 deals no card ids") as err:
        RULES.apply(old, Deal(seat=0, labels=tuple(old.players[0].deck)))
    assert err.value.rule == DEAL_RULE


def test_a_revealed_id_says_nothing_of_the_list() -> None:
    """Over many deals each id is each card as often as that card has copies, whatever its place
    in the list: under eredan@1 id 0 is always the list's first card, and ids 0 and 1 two copies
    of it."""
    state, trials = RULES_V2.setup(V2), 2700
    listed = state.deck_lists[0]
    copies = Counter(card.id for card in listed)
    seen: Counter[tuple[int, str]] = Counter()
    rng = random.Random(7)
    for _ in range(trials):
        labels = RULES_V2.sample_chance(state, rng).labels
        seen.update((cid, card.id) for cid, card in zip(labels, listed))
    for cid in range(len(listed)):
        for card, count in copies.items():
            p = count / len(listed)
            spread = 5 * (trials * p * (1 - p)) ** 0.5
            assert abs(seen[cid, card] - trials * p) < spread, (cid, card)
    first = RULES.setup(header())
    assert [first.cards[cid].id for cid in (0, 1)] == [listed[0].id] * 2


def test_new_matches_deal_and_are_reproducible() -> None:
    head, events = EREDAN.simulate(5, ("greedy", "random"))
    assert head.ruleset == "eredan@2"
    assert [type(e) for e in events[:4]] == [Deal, Deal, Shuffle, Shuffle]
    assert [e.seat for e in events[:2]] == [0, 1]
    assert EREDAN.fold(head, events).over
    assert EREDAN.simulate(5, ("greedy", "random")) == (head, events)


class _Told(ReplayVisitor):
    def __init__(self) -> None:
        self.steps: list[str] = []

    def step(self, seq: int, event: object, changes: list[Change], state: object) -> None:
        self.steps.append(" ".join(f"{c.kind}:{'-' if c.seat is None else c.seat}"
                                   for c in changes))

    def end(self, state, outcome) -> None:  # type: ignore[no-untyped-def]
        self.final = {"winner": outcome.winner, "reason": outcome.reason, "rule": outcome.rule,
                      "turn": state.turn,
                      "scores": [[p.damage, p.healed] for p in state.players],
                      "hp": {str(k): f.hp for k, f in sorted(state.fighters.items())},
                      "discards": [len(p.discard) for p in state.players],
                      "decks": [len(p.deck) for p in state.players]}


def test_an_eredan_1_log_replays_as_it_always_has() -> None:
    """A log simulated before typed changes and eredan@2 existed (golden/eredan1-match.jsonl),
    with what that engine derived from it: the same kinds of change for the same seats at every
    step, the same end (so the lake counts the same)."""
    log = read_jsonl(GOLDEN / "eredan1-match.jsonl")
    expected = json.loads((GOLDEN / "eredan1-match.expected.json").read_text())
    assert log.header.ruleset == "eredan@1" and get_ruleset("eredan@1") is RULES
    told = _Told()
    replay_log(RULES, log.header, log.events, told)
    assert told.steps == expected["changes"]
    assert told.final == expected["final"]
    with pytest.raises(ValueError, match="deal"):  # the same events are no eredan@2 match
        replay_log(RULES_V2, log.header, log.events, ReplayVisitor())


def test_only_the_organiser_reads_a_deal() -> None:
    _, deals = dealt()
    for who in (0, 1, "spectator"):
        assert NARRATION.event_data(V2, deals[0], who) == {"type": "deal", "seat": 0, "hidden": True}
    assert NARRATION.event_data(V2, deals[0], OMNISCIENT)["labels"] == deals[0].labels
