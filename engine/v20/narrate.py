"""Vampire V20 combat told per perspective: what the Storyteller, each side and a spectator may
know of every step (spec "Hidden information"), in the game's words.

Perspectives: the organiser is the Storyteller and sees everything; seat 0 is side A and seat 1
side B, each seeing all of its own characters; a spectator sees what both sides see alike.

Where the words go. An event's text says what its actor did; a change's text says what the
rules made of it, and a change that would only repeat its event says nothing (None):
- a Roll is chance's: its text is only its dice ("dice: 9 8 6 3 2 1"). What the roll was for,
  whose it was, against whom and with what, its pool, difficulty and successes are the Rolled
  change's ("Marcus Vell swings the club at Ilse Brandt: 6 dice at difficulty 7 -> 9 8 6 3 2 1,
  2 successes"), since the state after the step no longer awaits that roll; the turn's
  initiative is its Initiative change; the hit or miss, damage and statuses that follow are
  changes of their own;
- a decision (Declare, Defend, Abort, Commit, Concede) is told in full by its event, so the
  Declared change is None; the spends it leads to are Spent changes;
- the Storyteller's Rulings event counts its rulings, and each ruling's effect (a trigger, a
  path conflict, an award...) is its change; Confirm and NameDerangement tell themselves.

What is hidden (spec "Hidden information"); all of it is decided by `masked_change` and
`masked_event`, which both the words and the data (event_data, change_data) read, so the two
can never disagree:
- a side's Commit, until both are in: its spends are private and even their number is
  (events.v20.Commit, redacted by the base class); the other side reads "side B commits in
  secret", then the Spent changes once both are in (V20-4.1 phase 2);
- an opposing character's ratings and pools: a Conscience change's path and virtue ratings
  (V20-13.3 to 13.5), a Boosted change's new rating (V20-10.5), the Willpower an award actually
  restored (V20-11.4), since it tells how far the pool was from full;
- an opposing character's derangements: their names, named by the Storyteller (NameDerangement,
  Ruled "derangement", V20-13.5) or manifesting (Manifests, Ruled "manifests", V20-11.2);
- an ambusher's identity until its pair's rolls are in (V20-6.7): the ambusher's own roll is
  told to the other side and a spectator as "someone lies in wait", and the pair is named by
  the target's roll (the Ambushed change).
Every die, pool and difficulty, every declaration, spend, trigger and ruling, and every health
track and status are public, so they are told to everyone alike.

Names, never ids: a character by its party's name or its sheet's, with " (A)" or " (B)" where
both sides field the same name (a mirror match); a weapon by its catalog name.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.narration import Narration
from engine.ruleset import OMNISCIENT, SPECTATOR, Change, Outcome, Perspective
from engine.v20 import changes as ch
from engine.v20.catalog import load_catalog
from engine.v20.pools import POSITION_DICE
from engine.v20.state import SIDE_NAMES, State
from events.base import Header
from events.v20 import (
    Abort,
    Act,
    AppearHuman,
    Boost,
    Celerity,
    Commit,
    Concede,
    Confirm,
    Control,
    Declare,
    Defend,
    IgnoreWounds,
    Manifests,
    NameDerangement,
    Party,
    Resist,
    Roll,
    Rulings,
    Spend,
)

HIDDEN_FIELDS: dict[type, tuple[str, ...]] = {
    ch.Conscience: ("path", "virtue"),
    ch.Boosted: ("points",),
}
"""Change fields only the character's side and the Storyteller may read (its ratings)."""
HIDDEN_RULINGS = frozenset({"derangement", "manifests", "award"})
"""Ruled changes whose detail is the character's side's: a derangement's name, the Willpower
an award restored."""
UNKNOWN = "someone"
"""Who a masked character is, in words (an ambusher not yet revealed)."""


class V20Narration(Narration):
    """The game's narration (its registration's "narration" layer)."""

    def perspectives(self, header: Header) -> list[tuple[Perspective, str]]:
        sides: list[tuple[Perspective, str]] = [
            (seat.seat, f"Side {SIDE_NAMES[seat.seat]} · {seat.player}")
            for seat in header.seats if seat.seat in (0, 1)]
        return [(OMNISCIENT, "Storyteller (sees everything)"), *sides,
                (SPECTATOR, "Spectator (public)")]

    def hides_event(self, event: Any, perspective: Perspective) -> bool:
        """Every die is public (Hidden information): no event is told as a bare "happened"."""
        return False

    def masked_event(self, header: Header, event: Any, perspective: Perspective) -> Any:
        """The event with the derangement names `perspective` may not know blanked (V20-11.2,
        V20-13.5); a Commit's spends are blanked by the base class (events.base.redacted)."""
        seats = character_seats(header)

        def hidden(fid: str) -> bool:
            return not self.knows(header, perspective, seats.get(fid))

        if isinstance(event, NameDerangement) and hidden(event.character):
            return msgspec.structs.replace(event, derangement=None)
        if isinstance(event, Rulings):
            rulings = tuple(msgspec.structs.replace(r, derangement=None)
                            if isinstance(r, Manifests) and hidden(r.character) else r
                            for r in event.rulings)
            return msgspec.structs.replace(event, rulings=rulings)
        return event

    def masked_change(self, header: Header, change: Change, perspective: Perspective) -> Change:
        """The change with the fields `perspective` may not know set to None: another side's
        ratings and derangements, an ambusher's name before its pair is rolled (V20-6.7)."""
        fid = getattr(change, "character", "")
        if self.knows(header, perspective, character_seats(header).get(fid)):
            return change
        fields = HIDDEN_FIELDS.get(type(change), ())
        if isinstance(change, ch.Ruled) and change.ruling in HIDDEN_RULINGS:
            fields = ("detail",)
        if isinstance(change, ch.Rolled) and change.purpose == "ambush":
            fields = ("character", "opponent")
        return msgspec.structs.replace(change, **dict.fromkeys(fields)) if fields else change

    def event_data(self, header: Header, event: Any, perspective: Perspective
                   ) -> dict[str, Any]:
        return super().event_data(header, self.masked_event(header, event, perspective),
                                  perspective)

    def change_data(self, header: Header, change: Change, perspective: Perspective
                    ) -> dict[str, Any]:
        return super().change_data(header, self.masked_change(header, change, perspective),
                                   perspective)

    def event_text(self, header: Header, state: Any, event: Any,
                   perspective: Perspective) -> str:
        say = EVENT_WORDS.get(type(event))
        if say is None:
            raise TypeError(f"no words for the V20 event {type(event).__name__}")
        words = Words.of(self, header, state, perspective)
        return say(words, self.masked_event(header, event, perspective))

    def change_text(self, header: Header, state: Any, change: Change,
                    perspective: Perspective) -> str | None:
        say = CHANGE_WORDS.get(type(change))
        if say is None:
            raise TypeError(f"no words for the V20 change {type(change).__name__}")
        words = Words.of(self, header, state, perspective)
        return say(words, self.masked_change(header, change, perspective))

    def outcome_text(self, header: Header, outcome: Outcome | None) -> str:
        """"side A wins (Ana: The coterie): side B is out of the fight (V20-14.1)", or a
        draw."""
        if outcome is None:
            return "the log stops before the match ends"
        return result_words(header, outcome.results, outcome.reason, outcome.rule)


def character_seats(header: Header) -> dict[str, int]:
    """Each character's id -> the seat of its side, from the parties the header seats."""
    return {f.id: seat.seat for seat in header.seats if isinstance(seat.setup, Party)
            for f in seat.setup.fighters}


def display_names(header: Header) -> dict[str, str]:
    """Each character's id -> its name: the party's, else its sheet's; a name both sides field
    gets its side's letter, and a name a side fields twice its place too ("Marcus Vell (A2)")."""
    sheets = load_catalog().characters
    listed = [(SIDE_NAMES[seat.seat] if seat.seat in (0, 1) else "?", f.id,
               f.name or (sheets[f.character].name if f.character in sheets else "a stranger"))
              for seat in header.seats if isinstance(seat.setup, Party)
              for f in seat.setup.fighters]
    names: dict[str, str] = {}
    for side, fid, name in listed:
        same = [other for s, other, n in listed if n == name]
        mine = [other for s, other, n in listed if n == name and s == side]
        if len(same) == 1:
            names[fid] = name
        elif len(mine) == 1:
            names[fid] = f"{name} ({side})"
        else:
            names[fid] = f"{name} ({side}{mine.index(fid) + 1})"
    return names


def result_words(header: Header, results: Iterable[str], reason: str, rule: str) -> str:
    """The winning side with its player and party, or a draw, then why (V20-14.1, 14.2)."""
    won = [seat for seat, result in enumerate(results) if result == "win"]
    if not won:
        return f"draw: {reason} ({rule})"
    seat = won[0]
    player = next((s.player for s in header.seats if s.seat == seat), f"side {seat}")
    party = next((s.setup.name for s in header.seats
                  if s.seat == seat and isinstance(s.setup, Party)), "")
    who = f"{player}: {party}" if party else player
    return f"side {SIDE_NAMES[seat]} wins ({who}): {reason} ({rule})"


# Phrasing ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Words:
    """What the phrasing of one step needs: names, whose secrets the perspective knows, and the
    state right after the step."""

    narration: V20Narration
    header: Header
    state: State
    perspective: Perspective
    names: Mapping[str, str]
    seats: Mapping[str, int]

    @classmethod
    def of(cls, narration: V20Narration, header: Header, state: Any,
           perspective: Perspective) -> Words:
        return cls(narration, header, state, perspective, display_names(header),
                   character_seats(header))

    def who(self, fid: str | None) -> str:
        """A character by name; UNKNOWN for one masked for this perspective (None)."""
        if fid is None:
            return UNKNOWN
        return self.names.get(fid, "a stranger")

    def whose(self, fid: str | None) -> str:
        return f"{self.who(fid)}'s"

    def knows(self, fid: str) -> bool:
        """Whether the perspective may see the sheet of character `fid` (its side's and the
        Storyteller's)."""
        return self.narration.knows(self.header, self.perspective, self.seats.get(fid))

    def side(self, seat: int) -> str:
        return f"side {SIDE_NAMES[seat]}" if seat in (0, 1) else f"side {seat}"


def count(n: int, thing: str, plural: str | None = None) -> str:
    return f"{n} {thing if n == 1 else plural or thing + 's'}"


def listed(parts: list[str]) -> str:
    if len(parts) <= 1:
        return parts[0] if parts else "nothing"
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def words_for(key: str) -> str:
    """An engine keyword in words, for those a table does not list ("final_death")."""
    return key.replace("_", " ")


def weapon(wid: str | None) -> str:
    """A weapon with its article, by its catalog name: "a punch", "the heavy pistol"."""
    catalog = load_catalog()
    found = catalog.weapons.get(wid or "")
    if found is None:
        return "a weapon"
    name = found.name[:1].lower() + found.name[1:]
    return f"a {name}" if found.id in catalog.unarmed else f"the {name}"


ATTACK_BY_WEAPON = {"punch": "throws a punch at {target}", "kick": "kicks at {target}",
                    "claws": "rakes at {target} with the claws"}
ATTACK_BY_ABILITY = {"melee": "swings {weapon} at {target}", "firearms": "fires {weapon} at "
                     "{target}", "athletics": "throws {weapon} at {target}",
                     "brawl": "strikes at {target} with {weapon}"}
"""An attack as it is made (V20-6.1): by the weapon where it has its own verb, else by its
ability."""


def attack_words(w: Words, target: str | None, wid: str | None) -> str:
    found = load_catalog().weapons.get(wid or "")
    how = ATTACK_BY_WEAPON.get(wid or "") or ATTACK_BY_ABILITY.get(
        found.ability if found else "", "attacks {target} with {weapon}")
    return how.format(target=w.who(target), weapon=weapon(wid))


def dice_words(dice: Iterable[int]) -> str:
    return " ".join(str(d) for d in dice) or "no dice"


def result(successes: int, botch: bool) -> str:
    if botch:
        return "a botch"
    return "no success" if successes < 1 else count(successes, "success", "successes")


def roll_words(c: ch.Rolled) -> str:
    """"6 dice at difficulty 7 -> 9 8 6 3 2 1, 2 successes", with automatic successes
    (V20-2.7) and a specialty's doubled tens (V20-2.5) said where they count."""
    notes = [f"{c.auto} automatic"] if c.auto else []
    notes += ["specialty: tens count twice"] if c.specialty else []
    told = f"{count(c.pool, 'die', 'dice')} at difficulty {c.difficulty} -> {dice_words(c.dice)}"
    told += f", {result(c.successes, c.botch)}"
    return told + (f" ({'; '.join(notes)})" if notes else "")


# Rolls ------------------------------------------------------------------------------------------

ROLL_WORDS = {
    "block": "{who}'s block", "dodge": "{who}'s dodge", "parry": "{who}'s parry",
    "damage": "{who}'s damage", "soak": "{who}'s soak",
    "abort": "{who}'s Willpower roll to abort to full defense (V20-5.7)",
    "heal": "{who}'s Stamina + Survival roll to heal (V20-5.8)",
    "notice": "{who} watches for danger with Perception + Alertness (V20-6.7)",
    "frenzy": "{who} fights the Beast with Self-Control (V20-12.1)",
    "rotschreck": "{who} fights the Red Fear with Courage (V20-12.9)",
}
"""What a roll was for, by its purpose (engine.v20.state.Step.purpose); attacks, ambushes and
conscience rolls have their own words (ROLLED_BY)."""


def _attack_rolled(w: Words, c: ch.Rolled) -> str:
    """The attack as it is made, at its target with its weapon (the roll's own fields)."""
    if c.opponent is None or c.weapon is None:
        return f"{w.who(c.character)} attacks"
    return f"{w.who(c.character)} {attack_words(w, c.opponent, c.weapon)}"


def _ambush_rolled(w: Words, c: ch.Rolled) -> str:
    """The ambusher's roll (V20-6.7): its victim is the target whose roll comes next; to whom
    may not know the ambush yet, nobody in particular."""
    if c.character is None:
        return f"{UNKNOWN} lies in wait with Dexterity + Stealth (V20-6.7)"
    head = w.state.queue[0] if w.state.queue else None
    victim = w.who(head.character) if head is not None and head.purpose == "notice" \
        else "a victim"
    return f"{w.who(c.character)} stalks {victim} with Dexterity + Stealth (V20-6.7)"


def _conscience_rolled(w: Words, c: ch.Rolled) -> str:
    """Conscience or Conviction (V20-13.1): which one the character holds is its sheet's."""
    f = w.state.fighters.get(c.character or "")
    virtue = "Conviction" if f is not None and f.sheet.has_conviction else "Conscience"
    held = f" with {virtue}" if f is not None and w.knows(f.id) else ""
    return f"{w.who(c.character)} answers for acting against the path{held} (V20-13.1)"


ROLLED_BY: dict[str, Callable[[Words, ch.Rolled], str]] = {
    "attack": _attack_rolled, "ambush": _ambush_rolled, "conscience": _conscience_rolled,
}


def _rolled(w: Words, c: ch.Rolled) -> str:
    say = ROLLED_BY.get(c.purpose)
    what = say(w, c) if say is not None else ROLL_WORDS.get(
        c.purpose, "{who}'s " + words_for(c.purpose) + " roll").format(who=w.who(c.character))
    return f"{what}: {roll_words(c)}"


# Combat -----------------------------------------------------------------------------------------

MISSES = {"no successes": "{attacker} misses {target} with {weapon}",
          "botch": "{attacker} botches the attack on {target} with {weapon} (V20-2.8)",
          "defended": "{attacker} misses {target} with {weapon}: the defense holds (V20-7.1)"}
STATUSES = {"incapacitated": "Incapacitated (V20-9.1)",
            "torpor": "in torpor (V20-9.4)", "final_death": "destroyed: Final Death (V20-9.3)",
            "dead": "dead (V20-9.6)"}
BECAME = {"gone": "{who} flees the scene (V20-5.9)",
          "npc": "{who} has lost the path: an NPC now, out of the fight (V20-13.6)",
          "torpor": "{who} sinks into torpor (V20-9.5)", "dead": "{who} dies (V20-5.11)",
          "active": "{who} can act again (V20-10.3)"}
FORFEITS = {"no target": "its target has left the fight (V20-6.12)",
            "full defense": "it is on full defense (V20-5.6)",
            "no rounds": "the weapon has no rounds left (V20-5.10)",
            "no dice left": "its wounds leave it no dice (V20-5.12)",
            "the roll failed": "the roll failed (V20-10.3)",
            "the vessel is gone": "the vessel has left the scene (V20-5.11)"}
"""Why an action was lost, in words (engine.v20.changes.Forfeited.why)."""


def _missed(w: Words, c: ch.Missed) -> str:
    told = MISSES.get(c.why, "{attacker} misses {target} with {weapon}")
    return told.format(attacker=w.who(c.attacker), target=w.who(c.target),
                       weapon=weapon(c.weapon))


def _boxes(drawing: str) -> int:
    """The boxes a track drawing fills ("1X + 6/" -> 7; "none" -> 0)."""
    return sum(int(part[:-1]) for part in drawing.split(" + ") if part[:-1].isdigit())


def _damaged(w: Words, c: ch.Damaged) -> str:
    """V20-8.7: the levels left after soak, bashing halved for a vampire; then the track
    (V20-9.2) and the level or status it leaves."""
    rolled = f"{c.damage} damage, {c.soaked} soaked"
    f = w.state.fighters.get(c.character)
    if f is not None and f.kind == "vampire" and c.damage_type == "bashing" \
            and c.damage > c.soaked:
        rolled += "; a vampire halves bashing, V20-8.7"
    if not c.levels:
        return f"{w.who(c.character)} takes no harm ({rolled})"
    level = load_catalog().wound(min(_boxes(c.track), 7))[0]
    now = level if c.status == "active" else STATUSES.get(c.status, words_for(c.status))
    return (f"{w.who(c.character)} takes {count(c.levels, c.damage_type + ' level')} "
            f"({rolled}): {c.track}, {now}")


def _forfeited(w: Words, c: ch.Forfeited) -> str:
    why = FORFEITS.get(c.why)
    if why is None and c.why.startswith("it is "):
        status = c.why.removeprefix("it is ")
        why = "it can no longer act (V20-4.3)" if status == "active" else \
            f"it is {STATUSES.get(status, words_for(status))}"
    if why is None and c.why.startswith("no "):
        why = "nothing to heal, or no blood to heal with (V20-10.3)"
    return f"{w.whose(c.character)} {words_for(c.action)} is lost: {why or words_for(c.why)}"


def _counter(w: Words, c: ch.Counter) -> str:
    return (f"{w.whose(c.parrier)} parry turns into a counter-blow on {w.who(c.attacker)}: "
            f"{count(c.successes, 'success', 'successes')}, undefendable (V20-7.5)")


def _ambushed(w: Words, c: ch.Ambushed) -> str:
    ambusher, target = w.who(c.ambusher), w.who(c.target)
    if c.result == "free_attack":
        return (f"{ambusher} ambushes {target}: a free attack with "
                f"{count(c.bonus, 'extra success', 'extra successes')}, undefendable "
                "(V20-6.8, V20-6.9)")
    if c.result == "first":
        return (f"{ambusher} and {target} tie: {ambusher} strikes first and {target} may "
                "defend (V20-6.8)")
    return f"{target} spots {ambusher} lying in wait: normal initiative (V20-6.8)"


def _initiative(w: Words, c: ch.Initiative) -> str:
    """V20-4.2: highest first, each total with its die (totals and dice are public)."""
    dice = dict(zip(c.rolled, c.dice))
    order = [f"{w.who(fid)} {total}" + (f" (die {dice[fid]})" if fid in dice else "")
             for fid, total in zip(c.order, c.totals)]
    return f"initiative: {', '.join(order)} (V20-4.2)"


# Blood, Willpower, virtues ----------------------------------------------------------------------

SPENT_FOR = {"celerity": "on Celerity (V20-5.5)", "heal": "to heal (V20-10.3)",
             "boost": "to raise an Attribute (V20-10.5)",
             "appear_human": "to appear human (V20-10.6)",
             "ignore_wounds": "to ignore wound penalties this turn (V20-11.3)",
             "control": "to keep control this turn (V20-12.8, V20-12.11)",
             "resist": "to stop a derangement manifesting (V20-11.2)",
             "success": "for an automatic success (V20-11.1)",
             "abort": "to abort to full defense (V20-5.7)"}
POOLS = {"blood": ("blood point", "blood points"), "willpower": ("Willpower point",
                                                                  "Willpower points")}
TESTS = {"frenzy": ("frenzy", "the Beast", "V20-12.1"),
         "rotschreck": ("Rötschreck", "the Red Fear", "V20-12.9")}
"""An extended test (V20-12): its name, what the character fights, the rule that starts it."""
MASTERY = {"frenzy": "{who} frenzies (V20-12.2, V20-12.8)",
           "rotschreck": "{who} falls into Rötschreck and must flee (V20-12.10)",
           "resisted": "{who} masters {foe}: {successes} gathered (V20-12.2)",
           "over": "the threat is over: {who} no longer fights {foe} (V20-12.2)"}


def _spent(w: Words, c: ch.Spent) -> str:
    one, many = POOLS.get(c.pool, (c.pool + " point", c.pool + " points"))
    why = SPENT_FOR.get(c.purpose, "on " + words_for(c.purpose))
    return f"{w.who(c.character)} spends {count(c.points, one, many)} {why}"


def _boosted(w: Words, c: ch.Boosted) -> str:
    """The new rating is the character's side's; everyone sees that it rose (V20-10.5)."""
    trait = c.attribute.capitalize()
    if c.points is None:
        return f"{w.whose(c.character)} {trait} rises for the scene (V20-10.5)"
    return f"{w.whose(c.character)} {trait} rises to {c.points} for the scene (V20-10.5)"


def _conscience(w: Words, c: ch.Conscience) -> str:
    """V20-13.3 to 13.5: the loss is public (the dice tell it), the ratings left are not. A
    botch is the one that leaves the Storyteller a derangement to name."""
    who = w.who(c.character)
    head = w.state.queue[0] if w.state.queue else None
    if head is not None and head.what == "derangement" and head.character == c.character:
        told = f"{who} loses a path point and a virtue point, and gains a derangement (V20-13.5)"
    elif c.lost:
        told = f"{who} loses a path point (V20-13.4)"
    else:
        told = f"{who} keeps to the path (V20-13.3)"
    f = w.state.fighters.get(c.character)
    if c.path is None or f is None:
        return told
    path = load_catalog().paths[f.sheet.path.id].name
    return f"{told}: {path} {c.path}, {f.sheet.path_virtue.capitalize()} {c.virtue}"


def _test_words(test: str) -> tuple[str, str, str]:
    return TESTS.get(test, (words_for(test), words_for(test), "V20-12.1"))


def _mastery(w: Words, c: ch.Mastery) -> str:
    foe = _test_words(c.test)[1]
    told = MASTERY.get(c.result, "{who}: " + words_for(c.result))
    return told.format(who=w.who(c.character), foe=foe,
                       successes=count(c.successes, "success", "successes"))


def _trigger_cause(test: str, cause: str) -> str:
    catalog = load_catalog()
    table = catalog.frenzy_triggers if test == "frenzy" else catalog.rotschreck_triggers
    found = table.get(cause)
    return found.name.lower() if found is not None else words_for(cause)


def _triggered(w: Words, c: ch.Triggered) -> str:
    """A trigger and its difficulty are public (Hidden information); one on a character
    already frenzied, or already fighting the same urge, is ignored (V20-12.7)."""
    name, foe, rule = _test_words(c.test)
    cause = _trigger_cause(c.test, c.cause)
    if c.ignored:
        return (f"{w.who(c.character)} is already in the grip of {foe} or fighting it: the "
                f"{name} trigger ({cause}) is ignored (V20-12.7)")
    return (f"{w.who(c.character)} faces {name}: {cause}, difficulty {c.difficulty}; five "
            f"successes master {foe} ({rule})")


# The Storyteller's rulings (V20-1.1) ------------------------------------------------------------

def _position(w: Words, c: ch.Ruled) -> str:
    position, _, verdict = c.detail.partition(" ")
    if verdict == "confirmed":
        bonus = count(POSITION_DICE.get(position, 0), "die", "dice")
        return f"{w.whose(c.character)} {position} attack is confirmed: +{bonus} (V20-6.4)"
    return f"{w.whose(c.character)} {position} attack is denied: no bonus dice (V20-6.4)"


def _award(w: Words, c: ch.Ruled) -> str:
    """What an award restored tells how far the pool was from full: the side's alone."""
    told = f"the Storyteller awards {w.who(c.character)} Willpower"
    if c.detail is None:
        return told + " (V20-11.4)"
    gained = int(c.detail) if c.detail.isdigit() else 0
    return f"{told}: {count(gained, 'point')} regained (V20-11.4)"


def _manifests(w: Words, c: ch.Ruled) -> str:
    if c.detail is None:
        return f"a derangement of {w.who(c.character)} manifests (V20-11.2)"
    return f"{w.whose(c.character)} {c.detail} manifests (V20-11.2)"


RULED: dict[str, Callable[[Words, ch.Ruled], str | None]] = {
    "committed": lambda w, c: None,  # the Commit event says it
    "derangement": lambda w, c: None,  # the NameDerangement event says it
    "position": _position,
    "path_conflict": lambda w, c: (f"the Storyteller rules that {w.who(c.character)} acted "
                                   "against the path: a roll follows (V20-13.1)"),
    "blind": lambda w, c: (f"{w.who(c.character)} fights blind: +2 difficulty (V20-6.5)"
                           if c.detail == "True" else
                           f"{w.who(c.character)} no longer fights blind (V20-6.5)"),
    "award": _award,
    "cornered": lambda w, c: (f"{w.who(c.character)} is cornered and fights as in frenzy "
                              "(V20-12.10)"),
    "frenzy_ends": lambda w, c: f"{w.whose(c.character)} frenzy ends (V20-12.8)",
    "manifests": _manifests,
}


def _ruled(w: Words, c: ch.Ruled) -> str | None:
    say = RULED.get(c.ruling)
    if say is None:
        return f"the Storyteller rules on {w.who(c.character)}: {words_for(c.ruling)}"
    return say(w, c)


def _ended(w: Words, c: ch.Ended) -> str:
    results = w.state.results or ("draw", "draw")
    return "the fight is over: " + result_words(w.header, results, c.reason, c.rule)


ChangeWords = Callable[[Words, Any], "str | None"]
CHANGE_WORDS: dict[type, ChangeWords] = {
    ch.TurnBegan: lambda w, c: f"turn {c.turn} begins",
    ch.Phase: lambda w, c: None,  # a marker: the steps around it say the phase
    ch.Rolled: _rolled,
    ch.Initiative: _initiative,
    ch.Declared: lambda w, c: None,  # the Declare event says it all
    ch.Spent: _spent,
    ch.Boosted: _boosted,
    ch.Hit: lambda w, c: (f"{w.who(c.attacker)} hits {w.who(c.target)} with "
                          f"{weapon(c.weapon)}: "
                          f"{count(c.successes, 'success', 'successes')} (V20-7.1)"),
    ch.Missed: _missed,
    ch.Forfeited: _forfeited,
    ch.Counter: _counter,
    ch.Damaged: _damaged,
    ch.Became: lambda w, c: BECAME.get(c.status, "{who} is now " + words_for(c.status)).format(
        who=w.who(c.character)),
    ch.Healed: lambda w, c: (f"{w.who(c.character)} heals a {c.damage_type} box: "
                             f"{'no damage left' if c.track == 'none' else c.track} (V20-10.3)"),
    ch.Fed: lambda w, c: (f"{w.who(c.character)} feeds on {w.who(c.vessel)}: "
                          f"{count(c.points, 'blood point')} (V20-5.11)"),
    ch.Reloaded: lambda w, c: (f"{w.who(c.character)} reloads {weapon(c.weapon)}: "
                               f"{count(c.rounds, 'round')} (V20-5.10)"),
    ch.FullDefense: lambda w, c: f"{w.who(c.character)} goes on full defense (V20-5.6)",
    ch.Mastery: _mastery,
    ch.Triggered: _triggered,
    ch.Ruled: _ruled,
    ch.Conscience: _conscience,
    ch.Ambushed: _ambushed,
    ch.Ended: _ended,
}
"""Each change kind in words, from the change as the perspective may see it (masked)."""


# Events -----------------------------------------------------------------------------------------

SPEND_WORDS: dict[type, Callable[[Words, Any], str]] = {
    Celerity: lambda w, s: (f"{w.who(s.character)} activates "
                            f"{count(s.actions, 'Celerity action')}"),
    IgnoreWounds: lambda w, s: f"{w.who(s.character)} ignores wound penalties",
    Boost: lambda w, s: (f"{w.who(s.character)} raises {s.attribute.capitalize()} by "
                         f"{s.points}"),
    Control: lambda w, s: f"{w.who(s.character)} keeps control",
    AppearHuman: lambda w, s: f"{w.who(s.character)} appears human",
    Resist: lambda w, s: f"{w.who(s.character)} resists a derangement",
}
"""A phase-2 commitment (events.v20.Spend), as its side and the Storyteller read it."""


def _commit(w: Words, ev: Commit) -> str:
    """V20-4.1 phase 2: another perspective reads the same words whatever the commit holds,
    even how many spends; once both sides are in, the Spent changes tell them to all."""
    side = w.side(ev.seat)
    if not w.narration.knows(w.header, w.perspective, ev.seat):
        told = f"{side} commits in secret"
    elif ev.spends:
        told = f"{side} commits: {listed([_spend(w, s) for s in ev.spends])}"
    else:
        told = f"{side} commits nothing"
    if ev.seat not in w.state.committed:
        told += "; both sides' commitments are revealed (V20-4.1)"
    return told


def _spend(w: Words, spend: Spend) -> str:
    say = SPEND_WORDS.get(type(spend))
    return say(w, spend) if say is not None else f"{w.who(spend.character)} spends"


AIMS = {"medium": "a limb", "small": "a small target", "precise": "a precise target"}
POSITIONS = {"flank": "from the flank", "rear": "from behind"}
ACT_WORDS = {"block": "block", "dodge": "dodge", "parry": "parry",
             "full_defense": "full defense", "flee": "flee"}


def _act(w: Words, act: Act) -> str:
    """One declared action (V20-5.1) with what it claims: aim (V20-6.6), position (V20-6.4),
    a specialty (V20-2.12), Willpower for a success (V20-11.1)."""
    if act.action == "attack":
        told = f"attack {w.who(act.target)} with {weapon(act.weapon)}"
    elif act.action == "heal":
        told = f"heal a {act.heal or 'damaged'} box"
    elif act.action == "feed":
        told = f"feed on {w.who(act.target)}, up to {count(act.amount, 'blood point')}"
    elif act.action == "reload":
        told = f"reload {weapon(act.weapon)}"
    else:
        told = ACT_WORDS.get(act.action, words_for(act.action))
    if act.action == "parry" and act.weapon:
        told += f" with {weapon(act.weapon)}"
    told += f", aimed at {AIMS[act.aim]}" if act.aim in AIMS else ""
    told += f", {POSITIONS[act.position]}" if act.position in POSITIONS else ""
    told += ", claiming a specialty" if act.specialty else ""
    return told + (", with Willpower for a success" if act.willpower else "")


def _declare(w: Words, ev: Declare) -> str:
    """Phase 4, public once made (V20-4.5): the regular actions in order (several: V20-5.2),
    then the Celerity extra actions (V20-5.5). Before turn 1 it is an ambush's free attack."""
    who = w.who(ev.character)
    if w.state.turn == 0:
        return f"{who} strikes from ambush: {listed([_act(w, a) for a in ev.actions])}"
    told = f"{who} declares: " + ", then ".join(_act(w, a) for a in ev.actions)
    if len(ev.actions) > 1:
        told += " (multiple actions, V20-5.2)"
    if ev.extra:
        told += "; Celerity: " + ", then ".join(_act(w, a) for a in ev.extra)
    return told


def _defend(w: Words, ev: Defend) -> str:
    """V20-7.6: the defense chosen once the attack's dice are in, against the attack the
    state after it still resolves."""
    head = w.state.queue[0] if w.state.queue else None
    attack = head.attack if head is not None else None
    blow = (f"{w.whose(attack.attacker)} attack with {weapon(attack.act.weapon)}"
            if attack is not None else "the attack")
    if ev.defense is None:
        return f"{w.who(ev.character)} does not defend against {blow}"
    return f"{w.who(ev.character)} chooses to {ev.defense} {blow} (V20-7.6)"


def _abort(w: Words, ev: Abort) -> str:
    how = "spending Willpower" if ev.willpower else "rolling Willpower"
    return f"{w.who(ev.character)} tries to abort to full defense, {how} (V20-5.7)"


def _rulings(w: Words, ev: Rulings) -> str:
    if not ev.rulings:
        return "the Storyteller makes no ruling"
    return f"the Storyteller makes {count(len(ev.rulings), 'ruling')} (V20-1.1)"


def _name_derangement(w: Words, ev: NameDerangement) -> str:
    if ev.derangement is None:
        return f"the Storyteller names a new derangement for {w.who(ev.character)} (V20-13.5)"
    return (f"the Storyteller names {w.whose(ev.character)} new derangement: "
            f"{ev.derangement} (V20-13.5)")


EventWords = Callable[[Words, Any], str]
EVENT_WORDS: dict[type, EventWords] = {
    Roll: lambda w, ev: f"dice: {dice_words(ev.dice)}",
    Rulings: _rulings,
    Confirm: lambda w, ev: (f"the Storyteller {'confirms' if ev.confirmed else 'denies'} "
                            "the attack's position (V20-6.4)"),
    NameDerangement: _name_derangement,
    Commit: _commit,
    Declare: _declare,
    Defend: _defend,
    Abort: _abort,
    Concede: lambda w, ev: f"{w.side(ev.seat)} concedes (V20-14.2)",
}

NARRATION = V20Narration()
"""The game's "narration" layer (engine/v20/game.py)."""
