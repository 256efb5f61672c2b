"""The postgame app: `postgame app --lake DIR` (streamlit run dashboards/app.py underneath).

A multipage app (st.navigation): the pages under dashboards/pages only describe the UI and get
every number from dashboards/data.py. Without a lake to show, the only page is the one saying
how to fill it. A page that fails shows one line about what went wrong, never a traceback; the
traceback goes to the server log, where the person running the app can find it.
"""
from __future__ import annotations

import logging

import streamlit as st

from dashboards import data, widgets

SECTIONS = {
    "Matches": [("app_pages/replay.py", "Replay", ":material/play_circle:")],
    "Balance": [("app_pages/cards.py", "Card stats", ":material/style:"),
                ("app_pages/matchups.py", "Matchups", ":material/grid_on:"),
                ("app_pages/charges.py", "Charges", ":material/balance:")],
    "Lake": [("app_pages/export.py", "Export", ":material/download:"),
             ("app_pages/lake.py", "Data", ":material/database:")],
}
WELCOME = ("app_pages/welcome.py", "Getting started", ":material/waving_hand:")
log = logging.getLogger("postgame.app")


def _page(spec: tuple[str, str, str], default: bool = False) -> st.Page:
    path, title, icon = spec  # relative to this script, as st.Page resolves it
    return st.Page(path, title=title, icon=icon, default=default)


def navigation() -> st.Page:
    """The pages there is something to show on: the lake's, or only the welcome page."""
    try:
        data.current_lake()
    except data.LakeUnavailable:
        return st.navigation([_page(WELCOME, default=True)])
    pages = {section: [_page(spec, default=(spec[0] == "app_pages/replay.py")) for spec in specs]
             for section, specs in SECTIONS.items()}
    return st.navigation(pages)


def main() -> None:
    st.set_page_config(page_title="postgame", page_icon=":material/insights:", layout="wide")
    page = navigation()
    try:
        page.run()
    except Exception as err:
        log.exception("page %s failed", page.title)
        st.error(f"This page could not be shown: {widgets.plain(err)}")
        st.caption("The full error is in the log of the terminal running `postgame app`.")


main()
