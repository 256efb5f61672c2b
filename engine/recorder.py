"""Recording a live match: appends that the rules refuse never reach the log.

`events.log.append_events` holds the file lock and calls `rules_check` before writing; the check
replays the log so far through the ruleset the header names and applies the new events to it.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.replay import IllegalEvent
from engine.ruleset import RuleViolation, get_ruleset
from events.base import Header
from events.log import Appended, Sign, append_events, create_log


def rules_check(header: Header, existing: Sequence[Any], new: Sequence[Any]) -> None:
    """Raise IllegalEvent (with its would-be sequence number) for the first refused event."""
    ruleset = get_ruleset(header.ruleset)
    try:
        state = ruleset.setup(header)
    except RuleViolation as err:
        raise IllegalEvent(0, err.rule, err.reason) from err
    for seq, event in enumerate([*existing, *new], start=1):
        try:
            ruleset.apply(state, event)
        except RuleViolation as err:
            raise IllegalEvent(seq, err.rule, err.reason, event) from err


def start_match(path: str | Path, header: Header, sign: Sign | None = None) -> bytes:
    """Create the log of a new match after checking its header (decks, ruleset); returns its
    head hash. With sign (events.signing.Signer) the log is signed from its header on."""
    rules_check(header, (), ())
    return create_log(path, header, sign)


def record(path: str | Path, events: Sequence[Any], expected_seq: int,
           sign: Sign | None = None) -> Appended:
    """Append events a client reports; returns the next sequence number and the new head."""
    return append_events(path, events, expected_seq=expected_seq, check=rules_check, sign=sign)
