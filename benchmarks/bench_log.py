"""How fast a match log is read back, beside stdlib json.loads of the same events as JSON lines.

    .venv/bin/python benchmarks/bench_log.py [events]

Builds ~200k Vitorian events in memory (a plausible mix of decisions and shuffles), writes one log
to a temporary directory and prints events decoded and validated per second for: the full read
(CRC, typed decoding, seq and hash chain), the fast read (no chain), the chain alone, and the
baseline, json.loads per line (untyped, unchecked), measured in the same run. Best of 5 runs each.
"""
from __future__ import annotations

import gc
import hashlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from events.base import DeckEntry, DeckList, Header, Seat
from events.jsonl import read_jsonl, to_jsonl
from events.log import FRAME, read_log, write_log
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
                  seats=[Seat(seat=s, player=f"p{s}", deck=deck) for s in (0, 1)])


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


def main(count: int) -> None:
    rng = random.Random(2024)
    events = [random_event(rng) for _ in range(count)]
    lines = [msgspec.json.encode(event) for event in events]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.log"
        write_seconds = best_of(1, lambda: write_log(path, header(), events))
        data = path.read_bytes()
        assert read_log(path).events == events
        to_jsonl(path, Path(tmp) / "bench.jsonl")
        results = {
            "full read (CRC + decode + seq + chain)": best_of(5, lambda: read_log(path)),
            "fast read (CRC + decode + seq)": best_of(
                5, lambda: read_log(path, verify_chain=False)),
            "hash chain alone (blake2b of each frame)": best_of(5, lambda: chain_only(data)),
            "JSONL read_jsonl (typed + chain rebuilt)": best_of(
                2, lambda: read_jsonl(Path(tmp) / "bench.jsonl")),
            "baseline json.loads per line": best_of(5, lambda: [json.loads(x) for x in lines]),
            "baseline json.loads per line, gc off": best_of(
                5, lambda: json_lines_without_gc(lines)),
        }
    print(f"{count} events, {len(data) / count:.1f} bytes per event, {len(data) / 2**20:.1f} MiB;"
          f" write_log {count / write_seconds / 1e6:.2f} M events/s (validated)")
    baseline = results["baseline json.loads per line"]
    for name, seconds in results.items():
        print(f"{name:<44} {count / seconds / 1e6:6.2f} M events/s  "
              f"{seconds * 1e3:8.1f} ms  x{baseline / seconds:5.2f} vs json.loads")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
