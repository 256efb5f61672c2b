"""Helper modules whose asserts pytest rewrites, so a failing check in one explains itself as a
check written in a test module would."""
import pytest

pytest.register_assert_rewrite("tests.game_properties", "tests.dashboards.board_checks")
