"""Budget bands: which band a percentage falls in, the instruction for it, and its colour
in a terminal (the status line and ctx-usage --timeline).

Standard library only: on the prompt path.
"""

from __future__ import annotations

from context_memory import TYPE_CHECKING
from context_memory.core import lightos
from context_memory.core.prompt_tables import (
    BAND_NAMES,
    BAND_TEXTS,
    BUDGET_PREFIX,
    DEFAULT_BAND_THRESHOLDS,
)

if TYPE_CHECKING:
    from collections.abc import Mapping


class BandConfigError(ValueError):
    """CTX_BANDS is not four ascending percentages."""


def band_thresholds(env: Mapping[str, str] | None = None) -> tuple[float, ...]:
    """Lower bounds of warn, prefer-subagent, must-subagent and stop, in percent.

    ``CTX_BANDS="40,60,80,95"`` overrides the defaults.
    """
    env = lightos.environ() if env is None else env
    raw = env.get("CTX_BANDS", "").strip()
    if not raw:
        return DEFAULT_BAND_THRESHOLDS
    try:
        values = tuple(float(part) for part in raw.split(","))
    except ValueError:
        raise BandConfigError(
            f"CTX_BANDS={raw!r}: expected four numbers like 40,60,80,95"
        ) from None
    if len(values) != 4 or list(values) != sorted(values) or not 0 < values[0] <= values[-1] <= 100:
        raise BandConfigError(
            f"CTX_BANDS={raw!r}: expected four ascending percentages between 0 and 100"
        )
    return values


def classify(percent: float, thresholds: tuple[float, ...] = DEFAULT_BAND_THRESHOLDS) -> str:
    band = BAND_NAMES[0]
    for bound, name in zip(thresholds, BAND_NAMES[1:], strict=False):
        if percent >= bound:
            band = name
    return band


def format_tokens(tokens: int) -> str:
    """150000 -> '150K', 1000000 -> '1M', 1500 -> '2K', 800 -> '800'."""
    if tokens >= 1_000_000 and tokens % 1_000_000 == 0:
        return f"{tokens // 1_000_000}M"
    if tokens >= 1_000:
        return f"{round(tokens / 1000)}K"
    return str(tokens)


def format_percent(percent: float) -> str:
    text = f"{percent:.1f}"
    return (text.removesuffix(".0")) + "%"


def language(env: Mapping[str, str] | None = None) -> str:
    env = lightos.environ() if env is None else env
    lang = env.get("CTX_LANG", "en").strip().lower()
    return "zh" if lang.startswith("zh") else "en"


def usage_text(tokens: int, window: int, percent: float) -> str:
    """How full the context is, in the budget's texts: ``~150K/200K (75%)``."""
    return f"~{format_tokens(tokens)}/{format_tokens(window)} ({format_percent(percent)})"


def budget_text(
    band: str, tokens: int, window: int, percent: float, lang: str = "en"
) -> str | None:
    """The instruction injected for ``band``; None for the free band (inject nothing)."""
    template = BAND_TEXTS.get(lang, BAND_TEXTS["en"]).get(band)
    if template is None:
        return None
    return template.format(prefix=BUDGET_PREFIX, usage=usage_text(tokens, window, percent))


# SGR colours per band: green, yellow, bold yellow, red, bold red.
BAND_COLORS = {
    "free": "32",
    "warn": "33",
    "prefer-subagent": "1;33",
    "must-subagent": "31",
    "stop": "1;31",
}


def color_enabled(env: Mapping[str, str]) -> bool:
    """Colours unless NO_COLOR (https://no-color.org) or a terminal that has none.

    stdout is a pipe to the client, never a tty, so the terminal's TERM decides.
    FORCE_COLOR turns colours on whatever TERM says.
    """
    if env.get("NO_COLOR", ""):
        return False
    force = env.get("FORCE_COLOR", "")
    if force and force not in ("0", "false"):
        return True
    term = env.get("TERM", "")
    return bool(term) and term != "dumb"
