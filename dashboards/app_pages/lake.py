"""Data: what the lake holds (matches, events, dates per game) and the logs it turned away."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboards import data, widgets


def render() -> None:
    lake = widgets.require_lake()
    st.title("Data")
    st.caption(f"Lake {widgets.plain(lake.root)} · manifest version {lake.version}")
    summary = data.lake_summary(lake)
    cols = st.columns(4)
    cols[0].metric("Matches", f"{int(summary['matches'].sum()):,}")
    cols[1].metric("Events", f"{int(summary['events'].sum()):,}")
    cols[2].metric("Games", len(summary))
    bad = data.quarantined(lake)
    cols[3].metric("Quarantined logs", len(bad))
    st.subheader("Per game")
    st.dataframe(summary, hide_index=True, column_config={
        "first_match": st.column_config.DatetimeColumn("first match", format="YYYY-MM-DD HH:mm"),
        "last_match": st.column_config.DatetimeColumn("last match", format="YYYY-MM-DD HH:mm")})
    st.subheader("Rows per table")
    st.dataframe(data.table_rows(lake), hide_index=True)
    quarantine(bad)


def quarantine(bad: pd.DataFrame) -> None:
    st.subheader("Quarantined logs")
    if bad.empty:
        st.success("No log was turned away: every ingested log passed the rules.")
        return
    st.caption("Logs ingest could not take in, with the reason; fix or re-record them and "
               "ingest again (the same content is never counted twice).")
    st.dataframe(bad, hide_index=True, width="stretch")


render()
