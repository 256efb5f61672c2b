"""Every rule ID a game's spec defines is cited by a test, or listed with a reason as untested.

The IDs are read from each game's rule_ids.txt, the spec's index kept in the repository (the
specs live beside it, in ../shared/rules, which a checkout elsewhere does not have); where the
spec is, the index is checked against it.

A spec defines a rule where a Markdown list item opens with its ID, bold or not
("- **VW-6.12** ...", "- ER-1.1 ..."); every other mention of an ID (a cross-reference, a
rationale, the open-questions table) only points at it. A test cites a rule by its ID
("VW-6.12") or, in a test's name, by its underscored form ("test_vw_6_12_..."), anywhere in a
tests/**/*.py file (this one excepted). Ranges ("VW-6.12 to VW-6.14", "VW-6.12–6.14") cite their
first ID only: each rule is named where it is exercised.

A rule that needs no test of its own (an introduction, a glossary line, advice with no
mechanics) is listed in the game's untested_rules.toml, under [untested], with its reason. The
list must stay honest: every entry names a rule of the spec that no test cites (once a test
cites it, the entry goes). A missing list is an empty one.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
SPECS = TESTS.parent.parent / "shared" / "rules"
"""The rules specs live beside the project (README: ../shared/rules/)."""


@dataclass(frozen=True)
class Game:
    spec: str
    prefix: str
    untested: Path

    @property
    def index(self) -> Path:
        """The spec's rule IDs, one a line, kept beside the untested list: the tests read the
        IDs from here, so they run on any checkout; test_the_index_is_the_specs keeps it equal
        to the spec wherever the spec is (`python -m tests.test_rule_ids_cited` rewrites it)."""
        return self.untested.with_name("rule_ids.txt")


GAMES = [
    pytest.param(Game("vitorian-wars.md", "VW", TESTS / "vitorian" / "untested_rules.toml"),
                 id="vitorian"),
    pytest.param(Game("eredan.md", "ER", TESTS / "eredan" / "untested_rules.toml"),
                 id="eredan"),
]


def rule_key(rule: str) -> tuple[int, ...]:
    """"VW-6.12" -> (6, 12), so IDs sort as the spec numbers them."""
    return tuple(int(part) for part in rule.split("-", 1)[1].split("."))


def defined_ids(text: str, prefix: str) -> list[str]:
    """The IDs the spec defines, in order of definition (a list item opening with the ID)."""
    pattern = re.compile(rf"^[ \t]*[-*][ \t]+(?:\*\*)?({prefix}-\d+\.\d+)(?!\d)",
                         re.MULTILINE)
    return pattern.findall(text)


def cited_ids(text: str, prefix: str) -> set[str]:
    """The IDs a test file cites: "VW-6.12" anywhere, "vw_6_12" in a name."""
    dashed = re.compile(rf"(?<![A-Za-z0-9]){prefix}-(\d+)\.(\d+)(?!\d)")
    underscored = re.compile(rf"(?<![A-Za-z0-9]){prefix}_(\d+)_(\d+)(?!\d)", re.IGNORECASE)
    return {f"{prefix}-{section}.{number}" for pattern in (dashed, underscored)
            for section, number in pattern.findall(text)}


def scanned_files() -> list[Path]:
    here = Path(__file__).resolve()
    return sorted(p for p in TESTS.rglob("*.py") if p.resolve() != here)


def untested_list(path: Path) -> dict[str, str]:
    """The [untested] table: rule ID -> reason; a missing file is an empty list."""
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    unknown = set(data) - {"untested"}
    assert not unknown, f"{path}: only an [untested] table is expected, found {sorted(unknown)}"
    table = data.get("untested", {})
    assert isinstance(table, dict), f"{path}: [untested] must be a table of ID = reason"
    return table


def _ids(rules: set[str] | list[str]) -> str:
    return ", ".join(sorted(rules, key=rule_key))


def indexed_ids(game: Game) -> list[str]:
    return game.index.read_text(encoding="utf-8").split()


@pytest.mark.parametrize("game", GAMES)
def test_the_index_is_the_specs(game: Game) -> None:
    """The index holds each ID once, in the spec's order; where the spec is (../shared/rules
    beside the project), exactly the IDs it defines."""
    indexed = indexed_ids(game)
    assert indexed and all(re.fullmatch(rf"{game.prefix}-\d+\.\d+", rule) for rule in indexed)
    assert len(set(indexed)) == len(indexed), f"{game.index}: an ID listed twice"
    spec = SPECS / game.spec
    if spec.exists():
        defined = defined_ids(spec.read_text(encoding="utf-8"), game.prefix)
        twice = {rule for rule in defined if defined.count(rule) > 1}
        assert not twice, f"{game.spec} defines these IDs more than once: {_ids(twice)}"
        assert indexed == defined, (f"{game.index} is not {spec}'s IDs: rewrite it with "
                                    "`python -m tests.test_rule_ids_cited`")


@pytest.mark.parametrize("game", GAMES)
def test_every_spec_rule_is_cited_by_a_test_or_listed_untested(game: Game) -> None:
    defined = indexed_ids(game)

    cited: set[str] = set()
    for path in scanned_files():
        cited |= cited_ids(path.read_text(encoding="utf-8"), game.prefix)
    listed = untested_list(game.untested)
    where = game.untested.relative_to(TESTS.parent)

    blank = {rule for rule, why in listed.items() if not (isinstance(why, str) and why.strip())}
    assert not blank, f"{where}: give each untested rule a reason: {_ids(blank)}"
    unknown = set(listed) - set(defined)
    assert not unknown, f"{where} lists IDs {game.spec} does not define: {_ids(unknown)}"
    both = set(listed) & cited
    assert not both, (f"{where} lists rules that tests cite (take them off the list): "
                      f"{_ids(both)}")
    missing = set(defined) - cited - set(listed)
    assert not missing, (f"{len(missing)} of the {len(defined)} {game.prefix}- rules of "
                         f"{game.spec} are neither cited by a test under tests/ nor listed in "
                         f"{where}: {_ids(missing)}")


def test_definitions_and_citations_are_read_exactly() -> None:
    """The scanners themselves: definitions only where a list item opens with the ID, bold or
    not; citations whole (VW-1.1 is not read inside VW-1.10), dashed or underscored."""
    spec = ("- **XX-1.1** a rule (see XX-9.9).\n- XX-1.10 another\n  - **XX-2.3**: nested\n"
            "| 4 | XX-7.7 | decided |\nText citing XX-8.8.\n")
    assert defined_ids(spec, "XX") == ["XX-1.1", "XX-1.10", "XX-2.3"]
    source = ('def test_xx_3_17_a():\n    """XX-1.10, XX-2.4 to XX-2.6."""\n'
              "def helper_4_5(): pass  # not a citation: no prefix\n")
    assert cited_ids(source, "XX") == {"XX-3.17", "XX-1.10", "XX-2.4", "XX-2.6"}


def write_indexes() -> None:
    """Rewrite each game's rule_ids.txt from its spec."""
    for param in GAMES:
        game = param.values[0]
        ids = defined_ids((SPECS / game.spec).read_text(encoding="utf-8"), game.prefix)
        game.index.write_text("\n".join(ids) + "\n", encoding="utf-8")
        print(f"{game.index}: {len(ids)} IDs")


if __name__ == "__main__":
    write_indexes()
