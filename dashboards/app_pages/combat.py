"""Combat balance (Vampire V20): who wins, which party beats which, what each weapon deals, how
soon a character falls, how often a vampire gives in to the Beast, and what it spends. Every
number is a model's of the game's suite (pipeline/sql/v20), each rate beside its sample and its
95% Wilson interval, and small samples marked: a designer must tell a strong sheet from a lucky
one before touching its traits."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data
from dashboards.combat_scope import CombatView, combat_header

# Page scripts run with Streamlit's "magic" (a bare string would be written on the page), so
# the constants are explained in comments.
SMALL = 20  # the default: a rate over fewer fights (attacks, games) is marked a small sample
EVEN = "#64748b"
POOL_COLOURS = {"blood": "#b91c1c", "willpower": "#1d4ed8"}
KIND_COLOURS = {"brawl": "#7c3aed", "melee": "#c2410c", "firearms": "#0f766e",
                "athletics": "#64748b"}
AMOUNT = alt.Axis(tickCount=8)
PERCENT = alt.Axis(format="%", tickCount=10)
FRAME_PX = 120  # axes, titles and legend: Streamlit fits them inside a chart's height
LINE_PX = 26  # one dot, bar or line of a chart
ROW_PX = 35  # one table row (st.dataframe's default)


@dataclass(frozen=True)
class Rated:
    """A model's rate (its _low and _high columns beside it) and the counts it is k / n of."""

    rate: str
    k: str
    n: str
    label: str


def render() -> None:
    view = combat_header("Combat balance", "combat models", SMALL)
    coverage = view.model("coverage")
    if coverage.empty or int(coverage["matches"].sum()) == 0:
        st.info("No fight passes these filters: widen the days or pick another tournament.")
        return
    headline(coverage, view.model("character_win_rates"))
    characters(view)
    builds(view)
    damage(view)
    falls(view)
    frenzy(view)
    spends(view)


# Headline and characters ----------------------------------------------------------------------

def headline(coverage: pd.DataFrame, sheets: pd.DataFrame) -> None:
    fights, draws = int(coverage["matches"].sum()), int(coverage["draws"].sum())
    turns = float((coverage["avg_turns"] * coverage["matches"]).sum()) / fights
    cols = st.columns(4)
    cols[0].metric("Fights", f"{fights:,}")
    cols[1].metric("Draws", f"{draws:,}", help=f"{draws / fights:.1%} of the fights: both "
                   "sides out at once, or the turn limit (V20-14).")
    cols[2].metric("Average turns", f"{turns:.2f}")
    cols[3].metric("Character sheets", f"{len(sheets):,}")


def characters(view: CombatView) -> None:
    st.subheader("Character win rates")
    sheets = view.model("character_win_rates")
    if sheets.empty:
        st.caption("No character sheet passes these filters.")
        return
    rated = [Rated("win_rate", "wins", "games", "win rate")]
    st.altair_chart(interval_chart(long_rates(sheets, rated, view.small), "win rate", 0.5),
                    width="stretch")
    st.caption("A character wins the fights its side wins; a draw is not a win. Mirror fights "
               "(the sheet on both sides) are left out of the rate and counted apart. Bars: "
               f"95% Wilson intervals; hollow dots: fewer than {view.small} games.")
    sheets = sheets.assign(page=[data.v20_fighter_link("character", s, view.scope.game)
                                 for s in sheets["sheet"]])
    table(flagged(sheets, "games", view.small),
          ["name", "page", "sheet", "kind", "fights", "mirror_fights", "games", "wins", "draws",
           "losses", "win_rate", "win_rate_low", "win_rate_high", "small_sample"])


def long_rates(frame: pd.DataFrame, rates: list[Rated], small: int) -> pd.DataFrame:
    """One row per sheet and rate, as interval_chart draws them; a rate with no n (a sheet
    never triggered) has no dot."""
    rows = []
    for rated in rates:
        for _, row in frame.iterrows():
            n = int(row[rated.n])
            if n == 0 or pd.isna(row[rated.rate]):
                continue
            rows.append({"who": row["name"], "series": rated.label, "k": int(row[rated.k]),
                         "n": n, "rate": float(row[rated.rate]),
                         "low": float(row[f"{rated.rate}_low"]),
                         "high": float(row[f"{rated.rate}_high"]), "small": n < small})
    return pd.DataFrame(rows, columns=["who", "series", "k", "n", "rate", "low", "high",
                                       "small"])


def interval_chart(long: pd.DataFrame, title: str, even: float | None = None) -> alt.LayerChart:
    """Each rate as a dot on its 95% interval, one line per sheet (best first), one colour per
    series; a small sample's dot hollow. `even`: a dashed line where the rate means nothing."""
    order = (long[long["series"] == long["series"].iloc[0]].sort_values("rate", ascending=False)
             ["who"].tolist() if not long.empty else [])
    several = long["series"].nunique() > 1
    base = alt.Chart(long).encode(
        y=alt.Y("who:N", title=None, sort=order, axis=alt.Axis(labelLimit=220)),
        yOffset=alt.YOffset("series:N"),
        color=alt.Color("series:N", title=None,
                        legend=alt.Legend(orient="top") if several else None))
    tips = [alt.Tooltip("who:N", title="character"), alt.Tooltip("series:N", title="rate of"),
            alt.Tooltip("k:Q", title="count"), alt.Tooltip("n:Q", title="out of"),
            alt.Tooltip("rate:Q", format=".1%"),
            alt.Tooltip("low:Q", format=".1%", title="low (95%)"),
            alt.Tooltip("high:Q", format=".1%", title="high (95%)"),
            alt.Tooltip("small:N", title="small sample")]
    bars = base.mark_rule(strokeWidth=2, opacity=0.6).encode(
        x=alt.X("low:Q", title=title, axis=PERCENT, scale=alt.Scale(domain=[0, 1])),
        x2="high:Q", tooltip=tips)
    dots = base.mark_point(size=90, strokeWidth=2).encode(
        x="rate:Q", tooltip=tips,
        fill=alt.condition("datum.small", alt.value("#ffffff"),
                           alt.Fill("series:N", legend=None)))
    layers: list[alt.Chart] = [bars, dots]
    if even is not None:
        layers.insert(0, alt.Chart(pd.DataFrame({"even": [even]})).mark_rule(
            strokeDash=[4, 4], color=EVEN).encode(x="even:Q"))
    lines = max(1, len(long))
    return alt.LayerChart(layer=layers).properties(height=chart_height(lines))


def chart_height(lines: int) -> int:
    """Streamlit fits a chart's axes and legend inside its height: the lines get the rest."""
    return FRAME_PX + LINE_PX * max(lines, 2)


def flagged(frame: pd.DataFrame, n: str, small: int) -> pd.DataFrame:
    return frame.assign(small_sample=frame[n] < small)


def table(frame: pd.DataFrame, columns: list[str], key: str | None = None) -> None:
    """The model's own numbers, names first, rates in percent beside their counts."""
    shown = frame[[c for c in columns if c in frame.columns]]
    st.dataframe(shown, hide_index=True, width="stretch", key=key,
                 height=min(ROW_PX * (len(shown) + 1) + 3, 640),
                 column_config=column_config(shown.columns))


def column_config(columns: pd.Index) -> dict[str, Any]:
    config: dict[str, Any] = {"name": st.column_config.TextColumn("character", pinned=True),
                              "sheet": st.column_config.TextColumn("sheet id"),
                              "small_sample": st.column_config.CheckboxColumn("small sample"),
                              "page": st.column_config.LinkColumn(
                                  "", display_text="open",
                                  help="The page of the character or build (its fights, "
                                       "matchups and damage).")}
    for column in columns:
        if column in config:
            continue
        words = column.replace("_", " ").replace("rotschreck", "Rötschreck")
        if column.endswith(("_rate", "_low", "_high", "_when_triggered")):
            config[column] = st.column_config.NumberColumn(words, format="percent")
        elif column.startswith(("avg_", "levels_", "damage_", "soaked_", "points_per")):
            config[column] = st.column_config.NumberColumn(words, format="%.2f")
        else:
            config[column] = st.column_config.Column(words)
    return config


# Builds ---------------------------------------------------------------------------------------

def builds(view: CombatView) -> None:
    st.subheader("Build matchups")
    pairs = view.model("build_matchups")
    if pairs.empty:
        st.caption("No pair of builds passes these filters.")
        return
    st.altair_chart(heatmap(pairs, view.small), width="content")
    st.caption("The row build's win rate against the column build, from the row build's side; "
               "a draw is not a win. Mirrors (grey) carry only their count. Hover a cell for "
               "its fights, wins, losses, draws and interval; faded cells have fewer than "
               f"{view.small} fights.")
    with st.expander("Every pair as a table"):
        pairs = pairs.assign(page=[data.v20_fighter_link("build", data.v20_build_id(b),
                                                         view.scope.game)
                                   for b in pairs["build"]])
        table(flagged(pairs, "n", view.small),
              ["build", "page", "opponent_build", "is_mirror", "n", "wins", "losses", "draws",
               "win_rate", "win_rate_low", "win_rate_high", "small_sample"])


def heatmap(pairs: pd.DataFrame, small: int) -> alt.LayerChart:
    """Cells coloured by win rate around 50% (mirrors grey, small samples faded); each label
    the rate and the fights."""
    frame = pairs.assign(
        label=[_label(r, n, m) for r, n, m in
               zip(pairs["win_rate"], pairs["n"], pairs["is_mirror"])],
        strong=[bool(pd.notna(r) and abs(r - 0.5) > 0.3) for r in pairs["win_rate"]],
        small=pairs["n"] < small)
    base = alt.Chart(frame).encode(
        x=alt.X("opponent_build:N", title="against", axis=alt.Axis(
            orient="top", labelAngle=-25, labelLimit=220, labelOverlap=False)),
        y=alt.Y("build:N", title="build", axis=alt.Axis(labelLimit=220)),
        tooltip=_pair_tips())
    rated = base.transform_filter("!datum.is_mirror").mark_rect(stroke="#ffffff").encode(
        color=alt.Color("win_rate:Q", title="win rate", legend=alt.Legend(format="%"),
                        scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5)),
        opacity=alt.condition("datum.small", alt.value(0.55), alt.value(1.0)))
    mirrors = base.transform_filter("datum.is_mirror").mark_rect(stroke="#ffffff",
                                                                 color="#cbd5e1")
    text = base.mark_text(fontSize=12).encode(
        text="label:N",
        color=alt.condition("datum.strong", alt.value("#ffffff"), alt.value("#0f172a")))
    builds = max(frame["build"].nunique(), frame["opponent_build"].nunique())
    return (rated + mirrors + text).properties(width=150 * builds, height=150 + 56 * builds)


def _pair_tips() -> list[alt.Tooltip]:
    return [alt.Tooltip("build:N"), alt.Tooltip("opponent_build:N", title="against"),
            alt.Tooltip("n:Q", title="fights"), alt.Tooltip("wins:Q"), alt.Tooltip("losses:Q"),
            alt.Tooltip("draws:Q"), alt.Tooltip("win_rate:Q", format=".1%"),
            alt.Tooltip("win_rate_low:Q", format=".1%", title="low (95%)"),
            alt.Tooltip("win_rate_high:Q", format=".1%", title="high (95%)")]


def _label(rate: float, n: int, mirror: bool) -> str:
    if mirror or pd.isna(rate):
        return f"mirror · {n}"
    return f"{rate:.0%} · {n}"


# Damage ---------------------------------------------------------------------------------------

def damage(view: CombatView) -> None:
    st.subheader("Damage per attack")
    attacks = view.model("damage_per_attack")
    if attacks.empty:
        st.caption("No attack passes these filters.")
        return
    names = data.weapon_names(view.scope.game)
    frame = flagged(attacks, "attacks", view.small).assign(
        weapon_name=[names.get(w, w) for w in attacks["weapon"]])
    st.altair_chart(damage_chart(frame), width="stretch")
    st.caption("Health levels taken after soak (V20-8.7), per attack rolled (bar) and per hit "
               "(tick); a hit is an attack whose successes outlasted the defense (V20-7.1). "
               "Counter-blows are not attacks. Faded bars: fewer than "
               f"{view.small} attacks.")
    table(frame, ["weapon_name", "attack_kind", "attacks", "hits", "hit_rate", "hit_rate_low",
                  "hit_rate_high", "levels", "levels_per_attack", "levels_sd", "levels_per_hit",
                  "damage_per_hit", "soaked_per_hit", "small_sample"], key="v20_damage")


def damage_chart(frame: pd.DataFrame) -> alt.LayerChart:
    shown = frame.assign(weapon_label=frame["weapon_name"] + " (" + frame["attack_kind"] + ")")
    order = shown.sort_values("levels_per_attack", ascending=False)["weapon_label"].tolist()
    tips = [alt.Tooltip("weapon_name:N", title="weapon"), alt.Tooltip("attack_kind:N"),
            alt.Tooltip("attacks:Q"), alt.Tooltip("hits:Q"),
            alt.Tooltip("hit_rate:Q", format=".1%"),
            alt.Tooltip("hit_rate_low:Q", format=".1%", title="hit rate low (95%)"),
            alt.Tooltip("hit_rate_high:Q", format=".1%", title="hit rate high (95%)"),
            alt.Tooltip("levels_per_attack:Q", format=".2f"),
            alt.Tooltip("levels_per_hit:Q", format=".2f"),
            alt.Tooltip("small_sample:N", title="small sample")]
    base = alt.Chart(shown).encode(
        y=alt.Y("weapon_label:N", title=None, sort=order, axis=alt.Axis(labelLimit=240)),
        tooltip=tips)
    bars = base.mark_bar().encode(
        x=alt.X("levels_per_attack:Q", title="health levels", axis=AMOUNT),
        color=alt.Color("attack_kind:N", title="attack kind", legend=alt.Legend(orient="top"),
                        scale=alt.Scale(domain=list(KIND_COLOURS),
                                        range=list(KIND_COLOURS.values()))),
        opacity=alt.condition("datum.small_sample", alt.value(0.45), alt.value(0.9)))
    ticks = base.mark_tick(color="#0f172a", thickness=2, size=18).encode(x="levels_per_hit:Q")
    return (bars + ticks).properties(height=chart_height(len(shown)))


# Falls, frenzy, spends ------------------------------------------------------------------------

def falls(view: CombatView) -> None:
    st.subheader("Time to fall")
    sheets = view.model("time_to_fall")
    if sheets.empty:
        st.caption("No character sheet passes these filters.")
        return
    rated = [Rated("fall_rate", "fell", "fights", "fell"),
             Rated("death_rate", "died", "fights", "ended destroyed or dead")]
    st.altair_chart(interval_chart(long_rates(sheets, rated, view.small), "share of fights"),
                    width="stretch")
    st.caption("A character falls when it is first Incapacitated, in torpor, destroyed or dead "
               "(a flight is not a fall). Turns survived stop at the fight's end for those "
               "that never fell, so their mean is cut short. Hollow dots: fewer than "
               f"{view.small} fights.")
    with st.expander("Every sheet as a table", expanded=True):
        table(flagged(sheets, "fights", view.small),
              ["name", "sheet", "kind", "fights", "fell", "fall_rate", "fall_rate_low",
               "fall_rate_high", "avg_fell_turn", "first_fell_turn", "last_fell_turn",
               "avg_turns_survived", "torpor", "died", "death_rate", "death_rate_low",
               "death_rate_high", "small_sample"])


def frenzy(view: CombatView) -> None:
    st.subheader("Frenzy and Rötschreck")
    sheets = view.model("frenzy_rates")
    if sheets.empty:
        st.caption("No vampire passes these filters: only vampires frenzy or flee in "
                   "Rötschreck (V20-12).")
        return
    rated = [Rated("frenzy_rate", "frenzied", "fights", "frenzy"),
             Rated("rotschreck_rate", "rotschrecked", "fights", "Rötschreck")]
    st.altair_chart(interval_chart(long_rates(sheets, rated, view.small), "share of fights"),
                    width="stretch")
    st.caption("Fights in which the vampire frenzied (V20-12.2, V20-12.4) or fled in "
               "Rötschreck (V20-12.9); the table also gives each per fight that triggered it "
               "(V20-12.7; None: never triggered). Hollow dots: fewer than "
               f"{view.small} fights.")
    with st.expander("Every vampire as a table", expanded=True):
        table(flagged(sheets, "fights", view.small),
              ["name", "sheet", "fights", "frenzy_triggered", "frenzied", "frenzy_rate",
               "frenzy_rate_low", "frenzy_rate_high", "frenzy_when_triggered",
               "frenzy_when_triggered_low", "frenzy_when_triggered_high",
               "rotschreck_triggered", "rotschrecked", "rotschreck_rate", "rotschreck_rate_low",
               "rotschreck_rate_high", "rotschreck_when_triggered",
               "rotschreck_when_triggered_low", "rotschreck_when_triggered_high",
               "small_sample"])


def spends(view: CombatView) -> None:
    st.subheader("Blood and Willpower spent per fight")
    spent = view.model("spends_per_fight")
    if spent.empty:
        st.caption("No character sheet passes these filters.")
        return
    st.altair_chart(spends_chart(spent), width="stretch")
    st.caption("Points spent over all the sheet's fights, those with no spend included "
               "(blood: V20-10, Willpower: V20-11); mortals cannot spend blood (V20-3.5).")
    with st.expander("Every sheet and pool as a table", expanded=True):
        table(flagged(spent, "fights", view.small),
              ["name", "sheet", "kind", "pool", "fights", "spending_fights", "spending_rate",
               "spending_rate_low", "spending_rate_high", "spends", "points",
               "points_per_fight", "small_sample"])


def spends_chart(spent: pd.DataFrame) -> alt.Chart:
    order = (spent[spent["pool"] == "blood"].sort_values("points_per_fight", ascending=False)
             ["name"].tolist())
    tips = [alt.Tooltip("name:N", title="character"), alt.Tooltip("pool:N"),
            alt.Tooltip("fights:Q"), alt.Tooltip("points:Q"),
            alt.Tooltip("points_per_fight:Q", format=".2f"),
            alt.Tooltip("spending_fights:Q", title="fights with a spend"),
            alt.Tooltip("spending_rate:Q", format=".1%", title="share of fights with a spend")]
    return alt.Chart(spent).mark_bar().encode(
        y=alt.Y("name:N", title=None, sort=order), yOffset=alt.YOffset("pool:N"),
        x=alt.X("points_per_fight:Q", title="points per fight", axis=AMOUNT),
        color=alt.Color("pool:N", title=None, legend=alt.Legend(orient="top"),
                        scale=alt.Scale(domain=list(POOL_COLOURS),
                                        range=list(POOL_COLOURS.values()))),
        tooltip=tips).properties(height=chart_height(len(spent)))


render()
