"""Simulated seasons of tournaments, one binary log per match.

Each tournament is run in its game's event format (engine.formats: Swiss pairing, role rotation,
scenario sweeps); this module seats the entrants, turns each round's tables into match headers,
plays them and writes their logs.

Layout: OUT/<tournament id>/<match id>.pglog, where a tournament id is "<game prefix>-<year>-<nnn>"
(e.g. vw-2026-001, nnn counting the season's tournaments from 001) and a match id is
"<tournament id>-r<round>-t<table>". ".pglog" is the binary framed log of events.log.

Determinism: everything derives from the season seed through `derive_seed` (tournament seeds,
deck building, seating, match seeds), and each match is a pure function of its header (the header
carries its seed). Rounds run in order, because round r+1 is paired from round r's results; the
matches of one round, across every tournament of the season, run in parallel. Results are
gathered in table order, so files and summaries are byte-identical whatever the worker count.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from engine.charges import (
    ChargeError,
    ChargeTable,
    epoch_table,
    initial_table,
    load_formats,
    next_table,
)
from engine.formats import (
    Entrant,
    Format,
    MatchResult,
    SeatResult,
    Sitting,
    make_format,
    tables_per_round,
)
from engine.games import SWEEP, SWISS, CardBase, GameKit, game_ref, get_game, load_kit
from engine.ruleset import Outcome, get_ruleset
from engine.simulate import derive_seed, play_match
from events.base import DeckList, Header, Seat

__all__ = ["Entrant", "MatchResult", "MatchTask", "SeasonConfig", "SeatResult", "Tournament",
           "create_tournament", "matches_per_season", "player_names", "round_tasks", "run_match",
           "run_season", "season_dates", "standings", "summary"]

LOG_SUFFIX = ".pglog"
FORMAT = "standard"
FIRST_ROUND_AT = time(10, 0)
ROUND_LENGTH = timedelta(minutes=75)
DEFAULT_START = date(2026, 1, 5)

_FIRST = ("Ada", "Bruno", "Clara", "Dario", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas",
          "Kira", "Luca", "Marta", "Nils", "Olga", "Pavel", "Rosa", "Sami", "Tereza", "Uriel",
          "Vera", "Wim", "Yara", "Zeno")
_LAST = ("Almeida", "Brandt", "Costa", "Dumont", "Esposito", "Falk", "Garnier", "Horvat",
         "Ivanova", "Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Oliveira", "Petrov",
         "Quast", "Rossi", "Santos", "Tanaka", "Ueda", "Varga", "Weber", "Zimmer")


@dataclass(frozen=True)
class SeasonConfig:
    game: str
    players: int
    rounds: int
    seed: int
    out: Path
    tournaments: int = 1
    start: date | None = None
    bots: tuple[str, ...] = ()
    """Bot names dealt to players in turn; empty means the game's default bot."""
    workers: int = 1
    sign_key: bytes | None = field(default=None, repr=False)
    """The raw Ed25519 private key that signs every log (events.signing); None: unsigned."""
    seats: int | None = None
    """Seats per table, for games played at tables of several sizes (None: the kit's default)."""
    scenario: Any = None
    """The scenario block every match is played from (None: the kit's default scenario)."""
    first: int = 0
    """The season index of the first tournament played, for a season simulated in parts: ids,
    seeds and dates go on from it, and the tournaments before it are seated but not played
    (their decks registered), so the charge tables are the whole season's. Parts of
    `tournaments` each, at first = 0, n, 2n...: the logs of the season simulated at once."""


@dataclass(frozen=True)
class MatchTask:
    """Everything a worker needs to play and write one match (picklable)."""

    kit_ref: str
    header: Header
    bots: tuple[str, ...]
    path: str
    sign_key: bytes | None = field(default=None, repr=False)
    archetypes: tuple[str, ...] = ()
    """The archetype or build of each seat, for its result."""


@dataclass
class Tournament:
    id: str
    index: int
    date: date
    seed: int
    entrants: dict[str, Entrant]
    format: Format
    matches: list[MatchResult] = field(default_factory=list)
    byes: list[tuple[int, str]] = field(default_factory=list)
    scenario: Any = None


def season_dates(seed: int, count: int, start: date | None) -> list[date]:
    """Tournament days 3 or 4 days apart, from `start` or a day of early 2026 the seed picks."""
    day = start or DEFAULT_START + timedelta(days=derive_seed(seed, "start") % 120)
    days = []
    for i in range(count):
        days.append(day)
        day += timedelta(days=3 + derive_seed(seed, "gap", i) % 2)
    return days


def player_names(seed: int, count: int) -> list[str]:
    """Distinct, readable, deterministic names ("Clara Novak"), numbered past 576 players."""
    combos = len(_FIRST) * len(_LAST)
    picks = random.Random(derive_seed(seed, "names")).sample(range(combos), min(count, combos))
    names = [f"{_FIRST[p // len(_LAST)]} {_LAST[p % len(_LAST)]}" for p in picks]
    return names + [f"Player {i + 1:04d}" for i in range(combos, count)]


def create_tournament(cfg: SeasonConfig, kit: GameKit, index: int, day: date,
                      names: list[str], charges: Any = None) -> Tournament:
    """Seat the entrants: archetypes spread evenly (dealt in a shuffled order), decks varied;
    `charges`, the table in force (see SeasonCharges), goes to a builder that takes one. A
    sweep's entrants are its table's seats, one player each."""
    seed = derive_seed(cfg.seed, "tournament", index)
    tid = f"{kit.prefix}-{day.year}-{index + 1:03d}"
    layout = kit.layout(kit.table_size(cfg.seats))
    if kit.format == SWEEP:
        names = names[:len(layout)]
    rng = random.Random(seed)
    archetypes = _archetypes(kit, len(names), rng)
    bots = cfg.bots or (kit.default_bot,)
    entrants = {}
    for i, (name, archetype) in enumerate(zip(names, archetypes)):
        deck = _deck(kit, seed, name, archetype, charges) if kit.format == SWISS else None
        entrants[name] = Entrant(name, archetype, bots[i % len(bots)], deck)
    seeding = list(names)
    rng.shuffle(seeding)
    scenario = cfg.scenario if cfg.scenario is not None else kit.scenario()
    return Tournament(tid, index, day, seed, entrants,
                      make_format(kit, entrants, seeding, layout, seed, scenario),
                      scenario=scenario)


def _archetypes(kit: GameKit, count: int, rng: random.Random) -> list[str]:
    """Archetypes dealt evenly in a shuffled order ("" for a game without archetypes or whose
    sweep pairs its builds itself)."""
    if kit.format == SWEEP or not kit.archetypes:
        return [""] * count
    archetypes = [kit.archetypes[i % len(kit.archetypes)] for i in range(count)]
    rng.shuffle(archetypes)
    return archetypes


def _deck(kit: GameKit, seed: int, name: str, archetype: str, charges: Any) -> DeckList:
    deck_rng = random.Random(derive_seed(seed, "deck", name))
    if charges is None:
        return kit.build_deck(archetype, deck_rng, archetype)
    return kit.build_deck(archetype, deck_rng, archetype, charges=charges)  # type: ignore[call-arg]


class SeasonCharges:
    """The charge table in force at each tournament of a simulated season (CH-2), for kits whose
    deck builder takes `charges=` (Eredan, Vitorian Wars): the season's own registrations so far,
    run through the CH-2 rules the lake's tables use too (engine.charges), each deck counted by
    base card (the kit's card_base, CH-2.10) over the format's charged sections, so simulated
    decks respect the cap of their epoch (CH-2.8) and the charges shape the meta over time.

    Tournament i (in date order, the season's) falls in epoch i // window; the table of epoch k
    comes from epoch k-1's registrations (every entrant's deck, once per tournament, CH-2.3) and
    the table before it; epoch 0 takes the initial table. The builder gets the game-neutral
    engine.charges.ChargeTable (its cap and charged sections included), read in its game's
    words by the game itself. Decks depend on nothing played, so the tables are the same
    whatever the worker count."""

    def __init__(self, game: str, card_base: CardBase | None = None) -> None:
        self.settings = load_formats().settings(game, FORMAT)
        self.base = card_base or get_game(game).card_base
        self.epoch, self.table = 0, initial_table(self.settings)
        """The latest epoch reached and its table: the recursion needs no older one, so a
        season's memory does not grow with its epochs."""
        self.decks: dict[int, list[DeckList]] = {}

    @classmethod
    def for_kit(cls, kit: GameKit) -> SeasonCharges | None:
        import inspect

        if "charges" not in inspect.signature(kit.build_deck).parameters:
            return None
        try:
            load_formats().settings(kit.name, FORMAT)
        except ChargeError:
            return None
        return cls(kit.name, kit.card_base)

    def register(self, index: int, decks: list[DeckList]) -> None:
        self.decks.setdefault(index // self.settings.window, []).extend(decks)

    def in_force(self, index: int) -> ChargeTable:
        """The table of the epoch tournament `index` falls in (cap and sections included);
        tournaments are asked for in date order."""
        epoch = index // self.settings.window
        if epoch < self.epoch:
            raise ValueError(f"tournament {index} falls in epoch {epoch}, before epoch "
                             f"{self.epoch} already reached: ask in date order")
        while self.epoch < epoch:
            decks = self.decks.pop(self.epoch, [])  # counted once: let them go
            counts: dict[str, int] = {}
            for deck in decks:
                for card in self._held(deck):
                    counts[card] = counts.get(card, 0) + 1
            self.table, _ = next_table(self.table, counts, len(decks), self.settings)
            self.epoch += 1
        return epoch_table(epoch, self.table, self.settings)

    def _held(self, deck: DeckList) -> set[str]:
        """The base cards a deck holds at least one copy of in a charged section (CH-2.4)."""
        sections = self.settings.sections
        return {self.base(e.card) for name, entries in deck.sections.items()
                if not sections or name in sections for e in entries if e.count > 0}


def round_tasks(tour: Tournament, rnd: int, kit: GameKit, ref: str, out: Path,
                sign_key: bytes | None = None) -> list[MatchTask]:
    """Seat round `rnd` in the tournament's format and describe its matches; a bye is recorded,
    not played."""
    plan = tour.format.plan(rnd)
    tour.byes.extend((rnd, name) for name in plan.byes)
    tasks = []
    for table, sittings in enumerate(plan.tables, 1):
        header = _header(tour, rnd, table, sittings, kit)
        path = out / tour.id / f"{header.match_id}{LOG_SUFFIX}"
        tasks.append(MatchTask(ref, header, tuple(s.bot for s in sittings), str(path), sign_key,
                               tuple(s.archetype for s in sittings)))
    return tasks


def _header(tour: Tournament, rnd: int, table: int, sittings: tuple[Sitting, ...],
            kit: GameKit) -> Header:
    started = datetime.combine(tour.date, FIRST_ROUND_AT, tzinfo=UTC) + ROUND_LENGTH * (rnd - 1)
    seats = [Seat(seat=i, player=s.player, setup=s.setup, side=s.place.side, role=s.place.role)
             for i, s in enumerate(sittings)]
    return Header(
        game=kit.name, ruleset=kit.ruleset, match_id=f"{tour.id}-r{rnd}-t{table}", seats=seats,
        tournament=tour.id, format=FORMAT, round=rnd, table=table, started_at=started,
        seed=derive_seed(tour.seed, "match", rnd, table), scenario=tour.scenario,
    )


def run_match(task: MatchTask) -> MatchResult:
    """Play one match and write its log; runs in a worker process."""
    from events.log import write_log

    kit = load_kit(task.kit_ref)
    header = task.header
    bots = {i: make_bot(name, dict(kit.bots)) for i, name in enumerate(task.bots)}
    storyteller = kit.storyteller() if kit.storyteller else None
    events, outcome = play_match(get_ruleset(header.ruleset), header, bots,
                                 random.Random(header.seed), storyteller=storyteller)
    path = Path(task.path)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = write_log(path, header, events, _signer(task.sign_key))
    return MatchResult(header.match_id, header.tournament or "", header.round or 0,
                       header.table or 0, _seat_results(header, outcome, task.archetypes),
                       outcome.reason, outcome.rule, len(events), task.path, head.hex(),
                       outcome.side)


def _seat_results(header: Header, outcome: Outcome, archetypes: tuple[str, ...]
                  ) -> tuple[SeatResult, ...]:
    archetypes = archetypes or ("",) * len(header.seats)
    return tuple(SeatResult(s.seat, s.player, outcome.results[s.seat], s.side, s.role, a)
                 for s, a in zip(header.seats, archetypes))


@functools.cache
def _signer(raw: bytes | None) -> Any:
    """One Signer per key and worker process (keys travel to workers as raw bytes)."""
    from events.signing import Signer

    return None if raw is None else Signer.from_raw(raw)


def run_season(cfg: SeasonConfig,
               on_result: Callable[[MatchResult], None] | None = None) -> list[Tournament]:
    """Play every tournament of the season, round by round, matches of a round in parallel."""
    ref = game_ref(cfg.game)
    kit = load_kit(ref)
    _validate(cfg, kit)
    for bot in cfg.bots:
        make_bot(bot, dict(kit.bots))
    names = player_names(cfg.seed, cfg.players)
    days = season_dates(cfg.seed, cfg.first + cfg.tournaments, cfg.start)
    charges = SeasonCharges.for_kit(kit)
    tours = []
    for i, d in enumerate(days):
        if i < cfg.first and not charges:
            continue
        table = charges.in_force(i) if charges else None
        tour = create_tournament(cfg, kit, i, d, names, table)
        if charges:
            charges.register(i, [e.deck for e in tour.entrants.values() if e.deck is not None])
        if i >= cfg.first:
            tours.append(tour)
    by_id = {t.id: t for t in tours}
    with _mapper(cfg.workers) as map_:
        for rnd in range(1, cfg.rounds + 1):
            tasks = [task for t in tours
                     for task in round_tasks(t, rnd, kit, ref, cfg.out, cfg.sign_key)]
            for result in map_(run_match, tasks):
                tour = by_id[result.tournament]
                tour.format.record(result)
                tour.matches.append(result)
                if on_result:
                    on_result(result)
    return tours


def matches_per_season(cfg: SeasonConfig) -> int:
    kit = get_game(cfg.game)
    size = kit.table_size(cfg.seats)
    scenario = cfg.scenario if cfg.scenario is not None else kit.scenario()
    return cfg.tournaments * cfg.rounds * tables_per_round(kit, cfg.players, size, scenario)


def _validate(cfg: SeasonConfig, kit: GameKit) -> None:
    size = kit.table_size(cfg.seats)
    if cfg.players < size:
        raise ValueError(f"a tournament at tables of {size} needs at least {size} players, "
                         f"not {cfg.players}")
    if cfg.rounds < 1 or cfg.tournaments < 1 or cfg.first < 0:
        raise ValueError("rounds and tournaments must be at least 1, first at least 0")
    if cfg.first + cfg.tournaments > 999:
        raise ValueError("at most 999 tournaments per season (ids are numbered 001..999)")


@contextmanager
def _mapper(workers: int) -> Iterator[Callable[..., Iterable[Any]]]:
    """An ordered map: in-process for one worker, over a process pool otherwise."""
    if workers <= 1:
        yield map
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield lambda fn, items: pool.map(fn, items, chunksize=max(1, len(items) // (4 * workers)))


def summary(cfg: SeasonConfig, tours: list[Tournament]) -> dict[str, Any]:
    """The machine-readable account of a season (`simulate --json`)."""
    kit = get_game(cfg.game)
    return {
        "game": cfg.game, "format": kit.format, "seats": kit.table_size(cfg.seats),
        "seed": cfg.seed, "players": cfg.players, "rounds": cfg.rounds, "out": str(cfg.out),
        "signed_by": _signer(cfg.sign_key).key_id.hex() if cfg.sign_key else None,
        "tournaments": [_tournament_summary(t) for t in tours],
    }


def _tournament_summary(tour: Tournament) -> dict[str, Any]:
    return {
        "id": tour.id, "date": tour.date.isoformat(), "seed": tour.seed,
        "standings": standings(tour), **tour.format.breakdown(),
        "byes": [{"round": r, "player": p} for r, p in tour.byes],
        "matches": [_match_summary(m) for m in tour.matches],
    }


def _match_summary(match: MatchResult) -> dict[str, Any]:
    data = asdict(match)
    data["seats"] = [{k: v for k, v in seat.items() if v not in (None, "")}
                     for seat in data["seats"]]
    return data


def standings(tour: Tournament) -> list[dict[str, Any]]:
    return tour.format.standings()

