"""What the V20 analytics pages (Combat balance, Dice fairness) share: the guard that the game
chosen is V20, the scope filters in the sidebar (plus a tournament and a scenario where the
lake has a choice), the title with the filters in words, and the models read in that scope."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from dashboards import data, widgets

GAME = "v20"  # the only game whose suite has these models (dashboards/pages.py)


@dataclass(frozen=True)
class CombatView:
    """The lake, the scope filters, a tournament and a scenario (None: all), and the sample
    under which a rate is marked small."""

    lake: data.LakeRef
    scope: widgets.Scope
    tournament: str | None
    scenario: str | None
    small: int = 0

    def model(self, name: str) -> pd.DataFrame:
        scope = self.scope
        return data.combat_model(self.lake, name, scope.game, scope.format, scope.date_from,
                                 scope.date_to, scope.min_sample, self.tournament,
                                 self.scenario)


def combat_header(title: str, what: str, small: int | None = None) -> CombatView:
    """The lake, the V20 guard (a game without `what` gets one line), the filters, then the
    title and the filters in words; `small` adds the small-sample control, at that default."""
    lake = widgets.require_lake()
    game = widgets.chosen_game(lake)
    if game != GAME:
        st.info(f"{widgets.plain(game)} has no {what}: its matches are in Replay, Export and "
                "Data.")
        st.stop()
    scope = widgets.scope_filters(lake, game, with_faction=False)
    tournament = _filter("Tournament", data.tournaments(lake, game), "v20_tournament")
    scenario = _filter("Scenario", data.scenarios(lake, game), "v20_scenario")
    marked = 0 if small is None else int(st.sidebar.number_input(
        "Mark samples under", min_value=0, value=small, step=1, key="v20_small",
        help="A rate over fewer fights (attacks, games) than this is marked a small sample."))
    st.title(title)
    words = [widgets.scope_caption(scope)]
    words += [f"tournament {widgets.plain(tournament)}"] if tournament else []
    words += [f"scenario {widgets.plain(scenario)}"] if scenario else []
    st.caption(" · ".join(words))
    return CombatView(lake, scope, tournament, scenario, marked)


def _filter(label: str, options: list[str], key: str) -> str | None:
    """A filter only where the lake has a choice to make (two values or more)."""
    return widgets.any_of(label, options, key) if len(options) > 1 else None
