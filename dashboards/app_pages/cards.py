"""Card stats: every card metric with its sample size and 95% interval, and the chart designers
read first (win rate when played against how often the card is included)."""
from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets

# Page scripts run with Streamlit's "magic" (a bare string would be written on the page), so
# the constants are explained in comments.
RATES = ("inclusion_rate", "deck_win_rate", "played_rate", "win_rate_when_played",
         "win_rate_when_drawn", "win_rate_when_not_drawn", "improvement_when_drawn")
COUNTS = ("decks", "included", "played", "drawn", "not_drawn", "deck_wins", "deck_draws",
          "played_wins", "played_draws", "drawn_wins", "drawn_draws", "not_drawn_wins",
          "not_drawn_draws")


def render() -> None:
    lake, scope = widgets.scoped_page("Card stats", needs=("cards", "card statistics"))
    stats = data.card_stats(lake, scope.game, scope.format, scope.date_from, scope.date_to,
                            scope.faction, scope.min_sample)
    if stats.empty:
        st.info("No card passes these filters: widen the days or lower the minimum sample.")
        return
    headline(stats)
    st.subheader("Win rate when played against inclusion rate")
    st.altair_chart(played_chart(stats), width="stretch")
    st.caption("Bars: 95% Wilson intervals. Dot size: decks that played the card. "
               "Cards never played have no win rate when played and are left out.")
    st.subheader("Every card")
    card_table(stats)


def headline(stats: pd.DataFrame) -> None:
    cols = st.columns(3)
    cols[0].metric("Decks in scope", f"{int(stats['decks'].iloc[0]):,}")
    cols[1].metric("Cards", f"{len(stats):,}")
    cols[2].metric("Cards ever played", f"{int((stats['played'] > 0).sum()):,}")


def played_chart(stats: pd.DataFrame) -> alt.LayerChart:
    """Dots with their win-rate interval as a vertical bar; 50% marked. (Inclusion intervals
    are in the table: drawn too they hide the dots.)"""
    shown = stats[stats["played"] > 0].copy()
    percent = alt.Axis(format="%")
    base = alt.Chart(shown).encode(
        x=alt.X("inclusion_rate:Q", title="inclusion rate (share of decks)", axis=percent),
        y=alt.Y("win_rate_when_played:Q", title="win rate when played", axis=percent,
                scale=alt.Scale(domain=[0, 1])))
    tips = [alt.Tooltip("card_name:N", title="card"), alt.Tooltip("card:N", title="id"),
            alt.Tooltip("section:N"), alt.Tooltip("included:Q", title="decks including"),
            alt.Tooltip("inclusion_rate:Q", format=".1%"), alt.Tooltip("played:Q"),
            alt.Tooltip("win_rate_when_played:Q", format=".1%"),
            alt.Tooltip("win_rate_when_played_low:Q", format=".1%", title="low (95%)"),
            alt.Tooltip("win_rate_when_played_high:Q", format=".1%", title="high (95%)")]
    points = base.mark_circle(opacity=0.85).encode(
        size=alt.Size("played:Q", title="decks that played it"),
        color=alt.Color("section:N"), tooltip=tips)
    y_bars = base.mark_rule(opacity=0.5).encode(y="win_rate_when_played_low:Q",
                                                y2="win_rate_when_played_high:Q",
                                                color="section:N")
    even = alt.Chart(pd.DataFrame({"even": [0.5]})).mark_rule(
        strokeDash=[4, 4], color="#64748b").encode(y="even:Q")
    return (even + y_bars + points).properties(height=460).interactive()


def card_table(stats: pd.DataFrame) -> None:
    """Sortable by any column (click a header); rates in percent beside their counts."""
    intervals = st.toggle("Show the 95% interval columns", value=True, key="cards_intervals")
    shown = stats if intervals else stats[[c for c in stats.columns
                                           if not c.endswith(("_low", "_high"))]]
    st.dataframe(shown, hide_index=True, width="stretch", height=520,
                 column_config=column_config(shown.columns))


def column_config(columns: pd.Index) -> dict[str, Any]:
    config: dict[str, Any] = {
        "card_name": st.column_config.TextColumn("card", pinned=True),
        "card": st.column_config.TextColumn("id"),
        "avg_copies": st.column_config.NumberColumn("avg copies", format="%.2f"),
        "avg_turn_first_played": st.column_config.NumberColumn("avg first turn played",
                                                               format="%.1f"),
    }
    for column in columns:
        if column.startswith(RATES):
            config[column] = st.column_config.NumberColumn(column.replace("_", " "),
                                                           format="percent")
        elif column in COUNTS:
            config[column] = st.column_config.NumberColumn(column.replace("_", " "),
                                                           format="%d")
    return config


render()
