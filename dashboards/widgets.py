"""Inputs several pages share (the lake guard, the game and scope filters), described once.

Widget keys are shared between pages on purpose: the game chosen on one page is the game of
the next, as a person expects when comparing a card's stats with its charge.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

import streamlit as st

from dashboards import data

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_LINE_BREAK = re.compile(r"\r\n?|\n")
_AUTOLINK = re.compile(r"(?=://|@)|(?<=www)(?=\.)", re.IGNORECASE)
WORD_JOINER = "\u2060"
"""Invisible and unbreakable: what keeps `http://`, `www.` and `a@b` from turning into links."""


def plain(text: object) -> str:
    """Text from a log, a deck list or the lake, made safe for the Markdown of st.markdown,
    st.caption, the alerts and widget options: it shows character for character and renders
    nothing. Player, deck and tournament names are typed by people, so `![t](http://host/x)`
    would load an image, `**x**` would turn bold and `$x$` into maths.

    CommonMark lets a backslash escape any ASCII punctuation mark, so every one is escaped (no
    markup, emoji shortcode, colour directive or HTML tag can start without one). Line breaks
    become spaces: a blank line would end the paragraph (or the HTML block around a board)
    early. GFM links bare addresses after the escapes are read, so a word joiner goes before
    `://`, `@` and the dot of `www.`: the text looks the same and links nowhere."""
    flat = _AUTOLINK.sub(WORD_JOINER, _LINE_BREAK.sub(" ", str(text)))
    return _PUNCTUATION.sub(r"\\\1", flat)


DEFAULT_MIN_SAMPLE = 20
"""The balance pages' minimum sample until a person changes it: at 20 games a win rate's 95%
interval still spans about 40 points, so fewer is noise."""


def replay_link(game: str, match_id: str, step: int | None = None,
                perspective: int | str | None = None) -> str:
    """The address of the Replay page (the app's default page) at a match, a step and a
    perspective: what a link to a moment is (dashboards/app_pages/replay.py reads it). The
    game rides along, so that a link opened afresh shows that game (pick_game)."""
    from urllib.parse import urlencode

    query = {"game": game, "match": match_id}
    if step is not None and not _missing(step):
        query["step"] = str(int(step))
    if perspective is not None:
        query["as"] = str(perspective)
    return f"./?{urlencode(query)}"


def card_link(card: str, game: str) -> str:
    """The address of a card's page (dashboards/app_pages/card.py), with its game."""
    from urllib.parse import urlencode

    return f"./card?{urlencode({'game': game, 'card': card})}"


def _missing(value: object) -> bool:
    import pandas as pd

    return bool(pd.isna(value))


def glossary_column(column: str, kind: str = "number") -> Any:
    """A dataframe column named and explained as the glossary has it (data/glossary.toml):
    its display label, and the definition on hover of its header."""
    from pipeline import glossary

    label, tip = glossary.label(column), glossary.tooltip(column)
    if kind == "percent":
        return st.column_config.NumberColumn(label, help=tip, format="percent")
    if kind == "count":
        return st.column_config.NumberColumn(label, help=tip, format="%d")
    if kind == "text":
        return st.column_config.TextColumn(label, help=tip)
    return st.column_config.NumberColumn(label, help=tip)


@dataclass(frozen=True)
class Scope:
    """What the balance pages cover; each field goes to SQL as a bound parameter."""

    game: str
    format: str | None
    date_from: date | None
    date_to: date | None
    faction: str | None
    min_sample: int


def require_lake() -> data.LakeRef:
    """The lake to show, or the welcome text and an early stop of this page."""
    try:
        return data.current_lake()
    except data.LakeUnavailable as why:
        welcome(str(why))
        st.stop()
        raise


def welcome(reason: str) -> None:
    st.title("postgame")
    st.info(f"Nothing to show yet: {plain(reason)}.")
    st.markdown(
        "Fill the lake with match logs, then start the app on it:\n\n"
        "```bash\n"
        "postgame simulate vitorian --players 16 --rounds 4 --seed 7 --out out/sim\n"
        "postgame ingest out/sim --lake out/lake\n"
        "postgame app --lake out/lake\n"
        "```\n\n"
        "`simulate` plays a Swiss tournament with bots and writes one log per match; "
        "`ingest` checks every log through the rules and writes its facts to the lake "
        "(logs the rules refuse are quarantined, with the reason). Real tournaments work "
        "the same way: `postgame ingest` the folder of their logs.")


LINKED_GAME = "linked_game"  # the game the address named when last applied


def pick_game(lake: data.LakeRef) -> str:
    """The game to show (the sidebar), remembered across pages: app.py asks it once per run,
    before the navigation, which lists that game's pages; pages read it (chosen_game)."""
    options = data.games(lake)
    asked = st.query_params.get("game")
    if asked in options and st.session_state.get(LINKED_GAME) != asked:
        st.session_state["game"] = asked  # an address names its game: open it there, once
    st.session_state[LINKED_GAME] = asked
    if st.session_state.get("game") not in options:
        st.session_state["game"] = options[0]
    game = st.sidebar.selectbox("Game", options, key="game")
    if asked is not None:
        st.query_params["game"] = game
    return game


def chosen_game(lake: data.LakeRef) -> str:
    """The game app.py's sidebar picked (the lake's first game if none was yet)."""
    game = st.session_state.get("game")
    options = data.games(lake)
    return game if game in options else options[0]


def require_capability(game: str, capability: str, what: str) -> None:
    """Stop a page whose game lacks what it shows (the navigation does not list it then, but
    an old address may still lead here): one line saying so, never an empty page."""
    from dashboards.pages import capabilities

    if capability not in capabilities(game):
        st.info(f"{plain(game)} has no {what}: its matches are in Replay, Export and Data.")
        st.stop()


def any_of(label: str, options: list[str], key: str, fmt: dict[str, str] | None = None,
           container: object = None) -> str | None:
    """A selectbox whose first choice, 'any', means no filter (None)."""
    names = fmt or {}
    box = container or st.sidebar
    choice = box.selectbox(label, [None, *options], key=key,  # type: ignore[attr-defined]
                           format_func=lambda v: "any" if v is None else names.get(v, str(v)))
    return choice  # type: ignore[no-any-return]


def scope_filters(lake: data.LakeRef, game: str, with_faction: bool = True,
                  with_min_sample: bool = True) -> Scope:
    """Format, match days, faction and minimum sample, in the sidebar, shared by the pages."""
    bar = st.sidebar
    bar.subheader("Filters")
    fmt = any_of("Format", data.formats(lake, game), "scope_format")
    first, last = data.match_days(lake, game)
    days = bar.date_input("Match days (UTC)", value=(first, last), min_value=first,
                          max_value=last, key=f"scope_days_{game}")
    date_from, date_to = _day_range(days, first, last)
    faction = (any_of("Faction", data.factions(lake, game), "scope_faction")
               if with_faction else None)
    min_sample = 0
    if with_min_sample:
        st.session_state.setdefault("scope_min_sample", DEFAULT_MIN_SAMPLE)
        min_sample = int(bar.number_input(
            "Minimum sample (decks or games)", min_value=0, step=1, key="scope_min_sample",
            help=f"Rows with fewer decks (or games) are left out, with a note saying how "
                 f"many: a rate from a handful of games says little. {DEFAULT_MIN_SAMPLE} "
                 "by default; 0 shows everything."))
    return Scope(game, fmt, date_from, date_to, faction, min_sample)


def scoped_page(title: str, with_faction: bool = True,
                needs: tuple[str, str] | None = None) -> tuple[data.LakeRef, Scope]:
    """A page over a scope of the lake: the lake, the game and the filters (sidebar), then the
    page's title and its filters in words. `needs`: (capability, what the page shows), for a
    page only some games have."""
    lake = require_lake()
    game = chosen_game(lake)
    if needs is not None:
        require_capability(game, *needs)
    scope = scope_filters(lake, game, with_faction=with_faction)
    st.title(title)
    st.caption(scope_caption(scope))
    return lake, scope


def _day_range(days: Any, first: date, last: date) -> tuple[date | None, date | None]:
    """The picked days as a filter; the whole span is no filter at all (None, None), and a
    range still being picked (one end only) runs to the last day."""
    picked: list[date | None] = list(days) if isinstance(days, (tuple, list)) else [days]
    start = picked[0] if picked and picked[0] is not None else first
    end = picked[1] if len(picked) > 1 and picked[1] is not None else last
    return (None if start <= first else start), (None if end >= last else end)


def scope_caption(scope: Scope) -> str:
    """The filters in words, under each chart: a screenshot still says what it shows (the
    format and faction as the logs wrote them, escaped: st.caption is Markdown)."""
    days = (f"{scope.date_from or 'first day'} to {scope.date_to or 'last day'}"
            if scope.date_from or scope.date_to else "all days")
    parts = [plain(scope.game), plain(scope.format) if scope.format else "all formats", days]
    if scope.faction:
        parts.append(f"{plain(scope.faction)} decks only")
    if scope.min_sample:
        parts.append(f"min sample {scope.min_sample}")
    return " · ".join(parts)
