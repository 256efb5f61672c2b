"""Test helpers on the game registry: test games registered for a while and taken out again,
and a registered game seen without one of its layers."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace

import pytest

from engine import games, registry


def unregister(*names: str) -> None:
    """The registry has no unregister: the tests take their own games out by hand."""
    for name in names:
        registry._REFS.pop(name, None)
        registry._LOADED.pop(name, None)


@contextmanager
def registered(refs: Mapping[str, str]) -> Iterator[None]:
    """These games (name -> registration reference) registered, and taken out on the way out."""
    for name, ref in refs.items():
        games.register_game(name, ref)
    try:
        yield
    finally:
        unregister(*refs)


def without_layer(monkeypatch: pytest.MonkeyPatch, game: str, layer: str) -> None:
    """For this test only, `game` as if its registration named no `layer` (restored after)."""
    reg = registry.registration(game)
    layers = {name: ref for name, ref in reg.layers.items() if name != layer}
    monkeypatch.setitem(registry._LOADED, game, replace(reg, layers=layers))
