"""The Dice odds page (dashboards/app_pages/dice.py) run with Streamlit's AppTest: every number
it shows is engine.v20.dice's, for the roll the person set up; it reads no lake; only the
games declaring the "dice" capability list it."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.data import LAKE_ENV
from dashboards.pages import pages_for
from engine.v20.dice import (
    BOTCH,
    chance_of_botch,
    chance_of_success,
    distribution,
    expected_net,
    outcome_name,
)

PAGE = Path(__file__).resolve().parents[2] / "dashboards" / "app_pages" / "dice.py"


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The page on its own, with no lake configured: it needs none."""
    monkeypatch.delenv(LAKE_ENV, raising=False)
    return AppTest.from_file(str(PAGE), default_timeout=60).run()


def fraction_in(help_text: str) -> Fraction:
    """The exact value a metric's help states ("... exactly 87647/100000.")."""
    return Fraction(help_text.rsplit("exactly ", 1)[1].rstrip("."))


def shown_percent(value: str) -> float:
    return float(value.lstrip("<> ").rstrip("%"))


def assert_metrics_match(at: AppTest, law: dict[int, Fraction]) -> None:
    metrics = {m.label: m for m in at.metric}
    for label, exact in (("Chance of success", chance_of_success(law)),
                         ("Chance of a botch", chance_of_botch(law))):
        metric = metrics[label]
        assert fraction_in(metric.help) == exact
        assert shown_percent(metric.value) == pytest.approx(float(exact) * 100, abs=0.005)
    mean = metrics["Expected net successes"]
    assert fraction_in(mean.help) == expected_net(law)
    assert float(mean.value) == pytest.approx(float(expected_net(law)), abs=0.0005)


def chart_data(at: AppTest) -> tuple[pd.DataFrame, dict[str, object]]:
    """The bar chart's rows and its Vega-Lite spec, as the page sent them to the browser."""
    chart = at.get("vega_lite_chart")[0].proto
    rows = pa.ipc.open_stream(chart.datasets[0].data.data).read_pandas()
    return rows, json.loads(chart.spec)


def test_the_default_roll_is_the_engines(page: AppTest) -> None:
    assert not page.exception
    assert page.title[0].value == "Dice odds"
    assert_metrics_match(page, distribution(6, 6))


def test_every_input_changes_the_figures_as_the_engine_says(page: AppTest) -> None:
    page.number_input(key="dice_pool").set_value(12)
    page.slider(key="dice_difficulty").set_value(8)
    page.checkbox(key="dice_specialty").check()
    page.number_input(key="dice_auto").set_value(1).run()
    assert not page.exception
    assert_metrics_match(page, distribution(12, 8, specialty=True, auto=1))
    page.number_input(key="dice_auto").set_value(0)
    page.checkbox(key="dice_no_botch").check().run()
    law = distribution(12, 8, specialty=True, can_botch=False)
    assert_metrics_match(page, law)
    assert chance_of_botch(law) == 0 and "botch" not in list(chart_data(page)[0]["outcome"])


def test_the_chart_has_a_bar_per_outcome_with_its_exact_fraction(page: AppTest) -> None:
    page.number_input(key="dice_pool").set_value(5)
    page.slider(key="dice_difficulty").set_value(7).run()
    rows, spec = chart_data(page)
    law = distribution(5, 7)
    assert list(rows["order"]) == sorted(law)
    assert list(rows["outcome"]) == ["botch" if k == BOTCH else str(k) for k in sorted(law)]
    assert [Fraction(f) for f in rows["fraction"]] == [law[k] for k in sorted(law)]
    assert list(rows["name"]) == [outcome_name(k) for k in sorted(law)]
    assert rows["probability"].tolist() == pytest.approx([float(law[k]) for k in sorted(law)])
    encoding = spec["encoding"]
    assert isinstance(encoding, dict)
    assert [t["field"] for t in encoding["tooltip"]] == ["name", "percent", "fraction"]


def test_the_comparison_table_is_the_same_roll_at_every_difficulty(page: AppTest) -> None:
    page.number_input(key="dice_pool").set_value(4)
    page.checkbox(key="dice_specialty").check().run()
    table = page.dataframe[1].value
    assert list(table["difficulty"]) == list(range(2, 11))
    for _, row in table.iterrows():
        law = distribution(4, int(row["difficulty"]), specialty=True)
        assert shown_percent(row["chance of success"]) == pytest.approx(
            float(chance_of_success(law)) * 100, rel=0.01, abs=0.005)
        assert row["expected net successes"] == pytest.approx(float(expected_net(law)),
                                                               abs=0.0005)


def test_a_tiny_chance_is_never_rounded_to_nothing(page: AppTest) -> None:
    """Six dice at difficulty 2 botch one time in a million: not 0%; twenty dice far less,
    still not 0%; a certain-looking success that is not certain is not 100%."""
    table = page.dataframe[1].value
    assert table["chance of a botch"].iloc[0] == "0.0001%"
    page.number_input(key="dice_pool").set_value(20)
    page.slider(key="dice_difficulty").set_value(2).run()
    metrics = {m.label: m.value for m in page.metric}
    assert metrics["Chance of a botch"] == "< 0.000001%"
    assert metrics["Chance of success"] == "> 99.99%"


def test_only_games_with_dice_list_the_page() -> None:
    def titles(game: str) -> list[str]:
        return [spec.title for specs in pages_for(game).values() for spec in specs]

    assert "Dice odds" in titles("v20")
    assert "Dice odds" not in titles("vitorian") and "Dice odds" not in titles("eredan")
