"""What card_usage.sql cannot say in SQL: which rates mean something for a card, and which
differ from the baseline once the many cards tested at once are accounted for.

- A card whose section never reaches a hand (a Sovereign, a character, a resource pile:
  GameInfo.hand_sections) is never drawn or played from one, so its hand and play rates would
  read "played 0%" and "win rate when not drawn" of every deck: they are left blank (NaN), and
  `reaches_hand` says why.
- The model input `card_factions` (card_factions below) says which faction a card is made
  for, so card_usage counts its inclusion within that faction's decks too.
- Each win rate in SIGNALS gets `<rate>_q`: the false-discovery-rate adjusted p-value
  (Benjamini-Hochberg, statsmodels' multipletests) of the score test of the card's rate
  against the scope's baseline win rate, across the cards of the table. The score test is the
  one the Wilson interval inverts: unadjusted, p < 0.05 exactly when the interval leaves the
  baseline out. A q below SIGNIFICANT marks a card that wins more (or less) than the baseline
  with at most 5% of such marks expected to be false across the table.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from scipy.stats import norm
from statsmodels.stats.multitest import multipletests

from engine import registry

SIGNALS = {"deck_win_rate": ("deck_wins", "games"),
           "win_rate_when_played": ("played_wins", "played_games"),
           "win_rate_when_drawn": ("drawn_wins", "drawn_games")}
"""The win rates tested against the baseline: each with its wins and games columns."""
SIGNIFICANT = 0.05
HAND_COLUMNS = ("played", "played_games", "played_draws", "played_decided", "played_wins",
                "drawn", "drawn_games", "drawn_draws", "drawn_decided", "drawn_wins",
                "opening_games", "opening_draws", "opening_wins", "drawn_later_games",
                "drawn_later_draws", "drawn_later_wins",
                "not_drawn_games", "not_drawn_draws", "not_drawn_wins")
"""Counts that only mean something for a card drawn into a hand."""
HAND_RATES = ("played_rate", "drawn_rate", "win_rate_when_played",
              "win_rate_when_played_decided", "win_rate_when_drawn",
              "win_rate_when_drawn_decided", "win_rate_in_opening_hand",
              "win_rate_when_drawn_later", "win_rate_when_not_drawn", "improvement_when_drawn")


def card_factions(con: Any, params: Mapping[str, Any]) -> pa.Table:
    """The model input card_usage counts a card's own faction by: one row per (card, faction)
    from the game's kit (GameKit.card_factions); none for a card any deck may hold, or a game
    whose cards have no factions."""
    from engine.games import get_game

    game = str(params.get("game"))
    hook = (get_game(game).card_factions
            if registry.is_registered(game) and registry.has_layer(game, "kit") else None)
    rows = [(card, faction) for card, factions in (hook() if hook else {}).items()
            for faction in factions]
    return pa.table({"card": pa.array([c for c, _ in rows], pa.string()),
                     "faction": pa.array([f for _, f in rows], pa.string())})


def hand_sections(game: str) -> tuple[str, ...]:
    """The game's sections drawn into a hand; () when every section is (or the game is
    unknown to this build)."""
    return registry.info(game).hand_sections if registry.is_registered(game) else ()


def finish(frame: pd.DataFrame, params: Mapping[str, Any]) -> pd.DataFrame:
    """card_usage's rows with the hand rates blanked where they mean nothing and the FDR
    q-values of SIGNALS beside their rates."""
    frame = frame.copy()
    sections = hand_sections(str(params.get("game")))
    reaches = (frame["section"].isin(sections) if sections
               else pd.Series(True, index=frame.index))
    frame.insert(frame.columns.get_loc("section") + 1, "reaches_hand", reaches.astype(bool))
    if not reaches.all():
        blank = [c for c in frame.columns
                 if c.startswith(HAND_RATES) or c == "avg_turn_first_played"]
        frame[blank] = frame[blank].astype("float64")
        frame.loc[~reaches, blank] = np.nan
        counts = list(HAND_COLUMNS)
        frame[counts] = frame[counts].astype("Int64")
        frame.loc[~reaches, counts] = pd.NA
    for rate in SIGNALS:
        frame.insert(frame.columns.get_loc(f"{rate}_high") + 1, f"{rate}_q", np.nan)
    return with_q(frame)


def with_q(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows with each SIGNALS rate's q-value made across these rows: what a subset of
    card_usage's rows (those over a minimum sample) is corrected across."""
    frame = frame.copy()
    for rate, (wins, games) in SIGNALS.items():
        frame[f"{rate}_q"] = fdr_q(frame[wins], frame[games], frame["baseline_win_rate"])
    return frame


def score_p(wins: pd.Series, games: pd.Series, baseline: pd.Series) -> pd.Series:
    """Two-sided p-value of the score test of wins/games = baseline; NaN without a sample."""
    k = pd.to_numeric(wins, errors="coerce").astype("float64")
    n = pd.to_numeric(games, errors="coerce").astype("float64").where(lambda v: v > 0)
    p0 = baseline.astype("float64").where(lambda v: (v > 0) & (v < 1))
    z = (k - n * p0) / np.sqrt(n * p0 * (1 - p0))
    return pd.Series(2 * norm.sf(np.abs(z)), index=wins.index)


def fdr_q(wins: pd.Series, games: pd.Series, baseline: pd.Series) -> pd.Series:
    """Benjamini-Hochberg adjusted p-values across the rows that have a test."""
    p = score_p(wins, games, baseline)
    q = pd.Series(np.nan, index=p.index)
    tested = p.notna()
    if tested.any():
        q[tested] = multipletests(p[tested].to_numpy(), alpha=SIGNIFICANT,
                                  method="fdr_bh")[1]
    return q


def signal(rate: float, baseline: float, q: float) -> str:
    """'above' or 'below' the baseline where the FDR-adjusted test says so, else ''."""
    if pd.isna(q) or pd.isna(rate) or q >= SIGNIFICANT:
        return ""
    return "above" if rate > baseline else "below"
