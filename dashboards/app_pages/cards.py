"""Card stats: every card's figures under the names designers know (data/glossary.toml, on
hover of each header), each beside its sample size and 95% interval; ranked by an estimate or
an interval bound; marked where a win rate differs from the baseline after a false-discovery-
rate correction; cards under the minimum sample left out with a note, or shown faded."""
from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets
from pipeline import card_rates, glossary

# Page scripts run with Streamlit's "magic" (a bare string would be written on the page), so
# the constants are explained in comments.
# The columns shown first, in a designer's order; "every column" adds the rest.
MAIN = ("card_name", "section", "included", "inclusion_rate", "inclusion_in_faction",
        "avg_copies", "mirror_matches",
        "games", "deck_win_rate", "played_rate",
        "win_rate_when_played", "drawn_games", "win_rate_when_drawn",
        "win_rate_in_opening_hand", "win_rate_when_drawn_later", "win_rate_when_not_drawn",
        "improvement_when_drawn", "avg_turn_first_played")
RANKABLE = ("win_rate_when_drawn", "win_rate_when_played", "deck_win_rate",
            "improvement_when_drawn", "win_rate_in_opening_hand", "win_rate_when_drawn_later",
            "inclusion_rate", "played_rate")
BOUNDS = {"estimate": "", "low bound": "_low", "high bound": "_high"}
POINTS = "improvement_when_drawn"  # shown in percentage points, not %
FADED = "color: #94a3b8"


def render() -> None:
    lake, scope = widgets.scoped_page("Card stats", needs=("cards", "card statistics"))
    every = data.card_stats(lake, scope.game, scope.format, scope.date_from, scope.date_to,
                            scope.faction, 0)
    if every.empty:
        st.info("No card is in a deck of these matches: widen the days or the format.")
        return
    listed = data.card_stats(lake, scope.game, scope.format, scope.date_from, scope.date_to,
                             scope.faction, scope.min_sample)
    headline(every)
    st.subheader("Every card")
    card_table(every, listed, scope.min_sample, scope.game)
    st.subheader("Win rate when played against inclusion rate")
    if listed.empty:
        st.caption("No card passes the minimum sample: lower it in the sidebar.")
    else:
        st.altair_chart(played_chart(listed), width="stretch")
        st.caption("Bars: 95% Wilson intervals. Dot size: decks that played the card. "
                   "Cards never played, and those under the minimum sample, are left out.")
    with st.expander("How to read these figures"):
        st.markdown("\n".join(f"- {text}" for text in glossary.conventions().values()))
        st.page_link("app_pages/glossary.py", label="Every column, defined",
                     icon=":material/menu_book:")


def headline(stats: pd.DataFrame) -> None:
    cols = st.columns(4)
    cols[0].metric("Decks in scope", f"{int(stats['decks'].iloc[0]):,}")
    cols[1].metric("Cards", f"{len(stats):,}")
    cols[2].metric("Cards ever played", f"{int((stats['played'].fillna(0) > 0).sum()):,}")
    base = stats["baseline_win_rate"].iloc[0]
    cols[3].metric("Baseline win rate", "–" if pd.isna(base) else f"{base:.1%}",
                   help=glossary.tooltip("baseline_win_rate"))


def card_table(every: pd.DataFrame, listed: pd.DataFrame, min_sample: int, game: str) -> None:
    """The cards ranked as asked, the ones under the minimum sample said (or shown faded)."""
    rank, bound, shown_cols = _table_controls(list(every.columns))
    hidden = len(every) - len(listed)
    faded = hidden > 0 and st.toggle(f"Show the {hidden} cards under the minimum sample, "
                                     "faded", key="cards_faded")
    rows = every if faded else listed
    if hidden and not faded:
        st.caption(f"{hidden} of {len(every)} cards are held by fewer than {min_sample} decks "
                   "and not listed: lower the minimum sample in the sidebar, or show them "
                   "faded.")
    if rows.empty:
        return
    ranked = _with_marks(_ranked(rows, rank, bound))
    ranked.insert(1, "page", [widgets.card_link(card, game) for card in ranked["card"]])
    columns = [c for c in ("page", *shown_cols) if c in ranked.columns]
    small = (ranked["included"] < min_sample).tolist()
    view: Any = _in_points(ranked[columns])
    if faded:
        view = view.style.apply(lambda row: [FADED if small[row.name] else ""] * len(row),
                                axis=1)
    st.dataframe(view, hide_index=True, width="stretch", height=560,
                 column_config=column_config(columns))
    st.caption("▲ / ▼: the win rate is above / below the baseline after a Benjamini-Hochberg "
               "false-discovery-rate correction across the cards listed. Win rates leave out "
               "the card's mirror matches (both decks hold it), as faction win rates leave out "
               "theirs; hover a header for its definition.")
    open_card(ranked, game)


def open_card(table: pd.DataFrame, game: str) -> None:
    """A card's page from the keyboard, in this tab (the table's links open a new one)."""
    names = dict(zip(table["card"], table["card_name"].astype(str)))
    if st.session_state.get("cards_open") not in names:
        st.session_state.pop("cards_open", None)
    pick, go = st.columns([4, 1], vertical_alignment="bottom")
    card = pick.selectbox("Open a card's page", list(names), format_func=names.__getitem__,
                          key="cards_open")
    with go:
        st.page_link("app_pages/card.py", label="Open its page", icon=":material/style:",
                     query_params={"game": game, "card": str(card)})


def _table_controls(available: list[str]) -> tuple[str, str, list[str]]:
    left, middle, right = st.columns([3, 2, 3], vertical_alignment="bottom")
    rank = left.selectbox("Rank by", RANKABLE, format_func=glossary.label, key="cards_rank")
    bound = middle.radio("using its", list(BOUNDS), horizontal=True, key="cards_bound",
                         help="The low bound ranks cards by what the data can vouch for: a "
                              "card with few games cannot climb on luck.")
    intervals = right.toggle("Show the 95% intervals", value=False, key="cards_intervals")
    every = right.toggle("Show every column", value=False, key="cards_every")
    return rank, bound, _shown_columns(available, intervals, every)


def _shown_columns(available: list[str], intervals: bool, every: bool) -> list[str]:
    """MAIN (or every column of the model), each win rate tested against the baseline with
    its mark, each rate with its bounds when asked."""
    from pipeline import metrics

    names = list(MAIN)
    if every:
        names = [c for c in available if not c.endswith(("_low", "_high", "_q"))]
    rates = {r.name for r in metrics.load_model("card_usage").rates} | {POINTS}
    out: list[str] = []
    for name in names:
        out.append(name)
        if name in card_rates.SIGNALS:
            out.append(f"{name}_vs")
        if intervals and name in rates:
            out += [f"{name}_low", f"{name}_high"]
    return out


def _ranked(stats: pd.DataFrame, rank: str, bound: str) -> pd.DataFrame:
    key = f"{rank}{BOUNDS[bound]}"
    return stats.sort_values([key, "included", "card"], ascending=[False, False, True],
                             na_position="last", ignore_index=True)


def _with_marks(stats: pd.DataFrame) -> pd.DataFrame:
    marked = stats.copy()
    for rate in card_rates.SIGNALS:
        marked[f"{rate}_vs"] = [
            {"above": "▲", "below": "▼"}.get(card_rates.signal(r, b, q), "")
            for r, b, q in zip(stats[rate], stats["baseline_win_rate"], stats[f"{rate}_q"])]
    return marked


def _in_points(stats: pd.DataFrame) -> pd.DataFrame:
    """IWD and its bounds in percentage points, as 17lands shows it."""
    out = stats.copy()
    for column in (POINTS, f"{POINTS}_low", f"{POINTS}_high"):
        if column in out.columns:
            out[column] = out[column] * 100
    return out


def played_chart(stats: pd.DataFrame) -> alt.LayerChart:
    """Dots with their win-rate interval as a vertical bar; the baseline marked. (Inclusion
    intervals are in the table: drawn too they hide the dots.)"""
    shown = stats[stats["played"].fillna(0) > 0].copy()
    percent = alt.Axis(format="%")
    base = alt.Chart(shown).encode(
        x=alt.X("inclusion_rate:Q", title=glossary.label("inclusion_rate"), axis=percent),
        y=alt.Y("win_rate_when_played:Q", title=glossary.label("win_rate_when_played"),
                axis=percent, scale=alt.Scale(domain=[0, 1])))
    tips = [alt.Tooltip("card_name:N", title="card"), alt.Tooltip("section:N"),
            alt.Tooltip("included:Q", title="decks holding it"),
            alt.Tooltip("inclusion_rate:Q", format=".1%", title="inclusion"),
            alt.Tooltip("played_games:Q", title="games played (no mirrors)"),
            alt.Tooltip("win_rate_when_played:Q", format=".1%", title="played WR"),
            alt.Tooltip("win_rate_when_played_low:Q", format=".1%", title="low (95%)"),
            alt.Tooltip("win_rate_when_played_high:Q", format=".1%", title="high (95%)")]
    points = base.mark_circle(opacity=0.85).encode(
        size=alt.Size("played:Q", title="decks that played it"),
        color=alt.Color("section:N"), tooltip=tips)
    y_bars = base.mark_rule(opacity=0.5).encode(y="win_rate_when_played_low:Q",
                                                y2="win_rate_when_played_high:Q",
                                                color="section:N")
    baseline = float(stats["baseline_win_rate"].iloc[0])
    even = alt.Chart(pd.DataFrame({"baseline": [baseline]})).mark_rule(
        strokeDash=[4, 4], color="#64748b").encode(y="baseline:Q")
    return (even + y_bars + points).properties(height=460).interactive()


def column_config(columns: list[str]) -> dict[str, Any]:
    config: dict[str, Any] = {
        "page": st.column_config.LinkColumn("", display_text="open", width="small",
                                            help="The card's own page", pinned=True),
        "card_name": st.column_config.TextColumn(glossary.label("card_name"), pinned=True,
                                                 help=glossary.tooltip("card_name")),
    }
    for column in columns:
        if column in config:
            continue
        if column.endswith("_vs"):
            rate = column.removesuffix("_vs")
            config[column] = st.column_config.TextColumn(
                "±", width="small",
                help=f"{glossary.label(rate)} above (▲) or below (▼) the baseline win rate, "
                     "after a false-discovery-rate correction across the cards listed")
        elif column.startswith(POINTS):
            config[column] = st.column_config.NumberColumn(
                glossary.label(column), help=glossary.tooltip(column), format="%+.1f pp")
        elif "rate" in column:
            config[column] = widgets.glossary_column(column, "percent")
        elif column in ("avg_copies", "avg_turn_first_played"):
            config[column] = st.column_config.NumberColumn(
                glossary.label(column), help=glossary.tooltip(column), format="%.2f")
        elif column in ("section", "card"):
            config[column] = widgets.glossary_column(column, "text")
        else:
            config[column] = widgets.glossary_column(column, "count")
    return config


render()
