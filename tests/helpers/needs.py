"""What a test needs from the machine (root, cron, a plain user's Python): missing, it is
skipped with the reason on a developer's machine and fails in CI (CI=true), where the
tests must never be skipped (tests/setup/test_crontab.py, tests/install/test_pipx_uv_cycle.py)."""

from __future__ import annotations

import os

import pytest


def missing(reason: str) -> None:
    """A test that needs root or cron: skipped with the reason on a developer's machine,
    failed in CI (CI=true), where the tests must never be skipped."""
    if os.environ.get("CI"):
        pytest.fail(reason + " (tests must not be skipped in CI)")
    pytest.skip(reason)
