"""A text picture of an Eredan view for the terminal replay: both lines (the passive side on
top), each character with its stats, HP bar and what it carries, then seats, hands as the
perspective sees them, and the cards played this turn."""
from __future__ import annotations

from typing import Any

BAR = 10


def render_text(view: dict[str, Any]) -> str:
    first = view["first"] if view["first"] in (0, 1) else 0
    seats = view["seats"]
    lines = [_headline(view)]
    for seat in (1 - first, first):
        lines += _seat_lines(seats[seat])
        lines += [_character(view, c) for c in view["characters"] if c["owner"] == seat]
    lines += _played(view)
    return "\n".join(lines)


def _headline(view: dict[str, Any]) -> str:
    players = {s["seat"]: s["player"] for s in view["seats"]}
    if view["over"]:
        who = "draw" if view["winner"] is None else f"{players[view['winner']]} wins"
        return f"Match over: {who} ({view['reason']}, {view['rule']}) after turn {view['turn']}"
    fights, names = view["combatants"], _names(view)
    fight = (f" · combat {names[fights['attacker']]} vs {names[fights['defender']]}"
             if fights["attacker"] is not None else "")
    active = players.get(view["active"], "nobody yet")
    to_act = players.get(view["to_act"], "chance" if not view["over"] else "nobody")
    return (f"Turn {view['turn']} · active: {active} · {view['window']}{fight} · "
            f"to act: {to_act} · {view['format']} · perspective: {view['perspective']}")


def _names(view: dict[str, Any]) -> dict[int, str]:
    return {c["id"]: c["name"] for c in view["characters"]}


def _seat_lines(seat: dict[str, Any]) -> list[str]:
    hand = (", ".join(c["name"] for c in seat["hand"]) if seat["hand"] is not None
            else "hidden")
    score = seat["score"]
    flags = (" · DECK-OUT" if seat["deck_out"] else "") + (
        " · submitted" if seat["submitted"] else "")
    return [
        (f"Seat {seat['seat']} {seat['player']} · deck {seat['deck_count']} · "
         f"discard {len(seat['discard'])} · score {score['total']} "
         f"({score['damage']} dmg + {score['healed']} healed){flags}"),
        f"  hand ({seat['hand_count']}/{seat['hand_target']}): {hand}",
    ]


def _character(view: dict[str, Any], char: dict[str, Any]) -> str:
    fights = view["combatants"]
    mark = "*" if char["id"] in (fights["attacker"], fights["defender"]) else " "
    if char["defeated"]:
        return f"  {mark}{char['position']} {char['name']:<20} defeated"
    filled = round(BAR * char["hp"] / char["max_hp"]) if char["max_hp"] else 0
    bar = "#" * filled + "." * (BAR - filled)
    state = ("tapped" if char["tapped"] else "ready") + (" FURY" if char["fury"] else "")
    carried = ", ".join(a["name"] for a in char["attachments"])
    runes = "".join(r[0].upper() for r in char["runes"])
    return (f"  {mark}{char['position']} {char['name']:<20} A{char['attack']} D{char['defense']} "
            f"S{char['spirit']} [{bar}] {char['hp']:>2}/{char['max_hp']:<2} {state}"
            + (f" · runes {runes}" if runes else "") + (f" · {carried}" if carried else ""))


def _played(view: dict[str, Any]) -> list[str]:
    if not view["played"]:
        return []
    rows = ["Played this turn (N order):"]
    for slot in view["played"]:
        how = "ignored" if slot["ignored"] else ("activated" if slot["activated"] else "waiting")
        via = " (pulled)" if slot["pulled"] else ""
        user = _names(view).get(slot["user"], "?")
        rows.append(f"  seat {slot['seat']}: {slot['name']}{via} by {user} -> {how}")
    return rows
