"""Dice odds: the exact law of a Vampire V20 roll (engine.v20.dice), for a storyteller weighing a
difficulty or a designer weighing a build, as `postgame dice` prints it: every outcome (a botch,
0, 1, 2... net successes) as an exact fraction and a percentage, the chance of success and of a
botch, the expected net successes, and the same roll at every difficulty.

The numbers are mathematics, not lake data: the page reads no lake, and every figure is the
engine's own (the same cancellation and botch rules that score the logged rolls)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import altair as alt
import pandas as pd
import streamlit as st

from engine.v20.dice import (
    BOTCH,
    MAX_DIFFICULTY,
    MIN_DIFFICULTY,
    Distribution,
    chance_of_botch,
    chance_of_success,
    distribution,
    expected_net,
    outcome_name,
)

# Page scripts run with Streamlit's "magic": a bare string would be written on the page, so
# constants are explained in comments here.
MAX_POOL = 30  # more dice than any character of the catalog rolls; the exact law stays instant
MAX_AUTO = 10  # automatic successes: Willpower (1 a turn), Potence, an ambush bonus
OUTCOME_COLOURS = {"botch": "#b91c1c", "failure": "#64748b", "success": "#15803d"}


@dataclass(frozen=True)
class Roll:
    """What the person asked for: a pool at a difficulty, with or without a specialty,
    automatic successes, and whether the roll can botch (damage and soak cannot)."""

    pool: int
    difficulty: int
    specialty: bool
    auto: int
    can_botch: bool

    def law(self, difficulty: int | None = None) -> Distribution:
        return distribution(self.pool, self.difficulty if difficulty is None else difficulty,
                            specialty=self.specialty, auto=self.auto, can_botch=self.can_botch)


def render() -> None:
    st.title("Dice odds")
    st.caption("Vampire V20 rolls, exactly: each die at or above the difficulty is a success, "
               "each 1 cancels one (V20-2.6), a roll with no success die and a 1 botches "
               "(V20-2.8). The figures are the engine's, as it scores every logged roll.")
    roll = inputs()
    law = roll.law()
    summary(law)
    outcome_chart(roll, law)
    comparison(roll)


def inputs() -> Roll:
    """The roll, in one row above the figures."""
    pool_col, diff_col, auto_col = st.columns([1, 2, 1])
    pool = int(pool_col.number_input("Pool (dice)", min_value=1, max_value=MAX_POOL, value=6,
                                     step=1, key="dice_pool"))
    difficulty = int(diff_col.slider("Difficulty", MIN_DIFFICULTY, MAX_DIFFICULTY, 6,
                                     key="dice_difficulty"))
    auto = int(auto_col.number_input("Automatic successes", min_value=0, max_value=MAX_AUTO,
                                     value=0, step=1, key="dice_auto",
                                     help="Added after the 1s cancel, never cancelled; any "
                                          "one of them rules out a botch (V20-2.7, V20-2.8)."))
    left, right = st.columns(2)
    specialty = left.checkbox("Specialty: each 10 counts twice (V20-2.5)", key="dice_specialty")
    no_botch = right.checkbox("Damage or soak roll: cannot botch (V20-2.10)",
                              key="dice_no_botch")
    return Roll(pool, difficulty, specialty, auto, not no_botch)


def percent(p: Fraction) -> str:
    """A probability for people: two decimals, two significant digits when it is smaller (a
    botch of 20 dice) and "< 0.000001%" below that (the exact fraction is always beside it);
    0% or 100% only when it is exactly that, so a near-certain success reads "> 99.99%"."""
    value = float(p) * 100
    if p != 1 and value >= 99.995:
        return "> 99.99%"
    if p in (0, 1) or value >= 0.01:
        return f"{value:.2f}%"
    if value < 1e-6:
        return "< 0.000001%"
    return f"{value:.{1 - math.floor(math.log10(value))}f}".rstrip("0") + "%"


def exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def summary(law: Distribution) -> None:
    success, botch, mean = chance_of_success(law), chance_of_botch(law), expected_net(law)
    cols = st.columns(3)
    cols[0].metric("Chance of success", percent(success),
                   help=f"One net success or more (V20-2.9): exactly {exact(success)}.")
    cols[1].metric("Chance of a botch", percent(botch),
                   help="No success die and at least one 1, with no automatic success "
                        f"(V20-2.8): exactly {exact(botch)}.")
    cols[2].metric("Expected net successes", f"{float(mean):.3f}",
                   help=f"A botch counts 0: exactly {exact(mean)}.")


def outcome_frame(law: Distribution) -> pd.DataFrame:
    """One row per outcome, in order (botch first): its exact fraction and percentage."""
    rows = [{"order": key, "outcome": "botch" if key == BOTCH else str(key),
             "result": "botch" if key == BOTCH else "failure" if key == 0 else "success",
             "name": outcome_name(key), "probability": float(p), "percent": percent(p),
             "fraction": exact(p)} for key, p in sorted(law.items())]
    return pd.DataFrame(rows)


def outcome_chart(roll: Roll, law: Distribution) -> None:
    st.subheader("Every outcome")
    frame = outcome_frame(law)
    chart = alt.Chart(frame).mark_bar().encode(
        x=alt.X("outcome:N", sort=list(frame["outcome"]), title="net successes",
                axis=alt.Axis(labelAngle=0)),
        y=alt.Y("probability:Q", title="probability", axis=alt.Axis(format="%")),
        color=alt.Color("result:N", title=None, scale=alt.Scale(
            domain=list(OUTCOME_COLOURS), range=list(OUTCOME_COLOURS.values()))),
        tooltip=[alt.Tooltip("name:N", title="outcome"),
                 alt.Tooltip("percent:N", title="chance"),
                 alt.Tooltip("fraction:N", title="exactly")])
    st.altair_chart(chart.properties(height=320), width="stretch")
    st.caption(_roll_words(roll) + " · hover a bar for its exact fraction")
    with st.expander("Every outcome as a table"):
        table = frame[["name", "percent", "fraction"]].rename(
            columns={"name": "outcome", "percent": "chance", "fraction": "exactly"})
        st.dataframe(table, hide_index=True, width="stretch", key="dice_outcomes")


def _roll_words(roll: Roll) -> str:
    words = [f"{roll.pool} dice at difficulty {roll.difficulty}"]
    if roll.specialty:
        words.append("specialty")
    if roll.auto:
        words.append(f"+{roll.auto} automatic")
    if not roll.can_botch:
        words.append("cannot botch")
    return " · ".join(words)


def comparison_frame(roll: Roll) -> pd.DataFrame:
    """The same roll at every difficulty 2-10 (V20-2.4 clamps to that range), the chances in
    the words of the metrics above (a tiny chance of a botch is not rounded to 0%)."""
    rows = []
    for difficulty in range(MIN_DIFFICULTY, MAX_DIFFICULTY + 1):
        law = roll.law(difficulty)
        rows.append({"difficulty": difficulty,
                     "chance of success": percent(chance_of_success(law)),
                     "chance of a botch": percent(chance_of_botch(law)),
                     "expected net successes": round(float(expected_net(law)), 3)})
    return pd.DataFrame(rows)


def comparison(roll: Roll) -> None:
    st.subheader(f"{roll.pool} dice at every difficulty")
    frame = comparison_frame(roll)
    styled = frame.style.apply(
        lambda row: ["background-color: #fde68a" if row["difficulty"] == roll.difficulty
                     else ""] * len(row), axis=1).format({"expected net successes": "{:.3f}"})
    st.dataframe(styled, hide_index=True, width="stretch", key="dice_comparison")
    st.caption("The chosen difficulty is highlighted; the same specialty, automatic successes "
               "and botch rule apply on every row.")


render()
