"""A V20 character's or build's page (`?game=v20&character=ID` or `?game=v20&build=ID`): its
headline figures (fights, win rate with its 95% Wilson interval, draws, flights, concessions
where the lake has them, the turn it falls), every fight it fought with a link to the replay as
its side saw it, its matchups against each opposing build and character, and the damage it
dealt and took by kind. Every number is over the combat pages' scope (combat_scope.py), and
counts as the combat models count: a character-fight per sheet, a side-fight per build, mirror
fights (the sheet or the build on both sides) apart from the win rates."""
from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from dashboards import data, widgets
from dashboards.combat_scope import CombatView, combat_header

# Page scripts run with Streamlit's "magic" (a bare string would be written on the page), so
# the constants are explained in comments.
SMALL = 20  # the default: a rate over fewer fights (attacks) is marked a small sample
KIND_KEY, LINKED = "fighter_kind", "fighter_linked"  # character or build; the address applied
PICK_KEYS = {"character": "fighter_character", "build": "fighter_build"}
LABELS = {"character": "Character", "build": "Build"}
DAMAGE_KINDS = ("bashing", "lethal", "aggravated")  # V20-8.1, in the order they hurt
DIRECTION_COLOURS = {"dealt": "#1d4ed8", "taken": "#b91c1c"}
EVEN = "#64748b"
PERCENT = alt.Axis(format="%", tickCount=10)
ROW_PX = 35  # one table row (st.dataframe's default)


def render() -> None:
    view = combat_header("Character or build", "character or build pages", SMALL)
    choices = data.v20_fighters(view.lake, *_scope(view))
    if choices.empty:
        st.info("No fight passes these filters: widen the days or pick another tournament.")
        return
    what, chosen = pick(choices)
    fights = data.v20_fighter_fights(view.lake, view.scope.game, what, chosen["value"],
                                     *_scope(view)[1:])
    names = data.v20_character_names()
    st.header(widgets.plain(chosen["name"]))
    st.caption(about(what, chosen, fights, names))
    headline(view, fights)
    fight_list(view, what, fights, names)
    matchups(view, what, fights, names)
    damage(view, what, chosen["value"], fights)


def _scope(view: CombatView) -> tuple[Any, ...]:
    """The scope every query of the page takes after the lake: game, format, days,
    tournament, scenario (for the fighter queries: game, what, value, then the rest)."""
    scope = view.scope
    return (scope.game, scope.format, scope.date_from, scope.date_to, view.tournament,
            view.scenario)


# Which character or build ---------------------------------------------------------------------

def pick(choices: pd.DataFrame) -> tuple[str, pd.Series]:
    """The character or build the address names, else the one picked, else the one with the
    most fights; an address naming one that fought no fight in scope is said, and the page
    shows another. The address then follows the page."""
    asked_what = next((w for w in data.FIGHTER_KINDS if st.query_params.get(w) is not None),
                      None)
    if asked_what is not None:
        asked = str(st.query_params.get(asked_what))
        known = choices[choices["what"] == asked_what]
        if asked not in set(known["id"]):
            if not known.empty:  # the page of that kind with the most fights, said so
                st.session_state[KIND_KEY] = asked_what
                st.session_state[PICK_KEYS[asked_what]] = known["id"].iloc[0]
            shown = known["name"].iloc[0] if not known.empty else "another page"
            st.warning(f"The address names the {asked_what} {widgets.plain(asked)}, which "
                       f"fought no fight in these filters: showing {widgets.plain(shown)} "
                       "instead.")
        elif st.session_state.get(LINKED) != f"{asked_what}={asked}":
            st.session_state[LINKED] = f"{asked_what}={asked}"
            st.session_state[KIND_KEY] = asked_what
            st.session_state[PICK_KEYS[asked_what]] = asked
    if st.session_state.get(KIND_KEY) not in data.FIGHTER_KINDS:
        st.session_state[KIND_KEY] = asked_what or "character"
    kinds = [w for w in data.FIGHTER_KINDS if (choices["what"] == w).any()]
    if st.session_state[KIND_KEY] not in kinds:
        st.session_state[KIND_KEY] = kinds[0]
    left, right = st.columns([1, 3], vertical_alignment="bottom")
    what = left.segmented_control("Page of", kinds, key=KIND_KEY, required=True,
                                  format_func=LABELS.__getitem__) or kinds[0]
    mine = choices[choices["what"] == what].set_index("id")
    labels = {fid: f"{row['name']} · {row['fights']:,} fights" for fid, row in mine.iterrows()}
    key = PICK_KEYS[what]
    if st.session_state.get(key) not in labels:
        st.session_state[key] = mine.index[0]
    fighter = right.selectbox(LABELS[what], list(labels), key=key,
                              format_func=lambda fid: widgets.plain(labels[fid]))
    for other in data.FIGHTER_KINDS:
        if other != what and other in st.query_params:
            del st.query_params[other]
    st.query_params[what] = str(fighter)
    st.session_state[LINKED] = f"{what}={fighter}"  # the address this page wrote, not a link
    return what, mine.loc[fighter].rename(fighter)


def about(what: str, chosen: pd.Series, fights: pd.DataFrame, names: dict[str, str]) -> str:
    """Who it is, in words: a character's builds, a build's characters."""
    if what == "character":
        builds = sorted(set(fights["build"].dropna()))
        return (f"Character sheet {widgets.plain(chosen['value'])} · fought in "
                + ", ".join(widgets.plain(b) for b in builds))
    sheets = sorted({s for party in fights["sheets"] for s in party})
    ident = (f"build {widgets.plain(chosen.name)}" if chosen.name != chosen["value"]
             else "a scenario's own party")
    return f"{ident} · " + ", ".join(widgets.plain(names.get(s, s)) for s in sheets)


# Headline -------------------------------------------------------------------------------------

def headline(view: CombatView, fights: pd.DataFrame) -> None:
    """Fights, the win rate outside mirrors with its interval, draws, flights, concessions
    (when the lake has any) and the turn it fell, as the combat models count them."""
    games = fights[~fights["mirror"]]
    n, wins = len(games), int((games["result"] == "win").sum())
    draws, losses = int((games["result"] == "draw").sum()), int((games["result"] == "loss").sum())
    rate, low, high = data.wilson(wins, n)
    mirrors = int(fights["mirror"].sum())
    fell = fights["fell_turn"].dropna()
    with_concessions = data.v20_has_concessions(view.lake, view.scope.game)
    cols = st.columns(6 if with_concessions else 5)
    cols[0].metric("Fights", f"{len(fights):,}", delta=f"{mirrors:,} mirror fights",
                   delta_color="off", delta_arrow="off",
                   help="Every fight of it in scope, a mirror (it on both sides) once per side.")
    cols[1].metric("Win rate", "–" if rate is None else f"{rate:.1%}",
                   delta="no games" if rate is None else
                   f"95%: {low:.0%}–{high:.0%} · {n:,} games",
                   delta_color="off", delta_arrow="off",
                   help=f"{wins} wins, {draws} draws and {losses} losses in the {n} fights "
                        "outside mirrors (one copy wins exactly when the other loses); a draw "
                        "is not a win. Interval: 95% Wilson.")
    cols[2].metric("Draws", f"{draws:,}", delta=_share(draws, n), delta_color="off",
                   delta_arrow="off", help="Outside mirrors: both sides out at once, or the "
                                           "turn limit (V20-14.2).")
    fled = int(fights["fled"].sum())
    cols[3].metric("Fled", f"{fled:,}", delta=_share(fled, len(fights)) + " of fights",
                   delta_color="off", delta_arrow="off",
                   help="Fights in which it (a build: one of its characters) left the scene, "
                        "in Rötschreck or on its own (gone, V20-12.9).")
    if with_concessions:
        conceded = int(fights["conceded"].sum())
        cols[4].metric("Conceded", f"{conceded:,}", delta=_share(conceded, len(fights)),
                       delta_color="off", delta_arrow="off",
                       help="Fights its side conceded, and lost (V20-14.2).")
    cols[-1].metric("Average turn fallen", "–" if fell.empty else f"{fell.mean():.2f}",
                    delta=f"fell in {len(fell):,} of {len(fights):,}", delta_color="off",
                    delta_arrow="off",
                    help="The turn it was first Incapacitated, in torpor, destroyed or dead "
                         "(0: the ambush), among the fights it fell in; a build falls when "
                         "its last character does, if all of them fall. A flight is not a "
                         "fall.")
    if n < view.scope.min_sample:
        st.warning(f"Only {n} games outside mirrors, under the minimum sample of "
                   f"{view.scope.min_sample}: read every rate with its interval.")


def _share(k: int, n: int) -> str:
    return "–" if n == 0 else f"{k / n:.1%}"


# Fights ---------------------------------------------------------------------------------------

def fight_list(view: CombatView, what: str, fights: pd.DataFrame,
               names: dict[str, str]) -> None:
    """One row per fight, linked to its replay as its side saw it (V20's perspectives are the
    seats, engine.v20.narrate)."""
    st.subheader("Fights")
    game = view.scope.game
    shown = fights.assign(
        replay=[widgets.replay_link(game, m, None, perspective=int(seat))
                for m, seat in zip(fights["match_id"], fights["seat"])],
        characters=[_names(s, names) for s in fights["sheets"]],
        opponents=[_names(s, names) for s in fights["opponent_sheets"]])
    columns = ["replay", "tournament", "round", "table_no", "scenario", "side", "player",
               "characters" if what == "build" else "build", "opponent_build", "opponents",
               "result", "mirror", "turns", "fell_turn", "final_status", "fled", "conceded",
               "attacks", "hits", "levels_dealt", "levels_taken"]
    if len(set(fights["scenario"])) < 2:
        columns.remove("scenario")
    if not fights["conceded"].any():
        columns.remove("conceded")
    st.caption(f"{len(fights):,} fights, oldest first. Each link opens the replay of the "
               "match as its side saw it. Levels: health levels dealt and taken after soak, "
               "counter-blows included.")
    st.dataframe(shown[columns], hide_index=True, width="stretch", key="fighter_fights",
                 height=min(ROW_PX * (len(shown) + 1) + 3, 420), column_config={
                     "replay": st.column_config.LinkColumn("match", display_text="replay",
                                                           pinned=True),
                     "table_no": "table",
                     "opponent_build": "against", "opponents": "opposing characters",
                     "mirror": st.column_config.CheckboxColumn(
                         "mirror", help="It fought on both sides: left out of the win rate."),
                     "fell_turn": st.column_config.NumberColumn("fell in turn", format="%d"),
                     "final_status": "ended", "levels_dealt": "levels dealt",
                     "levels_taken": "levels taken"})


def _names(sheets: Any, names: dict[str, str]) -> str:
    return ", ".join(names.get(s, s) for s in (sheets if sheets is not None else []))


# Matchups -------------------------------------------------------------------------------------

def matchups(view: CombatView, what: str, fights: pd.DataFrame, names: dict[str, str]) -> None:
    st.subheader("Matchups")
    builds = data.v20_fighter_matchups(fights, "build")
    if builds.empty:
        st.caption("No opponent in scope.")
        return
    builds = builds.assign(name=builds["opponent"],
                           page=[data.v20_fighter_link("build", data.v20_build_id(b),
                                                       view.scope.game)
                                 for b in builds["opponent"]],
                           small_sample=builds["fights"] < view.small)
    rated = builds[~builds["mirror"]]
    if not rated.empty:
        st.altair_chart(rate_chart(rated), width="stretch")
    st.caption("Its win rate against each opposing build, from its side; a draw is not a "
               "win. Mirror fights (it on both sides) have a row of their own, with no rate. "
               f"Bars: 95% Wilson intervals; hollow dots: fewer than {view.small} fights. "
               "The fights of the rows add up to all its fights.")
    matchup_table(builds.drop(columns="opponent"), "against build", "fighter_builds")
    with st.expander("Against each opposing character"):
        sheets = data.v20_fighter_matchups(fights, "character")
        sheets = sheets.assign(name=[names.get(s, s) for s in sheets["opponent"]],
                               page=[data.v20_fighter_link("character", s, view.scope.game)
                                     for s in sheets["opponent"]],
                               small_sample=sheets["fights"] < view.small)
        st.caption("A fight counts once for each opposing character it met, so these fights "
                   "add up to more than its fights.")
        matchup_table(sheets, "against character", "fighter_characters")


def matchup_table(frame: pd.DataFrame, label: str, key: str) -> None:
    columns = [c for c in ("name", "page", "mirror", "fights", "wins", "draws", "losses",
                           "win_rate", "win_rate_low", "win_rate_high", "small_sample",
                           "opponent") if c in frame.columns]
    st.dataframe(frame[columns], hide_index=True, width="stretch", key=key,
                 height=min(ROW_PX * (len(frame) + 1) + 3, 460), column_config={
                     "name": st.column_config.TextColumn(label, pinned=True),
                     "page": st.column_config.LinkColumn("", display_text="open"),
                     "mirror": st.column_config.CheckboxColumn("mirror"),
                     "win_rate": st.column_config.NumberColumn("win rate", format="percent"),
                     "win_rate_low": st.column_config.NumberColumn("low (95%)",
                                                                   format="percent"),
                     "win_rate_high": st.column_config.NumberColumn("high (95%)",
                                                                    format="percent"),
                     "small_sample": st.column_config.CheckboxColumn("small sample"),
                     "opponent": st.column_config.TextColumn("sheet id")})


def rate_chart(rated: pd.DataFrame) -> alt.LayerChart:
    """Each opponent's win rate as a dot on its interval, best first; small samples hollow."""
    order = rated.sort_values("win_rate", ascending=False)["name"].tolist()
    tips = [alt.Tooltip("name:N", title="against"), alt.Tooltip("fights:Q"),
            alt.Tooltip("wins:Q"), alt.Tooltip("draws:Q"), alt.Tooltip("losses:Q"),
            alt.Tooltip("win_rate:Q", format=".1%", title="win rate"),
            alt.Tooltip("win_rate_low:Q", format=".1%", title="low (95%)"),
            alt.Tooltip("win_rate_high:Q", format=".1%", title="high (95%)")]
    frame = rated[["name", "fights", "wins", "draws", "losses", "win_rate", "win_rate_low",
                   "win_rate_high", "small_sample"]].astype({"wins": int, "losses": int})
    base = alt.Chart(frame).encode(
        y=alt.Y("name:N", title=None, sort=order, axis=alt.Axis(labelLimit=240)),
        tooltip=tips)
    bars = base.mark_rule(strokeWidth=2, opacity=0.6, color="#1d4ed8").encode(
        x=alt.X("win_rate_low:Q", title="win rate", axis=PERCENT,
                scale=alt.Scale(domain=[0, 1])), x2="win_rate_high:Q")
    dots = base.mark_point(size=90, strokeWidth=2, color="#1d4ed8").encode(
        x="win_rate:Q",
        fill=alt.condition("datum.small_sample", alt.value("#ffffff"), alt.value("#1d4ed8")))
    even = alt.Chart(pd.DataFrame({"even": [0.5]})).mark_rule(
        strokeDash=[4, 4], color=EVEN).encode(x="even:Q")
    return alt.LayerChart(layer=[even, bars, dots]).properties(
        height=120 + 30 * max(len(frame), 2))


# Damage ---------------------------------------------------------------------------------------

def damage(view: CombatView, what: str, value: str, fights: pd.DataFrame) -> None:
    st.subheader("Damage")
    scope = _scope(view)
    applied = data.v20_fighter_damage(view.lake, view.scope.game, what, value, *scope[1:])
    weapons = data.v20_fighter_weapons(view.lake, view.scope.game, what, value, *scope[1:])
    attacks, hits = int(fights["attacks"].sum()), int(fights["hits"].sum())
    against, struck = int(fights["attacks_received"].sum()), int(fights["hits_received"].sum())
    kinds = damage_by_kind(applied, len(fights), attacks, against)
    cols = st.columns(4)
    outlasted = "Its attacks whose successes outlasted the defense (V20-7.1)."
    for col, label, k, n, tip in (
            (cols[0], "Hit rate", hits, attacks, outlasted),
            (cols[1], "Hit rate against it", struck, against, "The attacks on it that hit.")):
        rate, low, high = data.wilson(k, n)
        col.metric(label, "–" if rate is None else f"{rate:.1%}",
                   delta="no attack" if rate is None else
                   f"95%: {low:.0%}–{high:.0%} · {n:,} attacks",
                   delta_color="off", delta_arrow="off", help=tip)
    total = kinds[kinds["kind"] == "all"].iloc[0]
    cols[2].metric("Levels dealt per fight", f"{total['dealt_per_fight']:.2f}",
                   delta=f"{total['dealt_per_attack']:.2f} per attack", delta_color="off",
                   delta_arrow="off")
    cols[3].metric("Levels taken per fight", f"{total['taken_per_fight']:.2f}",
                   delta=f"{total['taken_per_attack']:.2f} per attack on it",
                   delta_color="off", delta_arrow="off")
    st.altair_chart(damage_chart(kinds), width="stretch")
    st.caption("Health levels after soak (V20-8.7) by kind of damage (V20-8.1), per fight "
               "(counter-blows included, V20-7.5) and per attack (its attacks for the levels "
               "dealt, the attacks on it for those taken; counter-blows are not attacks).")
    st.dataframe(kinds, hide_index=True, width="stretch", key="fighter_damage",
                 column_config={
                     "kind": st.column_config.TextColumn("damage", pinned=True),
                     **{c: st.column_config.NumberColumn(c.replace("_", " "), format="%.2f")
                        for c in kinds.columns if c.endswith(("_per_fight", "_per_attack"))},
                     "dealt": "levels dealt", "taken": "levels taken"})
    if weapons.empty:
        return
    weapons = by_weapon(weapons, data.weapon_names(view.scope.game), view.small)
    st.dataframe(weapons, hide_index=True, width="stretch", key="fighter_weapons",
                 column_config={
                     "weapon_name": st.column_config.TextColumn("weapon", pinned=True),
                     "attack_kind": "attack kind",
                     "hit_rate": st.column_config.NumberColumn("hit rate", format="percent"),
                     "hit_rate_low": st.column_config.NumberColumn("low (95%)",
                                                                   format="percent"),
                     "hit_rate_high": st.column_config.NumberColumn("high (95%)",
                                                                    format="percent"),
                     "levels_per_attack": st.column_config.NumberColumn("levels per attack",
                                                                        format="%.2f"),
                     "levels_per_hit": st.column_config.NumberColumn("levels per hit",
                                                                     format="%.2f"),
                     "small_sample": st.column_config.CheckboxColumn("small sample"),
                     "weapon": st.column_config.TextColumn("id")})


def damage_by_kind(applied: pd.DataFrame, fights: int, attacks: int,
                   against: int) -> pd.DataFrame:
    """One row per kind of damage and one for all: the levels dealt and taken, per fight and
    per attack (those of attacks: counter-blows are not attacks)."""
    rows = []
    for kind in (*DAMAGE_KINDS, "all"):
        mine = applied if kind == "all" else applied[applied["damage_type"] == kind]
        row: dict[str, Any] = {"kind": kind}
        for direction, per in (("dealt", attacks), ("taken", against)):
            part = mine[mine["direction"] == direction]
            levels, by_attacks = int(part["levels"].sum()), int(part["attack_levels"].sum())
            row[direction] = levels
            row[f"{direction}_per_fight"] = levels / fights if fights else None
            row[f"{direction}_per_attack"] = by_attacks / per if per else None
        rows.append(row)
    return pd.DataFrame(rows)


def damage_chart(kinds: pd.DataFrame) -> alt.Chart:
    """Per kind of damage, the levels dealt and taken per fight, side by side."""
    per = kinds[kinds["kind"] != "all"]
    long = pd.DataFrame([{"direction": direction, "kind": row["kind"],
                          "levels": row[f"{direction}_per_fight"] or 0.0,
                          "per_attack": row[f"{direction}_per_attack"] or 0.0}
                         for _, row in per.iterrows() for direction in ("dealt", "taken")])
    return alt.Chart(long).mark_bar().encode(
        y=alt.Y("kind:N", title=None, sort=list(DAMAGE_KINDS)),
        yOffset=alt.YOffset("direction:N", sort=["dealt", "taken"]),
        x=alt.X("levels:Q", title="health levels per fight"),
        color=alt.Color("direction:N", title=None, legend=alt.Legend(orient="top"),
                        scale=alt.Scale(domain=list(DIRECTION_COLOURS),
                                        range=list(DIRECTION_COLOURS.values()))),
        tooltip=[alt.Tooltip("kind:N", title="damage"), alt.Tooltip("direction:N"),
                 alt.Tooltip("levels:Q", format=".2f", title="levels per fight"),
                 alt.Tooltip("per_attack:Q", format=".2f", title="levels per attack")]
    ).properties(height=120 + 26 * len(long))


def by_weapon(weapons: pd.DataFrame, names: dict[str, str], small: int) -> pd.DataFrame:
    rates = [data.wilson(int(k), int(n)) for k, n in zip(weapons["hits"], weapons["attacks"])]
    frame = weapons.assign(
        weapon_name=[names.get(w, w) for w in weapons["weapon"]],
        hit_rate=[r[0] for r in rates], hit_rate_low=[r[1] for r in rates],
        hit_rate_high=[r[2] for r in rates],
        levels_per_attack=weapons["levels"] / weapons["attacks"],
        levels_per_hit=[lv / h if h else None for lv, h in
                        zip(weapons["levels"], weapons["hits"])],
        small_sample=weapons["attacks"] < small)
    return frame[["weapon_name", "attack_kind", "attacks", "hits", "hit_rate", "hit_rate_low",
                  "hit_rate_high", "levels", "levels_per_attack", "levels_per_hit",
                  "small_sample", "weapon"]]


render()
