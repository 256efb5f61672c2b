"""Matchups: faction against faction as a heatmap of win rates (counts and intervals on hover),
with the first-player advantage beside it, since tempo colours every matchup."""
from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets


def render() -> None:
    lake, scope = widgets.scoped_page("Matchups", with_faction=False,
                                      needs=("decks", "factions to match up"))
    pairs = data.matchups(lake, scope.game, scope.format, scope.date_from, scope.date_to,
                          scope.min_sample)
    if pairs.empty:
        st.info("No matchup passes these filters: widen the days or lower the minimum sample.")
        return
    first_player_line(lake, scope)
    st.altair_chart(heatmap(pairs), width="content")
    st.caption("Row faction's win rate against the column faction; draws count as not a win. "
               "Mirror matches (grey) say nothing about a faction's strength and carry only "
               "their count. Hover a cell for its games, wins, losses, draws and interval.")
    st.subheader("Every pair")
    st.dataframe(pairs, hide_index=True, width="stretch", column_config={
        c: st.column_config.NumberColumn(c.replace("_", " "), format="percent")
        for c in ("win_rate", "win_rate_low", "win_rate_high")})


def first_player_line(lake: data.LakeRef, scope: widgets.Scope) -> None:
    found = data.first_player(lake, scope.game, scope.format, scope.date_from, scope.date_to)
    rate_columns = [c for c in found.columns if c.endswith("win_rate")]
    if found.empty or not rate_columns:
        return
    row, rate = found.iloc[0], rate_columns[0]
    if pd.isna(row[rate]):
        return
    low, high = row.get(f"{rate}_low"), row.get(f"{rate}_high")
    interval = f" (95%: {low:.0%}–{high:.0%})" if pd.notna(low) and pd.notna(high) else ""
    st.metric("First player's win rate", f"{row[rate]:.1%}", help=f"{rate}{interval}",
              delta=f"{row[rate] - 0.5:+.1%} vs an even coin", delta_color="off")


def heatmap(pairs: pd.DataFrame) -> alt.LayerChart:
    """Cells coloured by win rate around 50% (mirrors grey); labels give the rate and games."""
    frame = pairs.assign(
        label=[_label(r, n, m) for r, n, m in
               zip(pairs["win_rate"], pairs["n"], pairs["is_mirror"])],
        strong=[bool(pd.notna(r) and abs(r - 0.5) > 0.3) for r in pairs["win_rate"]])
    base = alt.Chart(frame).encode(
        x=alt.X("opponent_faction:N", title="against", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("faction:N", title="faction"), tooltip=_tooltips())
    rated = base.transform_filter("!datum.is_mirror").mark_rect(stroke="#ffffff").encode(
        color=alt.Color("win_rate:Q", title="win rate", legend=alt.Legend(format="%"),
                        scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5)))
    mirrors = base.transform_filter("datum.is_mirror").mark_rect(stroke="#ffffff",
                                                                 color="#cbd5e1")
    text = base.mark_text(fontSize=12).encode(
        text="label:N",
        color=alt.condition("datum.strong", alt.value("#ffffff"), alt.value("#0f172a")))
    side = max(90, 90 * frame["faction"].nunique())
    return (rated + mirrors + text).properties(width=side, height=side)


def _tooltips() -> list[alt.Tooltip]:
    return [alt.Tooltip("faction:N"), alt.Tooltip("opponent_faction:N", title="against"),
            alt.Tooltip("n:Q", title="games"), alt.Tooltip("wins:Q"), alt.Tooltip("losses:Q"),
            alt.Tooltip("draws:Q"), alt.Tooltip("win_rate:Q", format=".1%"),
            alt.Tooltip("win_rate_low:Q", format=".1%", title="low (95%)"),
            alt.Tooltip("win_rate_high:Q", format=".1%", title="high (95%)")]


def _label(rate: float, n: int, mirror: bool) -> str:
    if mirror or pd.isna(rate):
        return f"mirror · {n}"
    return f"{rate:.0%} · {n}"


render()
