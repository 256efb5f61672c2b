"""Shown when there is no lake to read: says how to fill one, never a traceback."""
from __future__ import annotations

from dashboards import data, widgets


def render() -> None:
    try:
        data.current_lake()
    except data.LakeUnavailable as why:
        widgets.welcome(str(why))
        return
    widgets.welcome("the lake filled up while this page was open: reload the page")


render()
