"""A throwaway system user, for the tests that own another user's crontab or act as a plain
user (tests/setup/test_crontab.py, tests/install/test_pipx_uv_cycle.py): made with useradd,
deleted with userdel; both need root."""

from __future__ import annotations

import os
import secrets
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from helpers.needs import missing

USERADD_TRIES = 50


def run_command(*argv: str) -> subprocess.CompletedProcess[str]:
    """ARGV (useradd, userdel, crontab...) with its output captured as text; never raises
    on a failing exit status (the caller reads it)."""
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


@contextmanager
def throwaway_user(prefix: str, *useradd_options: str, reason_for_root: str) -> Iterator[str]:
    """A new user named PREFIX and eight hex digits (``useradd OPTIONS NAME``), deleted on
    exit. Without root: ``missing(reason_for_root)``. useradd is tried again while another
    one holds the lock of /etc/passwd; any other failure fails the test."""
    if os.geteuid() != 0:
        missing(reason_for_root)
    name = prefix + secrets.token_hex(4)
    for _ in range(USERADD_TRIES):
        done = run_command("useradd", *useradd_options, name)
        if done.returncode == 0:
            break
        if "lock" not in done.stderr:
            pytest.fail(f"useradd {name} failed: {done.stderr.strip()}")
        time.sleep(0.1)  # another useradd holds /etc/passwd: try again
    else:
        pytest.fail(f"useradd {name}: /etc/passwd stayed locked")
    try:
        yield name
    finally:
        run_command("userdel", name)
