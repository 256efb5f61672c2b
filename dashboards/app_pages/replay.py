"""Replay: pick a match from the lake and step through it as one perspective sees it.

The step lives in session state ("replay_step"); every control (buttons, slider, turn, the
event list, autoplay) only moves it, inside one fragment so that autoplay reruns the board and
not the whole page. The board is the game's SVG, drawn from `ruleset.view(state, perspective)`:
what a seat may not see is never sent to the browser.
"""
from __future__ import annotations

import functools
import time
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dashboards import data, widgets
from dashboards.boards.svg import text_width
from dashboards.replaying import Frame, LogChanged, ReplayCursor, ReplayUnavailable

# Page scripts run with Streamlit's "magic": a bare string would be written on the page, so
# constants are explained in comments here.
SPEEDS = {"0.5×": 2.0, "1×": 1.0, "2×": 0.5, "4×": 0.25}  # autoplay speed -> seconds per step
WINDOW = 12  # events listed either side of the current one (the whole match on request)
STEP, PLAYING, TICK = "replay_step", "replay_playing", "replay_tick"


def render() -> None:
    lake = widgets.require_lake()
    game = widgets.chosen_game(lake)
    st.title("Replay")
    match_id = pick_match(lake, game)
    if match_id is None:
        st.info("No match of this game passes the filters: loosen them in the sidebar.")
        return
    try:
        cursor = data.replay_cursor(lake, match_id)
    except ReplayUnavailable as why:
        cannot_replay(why)
        return
    _reset_on_new_match(match_id, cursor)
    st.caption(_match_line(lake, game, match_id, cursor))
    _apply_link(match_id, cursor)
    if _fits_beside_autoplay(cursor):
        seen, play, speed = st.columns([5, 1, 2], vertical_alignment="bottom")
    else:  # long player names: the perspective control gets a row of its own
        seen = st.container()
        play, speed, _ = st.columns([1, 2, 5], vertical_alignment="bottom")
    with seen:
        perspective = pick_perspective(cursor)
    st.query_params["as"] = str(perspective)
    interval = autoplay_controls(play, speed)
    stage(lake, match_id, perspective, interval)


LINKED = "replay_linked"  # the match whose address (?match=&step=&as=) was applied


def _apply_link(match_id: str, cursor: ReplayCursor) -> None:
    """The address names a moment (`?match=ID&step=N&as=PERSPECTIVE`): opened there once, the
    first time the page shows that match; a step or perspective the match does not have is
    said, never silently replaced."""
    if st.session_state.get(LINKED) == match_id or st.query_params.get("match") != match_id:
        return
    st.session_state[LINKED] = match_id
    step, seen = st.query_params.get("step"), st.query_params.get("as")
    if step is not None:
        if step.isdigit() and int(step) <= cursor.total:
            st.session_state[STEP] = int(step)
        else:
            st.warning(f"The address asks for step {widgets.plain(step)}, which this match "
                       f"does not have (0 to {cursor.total}): showing step 0.")
    if seen is not None:
        wanted = next((p for p, _ in cursor.perspectives() if str(p) == seen), None)
        if wanted is None:
            st.warning(f"The address asks to see the match as {widgets.plain(seen)}, which "
                       "this game does not list: showing it as the organiser.")
        else:
            st.session_state["replay_perspective"] = wanted


def pick_match(lake: data.LakeRef, game: str) -> str | None:
    """Sidebar filters (tournament, player, card played), then the match itself."""
    bar = st.sidebar
    bar.subheader("Find a match")
    tournament = widgets.any_of("Tournament", data.tournaments(lake, game), "replay_tournament")
    player = widgets.any_of("Player", data.players(lake, game), "replay_player")
    cards = data.played_cards(lake, game)
    names = dict(zip(cards["card"], cards["name"] + " (" + cards["card"] + ")"))
    card = widgets.any_of("Card played", list(cards["card"]), "replay_card", names)
    found = data.find_matches(lake, game, tournament, player, card)
    if found.empty:
        return None
    labels = dict(zip(found["match_id"], _match_labels(found)))
    wanted = st.query_params.get("match")
    if wanted in labels and st.session_state.get("replay_match_pick") is None:
        st.session_state["replay_match_pick"] = wanted
    elif wanted is not None and wanted not in labels and not st.session_state.get(
            "replay_unknown_told"):
        st.session_state["replay_unknown_told"] = True
        st.warning(f"No match {widgets.plain(wanted)} in this lake for this game and these "
                   "filters: showing the first match instead.")
    if st.session_state.get("replay_match_pick") not in labels:
        st.session_state["replay_match_pick"] = found["match_id"].iloc[0]
    bar.caption(f"{len(found)} match(es)" + (" (first 500)" if len(found) >= 500 else ""))
    match_id: str = bar.selectbox("Match", list(labels), key="replay_match_pick",
                                  format_func=labels.__getitem__)
    st.query_params["match"] = match_id
    return match_id


def _match_labels(found: pd.DataFrame) -> list[str]:
    return [f"{r['tournament'] or '-'} r{r['round']} t{r['table_no']} · {r['players']}"
            for _, r in found.iterrows()]


def _match_line(lake: data.LakeRef, game: str, match_id: str, cursor: ReplayCursor) -> str:
    """The match in one caption line, its result in the game's words (its narration's); every
    text in it comes from the log, so it is escaped."""
    found = data.find_matches(lake, game)
    row = found[found["match_id"] == match_id]
    result = widgets.plain(cursor.result())
    if row.empty:
        return f"{widgets.plain(match_id)} · {result}"
    r = row.iloc[0]
    said = {key: widgets.plain(r[key]) for key in ("players", "tournament", "format")}
    return (f"{widgets.plain(match_id)} · {said['players']} · {said['tournament']} "
            f"({said['format']}) round {r['round']} · {result} · "
            f"after {r['turns']} turns, {r['events']} events")


def cannot_replay(why: ReplayUnavailable) -> None:
    """Why the log cannot be shown, and for a changed or missing log what would mend it."""
    st.error(f"This match cannot be replayed: {widgets.plain(why)}")
    if isinstance(why, LogChanged):
        st.caption("The lake keeps a match's facts, not its log: put the ingested file back "
                   "to replay it here. Ingesting the changed file does not replace the match "
                   "(the same match id with other content is quarantined as DUPLICATE).")


def _reset_on_new_match(match_id: str, cursor: ReplayCursor) -> None:
    """A new match starts at step 0 and stopped; a step past the end is clamped."""
    if st.session_state.get("replay_match") != match_id:
        st.session_state.update({"replay_match": match_id, STEP: 0, PLAYING: False})
    _set_if_changed(STEP, min(max(int(st.session_state.get(STEP, 0)), 0), cursor.total))


def _set_if_changed(key: str, value: object) -> None:
    """Write a widget's state only when it must change: every write is sent back to the
    browser and would undo a move the person made while the page was still running."""
    if st.session_state.get(key) != value:
        st.session_state[key] = value


PERSPECTIVE = "replay_perspective"  # the chosen perspective; the address's ?as= sets it too


def pick_perspective(cursor: ReplayCursor) -> int | str:
    """The perspectives the game lists for the match (its narration's), organiser first, in
    short words that fit one row ("Organiser", "Seat 0 · player", "Spectator"): what each
    means, the game's longer label, is the control's help."""
    listed = cursor.perspectives()
    labels: dict[int | str, str] = {perspective: widgets.plain(_short(perspective, label))
                                    for perspective, label in listed}  # options render Markdown
    if st.session_state.get(PERSPECTIVE) not in labels:  # the default, set once
        st.session_state[PERSPECTIVE] = "organiser"
    choice = st.segmented_control("Seen as", list(labels), key=PERSPECTIVE,
                                  format_func=labels.__getitem__, required=True,
                                  help=_perspective_help(listed))
    return choice if choice is not None else "organiser"


BESIDE_PX = 560  # the room the control has beside Play and the speed at 1400 px, with a sidebar


def _fits_beside_autoplay(cursor: ReplayCursor) -> bool:
    """Whether the perspective labels fit one row beside the autoplay controls: measured with
    the boards' (wide) font table, scaled to the app's narrower font, plus each button's
    padding."""
    width = sum(text_width(_short(p, label), 14) * 0.8 + 26 for p, label in
                cursor.perspectives())
    return width <= BESIDE_PX


def _short(perspective: int | str, label: str) -> str:
    """A seat keeps its label (its number and player); the others their first words, before a
    parenthesis or a "·" ("Organiser (sees everything)" is "Organiser")."""
    if isinstance(perspective, int):
        return label
    return label.split(" (", 1)[0].split(" · ", 1)[0].strip() or label


def _perspective_help(listed: list[tuple[int | str, str]]) -> str:
    """What each perspective sees, in the game's own words."""
    lines = []
    for perspective, label in listed:
        short = _short(perspective, label)
        if isinstance(perspective, int):
            continue
        rest = label[len(short):].strip(" ·()") or "as listed by the game"
        lines.append(f"**{widgets.plain(short)}**: {widgets.plain(rest)}")
    if any(isinstance(p, int) for p, _ in listed):
        lines.insert(1, "**Seat N · player**: what that seat may see (its own hand, not the "
                        "other's)")
    return "  \n".join(lines)


def autoplay_controls(play: DeltaGenerator, speed: DeltaGenerator) -> float | None:
    """Play/pause and the speed; returns seconds per step while playing."""
    playing = bool(st.session_state.get(PLAYING))
    play.button("Pause" if playing else "Play", icon=":material/pause:" if playing
                else ":material/play_arrow:", on_click=_toggle_play, key="replay_play",
                width="stretch")
    chosen = speed.select_slider("Autoplay speed", list(SPEEDS), value="1×", key="replay_speed")
    return SPEEDS[chosen] if playing else None


def _toggle_play() -> None:
    st.session_state[PLAYING] = not st.session_state.get(PLAYING)
    st.session_state[TICK] = time.monotonic()


def _go(step: int) -> None:
    st.session_state[STEP] = step


def stage(lake: data.LakeRef, match_id: str, perspective: int | str,
          interval: float | None) -> None:
    """Controls, board and event list in one fragment, rerun on its own every `interval`
    seconds while playing (the page around it stays as it is)."""

    @st.fragment(run_every=interval)
    def board_and_controls() -> None:
        try:  # a fragment reruns alone: the log may have changed since the page ran
            if interval is not None:
                _advance(data.replay_cursor(lake, match_id).total, interval)
            _stage_body(lake, match_id, perspective)
        except ReplayUnavailable as why:
            if st.session_state.get(PLAYING):
                st.session_state[PLAYING] = False
                st.rerun()  # the whole page, which says why, without the autoplay timer
            cannot_replay(why)

    board_and_controls()


def _advance(total: int, interval: float) -> None:
    """One autoplay step per interval; at the last step stop and rerun the page without timer."""
    now = time.monotonic()
    if now - st.session_state.get(TICK, 0.0) < interval * 0.8:
        return
    st.session_state[TICK] = now
    if st.session_state[STEP] >= total:
        st.session_state[PLAYING] = False
        st.rerun()
    st.session_state[STEP] += 1


def _stage_body(lake: data.LakeRef, match_id: str, perspective: int | str) -> None:
    cursor = data.replay_cursor(lake, match_id)
    step = int(st.session_state[STEP])
    st.query_params["step"] = str(step)  # the address names this moment: copy it to share
    step_controls(cursor, step)
    frame = data.replay_frame(lake, match_id, int(st.session_state[STEP]), perspective)
    show_board(frame)  # the whole width: the board is drawn to be read at its own size
    words, side = st.columns([2, 3], gap="medium")
    with words:
        step_words(frame)
    with side:
        event_list(lake, match_id, perspective, frame.step)
    chances_panel(lake, match_id, perspective, cursor, frame.step)


def chances_panel(lake: data.LakeRef, match_id: str, perspective: int | str,
                  cursor: ReplayCursor, step: int) -> None:
    """Each seat's chance of winning after every step, as this perspective may estimate it
    (engine.chances: seeded playouts from states sampled from its view), made on demand with
    a progress bar, then kept; its turning points jump to their step."""
    from engine.chances import ChancesUnavailable

    st.subheader("Winning chances")
    left, right, go = st.columns([2, 1, 2], vertical_alignment="bottom")
    playouts = left.select_slider("Playouts a step", data.CHANCE_PLAYOUTS, value=24,
                                  key="chances_playouts",
                                  help="More playouts narrow the interval (as 1/√n) and take "
                                       "longer.")
    seed = int(right.number_input("Seed", min_value=0, value=0, step=1, key="chances_seed",
                                  help="The same seed gives the same line."))
    line = data.known_chance_line(lake, match_id, perspective, playouts, seed)
    if line is None:
        if not go.button("Estimate the winning chances", icon=":material/monitoring:",
                         key="chances_go", width="stretch"):
            st.caption(f"{playouts} bot playouts after each of the {cursor.total + 1} steps, "
                       "each from a position sampled from what this perspective may see "
                       "(never the hidden cards themselves).")
            return
        bar = st.progress(0.0, text="playing out every step...")
        try:
            line = data.chance_line(lake, match_id, perspective, playouts, seed,
                                    progress=lambda done, total: bar.progress(
                                        done / total, text=f"step {done} of {total}"))
        except ChancesUnavailable as why:
            bar.empty()
            st.info(f"No winning chances here: {widgets.plain(why)}")
            return
        bar.empty()
    players = cursor.players()
    st.altair_chart(chance_chart(line, players, step), width="stretch")
    st.caption(f"Seen as {widgets.plain(_perspective_label(cursor, perspective))}: "
               f"{line.playouts} playouts a step, seed {line.seed}; shaded: 95% intervals. At "
               "the last step the chances are the result.")
    turning_points(line, players)


def _perspective_label(cursor: ReplayCursor, perspective: int | str) -> str:
    return next((label for p, label in cursor.perspectives() if p == perspective),
                str(perspective))


def chance_chart(line: Any, players: dict[int, str], step: int) -> alt.LayerChart:
    rows = [{"step": s.step, "turn": s.turn, "player": players.get(seat, f"seat {seat}"),
             "chance": s.chance[seat], "low": s.low[seat], "high": s.high[seat]}
            for s in line.steps for seat in range(len(s.chance))]
    frame = pd.DataFrame(rows)
    base = alt.Chart(frame).encode(
        x=alt.X("step:Q", title="step"),
        color=alt.Color("player:N", title=None, scale=alt.Scale(scheme="category10")))
    band = base.mark_area(opacity=0.15).encode(
        y=alt.Y("low:Q", title="chance of winning", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])), y2="high:Q")
    lines = base.mark_line().encode(y="chance:Q", tooltip=[
        "step:Q", "turn:Q", "player:N", alt.Tooltip("chance:Q", format=".0%"),
        alt.Tooltip("low:Q", format=".0%", title="low (95%)"),
        alt.Tooltip("high:Q", format=".0%", title="high (95%)")])
    now = alt.Chart(pd.DataFrame({"step": [step]})).mark_rule(
        color="#64748b", strokeDash=[4, 4]).encode(x="step:Q")
    return (band + lines + now).properties(height=240)


def turning_points(line: Any, players: dict[int, str]) -> None:
    """The steps where the first seat's chance swung most, each a button to that step."""
    points = line.turning_points(seat=0)
    if not points:
        return
    first = players.get(0, "seat 0")
    st.markdown(f"**Turning points** (the biggest swings of {widgets.plain(first)}'s chance; "
                "click to go there)")
    turns = {s.step: s.turn for s in line.steps}
    cols = st.columns(len(points))
    for col, (at, swing) in zip(cols, points):
        col.button(f"Step {at} · turn {turns[at]} · {swing:+.0%}", key=f"chances_point_{at}",
                   on_click=_go, args=(at,), width="stretch",
                   help=f"{first}'s chance moved {swing:+.0%} at step {at}")


def step_controls(cursor: ReplayCursor, step: int) -> None:
    """First / previous / next / last, jump to a turn, and the step slider."""
    total = cursor.total
    cols = st.columns([1, 1, 1, 1, 2], vertical_alignment="bottom")
    for col, (label, target, icon, key) in zip(cols, _step_buttons(step, total)):
        col.button(label, icon=icon, key=f"replay_{label.lower()}", on_click=_go,
                   args=(min(max(target, 0), total),), width="stretch", shortcut=key,
                   help=f"{label} step ({key} key)",
                   disabled=(target < 0 or target > total or target == step))
    turns = cursor.turns
    current = cursor.records[step].turn
    _set_if_changed("replay_turn", current)
    cols[4].selectbox("Jump to turn", sorted(turns), key="replay_turn",
                      on_change=lambda: _go(turns[st.session_state["replay_turn"]]))
    st.slider("Step", 0, total, key=STEP)


def _step_buttons(step: int, total: int) -> tuple[tuple[str, int, str, str], ...]:
    """First, previous, next and last: label, the step each goes to, icon, and the key that
    presses it (Home, Left, Right, End), so the keyboard steps as the buttons do."""
    return (("First", 0, ":material/first_page:", "Home"),
            ("Previous", step - 1, ":material/chevron_left:", "Left"),
            ("Next", step + 1, ":material/chevron_right:", "Right"),
            ("Last", total, ":material/last_page:", "End"))


def show_board(frame: Frame) -> None:
    """The event of this step, then the picture (its legend under it, inside the SVG)."""
    st.markdown(f"**Step {frame.step}/{frame.total} · turn {frame.turn}** · "
                f"{widgets.plain(frame.event)}")
    if frame.svg is not None:
        st.markdown(f"<div class=\"postgame-board\">{frame.svg}</div>", unsafe_allow_html=True)
    else:
        st.code(frame.text, language=None)


def step_words(frame: Frame) -> None:
    """What the step changed, in words, and how the match ended at its last step."""
    if frame.changes:
        st.markdown("\n".join(f"- {widgets.plain(line)}" for line in _collapsed(frame.changes)))
    if frame.outcome:
        st.success(f"End: {widgets.plain(frame.outcome)}")


def _collapsed(lines: list[str]) -> list[str]:
    """Runs of the same line (six hidden draws) as one line with a count."""
    out: list[tuple[str, int]] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1] = (line, out[-1][1] + 1)
        else:
            out.append((line, 1))
    return [f"{line} (×{n})" if n > 1 else line for line, n in out]


def event_list(lake: data.LakeRef, match_id: str, perspective: int | str, step: int) -> None:
    """The events around this step; the current one highlighted, a click jumps to a row."""
    events = data.replay_events(lake, match_id, perspective)
    whole = st.toggle("Whole match", key="replay_all_events")
    shown = events if whole else events.iloc[max(step - WINDOW, 0): step + WINDOW + 1]
    styled = shown.style.apply(
        lambda row: ["background-color: #fde68a" if row["step"] == step else ""] * len(row),
        axis=1)
    st.dataframe(styled, hide_index=True, width="stretch", height=560,
                 key=f"replay_events_{step}_{whole}", on_select=functools.partial(
                     _jump_to_row, f"replay_events_{step}_{whole}", list(shown["step"])),
                 selection_mode="single-row",
                 column_config={"step": st.column_config.NumberColumn(width=48),
                                "turn": st.column_config.NumberColumn(width=40),
                                "seat": st.column_config.TextColumn(width=40),
                                "event": st.column_config.TextColumn(width="large")})


def _jump_to_row(key: str, steps: list[int]) -> None:
    rows = st.session_state[key]["selection"]["rows"]
    if rows:
        st.session_state[STEP] = steps[rows[0]]


render()
