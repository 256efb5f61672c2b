"""Swiss pairing: each round pairs players of equal score, never twice the same pair if avoidable.

Match points: win 3, draw 1, loss 0; a bye (odd player count) is a win without a match, given to
the lowest-ranked player who has not had one yet. Pairing takes players in rank order and pairs
each with the nearest-ranked opponent not met before, backtracking when that leaves someone
unpairable; when no rematch-free pairing is found within a search budget (many rounds for few
players), it pairs in rank order allowing the fewest rematches greedily. Ties break by
opponents' match-win percentage (floored at 1/3, as in the usual TCG tournament rules), then by
the initial seeding.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

WIN, DRAW, LOSS = 3, 1, 0
MIN_OMW = 1 / 3
SEARCH_BUDGET = 20_000


@dataclass
class Record:
    name: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)

    @property
    def points(self) -> int:
        return WIN * self.wins + DRAW * self.draws

    @property
    def played(self) -> int:
        """Rounds played, byes included."""
        return self.wins + self.losses + self.draws

    def match_win_rate(self) -> float:
        return max(MIN_OMW, self.points / (WIN * self.played)) if self.played else MIN_OMW


@dataclass(frozen=True)
class Pairing:
    tables: list[tuple[str, str]]
    """(higher-ranked, lower-ranked) per table, table 1 first."""
    bye: str | None


class Swiss:
    """The state of one Swiss event: records per player and who met whom."""

    def __init__(self, seeding: Sequence[str]) -> None:
        if len(set(seeding)) != len(seeding):
            raise ValueError("player names must be unique")
        self.records = {name: Record(name) for name in seeding}
        self._seed = {name: i for i, name in enumerate(seeding)}

    def start_round(self) -> Pairing:
        """Pair the next round; the bye, if any, is recorded at once as a win."""
        order = sorted(self.records.values(), key=lambda r: (-r.points, self._seed[r.name]))
        names = [r.name for r in order]
        bye = self._choose_bye(names) if len(names) % 2 else None
        if bye is not None:
            names.remove(bye)
            self.records[bye].wins += 1
            self.records[bye].byes += 1
        return Pairing(tables=self._pair(names), bye=bye)

    def record(self, a: str, b: str, winner: str | None) -> None:
        """Record a played match; winner None is a draw."""
        ra, rb = self.records[a], self.records[b]
        ra.opponents.append(b)
        rb.opponents.append(a)
        if winner is None:
            ra.draws += 1
            rb.draws += 1
            return
        won, lost = (ra, rb) if winner == a else (rb, ra)
        won.wins += 1
        lost.losses += 1

    def omw(self, name: str) -> float:
        """Opponents' match-win percentage: the strength of schedule that breaks ties."""
        opponents = self.records[name].opponents
        if not opponents:
            return 0.0
        return sum(self.records[o].match_win_rate() for o in opponents) / len(opponents)

    def standings(self) -> list[Record]:
        return sorted(self.records.values(),
                      key=lambda r: (-r.points, -self.omw(r.name), self._seed[r.name]))

    def met(self, a: str, b: str) -> bool:
        return b in self.records[a].opponents

    def _choose_bye(self, ranked: list[str]) -> str:
        fresh = [n for n in ranked if not self.records[n].byes]
        return (fresh or ranked)[-1]

    def _pair(self, ranked: list[str]) -> list[tuple[str, str]]:
        budget = [SEARCH_BUDGET]
        found = self._pair_fresh(ranked, budget)
        return found if found is not None else self._pair_greedy(ranked)

    def _pair_fresh(self, pool: list[str], budget: list[int]) -> list[tuple[str, str]] | None:
        """Rematch-free pairing by depth-first search, nearest-ranked opponents first."""
        if not pool:
            return []
        first, rest = pool[0], pool[1:]
        for i, opponent in enumerate(rest):
            if self.met(first, opponent):
                continue
            budget[0] -= 1
            if budget[0] < 0:
                return None
            tail = self._pair_fresh(rest[:i] + rest[i + 1:], budget)
            if tail is not None:
                return [(first, opponent), *tail]
        return None

    def _pair_greedy(self, ranked: list[str]) -> list[tuple[str, str]]:
        pool, tables = list(ranked), []
        while pool:
            first = pool.pop(0)
            fresh = [o for o in pool if not self.met(first, o)]
            opponent = (fresh or pool)[0]
            pool.remove(opponent)
            tables.append((first, opponent))
        return tables
