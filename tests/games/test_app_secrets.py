"""Hidden information on the app's Replay page, for every game: run on a lake of that game alone,
seen as each perspective the game lists but the organiser's, the page (the board at a spread of
steps, the step's words, the whole event list) never shows what that perspective may not know at
that step. What each game hides is found by its own suite's checks (tests/vitorian, tests/eredan,
and the test games' end-to-end checks); here they are pointed at the page the person sees."""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from streamlit.testing.v1 import AppTest

from dashboards.data import LAKE_ENV
from dashboards.replaying import text_board
from engine.narration import narration_for
from engine.ruleset import OMNISCIENT, Perspective, get_ruleset
from events.base import Header
from events.log import read_log
from pipeline.lake import Lake
from tests.dashboards.conftest import shown
from tests.eredan.test_hidden import names_in, scrubbed
from tests.eredan.test_hidden import secrets as eredan_secrets
from tests.games.checks import Keeper, replayed
from tests.games.test_end_to_end import APP, _allowed, _secret_of, run
from tests.vitorian.test_hidden import hidden_ids, secret_names

TOURNAMENTS = {
    "vitorian": ["--players", "2", "--rounds", "1", "--seed", "4"],
    "eredan": ["--players", "2", "--rounds", "1", "--seed", "4"],
    "hunt": ["--seats", "3", "--players", "3", "--rounds", "1", "--seed", "5"],
    "bid": ["--seats", "4", "--matches", "1", "--seed", "5"],
    "v20": ["--scenario", "alley", "--matches", "1", "--seed", "5"],
}
BOARD_STEPS = 8
"""Steps at which the board is looked at, spread over the match (its first and last too)."""

Leaks = Callable[[str, int, Perspective], list[str]]
"""leaks(text, step, perspective): what of the text `perspective` may not know at `step`."""


@dataclass
class Shown:
    header: Header
    kept: Keeper
    at: AppTest


def _leaks(game: str, header: Header, kept: Keeper) -> Leaks:
    ruleset = get_ruleset(header.ruleset)

    def vitorian(text: str, step: int, perspective: Perspective) -> list[str]:
        state = kept.steps[step].state
        names = secret_names(state, header, hidden_ids(state, perspective))
        return sorted(n for n in names if n in text)

    def eredan(text: str, step: int, perspective: Perspective) -> list[str]:
        state = kept.steps[step].state
        _, names = eredan_secrets(state, perspective)
        known = names_in(ruleset.view(state, perspective))
        return sorted(n for n in names - known if n in scrubbed(text, known))

    def test_game(text: str, step: int, perspective: Perspective) -> list[str]:
        return sorted(word for seat, words in _secret_of(game, header, kept, step).items()
                      if not _allowed(game, perspective, seat) for word in words if word in text)

    def v20(text: str, step: int, perspective: Perspective) -> list[str]:
        """Another side's blood and Willpower pools and derangements (spec "Hidden
        information"), as the board would write them, and who rolls an ambush before its pair
        is rolled (V20-6.7), as the Storyteller's words tell it."""
        state = kept.steps[step].state
        secret = [words for f in state.fighters.values() if perspective != f.seat
                  for words in (f"Blood {f.blood}/{f.max_blood} BP",
                                f"Willpower {f.willpower}/{f.sheet.willpower}",
                                f"{f.name} stalks", *f.derangements)]
        return sorted(w for w in secret if w in text)

    return {"vitorian": vitorian, "eredan": eredan, "v20": v20}.get(game, test_game)


@pytest.fixture(scope="module", params=sorted(TOURNAMENTS))
def replay_page(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[Shown]:
    """A lake of one small tournament of the game, and the Replay page on its first match."""
    game = request.param
    root = tmp_path_factory.mktemp(f"secrets-{game}")
    code, _, err = run("simulate", game, *TOURNAMENTS[game], "--out", root / "logs", "--quiet")
    assert code == 0, err
    code, _, err = run("ingest", root / "logs", "--lake", root / "lake", "--workers", "1",
                       "--quiet")
    assert code == 0, err
    with pytest.MonkeyPatch.context() as env:
        env.setenv(LAKE_ENV, str(root / "lake"))
        at = AppTest.from_file(str(APP), default_timeout=120).run()
        assert not at.exception, at.exception
        match_id = at.query_params["match"][0] if isinstance(
            at.query_params["match"], list) else at.query_params["match"]
        with contextlib.closing(Lake(root / "lake").connect()) as con:
            (path,) = con.execute("SELECT log_path FROM matches WHERE match_id = ?",
                                  [match_id]).fetchone() or (None,)
        log = read_log(path)
        yield Shown(log.header, replayed(log.header, list(log.events)), at)


def _seen_as(at: AppTest, perspective: Perspective, step: int) -> AppTest:
    at.button_group(key="replay_perspective").set_value(perspective).run()
    at.slider(key="replay_step").set_value(step).run()
    assert not at.exception, at.exception
    return at


def _page_text(at: AppTest) -> str:
    """Everything written on the page but the event list (checked row by row)."""
    parts = [str(getattr(e, "value", "")) for kind in (
        "title", "markdown", "caption", "info", "success", "warning", "error", "code")
        for e in at.get(kind)]
    return shown("\n".join(parts))


def _perspectives(shown_: Shown) -> list[Perspective]:
    listed = narration_for(shown_.header.game).perspectives(shown_.header)
    return [p for p, _ in listed if p != OMNISCIENT]


def test_the_board_and_words_of_each_step_keep_every_secret(replay_page: Shown) -> None:
    header, kept, at = replay_page.header, replay_page.kept, replay_page.at
    leaks, ruleset = _leaks(header.game, header, kept), get_ruleset(header.ruleset)
    last = len(kept.steps) - 1
    steps = sorted({round(i * last / (BOARD_STEPS - 1)) for i in range(BOARD_STEPS)})
    secrets = 0
    for perspective in _perspectives(replay_page):
        for step in steps:
            page = _page_text(_seen_as(at, perspective, step))
            assert f"**Step {step}/{last} " in page
            found = leaks(page, step, perspective)
            assert not found, (header.game, perspective, step, found)
            if header.game in ("hunt", "bid"):  # a text board: the view, and only the view
                view = ruleset.view(kept.steps[step].state, perspective)
                assert at.code[0].value == text_board(header.game, view)
            secrets += bool(leaks(_page_text(_seen_as(at, OMNISCIENT, step)), step,
                                  perspective))
    assert secrets, "the organiser was never shown a secret: the check has no teeth"


def test_the_event_list_keeps_every_secret_row_by_row(replay_page: Shown) -> None:
    header, kept, at = replay_page.header, replay_page.kept, replay_page.at
    leaks = _leaks(header.game, header, kept)
    told, others = 0, _perspectives(replay_page)
    for perspective in [OMNISCIENT, *others]:
        _seen_as(at, perspective, 0)
        at.toggle(key="replay_all_events").set_value(True).run()
        (events,) = [d.value for d in at.dataframe if "changes" in d.value]
        assert list(events["step"]) == list(range(len(kept.steps)))
        for row in events.itertuples():
            words = f"{row.event} {row.changes}"
            if perspective == OMNISCIENT:
                told += any(leaks(words, int(row.step), p) for p in others)
                continue
            found = leaks(words, int(row.step), perspective)
            assert not found, (header.game, perspective, row.step, words, found)
        at.toggle(key="replay_all_events").set_value(False).run()
    assert told, "no row told the organiser a secret: the check has no teeth"
