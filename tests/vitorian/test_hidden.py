"""Hidden information, end to end: over whole simulated matches, at every step and for every
perspective but the organiser's, nothing that perspective may not know reaches it, neither in its
view nor in the narration's words (the event's, the changes') nor in its event and change data.

What a perspective may not know after a step (spec "Hidden information"): the cards in another
seat's hand and Maneuver Deck, the order of every Maneuver Deck (so its own deck cards but those
it bottomed), Convoy cards neither public nor looked at by it, both Defense Piles and their
removed cards. Each is checked by its instance id wherever data names cards, and by its name
wherever words or data could say it (names that something the perspective does see also bears
are left out: they prove nothing).
"""
from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from engine.bots import RandomBot
from engine.narration import narration_for
from engine.replay import ReplayVisitor, replay_log
from engine.ruleset import OMNISCIENT, Change, Perspective, Ruleset, get_ruleset
from engine.simulate import play_match
from engine.vitorian.archetypes import ARCHETYPES, build_deck
from engine.vitorian.bot import GreedyBot
from engine.vitorian.narrate import VitorianNarration
from engine.vitorian.state import Player, State
from engine.vitorian.words import Words, change_words
from events.base import Header, Seat, actor_kind

NARRATION = narration_for("vitorian")
CARD_FIELDS = frozenset({"id", "card", "unit", "target", "attacker", "supporter", "resource",
                         "resources", "exhaust", "returns", "order", "labels", "bottom", "top",
                         "choice", "payments"})
"""Keys under which data (views, events, changes) names card instances."""


def simulated(seed: int, ruleset: str, bots: tuple[str, str]) -> tuple[Header, list[Any]]:
    rng = random.Random(seed)
    seats = [Seat(seat=i, player=f"Player {'AB'[i]}",
                  setup=build_deck(rng.choice(ARCHETYPES), rng, f"deck {i}")) for i in (0, 1)]
    header = Header(game="vitorian", ruleset=ruleset, match_id=f"hidden-{seed}", seats=seats)
    kinds: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot}
    events, _ = play_match(get_ruleset(ruleset), header,
                           {i: kinds[b]() for i, b in enumerate(bots)}, random.Random(seed))
    return header, events


# What a perspective may not know ------------------------------------------------------------

def hidden_ids(state: State, perspective: Perspective) -> set[int]:
    """The instance ids of every card `perspective` may not see after this step."""
    return set().union(*(_hidden_of(player, perspective) for player in state.players))


def _hidden_of(player: Player, perspective: Perspective) -> set[int]:
    own = perspective == player.seat
    hidden = set(player.defense) | set(player.removed)
    if not own:
        hidden |= set(player.hand)
    hidden |= set(player.deck) - (set(player.bottomed) if own else set())
    known = player.convoy_public | (player.convoy_seen if own else set())
    return hidden | (set(player.convoy) - known)


def secret_names(state: State, header: Header, hidden: set[int]) -> set[str]:
    """Names of hidden cards that no card the perspective may see, and no player, also bears
    (not even inside a longer name)."""
    seen = [card.name for cid, card in state.cards.items() if cid not in hidden]
    seen += [seat.player for seat in header.seats]
    names = {state.cards[cid].name for cid in hidden}
    return {name for name in names if not any(name in other for other in seen)}


def card_ids(data: Any, naming: bool = False) -> Iterator[int]:
    """Every int that `data` holds under a card-naming key (bools are not ids)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from card_ids(value, naming or key in CARD_FIELDS)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from card_ids(value, naming)
    elif naming and isinstance(data, int) and not isinstance(data, bool):
        yield data


# What it was told ---------------------------------------------------------------------------

@dataclass
class Leak:
    seq: int
    perspective: Perspective
    what: str

    def __str__(self) -> str:
        return f"step {self.seq}, {self.perspective}: {self.what}"


class Watcher(ReplayVisitor):
    """At every step, everything each perspective is told, checked against what it may know."""

    def __init__(self, rules: Ruleset, header: Header, narration: VitorianNarration) -> None:
        self.rules, self.header, self.say = rules, header, narration
        self.perspectives = [p for p, _ in narration.perspectives(header) if p != OMNISCIENT]
        self.leaks: list[Leak] = []
        self.secrets = 0

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        for perspective in self.perspectives:
            self._check(seq, event, changes, state, perspective)

    def _check(self, seq: int, event: Any, changes: list[Change], state: State,
               perspective: Perspective) -> None:
        say, header = self.say, self.header
        hidden = hidden_ids(state, perspective)
        names = secret_names(state, header, hidden)
        self.secrets += len(hidden)
        data = {"view": self.rules.view(state, perspective),
                "event": say.event_data(header, event, perspective),
                "changes": [say.change_data(header, c, perspective) for c in changes]}
        texts = [say.event_text(header, state, event, perspective)]
        texts += [t for c in changes if (t := say.change_text(header, state, c, perspective))]
        told = "\n".join(texts) + msgspec.json.encode(data).decode()
        found = sorted(set(card_ids(data)) & hidden)
        if found:
            self.leaks.append(Leak(seq, perspective, f"ids {found}"))
        said = sorted(name for name in names if name in told)
        if said:
            self.leaks.append(Leak(seq, perspective, f"names {said}"))
        if actor_kind(event) == "chance" and set(data["event"]) != {"type", "seat", "hidden"}:
            self.leaks.append(Leak(seq, perspective, f"chance details {data['event']}"))


def watched(header: Header, events: list[Any], narration: Any = NARRATION) -> Watcher:
    rules = get_ruleset(header.ruleset)
    watcher = Watcher(rules, header, narration)
    replay_log(rules, header, events, watcher)
    return watcher


MATCHES = [(seed, "vitorian@2", bots) for seed, bots in (
    (1, ("random", "random")), (2, ("greedy", "random")), (3, ("random", "greedy")),
    (4, ("greedy", "greedy")), (5, ("random", "random")), (6, ("random", "random")))]
MATCHES += [(7, "vitorian@1", ("random", "random"))]


@pytest.fixture(scope="module")
def matches() -> dict[tuple[int, str], tuple[Header, list[Any]]]:
    return {(seed, ruleset): simulated(seed, ruleset, bots) for seed, ruleset, bots in MATCHES}


@pytest.mark.parametrize("seed, ruleset", [(seed, ruleset) for seed, ruleset, _ in MATCHES])
def test_no_perspective_is_told_what_it_may_not_see(matches, seed: int, ruleset: str) -> None:
    watcher = watched(*matches[seed, ruleset])
    assert watcher.secrets > 0
    assert not watcher.leaks, "\n".join(map(str, watcher.leaks[:10]))


def test_the_matches_hold_every_kind_of_secret(matches) -> None:
    """The matches checked do bottom cards after mulligans and look at Convoy cards with Aerial
    Recon, so those secrets are put to the test, not just absent."""
    events = [event for _, log in matches.values() for event in log]
    assert any(type(e).__name__ == "KeepHand" and e.bottom for e in events)
    assert any(type(e).__name__ == "Recycle" and e.ability == "aerial_recon" and (e.top or e.bottom)
               for e in events)
    assert any(type(e).__name__ == "Deal" for e in events)


class UnmaskedWords(VitorianNarration):
    """Forgets to mask the changes' words: a draw names its card to everyone."""

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        return change_words(Words(header, state, perspective), change)


class UnmaskedData(VitorianNarration):
    """Forgets to mask the changes' data: a draw's card id goes to everyone."""

    def change_data(self, header: Header, change: Change, perspective: Perspective
                    ) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(change)
        return data


class ChanceShown(VitorianNarration):
    """Shows chance outcomes to everyone: the shuffle orders."""

    def hides_event(self, event: Any, perspective: Perspective) -> bool:
        return False


@pytest.mark.parametrize("leaky, found", [(UnmaskedWords, "names"), (UnmaskedData, "ids"),
                                          (ChanceShown, "chance details")])
def test_the_check_finds_a_leak_when_there_is_one(matches, leaky, found) -> None:
    header, events = matches[1, "vitorian@2"]
    watcher = watched(header, events, narration=leaky())
    assert any(leak.what.startswith(found) for leak in watcher.leaks)


class Transcript(ReplayVisitor):
    """Every line of words a step is told in, for every perspective the game lists."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.lines: list[str] = []

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        for perspective, _ in NARRATION.perspectives(self.header):
            self.lines.append(NARRATION.event_text(self.header, state, event, perspective))
            self.lines += [t for c in changes
                           if (t := NARRATION.change_text(self.header, state, c, perspective))]


def test_the_words_name_things_never_ids_or_raw_data(matches) -> None:
    """No number an id could be (seat 1's ids are 100 and up; no count, cell or turn reaches
    100), no key=value, no braces or brackets."""
    for header, events in matches.values():
        told = Transcript(header)
        replay_log(get_ruleset(header.ruleset), header, events, told)
        odd = [line for line in told.lines if re.search(r"\b\d{3,}\b|[=\[\]{}]", line)]
        assert not odd, odd[:5]
