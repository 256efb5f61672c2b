"""Charges (rules/charges.md): the table in force, each card's charge over the epochs, the
biggest movers, and a deck checker that tells a player whether a list fits under the cap."""
from __future__ import annotations

from datetime import date
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets

TOP_LINES = 8  # cards drawn in the history chart until the person picks their own


def render() -> None:
    lake = widgets.require_lake()
    game = widgets.pick_game(lake)
    st.title("Charges")
    formats = data.charge_formats(lake, game)
    if not formats:
        st.info(f"No format of {game} in this lake has charges: they are set per format in "
                "data/charges/formats.toml (CH-1.2).")
        return
    fmt = st.sidebar.selectbox("Format", formats, key="charges_format")
    season = _season_or_none(lake, game, fmt)
    if season is None:
        return
    epoch = pick_epoch(season)
    table_in_force(season, epoch)
    history(season)
    movers(season, epoch)
    deck_checker(lake, game, fmt, season)


def _season_or_none(lake: data.LakeRef, game: str, fmt: str) -> Any:
    from pipeline.charges import ChargeError

    try:
        return data.charge_season(lake, game, fmt)
    except ChargeError as why:
        st.info(f"No charges for {game} {fmt} yet: {why}")
        return None


def pick_epoch(season: Any) -> int:
    epochs = [int(e) for e in season.epochs["epoch"]]
    return int(st.sidebar.selectbox("Epoch", epochs, index=len(epochs) - 1,
                                    key=f"charges_epoch_{season.format}",
                                    format_func=lambda e: _epoch_label(season, e)))


def _epoch_label(season: Any, epoch: int) -> str:
    info = season.info(epoch)
    if info.upcoming:
        return f"{epoch} (upcoming: the next tournament's table)"
    return f"{epoch} ({info.first_tournament} – {info.last_tournament})"


def table_in_force(season: Any, epoch: int) -> None:
    info, settings = season.info(epoch), season.settings
    st.subheader(f"Table of epoch {epoch}")
    how = ("carried over from the previous epoch (too few decks, CH-2.7)" if info.carried_over
           else f"computed from N = {info.decks} decks of the previous epoch")
    span = (f"{info.start_date} to {info.end_date}" if info.start_date
            else "no tournament yet")
    st.caption(f"{season.game} {season.format} · tournaments {span} · {how} · deck cap "
               f"{settings.cap}, charges 0–{settings.max_charge}")
    table = season.table(epoch)
    st.dataframe(table[["card", "name", "charge", "previous_charge", "delta", "n_c", "N",
                        "share", "smoothed_share"]], hide_index=True, width="stretch",
                 height=380, column_config={
                     "share": st.column_config.NumberColumn(format="percent"),
                     "smoothed_share": st.column_config.NumberColumn("smoothed share",
                                                                     format="percent")})


def history(season: Any) -> None:
    """Each card's charge per epoch; the cards with the highest charge now come preselected."""
    st.subheader("Charge over the epochs")
    frame = season.history()
    latest = frame[frame["epoch"] == frame["epoch"].max()].sort_values(
        ["charge", "card"], ascending=[False, True])
    names = dict(zip(frame["card"], frame["name"] + " (" + frame["card"] + ")"))
    chosen = st.multiselect("Cards", sorted(names, key=names.__getitem__),
                            default=list(latest["card"].head(TOP_LINES)),
                            format_func=names.__getitem__, key=f"charges_cards_{season.format}")
    shown = frame[frame["card"].isin(chosen)]
    chart = alt.Chart(shown).mark_line(point=True).encode(
        x=alt.X("epoch:O", title="epoch", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("charge:Q", title="charge"),
        color=alt.Color("name:N", title="card"),
        tooltip=["name:N", "card:N", "epoch:O", "charge:Q", "delta:Q", "n_c:Q"])
    st.altair_chart(chart.properties(height=320), width="stretch")


def movers(season: Any, epoch: int) -> None:
    st.subheader(f"Biggest movers into epoch {epoch}")
    moved = season.movers(epoch)
    if moved.empty:
        st.caption("No card's charge changed in this epoch.")
        return
    st.dataframe(moved[["card", "name", "previous_charge", "charge", "delta", "n_c", "N"]],
                 hide_index=True, width="stretch")


def deck_checker(lake: data.LakeRef, game: str, fmt: str, season: Any) -> None:
    """Paste or upload a list; the verdict names the cap rule and what to cut."""
    st.subheader("Deck check")
    pasted = st.text_area("Deck list", height=200, key="charges_deck_text",
                          placeholder="name: My deck\n[Sovereign]\nMarechal Zahir\n"
                                      "[Maneuver]\n4 Steel Grenadiers\n...")
    uploaded = st.file_uploader("…or upload a deck list (.txt)", type=["txt"],
                                key="charges_deck_file")
    when = pick_when(season)
    text, source = _deck_text(pasted, uploaded)
    if not text.strip():
        st.caption("The check uses the table in force at the chosen moment (CH-3.2).")
        return
    try:
        result = data.deck_check(lake, game, fmt, text, when, source)
    except ValueError as why:
        st.error(f"This deck list cannot be read: {why}")
        return
    verdict(result)


def pick_when(season: Any) -> date | str | None:
    choice = st.radio("Table in force", ["now", "for a tournament", "on a day"],
                      horizontal=True, key="charges_when")
    if choice == "for a tournament":
        return str(st.selectbox("Tournament", list(season.tournaments["tournament"]),
                                key="charges_when_tournament"))
    if choice == "on a day":
        picked = st.date_input("Day", key="charges_when_day")
        return picked if isinstance(picked, date) else None
    return None


def _deck_text(pasted: str, uploaded: Any) -> tuple[str, str]:
    if uploaded is not None:
        return uploaded.getvalue().decode("utf-8", errors="replace"), uploaded.name
    return pasted or "", "<pasted deck>"


def verdict(result: Any) -> None:
    cols = st.columns(3)
    cols[0].metric("Deck charge", result.charge, delta=f"{result.charge - result.cap:+d} "
                   "vs the cap", delta_color="inverse")
    cols[1].metric("Cap", result.cap)
    cols[2].metric("Table of epoch", result.table.epoch)
    if result.legal:
        st.success(f"{result.deck or 'This deck'} is legal: charge {result.charge} "
                   f"≤ cap {result.cap}.")
    for rule, reason in result.problems:
        st.error(f"{rule}: {reason}")
    rows = [{"card": c.card, "name": c.name, "copies": c.copies, "charge": c.charge,
             "contribution": c.contribution} for c in result.contributions]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


render()
