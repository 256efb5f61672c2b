"""Helper modules whose asserts pytest rewrites, so a failing check in one explains itself as a
check written in a test module would; and the hypothesis profile of CI."""
import os

import pytest
from hypothesis import settings

pytest.register_assert_rewrite("tests.game_properties", "tests.dashboards.board_checks")

# CI replays the same examples every run (a failure there is reproducible, never a coin toss);
# a developer's run draws new ones and so keeps finding what CI's fixed examples cannot.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
