"""What an Eredan seat may not learn (the spec's Hidden information section): how many cards
the other seat submitted or discards before both have chosen, the total charge of a deck list it
may not see, the cards in the other's hand and in every deck, the order of a shuffle and the ids
a deal gave.

The properties run over whole seeded matches (eredan@2, charges on): on every step, for every
perspective the game lists but the organiser's, nothing it may not see appears in its view, in
the words of the step (its event and its changes) or in their data (--json, the app).
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from engine.bots import RandomBot
from engine.eredan.bot import GreedyBot
from engine.eredan.cards import load_catalog
from engine.eredan.charges import ChargeTable, catalog_table
from engine.eredan.rules import EredanRules
from engine.eredan.state import State
from engine.narration import narration_for
from engine.ruleset import OMNISCIENT, SPECTATOR, Change
from engine.simulate import play_match
from events.base import Header, redacted
from events.eredan import Deal, Discard, Play, PlayCards, Shuffle
from tests.eredan.scenario import RULES, header
from tests.eredan.test_properties import EREDAN

NARRATION = narration_for("eredan")
CATALOG = load_catalog()
TABLE = catalog_table(CATALOG.charge_versions[-1], CATALOG)
CHARGED = EredanRules(charge_tables=lambda h: ChargeTable(version=TABLE.version,
                                                          charges=TABLE.charges, cap=10**6))
"""eredan@2 with every deck's charge known (a cap no simulated deck reaches)."""
MATCHES = [(11, ("greedy", "greedy")), (12, ("greedy", "random")), (13, ("random", "random")),
           (14, ("random", "greedy"))]
ID_FIELDS = {"id", "card", "cards", "order", "labels", "plays", "character", "characters",
             "attacker", "defender", "target", "receiver", "source", "user", "discarding",
             "submission", "hand", "deck"}
"""Keys under which view, event and change data hold card instance ids."""


@dataclass
class Step:
    event: Any
    changes: list[Change]
    before: State
    after: State


def _copy(state: State) -> State:
    copied = state.copy()
    copied.cards = dict(state.cards)
    return copied


def match(seed: int, bots: tuple[str, str]) -> tuple[Header, list[Step]]:
    """A seeded eredan@2 match, every step with the state before and after it."""
    head = EREDAN.make_header(seed)
    kinds: dict[str, Any] = {"greedy": GreedyBot, "random": RandomBot}
    events, _ = play_match(CHARGED, head, {i: kinds[b]() for i, b in enumerate(bots)},
                           random.Random(seed))
    state, steps = CHARGED.setup(head), []
    for event in events:
        before = _copy(state)
        steps.append(Step(event, CHARGED.apply(state, event), before, _copy(state)))
    return head, steps


@pytest.fixture(scope="module", params=MATCHES, ids=lambda m: f"seed{m[0]}-{'-'.join(m[1])}")
def played(request: pytest.FixtureRequest) -> tuple[Header, list[Step]]:
    return match(*request.param)


def others(head: Header) -> list[Any]:
    return [p for p, _ in NARRATION.perspectives(head) if p != OMNISCIENT]


def owns(perspective: Any, seat: int) -> bool:
    return perspective == seat


def ids_in(value: Any, under: bool = False) -> Iterator[int]:
    """Every int an id key (ID_FIELDS) holds, alone or in a list, anywhere in JSON-like data."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from ids_in(item, key in ID_FIELDS)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from ids_in(item, under)
    elif under and isinstance(value, int) and not isinstance(value, bool):
        yield value


def names_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = {v for k, v in value.items() if k in ("name", "player") and isinstance(v, str)}
        return found.union(*(names_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(names_in(v) for v in value))
    return set()


def secrets(state: State, perspective: Any) -> tuple[set[int], set[str]]:
    """The ids `perspective` may not see after a step (every deck card, another seat's hand)
    and the names of another seat's hidden cards."""
    ids: set[int] = set()
    names: set[str] = set()
    for player in state.players:
        ids |= set(player.deck)
        if not owns(perspective, player.seat):
            ids |= set(player.hand)
            names |= {state.cards[c].name for c in (*player.hand, *player.deck)}
    return ids, names


def scrubbed(text: str, known: set[str]) -> str:
    """The text without the names this perspective may know (a hidden card may share one)."""
    for name in sorted(known, key=len, reverse=True):
        text = text.replace(name, "·")
    return text


def told(head: Header, step: Step, perspective: Any) -> tuple[list[str], list[Any]]:
    """The step's words and data as `perspective` gets them."""
    texts = [NARRATION.event_text(head, step.after, step.event, perspective)]
    texts += [t for c in step.changes
              if (t := NARRATION.change_text(head, step.after, c, perspective))]
    data = [NARRATION.event_data(head, step.event, perspective)]
    data += [NARRATION.change_data(head, c, perspective) for c in step.changes]
    return texts, data


def test_nothing_hidden_reaches_another_perspective(played) -> None:
    head, steps = played
    checked = 0
    for step in steps:
        for who in others(head):
            view = CHARGED.view(step.after, who)
            hidden_ids, hidden_names = secrets(step.after, who)
            texts, data = told(head, step, who)
            assert not hidden_ids & {*ids_in(view), *ids_in(data)}, (step.event, who)
            unknown = hidden_names - names_in(view)
            spoken = scrubbed(" | ".join(texts) + json.dumps(msgspec.to_builtins(data)),
                              names_in(view))
            assert not [n for n in unknown if n in spoken], (step.event, who, texts)
            assert "charge" not in " ".join(texts)
            checked += len(unknown)
    assert checked, "the match never had a secret to keep"


def test_a_seat_view_hides_the_others_cards_charge_and_choices(played) -> None:
    head, steps = played
    for step in steps:
        for who in others(head):
            for seat in CHARGED.view(step.after, who)["seats"]:
                assert seat["deck"] is None  # nobody but the organiser sees a deck's order
                if owns(who, seat["seat"]):
                    assert seat["deck_charge"] == step.after.players[seat["seat"]].charge
                    continue
                assert seat["hand"] is None and seat["deck_charge"] is None
                assert seat["submission"] is None and seat["discarding"] is None


def test_shuffles_and_deals_are_the_organisers(played) -> None:
    """A shuffle's order and a deal's ids: only that one happened, in the same words whatever
    the order."""
    head, steps = played
    chance = [s for s in steps if isinstance(s.event, (Shuffle, Deal))]
    assert [type(s.event) for s in chance] == [Deal, Deal, Shuffle, Shuffle]
    for step in chance:
        event = step.event
        field = "order" if isinstance(event, Shuffle) else "labels"
        other = msgspec.structs.replace(event, **{field: tuple(reversed(getattr(event, field)))})
        for who in others(head):
            assert NARRATION.event_data(head, event, who) == NARRATION.event_data(head, other, who)
            assert set(NARRATION.event_data(head, event, who)) == {"type", "seat", "hidden"}
            assert NARRATION.event_text(head, step.after, event, who) == \
                NARRATION.event_text(head, step.after, other, who)
        assert NARRATION.event_data(head, event, OMNISCIENT)[field] == getattr(event, field)


def test_an_unrevealed_choice_reads_the_same_whatever_it_holds(played) -> None:
    """Until both seats chose, another perspective reads a submission or a discard choice the
    same whether it holds no card, one or two (ER-5.15; Hidden information, Phase 5): its
    event, its changes and the view after it."""
    head, steps = played
    sizes: set[int] = set()
    for step in steps:
        event = step.event
        if not isinstance(event, (PlayCards, Discard)) or _revealed(step):
            continue
        choices = [e for e in CHARGED.legal(step.before) if type(e) is type(event)][:8]
        sizes |= {len(_held(e)) for e in choices}
        for alternative in choices:
            after = _copy(step.before)
            changes = CHARGED.apply(after, alternative)
            twin = Step(alternative, changes, step.before, after)
            for who in others(head):
                if owns(who, event.seat):
                    continue
                assert told(head, twin, who) == told(head, step, who)
                assert CHARGED.view(after, who) == CHARGED.view(step.after, who)
    assert len(sizes) > 1, "no hidden choice of another size was tried"


def _revealed(step: Step) -> bool:
    window = "cards" if isinstance(step.event, PlayCards) else "discard"
    after = step.after
    return after.over or not (after.window == window and after.pending == 1 - step.event.seat)


def _held(event: PlayCards | Discard) -> tuple[Any, ...]:
    return event.plays if isinstance(event, PlayCards) else event.cards


def test_the_perspectives_are_the_organiser_each_seat_and_a_spectator() -> None:
    head = EREDAN.make_header(1)
    assert NARRATION.perspectives(head) == [
        (OMNISCIENT, "Organiser (sees everything)"), (0, "Seat 0 · p0"), (1, "Seat 1 · p1"),
        (SPECTATOR, "Spectator (public)")]


@pytest.mark.parametrize("submitted", [(), (Play(card=105),), (Play(card=105), Play(card=107))])
def test_another_seat_reads_a_submission_without_its_size(submitted) -> None:
    """Phase 2: 0, 1 or 2 cards read the same to the opponent until the reveal."""
    assert redacted(PlayCards(seat=1, plays=submitted)) == {"type": "play", "seat": 1,
                                                            "plays": None}


def test_another_seat_reads_discards_without_their_number() -> None:
    """Phase 5: discards are decided without seeing the other's."""
    assert redacted(Discard(seat=0, cards=(3, 4))) == redacted(Discard(seat=0, cards=()))


@pytest.mark.parametrize("perspective", [0, SPECTATOR])
def test_the_other_seats_deck_charge_is_not_shown(perspective) -> None:
    state = RULES.setup(header())
    seats = RULES.view(state, perspective)["seats"]
    assert seats[1]["deck_charge"] is None
    if perspective == 0:
        assert seats[0]["deck_charge"] == state.players[0].charge


def test_the_organiser_sees_both_deck_charges() -> None:
    state = RULES.setup(header())
    seats = RULES.view(state, OMNISCIENT)["seats"]
    assert [s["deck_charge"] for s in seats] == [p.charge for p in state.players]
