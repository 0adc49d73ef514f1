"""The installer's step for --uninstall that takes the toolkit's files and block out of
Claude Code's auto-memory folders (memory/native.py does the removal); the model's own
files and lines stay."""

from __future__ import annotations

from dataclasses import dataclass

from context_memory.setup.install.options import Step
from context_memory.setup.install.venv import PREFIX


@dataclass(frozen=True)
class AutoMemory(Step):
    """--uninstall: every auto-memory folder of ``projects`` (this run's and the projects
    the install record names) and every ``~/.claude/projects/*/memory``."""

    projects: tuple[str, ...]

    def show(self) -> None:
        from context_memory.memory.native import toolkit_folders

        for folder in toolkit_folders(self.projects):
            print(f"{PREFIX} would take the toolkit's lines and files out of {folder}")

    def apply(self) -> None:
        from context_memory.memory.native import remove_everywhere

        for item in remove_everywhere(self.projects):
            print(f"{PREFIX} removed {item}")
