"""Test helpers on the game registry: a registered game seen without one of its layers."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engine import registry


def without_layer(monkeypatch: pytest.MonkeyPatch, game: str, layer: str) -> None:
    """For this test only, `game` as if its registration named no `layer` (restored after)."""
    reg = registry.registration(game)
    layers = {name: ref for name, ref in reg.layers.items() if name != layer}
    monkeypatch.setitem(registry._LOADED, game, replace(reg, layers=layers))
