"""How fast match logs are read back, beside stdlib json.loads of the same events as JSON lines.

    .venv/bin/python benchmarks/bench_log.py [--events 200000] [--matches 320]

Builds ~200k Vitorian events in memory (a plausible mix of decisions and shuffles) and writes them
as one log in two layouts: as a live table records them (each decision its own append, so one
frame per event) and as the simulator writes them (one commit per match of 76 events, the mean
of simulated matches). Then it simulates --matches real matches into one file each and reads the
folder back, file opening and header decoding included. For each it prints events decoded and
validated per second: the full read (CRC, typed decoding, seq and hash chain) and the fast read
(no chain). The baseline, measured in the same run, is json.loads per line of the same events
(untyped, unchecked). Best of 5 runs each.

Then what signing costs (events.signing, Ed25519): writing each layout unsigned and signed, and
reading it back unsigned, signed (stamps decoded, not checked) and signed with every signature
checked, each beside its unsigned twin measured in the same run.
"""
from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import msgspec

from engine.tournament import SeasonConfig, run_season
from events.base import DeckEntry, DeckList, Header, Seat
from events.log import FRAME, encode_log, read_log
from events.signing import Signer, check_signatures
from events.vitorian import (
    DeclareAttack,
    EndPhase,
    Mobilize,
    Move,
    PassPriority,
    PlayOrder,
    Recycle,
    Shuffle,
)


def random_event(rng: random.Random) -> Any:
    seat, card, roll = rng.randrange(2), rng.randrange(120), rng.random()
    if roll < 0.30:
        return PassPriority(seat=seat)
    if roll < 0.45:
        return Mobilize(seat=seat, card=card, cell=(rng.randrange(4), rng.randrange(1, 6)),
                        exhaust=(rng.randrange(120), rng.randrange(120)), returns=())
    if roll < 0.60:
        return Move(seat=seat, unit=card, to=(rng.randrange(4), rng.randrange(1, 6)))
    if roll < 0.70:
        return DeclareAttack(seat=seat, attacker=card, target=rng.choice([None, 17, 42]))
    if roll < 0.80:
        return EndPhase(seat=seat)
    if roll < 0.88:
        return PlayOrder(seat=seat, card=card, returns=(rng.randrange(120),), target=33)
    if roll < 0.95:
        return Recycle(seat=seat, resource=card, ability="shield", unit=rng.randrange(120))
    return Shuffle(seat=seat, zone="maneuver", order=tuple(rng.sample(range(120), 40)))


def header() -> Header:
    deck = DeckList(sections={"maneuver": [DeckEntry(card=f"card {i}", count=3)
                                           for i in range(20)]})
    return Header(game="vitorian", ruleset="vitorian@1", match_id="bench", seed=1,
                  seats=[Seat(seat=s, player=f"p{s}", setup=deck) for s in (0, 1)])


def best_of(runs: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def chain_only(data: bytes) -> None:
    """Just the blake2b of every frame, to see what the chain costs by itself."""
    view, pos, unpack = memoryview(data), 0, FRAME.unpack_from
    fresh_hash = hashlib.blake2b(digest_size=16).copy
    while pos < len(data):
        stop = pos + 8 + unpack(data, pos)[0]
        hashed = fresh_hash()
        hashed.update(view[pos:stop])
        hashed.digest()
        pos = stop


def json_lines_without_gc(lines: list[bytes]) -> list[Any]:
    gc.disable()
    try:
        return [json.loads(line) for line in lines]
    finally:
        gc.enable()


def read_all(paths: list[Path], verify_chain: bool) -> int:
    return sum(len(read_log(path, verify_chain=verify_chain).events) for path in paths)


def simulated_logs(folder: Path, matches: int) -> list[Path]:
    """Real matches of a Vitorian season, one log file each, as `postgame simulate` writes them."""
    cfg = SeasonConfig(game="vitorian", players=16, rounds=4, seed=2026, out=folder,
                       tournaments=max(1, -(-matches // 32)), workers=1)
    run_season(cfg)
    return sorted(folder.rglob("*.pglog"))


def layouts(folder: Path, events: list[Any]) -> dict[str, Path]:
    """The same events as one log per layout: one frame per event, one commit per match."""
    per_match = [events[i:i + 76] for i in range(0, len(events), 76)]
    paths = {"live log (one event per frame)": folder / "live.log",
             "simulator log (76 events per frame)": folder / "simulated.log"}
    for (name, path), commits in zip(paths.items(), ([[e] for e in events], per_match)):
        path.write_bytes(encode_log(header(), commits)[0])
        assert read_log(path).events == events, name
    return paths


def signing_rows(folder: Path, events: list[Any]) -> list[tuple[str, float, float]]:
    """(what, unsigned seconds, signed seconds) for writing and reading both layouts."""
    signer = Signer.from_raw(bytes(range(32)))
    public = signer.private.public_key()
    rows = []
    layouts = {"live log": [[e] for e in events],
               "simulator log": [events[i:i + 76] for i in range(0, len(events), 76)]}
    for name, commits in layouts.items():
        plain, signed = folder / f"{name}.plain", folder / f"{name}.signed"
        plain.write_bytes(encode_log(header(), commits)[0])
        signed.write_bytes(encode_log(header(), commits, sign=signer)[0])
        rows.append((f"{name}: write", best_of(3, partial(encode_log, header(), commits)),
                     best_of(3, partial(encode_log, header(), commits, sign=signer))))
        rows.append((f"{name}: full read", best_of(5, partial(read_log, plain)),
                     best_of(5, partial(read_log, signed))))
        rows.append((f"{name}: full read + every signature checked",
                     best_of(5, partial(read_log, plain)),
                     best_of(3, lambda path=signed: check_signatures(read_log(path), public))))
    return rows


def main(count: int, matches: int) -> None:
    rng = random.Random(2024)
    events = [random_event(rng) for _ in range(count)]
    lines = [msgspec.json.encode(event) for event in events]
    rows: list[tuple[str, int, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, path in layouts(folder, events).items():
            rows.append((f"{name}, full read", count, best_of(5, partial(read_log, path))))
            rows.append((f"{name}, fast read", count,
                         best_of(5, partial(read_log, path, verify_chain=False))))
        rows.append(("hash chain alone (blake2b of each live frame)", count,
                     best_of(5, lambda: chain_only((folder / "live.log").read_bytes()))))
        signing = signing_rows(folder, events)
        files = simulated_logs(folder / "season", matches)
        total = read_all(files, True)
        for chain, label in ((True, "full"), (False, "fast")):
            rows.append((f"{len(files)} simulated match files, {label} read", total,
                         best_of(5, partial(read_all, files, chain))))
    rows.append(("baseline json.loads per line", count,
                 best_of(5, lambda: [json.loads(x) for x in lines])))
    rows.append(("baseline json.loads per line, gc off", count,
                 best_of(5, lambda: json_lines_without_gc(lines))))
    baseline = count / rows[-2][2]
    print(f"{count} synthetic events; {total} events in {len(files)} simulated matches "
          f"({total / len(files):.0f} per match)")
    for name, n, seconds in rows:
        rate = n / seconds
        print(f"{name:<52} {rate / 1e6:6.2f} M events/s  {seconds * 1e3:8.1f} ms  "
              f"x{rate / baseline:5.2f} vs json.loads")
    print("signing (Ed25519), unsigned beside signed, same events:")
    for name, plain, signed in signing:
        print(f"{name:<52} {count / plain / 1e6:6.2f} -> {count / signed / 1e6:6.2f} M events/s"
              f"  x{plain / signed:5.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--matches", type=int, default=320)
    args = parser.parse_args()
    main(args.events, args.matches)
