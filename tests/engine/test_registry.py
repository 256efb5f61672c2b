"""The game registry: each game registers once, and every layer its metadata calls for is there.

A registered game lacking a layer fails here with a message naming the game and the layer
(every game: events, ruleset, kit, facts; capability "charges": a card catalog for the lake,
"board": the app's picture)."""
from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path

import pytest

from engine import registry
from engine.games import GameKit, get_game
from engine.registry import GameInfo, Registration, Side, missing_layers
from engine.ruleset import get_ruleset, known_rulesets

ROOT = Path(__file__).resolve().parents[2]
BUILTIN = sorted(registry.BUILTIN)


@pytest.mark.parametrize("game", BUILTIN)
def test_every_builtin_game_has_every_layer_it_declares(game: str) -> None:
    problems = missing_layers(registry.registration(game))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", BUILTIN)
def test_every_layer_a_game_names_loads(game: str) -> None:
    for name in registry.registration(game).layers:
        assert registry.layer(game, name) is not None, f"game {game!r}: {name} layer"


@pytest.mark.parametrize("game", BUILTIN)
def test_the_layers_agree_with_the_metadata(game: str) -> None:
    from pipeline.facts import FactVisitor

    info = registry.info(game)
    kit = get_game(game)
    assert isinstance(kit, GameKit) and info.name == game
    assert (kit.name, kit.ruleset, kit.prefix) == (game, info.rulesets[-1], info.prefix)
    for key in info.rulesets:
        assert key in known_rulesets() and get_ruleset(key).game == game, f"{game}: {key}"
    union = registry.layer(game, "events")
    assert set(typing.get_args(union)) == set(typing.get_args(get_ruleset(game).event_type))
    assert issubclass(registry.layer(game, "facts"), FactVisitor), f"{game}: facts layer"
    assert info.min_seats <= info.max_seats and info.sides


def _info(capabilities: tuple[str, ...]) -> GameInfo:
    return GameInfo(name="x", title="X", rulesets=("x@1",), prefix="x", min_seats=2,
                    max_seats=2, sides=(Side("a"), Side("b")), symmetric=True, chance=False,
                    storyteller=False, information="open", capabilities=capabilities)


ALL = {"events": "m:E", "setup": "m:S", "ruleset": "m:R", "narration": "m:N", "kit": "m:k",
       "facts": "m:F"}


@pytest.mark.parametrize(("capabilities", "layers", "named"), [
    ((), {k: v for k, v in ALL.items() if k != "facts"}, "no facts layer"),
    ((), {k: v for k, v in ALL.items() if k != "events"}, "no events layer"),
    ((), {k: v for k, v in ALL.items() if k != "setup"}, "no setup layer"),
    (("board",), ALL, "capability 'board' but registers no board layer"),
    (("charges",), ALL, "capability 'charges' but registers no cards layer"),
])
def test_a_missing_layer_is_named(capabilities: tuple[str, ...], layers: dict[str, str],
                                  named: str) -> None:
    problems = missing_layers(Registration(info=_info(capabilities=capabilities),
                                           layers=layers))
    assert len(problems) == 1 and named in problems[0] and "'x'" in problems[0], problems


def test_a_complete_registration_has_no_problem() -> None:
    assert missing_layers(Registration(info=_info(capabilities=("board", "decks")),
                                       layers=ALL | {"board": "m:b"})) == []


def test_the_toy_game_loads_without_vitorian() -> None:
    """Registering and playing the toy game imports no real game's rules or events."""
    code = ("import sys\nimport tests.engine.toy_game as toy\n"
            "from engine.ruleset import get_ruleset\nfrom events.games import event_union\n"
            "from engine.games import get_game\n"
            "assert get_ruleset('toy@1') is toy.RULESET and event_union('toy') is toy.Event\n"
            "assert get_game('toy').name == 'toy'\n"
            "loaded = [m for m in sys.modules if m.split('.')[-1] in ('vitorian', 'eredan')\n"
            "          or '.vitorian.' in m or '.eredan.' in m]\n"
            "assert not loaded, loaded\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def test_a_game_of_ones_own_is_registered_from_the_environment() -> None:
    """POSTGAME_GAMES registers a game for every command (and every worker process), with no
    edit to postgame; a malformed entry is one clear line."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, POSTGAME_GAMES="hunt=tests.games.hunt.registration:registration")
    shown = subprocess.run([sys.executable, "-m", "postgame", "games", "--json"], env=env,
                           capture_output=True, text=True, check=True)
    assert '"hunt"' in shown.stdout and "Hunt" in shown.stdout
    env["POSTGAME_GAMES"] = "hunt"
    bad = subprocess.run([sys.executable, "-c", "import engine.registry"], env=env, check=False,
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "POSTGAME_GAMES: 'hunt' is not name=module:function" \
        in bad.stderr
