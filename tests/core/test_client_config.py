"""core/client_config: the one rule for Claude Code's config folder."""

from __future__ import annotations

import pytest

from context_memory.core.client_config import claude_config_dir


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"HOME": "/home/ada"}, "/home/ada/.claude"),
        ({"HOME": "/home/ada/"}, "/home/ada/.claude"),
        ({"HOME": "/home/ada", "CLAUDE_CONFIG_DIR": "/srv/claude"}, "/srv/claude"),
        ({"HOME": "/home/ada", "CLAUDE_CONFIG_DIR": "~/cfg"}, "/home/ada/cfg"),
        ({"HOME": "/home/ada", "CLAUDE_CONFIG_DIR": "~"}, "/home/ada"),
        ({"HOME": "/home/ada", "CLAUDE_CONFIG_DIR": ""}, "/home/ada/.claude"),  # unset
        ({"HOME": "/", "CLAUDE_CONFIG_DIR": "~/cfg"}, "/cfg"),
    ],
)
def test_the_config_folder_of_an_environment(environ: dict[str, str], expected: str) -> None:
    assert claude_config_dir(environ) == expected


def test_the_process_environment_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/bob")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/.config/claude")
    assert claude_config_dir() == "/home/bob/.config/claude"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    assert claude_config_dir() == "/home/bob/.claude"
