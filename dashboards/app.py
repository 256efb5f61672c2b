"""The postgame app: `postgame app --lake DIR` (streamlit run dashboards/app.py underneath).

A multipage app (st.navigation): the pages under dashboards/app_pages only describe the UI and
get every number from dashboards/data.py. The game is chosen here, in the sidebar, before the
navigation, which lists that game's pages (dashboards/pages.py: card statistics, matchups and
charges only for the games with those capabilities). Without a lake to show, the only page is
the one saying how to fill it. A page that fails shows one line about what went wrong, never a
traceback; the traceback goes to the server log, where the person running the app can find it.
"""
from __future__ import annotations

import logging

import streamlit as st

from dashboards import data, pages, widgets

log = logging.getLogger("postgame.app")


def _page(spec: pages.PageSpec, default: bool = False) -> st.Page:
    # the path is relative to this script, as st.Page resolves it
    return st.Page(spec.path, title=spec.title, icon=spec.icon, default=default)


def navigation() -> st.Page:
    """The chosen game's pages on the lake, or only the welcome page."""
    try:
        lake = data.current_lake()
    except data.LakeUnavailable:
        return st.navigation([_page(pages.WELCOME, default=True)])
    game = widgets.pick_game(lake)
    return st.navigation({section: [_page(spec, default=spec.path == pages.DEFAULT)
                                    for spec in specs]
                          for section, specs in pages.pages_for(game).items()})


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
