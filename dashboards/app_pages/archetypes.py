"""Archetypes: decks grouped by what they hold, not by what they are called (pipeline.archetypes:
deck lists clustered by the weighted Jaccard distance of their card counts, within a faction,
each cluster named by its faction and signature cards), with their meta share, win rates and
matchups."""
from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets
from pipeline import glossary


def render() -> None:
    lake, scope = widgets.scoped_page("Archetypes", with_faction=False,
                                      needs=("decks", "deck lists to group"))
    every = data.archetypes(lake, scope.game, scope.format, scope.date_from, scope.date_to, 0)
    if every.empty:
        st.info("No deck list in these matches: widen the days or the format.")
        return
    shown = every[every["seat_games"] >= scope.min_sample]
    st.caption(f"{len(every)} archetypes from {int(every['lists'].sum())} distinct deck lists. "
               "Lists that share most of their cards (weighted Jaccard distance under 0.4 on "
               "average, within a faction) are one archetype, named by the cards it holds most "
               "above its faction's average; a cluster of fewer than 3 lists joins its "
               "faction's \"other lists\". The names follow the cards, so an archetype keeps "
               "its name from one tournament to the next.")
    if len(shown) < len(every):
        st.caption(f"{len(every) - len(shown)} archetypes with fewer than {scope.min_sample} "
                   "decks are not listed: lower the minimum sample in the sidebar.")
    if shown.empty:
        return
    st.subheader("Meta share and win rate")
    st.altair_chart(share_chart(shown), width="stretch")
    st.dataframe(shown[["archetype_name", "lists", "seat_games", "meta_share", "games",
                        "wins", "draws", "win_rate", "win_rate_low", "win_rate_high",
                        "mirror_matches"]], hide_index=True, width="stretch",
                 column_config=_columns())
    matchups(lake, scope, set(shown["archetype"]))


def share_chart(frame: pd.DataFrame) -> alt.LayerChart:
    """Win rate (with its interval) against meta share, one dot per archetype."""
    base = alt.Chart(frame).encode(
        x=alt.X("meta_share:Q", title=glossary.label("meta_share"), axis=alt.Axis(format="%")),
        y=alt.Y("win_rate:Q", title="win rate (mirrors left out)", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])))
    bars = base.mark_rule(opacity=0.5).encode(y="win_rate_low:Q", y2="win_rate_high:Q")
    dots = base.mark_circle(size=120).encode(
        color=alt.Color("faction:N", title="faction"),
        tooltip=[alt.Tooltip("archetype_name:N", title="archetype"), "lists:Q",
                 alt.Tooltip("seat_games:Q", title="decks"),
                 alt.Tooltip("meta_share:Q", format=".1%"),
                 alt.Tooltip("win_rate:Q", format=".1%"),
                 alt.Tooltip("win_rate_low:Q", format=".1%", title="low (95%)"),
                 alt.Tooltip("win_rate_high:Q", format=".1%", title="high (95%)")])
    return (bars + dots).properties(height=380)


def matchups(lake: data.LakeRef, scope: widgets.Scope, listed: set[str]) -> None:
    pairs = data.archetype_matchups(lake, scope.game, scope.format, scope.date_from,
                                    scope.date_to, 0)
    pairs = pairs[pairs["archetype"].isin(listed) & pairs["opponent"].isin(listed)]
    st.subheader("Archetype against archetype")
    if pairs.empty:
        st.caption("No two listed archetypes met.")
        return
    most = max(int(pairs.loc[~pairs["is_mirror"], "n"].max(skipna=True) or 1), 1)
    frame = pairs.assign(shade=[0.2 + 0.8 * min(1.0, (n / most) ** 0.5) for n in pairs["n"]],
                         label=[f"mirror · {n}" if m else f"{r:.0%} · {n}"
                                for r, n, m in zip(pairs["win_rate"], pairs["n"],
                                                   pairs["is_mirror"])])
    names = sorted(set(frame["archetype_name"]) | set(frame["opponent_name"]))
    base = alt.Chart(frame).encode(
        x=alt.X("opponent_name:N", sort=names, title="against",
                axis=alt.Axis(labelAngle=-30, labelLimit=320)),
        y=alt.Y("archetype_name:N", sort=names, title=None, axis=alt.Axis(labelLimit=420)),
        tooltip=[alt.Tooltip("archetype_name:N", title="archetype"),
                 alt.Tooltip("opponent_name:N", title="against"),
                 alt.Tooltip("n:Q", title="games"), "wins:Q", "losses:Q", "draws:Q",
                 alt.Tooltip("win_rate:Q", format=".1%"),
                 alt.Tooltip("win_rate_low:Q", format=".1%", title="low (95%)"),
                 alt.Tooltip("win_rate_high:Q", format=".1%", title="high (95%)")])
    rated = base.transform_filter("!datum.is_mirror").mark_rect(stroke="#ffffff").encode(
        color=alt.Color("win_rate:Q", title="win rate",
                        scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5)),
        opacity=alt.Opacity("shade:Q", legend=None))
    mirrors = base.transform_filter("datum.is_mirror").mark_rect(stroke="#ffffff",
                                                                 color="#cbd5e1")
    text = base.mark_text(fontSize=11).encode(text="label:N")
    side = max(60, min(110, 900 // max(1, len(names))))
    st.altair_chart((rated + mirrors + text).properties(width=side * len(names),
                                                        height=side * len(names)),
                    width="content")
    st.caption("Row archetype's win rate against the column's; fainter cells rest on fewer "
               "games; mirrors (grey) carry only their count. Hover a cell for its games and "
               "interval.")


def _columns() -> dict[str, Any]:
    config: dict[str, Any] = {
        "archetype_name": st.column_config.TextColumn("archetype", pinned=True,
                                                      help=glossary.tooltip("archetype_name"))}
    for column in ("meta_share", "win_rate", "win_rate_low", "win_rate_high"):
        config[column] = widgets.glossary_column(column, "percent")
    for column in ("lists", "seat_games", "games", "wins", "draws", "mirror_matches"):
        config[column] = widgets.glossary_column(column, "count")
    return config


render()
