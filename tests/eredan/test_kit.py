"""The Eredan game kit as the simulator and the command line use it: registration, a simulated
Swiss season whose logs verify and replay, the text board, and deck checks from files."""
from __future__ import annotations

from pathlib import Path

from engine.eredan.archetypes import DECKS_DIR, starter_deck
from engine.eredan.render import render_text
from engine.eredan.rules import RULES_V2
from engine.games import get_game
from engine.replay import Replay
from engine.ruleset import get_ruleset, known_rulesets
from engine.tournament import SeasonConfig, run_season
from events.games import event_union, known_games
from events.log import read_log
from postgame import cli
from tests.eredan.scenario import RULES, fight, fighter, in_hand, named, plays, started


def test_eredan_is_registered_everywhere():
    """Both rulesets read their logs; new matches are played under eredan@2, which deals the
    deck cards' ids."""
    assert {"eredan@1", "eredan@2"} <= set(known_rulesets())
    assert get_ruleset("eredan@1") is RULES and get_ruleset("eredan") is RULES_V2
    assert (RULES.version, RULES_V2.version) == (1, 2)
    assert "eredan" in known_games() and event_union("eredan") is RULES.event_type
    kit = get_game("eredan")
    assert (kit.ruleset, kit.default_bot, kit.prefix) == ("eredan@2", "greedy", "er")
    assert set(kit.archetypes) == {"kotoba", "zil", "noz_dingard", "runic_legion",
                                   "nightmares", "mercenary"}
    assert kit.check_deck(starter_deck("zil")) == []


def test_a_simulated_season_writes_logs_that_replay(tmp_path: Path):
    cfg = SeasonConfig(game="eredan", players=6, rounds=2, seed=11, out=tmp_path,
                       bots=("greedy", "random"))
    (tour,) = run_season(cfg)
    assert len(tour.matches) == 6
    for match in tour.matches:
        log = read_log(Path(match.path))
        assert log.header.ruleset == "eredan@2"
        replay = Replay(RULES_V2, log.header, log.events)
        assert replay.outcome is not None and replay.outcome.rule.startswith("ER-")
    again = run_season(SeasonConfig(game="eredan", players=6, rounds=2, seed=11,
                                    out=tmp_path / "again", bots=("greedy", "random")))
    assert [m.winner for m in again[0].matches] == [m.winner for m in tour.matches]


def test_the_board_shows_lines_hands_as_seen_and_the_cards_played():
    state = started()
    fight(state, fighter(state, 0).id, fighter(state, 1).id,
          active=plays(*in_hand(state, 0, named("Parry"))))
    as_p1 = render_text(RULES.view(state, 0))
    assert "Iro" in as_p1 and "Zahal" in as_p1 and "hidden" in as_p1
    assert "Played this turn" in as_p1 and "Parry" in as_p1
    over = render_text(RULES.view(_finished(), "spectator"))
    assert over.startswith("Match over")


def _finished():
    from events.eredan import Leave

    state = started()
    RULES.apply(state, Leave(seat=1))
    return state


def test_deck_check_command_reads_starter_files(capsys):
    code = cli.main(["deck", "check", "eredan", str(DECKS_DIR / "mercenary.txt")])
    assert code == 0 and capsys.readouterr().out.startswith("legal (")
