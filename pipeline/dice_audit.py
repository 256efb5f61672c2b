"""The dice-fairness audit of V20 logs: are the logged d10s what fair dice would roll?

Each roll falls in a cell, the things its law depends on: its kind (pipeline/sql/v20/
dice_fairness.sql), pool, difficulty, specialty, automatic successes and whether it can botch.
The law of a cell is exact (engine.v20.dice.distribution, the rules' own reading of V20-2);
an initiative die is a bare d10, its faces 1-10 alike. A cell with enough rolls (MIN_ROLLS) is
tested with Pearson's chi-square goodness of fit, after pooling neighbouring outcomes until each
bin expects at least MIN_EXPECTED rolls (the usual condition for the chi-square approximation;
an outcome the law cannot give at all is flagged outright).

A loaded die shifts every cell the same way, so each kind of roll also gets one row for all
its tested cells together (scope "kind"): the cells are independent samples, so the sum of
their statistics is a chi-square with the sum of their degrees of freedom, and it sees a bias
too small for any one cell.

Many tests are made at once, so a fair season would flag one in a thousand at p < 0.001 by
chance alone: a row is `loaded` when its p-value times the number of tests made (cells and
kinds; Bonferroni) is below ALPHA, so the whole table of a fair season flags anything less than
once in a thousand seasons.

`fairness` is the Python step of the metric model dice_fairness (the `-- python:` declaration
of pipeline.metrics): it takes the query's outcome counts and returns the table reports show.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pandas as pd
from scipy.stats import chi2 as chi2_law
from scipy.stats import chisquare

from engine.v20.dice import BOTCH, Distribution, distribution, outcome_name

MIN_ROLLS = 30
"""A cell with fewer rolls is not tested: too few for any outcome count to say much."""
MIN_EXPECTED = 5.0
ALPHA = 0.001
"""The family-wise level of `loaded` (Bonferroni over the cells tested)."""
CELL = ("kind", "pool", "difficulty", "specialty", "auto", "can_botch")
INITIATIVE = "initiative"
FACES: Distribution = {face: Fraction(1, 10) for face in range(1, 11)}
COLUMNS = ("scope", *CELL, "rolls", "outcomes", "bins", "df", "observed", "expected", "mean_observed",
           "mean_expected", "chi2", "p_value", "p_bonferroni", "loaded", "note")


@dataclass(frozen=True)
class Verdict:
    """One cell's test: its counts against the law, the statistic and the p-value."""

    observed: dict[int, int]
    law: Distribution
    bins: int
    chi2: float | None
    p_value: float | None
    note: str = ""


def law_of(kind: str, pool: int, difficulty: int | None, specialty: bool, auto: int,
           can_botch: bool) -> Distribution:
    """The exact law of a cell's outcome: an initiative die's face, else the roll's net
    successes (BOTCH for a botch)."""
    if kind == INITIATIVE:
        return FACES
    if difficulty is None:
        raise ValueError(f"a {kind} roll has a difficulty")
    return distribution(pool, difficulty, specialty=specialty, auto=auto, can_botch=can_botch)


def pooled(observed: Sequence[int], expected: Sequence[float]) -> tuple[list[int], list[float]]:
    """Neighbouring outcomes (in the law's order) merged until each bin expects MIN_EXPECTED
    rolls; a short last bin joins the one before it."""
    obs: list[int] = []
    exp: list[float] = []
    run_o, run_e = 0, 0.0
    for o, e in zip(observed, expected, strict=True):
        run_o, run_e = run_o + o, run_e + e
        if run_e >= MIN_EXPECTED:
            obs.append(run_o)
            exp.append(run_e)
            run_o, run_e = 0, 0.0
    if run_e > 0 or run_o:
        if obs:
            obs[-1], exp[-1] = obs[-1] + run_o, exp[-1] + run_e
        else:
            obs, exp = [run_o], [run_e]
    return obs, exp


def judge_cell(observed: Mapping[int, int], law: Distribution) -> Verdict:
    """Chi-square goodness of fit of the counts against the law; an impossible outcome gives
    p = 0, and a cell that pools into one bin cannot be tested (p None)."""
    counts = {key: int(n) for key, n in observed.items()}
    impossible = sorted(key for key in counts if key not in law)
    if impossible:
        names = ", ".join(outcome_name(k) for k in impossible)
        return Verdict(counts, law, 0, None, 0.0, f"impossible outcome(s): {names}")
    n = sum(counts.values())
    keys = sorted(law)
    obs, exp = pooled([counts.get(k, 0) for k in keys], [n * float(law[k]) for k in keys])
    if len(obs) < 2:
        return Verdict(counts, law, len(obs), None, None, "one bin after pooling: no test")
    stat, p = chisquare(obs, exp)
    return Verdict(counts, law, len(obs), float(stat), float(p))


def fairness(rows: pd.DataFrame, params: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The dice_fairness table: one row per cell with MIN_ROLLS rolls or more (and at least
    params["min_sample"]), its outcomes seen and expected, the test and the `loaded` flag; then
    one row per kind of roll with two tested cells or more, all its cells at once."""
    least = max(MIN_ROLLS, int((params or {}).get("min_sample") or 0))
    found = []
    for cell, group in cells(rows):
        if int(group["rolls"].sum()) < least:
            continue
        observed = dict(zip(group["outcome"].astype(int), group["rolls"].astype(int)))
        found.append((cell, judge_cell(observed, law_of(*cell))))
    kinds = combined(found)
    tested = sum(1 for _, v in found if v.p_value is not None) + len(kinds)
    table = pd.DataFrame([_row(cell, verdict, tested) for cell, verdict in found]
                         + [_kind_row(kind, verdict, tested) for kind, verdict in kinds],
                         columns=list(COLUMNS))
    return table.astype({"pool": "Int64", "difficulty": "Int64", "specialty": "boolean",
                         "auto": "Int64", "can_botch": "boolean", "rolls": "int64",
                         "outcomes": "Int64", "bins": "int64"})


@dataclass(frozen=True)
class KindVerdict:
    """A kind's tested cells together: a loaded die shifts every cell the same way, so the sum
    of the cells' statistics (independent samples: a chi-square with the sum of their degrees
    of freedom) finds a bias no single cell is large enough to show."""

    cells: int
    rolls: int
    bins: int
    df: int
    mean_observed: float
    mean_expected: float
    chi2: float
    p_value: float


def combined(found: Sequence[tuple[tuple[Any, ...], Verdict]]) -> list[tuple[str, KindVerdict]]:
    """One KindVerdict per kind with two tested cells or more (an impossible outcome in any
    of them makes the kind's p-value 0)."""
    by_kind: dict[str, list[Verdict]] = {}
    for cell, verdict in found:
        if verdict.p_value is not None:
            by_kind.setdefault(cell[0], []).append(verdict)
    out = []
    for kind, verdicts in by_kind.items():
        if len(verdicts) < 2:
            continue
        rolls = [sum(v.observed.values()) for v in verdicts]
        dfs = [max(v.bins - 1, 0) for v in verdicts]
        stat = sum(v.chi2 or 0.0 for v in verdicts)
        impossible = any(v.chi2 is None for v in verdicts)
        p = 0.0 if impossible else float(chi2_law.sf(stat, sum(dfs)))
        seen = sum(_mean_of(v.observed, n) * n for v, n in zip(verdicts, rolls))
        wanted = sum(_mean_of({k: n * float(q) for k, q in v.law.items()}, n) * n
                     for v, n in zip(verdicts, rolls))
        out.append((kind, KindVerdict(len(verdicts), sum(rolls), sum(v.bins for v in verdicts),
                                      sum(dfs), seen / sum(rolls), wanted / sum(rolls), stat,
                                      p)))
    return out


def cells(rows: pd.DataFrame) -> list[tuple[tuple[Any, ...], pd.DataFrame]]:
    """The rows grouped by cell, in a stable order (kind, pool, difficulty...); a null
    difficulty (an initiative die's) read as None."""
    if rows.empty:
        return []
    frame = rows.astype({"difficulty": "object"}).copy()
    frame["difficulty"] = [None if pd.isna(d) else int(d) for d in frame["difficulty"]]
    frame["_d"] = frame["difficulty"].fillna(-1)
    grouped = frame.groupby(["kind", "pool", "_d", "specialty", "auto", "can_botch"],
                            sort=True, dropna=False)
    return [((str(k), int(p), None if d == -1 else int(d), bool(s), int(a), bool(b)), group)
            for (k, p, d, s, a, b), group in grouped]


def _row(cell: tuple[Any, ...], verdict: Verdict, tested: int) -> tuple[Any, ...]:
    keys = sorted(set(verdict.law) | set(verdict.observed))
    n = sum(verdict.observed.values())
    seen = [verdict.observed.get(k, 0) for k in keys]
    wanted = [n * float(verdict.law.get(k, 0)) for k in keys]
    bonferroni = None if verdict.p_value is None else min(1.0, verdict.p_value * max(tested, 1))
    return ("cell", *cell, n, len(keys), verdict.bins, max(verdict.bins - 1, 0),
            _listing(keys, seen), _listing(keys, wanted), _mean(keys, seen, n),
            _mean(keys, wanted, n), verdict.chi2, verdict.p_value, bonferroni,
            bool(bonferroni is not None and bonferroni < ALPHA), verdict.note)


def _kind_row(kind: str, verdict: KindVerdict, tested: int) -> tuple[Any, ...]:
    bonferroni = min(1.0, verdict.p_value * max(tested, 1))
    return ("kind", kind, None, None, None, None, None, verdict.rolls, None, verdict.bins,
            verdict.df, None, None, verdict.mean_observed, verdict.mean_expected, verdict.chi2,
            verdict.p_value, bonferroni, bonferroni < ALPHA,
            f"its {verdict.cells} cells above together (the sum of their statistics)")


def _mean_of(counts: Mapping[int, float], n: int) -> float:
    keys = sorted(counts)
    return _mean(keys, [counts[k] for k in keys], n) or 0.0


def _listing(keys: Sequence[int], counts: Sequence[float]) -> str:
    """Outcome: count pairs in the law's order ("botch: 3, 0: 41.2, 1: 60"), botch named."""
    def show(v: float) -> str:
        return str(int(v)) if float(v).is_integer() else f"{v:.1f}"

    return ", ".join(f"{'botch' if k == BOTCH else k}: {show(c)}" for k, c in zip(keys, counts))


def _mean(keys: Sequence[int], counts: Sequence[float], n: int) -> float | None:
    """Mean outcome per roll, a botch counting 0 successes (an initiative die: its face)."""
    if n == 0:
        return None
    return sum(max(k, 0) * c for k, c in zip(keys, counts)) / n
