"""Vampire V20 combat's lake facts (its "facts" layer): matches and seats from the base, and five
tables of its own, each one row per thing:

- `v20_characters`: one row per character per fight (its sheet, build, how it ended);
- `v20_rolls`: one row per roll scored, and one per initiative die;
- `v20_damage`: one row per damage application (an attack's or a counter-blow's, after soak);
- `v20_statuses`: one row per status change (fallen, gone, NPC, frenzy, Rötschreck...);
- `v20_spends`: one row per blood or Willpower spend.

Everything is read from the changes `apply` returns (engine.v20.changes) and, where a change
does not say it, from the step the scene awaited before the event (the state's queue head: the
roll's weapon, target and whether it can botch, the initiative's rolling order), which the
public view shows to every side. Nothing here re-derives a rule.

Only public facts go in (spec "Hidden information"): every die, pool, difficulty, spend,
declaration, health track and status is public. No trait, virtue, path rating, nor any blood
or Willpower pool is stored; the initiative totals are left out too (total minus die is the
character's Dexterity + Wits + Celerity). A character's catalog sheet (and the generation it
gives) is the header's, which the lake reads once the match is over.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

import pyarrow as pa

from engine.ruleset import Change, Outcome
from engine.v20 import changes as ch
from engine.v20.catalog import load_catalog
from engine.v20.state import State, Step
from events.base import Header
from pipeline.facts import FactVisitor, setup_name

KEYS = [("match_id", pa.string()), ("game", pa.string()), ("month", pa.string())]
WHEN = [("seq", pa.int32()), ("turn", pa.int16()), ("phase", pa.string())]
"""Where a fact happened: the event's seq, the turn (0: the ambush) and the phase."""

CHARACTERS = pa.schema([
    *KEYS, ("seat", pa.int8()), ("side", pa.string()), ("character", pa.string()),
    ("sheet", pa.string()), ("name", pa.string()), ("kind", pa.string()),
    ("generation", pa.int8()), ("build", pa.string()), ("final_status", pa.string()),
    ("final_track", pa.string()), ("boxes", pa.int8()), ("turns_survived", pa.int16()),
    ("fell_turn", pa.int16()), ("fell_status", pa.string()), ("torpor", pa.bool_()),
    ("died", pa.bool_()), ("gone", pa.bool_()), ("npc", pa.bool_()),
    ("frenzy_triggers", pa.int16()), ("frenzied", pa.bool_()),
    ("rotschreck_triggers", pa.int16()), ("rotschreck", pa.bool_()),
    ("blood_spent", pa.int16()), ("willpower_spent", pa.int16()), ("blood_fed", pa.int16()),
])
ROLLS = pa.schema([
    *KEYS, *WHEN, ("roll", pa.int8()), ("character", pa.string()), ("side", pa.string()),
    ("purpose", pa.string()), ("pool", pa.int8()), ("difficulty", pa.int8()),
    ("specialty", pa.bool_()), ("auto", pa.int8()), ("can_botch", pa.bool_()),
    ("dice", pa.string()), ("successes", pa.int8()), ("botch", pa.bool_()),
    ("outcome", pa.int8()), ("weapon", pa.string()), ("attack_kind", pa.string()),
    ("opponent", pa.string()), ("attack_seq", pa.int32()), ("attack_result", pa.string()),
])
DAMAGE = pa.schema([
    *KEYS, *WHEN, ("attack_seq", pa.int32()), ("stage", pa.string()),
    ("attacker", pa.string()), ("attacker_side", pa.string()), ("target", pa.string()),
    ("target_side", pa.string()), ("weapon", pa.string()), ("attack_kind", pa.string()),
    ("damage_type", pa.string()), ("damage", pa.int8()), ("soaked", pa.int8()),
    ("levels", pa.int8()), ("track", pa.string()), ("status", pa.string()),
])
STATUSES = pa.schema([
    *KEYS, *WHEN, ("character", pa.string()), ("side", pa.string()), ("status", pa.string()),
    ("source", pa.string()),
])
SPENDS = pa.schema([
    *KEYS, *WHEN, ("character", pa.string()), ("side", pa.string()), ("pool", pa.string()),
    ("points", pa.int16()), ("purpose", pa.string()),
])

FALLEN = ("incapacitated", "torpor", "final_death", "dead")
"""The statuses that end a character's fighting (time to fall counts the first of them)."""
DIED = ("final_death", "dead")
BOTCH = -1
"""rolls.outcome of a botch (engine.v20.dice.BOTCH)."""


def dice_text(dice: tuple[int, ...]) -> str:
    """rolls.dice: the faces in the order rolled, comma-separated ("10,3,1"); a string, as the
    lake holds scalar columns only, and every engine splits it."""
    return ",".join(str(die) for die in dice)


@cache
def attack_kind(weapon: str | None) -> str | None:
    """The ability a weapon attacks with (brawl, melee, firearms, athletics): catalog data."""
    found = load_catalog().weapons.get(weapon or "")
    return found.ability if found else None


@dataclass(frozen=True)
class Awaited:
    """What the roll step at the head of the queue said before its dice came: the part of it
    the changes do not repeat. Copied out of the step, which the engine pops and forgets."""

    purpose: str
    character: str | None
    can_botch: bool
    rolling: tuple[str, ...] = ()
    """The initiative roll: the characters in the order of its dice."""
    attacker: str | None = None
    weapon: str | None = None
    stage: str | None = None
    """The attack's: "regular", "extra", "ambush" or "counter"."""
    opponent: str | None = None


def awaited(state: State) -> Awaited | None:
    """The roll the scene awaits now, if it awaits one."""
    if state.over or not state.queue or state.queue[0].what != "roll":
        return None
    head: Step = state.queue[0]
    attack = head.attack
    opponent = head.data.get("target") or head.data.get("ambusher")
    if attack is not None:
        opponent = attack.target if head.character == attack.attacker else attack.attacker
        return Awaited(head.purpose, head.character, head.can_botch, (), attack.attacker,
                       attack.act.weapon, attack.stage, opponent)
    return Awaited(head.purpose, head.character, head.can_botch,
                   tuple(head.data.get("characters", ())), opponent=opponent)


@dataclass
class Career:
    """One character's running facts over the fight."""

    status: str
    fell_turn: int | None = None
    fell_status: str | None = None
    torpor: bool = False
    frenzy_triggers: int = 0
    frenzied: bool = False
    rotschreck_triggers: int = 0
    rotschreck: bool = False
    spent: dict[str, int] = field(default_factory=lambda: {"blood": 0, "willpower": 0})
    fed: int = 0


class V20Facts(FactVisitor):
    """Replay visitor collecting the rows of one V20 fight (begin, step..., end)."""

    TABLES: ClassVar[dict[str, pa.Schema]] = {
        "characters": CHARACTERS, "rolls": ROLLS, "damage": DAMAGE, "statuses": STATUSES,
        "spends": SPENDS}

    def begin(self, header: Header, state: State) -> None:
        """Setup has run the scene to its first step (the first ambush roll, or turn 1's
        rulings), changing nothing a fact reads: the turn is the state's."""
        self.turn = state.turn
        self.phase = "ambush" if state.turn == 0 else "opening"
        self.sides = {fid: f.side for fid, f in state.fighters.items()}
        self.careers = {fid: Career(f.status) for fid, f in state.fighters.items()}
        self.rolls: list[list[Any]] = []
        self.attack: tuple[int, list[Any]] | None = None
        """The seq and rolls row of the attack being resolved (attacks never interleave: a
        defense, damage or soak roll belongs to the last attack rolled)."""
        self.awaited = awaited(state)

    def step(self, seq: int, event: Any, changes: list[Change], state: State) -> None:
        self.events = seq
        before, self.awaited = self.awaited, None
        for change in changes:
            name = HANDLERS.get(type(change))
            if name is not None:
                getattr(self, name)(seq, event, change, before)
        self.awaited = awaited(state)

    def end(self, state: State, outcome: Outcome | None) -> None:
        """No seat plays first (initiative is rolled every turn): first_seat is null; turns:
        the turns begun."""
        self.finish(outcome, -1, state.turn)
        self.own("rolls").extend(tuple(row) for row in self.rolls)
        builds = {s.seat: setup_name(s.setup) for s in self.header.seats}
        for fid, f in state.fighters.items():
            c = self.careers[fid]
            survived = state.turn if c.fell_turn is None else max(c.fell_turn - 1, 0)
            self.own("characters").append((
                self.match_id, self.game, self.month, f.seat, f.side, fid, f.sheet.id, f.name,
                f.kind, f.sheet.generation, builds.get(f.seat), f.status, f.track.drawing,
                f.track.boxes_filled, survived, c.fell_turn, c.fell_status, c.torpor,
                f.status in DIED, f.gone, f.npc, c.frenzy_triggers, c.frenzied,
                c.rotschreck_triggers, c.rotschreck, c.spent["blood"], c.spent["willpower"],
                c.fed))

    # the changes ------------------------------------------------------------------------------

    def _when(self, seq: int) -> tuple[Any, ...]:
        return (self.match_id, self.game, self.month, seq, self.turn, self.phase)

    def _turn_began(self, seq: int, event: Any, change: ch.TurnBegan, before: Any) -> None:
        self.turn, self.phase = change.turn, "opening"

    def _phase(self, seq: int, event: Any, change: ch.Phase, before: Any) -> None:
        self.phase = change.name

    def _rolled(self, seq: int, event: Any, change: ch.Rolled, before: Awaited | None) -> None:
        """One rolls row; an attack's row becomes the attack in progress, which the defense,
        damage and soak rolls (and the damage) after it point to by attack_seq."""
        aim = before if before is not None and before.purpose == change.purpose else None
        weapon = aim.weapon if aim is not None else None
        attack_seq = seq if change.purpose == "attack" else self._attack_seq(aim)
        row = [*self._when(seq), 0, change.character, self.sides.get(change.character),
               change.purpose, change.pool, change.difficulty, change.specialty, change.auto,
               aim.can_botch if aim is not None else True, dice_text(change.dice),
               change.successes, change.botch, BOTCH if change.botch else change.successes,
               weapon, attack_kind(weapon), aim.opponent if aim is not None else None,
               attack_seq, None]
        self.rolls.append(row)
        if change.purpose == "attack":
            self.attack = (seq, row)

    def _attack_seq(self, aim: Awaited | None) -> int | None:
        """The attack roll a step of an attack belongs to; none for a counter-blow's (not an
        attack action, V20-7.5) or a step of no attack."""
        if aim is None or aim.stage in (None, "counter") or self.attack is None:
            return None
        return self.attack[0]

    def _initiative(self, seq: int, event: Any, change: ch.Initiative,
                    before: Awaited | None) -> None:
        """One row per die, in the order the roll listed its characters (`rolled`)."""
        for i, (fid, die) in enumerate(zip(change.rolled, change.dice, strict=True)):
            self.rolls.append([*self._when(seq), i, fid, self.sides.get(fid), "initiative", 1,
                               None, False, 0, False, dice_text((die,)), None, False, die, None,
                               None, None, None, None])

    def _hit(self, seq: int, event: Any, change: ch.Hit | ch.Missed, before: Any) -> None:
        """The attack in progress ends in a hit or a miss (its why: "defended", "no
        successes", "botch")."""
        if self.attack is not None:
            self.attack[1][-1] = "hit" if isinstance(change, ch.Hit) else change.why

    def _damaged(self, seq: int, event: Any, change: ch.Damaged, before: Awaited | None) -> None:
        stage = before.stage if before is not None else None
        attacker = before.attacker if before is not None else None
        weapon = before.weapon if before is not None else None
        attack_seq = self._attack_seq(before)
        self.own("damage").append((
            *self._when(seq), attack_seq, stage, attacker, self.sides.get(attacker or ""),
            change.character, self.sides.get(change.character), weapon, attack_kind(weapon),
            change.damage_type, change.damage, change.soaked, change.levels, change.track,
            change.status))
        if change.status != self.careers[change.character].status:
            self._status(seq, change.character, change.status, "damaged")

    def _became(self, seq: int, event: Any, change: ch.Became, before: Any) -> None:
        self._status(seq, change.character, change.status, "became")

    def _mastery(self, seq: int, event: Any, change: ch.Mastery, before: Any) -> None:
        if change.result in ("frenzy", "rotschreck"):
            self._status(seq, change.character, change.result, "mastery")

    def _ruled(self, seq: int, event: Any, change: ch.Ruled, before: Any) -> None:
        if change.ruling == "frenzy_ends":
            self._status(seq, change.character, "frenzy_ends", "ruled")

    def _triggered(self, seq: int, event: Any, change: ch.Triggered, before: Any) -> None:
        if change.ignored:
            return
        career = self.careers[change.character]
        if change.test == "frenzy":
            career.frenzy_triggers += 1
        else:
            career.rotschreck_triggers += 1

    def _spent_change(self, seq: int, event: Any, change: ch.Spent, before: Any) -> None:
        self._spent(seq, change)

    def _fed(self, seq: int, event: Any, change: ch.Fed, before: Any) -> None:
        self.careers[change.character].fed += change.points

    def _spent(self, seq: int, change: ch.Spent) -> None:
        self.careers[change.character].spent[change.pool] += change.points
        self.own("spends").append((*self._when(seq), change.character,
                                   self.sides.get(change.character), change.pool,
                                   change.points, change.purpose))

    def _status(self, seq: int, fid: str, status: str, source: str) -> None:
        """A statuses row, and what it means for the character's career: the first fall (and
        its turn), torpor, frenzy and Rötschreck reached."""
        self.own("statuses").append((*self._when(seq), fid, self.sides.get(fid), status,
                                     source))
        career = self.careers[fid]
        if status in FALLEN or status == "active":
            career.status = status
        if status in FALLEN and career.fell_turn is None:
            career.fell_turn, career.fell_status = self.turn, status
        career.torpor |= status == "torpor"
        career.frenzied |= status == "frenzy"
        career.rotschreck |= status == "rotschreck"


HANDLERS: dict[type[Change], str] = {
    ch.TurnBegan: "_turn_began", ch.Phase: "_phase", ch.Rolled: "_rolled",
    ch.Initiative: "_initiative", ch.Hit: "_hit", ch.Missed: "_hit", ch.Damaged: "_damaged",
    ch.Became: "_became", ch.Mastery: "_mastery", ch.Ruled: "_ruled",
    ch.Triggered: "_triggered", ch.Spent: "_spent_change", ch.Fed: "_fed",
}
"""Change type -> the V20Facts method that reads it: (seq, event, change, the roll awaited
before the event)."""
