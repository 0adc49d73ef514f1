"""One line of ctx-doctor's report: a check's name, OK / WARN / FAIL, what was found and the fix."""

from __future__ import annotations

from typing import Any, NamedTuple

from context_memory.core.safe_text import visible

OK = "OK"
WARN = "WARN"
FAIL = "FAIL"
SHOWN_ITEMS = 3
NAME_WIDTH = 24


class Check(NamedTuple):
    name: str
    status: str
    message: str
    fix: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"check": self.name, "status": self.status, "message": self.message, "fix": self.fix}

    def line(self) -> str:
        text = f"{self.status:<4}  {self.name:<{NAME_WIDTH}} {self.message}"
        # safe_text's rule, spacing kept: a newline in a path shows as \\n, and each
        # check stays one line.
        return visible(text + (f" -- fix: {self.fix}" if self.fix else ""))


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def shortlist(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN_ITEMS])
    return shown + (f" and {len(items) - SHOWN_ITEMS} more" if len(items) > SHOWN_ITEMS else "")
