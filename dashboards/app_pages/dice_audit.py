"""Dice fairness (Vampire V20): are the logged d10s what fair dice roll? The audit of the
dice_fairness model (pipeline.dice_audit) sets each roll cell's outcomes against the cell's exact
law with Pearson's chi-square; a cell is `loaded` when its p-value times the number of tests made
(Bonferroni) is below 0.001. The page says first whether anything looks loaded, then every cell
and every kind of roll, then one cell's outcomes seen against those a fair die expects, so a
person can see where a suspicious p-value comes from."""
from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets
from dashboards.combat_scope import combat_header
from engine.v20.dice import BOTCH
from pipeline.dice_audit import ALPHA, MIN_ROLLS

# Page scripts run with Streamlit's "magic" (a bare string would be written on the page), so
# the constants are explained in comments.
ROW_PX = 35  # one table row (st.dataframe's default)
SERIES_COLOURS = {"observed": "#1d4ed8", "expected (fair dice)": "#94a3b8"}
CELL_COLUMNS = ["kind", "pool", "difficulty", "specialty", "auto", "can_botch", "rolls",
                "chi2", "df", "p_value", "p_bonferroni", "loaded", "mean_observed",
                "mean_expected", "note"]


def render() -> None:
    view = combat_header("Dice fairness", "dice audit")
    audit = view.model("dice_fairness")
    if audit.empty:
        st.info(f"No roll cell has {MIN_ROLLS} rolls or more in this scope: too few to test. "
                "Widen the days, or play more fights.")
        return
    cells = audit[audit["scope"] == "cell"].reset_index(drop=True)
    kinds = audit[audit["scope"] == "kind"].reset_index(drop=True)
    verdict(cells, kinds)
    figures(cells, kinds)
    cell_table(cells)
    kind_table(kinds)
    cell_detail(cells)


# The verdict ----------------------------------------------------------------------------------

def headline(cells: pd.DataFrame, kinds: pd.DataFrame) -> str:
    """"No cell looks loaded" or "N cells look loaded", and the kinds of roll whose cells
    together look loaded: the first words on the page."""
    loaded = int(cells["loaded"].sum())
    together = [str(k) for k in kinds.loc[kinds["loaded"], "kind"]]
    if loaded == 0:
        words = "No cell looks loaded"
    else:
        words = f"{loaded} cell{'s' if loaded > 1 else ''} look{'' if loaded > 1 else 's'} loaded"
    if together:
        joined = ", ".join(together)
        words += (f"{' on its own' if loaded == 0 else ''}, and the {joined} rolls together "
                  "do")
    return words


def verdict(cells: pd.DataFrame, kinds: pd.DataFrame) -> None:
    """The headline, and why a p-value must be so small: many cells are tested at once."""
    tested = int(cells["p_value"].notna().sum())
    tests = tested + len(kinds)
    words = headline(cells, kinds)
    detail = (f". {_count(tested, 'cell')} and {_count(len(kinds), 'kind')} of roll tested: "
              f"each p-value is multiplied by those {tests} tests (Bonferroni) and loaded below "
              f"{ALPHA:g}, so fair dice would flag anything in fewer than one season in a "
              "thousand.")
    if cells["loaded"].any() or kinds["loaded"].any():
        st.error(words + detail)
    else:
        st.success(words + detail)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def figures(cells: pd.DataFrame, kinds: pd.DataFrame) -> None:
    cols = st.columns(4)
    cols[0].metric("Rolls audited", f"{int(cells['rolls'].sum()):,}",
                   help=f"In the cells of {MIN_ROLLS} rolls or more; one initiative die is "
                        "one roll.")
    cols[1].metric("Cells tested", f"{int(cells['p_value'].notna().sum()):,}",
                   help="Cells: kind, pool, difficulty, specialty, automatic successes and "
                        "whether the roll can botch, the things a roll's law depends on.")
    lowest = pd.concat([cells["p_bonferroni"], kinds["p_bonferroni"]]).dropna()
    cols[2].metric("Lowest Bonferroni p", f"{lowest.min():.3g}" if len(lowest) else "none",
                   help=f"Loaded below {ALPHA}.")
    cols[3].metric("Loaded cells", f"{int(cells['loaded'].sum()):,}")


# The tables -----------------------------------------------------------------------------------

def cell_table(cells: pd.DataFrame) -> None:
    st.subheader("Every cell")
    shown = cells[CELL_COLUMNS]
    styled = shown.style.apply(lambda row: ["background-color: #fecaca" if row["loaded"]
                                            else ""] * len(row), axis=1)
    st.dataframe(styled, hide_index=True, width="stretch", key="dice_audit_cells",
                 height=_height(shown), column_config=_config())
    st.caption(f"Cells with {MIN_ROLLS} rolls or more (and the minimum sample); outcomes are "
               "pooled until each bin expects 5 rolls (df: bins - 1). Loaded cells are red. "
               "An initiative die is tested against a d10's ten faces alike.")


def kind_table(kinds: pd.DataFrame) -> None:
    if kinds.empty:
        return
    st.subheader("Each kind of roll, its cells together")
    st.dataframe(kinds[["kind", "rolls", "chi2", "df", "p_value", "p_bonferroni", "loaded",
                        "mean_observed", "mean_expected", "note"]],
                 hide_index=True, width="stretch", key="dice_audit_kinds",
                 height=_height(kinds), column_config=_config())
    st.caption("A loaded die shifts every cell the same way: the sum of the cells' statistics "
               "sees a bias too small for any one cell to show.")


def _height(frame: pd.DataFrame) -> int:
    """Every row in view up to a screenful: the cells are few, and a scrollbar hides them."""
    return min(ROW_PX * (len(frame) + 1) + 3, 760)


def _config() -> dict[str, Any]:
    number = st.column_config.NumberColumn
    return {"can_botch": st.column_config.CheckboxColumn("can botch"),
            "auto": number("automatic", format="%d"),
            "chi2": number("chi-square", format="%.2f"),
            "p_value": number("p", format="%.4g"),
            "p_bonferroni": number("Bonferroni p", format="%.4g"),
            "mean_observed": number("mean observed", format="%.3f"),
            "mean_expected": number("mean expected", format="%.3f")}


# One cell -------------------------------------------------------------------------------------

def cell_label(row: pd.Series) -> str:
    """A cell in words: "action · 6 dice · difficulty 6 · specialty · 133 rolls · p 0.27"."""
    if row["kind"] == "initiative":
        words = ["initiative die"]
    else:
        words = [str(row["kind"]), f"{row['pool']} dice", f"difficulty {row['difficulty']}"]
        words += ["specialty"] if row["specialty"] else []
        words += [f"+{row['auto']} automatic"] if row["auto"] else []
        words += [] if row["can_botch"] else ["cannot botch"]
    words.append(f"{row['rolls']} rolls")
    if pd.notna(row["p_value"]):
        words.append(f"p {row['p_value']:.3g}")
    if row["loaded"]:
        words.append("LOADED")
    return " · ".join(words)


def outcome_counts(listing: str) -> dict[int, int]:
    """The model's `observed` listing ("botch: 3, 0: 41, 1: 60") as counts per outcome."""
    counts = {}
    for part in listing.split(", "):
        outcome, count = part.split(": ")
        counts[BOTCH if outcome == "botch" else int(outcome)] = int(float(count))
    return counts


def outcome_frame(row: pd.Series) -> pd.DataFrame:
    """Each outcome of the cell: the rolls seen and those the exact law expects."""
    law = data.dice_cell_law(str(row["kind"]), int(row["pool"]),
                             None if pd.isna(row["difficulty"]) else int(row["difficulty"]),
                             bool(row["specialty"]), int(row["auto"]), bool(row["can_botch"]))
    seen = outcome_counts(str(row["observed"]))
    rolls = int(row["rolls"])
    rows = []
    for outcome in sorted(set(law) | set(seen)):
        name = "botch" if outcome == BOTCH else str(outcome)
        for series, count in (("observed", float(seen.get(outcome, 0))),
                              ("expected (fair dice)", rolls * law.get(outcome, 0.0))):
            rows.append({"order": outcome, "outcome": name, "series": series, "rolls": count,
                         "share": count / rolls})
    return pd.DataFrame(rows)


def cell_detail(cells: pd.DataFrame) -> None:
    st.subheader("One cell: observed against expected")
    labels = [cell_label(row) for _, row in cells.iterrows()]
    suspicious = int(cells["p_value"].fillna(2.0).astype(float).idxmin())
    choice = st.selectbox("Cell", labels, index=suspicious, key="dice_audit_cell",
                          help="The cell with the lowest p-value comes first chosen.")
    row = cells.iloc[labels.index(choice)]
    frame = outcome_frame(row)
    x_title = "face" if row["kind"] == "initiative" else "net successes"
    st.altair_chart(outcome_chart(frame, x_title), width="stretch")
    st.caption(_cell_words(row))


def _cell_words(row: pd.Series) -> str:
    """Under the chart: what is drawn, and the cell's test as the table gives it."""
    x_title = "face" if row["kind"] == "initiative" else "net successes"
    note = f" · {widgets.plain(row['note'])}" if row["note"] else ""
    if pd.isna(row["p_value"]):
        return f"Rolls per outcome ({x_title}): not tested{note}"
    return (f"Rolls per outcome ({x_title}): observed, and the exact law's expectation for "
            f"{row['rolls']} rolls (engine.v20.dice). Chi-square {row['chi2']:.2f} on "
            f"{row['df']} df, p {row['p_value']:.3g}, Bonferroni p "
            f"{row['p_bonferroni']:.3g}{note}.")


def outcome_chart(frame: pd.DataFrame, x_title: str) -> alt.Chart:
    order = frame.drop_duplicates("outcome").sort_values("order")["outcome"].tolist()
    return alt.Chart(frame).mark_bar().encode(
        x=alt.X("outcome:N", sort=order, title=x_title, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("series:N", sort=list(SERIES_COLOURS)),
        y=alt.Y("rolls:Q", title="rolls"),
        color=alt.Color("series:N", title=None, legend=alt.Legend(orient="top"),
                        scale=alt.Scale(domain=list(SERIES_COLOURS),
                                        range=list(SERIES_COLOURS.values()))),
        tooltip=[alt.Tooltip("outcome:N"), alt.Tooltip("series:N", title="rolls"),
                 alt.Tooltip("rolls:Q", format=".1f", title="count"),
                 alt.Tooltip("share:Q", format=".1%")]).properties(height=320)


render()
