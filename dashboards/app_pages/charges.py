"""Charges (rules/charges.md): the table in force, each card's charge over the epochs, the
biggest movers, and a deck checker that tells a player whether a list fits under the cap."""
from __future__ import annotations

import numbers
from datetime import date
from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets

if TYPE_CHECKING:
    from pipeline.deck_verdict import DeckVerdict

TOP_LINES = 8  # cards drawn in the history chart until the person picks their own


def render() -> None:
    lake = widgets.require_lake()
    game = widgets.chosen_game(lake)
    widgets.require_capability(game, "charges", "charges")
    st.title("Charges")
    formats = data.charge_formats(lake, game)
    if not formats:
        st.info(f"No format of {widgets.plain(game)} in this lake has charges: they are set "
                "per format in data/charges/formats.toml (CH-1.2).")
        return
    fmt = st.sidebar.selectbox("Format", formats, key="charges_format")
    season = _season_or_none(lake, game, fmt)
    if season is None:
        return
    epoch = pick_epoch(season)
    table_in_force(season, epoch)
    if len(season.epochs) > 1:
        history(season)
        movers(season, epoch)
    else:
        one_table_only(season)
    deck_checker(lake, game, fmt, season)


def _season_or_none(lake: data.LakeRef, game: str, fmt: str) -> Any:
    from pipeline.charges import ChargeError

    try:
        return data.charge_season(lake, game, fmt)
    except ChargeError as why:
        st.info(f"No charges for {widgets.plain(game)} {widgets.plain(fmt)} yet: "
                f"{widgets.plain(why)}")
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
    span = (f"{info.start_date} to {info.end_date}" if info.start_date
            else "no tournament yet")
    st.caption(f"{widgets.plain(season.game)} {widgets.plain(season.format)} · tournaments "
               f"{span} · {_made_how(info)} · deck cap {settings.cap}, charges "
               f"0–{settings.max_charge}")
    table = season.table(epoch)
    if table.empty:
        st.info("No card has a charge in this table: every card counts 0 against the cap "
                "(CH-2.2).")
        return
    st.dataframe(table[["card", "name", "charge", "previous_charge", "delta", "n_c", "N",
                        "share", "smoothed_share"]], hide_index=True, width="stretch",
                 height=380, column_config={
                     "share": st.column_config.NumberColumn(format="percent"),
                     "smoothed_share": st.column_config.NumberColumn("smoothed share",
                                                                     format="percent")})


def _made_how(info: Any) -> str:
    """How the epoch's table came about: the initial one, carried over or computed."""
    if info.epoch == 0:
        return "the initial table (data/charges/formats.toml, CH-2.2)"
    if info.carried_over:
        return "carried over from the previous epoch (too few decks, CH-2.7)"
    return f"computed from N = {info.decks} decks of the previous epoch"


def one_table_only(season: Any) -> None:
    """A lake with fewer tournaments than an epoch holds has only the initial table: nothing
    has moved yet, so there is no history to draw and no mover to list (and an empty history
    is no frame to draw from)."""
    st.subheader("Charge over the epochs")
    held, window = len(season.tournaments), season.settings.window
    st.info(f"Only one table so far, so no history and no movers yet: they need two. Epoch "
            f"0 ends after {window} tournaments (CH-2.1) and this lake holds {held} of "
            f"{widgets.plain(season.game)} {widgets.plain(season.format)}; once it ends, the "
            "table of epoch 1 is computed from their decks. Until then the table above is in "
            "force.")


def history(season: Any) -> None:
    """Each card's charge per epoch; the cards with the highest charge now come preselected."""
    st.subheader("Charge over the epochs")
    frame = season.history()
    if frame.empty:
        st.caption("No card has had a charge in any epoch yet.")
        return
    latest = frame[frame["epoch"] == frame["epoch"].max()].sort_values(
        ["charge", "card"], ascending=[False, True])
    names = dict(zip(frame["card"], frame["name"].astype(str) + " (" + frame["card"] + ")"))
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
    if epoch == 0:
        st.caption("Epoch 0 is the first table: there is none before it to move from.")
        return
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
        report = data.deck_check(lake, game, fmt, text, when, source)
    except ValueError as why:  # engine.decklist names the line; ChargeError the tournament
        st.error(f"This deck list cannot be read: {widgets.plain(why)}")
        return
    verdict(report)


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
    """The list to check; an upload too big to be a deck list is cut where no deck list ends
    (UTF-8 takes at most 4 bytes a character), and the check refuses it by its length."""
    if uploaded is not None:
        body = uploaded.getvalue()[: 4 * data.MAX_DECK_CHARS + 4]
        return body.decode("utf-8", errors="replace"), uploaded.name
    return pasted or "", "<pasted deck>"


def verdict(report: DeckVerdict) -> None:
    """The one verdict the command line gives too (pipeline.deck_verdict): every rule the list
    breaks, construction first, each with its rule ID and line; then the charge against the cap
    and what each card adds, or why the cap could not be checked."""
    result = report.charge
    if result is not None:
        cols = st.columns(3)
        cols[0].metric("Deck charge", result.charge, delta=f"{result.charge - result.cap:+d} "
                       "vs the cap", delta_color="inverse")
        cols[1].metric("Cap", result.cap)
        cols[2].metric("Table of epoch", result.table.epoch)
    name = widgets.plain(report.deck) if report.deck else "This deck"
    count = len(report.problems)
    if report.legal and result is not None:
        st.success(f"{name} is legal: charge {result.charge} ≤ cap {result.cap}.")
    elif report.legal:
        st.success(f"{name} meets the deck rules.")
    else:
        st.warning(f"{name} is not legal: {count} problem{'s' * (count != 1)}.")
    for problem in report.problems:
        line = f" (line {problem.line})" if problem.line else ""
        st.error(f"{widgets.plain(problem.rule)}: {widgets.plain(problem.reason)}{line}")
    if result is None:
        st.info(f"Charge cap not checked: {widgets.plain(report.cap_note)}")
        return
    rows = [{"card": c.card, "name": c.name, "copies": c.copies, "charge": c.charge,
             "contribution": c.contribution} for c in result.contributions]
    st.dataframe(_shown_whole(pd.DataFrame(rows)), hide_index=True, width="stretch")


def _shown_whole(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns holding a count past 2**53 (a typed-in copy count) as text: the table's Arrow
    columns cannot hold integers past 64 bits, and the browser keeps numbers as doubles, which
    would show a number nobody wrote."""
    big = [c for c in frame.columns if frame[c].map(_past_doubles).any()]
    return frame.astype({c: str for c in big})


def _past_doubles(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and abs(int(value)) > 2**53


render()
