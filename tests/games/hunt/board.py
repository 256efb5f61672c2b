"""The field of the Hunt, read from board.toml: its places, the paths between them, how many
rounds the fox must last, the rounds it is sighted on and the kennels hounds start from.

Distances are counted once, by breadth-first search from every place, so the rules, the bots and
the tests ask `distance` instead of walking the paths again.
"""
from __future__ import annotations

import tomllib
from collections import deque
from pathlib import Path

import msgspec

BOARD_FILE = Path(__file__).with_name("board.toml")


class FieldData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rounds: int
    sightings: tuple[int, ...]
    kennels: tuple[str, ...]
    reach: tuple[int, ...]
    """HUNT-3: how far each hound may run this round, for each face of the die (1 first)."""
    places: dict[str, str]
    """Place id -> its name in words ("copse" -> "the Copse")."""
    paths: dict[str, tuple[str, ...]]
    """Each path once, listed under one of its two ends."""


class Field:
    """The field with its paths both ways and every distance."""

    def __init__(self, data: FieldData) -> None:
        self.data = data
        self.places = tuple(data.places)
        links: dict[str, set[str]] = {place: set() for place in self.places}
        for start, ends in data.paths.items():
            for end in ends:
                if start not in links or end not in links:
                    raise ValueError(f"board.toml: a path {start}-{end} leaves the field")
                links[start].add(end)
                links[end].add(start)
        order = {place: i for i, place in enumerate(self.places)}
        self.neighbours = {p: tuple(sorted(ends, key=order.__getitem__))
                           for p, ends in links.items()}
        self.distance = {(a, b): d for a in self.places for b, d in self._walk(a).items()}
        if len(self.distance) != len(self.places) ** 2:
            raise ValueError("board.toml: every place must be reachable from every other")

    def _walk(self, start: str) -> dict[str, int]:
        found, queue = {start: 0}, deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbours[here]:
                if there not in found:
                    found[there] = found[here] + 1
                    queue.append(there)
        return found

    def name(self, place: str | None) -> str:
        return "somewhere unseen" if place is None else self.data.places[place]

    def within(self, start: str, steps: int) -> tuple[str, ...]:
        """Every place at most `steps` along the paths from `start` (itself included)."""
        return tuple(p for p in self.places if self.distance[start, p] <= steps)

    @property
    def die(self) -> int:
        """The die's faces: 1 to this."""
        return len(self.data.reach)

    def reach(self, roll: int) -> int:
        """HUNT-3: how far each hound may run this round for a roll of the die."""
        return self.data.reach[roll - 1]


def load_field(path: Path = BOARD_FILE) -> Field:
    return Field(msgspec.convert(tomllib.loads(path.read_text(encoding="utf-8")), FieldData))


FIELD = load_field()
