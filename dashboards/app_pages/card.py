"""A card's page (`?card=ID`): its figures with intervals and the baseline mark, their trend
per tournament, its charge over the epochs, the decks that held it with a link to each match at
the step it was first played, the cards it is most often played with, and the archetypes that
play it."""
from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets
from pipeline import card_rates, glossary, metrics

# Page scripts run with Streamlit's "magic" (a bare string would be written on the page), so
# the constants are explained in comments.
TREND = {"deck_win_rate": ("deck_wins", "games"), "win_rate_when_drawn": ("drawn_wins",
                                                                           "drawn_games"),
         "inclusion_rate": ("included", "decks")}  # per tournament: rate -> (k, n)


def render() -> None:
    lake, scope = widgets.scoped_page("Card", with_faction=False,
                                      needs=("cards", "card statistics"))
    stats = data.card_stats(lake, scope.game, scope.format, scope.date_from, scope.date_to,
                            None, 0)
    if stats.empty:
        st.info("No card is in a deck of these matches: widen the days or the format.")
        return
    card = pick_card(stats)
    row = stats[stats["card"] == card].iloc[0]
    st.header(widgets.plain(row["card_name"]))
    st.caption(f"{widgets.plain(card)} · {widgets.plain(row['section'])}"
               + ("" if row["reaches_hand"] else " · never drawn into a hand: no hand or "
                                                 "play figures"))
    if int(row["included"]) < scope.min_sample:
        st.warning(f"Only {int(row['included'])} decks held this card, under the minimum "
                   f"sample of {scope.min_sample}: read every figure with its interval.")
    headline(row)
    figures(row)
    trend(lake, scope, card)
    charge_history(lake, scope, card)
    matches(lake, scope, card)
    together(lake, scope, card)


def pick_card(stats: pd.DataFrame) -> str:
    """The card the address names (`?card=`), else the one picked, else the most included."""
    names = dict(zip(stats["card"], stats["card_name"].astype(str) + " (" + stats["card"] + ")"))
    options = sorted(names, key=lambda c: names[c].lower())
    asked = st.query_params.get("card")
    if asked is not None and asked not in names:
        st.warning(f"The address names the card {widgets.plain(asked)}, which no deck of "
                   "these matches holds: showing the most included card.")
    if asked in names and st.session_state.get("card_page_linked") != asked:
        st.session_state["card_page_card"] = asked
        st.session_state["card_page_linked"] = asked
    st.session_state.setdefault("card_page_card", stats["card"].iloc[0])
    if st.session_state["card_page_card"] not in names:
        st.session_state["card_page_card"] = stats["card"].iloc[0]
    card = st.selectbox("Card", options, format_func=names.__getitem__, key="card_page_card")
    st.query_params["card"] = card
    return str(card)


def headline(row: pd.Series) -> None:
    cols = st.columns(4)
    cols[0].metric(glossary.label("inclusion_rate"), _pct(row["inclusion_rate"]),
                   help=glossary.tooltip("inclusion_rate"),
                   delta=f"{int(row['included'])} of {int(row['decks'])} decks",
                   delta_color="off", delta_arrow="off")
    for col, rate, n in ((cols[1], "deck_win_rate", "games"),
                         (cols[2], "win_rate_when_drawn", "drawn_games")):
        col.metric(glossary.label(rate), _pct(row[rate]), help=glossary.tooltip(rate),
                   delta=f"n = {_count(row[n])} · {_interval(row, rate)}", delta_color="off", delta_arrow="off")
    iwd = row["improvement_when_drawn"]
    cols[3].metric(glossary.label("improvement_when_drawn"),
                   "–" if pd.isna(iwd) else f"{iwd * 100:+.1f} pp",
                   help=glossary.tooltip("improvement_when_drawn"),
                   delta=_interval(row, "improvement_when_drawn", points=True),
                   delta_color="off", delta_arrow="off")


def figures(row: pd.Series) -> None:
    """Every rate of the model for this card: estimate, interval, sample, baseline mark."""
    model = metrics.load_model("card_usage")
    rows = []
    for rate in model.rates:
        if rate.name == "baseline_win_rate":
            continue
        mark = ""
        if rate.name in card_rates.SIGNALS:
            mark = {"above": "▲ above", "below": "▼ below"}.get(card_rates.signal(
                row[rate.name], row["baseline_win_rate"], row[f"{rate.name}_q"]), "")
        rows.append({"figure": glossary.label(rate.name), "estimate": row[rate.name],
                     "low": row[f"{rate.name}_low"], "high": row[f"{rate.name}_high"],
                     "of": _count(row[rate.n]), "vs baseline": mark,
                     "definition": glossary.tooltip(rate.name) or ""})
    st.subheader("Every figure")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config={
        "estimate": st.column_config.NumberColumn(format="percent"),
        "low": st.column_config.NumberColumn("low (95%)", format="percent"),
        "high": st.column_config.NumberColumn("high (95%)", format="percent"),
        "of": st.column_config.TextColumn("sample"),
        "definition": st.column_config.TextColumn(width="large")})
    st.caption(f"Baseline win rate of every deck in scope: {_pct(row['baseline_win_rate'])}. "
               f"{int(row['mirror_matches'])} mirror matches (both decks held the card) are "
               "left out of the win rates. ▲ / ▼: differs from the baseline after a "
               "false-discovery-rate correction across every card in scope.")


def trend(lake: data.LakeRef, scope: widgets.Scope, card: str) -> None:
    """Deck win rate, GIH win rate and inclusion per tournament, or per charge epoch (its
    tournaments' counts added up), each with its interval."""
    per = data.card_trend(lake, scope.game, card, scope.format, scope.date_from, scope.date_to)
    epochs = _epoch_of_tournament(lake, scope)
    by = "tournament"
    if epochs:
        chosen = st.radio("Trend per", ["tournament", "charge epoch"], horizontal=True,
                          key="card_trend_by",
                          help="A charge epoch is the run of tournaments one charge table "
                               "was in force for (CH-2.1).")
        if chosen == "charge epoch":
            per = (per.assign(epoch=per["tournament"].map(epochs)).dropna(subset=["epoch"])
                   .groupby("epoch", as_index=False).sum(numeric_only=True))
            per["epoch"] = [f"epoch {int(e)}" for e in per["epoch"]]
            by = "epoch"
    st.subheader(f"Trend per {'charge epoch' if by == 'epoch' else 'tournament'}")
    if len(per) < 2:
        st.caption(f"One {'epoch' if by == 'epoch' else 'tournament'} in scope: no trend to "
                   "draw yet.")
        return
    st.altair_chart(_trend_chart(per, by), width="stretch")
    st.caption("Shaded: 95% Wilson intervals. Win rates leave out the card's mirror matches.")


def _epoch_of_tournament(lake: data.LakeRef, scope: widgets.Scope) -> dict[str, int]:
    """Tournament -> its charge epoch, for a game with charges and a format that has them
    (the scope's, else the first); empty otherwise."""
    from dashboards.pages import capabilities

    if "charges" not in capabilities(scope.game):
        return {}
    formats = [f for f in data.charge_formats(lake, scope.game)
               if scope.format is None or f == scope.format]
    if not formats:
        return {}
    season = data.charge_season(lake, scope.game, formats[0])
    return {str(t): int(e) for t, e in zip(season.tournaments["tournament"],
                                           season.tournaments["epoch"])}


def _trend_chart(per: pd.DataFrame, by: str) -> alt.LayerChart:
    long = []
    for rate, (k, n) in TREND.items():
        for _, r in per.iterrows():
            games = int(r[n])
            if games == 0:
                continue
            share, low, high = data.wilson(int(r[k]), games)
            long.append({by: r[by], "figure": glossary.label(rate), "rate": share,
                         "low": low, "high": high, "n": games})
    frame = pd.DataFrame(long)
    base = alt.Chart(frame).encode(
        x=alt.X(f"{by}:N", sort=list(per[by]), title=by,
                axis=alt.Axis(labelAngle=0, labelLimit=200)),
        color=alt.Color("figure:N", title=None))
    band = base.mark_area(opacity=0.15).encode(y=alt.Y("low:Q", axis=alt.Axis(format="%"),
                                                       title="rate"), y2="high:Q")
    line = base.mark_line(point=True).encode(
        y="rate:Q", tooltip=[f"{by}:N", "figure:N", alt.Tooltip("rate:Q", format=".1%"),
                             alt.Tooltip("low:Q", format=".1%", title="low (95%)"),
                             alt.Tooltip("high:Q", format=".1%", title="high (95%)"), "n:Q"])
    return (band + line).properties(height=300)


def charge_history(lake: data.LakeRef, scope: widgets.Scope, card: str) -> None:
    from dashboards.pages import capabilities

    if "charges" not in capabilities(scope.game):
        return
    formats = data.charge_formats(lake, scope.game)
    if scope.format is not None:
        formats = [f for f in formats if f == scope.format]
    if not formats:
        return
    st.subheader("Charge over the epochs")
    for fmt in formats:
        season = data.charge_season(lake, scope.game, fmt)
        mine = season.history()
        mine = mine[mine["card"] == season.cards.card_base(card)]
        if mine.empty:
            st.caption(f"{widgets.plain(fmt)}: never charged (0 in every table, CH-2.2).")
            continue
        chart = alt.Chart(mine).mark_line(point=True).encode(
            x=alt.X("epoch:O", axis=alt.Axis(labelAngle=0)), y=alt.Y("charge:Q"),
            tooltip=["epoch:O", "charge:Q", "delta:Q", "n_c:Q"])
        st.caption(f"{widgets.plain(fmt)}: now {int(mine['charge'].iloc[-1])}")
        st.altair_chart(chart.properties(height=200), width="stretch")


def matches(lake: data.LakeRef, scope: widgets.Scope, card: str) -> None:
    """The decks that held the card, each linked to its match at the card's first play, as
    the seat that held it saw it."""
    found = data.card_matches(lake, scope.game, card, scope.format, scope.date_from,
                              scope.date_to)
    st.subheader("Matches")
    if found.empty:
        st.caption("No deck in scope held this card.")
        return
    found = found.assign(replay=[widgets.replay_link(scope.game, m, step, seat)
                                 for m, step, seat in
                                 zip(found["match_id"], found["first_played_step"],
                                     found["seat"])])
    played = found["first_played_step"].notna()
    st.caption(f"{len(found)} decks held it{' (the newest 500)' if len(found) >= 500 else ''}, "
               f"{int(played.sum())} played it. Each link opens the match at the step the "
               "card was first played (or at the start), seen by the seat that held it.")
    st.dataframe(found[["replay", "tournament", "round", "player", "result",
                        "first_played_turn", "card_mirror"]], hide_index=True,
                 width="stretch", height=320, column_config={
                     "replay": st.column_config.LinkColumn("match", display_text="replay"),
                     "first_played_turn": st.column_config.NumberColumn("first played, turn"),
                     "card_mirror": st.column_config.CheckboxColumn(
                         "mirror", help=glossary.tooltip("mirror_matches"))})
    open_match(scope.game, found)


def open_match(game: str, found: pd.DataFrame) -> None:
    """A match at the card's first play from the keyboard, in this tab (the table's links
    open a new one); the matches that played it first."""
    order = found.assign(never=found["first_played_step"].isna()).sort_values(
        ["never", "started_at"], ascending=[True, False], kind="stable")
    labels = {i: f"{r.match_id} · {r.player} ({r.result})"
              + ("" if pd.isna(r.first_played_step) else f" · first played turn "
                                                          f"{int(r.first_played_turn)}")
              for i, r in order.iterrows()}
    if st.session_state.get("card_page_match") not in labels:
        st.session_state.pop("card_page_match", None)
    pick, go = st.columns([4, 1], vertical_alignment="bottom")
    chosen = pick.selectbox("Open a match here", list(labels), format_func=labels.__getitem__,
                            key="card_page_match")
    row = found.loc[chosen]
    query = {"game": game, "match": str(row["match_id"]), "as": str(int(row["seat"]))}
    if pd.notna(row["first_played_step"]):
        query["step"] = str(int(row["first_played_step"]))
    with go:
        st.page_link("app_pages/replay.py", label="Open in Replay",
                     icon=":material/play_circle:", query_params=query)


def together(lake: data.LakeRef, scope: widgets.Scope, card: str) -> None:
    left, right = st.columns(2)
    with left:
        st.subheader("Most often with")
        mates = data.card_companions(lake, scope.game, card, scope.format, scope.date_from,
                                     scope.date_to)
        mates = mates.assign(page=[widgets.card_link(c, scope.game) for c in mates["card"]])
        st.dataframe(mates[["page", "card_name", "decks_together", "share_of_its_decks"]],
                     hide_index=True, width="stretch", column_config={
                         "page": st.column_config.LinkColumn("", display_text="open"),
                         "card_name": "card", "decks_together": "decks together",
                         "share_of_its_decks": st.column_config.NumberColumn(
                             "share of its decks", format="percent")})
    with right:
        st.subheader("Played in")
        kinds = data.card_archetypes(lake, scope.game, card, scope.format, scope.date_from,
                                     scope.date_to)
        kinds = kinds.assign(win_rate=[w / g if g else None
                                       for w, g in zip(kinds["wins"], kinds["games"])])
        st.dataframe(kinds, hide_index=True, width="stretch", column_config={
            "archetype": st.column_config.TextColumn(
                "archetype", help=glossary.tooltip("archetype_name")),
            "games": st.column_config.NumberColumn("games (no mirrors)"),
            "win_rate": st.column_config.NumberColumn("win rate", format="percent")})


def _pct(value: Any) -> str:
    return "–" if pd.isna(value) else f"{value:.1%}"


def _count(value: Any) -> str:
    return "–" if pd.isna(value) else f"{int(value):,}"


def _interval(row: pd.Series, rate: str, points: bool = False) -> str:
    low, high = row[f"{rate}_low"], row[f"{rate}_high"]
    if pd.isna(low) or pd.isna(high):
        return "no interval"
    if points:
        return f"95%: {low * 100:+.1f} to {high * 100:+.1f} pp"
    return f"95%: {low:.0%}–{high:.0%}"


render()
