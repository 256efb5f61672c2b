"""Hidden information in V20 combat, end to end (spec "Hidden information"): over seeded
simulated fights, at every step and for every perspective but the Storyteller's, nothing that
perspective may not know reaches it, neither in its view (RULES.view) nor in the narration's
words (event_text, change_text) nor in its data (event_data, change_data).

What a side, or a spectator, may not know of a character of another side: its ratings and
pools (traits, virtues, path, Willpower, blood), its derangements, a phase-2 commit not yet
matched by the other side's, and that it lies in ambush until its pair's rolls are in.

Three checks, each at every step:
- the view: another side's characters show their public fields only, and no ambush plan of
  another side;
- "reads the same whatever is hidden": the step told again from a twin in which every hidden
  value differs (ratings, pools, derangement names, a commit's spends, which character of a
  side rolled an unrevealed ambush) must be told word for word and field for field alike;
- named secrets: another side's derangement names, and an unrevealed ambusher's name and id,
  appear nowhere in the words or data.
The fights include a Storyteller who rules what the scenario's policy never does (path
conflicts, awards, derangements manifesting, blindness), so every kind of secret is at stake.
What only the engine can hide (the view's awaited step, when an ambusher's Willpower is told) is
checked at the end.
"""
from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest

from engine.bots import Observation, RandomBot
from engine.games import get_game
from engine.replay import ReplayVisitor, replay_log
from engine.ruleset import OMNISCIENT, SPECTATOR, Change, Perspective, get_ruleset
from engine.simulate import play_match
from engine.v20 import changes as ch
from engine.v20.catalog import Character
from engine.v20.narrate import NARRATION, V20Narration, display_names
from engine.v20.state import Fighter, State
from engine.v20.storyteller import StorytellerPolicyBot
from events.base import Header, Seat
from events.v20 import (
    Ambush,
    Award,
    Blind,
    Commit,
    FrenzyEnds,
    IgnoreWounds,
    Manifests,
    NameDerangement,
    PathConflict,
    Rulings,
    Scenario,
    ThreatOver,
)

RULES = get_ruleset("v20@1")
KIT = get_game("v20")
PLAYERS = ("Ana Ortiz", "Bo Lindqvist")
PUBLIC_KEYS = frozenset({"id", "name", "kind", "side", "weapons", "armor", "track", "boxes",
                         "level", "penalty", "status", "gone", "npc", "frenzy", "rotschreck",
                         "cornered", "blind", "full_defense", "initiative", "declared", "extra",
                         "declarations", "extra_declarations"})
"""What a view shows of another side's character (spec "Hidden information": identity, kind,
weapons, armor, health track and statuses, declarations)."""


# Simulated fights ------------------------------------------------------------------------------

class MeddlingStoryteller:
    """The scenario's simulated Storyteller, plus the rulings its policy never makes: path
    conflicts (V20-13.1), Willpower awards (V20-11.4), derangements manifesting (V20-11.2),
    blindness (V20-6.5), threats over and frenzies ending (V20-12.2, V20-12.8); a conscience
    botch's derangement gets a random name (V20-13.5)."""

    name = "meddling"

    def __init__(self) -> None:
        self.policy = StorytellerPolicyBot()

    def choose(self, seen: Observation, legal: Sequence[Any], rng: random.Random) -> Any:
        chosen = self.policy.choose(seen, legal, rng)
        if not isinstance(chosen, Rulings):
            return chosen
        extra = [ruling for c in _standing(seen.view()) if (ruling := _meddle(c, rng))]
        return Rulings(rulings=(*chosen.rulings, *extra))


def _standing(view: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for side in view["sides"]:
        for c in side["characters"]:
            if not c["gone"] and c["status"] not in ("final_death", "dead"):
                yield c


def _meddle(c: dict[str, Any], rng: random.Random) -> Any:
    fid, roll = c["id"], rng.random()
    if c["derangements"] and roll < 0.3:
        return Manifests(character=fid, derangement=rng.choice(c["derangements"]))
    if roll < 0.6:
        return PathConflict(character=fid)
    if roll < 0.7:
        return Award(character=fid, points=rng.randint(1, 3))
    if roll < 0.75:
        return Blind(character=fid, blind=not c["blind"])
    if c["tests"] and roll < 0.8:
        return ThreatOver(character=fid)
    if (c["frenzy"] or c["rotschreck"]) and roll < 0.85:
        return FrenzyEnds(character=fid)
    return None


def simulated(seed: int, scenario: str | Scenario = "bonfire", bots: str = "random",
              storyteller: str = "policy",
              pairing: tuple[str, str] | None = None) -> tuple[Header, list[Any]]:
    """A seeded fight: a scenario by name (or a Scenario block over the alley's parties), its
    builds or two at random, random or tactical bots on both sides."""
    rng = random.Random(seed)
    frame = KIT.scenario(scenario if isinstance(scenario, str) else "alley")
    builds = pairing or KIT.fixed_builds(frame) or (rng.choice(KIT.archetypes),
                                                    rng.choice(KIT.archetypes))
    if not isinstance(scenario, str):
        frame = scenario
    seats = [Seat(seat=s, player=PLAYERS[s], setup=KIT.setup(build, place, rng),
                  side=place.side) for s, (build, place) in enumerate(zip(builds,
                                                                          KIT.layout(2)))]
    header = Header(game="v20", ruleset="v20@1", match_id=f"hidden-{seed}", seats=seats,
                    scenario=frame, seed=seed)
    kind = {"random": RandomBot, "tactical": KIT.bots["tactical"]}[bots]
    judge = MeddlingStoryteller() if storyteller == "meddling" else StorytellerPolicyBot()
    events, _ = play_match(RULES, header, {0: kind(), 1: kind()}, random.Random(seed),
                           storyteller=judge)
    return header, events


CROSSED = Scenario(name="crossed", title="Both sides lie in wait", turn_limit=6,
                   ambushes=(Ambush(ambusher="silas", target="margarethe", specialty=True),
                             Ambush(ambusher="nicky", target="ilse")))
"""The alley with an ambush each way: side B's ambusher stays hidden from side A while side
A's pair is resolved."""
MATCHES: dict[str, tuple[Any, ...]] = {
    "bonfire-random": (1, "bonfire", "random", "policy"),
    "bonfire-tactical": (2, "bonfire", "tactical", "policy"),
    "bonfire-meddling": (28, "bonfire", "random", "meddling"),
    "bonfire-meddling-tactical": (14, "bonfire", "tactical", "meddling"),
    "alley-random": (1, "alley", "random", "meddling"),
    "alley-tactical": (5, "alley", "tactical", "policy"),
    "crossed": (6, CROSSED, "random", "meddling"),
    "crossed-tactical": (7, CROSSED, "tactical", "meddling"),
    "bonfire-mirror": (9, "bonfire", "tactical", "meddling", ("brawlers", "brawlers")),
}
"""Seed, scenario, bots, Storyteller and (for a mirror match) the builds of each fight."""


@pytest.fixture(scope="module")
def fights() -> dict[str, tuple[Header, list[Any]]]:
    return {name: simulated(*args) for name, args in MATCHES.items()}


# What a perspective may know -------------------------------------------------------------------

def knows(perspective: Perspective, seat: int) -> bool:
    return perspective in (OMNISCIENT, seat)


def others(header: Header) -> list[Perspective]:
    return [p for p, _ in NARRATION.perspectives(header) if p != OMNISCIENT]


def strings_in(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for value in data.values():
            yield from strings_in(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from strings_in(value)
    elif isinstance(data, str):
        yield data


@dataclass
class Leak:
    seq: int
    perspective: Perspective
    what: str

    def __str__(self) -> str:
        return f"step {self.seq}, {self.perspective}: {self.what}"


@dataclass
class Told:
    texts: list[str]
    data: list[Any]

    def blob(self) -> str:
        return "\n".join(self.texts) + msgspec.json.encode(self.data).decode()


def told(narration: V20Narration, header: Header, state: State, event: Any,
         changes: Sequence[Change], perspective: Perspective) -> Told:
    """The step's words and data as `perspective` gets them."""
    texts = [narration.event_text(header, state, event, perspective)]
    texts += [t for c in changes if (t := narration.change_text(header, state, c,
                                                                 perspective))]
    data = [narration.event_data(header, event, perspective)]
    data += [narration.change_data(header, c, perspective) for c in changes]
    return Told(texts, data)


# The twin: every hidden value changed ----------------------------------------------------------

def _twin_sheet(sheet: Character) -> Character:
    """Every rating moved, Conscience swapped for Conviction, a specialty everywhere."""
    def up(record: Any) -> Any:
        return msgspec.structs.replace(record, **{
            name: value + 1 for name in record.__struct_fields__
            if isinstance(value := getattr(record, name), int)})

    virtues = sheet.virtues
    swapped = msgspec.structs.replace(virtues, conscience=virtues.conviction,
                                      conviction=virtues.conscience,
                                      self_control=virtues.instinct,
                                      instinct=virtues.self_control,
                                      courage=virtues.courage % 5 + 1)
    specialties = msgspec.structs.replace(sheet.specialties, **dict.fromkeys(
        sheet.specialties.__struct_fields__, "Twin"))
    return msgspec.structs.replace(
        sheet, attributes=up(sheet.attributes), abilities=up(sheet.abilities),
        disciplines=up(sheet.disciplines), virtues=swapped, specialties=specialties,
        path=msgspec.structs.replace(sheet.path, rating=sheet.path.rating % 10 + 1),
        willpower=sheet.willpower % 10 + 1, blood=up(sheet.blood))


def _twin_fighter(f: Fighter) -> Fighter:
    twin = copy.copy(f)
    twin.sheet = _twin_sheet(f.sheet)
    twin.blood, twin.max_blood, twin.willpower = f.blood + 3, f.max_blood + 3, f.willpower + 2
    twin.path, twin.path_virtue = f.path % 10 + 1, f.path_virtue + 1
    twin.derangements = [f"{d}-twin" for d in f.derangements] + ["Twin Mania"]
    twin.manifest = "Twin Mania" if f.manifest else None
    twin.rounds = {w: n + 1 for w, n in f.rounds.items()}
    twin.boosts = {a: n + 1 for a, n in f.boosts.items()}
    twin.tests = [dataclasses.replace(t, successes=t.successes + 1) for t in f.tests]
    return twin


def twin_state(state: State, perspective: Perspective) -> State:
    twin = copy.copy(state)
    twin.fighters = {fid: f if knows(perspective, f.seat) else _twin_fighter(f)
                     for fid, f in state.fighters.items()}
    return twin


def _twin_change(c: Change, state: State, hidden: set[str]) -> Change:
    """The change with what only its character's side may know altered."""
    who = getattr(c, "character", "")
    if who not in hidden:
        return c
    replace = msgspec.structs.replace
    if isinstance(c, ch.Conscience):
        return replace(c, path=c.path + 2, virtue=c.virtue + 2)
    if isinstance(c, ch.Boosted):
        return replace(c, points=c.points + 2)
    if isinstance(c, ch.Ruled) and c.ruling in ("derangement", "manifests", "award"):
        return replace(c, detail=str(int(c.detail) + 2) if c.detail.isdigit()
                       else f"{c.detail}-twin")
    if isinstance(c, ch.Rolled) and c.purpose == "ambush":
        mates = [f.id for f in state.fighters.values()
                 if f.seat == state.fighter(who).seat and f.id != who]
        return replace(c, character=mates[0]) if mates else c
    return c


def _twin_event(event: Any, state: State, perspective: Perspective, hidden: set[str]) -> Any:
    replace = msgspec.structs.replace
    if isinstance(event, Commit) and not knows(perspective, event.seat):
        mine = [f.id for f in state.of_side(event.seat)]
        return replace(event, spends=() if event.spends else (
            IgnoreWounds(character=mine[0]), IgnoreWounds(character=mine[-1])))
    if isinstance(event, NameDerangement) and event.character in hidden:
        return replace(event, derangement=f"{event.derangement}-twin")
    if isinstance(event, Rulings):
        return replace(event, rulings=tuple(
            replace(r, derangement=f"{r.derangement}-twin")
            if isinstance(r, Manifests) and r.character in hidden else r
            for r in event.rulings))
    return event


# The watcher -----------------------------------------------------------------------------------

@dataclass
class Pair:
    ambusher: str
    seat: int
    revealed: bool = False


@dataclass
class Watcher(ReplayVisitor):
    """At every step, everything each perspective is told, checked against what it may know.
    `engine_leaks`: also check what only the engine could hide (the view's awaited step)."""

    header: Header
    narration: V20Narration = NARRATION
    engine_leaks: bool = False
    leaks: list[Leak] = field(default_factory=list)
    secrets: int = 0
    pairs: list[Pair] = field(default_factory=list)

    def begin(self, header: Header, state: Any) -> None:
        scenario = header.scenario
        ambushes = scenario.ambushes if isinstance(scenario, Scenario) else ()
        self.pairs = [Pair(a.ambusher, state.fighter(a.ambusher).seat) for a in ambushes]
        for perspective in others(header):
            self._view(0, state, perspective)

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        for pair in self.pairs:  # the step that rolls the pair's last die reveals it
            pair.revealed |= any(isinstance(c, ch.Ambushed) and c.ambusher == pair.ambusher
                                 for c in changes)
        for perspective in others(self.header):
            self._view(seq, state, perspective)
            self._words(seq, event, changes, state, perspective)

    def _leak(self, seq: int, perspective: Perspective, what: str) -> None:
        self.leaks.append(Leak(seq, perspective, what))

    def _view(self, seq: int, state: State, perspective: Perspective) -> None:
        view = RULES.view(state, perspective)
        for side in view["sides"]:
            for c in side["characters"]:
                extra = set(c) - PUBLIC_KEYS
                if not knows(perspective, state.fighter(c["id"]).seat) and extra:
                    self._leak(seq, perspective, f"view: {c['id']} shows {sorted(extra)}")
        if "policy" in view:
            self._leak(seq, perspective, "view: the Storyteller's policy")
        for plan in view["ambushes"]:
            if not knows(perspective, state.fighter(plan["ambusher"]).seat):
                self._leak(seq, perspective, f"view: ambush plan {plan}")
        if RULES.view(twin_state(state, perspective), perspective) != view:
            self._leak(seq, perspective, "view: differs with the hidden values")
        awaiting = view["awaiting"] or {}
        unrevealed = [p for p in self.pairs if not p.revealed and not knows(perspective, p.seat)]
        if self.engine_leaks and unrevealed and awaiting.get("purpose") in ("ambush", "notice"):
            self._leak(seq, perspective, f"view: awaits {awaiting}")

    def _words(self, seq: int, event: Any, changes: list[Change], state: State,
               perspective: Perspective) -> None:
        hidden = {f.id for f in state.fighters.values() if not knows(perspective, f.seat)}
        said = told(self.narration, self.header, state, event, changes, perspective)
        twin = told(self.narration, self.header, twin_state(state, perspective),
                    _twin_event(event, state, perspective, hidden),
                    [_twin_change(c, state, hidden) for c in changes], perspective)
        if twin != said:
            self._leak(seq, perspective, f"differs with the hidden values: {said} / {twin}")
        blob = said.blob()
        known = {d for f in state.fighters.values() if f.id not in hidden
                 for d in f.derangements}
        secret = {d for fid in hidden for d in state.fighter(fid).derangements} - known
        self.secrets += len(secret) + len(hidden)
        named = sorted(d for d in secret if d in blob)
        if named:
            self._leak(seq, perspective, f"names derangements {named}")
        self._ambushers(seq, said, perspective)

    def _ambushers(self, seq: int, said: Told, perspective: Perspective) -> None:
        """Before its pair's rolls are in (the Ambushed change), an ambusher is named nowhere
        to another side (V20-6.7): not by name in the words, not by id in the data."""
        names = display_names(self.header)
        for pair in self.pairs:
            if pair.revealed or knows(perspective, pair.seat):
                continue
            self.secrets += 1
            if names[pair.ambusher] in "\n".join(said.texts):
                self._leak(seq, perspective, f"ambusher {pair.ambusher} named: {said.texts}")
            if pair.ambusher in set(strings_in(said.data)):
                self._leak(seq, perspective, f"ambusher {pair.ambusher} in data: {said.data}")


def watched(match: tuple[Header, list[Any]], narration: V20Narration = NARRATION,
            engine_leaks: bool = False) -> Watcher:
    header, events = match
    watcher = Watcher(header, narration, engine_leaks)
    replay_log(RULES, header, events, watcher)
    return watcher


# The properties --------------------------------------------------------------------------------

@pytest.mark.parametrize("match", list(MATCHES))
def test_no_perspective_is_told_what_it_may_not_see(fights, match: str) -> None:
    watcher = watched(fights[match])
    assert watcher.secrets > 0
    assert not watcher.leaks, "\n".join(map(str, watcher.leaks[:5]))


def test_the_fights_hold_every_kind_of_secret(fights) -> None:
    """The fights checked do commit spends, boost, roll conscience, name and manifest
    derangements, award Willpower and ambush both ways, so those secrets are put to the test,
    not just absent."""
    seen: set[str] = set()
    for header, events in fights.values():
        seen |= {type(e).__name__ for e in events}
        seen |= {"commit spends" for e in events if isinstance(e, Commit) and e.spends}
        seen |= {type(r).__name__ for e in events if isinstance(e, Rulings) for r in e.rulings}
        kinds = Kinds()
        replay_log(RULES, header, events, kinds)
        seen |= kinds.seen
    assert {"commit spends", "NameDerangement", "Manifests", "Award", "PathConflict",
            "Boosted", "Conscience", "Ambushed", "Trigger"} <= seen, seen


class Kinds(ReplayVisitor):
    def __init__(self) -> None:
        self.seen: set[str] = set()

    def step(self, seq: int, event: Any, changes: list[Change], state: Any) -> None:
        self.seen |= {type(c).__name__ for c in changes}


def test_a_first_commit_reads_the_same_whatever_it_holds(fights) -> None:
    """Phase 2 (V20-4.1): until the other side has committed too, it and a spectator read the
    same words, data and view whatever a side committed, even nothing."""
    tried = 0
    for header, events in fights.values():
        state = RULES.setup(header)
        for event in events:
            before = state.copy() if isinstance(event, Commit) and len(
                RULES.awaiting(state)) == 2 else None
            changes = RULES.apply(state, event)
            if before is None:
                continue
            for alternative in RULES.legal(before, event.seat)[:4]:
                after = before.copy()
                again = RULES.apply(after, alternative)
                tried += alternative != event
                for who in (1 - event.seat, SPECTATOR):
                    assert told(NARRATION, header, after, alternative, again, who) == \
                        told(NARRATION, header, state, event, changes, who)
                    assert RULES.view(after, who) == RULES.view(state, who)
    assert tried, "no other commit was tried"


def test_every_die_is_public(fights) -> None:
    """Hidden information: every die value, pool size and difficulty; no roll is told as a
    bare "something happened"."""
    header, events = fights["alley-random"]
    roll = events[0]
    for who in others(header):
        assert NARRATION.event_data(header, roll, who) == {"type": "roll", "dice": roll.dice}


# The check has teeth ---------------------------------------------------------------------------

class UnmaskedData(V20Narration):
    """Forgets to mask the changes' data: a boosted rating goes to everyone."""

    def change_data(self, header: Header, change: Change, perspective: Perspective
                    ) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(change)
        return data


class RatingWords(V20Narration):
    """Tells the changes unmasked: "Ilse Brandt's Strength rises to 3" to the other side."""

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        return super().change_text(header, state, change, OMNISCIENT)


class OpenCommits(V20Narration):
    """Shows a side's commit to everyone before the other side's is in."""

    def event_data(self, header: Header, event: Any, perspective: Perspective
                   ) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(event)
        return data


class NamedDerangements(V20Narration):
    """Names every derangement to everyone."""

    def masked_event(self, header: Header, event: Any, perspective: Perspective) -> Any:
        return event

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        if isinstance(change, ch.Ruled) and change.ruling == "manifests":
            return f"{change.detail} manifests"
        return super().change_text(header, state, change, perspective)


class NamedAmbushers(V20Narration):
    """Names an ambusher at its own roll, before its pair's rolls are in."""

    def masked_change(self, header: Header, change: Change, perspective: Perspective
                      ) -> Change:
        if isinstance(change, ch.Rolled):
            return change
        return super().masked_change(header, change, perspective)


@pytest.mark.parametrize("leaky, match, found", [
    (UnmaskedData, "bonfire-random", "differs"), (RatingWords, "bonfire-random", "differs"),
    (OpenCommits, "bonfire-random", "differs"),
    (NamedDerangements, "bonfire-meddling", "names derangements"),
    (NamedAmbushers, "alley-tactical", "ambusher"), (NamedAmbushers, "crossed", "ambusher")])
def test_the_check_finds_a_leak_when_there_is_one(fights, leaky, match: str,
                                                  found: str) -> None:
    watcher = watched(fights[match], narration=leaky())
    assert any(leak.what.startswith(found) for leak in watcher.leaks), watcher.leaks[:3]


# What only the engine can hide ----------------------------------------------------------------

def test_the_view_keeps_an_ambush_hidden_until_its_rolls_are_in(fights) -> None:
    watcher = watched(fights["alley-tactical"], engine_leaks=True)
    assert not watcher.leaks, "\n".join(map(str, watcher.leaks[:3]))


WILLED = Scenario(name="willed", turn_limit=3, ambushes=(
    Ambush(ambusher="silas", target="margarethe", willpower=True),
    Ambush(ambusher="nicky", target="ilse", willpower=True)))
"""Both ambushers spend Willpower on their rolls (V20-11.1)."""


def test_an_ambushers_willpower_stays_hidden_until_the_pairs_rolls_are_in() -> None:
    watcher = watched(simulated(8, WILLED, "random", "policy"))
    assert not watcher.leaks, "\n".join(map(str, watcher.leaks[:3]))
