"""Matchups: faction against faction as a heatmap of win rates (counts and intervals on hover),
with the first-player advantage beside it, since tempo colours every matchup.

Factions are shown by the game's own names (data.faction_names: "Runic Legion", not
"runic_legion"). A cell's shade fades with its sample, so a rate resting on two games does not
shout as loud as one resting on two hundred. Clicking a cell (or picking the pair in the
selectbox under the chart) lists that pair's matches, each linked to its replay.
"""
from __future__ import annotations

import json
import math
import textwrap
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets

# Page scripts run with Streamlit's "magic": a bare string would be written on the page, so
# constants are explained in comments here.
CHART, SELECTION = "matchups_heatmap", "pair"  # the chart's widget key and its selection
PAIR, CLICKED = "matchups_pair", "matchups_clicked"  # the pair picked; the cell last clicked
OPEN = "matchups_open"  # the match of the pair to open in this tab
MIN_OPACITY = 0.2  # the shade of a cell of (almost) no games; the most-played pair is full
MIRROR_GREY = "#cbd5e1"
GRID_PIXELS = 900  # the width the grid and its row labels may take (a 1400-pixel window)
CHAR_PIXELS = 6.4  # a character of a 12-pixel label, a little over its mean width
FADE_INK = "#334155"  # the colour of the fading legend's squares (fading is of any colour)
MIN_CELL, MAX_CELL = 56, 110  # a cell's side in pixels
REPLAY_PAGE = "app_pages/replay.py"


def render() -> None:
    lake, scope = widgets.scoped_page("Matchups", with_faction=False,
                                      needs=("decks", "factions to match up"))
    pairs = data.matchups(lake, scope.game, scope.format, scope.date_from, scope.date_to,
                          scope.min_sample)
    left_out = _left_out(lake, scope, len(pairs))
    if pairs.empty:
        st.info("No matchup passes these filters: widen the days or lower the minimum sample."
                + (f" {left_out}" if left_out else ""))
        return
    names = data.faction_names(scope.game)
    frame = cells(pairs, names)
    first_player_line(lake, scope)
    event = st.altair_chart(heatmap(frame), width="content", key=CHART, on_select="rerun",
                            selection_mode=SELECTION)
    st.caption(
        "Row faction's win rate against the column faction; draws count as not a win. "
        "**Fainter cells rest on fewer games**: a cell's opacity grows with the square root "
        "of its games, as its interval narrows, and is full at the most-played pair here "
        f"({most_games(frame)} games). Mirror matches (grey) say nothing "
        "about a faction's strength and carry only their count. Hover a cell for its games, "
        "wins, losses, draws and interval; click it (or pick the pair below) to list its "
        "matches." + (f" {left_out}" if left_out else ""))
    pair = pick_pair(frame, clicked_pair(event))
    if pair is not None:
        pair_matches(lake, scope, pair, names)
    st.subheader("Every pair")
    st.dataframe(frame.sort_values(["faction_name", "opponent_name"],
                                   key=lambda column: column.str.casefold()),
                 hide_index=True, width="stretch", column_order=PAIR_COLUMNS,
                 column_config=pair_columns())


def _left_out(lake: data.LakeRef, scope: widgets.Scope, shown: int) -> str:
    """What the minimum sample hid, in words ("" when it hid nothing)."""
    if not scope.min_sample:
        return ""
    every = data.matchups(lake, scope.game, scope.format, scope.date_from, scope.date_to, 0)
    hidden = len(every) - shown
    return (f"{hidden} pair(s) met fewer than {scope.min_sample} times are left out (the "
            "minimum sample, in the sidebar)." if hidden else "")


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


# The heatmap ---------------------------------------------------------------------------------

def cells(pairs: pd.DataFrame, names: dict[str, str]) -> pd.DataFrame:
    """The matchups model's rows with what the chart and the tables show: both factions' names,
    the cell's shade (fade), its label and whether its text must be white to be read."""
    most = most_games(pairs)
    shade = [1.0 if mirror else fade(n, most) for n, mirror in
             zip(pairs["n"], pairs["is_mirror"])]
    return pairs.assign(
        faction_name=[data.faction_name(names, f) for f in pairs["faction"]],
        opponent_name=[data.faction_name(names, f) for f in pairs["opponent_faction"]],
        shade=shade,
        label=[_label(r, n, m) for r, n, m in
               zip(pairs["win_rate"], pairs["n"], pairs["is_mirror"])],
        strong=[bool(pd.notna(r) and not m and abs(r - 0.5) * 2 * s > 0.6)
                for r, m, s in zip(pairs["win_rate"], pairs["is_mirror"], shade)])


def most_games(pairs: pd.DataFrame) -> int:
    """The games of the most-played pair that is not a mirror (what full shade means)."""
    rated = pairs.loc[~pairs["is_mirror"].astype(bool), "n"]
    return int(rated.max()) if not rated.empty else 0


def fade(n: float, most: float) -> float:
    """A cell's opacity for `n` games when the most-played pair has `most`: MIN_OPACITY at none,
    full at `most`, growing with sqrt(n) as a rate's interval narrows with it (monotone)."""
    if most <= 0:
        return 1.0
    share = math.sqrt(max(0.0, min(float(n), float(most))) / float(most))
    return round(MIN_OPACITY + (1 - MIN_OPACITY) * share, 4)


def faction_order(frame: pd.DataFrame) -> list[str]:
    """Both axes' factions, by name."""
    return sorted(set(frame["faction_name"]) | set(frame["opponent_name"]), key=str.casefold)


def heatmap(frame: pd.DataFrame) -> alt.LayerChart:
    """Cells coloured by win rate around 50% and faded by sample (mirrors grey, unfaded);
    labels give the rate and games. Clicking a cell selects its pair (the SELECTION param)."""
    order = faction_order(frame)
    most = most_games(frame)
    stops = sorted({0, *(int(n) for n in frame.loc[~frame["is_mirror"].astype(bool), "n"])})
    picked = alt.selection_point(name=SELECTION, fields=["faction", "opponent_faction"],
                                 on="click", clear="dblclick", toggle=False,
                                 empty=False)
    side = cell_size(order)
    base = alt.Chart(frame).encode(
        x=alt.X("opponent_name:N", title="against (column faction)", sort=order,
                axis=alt.Axis(orient="bottom", labelAngle=0, labelAlign="center",
                              labelBaseline="top", labelLimit=0, labelOverlap=False,
                              labelFontSize=12, labelExpr=_wrapped_labels(order, side),
                              titleFontSize=13, labelPadding=6, titlePadding=10)),
        y=alt.Y("faction_name:N", title="faction (row)", sort=order,
                axis=alt.Axis(labelLimit=0, labelOverlap=False, labelFontSize=12,
                              titleFontSize=13, labelPadding=6, titlePadding=10,
                              minExtent=label_pixels(order))),
        tooltip=_tooltips())
    edge = {"strokeWidth": alt.condition(picked, alt.value(3), alt.value(1)),
            "stroke": alt.condition(picked, alt.value("#0f172a"), alt.value("#ffffff"))}
    rated = base.transform_filter("!datum.is_mirror").mark_rect(cursor="pointer").encode(
        color=alt.Color("win_rate:Q", title="win rate (row faction)",
                        scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5),
                        legend=alt.Legend(format="%", orient="bottom", direction="horizontal",
                                          gradientLength=220)),
        opacity=alt.Opacity("n:Q", title="games: fainter = fewer",
                            scale=alt.Scale(domain=stops, range=[fade(n, most) for n in stops]),
                            legend=alt.Legend(orient="bottom", direction="horizontal",
                                              symbolType="square", symbolSize=220,
                                              symbolFillColor=FADE_INK, symbolStrokeWidth=0,
                                              values=_legend_stops(stops))),
        **edge).add_params(picked)
    mirrors = base.transform_filter("datum.is_mirror").mark_rect(
        cursor="pointer", color=MIRROR_GREY).encode(**edge)
    text = base.mark_text(fontSize=12).encode(
        text="label:N",
        color=alt.condition("datum.strong", alt.value("#ffffff"), alt.value("#0f172a")))
    # "pad": the grid keeps its size and the labels, titles and legends are added around it
    # (Streamlit's default, "fit", would squeeze the grid until the labels fit the width)
    return (rated + mirrors + text).properties(width=side * len(order), height=side * len(order),
                                     autosize=alt.AutoSizeParams(type="pad",
                                                                 contains="padding"))


def cell_size(order: list[str]) -> int:
    """A cell's side: the grid and its row labels (the longest name) fit the main column of a
    1400-pixel window (about GRID_PIXELS) for 7 or 8 factions, never under MIN_CELL."""
    room = GRID_PIXELS - label_pixels(order) - 30
    return max(MIN_CELL, min(MAX_CELL, int(room) // max(1, len(order))))


def label_pixels(order: list[str]) -> int:
    """The row labels' width, from the longest name: what the y axis keeps for them (Vega
    measures text before the app's font has loaded, and would place the title over them)."""
    return int(CHAR_PIXELS * max((len(name) for name in order), default=0)) + 12


def _wrapped_labels(order: list[str], side: int) -> str:
    """The column labels over several lines (a Vega expression), as many words a line as a
    column holds: a long name is never cut nor run into its neighbour's. JSON is a valid Vega
    literal, so any name is quoted safely."""
    chars = max(6, int((side - 8) / CHAR_PIXELS))
    lines = {name: textwrap.wrap(name, chars, break_long_words=False) or [name]
             for name in order}
    return f"{json.dumps(lines, ensure_ascii=True)}[datum.label] || datum.label"


def _legend_stops(stops: list[int]) -> list[int]:
    """A few of the games shown, smallest to largest, as the fading legend's entries."""
    shown = [n for n in stops if n > 0]
    if len(shown) <= 4:
        return shown
    return sorted({shown[0], shown[len(shown) // 3], shown[2 * len(shown) // 3], shown[-1]})


def _tooltips() -> list[alt.Tooltip]:
    return [alt.Tooltip("faction_name:N", title="faction"),
            alt.Tooltip("opponent_name:N", title="against"),
            alt.Tooltip("n:Q", title="games"), alt.Tooltip("wins:Q"), alt.Tooltip("losses:Q"),
            alt.Tooltip("draws:Q"), alt.Tooltip("win_rate:Q", format=".1%", title="win rate"),
            alt.Tooltip("win_rate_low:Q", format=".1%", title="low (95%)"),
            alt.Tooltip("win_rate_high:Q", format=".1%", title="high (95%)")]


def _label(rate: float, n: int, mirror: bool) -> str:
    if mirror or pd.isna(rate):
        return f"mirror · {n}"
    return f"{rate:.0%} · {n}"


# A pair's matches ----------------------------------------------------------------------------

Pair = tuple[str, str]


def clicked_pair(event: Any) -> Pair | None:
    """The (faction, opponent) of the cell the chart's selection holds, if any."""
    try:
        points = event["selection"][SELECTION]
    except (KeyError, TypeError):
        return None
    if isinstance(points, dict):  # an older form: {field: [values]}
        faction, opponent = points.get("faction"), points.get("opponent_faction")
        faction = faction[0] if isinstance(faction, list) and faction else faction
        opponent = opponent[0] if isinstance(opponent, list) and opponent else opponent
    elif isinstance(points, list) and points and isinstance(points[0], dict):
        faction, opponent = points[0].get("faction"), points[0].get("opponent_faction")
    else:
        return None
    return (str(faction), str(opponent)) if faction is not None and opponent is not None else None


def pick_pair(frame: pd.DataFrame, clicked: Pair | None) -> Pair | None:
    """The pair whose matches are listed: the cell just clicked, else the selectbox's (the
    keyboard's way to the same list). The later of the two wins: a click sets the selectbox,
    and a choice in the selectbox stands until another cell is clicked."""
    ordered = frame.sort_values(["faction_name", "opponent_name"],
                                key=lambda column: column.str.casefold())
    options: list[Pair] = list(zip(ordered["faction"], ordered["opponent_faction"]))
    said = {(f, o): f"{a} vs {b} · {n} game(s)" for f, o, a, b, n in zip(
        ordered["faction"], ordered["opponent_faction"], ordered["faction_name"],
        ordered["opponent_name"], ordered["n"])}
    if clicked != st.session_state.get(CLICKED):
        st.session_state[CLICKED] = clicked
        st.session_state[PAIR] = clicked if clicked in said else None
    if st.session_state.get(PAIR) not in said:
        st.session_state[PAIR] = None
    st.subheader("Matches of a pair")
    pair: Pair | None = st.selectbox(
        "Pair (row faction vs column faction)", options, key=PAIR,
        placeholder="Click a cell of the heatmap, or pick a pair here",
        format_func=said.__getitem__,
        help="The same as clicking the pair's cell: lists its matches, each linked to its "
             "replay.")
    return pair


def pair_matches(lake: data.LakeRef, scope: widgets.Scope, pair: Pair,
                 names: dict[str, str]) -> None:
    """The pair's matches in the page's scope, each linked to the Replay page at that match."""
    faction, opponent = pair
    mine, theirs = data.faction_name(names, faction), data.faction_name(names, opponent)
    found = data.pair_matches(lake, scope.game, faction, opponent, scope.format,
                              scope.date_from, scope.date_to)
    more = " (the first 500)" if len(found) >= data.MATCH_LIMIT else ""
    st.caption(f"{len(found)} match(es){more} of {widgets.plain(mine)} against "
               f"{widgets.plain(theirs)} in this scope, oldest first; the match id opens its "
               "replay in a new tab.")
    if found.empty:
        return
    table = found.assign(replay=[widgets.replay_link(scope.game, m) for m in found["match_id"]])
    shown = [c for c in MATCH_COLUMNS if c != "format" or found["format"].nunique() > 1]
    st.dataframe(table, hide_index=True, width="stretch", column_order=shown,
                 column_config=match_columns(mine, theirs))
    labels = {m: f"{m} · {p} vs {o} ({r})" for m, p, o, r in zip(
        found["match_id"], found["player"], found["opponent_player"], found["result"])}
    if st.session_state.get(OPEN) not in labels:
        st.session_state[OPEN] = found["match_id"].iloc[0]
    pick, go = st.columns([4, 1], vertical_alignment="bottom")
    with pick:
        match_id = st.selectbox("Open a match here", list(labels), key=OPEN,
                                format_func=labels.__getitem__,
                                help="Opens the Replay page at this match in this tab.")
    with go:
        st.page_link(REPLAY_PAGE, label="Open in Replay", icon=":material/play_circle:",
                     query_params={"game": scope.game, "match": match_id})


MATCH_COLUMNS = ["replay", "tournament", "format", "round", "table_no", "started_at", "player",
                 "deck_name", "result", "opponent_player", "opponent_deck", "turns"]


def match_columns(mine: str, theirs: str) -> dict[str, Any]:
    column = st.column_config
    return {
        "replay": column.LinkColumn("match", display_text=r"match=([^&]+)",
                                    help="The match id: opens its replay (a new tab)"),
        "tournament": column.TextColumn("tournament"),
        "format": column.TextColumn("format"),
        "round": column.NumberColumn("round", format="%d"),
        "table_no": column.NumberColumn("table", format="%d"),
        "started_at": column.DatetimeColumn("started (UTC)", format="YYYY-MM-DD HH:mm"),
        "player": column.TextColumn("player", help=f"The player of the {mine} deck"),
        "deck_name": column.TextColumn("deck", help=f"The {mine} deck's name"),
        "result": column.TextColumn("result", help=f"The {mine} deck's result"),
        "opponent_player": column.TextColumn("opponent",
                                             help=f"The player of the {theirs} deck"),
        "opponent_deck": column.TextColumn("opponent's deck",
                                           help=f"The {theirs} deck's name"),
        "turns": column.NumberColumn("turns", format="%d"),
    }


# Every pair ----------------------------------------------------------------------------------

PAIR_COLUMNS = ["faction_name", "opponent_name", "is_mirror", "n", "wins", "losses", "draws",
                "win_rate", "win_rate_low", "win_rate_high", "faction", "opponent_faction"]


def pair_columns() -> dict[str, Any]:
    column = st.column_config
    rate = "percent"
    return {
        "faction_name": column.TextColumn("faction", help="The row faction, whose results "
                                                          "these are"),
        "opponent_name": column.TextColumn("against", help="The opposing (column) faction"),
        "is_mirror": column.CheckboxColumn("mirror", help="Both sides of the same faction: "
                                                          "only the games and draws count"),
        "n": column.NumberColumn("games", format="%d",
                                 help="Games of the pair in scope (a mirror: its matches)"),
        "wins": column.NumberColumn("wins", format="%d", help="Games the row faction won"),
        "losses": column.NumberColumn("losses", format="%d", help="Games it lost"),
        "draws": column.NumberColumn("draws", format="%d",
                                     help="Drawn games (counted as not a win)"),
        "win_rate": column.NumberColumn("win rate", format=rate,
                                        help="Wins / games, for the row faction"),
        "win_rate_low": column.NumberColumn("low (95%)", format=rate,
                                            help="Lower end of the win rate's 95% interval"),
        "win_rate_high": column.NumberColumn("high (95%)", format=rate,
                                             help="Upper end of the win rate's 95% interval"),
        "faction": column.TextColumn("faction id", help="The faction as the logs store it"),
        "opponent_faction": column.TextColumn("against id",
                                              help="The opposing faction as the logs store it"),
    }


render()
