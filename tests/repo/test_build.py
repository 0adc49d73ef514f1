"""Building the package prints no warning (issue 25): setuptools warned that
`project.license` as a TOML table is deprecated and that such builds stop working on
2027-02-18. The build here is what ./install and pip run, with the setuptools of this
environment (the dev extra asks for the floor of build-system.requires, so it is one that
knows the SPDX form) and no network: --no-build-isolation, --no-index."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

from helpers.installed import copy_source
from helpers.paths import REPO, subprocess_env

pytestmark = pytest.mark.slow  # a real pip build: seconds

PYPROJECT = (REPO / "pyproject.toml").read_text(encoding="utf-8")
# A Python warning as warnings.showwarning prints it: "...: SetuptoolsDeprecationWarning: ...".
WARNING = re.compile(r"\b[A-Z]\w*Warning\b")


def release(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def setuptools_floor() -> str:
    requires = re.search(r'^requires = \["setuptools>=([0-9.]+)"\]$', PYPROJECT, re.MULTILINE)
    assert requires, "build-system.requires names one setuptools floor"
    return requires[1]


def test_the_dev_extra_asks_for_the_build_floor_and_it_is_installed() -> None:
    floor = setuptools_floor()
    dev = PYPROJECT.split("\ndev = [", 1)[1].split("]", 1)[0]
    assert f'"setuptools>={floor}"' in dev
    installed = version("setuptools")
    assert release(installed) >= release(floor), (
        f"setuptools {installed} here is older than the build floor {floor}: "
        "pip install -e '.[dev]' again"
    )


def test_a_wheel_builds_without_a_warning_and_carries_the_spdx_licence(tmp_path: Path) -> None:
    source = copy_source(tmp_path / "source")
    out = tmp_path / "wheels"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=600, check=False,
        env=subprocess_env(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1"),
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Building wheel for context-memory" in output  # -v shows the backend's output
    warned = [line.strip() for line in output.splitlines() if WARNING.search(line)]
    assert warned == []
    (wheel,) = out.glob("context_memory-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = (n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        headers = archive.read(metadata).decode().split("\n\n", 1)[0].splitlines()
        licences = [n for n in archive.namelist() if "/licenses/" in n]
        tables = sorted(n for n in archive.namelist() if "/capture/languages/" in n)
    assert "License-Expression: MIT" in headers
    assert "License-File: LICENSE" in headers
    assert not [line for line in headers if line.startswith("License:")]
    assert [n.split(".dist-info/", 1)[1] for n in licences] == ["licenses/LICENSE"]
    # The language tables are data files (package-data): capture reads them at every Stop.
    shipped = source / "hooks" / "context_memory" / "capture" / "languages"
    assert tables == sorted(f"context_memory/capture/languages/{p.name}" for p in shipped.iterdir())
    assert "context_memory/capture/languages/index.txt" in tables and len(tables) == 16
