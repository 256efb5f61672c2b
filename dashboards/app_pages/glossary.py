"""Glossary: what every figure of the balance pages and reports means (data/glossary.toml), the
conventions first, then each column under its display name, with what the data sites call it."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from pipeline import glossary


def render() -> None:
    st.title("Glossary")
    st.caption("The same definitions are on hover of every column header, and in the HTML "
               "export.")
    st.subheader("How every table counts")
    for topic, text in glossary.conventions().items():
        st.markdown(f"**{topic.capitalize()}.** {text}")
    st.subheader("Columns")
    rows = pd.DataFrame([{"name": t.label, "column": t.column, "also known as": t.aka,
                          "definition": t.help} for t in glossary.terms().values()])
    wanted = st.text_input("Find a term", key="glossary_find",
                           placeholder="e.g. GIH, mirror, baseline")
    if wanted:
        text = rows.apply(lambda r: " ".join(r.astype(str)), axis=1).str.lower()
        rows = rows[text.str.contains(wanted.lower(), regex=False)]
    st.dataframe(rows, hide_index=True, width="stretch", height=620, column_config={
        "definition": st.column_config.TextColumn(width="large")})


render()
