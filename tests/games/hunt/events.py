"""What a Hunt log holds: the seats' setups, the events (decisions and die rolls) and the changes
the rules derive from them, as typed, tagged Structs (rules in tests/games/hunt/rules.py).

The fox's place is its secret: its den and its runs declare the place as `private`, and the
changes that carry it name the fox as the only seat that may see it (`secret_to`)."""
from __future__ import annotations

from typing import ClassVar

import msgspec

from engine.ruleset import Change


class Start(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What a seat brings (the setup layer): a hound's kennel to start from. The fox brings
    none: its den is chosen in secret (HUNT-2), never written in the header."""

    place: str | None = None


class HuntEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type",
                forbid_unknown_fields=True):
    pass


class Den(HuntEvent, frozen=True, tag="den"):
    """HUNT-2: the fox goes to ground before the first round."""

    seat: int
    place: str
    private: ClassVar[tuple[str, ...]] = ("place",)


class Roll(HuntEvent, frozen=True, tag="roll"):
    """HUNT-3: the die of the round, rolled in public."""

    by: ClassVar[str] = "chance"
    value: int


class Run(HuntEvent, frozen=True, tag="run"):
    """HUNT-4: the fox runs to a neighbouring place, unseen."""

    seat: int
    to: str
    private: ClassVar[tuple[str, ...]] = ("to",)


class Chase(HuntEvent, frozen=True, tag="chase"):
    """HUNT-5: a hound runs to a place within the die's reach (or stays), in public."""

    seat: int
    to: str


Event = Den | Roll | Run | Chase


class WentToGround(Change, frozen=True, tag="went_to_ground"):
    place: str | None = None
    private: ClassVar[tuple[str, ...]] = ("place",)


class RoundBegan(Change, frozen=True, tag="round_began"):
    round: int


class Rolled(Change, frozen=True, tag="rolled"):
    value: int
    reach: int


class Ran(Change, frozen=True, tag="ran"):
    place: str | None = None
    private: ClassVar[tuple[str, ...]] = ("place",)


class Sighted(Change, frozen=True, tag="sighted"):
    """HUNT-7: everyone sees where the fox is now."""

    place: str
    round: int


class Chased(Change, frozen=True, tag="chased"):
    origin: str
    to: str


class Caught(Change, frozen=True, tag="caught"):
    """HUNT-6: seat is the hound that caught the fox (None: cornered, caught by the pack)."""

    place: str
    cornered: bool = False


class Escaped(Change, frozen=True, tag="escaped"):
    rounds: int


class HuntOver(Change, frozen=True, tag="hunt_over"):
    """The hunt's end: the winning side (None: a draw) and the rule that ended it."""

    side: str | None = None
    rule: str = ""
