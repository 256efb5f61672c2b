"""Winning chances of V20 fights (engine.chances): the scenes playouts start from are sampled
from what a side may see (engine.v20.determinize), and the playouts are ruled by the scenario's
Storyteller (engine.v20.game.playout_storyteller).

On seeded simulated fights (tests.v20.test_hidden.simulated: random or tactical bots, the
scenario's Storyteller or a meddling one, ambushes both ways): the line is reproducible from its
seed and ends at the fight's results; for side A, side B and the spectator, a twin scene that
differs only in what that perspective may not see (the other side's ratings, pools, virtues,
path, derangements, rounds, boosts, unused Discipline weapons, its commit not yet matched, its
ambushes not yet rolled, the pools of its queued virtue rolls, the Storyteller's policy) gives
the same observation, the same sampled scene and the same estimate, and a sampler that plays
on from the real scene is caught by that check; the organiser plays out from the real scene.
"""
from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from engine.bots import Bot, MaskedSight, RandomBot, SeatView, observe
from engine.chances import (
    NO_SEAT,
    ChanceLine,
    ChancesUnavailable,
    _estimate,
    sample_world,
    winning_chances,
)
from engine.games import get_game
from engine.replay import Replay
from engine.ruleset import OMNISCIENT, SPECTATOR, STORYTELLER, WIN, Perspective
from engine.v20 import determinize as sampler
from engine.v20.catalog import Abilities, load_catalog
from engine.v20.game import ScenarioStoryteller, playout_storyteller
from engine.v20.rules import RULES
from engine.v20.state import State
from events.base import Header
from events.v20 import Commit, IgnoreWounds, NameDerangement, StorytellerPolicy
from tests.v20.test_hidden import CROSSED, simulated, twin_state

KIT = get_game("v20")
FIGHTS: dict[str, tuple[Any, ...]] = {
    "bonfire": (1, "bonfire", "random", "policy"),
    "meddling": (28, "bonfire", "random", "meddling"),
    "wolves": (4, "bonfire", "random", "policy", ("wolves", "hunters")),
    "crossed": (6, CROSSED, "random", "meddling"),
    "alley-tactical": (5, "alley", "tactical", "policy"),
}
"""Seed, scenario, bots, Storyteller (and builds) of each fight (tests.v20.test_hidden)."""
SIDES: tuple[Perspective, ...] = (0, 1, SPECTATOR)


@pytest.fixture(scope="module")
def fights() -> dict[str, tuple[Header, list[Any]]]:
    return {name: simulated(*args) for name, args in FIGHTS.items()}


def _bots() -> dict[int, Bot]:
    return {0: RandomBot(), 1: RandomBot()}


def _line(header: Header, events: list[Any], perspective: Perspective, seed: int = 3,
          every: int = 15, playouts: int = 4) -> ChanceLine:
    steps = list(range(0, len(events) + 1, every)) + [len(events)]
    return winning_chances(RULES, header, events, perspective, determinize=KIT.determinize,
                           bots=_bots, playouts=playouts, seed=seed, steps=steps,
                           storyteller=lambda: playout_storyteller(header))


def _estimate_at(header: Header, state: State, perspective: Perspective, sampler_=None,
                 playouts: int = 3) -> Any:
    return _estimate(RULES, header, state, 0, 0, perspective, sampler_ or KIT.determinize,
                     _bots, playouts, 5, 5_000, 2,
                     storyteller=lambda: playout_storyteller(header))


def _seat(perspective: Perspective) -> int:
    return perspective if isinstance(perspective, int) else NO_SEAT


def positions(fight: tuple[Header, list[Any]], every: int) -> list[tuple[int, State]]:
    """The fight's scene after every `every`-th step, and after each of its first four (the
    ambushes), while it is not over."""
    header, events = fight
    replay = Replay(RULES, header, events)
    steps = sorted({*range(0, len(events), every), *range(min(4, len(events)))})
    found = [(step, replay.seek(step)) for step in steps]
    return [(step, state) for step, state in found if not state.over]


# The twin: a scene changed only where the perspective may not see ----------------------------

def hidden_twin(state: State, perspective: Perspective) -> State:
    """A copy of `state` in which every value `perspective` may not see differs: the other
    sides' characters as test_hidden.twin_state changes them (ratings, pools, virtues, path,
    derangements, rounds, boosts, extended-roll successes) and their unused claws (taken away,
    or given); their phase-2 commit while the other side's is not in; their ambush pairs not
    yet rolled (the one under way rolled by another of the side, at another pool); the pools of
    their queued virtue rolls; and the Storyteller's policy."""
    seat = _seat(perspective)
    twin = twin_state(state.copy(), perspective)
    for f in twin.fighters.values():
        if f.seat != seat and "claws" not in f.shown:
            has = "claws" in f.weapons
            f.weapons = tuple(w for w in f.weapons if w != "claws") + (() if has else ("claws",))
    for side, commit in list(twin.committed.items()):
        if side != seat:
            mine = twin.of_side(side)[0].id
            twin.committed[side] = Commit(seat=side, spends=() if commit.spends else (
                IgnoreWounds(character=mine),))
    twin.ambushes = [msgspec.structs.replace(a, willpower=not a.willpower,
                                             specialty=not a.specialty)
                     if twin.fighter(a.ambusher).seat != seat else a for a in twin.ambushes]
    for i, step in enumerate(twin.queue):
        if sampler._unrevealed(twin, step, seat):
            _reroute(twin, step)
        elif i and step.what == "roll" and step.purpose in sampler.VIRTUE_ROLLS \
                and twin.fighter(step.character or "").seat != seat:
            step.pool, step.difficulty = step.pool + 1, step.difficulty % 10 + 1
    twin.policy = StorytellerPolicy(confirm_positions=False, corner_fleeing=True)
    return twin


def _reroute(twin: State, step: Any) -> None:
    """An ambush roll under way told by another ambusher of the same side, at another pool."""
    ambusher = step.character if step.purpose == "ambush" else step.data["ambusher"]
    mates = [f.id for f in twin.of_side(twin.fighter(ambusher).seat) if f.id != ambusher]
    other = mates[0] if mates else ambusher
    if step.purpose == "ambush":
        step.character = other
    else:
        step.data = {**step.data, "ambusher": other, "willpower": not step.data["willpower"]}
    step.pool += 1


# The line ---------------------------------------------------------------------------------------

def test_the_kit_registers_the_sampler_and_the_playout_storyteller() -> None:
    assert KIT.determinize is sampler.determinize
    assert KIT.playout_storyteller is playout_storyteller
    assert RULES.observe(RULES.setup(simulated(1)[0]), 0).seat == 0


def test_the_line_is_the_same_from_the_same_seed(fights) -> None:
    header, events = fights["bonfire"]
    first, again = _line(header, events, 0), _line(header, events, 0)
    assert first == again
    other = _line(header, events, 0, seed=4)
    assert [s.step for s in other.steps] == [s.step for s in first.steps]
    assert (other.seed, first.seed) == (4, 3)
    assert _line(header, events, SPECTATOR) == _line(header, events, SPECTATOR)


@pytest.mark.parametrize("perspective", [0, 1, SPECTATOR, OMNISCIENT])
def test_a_finished_fight_ends_at_its_results(fights, perspective) -> None:
    header, events = fights["crossed"]
    state = Replay(RULES, header, events).seek(len(events))
    outcome = RULES.outcome(state)
    assert outcome is not None
    last = _line(header, events, perspective, every=1000).steps[-1]
    assert last.step == len(events) and last.playouts == 0
    assert last.chance == tuple(1.0 if r == WIN else 0.0 for r in outcome.results)
    assert last.low == last.high == last.chance


def test_every_estimate_is_a_share_with_its_interval(fights) -> None:
    header, events = fights["meddling"]
    for step in _line(header, events, 1).steps[:-1]:
        assert step.playouts == 4
        for chance, low, high in zip(step.chance, step.low, step.high):
            assert chance * 4 == int(chance * 4) and low <= chance <= high
        assert sum(step.chance) <= 1.0  # a draw counts for nobody


def test_a_playout_without_the_storyteller_says_so(fights) -> None:
    header, events = fights["bonfire"]
    with pytest.raises(ChancesUnavailable, match="Storyteller"):
        winning_chances(RULES, header, events, 0, determinize=KIT.determinize, bots=_bots,
                        playouts=1, steps=[0])


# What a perspective may not see changes nothing ----------------------------------------------

@pytest.mark.parametrize("name", list(FIGHTS))
def test_a_twin_gives_the_same_observation_and_sampled_scene_at_every_step(fights, name):
    """At every step, for each side and the spectator: the same observation (and so the same
    view: the bots decide as they did), the same scene sampled with the same rng, agreeing
    with all the perspective saw, its own characters exactly as they are."""
    header, events = fights[name]
    replay = Replay(RULES, header, events)
    masked = 0
    for step in range(len(events) + 1):
        state = replay.seek(step)
        for perspective in SIDES:
            seat = _seat(perspective)
            twin = hidden_twin(state, perspective)
            assert twin != state
            seen, seen_twin = RULES.observe(state, seat), RULES.observe(twin, seat)
            assert isinstance(seen, MaskedSight) and isinstance(seen, SeatView)
            assert seen == seen_twin
            assert seen.view() == RULES.view(state, perspective)
            world = sampler.determinize(seen, random.Random(step))
            assert world == sampler.determinize(seen_twin, random.Random(step))
            assert RULES.view(world, perspective) == RULES.view(state, perspective)
            assert RULES.awaiting(world) == RULES.awaiting(state)
            for fid, f in state.fighters.items():
                if f.seat == seat:
                    assert world.fighter(fid) == f
                else:
                    masked += world.fighter(fid).sheet != f.sheet
                    _legal_sheet(world, fid)
    assert masked


def _legal_sheet(world: State, fid: str) -> None:
    """A drawn character within the catalog's ranges (V20-3.1 to 3.5, V20-11.4)."""
    catalog = load_catalog()
    f = world.fighter(fid)
    sheet, limits = f.sheet, catalog.limits(f.sheet)
    for value in msgspec.structs.asdict(sheet.attributes).values():
        assert 1 <= value <= limits.trait_maximum
    assert all(0 <= v <= 5 for v in msgspec.structs.asdict(sheet.abilities).values())
    virtues = sheet.virtues
    assert (virtues.conscience is None) != (virtues.conviction is None)
    assert (virtues.self_control is None) != (virtues.instinct is None)
    assert all(v is None or 1 <= v <= 5 for v in msgspec.structs.asdict(virtues).values())
    assert 0 <= f.path <= 10 and 1 <= sheet.willpower <= 10 and 0 <= f.willpower <= \
        sheet.willpower
    assert 1 <= f.blood <= f.max_blood == limits.max_blood
    for weapon, rounds in f.rounds.items():
        assert 1 <= rounds <= catalog.weapons[weapon].rounds
    for weapon in f.weapons:
        need = catalog.weapons[weapon].requires
        assert all(sheet.discipline(n) >= v  # type: ignore[arg-type]
                   for n, v in msgspec.structs.asdict(need).items())


def test_the_hidden_values_are_drawn_with_the_rng(fights) -> None:
    header, events = fights["wolves"]
    state = Replay(RULES, header, events).seek(10)
    seen = RULES.observe(state, 1)  # the hunters' sight of the wolves, two vampires
    worlds = [sampler.determinize(seen, random.Random(k)) for k in range(12)]
    foes = [f.id for f in state.of_side(0)]
    assert len({tuple(w.fighter(fid).sheet for fid in foes) for w in worlds}) > 1
    assert len({w.fighter(foes[0]).blood for w in worlds}) > 1


@pytest.mark.parametrize("name", list(FIGHTS))
def test_what_a_perspective_may_not_see_changes_nothing_of_its_estimate(fights, name):
    header, _ = fights[name]
    for _step, state in positions(fights[name], every=25):
        for perspective in SIDES:
            twin = hidden_twin(state, perspective)
            assert _estimate_at(header, twin, perspective) == \
                _estimate_at(header, state, perspective)


def weak_twin(state: State, seat: int) -> State:
    """A twin the rules can play on (hidden_twin's ratings break the catalog's ranges): side
    `seat`'s foes with every Attribute at 1 and no Ability."""
    twin = state.copy()
    for f in twin.fighters.values():
        if f.seat != seat:
            f.sheet = msgspec.structs.replace(
                f.sheet, attributes=msgspec.structs.replace(f.sheet.attributes, **dict.fromkeys(
                    f.sheet.attributes.__struct_fields__, 1)), abilities=Abilities())
    return twin


def test_the_check_catches_a_sampler_that_peeks(fights) -> None:
    """Twins of the same kind, with a sampler that plays on from the real scene: some
    position's estimate changes, so the property above has teeth."""
    differed = 0
    for name in ("bonfire", "wolves", "meddling"):
        header, _ = fights[name]
        for _step, state in positions(fights[name], every=20):
            twin = weak_twin(state, 0)
            assert RULES.observe(twin, 0) == RULES.observe(state, 0)
            estimates = [_estimate_at(header, real, 0, playouts=12,
                                      sampler_=lambda _seen, _rng, real=real: RULES.clone(real))
                         for real in (state, twin)]
            differed += estimates[0] != estimates[1]
    assert differed


def test_the_organiser_plays_out_from_the_real_scene(fights) -> None:
    header, events = fights["crossed"]
    for _step, state in positions((header, events), every=20):
        world = sample_world(RULES, state, OMNISCIENT, KIT.determinize, random.Random(0))
        assert world == state and world is not state
        assert world.policy == state.policy and world.committed == state.committed
        twin = hidden_twin(state, SPECTATOR)
        assert sample_world(RULES, twin, OMNISCIENT, KIT.determinize, random.Random(0)) != world


# The bots and the Storyteller of the playouts --------------------------------------------------

def test_the_tactical_bot_decides_from_the_observation_as_from_the_view(fights) -> None:
    """The simulator now hands V20 bots the side's observation: they choose from it what they
    chose from the view alone."""
    tactical = KIT.bots["tactical"]
    for _step, state in positions(fights["alley-tactical"], every=6):
        for seat in RULES.awaiting(state):
            if seat not in (0, 1):
                continue
            legal = RULES.legal(state, seat)
            seen = observe(RULES, state, seat)
            plain = SeatView(seat=seat, shown=RULES.view(state, seat))
            for k in range(2):
                assert tactical().choose(seen, legal, random.Random(k)) == \
                    tactical().choose(plain, legal, random.Random(k))


@pytest.mark.parametrize("name", ["bonfire", "wolves", "alley-tactical"])
def test_the_playout_storyteller_rules_as_the_simulated_one(fights, name) -> None:
    """playout_storyteller(header) gives, at every Storyteller step of a fight the scenario's
    policy ruled, the ruling that was logged, from the real scene or from a side's sampled one
    (which holds no policy)."""
    header, events = fights[name]
    judge = playout_storyteller(header)
    assert isinstance(judge, ScenarioStoryteller)
    state = RULES.setup(header)
    ruled = 0
    for event in events:
        if RULES.awaiting(state) == (STORYTELLER,) and not isinstance(event, NameDerangement):
            legal = RULES.legal(state, STORYTELLER)
            assert judge.choose(observe(RULES, state, STORYTELLER), legal,
                                random.Random(0)) == event
            world = sampler.determinize(RULES.observe(state, 0), random.Random(1))
            assert world.policy is None
            if state.queue[0].what == "confirm":
                assert judge.choose(observe(RULES, world, STORYTELLER), legal,
                                    random.Random(0)) == event
            ruled += 1
        RULES.apply(state, event)
    assert ruled
