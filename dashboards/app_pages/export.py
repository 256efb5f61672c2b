"""Export: the usage report `postgame export` writes, one download per form, for the filters
chosen here. Each file is made by pipeline.export itself (and only when its button is clicked),
so the app's downloads and the command line's files are the same report."""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboards import data, widgets

FORM_TITLES = {"html": "HTML page (charts and tables, opens offline)",
               "xlsx": "Excel workbook (an about sheet, then one sheet per table)",
               "csv": "CSV files, one per table, with about.json (zip)",
               "parquet": "Parquet files, one per table, with about.json (zip)"}


def render() -> None:
    lake, scope = widgets.scoped_page("Export", with_faction=False)
    args = (scope.game, scope.format, scope.date_from, scope.date_to, scope.min_sample)
    about, notes = data.report_notes(lake, *args)
    cols = st.columns(3)
    cols[0].metric("Matches", about.get("matches", 0))
    cols[1].metric("First day", str(about.get("first_day") or "–"))
    cols[2].metric("Last day", str(about.get("last_day") or "–"))
    for note in notes:
        st.caption(f"Note: {widgets.plain(note)}")
    st.subheader("Downloads")
    stem = _file_stem(scope)
    for form, (name, mime) in data.REPORT_FORMS.items():
        st.download_button(FORM_TITLES[form], data=_maker(lake, form, args),
                           file_name=f"{stem}-{name}", mime=mime, icon=":material/download:",
                           key=f"export_{form}", on_click="ignore")
    st.caption("The same report as `postgame export --lake LAKE --game "
               f"{_in_code(scope.game)} --out DIR`; a file is made when its button is clicked.")


def _in_code(text: str) -> str:
    """Text for a Markdown code span, where backslashes show as they are: only a backtick
    could end the span early, so none is kept."""
    return text.replace("`", "'")


def _maker(lake: data.LakeRef, form: str, args: tuple[object, ...]) -> Callable[[], bytes]:
    """Deferred: a report form is written only when someone asks for it."""
    def make() -> bytes:
        return data.report_file(lake, form, *args)  # type: ignore[arg-type]

    return make


def _file_stem(scope: widgets.Scope) -> str:
    parts = ["postgame", scope.game, scope.format or "all"]
    if scope.date_from or scope.date_to:
        parts.append(f"{scope.date_from or 'start'}_{scope.date_to or 'end'}")
    return "-".join(str(p) for p in parts)


render()
