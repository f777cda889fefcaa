"""Shared test set-up. The helpers the scenario tests share live in `scenario_testing.py` (a
module, so tests import them by name); its asserts are rewritten like a test's, so a failing
helper assertion shows the values."""

import pytest

pytest.register_assert_rewrite("scenario_testing")
